// The room page's invite panel: the share sheet where the browser has one, else the QR code
// (drawn by the server) and "Copy" (room.js) do the job. On a phone or a tablet the QR code is
// folded: one tap shows it to a friend at the table.
import { gettext } from "../shared/i18n.js";
import { offerShare } from "../shared/share.js";

const url = document.getElementById("invite-url");
if (url) {
  offerShare(document.getElementById("share-link"),
    () => ({ title: document.title, url: url.textContent.trim() }));
}

const toggle = document.getElementById("qr-toggle");
if (toggle) {
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? gettext("Hide the QR code") : gettext("Show the QR code");
    document.getElementById("invite").classList.toggle("qr-open", open);
  });
}

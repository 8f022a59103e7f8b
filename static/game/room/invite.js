// The room page's invite panel: the share sheet where the browser has one, else the QR code
// (drawn by the server) and "Copy" (room.js) do the job.
import { offerShare } from "../shared/share.js";

const url = document.getElementById("invite-url");
if (url) {
  offerShare(document.getElementById("share-link"),
    () => ({ title: document.title, url: url.textContent.trim() }));
}

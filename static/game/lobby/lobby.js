// The lobby's lists stay current without a reload: every few seconds (while the tab is
// shown) fetch the server-rendered lists and swap them in when they changed. Polling a small
// fragment rather than a socket: see docs/architecture.md ("The lobby").

import { gettext } from "../shared/i18n.js";

const POLL_MS = 4000;
const box = document.getElementById("lobby-rooms");
let shown = null; // the last fragment swapped in

async function refresh() {
  if (document.visibilityState !== "visible") return;
  try {
    // "no-cache": revalidate with the ETag; an unchanged list costs a bodiless 304.
    const resp = await fetch(box.dataset.src, { cache: "no-cache", credentials: "same-origin" });
    if (!resp.ok) return;
    const html = await resp.text();
    if (html !== shown) {
      shown = html;
      const fresh = document.createRange().createContextualFragment(html);
      box.replaceChildren(fresh);
    }
  } catch {
    // offline for a moment: the next poll tries again
  }
}

if (box && box.dataset.src) {
  setInterval(refresh, POLL_MS);
  document.addEventListener("visibilitychange", refresh);
}

// "Play with friends" needs the creator's name (it goes on their seat): asked in place before
// the form is sent, never refused after. A room of computers alone has no seat for them.
const createForm = document.querySelector(".create-form");
if (createForm) {
  const name = createForm.querySelector("input[name=nickname]");
  const error = document.getElementById("friends-name-error");
  const people = () => [...createForm.querySelectorAll("select[name^=seat_]")]
    .slice(0, Number(createForm.querySelector("select[name=seats]").value) || 1)
    .some((seat) => seat.value === "human");
  createForm.addEventListener("submit", (e) => {
    if (name.value.trim() || !people()) return;
    e.preventDefault();
    error.textContent = gettext("Your name, please: it goes on your seat.");
    error.hidden = false;
    name.setAttribute("aria-invalid", "true");
    name.focus();
  });
  name.addEventListener("input", () => {
    if (!name.value.trim()) return;
    error.hidden = true;
    name.removeAttribute("aria-invalid");
  });
}

// Sharing from a page: the system share sheet where the browser has one (phones; the button
// stays hidden elsewhere), and copying to the clipboard (where that is refused, the button
// shows the text to copy by hand).

/** Show `button` and open the share sheet with `what()` ({title, text, url}) on a click. */
export function offerShare(button, what) {
  if (!button || typeof navigator.share !== "function") return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.share(what());
    } catch {
      // the player closed the share sheet: nothing to do
    }
  });
}

/** Copy `text()` on a click of `button`, saying `done` on it for a few seconds. */
export function offerCopy(button, text, done) {
  if (!button) return;
  const label = button.textContent;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = done;
    } catch {
      button.textContent = text();
    }
    setTimeout(() => { button.textContent = label; }, 3000);
  });
}

// The lobby's lists stay current without a reload: every few seconds (while the tab is
// shown) fetch the server-rendered lists and swap them in when they changed. Polling a small
// fragment rather than a socket: see docs/architecture.md ("The lobby").

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

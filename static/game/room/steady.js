// A change the reader did not make — a game that starts or ends while they watch — shows a
// panel above what they are looking at, and the page would jump under their eyes. Instead
// what they look at stays put (the window scrolls by what was added above it), then the
// window glides to the new panel: a scroll they can follow rather than a jump.

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** How much of `el` the window shows (px²), and where its top is. */
function seen(el) {
  const box = el.getBoundingClientRect();
  const height = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
  return { top: box.top, area: el.getClientRects().length ? Math.max(0, height) * box.width : 0 };
}

/** About how long a smooth scroll across a page takes. */
const GLIDE_MS = 800;

/**
 * Run `change()` (which redraws the page), keeping in place the one of `panels` the reader
 * sees most of among those it moved, then scroll to `reveal` (its top, less `margin` px), or
 * back to where the window was, and call `settled()` once there. (What did not move, a
 * header above the change, is not the anchor: held in place, it would leave everything below
 * it to jump.) Another panel that changes its height in `change()` moves the ones below it:
 * a change of that kind waits for `settled`, when the reader looks elsewhere.
 */
export function holdStill(panels, change, reveal = null, margin = 8, settled = null) {
  const before = panels.map((el) => ({ el, ...seen(el) })).filter((p) => p.area > 0)
    .sort((a, b) => b.area - a.area);
  const startY = window.scrollY;
  change();
  const movedBy = (p) => p.el.getBoundingClientRect().top - p.top;
  const anchor = before.find((p) => p.el.getClientRects().length && Math.abs(movedBy(p)) >= 1);
  if (anchor) window.scrollBy(0, movedBy(anchor));
  // Two frames: the first paints the page as it was, the second starts the glide.
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const top = reveal && reveal.getClientRects().length
      ? Math.max(0, reveal.getBoundingClientRect().top + window.scrollY - margin) : startY;
    window.scrollTo({ top, behavior: reducedMotion() ? "auto" : "smooth" });
    if (settled) setTimeout(settled, reducedMotion() ? 0 : GLIDE_MS);
  }));
}

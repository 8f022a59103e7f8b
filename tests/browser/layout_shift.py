"""Layout shift as Chrome reports it to a page (the Layout Instability API, the measure behind
Lighthouse's CLS): an observer installed before the page's first byte adds up every shift not
caused by the person's own input, and keeps what moved, to tell which element to fix.

Unlike Lighthouse, which keeps the worst five-second window, the sum here runs over the whole
visit: a page that shifts a little on every turn of a game fails it.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import BrowserContext, Page

#: Installed with ``add_init_script``: it runs in every document before the page's scripts
#: (not subject to the page's Content-Security-Policy).
_OBSERVE = """(() => {
  const shifts = [];
  window.__layoutShifts = shifts;
  const name = (node) => {
    if (!node || node.nodeType !== 1) return node ? node.nodeName : "?";
    return node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
      + [...node.classList].slice(0, 2).map((c) => "." + c).join("");
  };
  const rect = (r) => `${Math.round(r.y)}+${Math.round(r.height)}`;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      shifts.push({value: entry.value, at: Math.round(entry.startTime),
                   sources: (entry.sources || []).map((s) =>
                     `${name(s.node)} ${rect(s.previousRect)}→${rect(s.currentRect)}`)});
    }
  }).observe({type: "layout-shift", buffered: true});
})();"""

#: The most layout shift a whole visit may add up to (Google's "good" CLS is under 0.1).
MOST = 0.1


def observe_layout_shift(context: BrowserContext) -> None:
    """Every page of ``context`` from now on records its layout shifts."""
    context.add_init_script(_OBSERVE)


@dataclass
class Shifts:
    total: float
    entries: list[dict]

    def report(self) -> str:
        return "\n".join(f"  {e['value']:.4f} at {e['at']} ms: {'; '.join(e['sources'])}"
                         for e in self.entries if e["value"] >= 0.001)


def layout_shift(page: Page) -> Shifts:
    """The shifts the page recorded since it loaded (a frame's wait first: the observer is
    told of a shift after the frame that made it)."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)))")
    entries = page.evaluate("() => window.__layoutShifts || []")
    return Shifts(sum(e["value"] for e in entries), entries)


class Stillness:
    """The shifts of several visits, each checked, all reported at once at the end."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self.moved: list[str] = []

    def check(self, page: Page, what: str, since: float = 0.0) -> float:
        """The page's shift so far (less ``since``, a total read before) must stay under MOST;
        returns its total so far."""
        shifts = layout_shift(page)
        self.totals[what] = shifts.total - since
        if shifts.total - since >= MOST:
            self.moved.append(f"{what}: the page shifted {shifts.total - since:.3f}:\n"
                              f"{shifts.report()}")
        return shifts.total

    def note(self, page: Page, what: str) -> float:
        """The page's shift so far, reported but not checked; returns it."""
        total = layout_shift(page).total
        self.totals[what] = total
        return total

    def assert_still(self) -> None:
        print("\n".join(f"layout shift {total:.4f}  {what}"
                        for what, total in self.totals.items()))  # shown with -s
        assert not self.moved, f"pages that moved (under {MOST} wanted):\n" + "\n".join(
            self.moved)

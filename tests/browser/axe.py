"""axe-core, the accessibility checker, run inside our pages (npm package, package.json).

The pinned copy under node_modules/ (`make node-tools`, run by `make test`) is injected into the
page by Playwright: the page's Content-Security-Policy allows no inline script, so the context
that runs it must be made with ``bypass_csp=True``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.1 A and AA, the level the site promises.
WCAG21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: Rules of those criteria that axe leaves off by default, checked as well: a visible label that
#: is not the start of the accessible name (speech users say what they see; off as
#: experimental) and duplicate ids (two controls behind one <label for>; obsolete in WCAG 2.2).
ALSO = ["label-content-name-mismatch", "duplicate-id"]
#: Elements listed per rule in the report (a long log repeats one fault a hundred times).
SHOWN = 3

_RUN = """async ([tags, also]) => {
  const rules = Object.fromEntries(also.map((id) => [id, {enabled: true}]));
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, rules});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    why: v.nodes[0].failureSummary.split("\\n").slice(1).map((s) => s.trim()).join(" "),
    targets: v.nodes.map((n) => n.target.join(" ")),
  }));
}"""


def axe_violations(page: Page) -> list[str]:
    """Every WCAG 2.1 AA violation axe finds on the page as it is now, one line per rule."""
    if not AXE_JS.exists():
        pytest.fail(f"No axe-core at {AXE_JS}: run `make node-tools` (npm ci).")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE_JS))
    return [f"{v['id']} ({v['impact']}: {v['help']}) on {len(v['targets'])} element(s): "
            f"{', '.join(v['targets'][:SHOWN])}{' ...' if len(v['targets']) > SHOWN else ''}"
            f" -- {v['why']}"
            for v in page.evaluate(_RUN, [WCAG21_AA, ALSO])]

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
#: A rule of those criteria that axe leaves off by default (experimental), checked as well: a
#: control's name must contain the text it shows (speech users say what they see).
ALSO = ["label-content-name-mismatch"]
#: Elements listed per rule in the report (a long log repeats one fault a hundred times).
SHOWN = 3

# Beside axe's rules, an id used twice (a <label for> then names only the first of two
# controls): axe's own rule for it went with WCAG 2.2.
_RUN = """async ([tags, also]) => {
  const rules = Object.fromEntries(also.map((id) => [id, {enabled: true}]));
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, rules});
  const found = result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    why: v.nodes[0].failureSummary.split("\\n").slice(1).map((s) => s.trim()).join(" "),
    targets: v.nodes.map((n) => n.target.join(" ")),
  }));
  const seen = new Map();
  for (const el of document.querySelectorAll("[id]")) seen.set(el.id, (seen.get(el.id) || 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => `#${id}`);
  if (twice.length) {
    found.push({id: "duplicate-id", impact: "serious", help: "ids must be unique", why: "",
                targets: twice});
  }
  return found;
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

"""A page that loads an ES module preloads every module it imports, however deep: the browser
then fetches them all at once instead of one level of imports after another. The lists in the
templates are written by hand; this reads the import statements and the templates."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
TEMPLATES = ROOT / "templates"

# `import … from "./x.js"`, `export … from "./x.js"` (over several lines too), `import "./x.js"`.
IMPORT = re.compile(r"""\b(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']"""
                    r"""|\bimport\s*["']([^"']+)["']""")
SCRIPT = re.compile(r"""<script type="module" src="\{% static '([^']+)' %\}">""")
PRELOAD = re.compile(r"""<link rel="modulepreload" href="\{% static '([^']+)' %\}">""")


def imports_of(name: str) -> set[str]:
    """The static path of every module ``name`` (a static path) imports, directly or not."""
    found: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        source = (STATIC / current).read_text()
        for match in IMPORT.finditer(source):
            spec = match.group(1) or match.group(2)
            path = posixpath.normpath(posixpath.join(posixpath.dirname(current), spec))
            if path not in found:
                found.add(path)
                todo.append(path)
    return found


def test_the_import_reader_follows_every_form_of_import() -> None:
    source = """import { a,
      b } from "./one.js";
    export { c } from './two.js';
    import "./three.js";
    const later = import("./not-preloaded.js");"""
    assert [m.group(1) or m.group(2) for m in IMPORT.finditer(source)] == [
        "./one.js", "./two.js", "./three.js"]


#: Every template that loads a module of its own.
PAGES = sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html")
               if SCRIPT.search(p.read_text()))


def test_the_pages_with_modules_are_found() -> None:
    assert {"base.html", "game/room.html", "game/game_detail.html"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_a_page_preloads_exactly_the_modules_its_scripts_import(page: str) -> None:
    html = (TEMPLATES / page).read_text()
    scripts = SCRIPT.findall(html)
    wanted = set().union(*(imports_of(s) for s in scripts)) - set(scripts)
    preloaded = PRELOAD.findall(html)
    assert len(preloaded) == len(set(preloaded)), "a module preloaded twice"
    assert set(preloaded) == wanted, (
        f"missing: {sorted(wanted - set(preloaded))}; not imported: "
        f"{sorted(set(preloaded) - wanted)}")

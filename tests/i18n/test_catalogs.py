"""The shipped catalogs are whole: every string the sources mark (Python, templates, scripts) has
a translation in every language of the site, none fuzzy, each compiling cleanly; the catalogs
are those `make messages` makes from today's sources."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
DOMAINS = ["django", "djangojs"]
#: What `make messages` reads: the sources people's words come from.
SOURCES = ["Makefile", "manage.py", "game", "templates", "static", "yahtzee_site", "locale"]


def entries(po_text: str) -> list[str]:
    """The msgids of a catalog's text (``msgctxt`` joined with ``|``), header excluded."""
    found = []
    for block in po_text.split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith("#")]
        msgid, context, field = "", "", ""
        for line in lines:
            key, _space, rest = line.partition(" ")
            if key in ("msgid", "msgctxt", "msgstr", "msgid_plural") or key.startswith("msgstr["):
                field = key
                line = rest
            if field in ("msgid", "msgctxt") and line.startswith('"'):
                text = line[1:-1]
                if field == "msgid":
                    msgid += text
                else:
                    context += text
        if msgid:
            found.append(f"{context}|{msgid}" if context else msgid)
    return found


def gettext_tool(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def fresh_catalogs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The catalogs `make messages` makes from today's sources, on a copy of the tree (the
    repository's own catalogs are left as they are)."""
    copy = tmp_path_factory.mktemp("tree")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns(
                "__pycache__", "*.mo"))
        else:
            shutil.copy2(source, copy / name)
    subprocess.run(["make", "-s", "messages", f"BIN={Path(sys.executable).parent}"], cwd=copy,
                   check=True, capture_output=True, text=True)
    return copy / "locale"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_translated(fresh_catalogs: Path, language: str,
                                           domain: str) -> None:
    po = fresh_catalogs / language / "LC_MESSAGES" / f"{domain}.po"
    assert po.exists(), f"no {domain} catalog for {language}"
    untranslated = entries(gettext_tool("msgattrib", "--untranslated", "--no-obsolete", str(po)))
    fuzzy = entries(gettext_tool("msgattrib", "--only-fuzzy", "--no-obsolete", str(po)))
    assert not untranslated, (f"{language} {domain}: {len(untranslated)} untranslated "
                              f"(run make messages, then translate): {untranslated[:10]}")
    assert not fuzzy, f"{language} {domain}: {len(fuzzy)} fuzzy: {fuzzy[:10]}"
    header = gettext_tool("msgattrib", "--only-fuzzy", str(po))
    assert "fuzzy" not in header, f"{language} {domain}: the header is still marked fuzzy"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_shipped_catalog_is_current_and_compiles(fresh_catalogs: Path, language: str,
                                                 domain: str) -> None:
    """The repository's catalog holds what the sources mark today, and msgfmt accepts it
    (placeholders kept, plural forms whole)."""
    shipped = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    fresh = fresh_catalogs / language / "LC_MESSAGES" / f"{domain}.po"
    current = set(entries(gettext_tool("msgattrib", "--no-obsolete", str(fresh))))
    kept = set(entries(gettext_tool("msgattrib", "--no-obsolete", str(shipped))))
    assert current <= kept, f"run make messages: {sorted(current - kept)[:10]}"
    gettext_tool("msgfmt", "--check", "-o", "/dev/null", str(shipped))


def test_entries_reads_contexts_plurals_and_skips_the_header() -> None:
    po = ('msgid ""\nmsgstr ""\n"Language: sv\\n"\n\n'
          '#: a.py\nmsgctxt "box"\nmsgid "Full house"\nmsgstr ""\n\n'
          'msgid ""\n"Two "\n"lines"\nmsgid_plural "many"\nmsgstr[0] ""\nmsgstr[1] ""\n')
    assert entries(po) == ["box|Full house", "Two lines"]

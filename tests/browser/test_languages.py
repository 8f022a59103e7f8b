"""The room mid-game and the finished game's review read in Swedish and German, on a 320 px and
a 390 px phone and a desktop: the page is in the language, the box names are the country's,
no English sentence is left, the longest words fit and nothing overflows. Screenshots are kept
in var/screenshots/ (language-*.png) to be looked at."""

from __future__ import annotations

import gettext as gnu_gettext
import re
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, ROOT, STILL
from .pages import assert_fits, create_room, play_first_box, settle
from .review_pages import play_out

pytestmark = pytest.mark.browser

LANGUAGES = ["sv", "de"]
LOOKS = [("320", {"width": 320, "height": 720}, "light"), ("390", PHONE, "light"),
         ("390", PHONE, "dark"), ("desktop", DESKTOP, "light")]
YATZY_BOXES = ["Ones", "One pair", "Two pairs", "Three of a kind", "Four of a kind",
               "Small straight", "Large straight", "Full house", "Chance"]

# Text cut or sticking out of its box: an element whose content is wider than it is, unless it
# scrolls on purpose or ends in an ellipsis (a long player name).
_OVERFLOWS_JS = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('main *, header *, footer *')) {
    // Chart marks are symbols (?!, ??) centred on their point, whatever the chart's width.
    if (!el.offsetParent || !el.textContent.trim()
        || el.closest('svg, .visually-hidden, .chart-mark')) continue;
    const style = getComputedStyle(el);
    if (['auto', 'scroll'].includes(style.overflowX) || style.textOverflow === 'ellipsis'
        || style.display === 'inline' || style.display === 'contents') continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      bad.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')}#${el.id}: `
        + `${el.scrollWidth}px in ${el.clientWidth}px: ${el.textContent.trim().slice(0, 40)}`);
    }
  }
  return bad;
}"""

_TEXTS_JS = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, [hidden], .visually-hidden')) continue;
    const t = n.textContent.replace(/\\s+/g, ' ').trim();
    if (t) texts.push(t);
  }
  for (const el of document.querySelectorAll('[aria-label], [title]')) {
    for (const a of ['aria-label', 'title']) if (el.getAttribute(a)) texts.push(el.getAttribute(a));
  }
  return texts;
}"""


def english_sentences(language: str) -> set[str]:
    """The catalogs' English strings that read differently in ``language`` (whole strings of
    two words or more, no placeholders): any of them on a page is an English leftover."""
    found = set()
    for domain in ("django", "djangojs"):
        mo = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"
        with Path(mo).open("rb") as f:
            catalog = gnu_gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
        for key, value in catalog.items():
            msgid = key[0] if isinstance(key, tuple) else key
            msgid = msgid.split("\x04")[-1]
            if (msgid and value != msgid and " " in msgid and "%" not in msgid
                    and "<" not in msgid and len(msgid) > 6):
                found.add(msgid)
    return found


def box_names(language: str) -> list[str]:
    with translation.override(language):
        return [translation.pgettext("box", label) for label in YATZY_BOXES]


def look_at(page: Page, language: str, name: str, screenshots: Path) -> None:
    settle(page)
    page.screenshot(path=str(screenshots / f"language-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.lang") == language
    assert_fits(page)
    overflows = page.evaluate(_OVERFLOWS_JS)
    assert overflows == [], f"{name}: " + "\n".join(overflows)
    texts = set(page.evaluate(_TEXTS_JS))
    leftovers = texts & english_sentences(language)
    assert not leftovers, f"{name}: English left: {sorted(leftovers)}"


def open_as(browser, storage: dict, url: str, language: str, look) -> Page:
    _size, viewport, scheme = look
    phone = viewport is not DESKTOP
    context = browser.new_context(**STILL, viewport=viewport, color_scheme=scheme, is_mobile=phone,
                                  has_touch=phone, storage_state=storage,
                                  locale={"sv": "sv-SE", "de": "de-DE"}[language])
    context.add_cookies([{"name": "django_language", "value": language, "url": url}])
    page = context.new_page()
    page.goto(url)
    return page


def test_a_yatzy_game_in_swedish_and_german(daphne_server, browser, yatzy_table, screenshots):
    context = browser.new_context(**STILL, viewport=DESKTOP)
    page = context.new_page()
    room = create_room(page, daphne_server, name="Yatzy på svenska", rules="yatzy",
                       seats=["human", "easy"], nickname="Sven")
    page.locator("#start-btn").click()
    for _ in range(5):
        play_first_box(page)
    storage = context.storage_state()

    for language in LANGUAGES:
        names = box_names(language)
        assert names != YATZY_BOXES  # the catalogs translate them
        for look in LOOKS:
            other = open_as(browser, storage, room, language, look)
            expect(other.locator("#room")).to_have_attribute("data-synced", "true")
            expect(other.locator("#roll-btn")).to_be_enabled()
            if look[1] is DESKTOP:  # full box names (phones show the short ones)
                card = other.locator("#scorecard").inner_text()
                assert all(name in card for name in names), (language, names)
            look_at(other, language, f"room-{language}-{look[0]}-{look[2]}", screenshots)
            other.context.close()

    game = play_out(page, daphne_server, start=False)  # the rest over a socket
    context.close()

    for language in LANGUAGES:
        for look in LOOKS:
            other = open_as(browser, storage, game, language, look)
            expect(other.locator("#replay")).to_have_attribute("data-ready", "true")
            expect(other.locator("#analysis-chart svg")).to_be_visible()
            text = other.locator("main").inner_text()
            assert re.search(r"\d,\d", text), "decimals written with a comma"
            look_at(other, language, f"review-{language}-{look[0]}-{look[2]}", screenshots)
            other.context.close()

"""Every page in every language on a 320 px phone: nothing wider than the screen, and the
header's name button and the menu's links show their whole words (none cut off or clipped).
Computer players are named in the reader's language. One browser session per language reads
every page; screenshots of the German and Swedish pages go to var/screenshots/narrow-*.png."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.utils import translation
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, STILL, LiveServer
from .pages import create_room, play_first_box, wait_connected
from .review_pages import manage, play_out

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}
LANGUAGES = [code for code, _name in settings.LANGUAGES]
SHOWN = {"de", "sv"}  # the languages whose screenshots are kept to be looked at

# The page wider than the screen, and each header or menu item whose words do not fit in it.
# (A phone's browser widens its layout to a page too wide: the screen's width is the measure.)
_CLIPPED_JS = """(width) => {
  const page = document.scrollingElement;
  const found = [];
  if (page.scrollWidth > width || innerWidth > width) {
    found.push(`page ${Math.max(page.scrollWidth, innerWidth)}px wide in ${width}px`);
  }
  const items = document.querySelectorAll(
    '.site-header .brand, .name-control summary, .name-current, .site-nav a');
  for (const el of items) {
    if (!el.getClientRects().length) continue;
    const box = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || box.right > width + 0.5 || box.left < -0.5) {
      found.push(`${el.className || el.tagName}: "${el.textContent.trim()}" `
        + `${el.scrollWidth}px in ${el.clientWidth}px, right edge ${Math.round(box.right)}`);
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def full_server(tmp_path_factory, redis_url, strategy_dir, site_template) -> Iterator[LiveServer]:
    """A site of its own with a history (generate_history): full leaderboards, profiles with
    games, lobby lists."""
    server = LiveServer(tmp_path_factory.mktemp("narrow-data"), redis_url, strategy_dir)
    server.migrate(site_template)
    manage(server, "generate_history", "--players", "20", "--games", "250", "--seed", "3")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def pages(full_server, browser, yahtzee_table) -> dict[str, str]:
    """Every kind of page, by name: a room waiting, a room mid-game, a finished game's page, a
    profile, and the site's own pages."""
    daphne_server = full_server
    context = browser.new_context(**STILL, viewport=DESKTOP)
    page = context.new_page()
    waiting = create_room(page, daphne_server, name="Ein Tisch", rules="yahtzee",
                          seats=["human", "human", "easy"], nickname="Annika")
    finished = create_room(page, daphne_server, name="Zu Ende", rules="yahtzee",
                           seats=["human", "easy"], nickname="Annika")
    game = play_out(page, daphne_server)  # over a socket, until its review is stored
    page = context.new_page()
    playing = create_room(page, daphne_server, name="Mitten drin", rules="yahtzee",
                          seats=["human", "easy"], nickname="Annika")
    page.locator("#start-btn").click()
    play_first_box(page)
    page.goto(daphne_server.url + "/leaderboard/yahtzee/")
    profile = page.locator(".leaders a[href^='/p/']").first.get_attribute("href")
    assert profile and profile.startswith("/p/"), profile  # a full board, a player of it
    context.close()
    url = daphne_server.url
    return {"lobby": url + "/", "rules": url + "/rules/", "room waiting": waiting,
            "room mid-game": playing, "finished room": finished, "finished game": game,
            "daily": url + "/daily/", "leaderboard": url + "/leaderboard/yahtzee/",
            "profile": url + profile, "your games": url + "/games/yours/",
            "sign in": url + "/accounts/login/"}


def settled(page: Page, name: str) -> None:
    if name.startswith(("room", "finished room")):
        wait_connected(page)
        expect(page.locator("#room")).to_have_attribute("data-drawn", "true")
    elif name == "finished game":
        expect(page.locator("#replay")).to_have_attribute("data-ready", "true")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_fits_a_320_px_phone(browser, pages, language, screenshots):
    context = browser.new_context(**STILL, viewport=NARROW, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                          "url": pages["lobby"]}])
    page = context.new_page()
    problems = {}
    try:
        for name, url in pages.items():
            page.goto(url)
            settled(page, name)
            assert page.evaluate("document.documentElement.lang") == language
            found = page.evaluate(_CLIPPED_JS, NARROW["width"])
            if found:
                problems[name] = found
            if language in SHOWN:
                page.screenshot(path=str(screenshots / f"narrow-{language}-"
                                         f"{name.replace(' ', '-')}.png"))
            if name == "room mid-game":
                with translation.override(language):
                    bot = translation.pgettext("computer player", "Bot %(number)s (easy)") % {
                        "number": 1}
                seats = page.locator("#seats").inner_text()
                assert bot in seats, (language, bot, seats)
                if language != "en":
                    assert "(easy)" not in seats, seats
    finally:
        context.close()
    report = "\n".join(f"{name}: " + "; ".join(lines) for name, lines in problems.items())
    assert not problems, f"{language} at 320 px:\n{report}"


def test_the_name_of_a_computer_player_is_the_readers(pages, browser):
    """Stored once, in no language: the same seat reads "Bot 1 (easy)" in English and its own
    words in German, in the room and on the game's page."""
    texts = {}
    for language in ("en", "de"):
        context = browser.new_context(**STILL, viewport=DESKTOP)
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                              "url": pages["lobby"]}])
        page = context.new_page()
        page.goto(pages["finished game"])
        expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
        texts[language] = page.locator("main").inner_text()
        context.close()
    assert "Bot 1 (easy)" in texts["en"]
    assert "Bot 1 (easy)" not in texts["de"]
    assert "Computer 1 (leicht)" in texts["de"]

"""Every kind of page passes axe-core's WCAG 2.1 AA rules, on a phone and a desktop, in light
and dark: the lobby, a waiting room, a room mid-game, a finished room, a finished game's page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .axe import axe_violations
from .conftest import DESKTOP, PHONE, STILL
from .pages import create_room, settle, wait_connected
from .review_pages import manage, open_review

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def finished_game(daphne_server, browser, yahtzee_table) -> tuple[str, str]:
    """A Yahtzee game two computer players finished, with its analysis: the room's URL and the
    game page's."""
    context = browser.new_context(**STILL, viewport=DESKTOP)
    page = context.new_page()
    room = create_room(page, daphne_server, name="Audited bots", rules="yahtzee",
                       seats=["easy", "easy"], nickname="")
    page.locator("#start-btn").click()
    expect(page.locator("#result")).to_be_visible(timeout=120_000)
    game = daphne_server.url + page.locator("#game-page-link").get_attribute("href")
    context.close()
    manage(daphne_server, "analyse", "--game", re.search(r"/games/(\d+)/", game).group(1))
    return room, game


def check(page: Page, what: str, found: dict[str, list[str]]) -> None:
    settle(page)
    violations = axe_violations(page)
    text = page.locator("body").inner_text()
    if "{#" in text or "{%" in text:  # a template comment on two lines is shown as text
        violations.append(f"template syntax shown as text: {text[text.find('{'):][:80]!r}")
    if violations:
        found[what] = violations


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_passes_axe(daphne_server, new_context, finished_game, viewport, scheme):
    context = new_context(viewport, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    found: dict[str, list[str]] = {}

    page.goto(daphne_server.url + "/")
    check(page, "lobby", found)

    waiting = create_room(page, daphne_server, name="Waiting", rules="yahtzee",
                          seats=["human", "human"], nickname="Ann")
    expect(page.locator("#start-btn")).to_be_visible()
    check(page, "waiting room (host)", found)
    visitor = new_context(viewport, color_scheme=scheme, bypass_csp=True).new_page()
    visitor.goto(waiting)
    wait_connected(visitor)
    expect(visitor.locator("#join")).to_be_visible()
    check(visitor, "waiting room (visitor, the join form)", found)

    create_room(page, daphne_server, name="Mid-game", rules="yahtzee", seats=["human", "easy"],
                nickname="Ann")
    page.locator("#start-btn").click()
    page.locator("#roll-btn").click()
    expect(page.locator("#scorecard button.option").first).to_be_visible()
    page.locator("#scorecard button.option").first.click()
    if page.locator("#confirm").is_visible():
        page.locator("#confirm .confirm-yes").click()
    page.locator("#roll-btn").click()  # the second turn: the log holds a scored turn
    expect(page.locator("#scorecard button.option").first).to_be_visible()
    check(page, "room mid-game (player)", found)

    room, game = finished_game
    page.goto(room)
    wait_connected(page)
    expect(page.locator("#result")).to_be_visible()
    check(page, "finished room (watcher)", found)

    open_review(page, game)
    expect(page.locator("#analysis")).to_have_attribute("data-state", "ready")
    check(page, "finished game's page", found)

    report = "\n".join(f"{what}:\n  " + "\n  ".join(lines) for what, lines in found.items())
    assert not found, f"axe found WCAG 2.1 AA violations:\n{report}"

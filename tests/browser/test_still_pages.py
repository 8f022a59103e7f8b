"""Pages that stay still: the layout shift that Chrome reports (layout_shift.py), added up over
whole visits on a phone and a desktop, stays under 0.1 — a player's room from its waiting table
through a game whose other turns the computer plays to the end card; watchers' rooms as they
load, wait, and follow turn after turn; a room opened mid-game and once finished; a finished
game's page while its analysis arrives, and once it is there; the lobby, the daily, the rules
and the leaderboard as they load; a watcher's whole visit, the game's start and end included,
on a desktop, a phone and a 320 px phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, MOTION, PHONE, POLL_MOST
from .layout_shift import Stillness, observe_layout_shift
from .pages import create_room, join, play_first_box, settle, wait_connected
from .review_pages import manage, open_review

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 320, "height": 640}


def context_for(new_context, viewport: dict, scheme: str = "light"):
    phone = viewport is not DESKTOP
    context = new_context(viewport, is_mobile=phone, has_touch=phone, color_scheme=scheme,
                          **MOTION)
    observe_layout_shift(context)
    return context


def test_a_game_from_the_waiting_room_to_its_end_and_its_analysis_arriving(
        daphne_server, yahtzee_table, new_context, screenshots):
    still = Stillness()
    host = context_for(new_context, PHONE).new_page()
    room = create_room(host, daphne_server, name="Still table", rules="yahtzee",
                       seats=["human", "easy"], nickname="Ann")
    watchers = {}
    for name, viewport, scheme in (("desktop", DESKTOP, "dark"), ("phone", PHONE, "light"),
                                   ("320", SMALL_PHONE, "light")):
        page = context_for(new_context, viewport, scheme).new_page()
        page.goto(room)
        wait_connected(page)
        watchers[name] = page
    host.reload()  # the host's own visit measured from a fresh load too
    wait_connected(host)
    expect(host.locator("#start-btn")).to_be_visible()
    still.check(host, "the waiting room (host, phone)")
    for name, page in watchers.items():
        still.check(page, f"the waiting room (watcher, {name})")

    host.locator("#start-btn").click()
    baseline: dict[str, float] = {}
    for turn in range(13):  # every other turn is the computer's: the player's page waits on it
        play_first_box(host)
        if turn == 0:  # the game on, the window done gliding to the dice (steady.js)
            host.wait_for_timeout(1000)
            baseline = {name: still.note(page, f"the start, watched ({name})")
                        for name, page in watchers.items()}
        if turn == 3:
            for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                late = context_for(new_context, viewport).new_page()
                late.goto(room)
                wait_connected(late)
                expect(late.locator("#scorecard table")).to_be_visible()
                late.wait_for_timeout(300)
                still.check(late, f"a room opened mid-game ({name})")
                late.context.close()
        if turn == 11:  # before the last turn: every turn between, the computer's included
            for name, page in watchers.items():
                still.check(page, f"turn after turn, watched ({name})", since=baseline[name])
    expect(host.locator("#result")).to_be_visible(timeout=60_000)
    for page in (host, *watchers.values()):
        expect(page.locator("#result")).to_be_visible()
        settle(page)
        page.wait_for_timeout(1000)  # the glide to the result
    host.screenshot(path=str(screenshots / "still-room-end-phone.png"))
    for name, page in watchers.items():
        page.screenshot(path=str(screenshots / f"still-room-end-{name}.png"))
    still.check(host, "a whole game, from the waiting room to the end card, played (phone)")
    # A phone's one column is held still as the game starts and ends (steady.js); a wide
    # screen has the game's table set before it starts (its columns stay).
    for name, page in watchers.items():
        still.check(page, f"a whole game watched, its start and end included ({name})")

    for name, page in watchers.items():
        page.reload()
        wait_connected(page)
        expect(page.locator("#result")).to_be_visible()
        page.wait_for_timeout(300)
        still.check(page, f"a finished room opened ({name})")

    game = daphne_server.url + host.locator("#game-page-link").get_attribute("href")
    game_id = re.search(r"/games/(\d+)/", game).group(1)
    part = f"{daphne_server.url}/games/{game_id}/analysis"
    for _ in range(120):  # the end's own analysis, stored before it is taken away again
        if 'data-state="ready"' in host.request.get(part).text():
            break
        host.wait_for_timeout(500)
    manage(daphne_server, "shell", "-c",
           f"from game.models import GameAnalysis; GameAnalysis.objects.filter(game_id={game_id})"
           ".delete()")
    readers = {"phone": context_for(new_context, PHONE).new_page(),
               "desktop": context_for(new_context, DESKTOP).new_page()}
    for name, page in readers.items():
        page.clock.install()  # the page's pauses between its asks are moved on, not waited out
        open_review(page, game)
        expect(page.locator("#analysis")).to_have_attribute("data-state", "pending")
        page.screenshot(path=str(screenshots / f"still-review-waiting-{name}.png"))
    manage(daphne_server, "analyse", "--game", game_id, "--no-progress")
    for name, page in readers.items():
        page.clock.fast_forward(POLL_MOST)  # the page's next ask, now
        expect(page.locator("#analysis")).to_have_attribute("data-state", "ready",
                                                            timeout=30_000)
        expect(page.locator("#analysis-chart svg")).to_have_count(1)
        settle(page)
        page.screenshot(path=str(screenshots / f"still-review-arrived-{name}.png"))
        still.check(page, f"the game's page while its analysis arrives ({name})")
        page.reload()
        expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
        expect(page.locator("#analysis-chart svg")).to_have_count(1)
        settle(page)
        page.wait_for_timeout(500)
        still.check(page, f"the game's page with its analysis ({name})")
    still.assert_still()


def test_the_first_game_starts_under_friends_and_watchers_without_moving_their_pages(
        daphne_server, yahtzee_table, new_context, screenshots):
    """Friends seated and watchers (a free seat: their join form shows) on a desktop and a
    320 px phone while the host starts: a wide screen has the game's table set before it (the
    invite and the join form at the top of its side column), a phone holds still."""
    still = Stillness()
    host = context_for(new_context, PHONE).new_page()
    room = create_room(host, daphne_server, name="Start still", rules="yahtzee",
                       seats=["human", "human", "human", "easy", "human"], nickname="Ann")
    pages = {}
    for name, viewport, scheme in (("friend, desktop", DESKTOP, "dark"),
                                   ("friend, 320", SMALL_PHONE, "light"),
                                   ("watcher, desktop", DESKTOP, "light"),
                                   ("watcher, 320", SMALL_PHONE, "dark")):
        page = context_for(new_context, viewport, scheme).new_page()
        page.goto(room)
        wait_connected(page)
        if name.startswith("friend"):
            join(page, "Bea" if viewport is DESKTOP else "Cy")
            wait_connected(page)
        pages[name] = page
    for name, page in pages.items():
        expect(page.locator("#join" if name.startswith("watcher") else "#invite")).to_be_visible()
        still.check(page, f"the waiting room ({name})")
        page.screenshot(path=str(screenshots / f"still-start-before-{name.replace(', ', '-')}.png"))
    # On a wide screen the table is set for the game, its scorecards empty, the seated only.
    desk = pages["watcher, desktop"]
    expect(desk.locator("#table")).to_be_visible()
    expect(desk.locator("#turn")).to_have_text("Waiting for the host to start the game…")
    expect(desk.locator("#scorecard .player-head .long")).to_have_text(
        ["Ann", "Bea", "Cy", "Bot 1 (easy)"])
    expect(pages["watcher, 320"].locator("#table")).to_be_hidden()  # a phone: the seats first
    host.locator("#start-btn").click()
    host.get_by_role("button", name="Start anyway").click()  # without the free seat
    for page in pages.values():
        expect(page.locator("#turn")).to_contain_text("round 1 of 13")
    host.wait_for_timeout(1500)  # the glide, then the seats' lines
    for name, page in pages.items():
        still.check(page, f"the start ({name})")
        page.screenshot(path=str(screenshots / f"still-start-after-{name.replace(', ', '-')}.png"))
    expect(desk.locator("#seats .seat")).to_have_count(4)  # the free seat gone
    still.assert_still()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_other_pages_as_they_load(daphne_server, new_context, viewport):
    still = Stillness()
    page = context_for(new_context, viewport).new_page()
    for path in ("/", "/daily/", "/rules/", "/leaderboard/yahtzee/"):
        page.goto(daphne_server.url + path)
        page.wait_for_load_state("networkidle")
        settle(page)
        still.check(page, f"{path} as it loads")
    still.assert_still()

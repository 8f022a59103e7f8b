"""The edges of the room in a real browser, on a 390 px phone and a desktop, light and dark:
the end of a game (the result and "Play again" first on the screen, no invite after a game
against the computer, the card saying whose turns the computer played; the taps of playing
again), a host who leaves before the start (everyone counts down; a seated friend starts in
one tap), and "Play with friends" asking a missing name in place. Screenshots in
var/screenshots/room44-*."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.support.correspondence import Clock

from .conftest import BRIEF_ABSENCE, DESKTOP, PHONE, STILL, LiveServer
from .pages import (
    ServerFrames,
    assert_fits,
    client_state,
    create_room,
    join,
    low_contrast_text,
    play_first_box,
    settle,
    wait_connected,
)
from .test_friends import Taps
from .test_game_end import end_frames

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}
#: The host's grace in the leaving test (under a minute: the countdown reads 0:ss), passed by
#: moving the server's clock and the pages' (never waited out).
GRACE = 50


def context(new_context, viewport: str, scheme: str = "light"):
    phone = viewport == "phone"
    return new_context(VIEWPORTS[viewport], is_mobile=phone, has_touch=phone,
                       color_scheme=scheme)


def in_first_screen(page: Page, selector: str) -> dict:
    """Where ``selector`` is with the page scrolled to its top: its box, and whether it is
    whole within the first screen."""
    page.evaluate("() => window.scrollTo(0, 0)")
    box = page.locator(selector).bounding_box()
    return {**box, "first_screen": box["y"] + box["height"] <= page.viewport_size["height"]}


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_after_a_game_against_the_computer_the_result_and_play_again_come_first(
        daphne_server, new_context, screenshots, viewport):
    page = context(new_context, viewport).new_page()
    create_room(page, daphne_server, name=f"End first {viewport}", rules="yahtzee",
                seats=["human", "easy"], nickname="Ann")
    expect(page.locator("#invite")).to_be_visible()  # before the game: invite friends
    page.locator("#start-btn").click()
    for _ in range(13):
        play_first_box(page)
    expect(page.locator("#result")).to_be_visible(timeout=60_000)
    first_game = client_state(page)["id"]
    # Nobody to invite after a game against the computer alone.
    expect(page.locator("#invite")).to_be_hidden()
    title = in_first_screen(page, "#result-title")
    again = in_first_screen(page, "#rematch-btn")
    assert title["first_screen"] and again["first_screen"], (title, again)
    assert_fits(page)
    settle(page)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.evaluate("() => window.scrollTo(0, 0)")
        assert low_contrast_text(page) == [], scheme
        page.screenshot(path=str(screenshots / f"room44-end-computer-{viewport}-{scheme}.png"))
    print(f"{viewport}: result title at y={title['y']:.0f}, Play again at "
          f"y={again['y']:.0f}–{again['y'] + again['height']:.0f} of "
          f"{page.viewport_size['height']}")
    # Play again: one tap, and the new game is on.
    taps = Taps(page, viewport == "phone")
    taps(page.get_by_role("button", name="Play again"))
    expect(page.locator("#turn")).to_contain_text("round 1 of 13")
    assert client_state(page)["id"] != first_game
    assert taps.count == 1


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_end_card_says_whose_turns_the_computer_played(
        daphne_server, new_context, screenshots, viewport):
    """A win the computer helped with says so on the card; the invite of a friends' room
    comes after the result and "Play again"."""
    for scheme in ("light", "dark"):
        page = context(new_context, viewport, scheme).new_page()
        frames = ServerFrames(page)
        create_room(page, daphne_server, name=f"Helped {viewport} {scheme}", rules="yahtzee",
                    seats=["human", "human"], nickname="Ann")
        frames.hold()  # the page draws the game fed to it below, not the real room's
        state, finish, game = end_frames(["Ann", "Bea"], 7, 4400)
        winner = game.winners[0]
        state["you"] = {"seat": winner, "host": True}
        state["autoplayed"] = [0, 0]
        state["autoplayed"][winner] = 7  # the computer played 7 of the winner's turns
        page.evaluate("m => window.yahtzeeRoom.receive(m)", state)
        page.evaluate("m => window.yahtzeeRoom.receive(m)", finish)
        expect(page.locator("#result-title")).to_have_text("You win!")
        expect(page.locator("#result-played")).to_have_text(
            "The computer played 7 of your 13 turns.")
        # Between friends the invite stays, below the result and "Play again".
        expect(page.locator("#invite")).to_be_visible()
        order = page.evaluate("""() => ['result', 'rematch-btn', 'invite'].map(
            (id) => document.getElementById(id).getBoundingClientRect().top)""")
        assert order == sorted(order), order
        assert in_first_screen(page, "#result-played")["first_screen"]
        assert_fits(page)
        settle(page)
        page.evaluate("() => window.scrollTo(0, 0)")
        assert low_contrast_text(page) == [], scheme
        page.screenshot(path=str(screenshots / f"room44-end-helped-{viewport}-{scheme}.png"))
        # A watcher reads it with the name.
        watcher = page.context.browser.new_context(**STILL, viewport=VIEWPORTS[viewport]).new_page()
        watched = ServerFrames(watcher)
        watcher.goto(page.url)
        wait_connected(watcher)
        watched.hold()
        state["you"] = {"seat": None, "host": False}
        watcher.evaluate("m => window.yahtzeeRoom.receive(m)", state)
        watcher.evaluate("m => window.yahtzeeRoom.receive(m)", finish)
        name = ["Ann", "Bea"][winner]
        expect(watcher.locator("#result-played")).to_have_text(
            f"The computer played 7 of {name}’s 13 turns.")
        watcher.context.close()
        page.context.close()


@pytest.fixture(scope="module")
def grace_clock(tmp_path_factory) -> Clock:
    return Clock(tmp_path_factory.mktemp("grace-clock") / "clock")


@pytest.fixture(scope="module")
def short_grace(tmp_path_factory, redis_url, strategy_dir, site_template,
                grace_clock) -> Iterator[LiveServer]:
    """A server whose away grace the test passes by moving its clock."""
    server = LiveServer(tmp_path_factory.mktemp("grace-data"), redis_url, strategy_dir,
                        extra_env={"AWAY_GRACE": str(GRACE),
                                   "CLOCK_FILE": str(grace_clock.path)})
    server.migrate(site_template)
    server.start()
    yield server
    server.stop()


COUNTDOWN = re.compile(r"^Ann, the host, left\. Not back in 0:\d\d, and you can start the game "
                       r"yourself\.$")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_host_who_leaves_before_the_start_counts_down_then_a_friend_starts(
        short_grace, grace_clock, new_context, screenshots, viewport):
    ann = new_context(DESKTOP).new_page()
    url = create_room(ann, short_grace, name=f"Host gone {viewport}", rules="yahtzee",
                      seats=["human", "human"], nickname="Ann")
    pages = {}
    for scheme in ("light", "dark"):
        bea = context(new_context, viewport, scheme).new_page()
        bea.clock.install()  # the page's clock, moved with the server's
        bea.goto(url)
        wait_connected(bea)
        if scheme == "light":
            join(bea, "Bea")
        pages[scheme] = bea
    bea, watcher = pages["light"], pages["dark"]  # the dark page watches
    # What the room waits for: above the seats on a phone, on the table set for the game on a
    # desktop (where the start then only fills the table in).
    line = "#waiting-note" if viewport == "phone" else "#turn"
    expect(bea.locator(line)).to_have_text("Waiting for the host to start the game…")
    expect(bea.locator(line)).to_be_visible()
    expect(bea.locator("#start-btn")).to_be_hidden()
    ann.close()
    for page in pages.values():  # past the brief absence a page waits out before telling
        page.wait_for_function("() => !window.yahtzeeRoom.state.room.seats[0].connected")
        page.clock.fast_forward(BRIEF_ABSENCE)
    note = bea.locator(line)
    expect(note).to_have_text(COUNTDOWN)
    shown = note.text_content()
    expect(note).not_to_have_text(shown)  # it counts down
    expect(watcher.locator(line)).to_have_text(re.compile(
        r"^Ann, the host, left\. Not back in 0:\d\d, and anyone seated can start the game\.$"))
    expect(bea.locator("#start-btn")).to_be_hidden()
    assert_fits(bea)
    for scheme, page in pages.items():
        assert low_contrast_text(page) == [], scheme
        page.screenshot(path=str(screenshots / f"room44-host-left-{viewport}-{scheme}.png"))
    # The grace over: Bea may start, in one tap.
    grace_clock.forward(GRACE)
    for page in pages.values():
        page.clock.fast_forward(GRACE * 1000)
    start = bea.get_by_role("button", name="Start the game")
    expect(start).to_be_visible()
    expect(watcher.locator("#start-btn")).to_be_hidden()  # a watcher never may
    # Until the next heartbeat hands the role to Bea, who is here; then the room waits on her.
    expect(watcher.locator(line)).to_have_text(re.compile(
        r"anyone seated can start|^Waiting for the host to start the game…$"))
    bea.screenshot(path=str(screenshots / f"room44-host-gone-{viewport}-light.png"))
    taps = Taps(bea, viewport == "phone")
    taps(start)
    expect(bea.locator("#turn")).to_contain_text("round 1 of 13")
    assert taps.count == 1
    expect(bea.locator("#seats .seat.mine")).to_contain_text("host")  # the role is hers
    expect(watcher.locator("#turn")).to_contain_text("round 1 of 13")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_play_with_friends_asks_a_missing_name_in_place(daphne_server, new_context,
                                                        screenshots, viewport):
    for scheme in ("light", "dark"):
        page = context(new_context, viewport, scheme).new_page()
        page.goto(daphne_server.url + "/")
        name = page.locator("#friends_nickname")
        expect(name).to_have_value("")  # a new visitor: nothing known
        posted: list[str] = []
        page.on("request", lambda r, sent=posted: sent.append(r.url) if r.method == "POST"
                else None)
        page.get_by_role("button", name="Play with friends").click()
        error = page.locator("#friends-name-error")
        expect(error).to_have_text("Your name, please: it goes on your seat.")
        expect(name).to_be_focused()
        expect(name).to_have_attribute("aria-invalid", "true")
        assert posted == [] and page.url == daphne_server.url + "/"  # nothing sent
        assert_fits(page)
        assert low_contrast_text(page) == [], scheme
        page.locator(".friends-name").screenshot(
            path=str(screenshots / f"room44-name-asked-{viewport}-{scheme}.png"))
        name.fill("Pat")
        expect(error).to_be_hidden()
        page.get_by_role("button", name="Play with friends").click()
        page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
        expect(page.locator("#seats .seat.mine")).to_contain_text("Pat")
        expect(page.locator(".name-current")).to_have_text("Pat")  # one name, the header's too
        page.goto(daphne_server.url + "/")
        expect(page.locator("#friends_nickname")).to_have_value("Pat")  # asked once
        page.context.close()

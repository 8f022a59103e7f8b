"""Two friends play over three days on their phones: Ann makes an over-days room, Bea joins
from its link, each moves when she comes (from "Your games", one tap to the room), and a move
whose time ran out is played by the computer from the server's own scan. The server's clock
is moved by the test (CLOCK_FILE), never slept through."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.correspondence import Clock

from .conftest import PHONE, LiveServer
from .pages import assert_fits, last_seq, play_first_box, wait_connected, wait_seq

pytestmark = pytest.mark.browser

DAY = 86400


@pytest.fixture(scope="module")
def clock_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("over-days-clock") / "clock"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, redis_url: str, strategy_dir: Path,
         site_template: Path,
         clock_file: Path) -> Iterator[LiveServer]:
    """A server whose over-days clock the test moves, scanning every second."""
    clock_file.write_text("0")
    server = LiveServer(tmp_path_factory.mktemp("over-days-data"), redis_url, strategy_dir,
                        extra_env={"CLOCK_FILE": str(clock_file),
                                   "CORRESPONDENCE_SCAN_SECONDS": "1",
                                   "AUTOPLAY_LEVEL": "medium"})
    server.migrate(site_template)
    server.start()
    yield server
    server.stop()


def open_from_your_games(page: Page, site: LiveServer) -> None:
    """"Your games", then one tap on the first game (the one waiting for me)."""
    page.goto(site.url + "/games/yours/")
    first = page.locator(".your-game").first
    expect(first).to_contain_text("Your turn")
    first.locator("a").click()
    page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(page)


def until_listed_first(page: Page, site: LiveServer, text: str, within: float = 30) -> None:
    """"Your games", reloaded until its first game says ``text`` (what the server did
    meanwhile shows on the next load only)."""
    deadline = time.monotonic() + within
    while True:
        page.goto(site.url + "/games/yours/")
        shown = page.locator(".your-game").first.inner_text()
        if text in shown:
            return
        assert time.monotonic() < deadline, f"not within {within} s: {text!r}; {shown!r}"
        page.wait_for_timeout(250)


def test_two_friends_play_over_three_days_on_their_phones(
        site: LiveServer, clock_file: Path, new_context, screenshots: Path) -> None:
    clock = Clock(clock_file)
    ann_phone = new_context(PHONE)  # each phone keeps its browser (cookies) across the days
    bea_phone = new_context(PHONE, color_scheme="dark")

    # Day 1: Ann makes the room, over days, a day a move; Bea joins from its link.
    ann = ann_phone.new_page()
    ann.goto(site.url + "/")
    ann.fill("[name=nickname]", "Ann")
    ann.check("input[name=pace][value=days]")
    ann.select_option("[name=move_days]", "1")
    ann.screenshot(path=str(screenshots / "over-days-lobby-phone.png"), full_page=True)
    ann.get_by_role("button", name="Play with friends").click()
    ann.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(ann)
    room_url = ann.url
    expect(ann.locator(".pace-badge")).to_contain_text("Over days · 1 day a move")
    bea = bea_phone.new_page()
    bea.goto(room_url)
    bea.fill("#join [name=nickname]", "Bea")
    bea.locator("#join-btn").click()
    bea.wait_for_load_state()
    wait_connected(bea)
    ann.locator("#start-btn").click()
    expect(ann.locator("#turn")).to_contain_text("round 1 of")
    # A day for the move, counted in hours and minutes on the clock.
    expect(ann.locator("#turn-clock")).to_contain_text(re.compile(r"2[34]:\d\d:\d\d"))
    play_first_box(ann)
    assert_fits(ann)
    ann.screenshot(path=str(screenshots / "over-days-room-phone.png"), full_page=True)
    ann.close()
    bea.close()

    # Day 2: Bea comes back. The header says a game waits; "Your games" is one tap from it.
    clock.forward(DAY / 2)
    bea = bea_phone.new_page()
    bea.goto(site.url + "/")
    badge = bea.locator(".your-games-link .badge-turn")
    expect(badge).to_have_text(re.compile(r"1$"))
    bea.screenshot(path=str(screenshots / "over-days-lobby-your-games-phone-dark.png"),
                   full_page=True)
    open_from_your_games(bea, site)
    play_first_box(bea)
    bea.close()

    # Ann does not come on day 2: her day runs out and the computer plays her move.
    clock.forward(DAY + 60)
    bea = bea_phone.new_page()
    until_listed_first(bea, site, "Your turn")  # once the server's scan played Ann's move
    assert_fits(bea)
    bea.screenshot(path=str(screenshots / "over-days-your-games-phone-dark.png"),
                   full_page=True)

    # Day 3: Ann sees what happened and it is Bea's move, not hers.
    ann = ann_phone.new_page()
    ann.goto(site.url + "/games/yours/")
    first = ann.locator(".your-game").first
    expect(first).to_contain_text("Bea to move")
    expect(first).to_contain_text(re.compile(r"\d+ (hours?|minutes?) left"))
    ann.screenshot(path=str(screenshots / "over-days-your-games-phone.png"), full_page=True)
    first.locator("a").click()
    wait_connected(ann)
    log = ann.locator("#log")
    expect(log).to_contain_text("computer")  # Ann's second move, played for her

    # Bea moves from the room that Ann is watching: Ann sees it at once, live.
    open_from_your_games(bea, site)
    seq = last_seq(ann)
    play_first_box(bea)
    wait_seq(ann, seq + 2)
    expect(ann.locator("#roll-btn")).to_be_enabled()

    # On the narrowest phone, in German (the longest words), Your games and the header fit.
    bea.set_viewport_size({"width": 320, "height": 700})
    bea_phone.add_cookies([{"name": "django_language", "value": "de", "url": site.url}])
    bea.goto(site.url + "/games/yours/")
    expect(bea.locator("h1")).to_have_text("Deine Spiele")
    assert_fits(bea)
    bea.screenshot(path=str(screenshots / "over-days-your-games-320-de-dark.png"),
                   full_page=True)

"""The room page: no game gets stuck (a late friend takes a seat for the rematch, the
turn timer), the phone is the main screen (dice on screen while choosing a lower box, a second
tap before a 0), and dark mode. Each test saves its screenshots in var/screenshots/."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, LiveServer
from .pages import (
    assert_fits,
    cell,
    client_state,
    confirm_if_asked,
    create_room,
    join,
    last_seq,
    low_contrast_text,
    options,
    press,
    roll,
    settle,
    start_game,
    wait_connected,
)

pytestmark = pytest.mark.browser


def play_solo_game(page: Page) -> None:
    """The only player plays a whole game with the keyboard (a 0 asks twice: Enter again)."""
    rounds = client_state(page)["rounds"]
    for _ in range(rounds):
        roll(page)
        press(page, "s")
        press(page, "Enter")
        # Either the turn moves on, or the confirm bar asks (it may show a moment later).
        moved_on = ("() => { const g = window.yahtzeeRoom.state.game; "
                    "return g.finished || g.dice === null; }")
        page.wait_for_function(f"() => ({moved_on})() "
                               "|| !document.getElementById('confirm').hidden")
        if page.locator("#confirm").is_visible():
            press(page, "Enter")
        page.wait_for_function(moved_on)
    expect(page.locator("#result")).to_be_visible()


def test_a_late_friend_takes_a_seat_for_the_rematch(daphne_server, new_context, screenshots):
    host = new_context(DESKTOP).new_page()
    url = create_room(host, daphne_server, name="Late friends", rules="yatzy", seats=["human"],
                      nickname="Host")
    start_game(host)
    friend = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    friend.goto(url)
    wait_connected(friend)
    expect(friend.locator("#join")).to_be_hidden()  # a game runs: the friend watches
    expect(friend.locator("#watching-note")).to_be_visible()
    expect(friend.locator("#keys-help")).to_be_hidden()  # no keys for a watcher
    play_solo_game(host)
    expect(host.locator("#result-title")).to_have_text(re.compile(r"^Game over — \d+ points$"))

    # Between games the host adds a seat; starting now would drop it: the host is asked.
    host.locator("#add-seat-btn").click()
    expect(host.locator("#seats li")).to_have_count(2)
    host.locator("#rematch-btn").click()
    expect(host.locator("#confirm")).to_contain_text("1 seat is free")
    settle(host)
    host.screenshot(path=str(screenshots / "room-rematch-free-seat.png"), full_page=True)
    host.locator("#confirm .confirm-no").click()
    expect(host.locator("#confirm")).to_be_hidden()
    # A third seat for a computer player, then removed again: the host sets the seat list.
    host.locator("#add-seat-btn").click()
    third = host.locator('#seats li[data-seat="2"]')
    third.locator(".seat-bot").click()
    expect(third.locator(".seat-name")).to_have_text("Bot 1 (optimal)")
    expect(third).to_contain_text("computer")
    # Its level is the host's to change between games: chosen in its menu, it applies at once.
    level = third.locator(".seat-bot-level")
    expect(level).to_have_value("optimal")
    expect(level).to_have_accessible_name("Computer level")
    level.select_option("to_win")
    expect(third.locator(".seat-name")).to_have_text("Bot 1 (to win)")
    expect(third.locator(".seat-bot-level")).to_have_value("to_win")
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        host.set_viewport_size(size)
        assert_fits(host)
        for scheme in ("light", "dark"):
            host.emulate_media(color_scheme=scheme)
            settle(host)
            host.locator("#seats").screenshot(
                path=str(screenshots / f"room-seat-level-{name}-{scheme}.png"))
    host.set_viewport_size(DESKTOP)
    host.emulate_media(color_scheme="light")
    third.locator(".seat-remove").click()
    expect(host.locator("#seats li")).to_have_count(2)
    expect(host.locator("#seats li .seat-remove")).to_have_count(1)  # the free seat's
    # The host leaves their seat (and watches: the page comes back with the join form), then
    # takes it again.
    host.locator('#seats li[data-seat="0"] .seat-leave').click()
    expect(host.locator("#join")).to_be_visible()
    expect(host.locator('#seats li[data-seat="0"] .seat-name')).to_have_text("Free seat")
    join(host, "Host", 0)
    expect(host.locator('#seats li[data-seat="0"] .seat-name')).to_have_text("Host")

    # The friend sees the free seat and takes it.
    expect(friend.locator("#join")).to_be_visible()
    assert_fits(friend)
    friend.screenshot(path=str(screenshots / "room-late-friend-joins-phone.png"), full_page=True)
    join(friend, "Late", 1)
    expect(host.locator('#seats li[data-seat="1"] .seat-name')).to_have_text("Late")
    host.locator("#rematch-btn").click()  # no free seat: no question
    expect(friend.locator("#turn")).to_contain_text("Host’s turn")
    assert client_state(friend)["players"] == ["Host", "Late"]
    roll(host)
    settle(friend)
    friend.screenshot(path=str(screenshots / "room-late-friend-plays-phone.png"))
    expect(friend.locator("#join")).to_have_count(0)  # a player's page has no join form
    expect(friend.locator("#join")).to_be_hidden()


@dataclass
class TimedServer(LiveServer):
    """A server whose turn times pass sixty times faster, with a cheap autoplay bot."""

    extra: dict[str, str] = field(default_factory=lambda: {
        "TURN_TIME_SCALE": str(5 / 60), "AUTOPLAY_LEVEL": "easy"})

    @property
    def env(self) -> dict[str, str]:
        return {**super().env, **self.extra}


def test_the_turn_timer_autoplays_an_idle_player(tmp_path, redis_url, strategy_dir, site_template,
                                                  new_context, screenshots):
    server = TimedServer(tmp_path, redis_url, strategy_dir)
    server.migrate(site_template)
    server.start()
    try:
        host = new_context(DESKTOP).new_page()
        url = create_room(host, server, name="Hurry up", rules="yahtzee",
                          seats=["human", "human"], nickname="Idle")
        host.locator("#turn-time").select_option("60")  # "1 min": five seconds here
        expect(host.locator("#turn-time")).to_have_value("60")
        friend = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
        friend.goto(url)
        wait_connected(friend)
        join(friend, "Quick", 1)
        host.wait_for_function("() => window.yahtzeeRoom.state.room.turn_time === 60")
        start_game(host)
        for page in (host, friend):
            expect(page.locator("#turn-clock")).to_be_visible()
            expect(page.locator("#turn-clock")).to_contain_text("0:0")
        settle(friend)
        friend.screenshot(path=str(screenshots / "room-turn-timer-phone.png"))
        # The host does nothing: when the clock runs out the computer plays the turn.
        expect(friend.locator("#log")).to_contain_text("(played by the computer)",
                                                       timeout=20_000)
        expect(friend.locator("#turn")).to_contain_text("Your turn", timeout=20_000)
        game = client_state(friend)
        assert game["current_player"] == 1 and game["round"] == 1
        scored = host.locator("#scorecard tbody td.p0.filled")
        expect(scored).to_have_count(1)
        settle(host)
        host.screenshot(path=str(screenshots / "room-turn-timer-autoplayed.png"))
    finally:
        server.stop()


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_zero_scratch_needs_a_second_tap(daphne_server, new_context, screenshots, viewport):
    if viewport == "phone":
        page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    else:
        page = new_context(DESKTOP).new_page()
    create_room(page, daphne_server, name="Careful", rules="yahtzee", seats=["human"],
                nickname="Care")
    start_game(page)
    roll(page)
    zero = next(o for o in options(page) if o.points == 0)
    button = page.locator(f'#scorecard button.option[data-box="{zero.box}"]')
    seq = last_seq(page)
    button.click()
    bar = page.locator("#confirm")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("Score 0 in")
    expect(button).to_have_class("option zero armed")
    expect(cell(page, 0, zero.box)).to_have_text("0?")  # not scored: asked
    assert last_seq(page) == seq
    settle(page)
    page.screenshot(path=str(screenshots / f"room-confirm-scratch-{viewport}.png"))
    assert low_contrast_text(page) == []
    button.click()  # the second tap scores it
    expect(cell(page, 0, zero.box)).to_have_text("0")
    expect(bar).to_be_hidden()


def test_the_dice_stay_on_screen_while_choosing_a_lower_box(daphne_server, new_context,
                                                            screenshots):
    page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    create_room(page, daphne_server, name="Thumbs", rules="yahtzee",
                seats=["human", "easy", "easy"], nickname="Thumb")
    start_game(page)
    roll(page)
    chance = page.locator('#scorecard button.option[data-box="chance"]')
    chance.scroll_into_view_if_needed()
    settle(page)
    assert page.evaluate("window.scrollY") > 200, "the scorecard scrolled"
    for what in ("#dice", "#roll-btn", "#turn"):
        box = page.locator(what).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], what
    dice_box = page.locator("#dice").bounding_box()
    chance_box = chance.bounding_box()
    assert chance_box["y"] >= dice_box["y"] + dice_box["height"], "the dice do not cover it"
    sizes = page.locator("#dice .die, #roll-btn, #scorecard button.option").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)")
    assert min(sizes) >= 44, f"tap targets of at least 44 px: {min(sizes)}"
    page.screenshot(path=str(screenshots / "room-phone-lower-box.png"))
    assert_fits(page)
    chance.click()
    confirm_if_asked(page)
    # The computers' turns are called theirs, not a person's.
    expect(page.locator("#log")).to_contain_text("Round 1: Bot 1 (easy)’s turn (computer).")
    expect(page.locator("#turn")).to_contain_text("Your turn")

    desk = new_context(DESKTOP).new_page()
    create_room(desk, daphne_server, name="Big dice", rules="yahtzee", seats=["human"],
                nickname="Desk")
    start_game(desk)
    roll(desk)
    width = desk.locator("#dice .die").first.bounding_box()["width"]
    assert width >= 80, f"desktop dice are {width} px wide"
    desk.locator('#scorecard button.option[data-box="chance"]').scroll_into_view_if_needed()
    settle(desk)
    assert desk.locator("#dice").bounding_box()["y"] >= 0
    desk.screenshot(path=str(screenshots / "room-desktop-dice.png"))


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_dark_mode_follows_the_system(daphne_server, new_context, screenshots, viewport):
    size = PHONE if viewport == "phone" else DESKTOP
    page = new_context(size, color_scheme="dark", has_touch=viewport == "phone").new_page()
    create_room(page, daphne_server, name="Night owls", rules="triple",
                seats=["human", "easy"], nickname="Owl")
    start_game(page)
    roll(page)
    settle(page)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(20, 23, 28)", background
    assert low_contrast_text(page) == []
    page.screenshot(path=str(screenshots / f"room-dark-{viewport}.png"), full_page=True)


def test_dark_mode_on_the_lobby_and_a_finished_games_page(daphne_server, new_context,
                                                           screenshots):
    page = new_context(DESKTOP, color_scheme="dark").new_page()
    page.goto(daphne_server.url + "/")
    assert low_contrast_text(page) == []
    page.screenshot(path=str(screenshots / "lobby-dark.png"), full_page=True)
    create_room(page, daphne_server, name="Dark review", rules="yatzy", seats=["human"],
                nickname="Nox")
    start_game(page)
    play_solo_game(page)
    assert low_contrast_text(page) == []
    page.locator("#game-page-link").click()
    page.wait_for_load_state()
    expect(page.locator(".standings")).to_contain_text("Nox")
    assert low_contrast_text(page) == []
    page.screenshot(path=str(screenshots / "finished-game-dark.png"), full_page=True)

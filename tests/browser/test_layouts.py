"""The room page on a phone: six players, triple's column switcher, keyboard-only play;
and what a player sees when the connection drops and comes back, or the server's Redis."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from benchmarks.load.services import start_redis
from tests.support.servers import TEARDOWN_WAIT, free_port, stop

from .conftest import BACKOFF_MAX, PHONE, LiveServer
from .pages import (
    ServerFrames,
    assert_fits,
    cell,
    client_state,
    confirm_if_asked,
    create_room,
    dice,
    last_seq,
    low_contrast_text,
    options,
    press,
    rules_state,
    settle,
    start_game,
    wait_connected,
    wait_seq,
)

pytestmark = pytest.mark.browser


def phone_page(new_context):
    return new_context(PHONE, is_mobile=True, has_touch=True).new_page()


def test_yatzy_for_six_on_a_phone_played_with_the_keyboard_only(
        daphne_server, new_context, screenshots):
    page = new_context(PHONE, is_mobile=True, has_touch=True,
                       reduced_motion="reduce").new_page()
    create_room(page, daphne_server, name="Six at the table", rules="yatzy",
                seats=["human"] + ["easy"] * 5, nickname="Solo")
    start = page.locator("#start-btn")
    expect(start).to_be_visible()
    start.focus()
    expect(start).to_be_focused()
    press(page, "Enter")
    expect(page.locator("#turn")).to_contain_text("round 1 of 15")
    for round_no in range(1, 16):
        turn = page.locator("#turn")
        expect(turn).to_contain_text(f"Your turn — roll the dice. · round {round_no}")
        seq = last_seq(page)
        press(page, "r")
        wait_seq(page, seq + 1)
        assert len(options(page)) == 16 - round_no
        # prefers-reduced-motion: the dice change without the tumble animation.
        assert page.evaluate("document.getAnimations().length") == 0
        if round_no == 2:
            settle(page)
            assert_fits(page)  # six players' yatzy scorecards fit 390 px
            page.screenshot(path=str(screenshots / "room-phone-six.png"), full_page=True)
        press(page, "s")
        box = page.evaluate("document.activeElement.dataset.box")
        points = page.evaluate("document.activeElement.textContent")
        press(page, "Enter")
        if page.locator("#confirm").is_visible():  # a 0 or a poor box: Enter again confirms
            press(page, "Enter")
        expect(cell(page, 0, box)).to_have_text(points)
    # The five computer players finish their last turns, then the result shows.
    expect(page.locator("#result")).to_be_visible()
    final = client_state(page)
    assert final["finished"] and len(final["players"]) == 6
    expect(page.locator("#result .result-table thead th")).to_have_count(6)
    # The winner's badge fits its pill, and the pill its column, at six columns on 390 px.
    badges = page.locator("#result .tag-winner").evaluate_all("""els => els.map(e => {
        const cell = e.closest('th').getBoundingClientRect(), pill = e.getBoundingClientRect();
        const shown = [...e.children].filter((c) => getComputedStyle(c).display !== 'none'
            && getComputedStyle(c).position !== 'absolute');  // not the visually hidden word
        const text = shown.reduce((w, c) => w + c.getBoundingClientRect().width, 0);
        const style = getComputedStyle(e);
        const inner = pill.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return shown.length > 0 && text <= inner + 0.5
            && pill.left >= cell.left - 0.5 && pill.right <= cell.right + 0.5; })""")
    assert badges and all(badges), badges
    page.locator("#result").screenshot(path=str(screenshots / "room-phone-six-result.png"))
    expect(page.locator("#result-title")).to_have_text(
        re.compile(r"You (finished \d(st|nd|rd|th) of 6 — \d+|win!)|A shared win!"))
    assert_fits(page)


def test_triple_for_two_on_a_phone_shows_all_three_columns(daphne_server, new_context,
                                                            screenshots):
    page = phone_page(new_context)
    create_room(page, daphne_server, name="Triple trouble", rules="triple",
                seats=["human", "easy"], nickname="Tri")
    start_game(page)
    switch = page.locator("#column-switch button")
    expect(switch).to_have_text(["Col. 1 ×1", "Col. 2 ×2", "Col. 3 ×3", "All"])
    # Two players' three columns fit 390 px: all of them, no scrolling sideways.
    expect(switch.nth(3)).to_have_attribute("aria-pressed", "true")
    before = last_seq(page)
    press(page, "r")
    wait_seq(page, before + 1)
    assert {o.column for o in options(page)} == {0, 1, 2}
    wrap = page.locator("#scorecard").evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert wrap[0] <= wrap[1], f"the scorecard is {wrap[0]}px wide in {wrap[1]}px"
    settle(page)
    assert_fits(page)
    # Where other rulesets show the chances to win: what Triple has instead, in plain words.
    expect(page.locator("#triple-note")).to_be_visible()
    expect(page.locator("#triple-note")).to_contain_text("No chances to win in Triple")
    expect(page.locator("#triple-note")).to_contain_text("exact from 8 open boxes on")
    page.screenshot(path=str(screenshots / "room-phone-triple-two.png"), full_page=True)
    switch.nth(2).click()
    expect(switch.nth(2)).to_have_attribute("aria-pressed", "true")
    assert {o.column for o in options(page)} == {2}
    settle(page)
    assert_fits(page)
    page.screenshot(path=str(screenshots / "room-phone-triple.png"), full_page=True)
    choice = max(options(page), key=lambda o: o.points)
    page.locator(f'#scorecard button.option[data-box="{choice.box}"][data-column="2"]').click()
    confirm_if_asked(page)
    expect(cell(page, 0, choice.box, 2)).to_have_text(str(choice.points))
    switch.nth(0).click()
    expect(cell(page, 0, choice.box, 0)).to_have_text("")  # column 1 still open there

    # The scoring help of the ruleset, one tap away.
    page.get_by_text("How boxes score").tap()
    helptext = page.locator("#rules-help")
    expect(helptext).to_contain_text("Full house25 for three of one number and two of another")
    expect(helptext).to_contain_text("Final total: column 1 + 2 × column 2 + 3 × column 3.")
    assert_fits(page)


def test_connection_lost_and_back(tmp_path, redis_url, strategy_dir, site_template, new_context,
                                  screenshots):
    server = LiveServer(tmp_path, redis_url, strategy_dir)
    server.migrate(site_template)
    server.start()
    try:
        page = new_context().new_page()
        page.clock.install()  # its reconnection's backoff is moved on, not waited out
        create_room(page, server, name="Flaky wifi", rules="yahtzee", seats=["human"],
                    nickname="Solo")
        start_game(page)
        press(page, "r")
        wait_seq(page, 3)
        rolled = dice(page)

        server.stop()
        conn = page.locator("#conn")
        expect(conn).to_contain_text("Connection lost")
        expect(conn).to_have_attribute("data-state", re.compile("lost|reconnecting"))
        expect(page.locator("#roll-btn")).to_be_disabled()
        expect(page.locator("#scorecard button.option")).to_have_count(0)
        page.screenshot(path=str(screenshots / "connection-lost.png"))
        assert low_contrast_text(page) == []

        server.start()  # the same data: the game goes on from its stored events
        page.clock.fast_forward(BACKOFF_MAX)  # the page's next try, now
        expect(conn).to_contain_text("Back online", timeout=30_000)
        wait_connected(page)
        assert dice(page) == rolled
        press(page, "r")
        wait_seq(page, 4)
        assert client_state(page)["rolls_left"] == 1
    finally:
        server.stop()


def test_joker_forbidden_boxes_and_seq_gaps(daphne_server, new_context, screenshots):
    """A second Yahtzee under the forced Joker rule (too rare to reach with seeded dice): the
    page shows which boxes it may not go in. Then a seq gap makes the page ask for the state."""
    page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    frames = ServerFrames(page)
    create_room(page, daphne_server, name="Joker", rules="yahtzee", seats=["human"],
                nickname="Jo")
    frames.hold()  # the page draws the game fed to it below, not the real room's
    events = [
        {"kind": "game_started", "rules": "yahtzee", "players": ["Jo"]},
        {"kind": "turn_started", "player": 0, "round": 1},
        {"kind": "rolled", "player": 0, "dice": [6, 6, 6, 6, 6], "held": [], "roll": 1},
        {"kind": "scored", "player": 0, "box": "yahtzee", "column": 0, "points": 50},
        {"kind": "turn_started", "player": 0, "round": 2},
        {"kind": "rolled", "player": 0, "dice": [6, 6, 6, 6, 6], "held": [], "roll": 1},
    ]
    page.evaluate("m => window.yahtzeeRoom.receive(m)", rules_state(events, you=0))
    # Forced Joker: the matching upper box (sixes) is the only choice.
    expect(page.locator("#scorecard button.option")).to_have_count(1)
    expect(page.locator('#scorecard button.option[data-box="sixes"]')).to_have_text("30")
    expect(page.locator("#scorecard td.forbidden")).to_have_count(11)
    expect(page.locator("#joker-note")).to_contain_text("may only go in Sixes")
    expect(page.locator('#scorecard tr[data-box="full_house"] td.forbidden')).to_contain_text(
        "the Joker rule forbids this box")
    settle(page)
    assert_fits(page)
    page.screenshot(path=str(screenshots / "room-phone-joker.png"), full_page=True)
    assert low_contrast_text(page) == []

    # An event whose seq skips ahead: the page ignores it and asks the server for the state,
    # which replaces the injected one (the real room has no game yet).
    frames.release()
    page.evaluate("""m => window.yahtzeeRoom.receive(m)""", {
        "type": "events", "by": "human", "game": rules_state(events, you=0)["game"]["id"],
        "events": [{"seq": len(events) + 5, "changes": {},
                    "event": {"kind": "rolled", "player": 0, "dice": [1, 2, 3, 4, 5],
                              "held": [], "roll": 2}}]})
    expect(page.locator("#cards")).to_be_hidden()
    expect(page.locator("#start-btn")).to_be_visible()
    assert client_state(page) is None


def test_a_presence_change_redraws_the_turn_line(daphne_server, new_context):
    """The player to move leaves mid-turn: the others' turn line says at once that the
    computer plays the turn, as the seats and the scorecard say that the player is away."""
    page = phone_page(new_context)
    frames = ServerFrames(page)
    create_room(page, daphne_server, name="Away", rules="yahtzee", seats=["human"],
                nickname="Jo")
    frames.hold()  # the real room (no game, one seat) must not redraw the page
    events = [
        {"kind": "game_started", "rules": "yahtzee", "players": ["Jo", "Al"]},
        {"kind": "turn_started", "player": 0, "round": 1},
        {"kind": "rolled", "player": 0, "dice": [1, 2, 3, 4, 6], "held": [], "roll": 1},
        {"kind": "scored", "player": 0, "box": "chance", "column": 0, "points": 16},
        {"kind": "turn_started", "player": 1, "round": 1},
    ]
    page.evaluate("m => window.yahtzeeRoom.receive(m)", rules_state(events, you=0))
    expect(page.locator("#turn")).to_have_text("Al’s turn · round 1 of 13")
    page.evaluate("m => window.yahtzeeRoom.receive(m)",
                  {"type": "presence", "seats": [{"seat": 1, "connected": False}]})
    expect(page.locator('#seats li[data-seat="1"] .presence')).to_have_text("away")
    expect(page.locator("#turn")).to_have_text(
        "Al’s turn — the computer plays it · round 1 of 13")
    page.evaluate("m => window.yahtzeeRoom.receive(m)",
                  {"type": "presence", "seats": [{"seat": 1, "connected": True}]})
    expect(page.locator("#turn")).to_have_text("Al’s turn · round 1 of 13")


def test_live_room_away_and_back(tmp_path, strategy_dir, site_template, new_context, screenshots):
    """Redis away: a page opened then says the live room is lost and retries; the player
    already in keeps playing; when Redis is back the new page connects, up to date."""
    redis_port = free_port()
    redis = start_redis(redis_port, tmp_path / "redis.log")
    server = LiveServer(tmp_path, f"redis://127.0.0.1:{redis_port}/0", strategy_dir)
    server.migrate(site_template)
    server.start()
    try:
        host = new_context().new_page()
        create_room(host, server, name="Redis away", rules="yahtzee", seats=["human"],
                    nickname="Solo")
        start_game(host)
        press(host, "r")
        wait_seq(host, 3)
        room_url = host.url

        stop(redis, timeout=TEARDOWN_WAIT)
        pages = []
        for scheme in ("light", "dark"):
            for viewport, size in ((PHONE, "phone"), (None, "desktop")):
                page = new_context(viewport, color_scheme=scheme).new_page()
                page.clock.install()
                page.goto(room_url)
                conn = page.locator("#conn")
                expect(conn).to_contain_text("Connection to the live room lost")
                expect(conn).to_have_attribute("data-state", re.compile("lost|reconnecting"))
                page.screenshot(path=str(screenshots / f"live-room-away-{size}-{scheme}.png"))
                assert low_contrast_text(page) == []
                pages.append(page)
        # The player already in plays on: the server answers the roll itself.
        press(host, "r")
        wait_seq(host, 4)

        redis = start_redis(redis_port, tmp_path / "redis.log")
        for page in pages:  # by its own retries, the next one now
            page.clock.fast_forward(BACKOFF_MAX)
            expect(page.locator("#room")).to_have_attribute("data-synced", "true", timeout=30_000)
            wait_seq(page, 4)
    finally:
        server.stop()
        stop(redis, timeout=TEARDOWN_WAIT)

"""Two players and a watcher play a whole game in three browsers, against the real server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import DESKTOP, PHONE
from .pages import (
    assert_fits,
    cell,
    client_state,
    confirm_if_asked,
    create_room,
    dice,
    held,
    join,
    last_seq,
    low_contrast_text,
    options,
    press,
    rolls_left,
    room_options,
    settle,
    wait_connected,
    wait_dice,
    wait_seq,
)

pytestmark = pytest.mark.browser

ROOM_NAME = "Friday night <script>"  # untrusted text must show as text
BOB = "<b>Bob</b>"


def watcher_tries_to_roll(page: Page) -> dict:
    """From the watcher's own session, send a roll over a fresh socket: the server's answer,
    and the game's seq before and after."""
    return page.evaluate("""() => new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/ws/rooms/${
            document.getElementById('room').dataset.code}/`);
        const seen = {};
        ws.onmessage = (e) => {
            const m = JSON.parse(e.data);
            if (m.type === 'state' && seen.before === undefined) {
                seen.before = m.seq;
                ws.send(JSON.stringify({type: 'roll', hold: [], id: 'watcher-try'}));
            } else if (m.type === 'error') {
                seen.error = m;
                ws.send(JSON.stringify({type: 'sync'}));
            } else if (m.type === 'state') {
                seen.after = m.seq;
                ws.close();
                resolve(seen);
            }
        };
        ws.onerror = () => reject(new Error('socket failed'));
    })""")


def won_by(name: str) -> re.Pattern[str]:
    """The finished game's line "Won by Ann" (or "Won by Ann and Bob" after a tie)."""
    return re.compile(rf"Won by [^.]*{re.escape(name)}")


def tap_or_click(target: Locator, touch: bool) -> None:
    if touch:
        target.tap()
    else:
        target.click()


def log_lines(page: Page) -> list[tuple[str, str, str]]:
    """The event log, newest first: (seq, class, sentence) of each line."""
    return page.locator("#log li:not(.log-divider)").evaluate_all(
        "els => els.map(e => [e.dataset.seq, e.className, e.textContent])")


def play_turn(turn: int, me: Page, player: int, everyone: list[Page], watcher: Page,
              shots: dict[int, tuple[Page, Path]], reload_at: int | None) -> None:
    """One turn: roll, hold two dice (by click or keyboard), roll again, score the best box
    (by click or keyboard); every page must show each step."""
    by_keyboard = (turn // 2) % 2 == 1  # each player alternates: keys one round, clicks the next
    touch = me.evaluate("matchMedia('(pointer: coarse)').matches")
    expect(me.locator("#turn")).to_contain_text("Your turn")
    start = last_seq(me)
    if by_keyboard:
        press(me, "r")
    else:
        me.locator("#roll-btn").click()
    wait_seq(me, start + 1)
    first = dice(me)
    assert None not in first and rolls_left(me) == 2
    for page in everyone:
        wait_dice(page, first)

    if by_keyboard:
        keep = [2, 4]
        press(me, "3")
        press(me, "5")
    else:
        keep = [0, 1]
        for i in keep:
            tap_or_click(me.locator("#dice .die").nth(i), touch)
    assert held(me) == keep

    if turn == reload_at:
        # A reload mid-turn finds the turn as it was: dice, rolls left, the holds and the log.
        log_before = log_lines(me)
        me.reload()
        wait_connected(me)
        expect(me.locator("#turn")).to_contain_text("Your turn")
        assert dice(me) == first
        assert rolls_left(me) == 2
        assert held(me) == keep
        log_after = log_lines(me)
        assert log_after == log_before
        assert [int(seq) for seq, _, _ in log_after] == list(range(start + 1, 0, -1))
        assert log_after[0][2].startswith(f"{BOB} rolled {' '.join(map(str, first))}")
        assert "log-mine" in log_after[0][1]
        for page in everyone:
            if page is not me:
                expect(page.locator(f'#seats li[data-seat="{player}"] .presence')
                       ).to_have_text("here")

    me.locator("#roll-btn").click()
    wait_seq(me, start + 2)
    second = dice(me)
    assert [second[i] for i in keep] == [first[i] for i in keep]
    assert held(me) == keep, "holds stay on after the roll"
    assert rolls_left(me) == 1
    for page in everyone:
        wait_dice(page, second)
    expect(watcher.locator("#dice .die.held")).to_have_count(2)
    assert held(watcher) == keep

    if turn in shots:
        page, path = shots[turn]
        settle(page)
        assert_fits(page)
        for someone in everyone:
            assert low_contrast_text(someone) == []
        page.screenshot(path=str(path))
        page.screenshot(path=str(path.with_name(path.stem + "-full.png")), full_page=True)

    choices = options(me)
    assert choices, "an open box to score"
    best = max(choices, key=lambda o: (o.points, -o.index))
    if by_keyboard:
        press(me, "s")
        for _ in range(best.index):
            press(me, "ArrowDown")
        focused = me.evaluate("document.activeElement.dataset.box")
        assert focused == best.box
        outline = me.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none", "keyboard focus is visible"
        press(me, "Enter")
    else:
        tap_or_click(me.locator(f'#scorecard button.option[data-box="{best.box}"]'), touch)
    confirm_if_asked(me)  # the best box scores 0: a second tap
    for page in everyone:
        expect(cell(page, player, best.box)).to_have_text(str(best.points))


def test_two_players_and_a_watcher_play_a_whole_game(daphne_server, new_context, screenshots):
    ann = new_context(DESKTOP).new_page()
    bob = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    watcher = new_context(DESKTOP).new_page()

    ann.goto(daphne_server.url + "/")
    ann.screenshot(path=str(screenshots / "lobby.png"), full_page=True)
    url = create_room(ann, daphne_server, name=ROOM_NAME, rules="yahtzee",
                      seats=["human", "human"], nickname="Ann")
    expect(ann.locator("h1")).to_have_text(ROOM_NAME)
    expect(ann.locator("#start-btn")).to_be_visible()

    bob.goto(daphne_server.url + "/")
    room_options(bob)
    expect(bob.locator("select[name=seat_1]")).to_be_visible()
    expect(bob.locator("select[name=seat_2]")).to_be_hidden()  # only as many as seats
    assert_fits(bob)
    bob.screenshot(path=str(screenshots / "lobby-phone.png"), full_page=True)
    bob.goto(url)
    wait_connected(bob)
    expect(bob.locator("#start-btn")).to_be_hidden()  # only the host starts
    expect(bob.locator("#join")).to_be_visible()
    bob.screenshot(path=str(screenshots / "room-join-phone.png"), full_page=True)
    join(bob, BOB, 1)
    watcher.goto(url)
    wait_connected(watcher)
    expect(ann.locator("#seats")).to_contain_text(BOB)  # as text, not markup
    assert ann.locator("#room b").count() == 0
    expect(ann.locator("#watchers")).to_have_text("1 watching")
    expect(watcher.locator("#join")).to_be_hidden()  # no free seat left
    ann.screenshot(path=str(screenshots / "room-waiting.png"), full_page=True)

    ann.locator("#start-btn").click()
    everyone = [ann, bob, watcher]
    for page in everyone:
        expect(page.locator("#turn")).to_contain_text("round 1 of 13")

    # The watcher cannot act: no roll button, dice and boxes not operable, keys do nothing,
    # and the server refuses a roll sent from the watcher's session anyway.
    expect(watcher.locator("#roll-btn")).to_be_hidden()
    seq_before = last_seq(ann)
    press(watcher, "r")
    press(watcher, "1")
    answer = watcher_tries_to_roll(watcher)
    assert answer["error"]["code"] == "watcher"
    assert answer["after"] == answer["before"] == seq_before

    shots = {8: (ann, screenshots / "room-desktop.png"), 9: (bob, screenshots / "room-phone.png")}
    players = [ann, bob]
    for turn in range(26):
        play_turn(turn, players[turn % 2], turn % 2, everyone, watcher, shots, reload_at=5)
        if turn == 2:
            assert watcher.locator("#dice .die:not([disabled])").count() == 0
            assert watcher.locator("#scorecard button").count() == 0
        if turn == 12:
            # Someone opening the link mid-game gets the whole picture from the first state.
            late = new_context(PHONE).new_page()
            late.goto(url)
            wait_connected(late)
            wait_seq(ann, last_seq(late))  # nobody moves now: both reach the same event
            wait_seq(late, last_seq(ann))
            assert client_state(late) == client_state(ann)
            expect(late.locator("#seats .seat-total")).to_have_text(
                ann.locator("#seats .seat-total").all_text_contents())
            expect(ann.locator("#watchers")).to_have_text("2 watching")
            late.close()
            expect(ann.locator("#watchers")).to_have_text("1 watching")

    # The end: everyone sees the same final result, the winner named. Every page built its
    # state from event patches since its last full state; a fresh page gets the server's.
    final = client_state(ann)
    assert final["finished"]
    fresh = new_context(DESKTOP).new_page()
    fresh.goto(url)
    wait_connected(fresh)
    assert client_state(fresh) == final == client_state(bob) == client_state(watcher)
    fresh.close()
    totals = [card["total"] for card in final["scorecards"]]
    winners = final["winners"]  # both, when the dice give a tie
    names = ["Ann", BOB]
    for page in everyone:
        result = page.locator("#result")
        expect(result).to_be_visible()
        ranked = sorted(zip(totals, names, strict=True), reverse=True)
        expect(result.locator("thead th .result-name.long")).to_have_text([n for _, n in ranked])
        expect(result.locator("tr.total-row td")).to_have_text([str(t) for t, _ in ranked])
        expect(result.locator("thead th.winner")).to_have_count(len(winners))
        for w in winners:
            expect(result.locator("thead th.winner", has_text=names[w])).to_have_count(1)
    if len(winners) == 1:
        expect(watcher.locator("#result-title")).to_contain_text(f"{names[winners[0]]} wins")
        expect(players[winners[0]].locator("#result-title")).to_contain_text("You win")
    else:
        expect(watcher.locator("#result-title")).to_contain_text("share the win")
        for player in players:
            expect(player.locator("#result-title")).to_have_text("A shared win!")
    expect(ann.locator("#rematch-btn")).to_be_visible()
    expect(bob.locator("#rematch-btn")).to_be_visible()  # anyone seated may offer it
    expect(watcher.locator("#rematch-btn")).to_be_hidden()
    assert_fits(bob)
    for page in everyone:
        assert low_contrast_text(page) == []
    ann.screenshot(path=str(screenshots / "finished-room.png"), full_page=True)
    bob.screenshot(path=str(screenshots / "finished-room-phone.png"), full_page=True)

    # A player who leaves is shown as away to the others.
    bob.close()
    expect(ann.locator('#seats li[data-seat="1"] .presence')).to_have_text("away")
    expect(ann.locator("#scorecard .player-head.p1")).to_contain_text("away")

    # The game's own page, linked from the result, names the winner.
    watcher.locator("#game-page-link").click()
    for w in winners:
        expect(watcher.locator("main")).to_contain_text(won_by(names[w]))
    watcher.screenshot(path=str(screenshots / "finished-game.png"), full_page=True)
    on_phone = bob.context.new_page()
    on_phone.goto(watcher.url)
    assert_fits(on_phone)
    on_phone.screenshot(path=str(screenshots / "finished-game-phone.png"), full_page=True)

    # And the lobby lists the room among the recently finished.
    lobby = ann.context.new_page()
    lobby.goto(daphne_server.url + "/")
    finished = lobby.locator("section", has=lobby.locator("#finished-title"))
    expect(finished.get_by_role("link", name=ROOM_NAME)).to_be_visible()
    expect(finished.locator("li", has_text=ROOM_NAME)).to_contain_text(
        f"{names[winners[0]]} beat {names[1 - winners[0]]}" if len(winners) == 1
        else f"tied on {totals[0]}")
    lobby.screenshot(path=str(screenshots / "lobby-after.png"), full_page=True)
    assert low_contrast_text(lobby) == []
    finished.locator("li", has_text=ROOM_NAME).get_by_role("link", name="review").click()
    for w in winners:
        expect(lobby.locator("main")).to_contain_text(won_by(names[w]))
    assert low_contrast_text(lobby) == []  # the game's page

    # Play again: the host starts a rematch in the same room; the watcher stays and sees it.
    watcher.goto(url)
    wait_connected(watcher)
    ann.locator("#rematch-btn").click()
    for page in (ann, watcher):
        expect(page.locator("#turn")).to_contain_text("round 1 of 13")
        expect(page.locator("#result")).to_be_hidden()
    expect(ann.locator("#turn")).to_contain_text("Your turn")
    expect(ann.locator("#watchers")).to_have_text("1 watching")
    # Both logs: the new game's first lines on top, a divider, then the end of the last game
    # (live on Ann's page, from the state's recent events on the watcher's reloaded page).
    for page, turn_line in ((ann, "Round 1: your turn, Ann."), (watcher, "Round 1: Ann’s turn.")):
        lines = page.locator("#log li")
        expect(lines.nth(0)).to_have_text(turn_line)
        expect(lines.nth(1)).to_have_text("A new game of Yahtzee started.")
        expect(lines.nth(2)).to_have_class("log-divider")
        expect(lines.nth(3)).to_have_text(re.compile(r"^Game over: "))
        keys = page.locator("#log li:not(.log-divider)").evaluate_all(
            "els => els.map(e => `${e.dataset.game}/${e.dataset.seq}`)")
        assert len(keys) == len(set(keys)), "no event twice in the log"
    assert len(log_lines(watcher)) == 2 + 50

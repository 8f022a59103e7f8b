"""A player who closes their page on their turn: the others and the watchers are told when the
computer plays for them, counting down; the host may have it played now."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import BRIEF_ABSENCE, DESKTOP, PHONE
from .pages import confirm_if_asked, create_room, join, start_game, wait_connected

pytestmark = pytest.mark.browser

AWAY = re.compile(r"^Bob is away — the computer plays their turn in \d+:\d\d · round 1 of 13$")


def test_everyone_sees_the_countdown_to_the_computer_playing_for_an_away_player(
        daphne_server, new_context, screenshots):
    ann = new_context(viewport=DESKTOP).new_page()
    ann.clock.install()  # the pages' clocks pass the brief absence they wait out
    url = create_room(ann, daphne_server, name="Away", rules="yahtzee",
                      seats=["human", "human"], nickname="Ann")
    bob = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    bob.goto(url)
    wait_connected(bob)
    join(bob, "Bob", 1)
    watcher = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watcher.clock.install()
    watcher.goto(url)
    wait_connected(watcher)
    start_game(ann)
    ann.locator("#roll-btn").click()
    ann.locator('#scorecard button.option[data-box="chance"]').click()
    confirm_if_asked(ann)
    expect(bob.locator("#turn")).to_contain_text("Your turn")
    for page in (ann, watcher):  # Bob is here: nobody is told anything more
        expect(page.locator("#turn")).to_have_text("Bob’s turn · round 1 of 13")
    bob.close()  # on his turn
    for page in (ann, watcher):
        page.wait_for_function("() => !window.yahtzeeRoom.state.room.seats[1].connected")
        page.clock.fast_forward(BRIEF_ABSENCE)
    for page in (ann, watcher):
        turn = page.locator("#turn")
        expect(turn).to_have_text(AWAY)
        shown = turn.text_content()
        expect(turn).not_to_have_text(shown)  # it counts down
        expect(turn).to_have_text(AWAY)
    expect(ann.locator("#play-away-btn")).to_be_visible()
    expect(ann.locator("#play-away-btn")).to_have_text("Play for Bob now")
    expect(watcher.locator("#play-away-btn")).to_be_hidden()  # only the host may
    ann.screenshot(path=screenshots / "away-host-desktop.png")
    watcher.screenshot(path=screenshots / "away-watcher-phone.png")

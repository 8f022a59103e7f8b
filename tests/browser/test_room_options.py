"""The host's room options between games, on the room page: who sees the chances."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP
from .pages import create_room, wait_connected

pytestmark = pytest.mark.browser


def test_the_host_sets_who_sees_the_chances_between_games(daphne_server, new_context,
                                                         screenshots):
    page = new_context(viewport=DESKTOP).new_page()
    create_room(page, daphne_server, name="Options", rules="yahtzee", seats=["human", "easy"],
                nickname="Ann")
    chances = page.get_by_label("Chances to win shown to players")
    expect(chances).to_be_visible()
    expect(chances).to_have_value("auto")
    page.locator("#host-controls").screenshot(path=str(screenshots / "room-options.png"))
    chances.select_option("off")
    page.wait_for_function("() => window.yahtzeeRoom.state.room.chances === 'off'")
    assert page.evaluate("window.yahtzeeRoom.state.room.chances_for_players") is False
    page.reload()
    wait_connected(page)
    expect(page.get_by_label("Chances to win shown to players")).to_have_value("off")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_label("Chances to win shown to players")).to_be_hidden()

"""What the room page says in words a player understands, where it is seen: the chances to
win with a visible legend above the scorecard, the coach's "best" and "−2.3" under each box
with its threshold menu out of the sticky dice tray (a phone keeps room for the scorecard)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .pages import (
    ServerFrames,
    assert_fits,
    create_room,
    low_contrast_text,
    open_practice_room,
    rules_state,
    settle,
)

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


def page_for(new_context, viewport: str, scheme: str):
    extra = {"is_mobile": True, "has_touch": True} if viewport == "phone" else {}
    return new_context(VIEWPORTS[viewport], color_scheme=scheme, **extra).new_page()


def receive(page, message: dict) -> None:
    page.evaluate("m => window.yahtzeeRoom.receive(m)", message)


TWO_TURNS = [
    {"kind": "game_started", "rules": "yahtzee", "players": ["Ann", "Bob"]},
    {"kind": "turn_started", "player": 0, "round": 1},
    {"kind": "rolled", "player": 0, "dice": [1, 2, 3, 4, 6], "held": [], "roll": 1},
    {"kind": "scored", "player": 0, "box": "chance", "column": 0, "points": 16},
    {"kind": "turn_started", "player": 1, "round": 1},
    {"kind": "rolled", "player": 1, "dice": [5, 5, 2, 2, 2], "held": [], "roll": 1},
    {"kind": "scored", "player": 1, "box": "full_house", "column": 0, "points": 25},
    {"kind": "turn_started", "player": 0, "round": 2},
]


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_chances_in_words_above_the_scorecard(daphne_server, new_context, screenshots,
                                                  viewport, scheme):
    page = page_for(new_context, viewport, scheme)
    frames = ServerFrames(page)
    create_room(page, daphne_server, name=f"Chances {viewport} {scheme}", rules="yahtzee",
                seats=["human"], nickname="Ann")
    frames.hold()  # the page draws the game fed to it below, not the real room's
    receive(page, rules_state(TWO_TURNS, you=0))
    receive(page, {"type": "standings", "game": 999, "seq": len(TWO_TURNS), "players": [
        {"expected": 251.2, "sd": 20.3, "chance": 0.4612, "percentiles": [228, 247, 281],
         "exact": False},
        {"expected": 262.0, "sd": 21.0, "chance": 0.5388, "percentiles": [239, 258, 292],
         "exact": False}]})
    standings = page.locator("#standings")
    expect(standings).to_be_visible()
    expect(standings.locator(".standings-row")).to_have_text([
        "Ann: 46 % to win · likely 228–281", "Bob: 54 % to win · likely 239–292"])
    legend = standings.locator(".standings-legend")
    expect(legend).to_be_visible()  # said on the page, not in a tooltip
    expect(legend).to_contain_text("eight games in ten")
    assert "≈" not in standings.inner_text() and "±" not in standings.inner_text()
    # Where it is seen: above the scorecard, not under the whole of it.
    top = standings.bounding_box()["y"]
    assert top < page.locator("#scorecard").bounding_box()["y"]
    # Seen on the first screen, under the dice (a phone too), without scrolling.
    page.evaluate("() => window.scrollTo(0, 0)")
    tray = page.locator("#table").bounding_box()
    box = standings.bounding_box()
    assert box["y"] >= tray["y"] + tray["height"], (tray, box)
    assert box["y"] + box["height"] <= VIEWPORTS[viewport]["height"], box
    settle(page)
    assert_fits(page)
    page.screenshot(path=str(screenshots / f"chances-{viewport}-{scheme}.png"))
    assert low_contrast_text(page) == []


ROLLED = [
    {"kind": "game_started", "rules": "yahtzee", "players": ["Ann"]},
    {"kind": "turn_started", "player": 0, "round": 1},
    {"kind": "rolled", "player": 0, "dice": [3, 3, 3, 5, 6], "held": [], "roll": 1},
]


def advice() -> dict:
    return {"type": "advice", "game": 999, "seq": len(ROLLED), "player": 0, "rolls_left": 2,
            "boxes": [{"box": "three_of_a_kind", "column": 0, "value": 254.0},
                      {"box": "threes", "column": 0, "value": 251.7},
                      {"box": "chance", "column": 0, "value": 249.0}],
            "holds": [{"hold": [0, 1, 2], "dice": [3, 3, 3], "value": 253.1}]}


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_coach_says_best_and_what_a_box_costs(daphne_server, new_context, screenshots,
                                                  viewport, scheme):
    page = page_for(new_context, viewport, scheme)
    frames = ServerFrames(page)
    open_practice_room(page, daphne_server, f"Coach {viewport} {scheme}")
    frames.hold()
    receive(page, rules_state(ROLLED, you=0))
    receive(page, advice())
    value = lambda box: page.locator(  # noqa: E731
        f'#scorecard button.option[data-box="{box}"] .coach-value')
    expect(value("three_of_a_kind")).to_have_text("best")
    expect(value("threes")).to_have_text("−2.3")
    expect(value("chance")).to_have_text("−5.0")
    expect(page.locator("#scorecard .coach-value")).to_have_count(3)
    # The legend and the threshold menu: shown, and not in the sticky dice tray.
    row = page.locator("#coach-row")
    expect(row).to_be_visible()
    expect(row).to_contain_text("what it costs against the best choice")
    expect(page.locator("#table #coach-threshold")).to_have_count(0)
    expect(page.locator("#cards #coach-threshold")).to_have_count(1)
    settle(page)
    assert_fits(page)
    page.screenshot(path=str(screenshots / f"coach-{viewport}-{scheme}.png"),
                    full_page=viewport == "desktop")
    assert low_contrast_text(page) == []

    # A costly choice asks first: with the confirm bar up, the scorecard keeps most of a
    # phone's screen between the sticky tray and the bar.
    page.locator('#scorecard button.option[data-box="chance"]').click()
    bar = page.locator("#confirm")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("Chance costs 5.0 points against scoring Three of a kind.")
    # Scrolled into the scorecard: the tray sticks to the top of the screen.
    page.evaluate("() => window.scrollTo(0, document.getElementById('cards').offsetTop)")
    left = page.evaluate("""() => {
        const tray = document.getElementById('table').getBoundingClientRect();
        const bar = document.getElementById('confirm').getBoundingClientRect();
        return (bar.top - Math.max(0, tray.bottom)) / innerHeight; }""")
    page.screenshot(path=str(screenshots / f"coach-confirm-{viewport}-{scheme}.png"))
    assert left >= 0.5, f"{left:.0%} of the screen left for the scorecard"

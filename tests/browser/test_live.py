"""A room as it happens: watchers and opponents see the dice a player holds before the roll."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, MOTION, PHONE
from .pages import (
    create_room,
    dice,
    held,
    join,
    last_seq,
    open_practice_room,
    start_game,
    wait_connected,
    wait_dice,
    wait_seq,
)

pytestmark = pytest.mark.browser


def test_a_watcher_sees_holds_before_the_roll(daphne_server, new_context, screenshots):
    ann = new_context(viewport=DESKTOP).new_page()
    url = create_room(ann, daphne_server, name="Holds", rules="yahtzee",
                      seats=["human", "human"], nickname="Ann")
    bob = new_context(viewport=DESKTOP).new_page()
    bob.goto(url)
    wait_connected(bob)
    join(bob, "Bob", 1)
    watcher = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watcher.goto(url)
    wait_connected(watcher)
    start_game(ann)
    start = last_seq(ann)
    ann.locator("#roll-btn").click()
    wait_seq(ann, start + 1)
    first = dice(ann)
    for page in (bob, watcher):
        wait_dice(page, first)
        assert held(page) == []
    for i in (1, 3):
        ann.locator("#dice .die").nth(i).click()
    # Before any roll: the other player and the watcher see the two dice held.
    for page in (bob, watcher):
        expect(page.locator("#dice .die.held")).to_have_count(2)
        assert held(page) == [1, 3]
        assert last_seq(page) == start + 1  # nothing was stored: no event came
    watcher.screenshot(path=screenshots / "live-holds-watcher-phone.png")
    bob.screenshot(path=screenshots / "live-holds-opponent-desktop.png")
    ann.locator("#dice .die").nth(1).click()  # let one go again
    for page in (bob, watcher):
        expect(page.locator("#dice .die.held")).to_have_count(1)
        assert held(page) == [3]
    # The roll carries the hold that counts, and the next roll's dice follow it.
    ann.locator("#roll-btn").click()
    wait_seq(ann, start + 2)
    second = dice(ann)
    assert second[3] == first[3]
    for page in (bob, watcher):
        wait_dice(page, second)
        assert held(page) == [3]  # what was kept on that roll, until Ann changes it


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_standings_after_each_turn_beside_a_computer(daphne_server, yahtzee_table, new_context,
                                                    screenshots, viewport):
    phone = viewport == "phone"
    context = (new_context(viewport=PHONE, is_mobile=True, has_touch=True) if phone
               else new_context(viewport=DESKTOP))
    ann = context.new_page()
    create_room(ann, daphne_server, name=f"Odds {viewport}", rules="yahtzee",
                seats=["human", "easy"], nickname="Ann")
    start_game(ann)
    standings = ann.locator("#standings")
    # No figures until a turn ended, their place held (nothing moves when they come).
    expect(standings).to_have_class(re.compile(r"\bstandings-pending\b"))
    expect(standings.locator(".standings-row").first).to_have_text("Ann: …")
    ann.locator("#roll-btn").click()
    expect(ann.locator("#cards button.option").first).to_be_visible()
    ann.locator("#cards button.option").first.click()
    if ann.locator("#confirm").is_visible():  # a 0 asks first
        ann.locator("#confirm .confirm-yes").click()
    expect(standings).not_to_have_class(re.compile(r"\bstandings-pending\b"), timeout=20_000)
    rows = standings.locator(".standings-row")
    expect(rows).to_have_count(2)
    texts = rows.all_inner_texts()
    chances = [int(re.search(r"(\d+) % to win", t).group(1)) for t in texts]
    assert 98 <= sum(chances) <= 102, chances
    expect(rows.nth(0)).to_have_text(re.compile(r"^Ann: [<>]?\d+ % to win · likely \d+(–\d+)?$"))
    standings.scroll_into_view_if_needed()
    ann.screenshot(path=screenshots / f"live-standings-{viewport}.png", full_page=not phone)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_coach_values_the_boxes_and_asks_before_a_costly_choice(
        daphne_server, yahtzee_table, new_context, screenshots, viewport):
    phone = viewport == "phone"
    context = (new_context(viewport=PHONE, is_mobile=True, has_touch=True) if phone
               else new_context(viewport=DESKTOP))
    ann = context.new_page()
    open_practice_room(ann, daphne_server, f"Practice {viewport}")
    expect(ann.locator(".practice-badge")).to_be_visible()
    start_game(ann)
    ann.locator("#roll-btn").click()
    values = ann.locator("#scorecard button.option .coach-value")
    expect(values.first).to_be_visible(timeout=20_000)
    # The hint marks the best choice (the dice to keep, or a box).
    ann.locator("#hint-btn").click()
    expect(ann.locator("#dice .die.hint, #scorecard button.option.coach-best,"
                       " #dice.hint-nothing")).not_to_have_count(0)
    ann.screenshot(path=screenshots / f"coach-hint-{viewport}.png", full_page=not phone)
    # Scoring the least valuable box now costs points: the coach asks first.
    # Each box says what it costs against the best choice: "best" or "−2.3".
    costs = [0.0 if t == "best" else float(t.lstrip("−")) for t in values.all_inner_texts()]
    worst = ann.locator("#scorecard button.option").nth(costs.index(max(costs)))
    box = worst.get_attribute("data-box")
    seq = last_seq(ann)
    worst.click()
    bar = ann.locator("#confirm")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("The coach:")
    ann.screenshot(path=screenshots / f"coach-asks-{viewport}.png", full_page=not phone)
    assert last_seq(ann) == seq  # nothing sent yet
    bar.get_by_role("button", name="Score it anyway").click()
    wait_seq(ann, seq + 2)  # scored, then the next turn
    expect(ann.locator(f'#scorecard td.filled[data-box="{box}"], '
                       f'#scorecard tr[data-box="{box}"] td.filled')).not_to_have_count(0)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_win_is_celebrated_and_each_score_lights_up(daphne_server, new_context, screenshots,
                                                      viewport):
    """A solo game to its end: every box scored lights up for the player and a watcher, and
    the end is celebrated (still, on a phone that asked for reduced motion)."""
    phone = viewport == "phone"
    context = (new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                           reduced_motion="reduce") if phone
               else new_context(viewport=DESKTOP, **MOTION))
    ann = context.new_page()
    url = create_room(ann, daphne_server, name=f"Party {viewport}", rules="yahtzee",
                      seats=["human"], nickname="Ann")
    watcher = new_context(viewport=DESKTOP).new_page()
    watcher.goto(url)
    wait_connected(watcher)
    expect(watcher.locator("#sound-btn")).to_have_attribute("aria-pressed", "false")
    expect(ann.locator("#sound-btn")).to_have_attribute("aria-pressed", "true")
    start_game(ann)
    for turn in range(13):
        seq = last_seq(ann)
        ann.locator("#roll-btn").click()
        wait_seq(ann, seq + 1)
        option = ann.locator("#scorecard button.option").first
        box = option.get_attribute("data-box")
        option.click()
        if ann.locator("#confirm").is_visible():
            ann.locator("#confirm .confirm-yes").click()
        wait_seq(ann, seq + 3 if turn < 12 else seq + 2)
        if turn == 0:
            for page in (ann, watcher):
                expect(page.locator(f'tr[data-box="{box}"] td.just-scored')).to_have_count(1)
    expect(ann.locator("#result-title")).to_contain_text("Game over — ")
    confetti = ann.locator("#result .confetti")
    expect(confetti).to_have_count(1)
    # Still, for a phone that asked for reduced motion: the card alone.
    if phone:
        expect(confetti).to_be_hidden()
    else:
        expect(confetti).to_be_visible()
    expect(watcher.locator("#result-title")).to_contain_text("Ann wins — ")
    expect(watcher.locator(".confetti")).to_have_count(0)  # a watcher's end is no party
    ann.screenshot(path=screenshots / f"celebrate-win-{viewport}.png")

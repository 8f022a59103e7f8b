"""The replay presenter: frames rebuilt from the stored events agree with the rules engine."""

from __future__ import annotations

import json
import time

import pytest

from game.presenters.replay import replay_data
from game.rules import Game as RulesGame
from game.rules import event_from_dict
from tests.support.rooms import finished_game

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]


def fold(data: dict) -> list[dict]:
    """Each player's scorecard at the end, from the empty card and every frame's changes."""
    cards = [json.loads(json.dumps(data["empty_card"])) for _ in data["players"]]
    for frame in data["frames"]:
        for player, column, key, value in frame.get("changes", []):
            if column is None:
                cards[player]["total"] = value
            elif key in cards[player]["columns"][column]["boxes"]:
                cards[player]["columns"][column]["boxes"][key] = value
            else:
                cards[player]["columns"][column][key] = value
    return cards


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy", "triple"])
def test_every_frame_is_the_state_after_its_event(rules):
    game = finished_game(["Ann", "Bob"], rules)
    stored = list(game.events.order_by("seq"))
    data = replay_data(stored)
    assert data["version"] == 1 and data["rules"] == rules and data["players"] == ["Ann", "Bob"]
    assert data["finished"] and data["winners"] == game.winners
    assert [f["seq"] for f in data["frames"]] == [e.seq for e in stored]
    events = [event_from_dict(e.to_rules_dict()) for e in stored]
    held: list[int] = []
    for i, frame in enumerate(data["frames"]):
        state = RulesGame.from_events(events[: i + 1])
        assert frame["kind"] == events[i].kind
        assert (frame["player"], frame["round"], frame["roll"]) == (
            state.current_player, state.round, state.rolls_used)
        assert frame["dice"] == (list(state.dice) if state.dice else None)
        if frame["kind"] == "rolled":
            held = list(events[i].held)
        elif frame["kind"] in ("turn_started", "game_finished"):
            held = []
        assert frame["held"] == held
    assert fold(data) == game.snapshot["scorecards"]


def test_only_what_changed_is_in_a_frame():
    data = replay_data(finished_game(["Ann", "Bob"]).events.order_by("seq"))
    kinds = {f["kind"] for f in data["frames"] if "changes" in f}
    assert kinds <= {"scored", "bonus"}
    for frame in data["frames"]:
        if frame["kind"] == "scored":
            changed = {(c[1], c[2]) for c in frame["changes"]}
            assert (frame["column"], frame["box"]) in changed
            assert (None, "grand_total") in changed or frame["points"] == 0
            assert all(c[0] == frame["player"] for c in frame["changes"])
            assert len(changed) <= 5  # the box, its section's subtotal, the totals


def test_a_game_without_events_has_no_frames():
    assert replay_data([])["frames"] == []


def test_six_players_page_stays_small(client):
    """The whole page of a 6-player Yahtzee game (78 turns), HTML and data, under 150 KB."""
    game = finished_game(NAMES)
    assert game.events.filter(kind="turn_started").count() == 78
    started = time.perf_counter()
    html = client.get(game.get_absolute_url()).content
    print(f"\nthe page took {1000 * (time.perf_counter() - started):.0f} ms to make")
    data = json.dumps(replay_data(game.events.order_by("seq")), separators=(",", ":"))
    print(f"\n6-player yahtzee game: {len(html)} bytes of HTML, "
          f"{len(data)} bytes of replay data in it")
    assert len(html) < 150_000

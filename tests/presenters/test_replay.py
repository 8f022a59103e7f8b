"""The replay presenter: frames rebuilt from the stored events agree with the rules engine."""

from __future__ import annotations

import json
import time

import pytest

from game.presenters.replay import replay_data, replay_state
from game.rules import Game as RulesGame
from game.rules import event_from_dict
from game.rules.patches import apply_patch
from tests.support.rooms import finished_game

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]


def states(data: dict) -> list[dict]:
    """The state at each frame: the start, then each frame's changes applied (as the page
    folds them, static/game/shared/patch.js)."""
    state = data["start"]
    out = []
    for frame in data["frames"]:
        state = apply_patch(state, frame.get("changes", {}))
        out.append(state)
    return out


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy", "triple"])
def test_every_frame_folds_to_the_state_after_its_event(rules):
    game = finished_game(["Ann", "Bob"], rules)
    stored = list(game.events.order_by("seq"))
    data = replay_data(stored)
    assert data["version"] == 2 and data["rules"] == rules and data["players"] == ["Ann", "Bob"]
    assert data["finished"] and data["winners"] == game.winners
    assert [f["seq"] for f in data["frames"]] == [e.seq for e in stored]
    assert "changes" not in data["frames"][0]
    events = [event_from_dict(e.to_rules_dict()) for e in stored]
    for i, (frame, state) in enumerate(zip(data["frames"], states(data), strict=True)):
        assert frame["event"]["kind"] == events[i].kind
        assert state == replay_state(RulesGame.from_events(events[: i + 1]))
    # The state the live room ended on, but for the open boxes' points the replay leaves out.
    assert states(data)[-1] == {k: v for k, v in game.snapshot.items() if k != "options"}


def test_only_what_changed_is_in_a_frame():
    data = replay_data(finished_game(["Ann", "Bob"]).events.order_by("seq"))
    for frame in data["frames"]:
        event = frame["event"]
        if event["kind"] not in ("scored", "bonus"):
            assert "scorecards" not in frame.get("changes", {})
        if event["kind"] == "scored":
            card = frame["changes"]["scorecards"]
            assert list(card) == [str(event["player"])]
            column = card[str(event["player"])]["columns"][str(event["column"])]
            assert column["boxes"] == {event["box"]: event["points"]}  # a 0 too: null before
        assert "players" not in event and "options" not in frame.get("changes", {})


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

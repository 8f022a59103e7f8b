"""The ``changes`` of event frames: patched event by event, a client holds the server's state."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.protocol.client import event_messages, state_after
from game.rules import Game, event_from_dict
from game.rules.patches import apply_patch, state_patch

from .random_games import play_random_game, rulesets

#: The events that end a command's result: a roll's only event, a score's last.
LAST = ("rolled", "turn_started", "game_finished")


def frames_of(game: Game) -> tuple[dict, list[dict]]:
    """The state after the start (what a ``state`` message holds) and one ``events`` frame
    per later command, made the server's way: the command's events and what they changed."""
    replay = Game.from_events(game.events[:2])
    start = {**replay.to_dict(), "id": 7, "seq": 2}
    frames, previous, pending = [], replay.to_dict(), []
    for seq, event in enumerate(game.events[2:], start=3):
        replay.apply(event_from_dict(event.to_dict()))
        pending.append({"seq": seq, "event": event.to_dict()})
        if event.kind in LAST:
            now = replay.to_dict()
            frames.append({"type": "events", "game": 7, "by": "human", "events": pending,
                           "changes": state_patch(previous, now)})
            previous, pending = now, []
    assert not pending
    return start, frames


@settings(max_examples=25, deadline=None)
@given(data=st.data(), rules=rulesets, players=st.integers(1, 4))
def test_a_client_patching_every_command_holds_the_servers_state(data, rules, players):
    game = play_random_game(data, rules, players)
    start, frames = frames_of(game)
    held = start
    replay = Game.from_events(game.events[:2])
    for frame in frames:
        # Through JSON, as a socket carries it (keys of array patches become strings anyway).
        held = state_after(held, json.loads(json.dumps(frame)))
        for e in frame["events"]:
            replay.apply(game.events[e["seq"] - 1])
        assert held == {**replay.to_dict(), "id": 7, "seq": frame["events"][-1]["seq"]}
    assert held["finished"] and held["scorecards"] == [c.to_dict() for c in game.scorecards]


def test_a_client_never_patches_across_a_gap_or_another_game():
    game = Game("yahtzee", ["Ann", "Bob"])
    game.roll()
    game.score(game.legal_slots()[0].box)
    start, frames = frames_of(game)
    roll, score = frames
    assert [e["event"]["kind"] for e in score["events"]][-1] == "turn_started"
    assert state_after(start, score) is None  # seq 4 on a state at 2: a gap, so sync
    assert state_after(start, {**roll, "game": 8}) is None
    assert state_after(None, roll) is None
    after = state_after(start, roll)
    assert after is not None and state_after(after, roll) is after  # a repeat changes nothing
    assert start["dice"] is None and start["seq"] == 2  # the held state was not mutated
    assert [m["seq"] for m in event_messages(score)] == [4, 5]


@pytest.mark.parametrize(("before", "after", "patch"), [
    ({"a": 1, "b": [1, 2]}, {"a": 1, "b": [2, 1]}, {"b": [2, 1]}),  # numbers: the whole list
    ({"x": [{"p": 1}, {"p": 2}]}, {"x": [{"p": 1}, {"p": 3}]}, {"x": {"1": {"p": 3}}}),
    ({"x": [{"p": 1}]}, {"x": []}, {"x": []}),  # another length: replaced
    ({"d": [1, 2], "n": 0}, {"d": None, "n": 0}, {"d": None}),  # null is a value
    ({"f": None}, {"f": {"s": 1}}, {"f": {"s": 1}}),
    ({"a": {"b": 1}}, {"a": {"b": 1}}, {}),
])
def test_patches_name_only_what_changed(before, after, patch):
    assert state_patch(before, after) == patch
    assert apply_patch(before, patch) == after


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_event_frames_are_a_fraction_of_the_state(data):
    """The point of patches: a command's frame in a two-player game is far smaller than the
    state it updates (a budget of 600 bytes on average; the whole state is ~1.5 KB)."""
    game = play_random_game(data, "yahtzee", 2)
    start, frames = frames_of(game)
    sizes, held = [], start
    for frame in frames:
        held = state_after(held, frame)
        size = len(json.dumps(frame, separators=(",", ":")))
        assert size < len(json.dumps(held, separators=(",", ":"))), frame
        sizes.append(size)
    assert sum(sizes) / len(sizes) < 600

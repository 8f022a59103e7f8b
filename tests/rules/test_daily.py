"""The daily challenge's dice tape (game/rules/fairness.py ``DailyDice``, docs/fairness.md "The
daily challenge's tape"): players who keep the same dice see the same dice, each roll's new
dice are the first faces of its own stream, the tape depends on every byte of the secret day
seed and nothing a game sends contains it, and a daily game is checked like any other."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai import choose_action
from game.rules import (
    DailyDice,
    FairDice,
    Game,
    InvalidEvent,
    InvalidPlayers,
    InvalidSeed,
    check_game,
)
from game.rules.fairness import new_server_seed

from .fairness_doc import run_doc_script

DAY = "2026-11-25"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"

hex_seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
positions = st.sets(st.integers(0, 4))


def new_faces(before: tuple[int, ...] | None, after: tuple[int, ...], held: set[int]) -> list:
    """The faces a roll drew: its dice not held, in position order."""
    return [after[i] for i in range(5) if before is None or i not in held]


def stream_start(tape: DailyDice, turn: int, roll: int, n: int) -> list[int]:
    return list(itertools.islice(tape.faces(turn, roll), n))


def keeping_the_same_values(dice: tuple[int, ...], values: list[int],
                            data: st.DataObject) -> set[int] | None:
    """Positions of ``dice`` that keep exactly ``values`` (chosen at random among equal
    dice), or None when ``dice`` do not hold them."""
    chosen: set[int] = set()
    for value, count in Counter(values).items():
        spots = [i for i, d in enumerate(dice) if d == value]
        if len(spots) < count:
            return None
        chosen |= set(data.draw(st.permutations(spots))[:count])
    return chosen


@settings(max_examples=25, deadline=None)
@given(seed=hex_seeds, rules=st.sampled_from(["yahtzee", "yatzy"]), data=st.data())
def test_players_who_keep_the_same_dice_see_the_same_dice(seed, rules, data):
    """Two players of one day's tape, each holding and scoring as they like, B often keeping
    the values A keeps (in other positions when it can). Whatever came before:
    - every turn's first roll is the same for both;
    - every roll's new dice are the first faces of the stream of its turn and roll, so the
      dice of the one who re-rolls fewer are the first of the other's;
    - keeping dice of the same values gives the same dice (the same positions: the same
      order)."""
    tape = DailyDice(seed, rules, DAY)
    a, b = Game(rules, ["A"], rng=tape), Game(rules, ["B"], rng=tape)
    turn = 0
    while not a.is_over:
        turn += 1
        a.roll()
        b.roll()
        assert a.dice == b.dice == tuple(stream_start(tape, turn, 1, 5))
        rolling = [a, b]
        for roll in (2, 3):  # a player who stops rolling scores: no later roll this turn
            rolling = [g for g in rolling
                       if data.draw(st.booleans(), label=f"{g.players[0]} rolls")]
            holds = {}
            for g in rolling:
                hold = data.draw(positions, label="hold")
                if g is b and a in rolling and data.draw(st.booleans(), label="B mirrors A"):
                    same = keeping_the_same_values(b.dice, [a.dice[i] for i in holds[id(a)]],
                                                   data)
                    hold = hold if same is None else same
                holds[id(g)] = hold
            before = {id(g): g.dice for g in rolling}
            for g in rolling:
                g.roll(holds[id(g)])
                drawn = new_faces(before[id(g)], g.dice, holds[id(g)])
                assert drawn == stream_start(tape, turn, roll, len(drawn))
            if len(rolling) == 2:
                kept = [sorted(before[id(g)][i] for i in holds[id(g)]) for g in (a, b)]
                if kept[0] == kept[1]:
                    assert sorted(a.dice) == sorted(b.dice)
                    if holds[id(a)] == holds[id(b)] and before[id(a)] == before[id(b)]:
                        assert a.dice == b.dice
        for g in (a, b):
            g.score(data.draw(st.sampled_from(g.legal_slots()), label="box").box)
    assert b.is_over and turn == len(a.ruleset.boxes)


def test_the_docs_example_is_the_tape_byte_for_byte():
    """Day seed 00…00, yahtzee, 2026-11-25: HMAC-SHA256 computed here, and the players of the
    example in docs/fairness.md."""
    def by_hand(turn: int, roll: int) -> list[int]:
        msg = f"daily\nyahtzee\n{DAY}\n{turn}\n{roll}\n0".encode()
        return [b % 6 + 1 for b in hmac.digest(bytes(32), msg, "sha256") if b < 252][:5]

    tape = DailyDice("00" * 32, "yahtzee", DAY)
    assert by_hand(1, 1) == [1, 2, 5, 2, 3] and by_hand(1, 2)[:4] == [3, 2, 6, 2]
    assert stream_start(tape, 1, 1, 5) == by_hand(1, 1)
    assert stream_start(tape, 7, 3, 5) == by_hand(7, 3)
    for hold, dice in (([1, 3], (3, 2, 2, 2, 6)), ([1], (3, 2, 2, 6, 2)),
                       ([3], (3, 2, 6, 2, 2))):
        game = Game("yahtzee", ["P"], rng=tape)
        game.roll()
        game.roll(hold)
        assert game.dice == dice
        assert str(list(dice)) in DOCS.read_text()


@settings(max_examples=50, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), at=st.integers(0, 31),
       flip=st.integers(1, 255))
def test_every_byte_of_the_day_seed_changes_the_tape(seed, at, flip):
    """The tape is keyed by the whole secret: the first rolls of all 13 turns (65 faces) under
    a seed differing in one byte are other dice (equal by chance with probability 6^-65)."""
    changed = bytearray(seed)
    changed[at] ^= flip

    def first_rolls(key: bytes) -> list[list[int]]:
        tape = DailyDice(key.hex(), "yahtzee", DAY)
        return [stream_start(tape, t, 1, 5) for t in range(1, 14)]

    assert first_rolls(seed) != first_rolls(bytes(changed))


def test_each_ruleset_and_day_has_its_own_tape():
    seed = new_server_seed()
    tapes = [DailyDice(seed, rules, day) for rules in ("yahtzee", "yatzy")
             for day in ("2026-11-25", "2026-11-26")]
    rolls = [[stream_start(t, turn, 1, 5) for turn in range(1, 14)] for t in tapes]
    assert len({json.dumps(r) for r in rolls}) == 4
    assert len({t.commitment for t in tapes}) == 1  # one day seed, one commitment


def play_daily(rules: str, seed: str, level: str = "easy", moves: int = 10_000) -> Game:
    game = Game(rules, ["Ann"], rng=DailyDice(seed, rules, DAY))
    rng = random.Random(3)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(choose_action(game, level, rng))
    return game


def stored(game: Game) -> list[dict]:
    return [e.to_dict() for e in game.events]


def test_nothing_a_daily_game_sends_contains_the_day_seed():
    """Every event and every state along a whole game, the end included: the only value of the
    seed there is its SHA-256; the game's end reveals nothing (the day's end does)."""
    seed = new_server_seed()
    tape = DailyDice(seed, "yatzy", DAY)
    game = Game("yatzy", ["Ann"], rng=tape)
    rng = random.Random(5)
    sent = [json.dumps(game.to_dict())]
    while not game.is_over:
        sent += [json.dumps(e.to_dict()) for e in game.play(choose_action(game, "easy", rng))]
        sent.append(json.dumps(game.to_dict()))
    text = "\n".join(sent) + repr(tape) + repr(game)
    assert seed not in text and seed.upper() not in text
    events = stored(game)
    assert events[0]["commitment"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert events[0]["daily"] == DAY and "client_seeds" not in events[0]
    assert events[-1]["kind"] == "game_finished" and "server_seed" not in events[-1]
    assert game.to_dict()["fairness"] == {"commitment": tape.commitment, "client_seeds": [],
                                          "server_seed": None, "unfinished": False,
                                          "daily": DAY}
    with pytest.raises(InvalidSeed, match="revealed when the day ends"):
        check_game(events)
    assert Game.from_events(game.events) == game
    assert check_game(events, seed).ok


def test_a_real_daily_game_re_derives_and_a_wrong_seed_does_not():
    seed = new_server_seed()
    game = play_daily("yahtzee", seed, level="medium")
    assert game.is_over
    events = stored(game)
    check = check_game(events, seed)
    assert check.ok and check.daily == DAY
    assert [list(r.expected) for r in check.rolls] == [
        e["dice"] for e in events if e["kind"] == "rolled"]
    assert [(r.turn, r.roll) for r in check.rolls] == [
        (sum(e["roll"] == 1 for e in events[:i + 1] if e["kind"] == "rolled"), e["roll"])
        for i, e in enumerate(events) if e["kind"] == "rolled"]
    other = new_server_seed()
    assert not check_game(events, other).commitment_ok
    assert not check_game([dict(events[0], commitment=DailyDice(other, "yahtzee", DAY)
                                .commitment), *events[1:]], other).ok
    # The same decisions on another day's tape are another game.
    assert not check_game([dict(events[0], daily="2026-11-26"), *events[1:]], seed).ok


def as_dice_file(events: list[dict], seed: str | None) -> dict:
    """What a daily game's dice.json carries (docs/fairness.md), from its rules events."""
    rolls, turn = [], 0
    for e in events:
        if e["kind"] == "turn_started":
            turn = e["round"]
        elif e["kind"] == "rolled":
            rolls.append({"k": len(rolls) + 1, "player": 0, "held": e["held"],
                          "dice": e["dice"], "turn": turn, "roll": e["roll"]})
    for roll in rolls:
        roll["of"] = sum(r["turn"] == roll["turn"] for r in rolls)
    return {"commitment": events[0]["commitment"], "server_seed": seed, "client_seeds": [],
            "rules": events[0]["rules"], "daily": events[0]["daily"], "rolls": rolls}


def change_a_die(data: dict) -> dict:
    """The first roll after the fifth that draws a die, with one drawn die changed."""
    roll = next(r for r in data["rolls"][5:] if len(r["held"]) < 5)
    free = next(i for i in range(5) if i not in roll["held"])
    roll["dice"][free] = roll["dice"][free] % 6 + 1
    return roll


def test_the_command_line_verifies_a_daily_game(tmp_path, capsys):
    from game.rules.__main__ import main

    seed = new_server_seed()
    data = as_dice_file(stored(play_daily("yatzy", seed)), seed)
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(data))
    assert main(["verify", str(path)]) == 0
    assert f"All {len(data['rolls'])} rolls match" in capsys.readouterr().out

    roll = change_a_die(data)
    path.write_text(json.dumps(data))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"MISMATCH roll {roll['k']} (turn {roll['turn']}, roll "
                          f"{roll['roll']}): stored {roll['dice']}")
    assert out.count("MISMATCH") == 1

    path.write_text(json.dumps({**data, "server_seed": None}))
    assert main(["verify", str(path)]) == 2
    assert "revealed when the day ends" in capsys.readouterr().err
    for broken in ({"daily": "25/11/2026"}, {"rules": "poker"},
                   {"rolls": [{**data["rolls"][0], "turn": "one"}]}):
        path.write_text(json.dumps({**data, **broken}))
        assert main(["verify", str(path)]) == 2
        assert capsys.readouterr().err.startswith("python -m game.rules: error:")


def test_the_docs_script_verifies_a_daily_game(tmp_path):
    seed = new_server_seed()
    data = as_dice_file(stored(play_daily("yahtzee", seed)), seed)
    done = run_doc_script(tmp_path, data)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(" ok\n") == len(data["rolls"]) and "MISMATCH" not in done.stdout

    roll = change_a_die(data)
    done = run_doc_script(tmp_path, data)
    assert done.returncode == 1
    [bad] = [line for line in done.stdout.splitlines() if "MISMATCH" in line]
    assert re.match(rf"{roll['k']} \[", bad)


def test_daily_dice_refuse_what_is_not_a_daily_game():
    seed = new_server_seed()
    tape = DailyDice(seed, "yahtzee", DAY)
    with pytest.raises(InvalidPlayers):
        Game("yahtzee", ["A", "B"], rng=tape)
    with pytest.raises(InvalidPlayers):
        Game("yatzy", ["A"], rng=tape)
    for day in ("2026-13-01", "25.11.2026", "", 20261125, None):
        with pytest.raises(InvalidSeed):
            DailyDice(seed, "yahtzee", day)
    with pytest.raises(InvalidSeed):
        DailyDice("00" * 31, "yahtzee", DAY)
    # A game rebuilt with another day's tape refuses to roll from it.
    game = Game("yahtzee", ["A"], rng=tape)
    rebuilt = Game.from_events(game.events, rng=DailyDice(seed, "yahtzee", "2026-11-26"))
    with pytest.raises(InvalidEvent, match="from its own day’s tape only"):
        rebuilt.roll()
    # Nor with any other dice.
    for other in (random.Random(1), FairDice(seed, ["a"]), None):
        with pytest.raises(InvalidEvent, match="from its own day’s tape only"):
            Game.from_events(game.events, rng=other).roll()
    # And a tape cannot roll for a game that is not its day's.
    with pytest.raises(InvalidEvent, match="from its own day’s tape only"):
        Game.from_events(Game("yahtzee", ["A"]).events, rng=tape).roll()

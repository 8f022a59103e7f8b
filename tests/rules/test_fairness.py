"""Fair dice (game/rules/fairness.py, docs/fairness.md): every roll of a game re-derives from
the revealed seeds, other seeds give other dice, the faces are uniform, and the script of the
docs redoes it byte for byte."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.ai import choose_action
from game.rules import FairDice, Game, InvalidSeed, check_game
from game.rules.fairness import (
    clean_client_seed,
    commitment,
    faces,
    new_server_seed,
    server_seed_from,
)

from .fairness_doc import doc_script, run_doc_script

#: chi-square with 5 degrees of freedom exceeds this with probability 1 %.
CHI2_5_AT_1_PERCENT = 15.086

hex_seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
client_seeds = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E),
                       min_size=1, max_size=64)


def play_out(rules: str, server_seed: str, seeds: list[str], moves: int) -> Game:
    """A game with fair dice, its decisions made by the easy bot from a seeded random."""
    game = Game(rules, [f"P{i}" for i in range(len(seeds))], rng=FairDice(server_seed, seeds))
    rng = random.Random(moves)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(choose_action(game, "easy", rng))
    return game


def stored(game: Game) -> list[dict]:
    return [e.to_dict() for e in game.events]


def rolled_dice(events: list[dict]) -> list[list[int]]:
    return [e["dice"] for e in events if e["kind"] == "rolled"]


@settings(max_examples=25, deadline=None)
@given(server_seed=hex_seeds, seeds=st.lists(client_seeds, min_size=1, max_size=4),
       rules=st.sampled_from(["yahtzee", "yatzy"]), moves=st.integers(20, 400))
def test_every_roll_re_derives_and_other_seeds_give_other_dice(server_seed, seeds, rules,
                                                               moves):
    game = play_out(rules, server_seed, seeds, moves)
    events = stored(game)
    rolls = rolled_dice(events)
    check = check_game(events, server_seed)
    assert check.ok and [list(r.expected) for r in check.rolls] == rolls
    assert [r.k for r in check.rolls] == list(range(1, len(rolls) + 1))
    # The same decisions with the same seeds roll the same game (the dice are the seeds').
    assert rolled_dice(stored(play_out(rules, server_seed, seeds, moves))) == rolls

    other_server = hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()
    assert not check_game(events, other_server).ok
    for i in range(len(seeds)):
        changed = dict(events[0], client_seeds=[s + ("x" if j == i else "")
                                                for j, s in enumerate(seeds)])
        assert not check_game([changed, *events[1:]], server_seed).ok, f"client seed {i}"


def test_a_finished_game_reveals_its_seed_in_game_finished_and_only_there():
    server_seed = new_server_seed()
    game = play_out("yahtzee", server_seed, ["ann", "bob"], 10_000)
    assert game.is_over
    events = stored(game)
    assert events[0]["commitment"] == commitment(server_seed)
    assert events[0]["client_seeds"] == ["ann", "bob"]
    assert events[-1]["kind"] == "game_finished" and events[-1]["server_seed"] == server_seed
    assert all(server_seed not in json.dumps(e) for e in events[:-1])
    assert check_game(events).ok  # with the seed the game revealed
    assert game.to_dict()["fairness"]["server_seed"] == server_seed
    # Rebuilt from its events, without the seed, the game is the same game.
    assert Game.from_events(game.events) == game


def test_a_running_game_shows_no_seed_and_its_repr_neither():
    server_seed = new_server_seed()
    dice = FairDice(server_seed, ["a"])
    game = play_out("yahtzee", server_seed, ["a"], 30)
    assert not game.is_over
    text = json.dumps([stored(game), game.to_dict()]) + repr(dice) + repr(game)
    assert server_seed not in text and game.to_dict()["fairness"]["server_seed"] is None
    with pytest.raises(InvalidSeed, match="revealed when the game ends"):
        check_game(stored(game))


def test_ending_a_game_early_reveals_the_seed_and_names_no_winner():
    server_seed = new_server_seed()
    game = play_out("yahtzee", server_seed, ["a", "b"], 40)
    game.rng = FairDice(server_seed, ["a", "b"])
    [finished] = game.end()
    assert finished.to_dict()["unfinished"] is True and finished.winners == ()
    assert finished.to_dict()["server_seed"] == server_seed
    assert check_game(stored(game)).ok


def test_dice_of_another_commitment_cannot_reveal():
    game = play_out("yahtzee", new_server_seed(), ["a"], 3)
    game.rng = FairDice(new_server_seed(), ["a"])
    with pytest.raises(Exception, match="not the ones this game committed to"):
        game.end()


def test_faces_are_uniform_over_600000_draws():
    """Chi-square over 600,000 faces of 120,000 rolls of five dice, at the 1 % level."""
    server_seed = server_seed_from("chi-square")
    counts: Counter[int] = Counter()
    for k in range(1, 120_001):
        stream = faces(server_seed, ["ann", "bob"], k)
        counts.update(next(stream) for _ in range(5))
    assert sum(counts.values()) == 600_000 and set(counts) == {1, 2, 3, 4, 5, 6}
    expected = 100_000
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert chi2 < CHI2_5_AT_1_PERCENT, (chi2, counts)


def test_bytes_from_252_are_skipped():
    """Find a block with a byte ≥ 252 among its first five and check it was skipped."""
    import hmac

    key = bytes.fromhex(server_seed_from("reject"))
    for k in range(1, 500):
        block = hmac.digest(key, f"s\n{k}\n0".encode(), "sha256")
        if any(b >= 252 for b in block[:5]):
            want = [b % 6 + 1 for b in block if b < 252][:5]
            stream = faces(key.hex(), ["s"], k)
            assert [next(stream) for _ in range(5)] == want
            return
    pytest.fail("no block with a byte of 252 or more in 500 rolls")


def test_a_known_answer_pins_the_scheme():
    """Seed 00…00, client seeds "a" and "b", roll 1: HMAC-SHA256 computed by hand here."""
    import hmac

    block = hmac.digest(bytes(32), b"a\nb\n1\n0", "sha256")
    want = [b % 6 + 1 for b in block if b < 252][:5]
    game = Game("yahtzee", ["A", "B"], rng=FairDice("00" * 32, ["a", "b"]))
    game.roll()
    assert list(game.dice) == want
    held = game.roll(hold=[0, 1])[0]
    block2 = hmac.digest(bytes(32), b"a\nb\n2\n0", "sha256")
    assert list(held.dice) == want[:2] + [b % 6 + 1 for b in block2 if b < 252][:3]


@pytest.mark.parametrize("raw", ["", "   ", "x" * 65, "tab\there", "new\nline", "é", 7, None])
def test_bad_client_seeds_are_refused(raw):
    with pytest.raises(InvalidSeed):
        clean_client_seed(raw)


def test_client_seeds_are_trimmed_printable_ascii():
    assert clean_client_seed("  lucky 7!~  ") == "lucky 7!~"
    assert clean_client_seed("x" * 64) == "x" * 64


@pytest.mark.parametrize("seed", ["", "00", "zz" * 32, "00" * 33])
def test_bad_server_seeds_are_refused(seed):
    with pytest.raises(InvalidSeed):
        FairDice(seed, ["a"])


def test_the_docs_script_is_at_most_20_lines():
    lines = [line for line in doc_script().splitlines() if line.strip()]
    assert len(lines) <= 20


def as_dice_json(events: list[dict]) -> dict:
    """What /games/<id>/dice.json carries, made from rules events (without the server)."""
    rolls, turn = [], 0
    for e in events:
        if e["kind"] == "turn_started":
            turn = e["round"]
        elif e["kind"] == "rolled":
            rolls.append({"k": len(rolls) + 1, "player": e["player"], "held": e["held"],
                          "dice": e["dice"], "turn": turn, "roll": e["roll"]})
    for roll in rolls:
        roll["of"] = sum(r["turn"] == roll["turn"] and r["player"] == roll["player"]
                         for r in rolls)
    return {"commitment": events[0]["commitment"], "client_seeds": events[0]["client_seeds"],
            "server_seed": events[-1]["server_seed"], "rules": events[0]["rules"],
            "finished": True, "unfinished": False, "rolls": rolls}


def test_the_docs_script_redoes_a_game_and_finds_a_changed_die(tmp_path):
    server_seed = new_server_seed()
    game = play_out("yahtzee", server_seed, ["ann's seed", "5e0b9a71c2d4f803"], 10_000)
    data = as_dice_json(stored(game))
    done = run_doc_script(tmp_path, data)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "MISMATCH" not in done.stdout and done.stdout.count(" ok\n") == len(data["rolls"])

    roll = next(r for r in data["rolls"][5:] if len(r["held"]) < 5)
    free = next(i for i in range(5) if i not in roll["held"])
    roll["dice"][free] = roll["dice"][free] % 6 + 1
    done = run_doc_script(tmp_path, data)
    assert done.returncode == 1
    [bad] = [line for line in done.stdout.splitlines() if "MISMATCH" in line]
    assert bad.startswith(f"{roll['k']} ")


def test_the_command_line_verifies_a_dice_file(tmp_path, capsys):
    from game.rules.__main__ import main

    game = play_out("yatzy", new_server_seed(), ["x", "y", "z"], 10_000)
    data = as_dice_json(stored(game))
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(data))
    assert main(["verify", str(path)]) == 0
    assert f"All {len(data['rolls'])} rolls match" in capsys.readouterr().out

    first = data["rolls"][0]["dice"][0]
    data["rolls"][0]["dice"][0] = first % 6 + 1
    path.write_text(json.dumps(data))
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith("MISMATCH roll 1: stored")

    # Every roll of a finished game must be there: its last rolls left out, or all of them,
    # it fails (it passed, "All 0 rolls match").
    data["rolls"][0]["dice"][0] = first
    for cut in (data["rolls"][:-1], data["rolls"][:-5], []):
        path.write_text(json.dumps({**data, "rolls": cut}))
        assert main(["verify", str(path)]) == 1
        out = capsys.readouterr().out
        assert "INCOMPLETE: player" in out and "rolls match" not in out, out[:500]
    shuffled = [*data["rolls"][1:], data["rolls"][0]]
    path.write_text(json.dumps({**data, "rolls": shuffled}))
    assert main(["verify", str(path)]) == 1
    path.write_text(json.dumps({**data, "rules": None}))
    assert main(["verify", str(path)]) == 1
    assert "cannot show that it holds every roll" in capsys.readouterr().out
    # A game ended early by staff holds what was played.
    path.write_text(json.dumps({**data, "unfinished": True, "rolls": data["rolls"][:10]}))
    assert main(["verify", str(path)]) == 0

    path.write_text(json.dumps({"rolls": []}))
    assert main(["verify", str(path)]) == 2
    assert "Not a game’s dice file" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2

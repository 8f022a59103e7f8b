"""The fair-dice checkers are strict: a roll stored with fewer or more than five dice is a
mismatch (never a pass, never a crash), and a client seed loses the spaces around it and
nothing else (docs/fairness.md). The JS check (tests/js/dice-check.test.mjs) reads the same
dice file as the first test here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.rules import InvalidSeed
from game.rules.__main__ import main
from game.rules.fairness import check_dice_file, clean_client_seed, faces

from .fairness_doc import run_doc_script

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "dice-check.fixture.json"


def dice_file() -> dict:
    return json.loads(FIXTURE.read_text())


def verify(tmp_path: Path, data: dict) -> int:
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(data))
    return main(["verify", str(path)])


def test_the_shared_dice_file_is_a_game_whose_rolls_all_match(tmp_path, capsys):
    data = dice_file()
    assert check_dice_file(data).ok
    assert verify(tmp_path, data) == 0
    assert f"All {len(data['rolls'])} rolls match" in capsys.readouterr().out


def test_a_roll_that_lost_its_last_die_is_a_mismatch(tmp_path, capsys):
    data = dice_file()
    data["rolls"][0]["dice"].pop()
    assert [r.k for r in check_dice_file(data).mismatches] == [1]
    assert verify(tmp_path, data) == 1
    assert capsys.readouterr().out.startswith("MISMATCH roll 1: stored")
    assert run_doc_script(tmp_path, data).returncode == 1


def test_a_roll_of_six_dice_is_a_mismatch_even_when_the_sixth_is_the_streams(tmp_path, capsys):
    data = dice_file()
    first = data["rolls"][0]
    assert first["held"] == []
    stream = faces(data["server_seed"], data["client_seeds"], first["k"])
    first["dice"] = [next(stream) for _ in range(6)]  # five right dice and one more
    assert [r.k for r in check_dice_file(data).mismatches] == [1]
    assert verify(tmp_path, data) == 1
    assert run_doc_script(tmp_path, data).returncode == 1
    capsys.readouterr()


def test_a_roll_of_six_dice_holding_the_sixth_is_a_mismatch_not_a_crash(tmp_path, capsys):
    data = dice_file()
    roll = next(r for r in data["rolls"] if r["held"])
    roll["dice"].append(6)
    roll["held"].append(5)
    assert [r.k for r in check_dice_file(data).mismatches] == [roll["k"]]
    assert verify(tmp_path, data) == 1
    assert capsys.readouterr().out.startswith(f"MISMATCH roll {roll['k']}: stored")


def test_a_seed_loses_the_spaces_around_it_and_nothing_else():
    assert clean_client_seed("  lucky 7  ") == "lucky 7"
    for raw in ("\tlucky", "lucky\n", "lucky\r\n", "\u00a0lucky", "lucky\u00a0", " \t "):
        with pytest.raises(InvalidSeed, match="printable ASCII"):
            clean_client_seed(raw)


DAILY_FIXTURE = FIXTURE.with_name("dice-check-daily.fixture.json")


def test_the_shared_daily_dice_file_checks_by_the_library_and_the_docs_script(tmp_path, capsys):
    """The daily game's file that the JS check reads: every roll matches for the library's
    ``verify`` and for the script of docs/fairness.md."""
    data = json.loads(DAILY_FIXTURE.read_text())
    assert data["daily"] and data["rules"] == "yatzy"
    assert check_dice_file(data).ok
    assert verify(tmp_path, data) == 0
    assert f"All {len(data['rolls'])} rolls match" in capsys.readouterr().out
    assert run_doc_script(tmp_path, data).returncode == 0

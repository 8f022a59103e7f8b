"""The command line: advise, simulate, build_strategy and the terminal game, as ``manage.py``
runs them (``run``: in this process, through the same argv parsing and exits; ``run_process``:
a real ``manage.py`` process, at least once for each command)."""

from __future__ import annotations

import fcntl
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.ai.storage import FORMAT_VERSION
from tests.support.command_line import manage_here

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def run_process(strategy_dir, tmp_path_factory, yahtzee_table):
    """Run ``manage.py`` in a subprocess, with this session's tables and a private data dir."""
    env = {**os.environ, "STRATEGY_DIR": str(strategy_dir),
           "DATA_DIR": str(tmp_path_factory.mktemp("data"))}

    def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                              input=stdin if stdin is not None else "", text=True,
                              capture_output=True, timeout=240)

    return _run


@pytest.fixture
def run(yahtzee_table):
    """Run a ``manage.py`` command in this process (tests/support/command_line.py)."""
    return manage_here


def test_advise_ranks_holds_best_first(run_process):
    done = run_process("advise", "--rules", "yahtzee", "--dice", "1,3,3,5,6", "--rolls-left", "2")
    assert done.returncode == 0, done.stderr
    intro, header, *lines, now = done.stdout.splitlines()
    assert intro.startswith("Yahtzee, dice 1 3 3 5 6 with 2 re-rolls left.")
    assert header.split() == ["#", "expected", "(points)", "±", "sd", "(points)", "choice"]
    assert len(lines) == 24
    assert lines[0].split()[:3] == ["1.", "251.4054", "±"]
    assert lines[0].split()[4:] == ["keep", "3", "3"]
    assert 0 < float(lines[0].split()[3]) < 100
    # What the dice would score in each box if the turn ended now.
    assert now.startswith("Scoring these dice now instead (points): Ones 1, Twos 0, Threes 6")
    assert now.endswith("Chance 18.")


def test_advise_after_the_last_roll_shows_what_each_box_scores_now(run):
    done = run("advise", "--dice", "2,2,5,5,5", "--open", "full house, 3k,5,chance")
    assert done.returncode == 0, done.stderr
    intro, header, *lines = done.stdout.splitlines()
    assert header.split() == ["#", "expected", "(points)", "±", "sd", "(points)", "scores",
                              "now", "choice"]
    assert len(lines) == 4
    assert lines[0].split()[4:] == ["25", "score", "Full", "house"]
    scores = {" ".join(line.split()[5:]): int(line.split()[4]) for line in lines}
    assert scores == {"score Full house": 25, "score Three of a kind": 19,
                      "score Fives": 15, "score Chance": 19}


def test_advise_triple_ranks_boxes_of_every_column(run):
    done = run("advise", "--rules", "triple", "--dice", "2,2,5,5,5", "--json",
               "--open", "fh:2,chance", "--upper", "0,12,3", "--yahtzee-50", "1")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [(r["box"], r["column"], r["points"]) for r in rows] == [
        ("full_house", 1, 25), ("chance", 0, 19), ("chance", 2, 19), ("chance", 1, 19)]
    assert [r["expected"] for r in rows] == sorted((r["expected"] for r in rows), reverse=True)
    assert all(r["sd"] is None for r in rows)
    text = run("advise", "--rules", "triple", "--dice", "2,2,5,5,5", "--open", "fh:2,chance",
               "--upper", "0,12,3").stdout.splitlines()
    assert text[1].split() == ["#", "value", "(points)", "scores", "now", "choice"]
    assert text[2].split()[2:] == ["25", "×2", "score", "Full", "house", "in", "column", "2"]
    holds = json.loads(run("advise", "--rules", "triple", "--dice", "2,2,5,5,5",
                           "--rolls-left", "1", "--json").stdout)
    assert holds[0]["hold"] == [5, 5, 5] and len(holds) == 12  # distinct holds of 2 2 5 5 5
    empty = run("advise", "--rules", "triple").stdout
    assert "value at the start of a turn: 1527.5264" in empty


def test_advise_json_after_the_last_roll(run):
    done = run("advise", "--rules", "yahtzee", "--dice", "1,2,3,4,5", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert rows[0] == {"hold": None, "box": "large_straight",
                       "expected": pytest.approx(261.5314, abs=1e-4), "sd": rows[0]["sd"],
                       "points": 40}
    assert all(0 < r["sd"] < 100 for r in rows)
    assert len(rows) == 13
    assert [r["expected"] for r in rows] == sorted((r["expected"] for r in rows), reverse=True)


def test_advise_json_holds_are_dice_values(run):
    done = run("advise", "--dice", "6,6,2,6,1", "--rolls-left", "1", "--json",
               "--open", "sixes,chance,yahtzee")
    rows = json.loads(done.stdout)
    assert rows[0]["hold"] == [6, 6, 6] and rows[0]["box"] is None
    assert all(r["box"] is None and r["hold"] is not None for r in rows)


def test_advise_without_dice_values_the_card(run):
    done = run("advise", "--rules", "yahtzee")
    assert done.stdout.strip().endswith("254.5877 ± 59.6076")
    done = run("advise", "--rules", "yahtzee", "--json")
    assert json.loads(done.stdout) == [{"hold": None, "box": None,
                                        "expected": pytest.approx(254.587729, abs=1e-6),
                                        "sd": pytest.approx(59.607586, abs=1e-6)}]
    done = run("advise", "--open", "chance", "--upper", "63", "--json")
    # Banked: 63 + the 35 bonus; to come: chance, played for the sum of the dice (70/3).
    assert json.loads(done.stdout)[0]["expected"] == pytest.approx(98 + 70 / 3, abs=1e-9)
    done = run("advise", "--open", "chance", "--upper", "63", "--yahtzee-50", "--json")
    # With the Yahtzee bonus on, chasing a Yahtzee (+100) is worth more than the sum alone.
    assert json.loads(done.stdout)[0]["expected"] > 148 + 70 / 3 + 1


@pytest.mark.parametrize("args", [
    ["--dice", "1,2,3"],
    ["--dice", "1,2,3,4,7"],
    ["--rolls-left", "3", "--dice", "1,2,3,4,5"],
    ["--rolls-left", "2"],
    ["--open", "sevens"],
    ["--upper", "-4"],
    ["--upper", "1", "--open", "ones,twos,threes,fours,fives"],
    ["--yahtzee-50"],
    ["--rules", "chess"],
    ["--upper", "many"],
    ["--rules", "yatzy", "--joker", "free"],
    ["--rules", "triple", "--upper", "5"],
    ["--rules", "triple", "--upper", "1,2"],
    ["--rules", "triple", "--yahtzee-50", "4"],
    ["--rules", "triple", "--open", "fh:4"],
    ["--rules", "triple", "--joker", "free"],
    ["--open", "fh:2"],
    ["--open", "full mouse"],
])
def test_advise_bad_arguments_exit_2_with_one_line(run, args):
    done = run("advise", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_simulate_json(run):
    done = run("simulate", "--rules", "yahtzee", "--strategy", "optimal", "--games", "30",
               "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 30
    assert 150 < result["mean"] < 380 and result["stdev"] > 0
    assert result["games_per_second"] > 0
    assert result["percentiles"]["5"] <= result["percentiles"]["50"] <= result["percentiles"]["95"]
    again = json.loads(run("simulate", "--games", "30", "--seed", "1", "--json").stdout)
    assert again["mean"] == result["mean"]  # the seed makes it reproducible


def test_simulate_text_and_bad_arguments(run, run_process):
    done = run_process("simulate", "--rules", "yatzy", "--strategy", "easy", "--games", "5",
                       "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert "mean" in done.stdout and "games/s" in done.stdout and "p50=" in done.stdout
    for args in (["--games", "0"], ["--strategy", "genius"], ["--seed", "x"]):
        bad = run("simulate", *args)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_build_strategy_reports_the_value_and_time(run, build_output, strategy_dir):
    # The session's yahtzee table was built by the command itself (see conftest).
    assert build_output.startswith("yahtzee (forced Joker): expected score 254.5877, built in ")
    table = strategy_dir / f"yahtzee-forced-v{FORMAT_VERSION}.npz"
    assert build_output.strip().endswith(f" s -> {table}")
    for args in (["--rules", "triple"], ["--rules", "yatzy", "--joker", "free"]):
        bad = run("build_strategy", *args)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_build_strategy_missing_waits_for_another_builder_instead_of_building(
        yahtzee_table, tmp_path):
    """make run's background build: a table being built by a server is waited for (its
    progress passed on, a line every 10 %) and loaded, not built a second time."""
    from game.ai import table_path
    from game.ai.scoring import score_tables, solver_ruleset
    from game.ai.solver import count_states

    built = table_path(solver_ruleset("yahtzee"))
    total = count_states(score_tables(solver_ruleset("yahtzee")))
    target = tmp_path / built.name
    env = {**os.environ, "STRATEGY_DIR": str(tmp_path), "DATA_DIR": str(tmp_path)}
    with open(target.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # "the server" builds yahtzee
        target.with_suffix(".progress").write_text(json.dumps({"done": 0, "total": total}))
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "build_strategy", "--rules", "yahtzee", "--missing",
             "--progress-lines", "--no-scores"], cwd=ROOT, env=env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        lines: queue.Queue[str] = queue.Queue()  # stderr, line by line, never blocking the test
        threading.Thread(target=lambda: [lines.put(x) for x in proc.stderr or ()],
                         daemon=True).start()
        assert lines.get(timeout=120).startswith("Building the yahtzee strategy table")
        target.with_suffix(".progress").write_text(
            json.dumps({"done": total * 55 // 100, "total": total}))
        # It passes the builder's progress on (it polls twice a second)...
        assert lines.get(timeout=60) == "  yahtzee strategy table: 50 %\n"
        # ...and while the lock is held it waits, building nothing.
        assert proc.poll() is None and not target.exists()
        shutil.copy(built, target)
        target.with_suffix(".progress").unlink()
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode == 0
    assert out.startswith("yahtzee (forced Joker): expected score 254.5877, ready in ")
    assert target.read_bytes() == built.read_bytes()  # loaded, not rebuilt
    again = subprocess.run([sys.executable, "manage.py", "build_strategy", "--missing",
                            "--rules", "yahtzee", "--no-scores"], cwd=ROOT, env=env, text=True,
                           capture_output=True, timeout=120)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")  # nothing to do


def script_for_whole_game(turns: int, boxes: int) -> str:
    """Some bad input first, then for every turn a full cycle of 's N': the first open box
    the rules allow takes it (the others are explained and asked again)."""
    lines = ["hello", "k 0 9", "k 1 1", "s", "k 1 2"]
    cycle = [f"s {n}" for n in range(1, boxes + 1)]
    return "\n".join(lines + cycle * (turns + 1)) + "\n"


def test_terminal_game_to_the_end_through_stdin(run_process):
    done = run_process("play", "--rules", "yahtzee", "--bots", "1", "--seed", "5",
                       stdin=script_for_whole_game(13, 13))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "'hello' is neither a box nor a number from 1 to 13" in out
    assert "Round 1 of 13: your turn." in out and "Round 13 of 13: your turn." in out
    assert " 9. Full house " in out  # the scorecard shows labels
    assert "Positions go from 1 to 5; '0' is not one" in out
    assert "Each die can be kept only once" in out
    assert "Which box?" in out
    assert "Final scorecards:" in out and "Winner:" in out
    assert out.count("You score") == 13 and out.count("Computer scores") == 13


def test_terminal_triple_game_with_columns(run):
    lines = [f"s {n} {c}" for c in (3, 2, 1) for n in range(1, 14)]
    stdin = "\n".join(lines * 40) + "\n"
    done = run("play", "--rules", "triple", "--bots", "1", "--level", "easy", "--seed", "9",
               stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "Final scorecards:" in done.stdout and done.stdout.count("You score") == 39


def test_terminal_game_takes_boxes_as_people_type_them(run):
    done = run("play", "--bots", "1", "--level", "easy", "--seed", "5",
               stdin="full house\nfh\nsm str\n3 of a kind\n6s\nchance\n")
    assert done.returncode == 0, done.stderr
    scored = [line.split(" in ", 1)[1] for line in done.stdout.splitlines()
              if "You score" in line]  # after the "> " prompt
    assert scored == ["Full house.", "Small straight.", "Three of a kind.", "Sixes.",
                      "Chance."]
    assert "Full house is already filled." in done.stdout  # 'fh' the second time


def test_end_of_input_leaves_cleanly(run, run_process):
    done = run("play", "--bots", "2", "--seed", "1", stdin="k 1\n")
    assert done.returncode == 0, done.stderr
    assert "Game left before the end" in done.stdout
    refused = run_process("play", "--bots", "9")
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1

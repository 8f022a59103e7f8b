"""benchmarks/to_win.py's pairs files: pooled by setting over distinct seeds, and two settings
compared pair by pair on the seeds they share."""

from __future__ import annotations

import json

import pytest

from benchmarks.to_win import Setting, pool


def write(path, setting: Setting, results: dict[int, list[float]]) -> str:
    with open(path, "w") as f:
        for seed, shares in results.items():
            f.write(json.dumps(dict(seed=seed, **setting._asdict(), shares=shares)) + "\n")
    return str(path)


def test_runs_pool_by_setting_and_two_settings_compare_on_shared_seeds(tmp_path, capsys):
    ahead = Setting("yatzy", "ahead", 1.0, 1, "optimal")
    today = Setting("yatzy", "to_win", None, 1, "optimal")
    files = [
        write(tmp_path / "a1.jsonl", ahead, {0: [1, 0], 1: [1, 1], 2: [0.5, 0]}),
        # another run over seeds 2-4: seed 2 again (the same result) counts once
        write(tmp_path / "a2.jsonl", ahead, {2: [0.5, 0], 3: [0, 0], 4: [1, 0]}),
        write(tmp_path / "t.jsonl", today, {0: [0, 0], 1: [1, 0], 4: [1, 1], 9: [0, 0]}),
        write(tmp_path / "other.jsonl", ahead._replace(rules="yahtzee"), {0: [1, 1]}),
    ]
    pool(files)
    out = capsys.readouterr().out.splitlines()
    # ahead: pairs 0.5, 1, 0.25, 0, 0.5 over seeds 0-4
    assert any("yatzy, ahead (mix 1.0) vs 1 optimal: 10 games, win rate 45.00 %" in line
               and "seeds 0–4" in line for line in out)
    assert any("yatzy, to_win vs 1 optimal: 8 games, win rate 37.50 %" in line
               and "seeds 0–1, 4, 9" in line for line in out)
    # on seeds 0, 1, 4: ahead 0.5, 1, 0.5 against to_win 0, 0.5, 1: +1/6 on average
    compared = [line for line in out if "minus" in line]
    assert len(compared) == 1  # yahtzee's run is another setting's and shares no comparison
    assert "6 games each on the same seeds: +16.67 pp" in compared[0]


def test_a_seed_played_again_with_another_result_is_refused(tmp_path):
    ahead = Setting("yahtzee", "ahead", 1.0, 1, "optimal")
    files = [write(tmp_path / "a.jsonl", ahead, {7: [1, 0]}),
             write(tmp_path / "b.jsonl", ahead, {7: [0, 0]})]
    with pytest.raises(SystemExit, match="seed 7"):
        pool(files)


@pytest.mark.parametrize("line", ["not json", '{"seed": 1}', '{"seed": "x", "rules": "yahtzee", '
                                  '"bot": "ahead", "mix": 1, "opponents": 1, "against": '
                                  '"optimal", "shares": [1, 0]}'])
def test_a_file_that_is_not_pairs_is_refused_with_its_line(tmp_path, line):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(line + "\n")
    with pytest.raises(SystemExit, match="bad.jsonl, line 1: not a pair"):
        pool([str(bad)])


def test_a_missing_file_or_an_empty_one_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="cannot be read"):
        pool([str(tmp_path / "none.jsonl")])
    (tmp_path / "empty.jsonl").write_text("")
    with pytest.raises(SystemExit, match="No pairs"):
        pool([str(tmp_path / "empty.jsonl")])


@pytest.mark.parametrize("args", [["--opponents", "0"], ["--seeds", "0"], ["--mix", "1.5"],
                                  ["--mix", "-0.1"], ["--mix", "nan"], ["--mix", "fast"],
                                  ["--every", "-1"], ["--minutes", "0"]])
def test_bad_arguments_are_refused_before_anything_runs(monkeypatch, capsys, args):
    from benchmarks import to_win

    monkeypatch.setattr("sys.argv", ["to_win.py", *args])
    with pytest.raises(SystemExit) as exit_:
        to_win.main()
    assert exit_.value.code == 2
    assert args[0] in capsys.readouterr().err


def test_the_mix_is_a_share_or_the_opponents_progress():
    from benchmarks.to_win import mix_option
    from game.ai.ahead import MIX, PROGRESS

    assert mix_option("progress") == PROGRESS == MIX  # the bot's default, by name
    assert mix_option("0.5") == 0.5
    assert mix_option("1") == 1.0

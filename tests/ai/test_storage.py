"""Strategy tables on disk: named by version and rules, reloaded without rebuilding."""

from __future__ import annotations

import fcntl
import json
import shutil
import threading
import time

import numpy as np
import pytest

from game.ai import get_solution, set_strategy_dir, strategy_dir, table_path
from game.ai.scoring import score_tables, solver_ruleset
from game.ai.storage import (
    FORMAT_VERSION,
    build_progress,
    fingerprint,
    forget_loaded,
    load_table,
)


def test_table_file_is_versioned_and_named_by_rules(yahtzee_table, strategy_dir):
    path = table_path(solver_ruleset("yahtzee"))
    assert path == strategy_dir / f"yahtzee-forced-v{FORMAT_VERSION}.npz"
    with np.load(path) as data:
        assert int(data["format_version"]) == FORMAT_VERSION
        assert str(data["rules"]) == "yahtzee" and str(data["joker"]) == "forced"
    assert not list(strategy_dir.glob("*.tmp"))


def test_a_stored_table_is_loaded_not_rebuilt(yahtzee_table):
    path = table_path(solver_ruleset("yahtzee"))
    before = path.stat().st_mtime_ns
    forget_loaded()
    loaded = get_solution("yahtzee")
    assert loaded is not yahtzee_table
    np.testing.assert_array_equal(loaded.values, yahtzee_table.values)
    assert path.stat().st_mtime_ns == before


def test_stale_or_broken_files_are_not_trusted(yahtzee_table, tmp_path):
    tables = score_tables(solver_ruleset("yahtzee"))
    old = tmp_path / "old.npz"
    np.savez(old, values=yahtzee_table.values, format_version=np.int64(FORMAT_VERSION - 1),
             fingerprint=np.str_("x"))
    assert load_table(old, tables) is None
    other_rules = tmp_path / "other.npz"
    np.savez(other_rules, values=yahtzee_table.values,
             format_version=np.int64(FORMAT_VERSION), fingerprint=np.str_("not these rules"))
    assert load_table(other_rules, tables) is None
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a table")
    assert load_table(broken, tables) is None
    # Cut short (a disk that filled up): a zip's start without its directory.
    cut = tmp_path / "cut.npz"
    cut.write_bytes(other_rules.read_bytes()[:1000])
    assert load_table(cut, tables) is None
    assert load_table(tmp_path / "missing.npz", tables) is None


def test_django_points_game_ai_at_settings_strategy_dir(settings, tmp_path):
    from django.apps import apps

    settings.STRATEGY_DIR = tmp_path / "from-settings"
    apps.get_app_config("game").ready()
    assert strategy_dir() == tmp_path / "from-settings"


def test_strategy_dir_defaults_to_the_environment(monkeypatch, tmp_path):
    set_strategy_dir(None)
    monkeypatch.setenv("STRATEGY_DIR", str(tmp_path))
    assert strategy_dir() == tmp_path
    monkeypatch.delenv("STRATEGY_DIR")
    assert str(strategy_dir()) == "var/strategy"


def test_free_joker_needs_a_ruleset_with_a_joker():
    with pytest.raises(ValueError, match="no Joker"):
        solver_ruleset("yatzy", "free")


def test_a_table_of_the_former_format_is_rebuilt_not_misread(yahtzee_table, tmp_path):
    """Format 2 added the moments: a file without them, or of format 1, is not trusted."""
    tables = score_tables(solver_ruleset("yahtzee"))
    no_moments = tmp_path / "no-moments.npz"
    np.savez(no_moments, values=yahtzee_table.values, format_version=np.int64(FORMAT_VERSION),
             fingerprint=np.str_(fingerprint(tables)))
    assert load_table(no_moments, tables) is None
    v1 = tmp_path / "v1.npz"
    np.savez(v1, values=yahtzee_table.values, format_version=np.int64(1),
             fingerprint=np.str_(fingerprint(tables)))
    assert FORMAT_VERSION == 2 and load_table(v1, tables) is None
    assert table_path(solver_ruleset("yahtzee")).name == "yahtzee-forced-v2.npz"


def test_a_waiter_hears_how_far_another_builder_is_and_loads_its_table(yahtzee_table, tmp_path):
    """While another process holds the lock (here: the test), ``get_solution`` passes that
    builder's progress on and then loads what it stored; ``build_progress`` says how far."""
    built = table_path(solver_ruleset("yahtzee"))
    set_strategy_dir(tmp_path)
    forget_loaded()
    target = table_path(solver_ruleset("yahtzee"))
    assert build_progress("yahtzee") is None  # nobody builds
    heard: list[int] = []
    found: list[object] = []
    with open(target.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        target.with_suffix(".progress").write_text(json.dumps({"done": 10, "total": 40}))
        assert build_progress("yahtzee") == 25.0
        assert build_progress("triple") == 25.0  # a column of triple is a yahtzee game
        waiter = threading.Thread(target=lambda: found.append(
            get_solution("yahtzee", progress=heard.append)))
        waiter.start()
        deadline = time.monotonic() + 10
        while sum(heard) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        target.with_suffix(".progress").write_text(json.dumps({"done": 30, "total": 40}))
        while sum(heard) < 30 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert waiter.is_alive()  # still waiting for the table
        shutil.copy(built, target)
        target.with_suffix(".progress").unlink()
    waiter.join(timeout=30)
    assert sum(heard) == 30 and heard[0] == 10
    [solution] = found
    np.testing.assert_array_equal(solution.values, yahtzee_table.values)  # type: ignore[attr-defined]
    assert build_progress("yahtzee") is None
    forget_loaded()

"""Stored reviews: ``services.review.analyse_game`` and ``manage.py analyse``."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from game.ai import choose_action
from game.ai.review import VERSION, analyse
from game.models import Game, GameAnalysis, GameEvent, Room
from game.rules import Game as RulesGame
from game.services.errors import ServiceError
from game.services.review import analyse_game, analyse_in_background, unreviewed_games
from tests.support.command_line import manage_here

ROOT = Path(__file__).resolve().parents[2]


def stored_game(rules: str = "yahtzee", levels: tuple[str, ...] = ("optimal", "easy"),
                seed: int = 1, *, stop: int | None = None) -> tuple[Game, RulesGame]:
    """A bot game stored as the server stores one: a game row and its event log (seq from 1;
    player 1's moves marked as autoplay). ``stop``: only the first events (still playing)."""
    rng = random.Random(seed)
    rules_game = RulesGame(rules, [f"{lv} {i}" for i, lv in enumerate(levels)], rng=rng)
    while not rules_game.is_over:
        rules_game.play(choose_action(rules_game, levels[rules_game.current_player], rng))
    events = rules_game.events[:stop]
    finished = stop is None
    room = Room.objects.create(name="Review", rules=rules, seats_count=len(levels))
    row = Game.objects.create(
        room=room, rules=rules, players=list(rules_game.players), seq=len(events),
        status=Game.Status.FINISHED if finished else Game.Status.PLAYING,
        totals=[c.total for c in rules_game.scorecards] if finished else [])
    GameEvent.objects.bulk_create(
        GameEvent(game=row, seq=i + 1, kind=e.kind,
                  payload={k: v for k, v in e.to_dict().items() if k != "kind"},
                  by="autoplay" if getattr(e, "player", None) == 1 and e.kind != "turn_started"
                  else "bot" if i > 0 else "system")
        for i, e in enumerate(events))
    return row, rules_game


@pytest.mark.django_db
def test_analyse_game_stores_the_review_of_the_event_log(yahtzee_table):
    row, rules_game = stored_game()
    stored = analyse_game(row.pk)
    assert stored.game_id == row.pk and stored.version == VERSION
    by = ["system"] + ["autoplay" if getattr(e, "player", None) == 1
                       and e.kind != "turn_started" else "bot" for e in rules_game.events[1:]]
    assert stored.data == json.loads(json.dumps(analyse(rules_game.events, by).to_dict()))
    bot, away = stored.data["players"]
    assert bot["loss"] == 0 and bot["decisions"] > 13
    assert away["decisions"] == 0 and away["autoplay_decisions"] > 13 and away["loss"] > 0
    for p in stored.data["players"]:
        assert p["expected_start"] + p["luck"] - p["loss"] == pytest.approx(p["final"], abs=3e-6)
    # Again: the row is replaced, not doubled.
    again = analyse_game(row.pk)
    assert again.pk == stored.pk and GameAnalysis.objects.count() == 1
    assert row.analysis.data == stored.data


@pytest.mark.django_db
def test_a_review_of_an_older_format_is_made_again(yahtzee_table):
    """The page shows only the current format: an older stored review counts as none."""
    old, _ = stored_game(seed=2)
    current, _ = stored_game(seed=3)
    GameAnalysis.objects.create(game=old, version=VERSION - 1, data={"version": VERSION - 1})
    analyse_game(current.pk)
    assert unreviewed_games() == [old.pk]
    analyse_game(old.pk)
    assert unreviewed_games() == []


@pytest.mark.django_db
def test_analyse_game_refuses_unknown_and_unfinished_games(yahtzee_table):
    with pytest.raises(ServiceError) as err:
        analyse_game(123456)
    assert err.value.code == "no_game"
    row, _ = stored_game(stop=40)
    with pytest.raises(ServiceError) as err:
        analyse_game(row.pk)
    assert err.value.code == "not_finished"
    assert not GameAnalysis.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_analyse_in_background_runs_in_a_process_of_its_own(yahtzee_table, caplog):
    row, _ = stored_game(levels=("medium", "optimal", "easy"), seed=3)
    future = analyse_in_background(row.pk)
    future.result(timeout=120)
    assert GameAnalysis.objects.get(game=row).data["finished"] is True
    # A failure is logged here, not raised anywhere.
    failed = analyse_in_background(999_999)
    error = failed.exception(timeout=120)
    assert isinstance(error, ServiceError) and error.code == "no_game"
    for _ in range(50):  # the callback that logs runs just after the waiters wake
        if "Could not analyse game 999999" in caplog.text:
            break
        time.sleep(0.1)
    assert "Could not analyse game 999999" in caplog.text


@pytest.mark.django_db
def test_command_one_game_json_and_text(yahtzee_table):
    row, rules_game = stored_game(levels=("optimal", "easy", "medium"), seed=2)
    out = io.StringIO()
    call_command("analyse", "--game", str(row.pk), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data == GameAnalysis.objects.get(game=row).data
    assert [p["name"] for p in data["players"]] == list(rules_game.players)
    assert [p["final"] for p in data["players"]] == [c.total for c in rules_game.scorecards]
    out = io.StringIO()
    call_command("analyse", "--game", str(row.pk), stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3 and lines[0].startswith(f"optimal 0: {data['players'][0]['final']} = ")


@pytest.mark.django_db
def test_command_all_analyses_every_finished_game(yahtzee_table):
    done = [stored_game(seed=s)[0] for s in (1, 2)]
    playing, _ = stored_game(seed=3, stop=30)
    out, err = io.StringIO(), io.StringIO()
    call_command("analyse", "--all", stdout=out, stderr=err)
    assert out.getvalue().strip() == "Analysed 2 finished games."
    assert "2/2" in err.getvalue()  # the progress bar, on stderr
    assert set(GameAnalysis.objects.values_list("game_id", flat=True)) == {g.pk for g in done}
    assert not GameAnalysis.objects.filter(game=playing).exists()


@pytest.mark.django_db
def test_command_bad_games_exit_2(yahtzee_table):
    row, _ = stored_game(stop=25)
    for args, message in [(["--game", "424242"], "There is no game 424242."),
                          (["--game", str(row.pk)], f"Game {row.pk} is not finished yet."),
                          (["--all", "--json"], "--json needs --game.")]:
        with pytest.raises(CommandError) as err:
            call_command("analyse", *args)
        assert err.value.returncode == 2 and str(err.value) == message


@pytest.fixture(scope="module")
def manage(strategy_dir, tmp_path_factory):
    """``manage.py`` in a subprocess, on a migrated private database."""
    env = {**os.environ, "STRATEGY_DIR": str(strategy_dir),
           "DATA_DIR": str(tmp_path_factory.mktemp("data"))}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                              text=True, capture_output=True, timeout=120)

    assert run("migrate", "-v", "0").returncode == 0
    return run


def test_command_refuses_an_unknown_game_with_one_line(manage):
    done = manage("analyse", "--game", "7")
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert done.stderr.strip() == "CommandError: There is no game 7."


@pytest.mark.parametrize("args", [
    ["--game", "seven"],
    ["--game", "-"],
    [],
    ["--game", "1", "--all"],
    ["--all", "--json"],
])
def test_command_bad_input_exits_2_with_one_line(args):
    """Refused before any database is read: run as manage.py runs it, in this process
    (tests/support/command_line.py)."""
    done = manage_here("analyse", *args)
    assert done.returncode == 2, done
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.django_db(transaction=True)
def test_a_game_that_finishes_is_analysed_without_being_asked(yahtzee_table, settings):
    from game import services
    from tests.support.rooms import as_action, next_move, room_with_players

    settings.REVIEW_ON_FINISH = True
    room, guests = room_with_players(["Ann"], rules="yahtzee")
    game = Game.objects.get(room=room)
    while game.status == "playing":
        services.play(room.code, as_action(next_move(game.snapshot)), guest_key=guests[0])
        game.refresh_from_db()
    for _ in range(600):  # computed in the review worker process, after the commit
        if GameAnalysis.objects.filter(game=game).exists():
            break
        time.sleep(0.2)
    data = GameAnalysis.objects.get(game=game).data
    ann = data["players"][0]
    assert ann["final"] == game.totals[0]
    assert ann["expected_start"] + ann["luck"] - ann["loss"] == pytest.approx(ann["final"], 1e-6)


@pytest.mark.django_db
def test_the_admin_game_page_shows_each_players_review_and_links_to_it(yahtzee_table,
                                                                         admin_client):
    from django.urls import reverse

    row, _ = stored_game(levels=("optimal", "easy"), seed=5)
    url = reverse("admin:game_game_change", args=[row.pk])
    assert "not analysed yet" in admin_client.get(url).content.decode()
    data = analyse_game(row.pk).data
    page = admin_client.get(url).content.decode()
    assert f'<a href="{row.get_absolute_url()}">Open the review</a>' in page
    bot, away = data["players"]
    assert f'<td>{bot["name"]}</td><td>{bot["decisions"]}</td><td>0.000</td>' in page
    assert f'<td>{away["luck"]:+.2f}</td>' in page
    assert f'<td>{away["autoplay_decisions"]}</td></tr>' in page

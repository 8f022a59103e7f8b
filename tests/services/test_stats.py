"""The profiles' running figures (``PlayerStats``, ``Rivalry``) kept game by game agree with a
plain count over every stored result: after a generated history, after a merge of a guest into
an account, after every game was recorded again, and as the migration counts the games recorded
before the figures were kept."""

from __future__ import annotations

import importlib
import io
from collections import Counter, defaultdict
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command

from game import services
from game.models import GameResult, Player, PlayerStats, Rivalry
from tests.support.profiles import played_game, store_review

pytestmark = pytest.mark.django_db


def counted_from_results() -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Each person's figures per ruleset and record per opponent, counted the plain way: every
    result row, every pair of seats of a game."""
    per_rules: dict[tuple[int, str], dict[str, Any]] = {}
    per_rival: dict[tuple[int, str], list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0.0])
    by_game: dict[int, list[GameResult]] = defaultdict(list)
    for r in GameResult.objects.all():
        by_game[r.game_id].append(r)
        if r.player_id is None:
            continue
        s = per_rules.setdefault((r.player_id, r.rules), {
            "games": 0, "final_sum": 0, "finals": Counter(), "luck": 0.0, "loss": 0.0,
            "decisions": 0, "grades": Counter()})
        s["games"] += 1
        s["final_sum"] += r.final
        s["finals"][r.final] += 1
        s["luck"] += r.luck
        s["loss"] += r.graded_loss
        s["decisions"] += r.decisions
        s["grades"].update(r.grades)
    for seats in by_game.values():
        for me in seats:
            for them in seats:
                if me.player_id is None or them.seat == me.seat or them.player_id == me.player_id:
                    continue
                key = f"p{them.player_id}" if them.player_id else f"b{them.bot_level}"
                if them.player_id is None and not them.bot_level:
                    continue
                row = per_rival[(me.player_id, key)]
                row[0] += 1
                row[1] += me.final > them.final
                row[2] += me.final == them.final
                margin = (me.final - me.luck) - (them.final - them.luck)
                row[3] += margin > 0
                row[4] += margin
    return per_rules, dict(per_rival)


def assert_kept_figures_are_the_counted_ones() -> None:
    per_rules, per_rival = counted_from_results()
    kept = {(s.player_id, s.rules): s for s in PlayerStats.objects.all()}
    assert set(kept) == set(per_rules)
    for key, c in per_rules.items():
        s = kept[key]
        assert (s.games, s.final_sum) == (c["games"], c["final_sum"])
        assert (s.best, s.worst) == (max(c["finals"]), min(c["finals"]))
        assert {int(k): v for k, v in s.finals.items()} == dict(c["finals"])
        assert s.luck_sum == pytest.approx(c["luck"])
        assert s.loss_sum == pytest.approx(c["loss"])
        assert s.decisions == c["decisions"]
        assert {g: n for g, n in s.grades.items() if n} == {
            g: n for g, n in c["grades"].items() if n}
    records = {(r.player_id, r.key): r for r in Rivalry.objects.all()}
    assert set(records) == set(per_rival)
    for key, (games, wins, draws, adjusted_wins, margin) in per_rival.items():
        r = records[key]
        assert (r.games, r.wins, r.draws, r.adjusted_wins) == (games, wins, draws, adjusted_wins)
        assert r.adjusted_margin_sum == pytest.approx(margin)
        assert (r.rival_id is None) == key[1].startswith("b")


def test_the_figures_kept_game_by_game_are_a_count_of_every_result():
    call_command("generate_history", "--players", "8", "--games", "40", "--seed", "11",
                 stdout=io.StringIO())
    assert PlayerStats.objects.count() > 0 and Rivalry.objects.filter(rival=None).exists()
    assert_kept_figures_are_the_counted_ones()


def test_recording_every_game_again_keeps_the_same_figures():
    call_command("generate_history", "--players", "6", "--games", "24", "--seed", "12",
                 stdout=io.StringIO())
    before = sorted((s.player_id, s.rules, s.games, s.final_sum, s.best, s.worst)
                    for s in PlayerStats.objects.all())
    assert services.rebuild_ratings() == 24
    after = sorted((s.player_id, s.rules, s.games, s.final_sum, s.best, s.worst)
                   for s in PlayerStats.objects.all())
    assert after == before
    assert_kept_figures_are_the_counted_ones()


def test_the_migration_counts_the_games_recorded_before_the_figures_were_kept():
    call_command("generate_history", "--players", "6", "--games", "20", "--seed", "13",
                 stdout=io.StringIO())
    PlayerStats.objects.all().delete()
    Rivalry.objects.all().delete()
    migration = importlib.import_module("game.migrations.0018_player_stats")
    migration.count_recorded_games(apps, None)
    assert PlayerStats.objects.exists()
    assert_kept_figures_are_the_counted_ones()


def test_a_merge_counts_the_account_and_its_opponents_records_again():
    account, guest, bea = (services.new_player(n) for n in ("Ann", "Ann2", "Bea"))
    for seats in ([account, bea], [guest, bea], [bea, guest, "easy"], [guest, "medium"]):
        game = played_game(seats)
        store_review(game, lucks=[4.0, -2.5, 1.0][:len(seats)])
        services.record_game(game.pk)
    assert Rivalry.objects.filter(player=bea, rival=guest).get().games == 2
    services.merge_players(guest, account)
    assert not Player.objects.filter(pk=guest.pk).exists()
    assert Rivalry.objects.get(player=bea, rival=account).games == 3
    assert PlayerStats.objects.get(player=account, rules="yahtzee").games == 4
    assert set(Rivalry.objects.filter(player=account).values_list("key", flat=True)) == {
        f"p{bea.pk}", "beasy", "bmedium"}
    assert_kept_figures_are_the_counted_ones()


def test_a_game_adds_only_to_its_own_peoples_rows():
    call_command("generate_history", "--players", "6", "--games", "16", "--seed", "14",
                 stdout=io.StringIO())
    before = {s.pk: (s.games, s.final_sum) for s in PlayerStats.objects.all()}
    records = {r.pk: r.games for r in Rivalry.objects.all()}
    cy, dot = services.new_player("Cy"), services.new_player("Dot")
    game = played_game([cy, dot, "easy"])
    store_review(game, lucks=[1.0, 2.0, 3.0])
    services.record_game(game.pk)
    assert {s.pk: (s.games, s.final_sum) for s in PlayerStats.objects.filter(
        pk__in=before)} == before
    assert {r.pk: r.games for r in Rivalry.objects.filter(pk__in=records)} == records
    assert set(PlayerStats.objects.exclude(pk__in=before).values_list("player", flat=True)) \
        == {cy.pk, dot.pk}
    assert_kept_figures_are_the_counted_ones()

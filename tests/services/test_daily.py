"""The daily challenge on the server: the days' seeds and their commitments, one attempt per
player and day (continued on another device), a game rolled from the day's tape through the
room machinery, two players who keep the same dice seeing the same dice, nothing the server
sends revealing the tape before the day is over, and a daily game checked once it is."""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import re

import pytest
from django.core.management import call_command
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import protocol, selectors, services
from game.domain.clock import utc_today
from game.models import DailyAttempt, DailyChallenge, Game, GameEvent, Player, Room
from game.rules import DailyDice, Roll, Score, check_game
from game.rules.fairness import server_seed_from
from game.services.daily import ensure_challenges, start_attempt
from game.store import rules_cache
from tests.support.rooms import as_action, next_move

DB = pytest.mark.django_db(transaction=True)


def new_player(name: str = "Ann") -> Player:
    return Player.objects.create(name=name)


def tomorrow_clock(monkeypatch, days: int = 1) -> None:
    """The clock ``days`` later: the day being played is over (its seed revealed)."""
    real = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real() + datetime.timedelta(days=days))


def play_whole(attempt: DailyAttempt, guest: str) -> Game:
    game = attempt.game
    while game.status == Game.Status.PLAYING:
        services.play(attempt.room.code, as_action(next_move(game.snapshot)), guest_key=guest)
        game.refresh_from_db()
    return game


@DB
def test_each_day_has_a_secret_seed_per_ruleset_committed_by_its_sha256():
    today = utc_today()
    days = ensure_challenges(today)
    assert set(days) == {"yahtzee", "yatzy"}
    seeds = {c.seed for c in days.values()}
    assert len(seeds) == 2
    for c in days.values():
        assert re.fullmatch(r"[0-9a-f]{64}", c.seed)
        assert c.commitment == hashlib.sha256(bytes.fromhex(c.seed)).hexdigest()
        # never derived from the tests' DICE_SEED (or anything else a person could know)
        assert c.seed != server_seed_from(f"tests:{today}:{c.rules}")
    again = ensure_challenges(today)
    assert {c.pk for c in again.values()} == {c.pk for c in days.values()}
    assert DailyChallenge.objects.count() == 2


@DB
def test_daily_seeds_command_draws_ahead_and_prints_only_commitments():
    out = io.StringIO()
    call_command("daily_seeds", "--days", "3", stdout=out)
    assert DailyChallenge.objects.count() == 8
    text = out.getvalue()
    for c in DailyChallenge.objects.all():
        assert c.commitment in text
        assert c.seed not in text


@DB
def test_one_attempt_a_day_continued_on_another_device():
    ann = new_player()
    first = start_attempt(ann, "phone", "yahtzee")
    room = first.room
    assert room.daily_id == first.challenge_id and room.chances == Room.Chances.OFF
    assert not room.practice and room.seats_count == 1
    services.play(room.code, Roll(()), guest_key="phone")
    # the same player (their account) on a laptop: the same attempt, the seat now theirs there
    again = start_attempt(ann, "laptop", "yahtzee")
    assert again.pk == first.pk
    assert DailyAttempt.objects.count() == 1 and Game.objects.count() == 1
    with pytest.raises(services.ServiceError) as refused:
        services.play(room.code, Roll(()), guest_key="phone")
    assert refused.value.code == "watcher"
    services.play(room.code, Roll(()), guest_key="laptop")
    # another ruleset is another attempt
    assert start_attempt(ann, "laptop", "yatzy").pk != first.pk


@DB
def test_a_daily_game_rolls_from_the_days_tape_and_records_its_end():
    ann = new_player()
    attempt = start_attempt(ann, "g1", "yatzy")
    day = attempt.challenge
    services.play(attempt.room.code, Roll(()), guest_key="g1")
    game = Game.objects.get(pk=attempt.game_id)
    tape = DailyDice(day.seed, "yatzy", day.day)
    first = [next(f) for f in [tape.faces(1, 1)] for _ in range(5)]
    assert game.snapshot["dice"] == first
    assert game.server_seed == "" and game.commitment == day.commitment
    game = play_whole(attempt, "g1")
    attempt.refresh_from_db()
    assert attempt.final == game.totals[0] and attempt.finished is not None
    assert attempt.account is False
    assert Room.objects.get(pk=attempt.room_id).status == Room.Status.FINISHED
    finished = GameEvent.objects.get(game=game, kind="game_finished")
    assert not finished.payload.get("server_seed")


def dice_arrays(text: str) -> list[list[int]]:
    """Every list of five dice in a text (JSON however it is spaced)."""
    return [json.loads(m) for m in re.findall(r"\[[1-6](?:,[1-6]){4}\]", re.sub(r"\s", "", text))]


holds = st.lists(st.sets(st.integers(0, 4)), min_size=26, max_size=26)


@DB
@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(choices=holds, rules=st.sampled_from(["yahtzee", "yatzy"]))
def test_same_holds_same_dice_and_nothing_sent_reveals_the_tape(choices, rules):
    """Two players of the day, through the services and the frames a socket gets: whenever
    they keep the same dice they see the same dice; no frame or state ever carries the day
    seed, and every five dice in them are dice already rolled in that game."""
    a_player, b_player = new_player("A"), new_player("B")
    a = start_attempt(a_player, f"a{a_player.pk}", rules)
    b = start_attempt(b_player, f"b{b_player.pk}", rules)
    seed = a.challenge.seed
    sent: dict[str, list[str]] = {"a": [], "b": []}
    rolled: dict[str, list[list[int]]] = {"a": [], "b": []}
    turns = 0
    while turns < 4:
        turns += 1
        for roll in range(3):
            hold = sorted(choices[(turns * 3 + roll) % len(choices)]) if roll else []
            for who, att in (("a", a), ("b", b)):
                result = services.play(att.room.code, Roll(tuple(hold)),
                                       guest_key=f"{who}{att.player_id}")
                rolled[who].append(result.state["dice"])
                sent[who].append(json.dumps(services.events_message(result)))
                room = Room.objects.get(pk=att.room_id)
                sent[who].append(json.dumps(protocol.state(
                    selectors.room_state(room, f"{who}{att.player_id}"))))
                for text in sent[who]:
                    assert seed not in text
                    for dice in dice_arrays(text):
                        assert dice in rolled[who]
            # the same holds of the same dice: the same roll for both
            assert rolled["a"][-1] == rolled["b"][-1]
        for who, att in (("a", a), ("b", b)):
            game = Game.objects.get(pk=att.game_id)
            box = next(o for o in game.snapshot["options"] if o["allowed"])
            services.play(att.room.code, Score(box["box"], box["column"]),
                          guest_key=f"{who}{att.player_id}")


@DB
def test_a_daily_game_takes_no_move_once_its_day_is_over(monkeypatch):
    attempt = start_attempt(new_player(), "g", "yahtzee")
    services.play(attempt.room.code, Roll(()), guest_key="g")
    rules_cache.clear()
    tomorrow_clock(monkeypatch)
    with pytest.raises(services.ServiceError) as refused:
        services.play(attempt.room.code, Roll(()), guest_key="g")
    assert refused.value.code == "day_over"


@DB
def test_verify_dice_checks_a_daily_game_after_the_reveal(monkeypatch):
    attempt = start_attempt(new_player(), "g", "yahtzee")
    game = play_whole(attempt, "g")
    out = io.StringIO()
    with pytest.raises(Exception) as early:
        call_command("verify_dice", str(game.pk), stdout=out)
    assert "revealed when that day is over" in str(early.value)
    tomorrow_clock(monkeypatch)
    out = io.StringIO()
    call_command("verify_dice", str(game.pk), stdout=out)
    assert f"All {GameEvent.objects.filter(game=game, kind='rolled').count()} rolls match" in (
        out.getvalue())
    events = [{"seq": e.seq, "kind": e.kind, **e.payload} for e in game.events.order_by("seq")]
    assert check_game(events, attempt.challenge.seed).ok


@DB
def test_signing_in_moves_a_guests_dailies_to_the_account_and_keeps_one_attempt_a_day():
    from django.contrib.auth import get_user_model

    account = services.claim_player(get_user_model().objects.create_user("ann", password="x" * 12),
                                    None)
    mine = start_attempt(account, "acct", "yahtzee")
    guest = new_player("Ann")
    later = start_attempt(guest, "guest", "yahtzee")  # the same day, after the account's
    only_guest = start_attempt(guest, "guest", "yatzy")
    assert not only_guest.account

    services.claim_player(account.user, guest)

    attempts = {a.challenge.rules: a for a in DailyAttempt.objects.filter(player=account)}
    assert attempts["yahtzee"].pk == mine.pk  # the first attempt of the day is the one
    assert attempts["yatzy"].pk == only_guest.pk and attempts["yatzy"].account
    assert not DailyAttempt.objects.filter(pk=later.pk).exists()
    assert Game.objects.filter(pk=later.game_id).exists()  # its game stays stored


@DB
def test_a_disabled_player_starts_no_daily():
    player = new_player()
    Player.objects.filter(pk=player.pk).update(disabled=True)
    player.refresh_from_db()
    with pytest.raises(services.ServiceError) as refused:
        start_attempt(player, "g", "yahtzee")
    assert refused.value.code == "disabled"
    assert not DailyAttempt.objects.exists()

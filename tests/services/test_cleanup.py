"""The cleanup command deletes what nobody uses and keeps every game and its event log."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

from game import services
from game.models import Connection, DailyAttempt, Game, GameEvent, Player, Room, Seat
from game.services.daily import start_attempt
from tests.support.rooms import as_action, next_move, room_with_players

pytestmark = pytest.mark.django_db


def age(room: Room, days: float) -> None:
    Room.objects.filter(pk=room.pk).update(updated=timezone.now() - timedelta(days=days))


def session(expires_in: timedelta) -> str:
    store = SessionStore()
    store["guest"] = "g"
    store.create()
    Session.objects.filter(pk=store.session_key).update(expire_date=timezone.now() + expires_in)
    return store.session_key


def test_cleanup_deletes_idle_waiting_rooms_and_expired_sessions_only():
    idle, _ = room_with_players(["Ann"], start=False)
    fresh, _ = room_with_players(["Bob"], start=False)
    old_game, _ = room_with_players(["Cy"], start=True)  # a room with a game: not just waiting
    age(idle, 2)
    age(fresh, 0.5)
    age(old_game, 30)
    events_before = GameEvent.objects.count()
    Connection.objects.create(room=fresh, channel_name="dead", guest_key="",
                              last_seen=timezone.now() - timedelta(hours=2))
    Connection.objects.create(room=fresh, channel_name="alive", guest_key="",
                              last_seen=timezone.now())
    gone, kept = session(timedelta(days=-1)), session(timedelta(days=3))

    out = io.StringIO()
    call_command("cleanup", stdout=out)

    assert "Removed 1 idle rooms, 1 expired sessions, 1 dead presence rows." in out.getvalue()
    assert set(Room.objects.values_list("pk", flat=True)) == {fresh.pk, old_game.pk}
    assert not Seat.objects.filter(room_id=idle.pk).exists()
    assert Game.objects.filter(room=old_game).count() == 1
    assert GameEvent.objects.count() == events_before
    assert list(Session.objects.values_list("pk", flat=True)) == [kept]
    assert gone != kept
    assert list(Connection.objects.values_list("channel_name", flat=True)) == ["alive"]


def days_ago(room: Room, days: float) -> None:
    """``room`` made, touched and last moved in ``days`` ago."""
    when = timezone.now() - timedelta(days=days)
    Room.objects.filter(pk=room.pk).update(created=when, updated=when)
    GameEvent.objects.filter(game__room=room).update(created=when)


def first_move(room: Room, guest: str) -> None:
    game = Game.objects.filter(room=room).latest("id")
    services.play(room.code, as_action(next_move(game.snapshot)), guest_key=guest)


def test_games_nobody_played_go_after_a_day_with_their_rooms_and_forgotten_players():
    def one_click(name: str) -> tuple[Room, Player]:
        player = services.new_player(name)
        return services.play_the_computer(f"guest-{name}", nickname=name, rules="yahtzee",
                                          level="easy", player=player), player

    never, left = one_click("Never")  # never moved: goes, and its player with it
    moved, mover = one_click("Moved")  # a person's move: kept however old
    first_move(moved, "guest-Moved")
    recent, _ = one_click("Recent")  # a day not over yet: kept
    ended, _ = one_click("Ended")  # ended early by staff: a finished game, kept
    services.end_game(Game.objects.get(room=ended).pk)
    watched, _ = one_click("Watched")  # a tab still open on it: kept
    Connection.objects.create(room=watched, channel_name="tab", guest_key="guest-Watched",
                              last_seen=timezone.now())
    idle_daily = start_attempt(services.new_player("Daily"), "guest-D", "yahtzee")
    played_daily = start_attempt(services.new_player("Rolled"), "guest-R",
                                                "yahtzee")
    first_move(played_daily.room, "guest-R")
    # Over days: a game waits days for its first move, a room days for its players.
    host = services.new_player("Patient")
    slow = services.create_room(name="Slow", rules="yahtzee", host_key="guest-P", pace="days",
                                move_days=3, seats=[services.SeatSpec(), services.SeatSpec("easy")])
    services.take_seat(slow.code, "guest-P", "Patient", 0, player=host)
    services.start_game(slow.code, "guest-P")
    inviting = services.create_room(name="Come", rules="yahtzee", host_key="guest-I",
                                    pace="days", move_days=3,
                                    seats=[services.SeatSpec(), services.SeatSpec()])
    for room in (never, moved, ended, watched, idle_daily.room, played_daily.room, slow,
                 inviting):
        days_ago(room, 2)
    days_ago(recent, 0.5)
    # Players made by a name alone: gone after a day unless something hangs on them.
    nameless_old, nameless_new = services.new_player("Once"), services.new_player("Today")
    Player.objects.filter(pk__in=[nameless_old.pk, left.pk, mover.pk]).update(
        created=timezone.now() - timedelta(days=2))
    account = services.new_player("Owner")
    account.user = get_user_model().objects.create_user("owner", password="a long password 1")
    account.save()
    Player.objects.filter(pk=account.pk).update(created=timezone.now() - timedelta(days=2))
    events_kept = GameEvent.objects.exclude(game__room__in=[never, idle_daily.room]).count()

    out = io.StringIO()
    call_command("cleanup", stdout=out)

    assert not Room.objects.filter(pk__in=[never.pk, idle_daily.room_id]).exists()
    assert not Game.objects.filter(room_id__in=[never.pk, idle_daily.room_id]).exists()
    assert not DailyAttempt.objects.filter(pk=idle_daily.pk).exists()
    assert set(Room.objects.values_list("pk", flat=True)) == {
        moved.pk, recent.pk, ended.pk, watched.pk, played_daily.room_id, slow.pk, inviting.pk}
    assert DailyAttempt.objects.filter(pk=played_daily.pk).exists()
    assert GameEvent.objects.count() == events_kept
    assert not Player.objects.filter(pk__in=[nameless_old.pk, left.pk]).exists()
    assert Player.objects.filter(pk__in=[nameless_new.pk, mover.pk, account.pk,
                                         host.pk]).count() == 4
    assert "2 rooms nobody played in and 2 players nothing hangs on" in out.getvalue()


def test_a_room_over_days_waits_days_for_its_players_and_its_first_move():
    def over_days(name: str, start: bool) -> Room:
        host = services.new_player(name)
        room = services.create_room(name=name, rules="yahtzee", host_key=f"guest-{name}",
                                    pace="days", move_days=7,
                                    seats=[services.SeatSpec(), services.SeatSpec()])
        services.take_seat(room.code, f"guest-{name}", name, 0, player=host)
        if start:
            services.take_seat(room.code, "guest-friend", "Friend", 1)
            services.start_game(room.code, f"guest-{name}")
        return room

    inviting, waiting_long, slow = (over_days("Inviting", False), over_days("Forgotten", False),
                                    over_days("Slow", True))
    days_ago(inviting, 3)  # friends take days to come: kept
    days_ago(slow, 6)  # a move a week: its first move may come on day 7
    days_ago(waiting_long, 31)  # a month without anyone: abandoned
    call_command("cleanup", stdout=io.StringIO())
    assert set(Room.objects.values_list("pk", flat=True)) == {inviting.pk, slow.pk}
    assert Game.objects.filter(room=slow).exists()

"""The cleanup command deletes what nobody uses and keeps every game and its event log."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

from game.models import Connection, Game, GameEvent, Room, Seat
from tests.support.rooms import room_with_players

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
    old_game, _ = room_with_players(["Cy"], start=True)  # a game ever played: kept
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

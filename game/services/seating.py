"""Between games the seat list is the host's to set: add a free seat, put a computer player in a
free seat or in the seat of someone absent, remove a seat; anyone seated may leave their seat;
the host sets the room's options (the turn time). Nothing here runs while a game is played."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ..ai.actions import LEVELS
from ..domain.rooms import OPTIONS
from ..models import Room, Seat
from ..rules import MAX_PLAYERS
from ..selectors import connected_guests
from . import broadcast
from .errors import ServiceError, gettext_noop, no_room
from .names import bot_nickname


def _host_room(code: str, guest: str | None, *, host: bool = True) -> Room:
    """The room locked for a change between games, or why not."""
    room = Room.objects.select_for_update().filter(code=code).first()
    if room is None:
        raise no_room(code)
    if host and (not guest or guest != room.host_key):
        raise ServiceError("not_host",
                           gettext_noop("Only the host can change the seats or the options."))
    if room.status == Room.Status.PLAYING:
        raise ServiceError("game_running",
                           gettext_noop("Seats and options change between games, not during one."))
    return room


def _seat(room: Room, index: int) -> Seat:
    seat = Seat.objects.filter(room=room, index=index).first()
    if seat is None:
        raise ServiceError("no_seat", gettext_noop("There is no such seat in this room."))
    return seat


def _renumber(room: Room) -> None:
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    for new_index, s in enumerate(seats):
        if s.index != new_index:
            s.index = new_index
            s.save(update_fields=["index"])
    room.seats_count = len(seats)
    room.save(update_fields=["seats_count", "updated"])


def add_seat(code: str, guest: str | None) -> Seat:
    """A free seat at the end, for a friend who came late."""
    with transaction.atomic():
        room = _host_room(code, guest)
        count = Seat.objects.filter(room=room).count()
        if count >= MAX_PLAYERS:
            raise ServiceError("room_full", gettext_noop("A room has at most %(max)d seats."),
                               {"max": MAX_PLAYERS})
        seat = Seat.objects.create(room=room, index=count)
        room.seats_count = count + 1
        room.save(update_fields=["seats_count", "updated"])
    broadcast.send_room_changed(code)
    return seat


def leave_seat(code: str, guest: str | None) -> None:
    """The guest's seat becomes free (they watch from now on; the host stays the host)."""
    with transaction.atomic():
        room = _host_room(code, guest, host=False)
        seat = Seat.objects.filter(room=room, guest_key=guest).first() if guest else None
        if seat is None:
            raise ServiceError("not_seated", gettext_noop("You have no seat in this room."))
        seat.nickname, seat.guest_key, seat.last_seen = "", "", None
        seat.save(update_fields=["nickname", "guest_key", "last_seen"])
        room.save(update_fields=["updated"])
    broadcast.send_room_changed(code)


def _check_absent(room: Room, seat: Seat, refusal: str) -> None:
    """Refuse a change to ``seat`` while its person is here (``refusal``: its sentence)."""
    if seat.guest_key and seat.guest_key in connected_guests(room):
        raise ServiceError("player_here", refusal, {"name": seat.display_name})


def seat_bot(code: str, guest: str | None, index: int, level: str) -> Seat:
    """A computer player in seat ``index``: a free seat, a computer's, or an absent person's."""
    if level not in LEVELS:
        raise ServiceError("bad_level", gettext_noop("Computer levels are: %(levels)s."),
                           {"levels": ", ".join(LEVELS)})
    with transaction.atomic():
        room = _host_room(code, guest)
        seat = _seat(room, index)
        _check_absent(room, seat, gettext_noop(
            "%(name)s is here: only an absent player’s seat can be given to a computer."))
        taken = {s.nickname for s in Seat.objects.filter(room=room, kind=Seat.Kind.BOT)
                 .exclude(pk=seat.pk)}
        number = next(n for n in range(1, MAX_PLAYERS + 2)
                      if not any(name.startswith(f"Bot {n} ") for name in taken))
        seat.kind, seat.bot_level, seat.guest_key = Seat.Kind.BOT, level, ""
        seat.nickname, seat.last_seen = bot_nickname(number, level), None
        seat.save(update_fields=["kind", "bot_level", "guest_key", "nickname", "last_seen"])
        room.save(update_fields=["updated"])
    broadcast.send_room_changed(code)
    return seat


def remove_seat(code: str, guest: str | None, index: int) -> None:
    """Seat ``index`` goes (a free seat, a computer's or an absent person's); the others are
    renumbered in order. The last seat stays."""
    with transaction.atomic():
        room = _host_room(code, guest)
        seat = _seat(room, index)
        _check_absent(room, seat, gettext_noop(
            "%(name)s is here: only an absent player’s seat can be removed."))
        if Seat.objects.filter(room=room).count() <= 1:
            raise ServiceError("last_seat", gettext_noop("A room keeps at least one seat."))
        seat.delete()
        _renumber(room)
    broadcast.send_room_changed(code)


def set_room_options(code: str, guest: str | None, **options: Any) -> None:
    """The room's options for the next games (``game.room_options``), those given."""
    for name, value in options.items():
        option = OPTIONS.get(name)
        if option is None:
            raise ServiceError("bad_option", gettext_noop("A room has no option %(name)s."),
                               {"name": repr(name[:40])})
        if value not in option.choices:
            raise ServiceError("bad_option", option.not_a_choice, option.params)
    with transaction.atomic():
        room = _host_room(code, guest)
        for name, value in options.items():
            setattr(room, name, value)
        room.save(update_fields=[*options, "updated"])
    broadcast.send_room_changed(code)

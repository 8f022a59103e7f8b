"""Rooms and seats: create a room, take a seat, start a game or a rematch."""

from __future__ import annotations

import secrets
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from ..ai.actions import LEVELS
from ..models import ROOM_NAME_MAX, Game, Player, Room, Seat
from ..rules import MAX_PLAYERS, RULESETS, FairDice, InvalidSeed
from ..rules import Game as RulesGame
from ..rules.fairness import clean_client_seed, commitment
from ..selectors import connected_guests, grace_left
from ..store import rules_cache
from . import broadcast, correspondence, names
from .dice import default_client_seed, draw_server_seed
from .errors import ServiceError, gettext_noop, no_room
from .games import store_events
from .names import clean_shown_name

SESSION_GUEST = "guest"


@dataclass(frozen=True)
class SeatSpec:
    """A seat at creation: ``None`` for a person, or a bot level."""

    bot_level: str | None = None


def guest_key(session: MutableMapping, *, create: bool = True) -> str:
    """The visitor's stable guest key, kept in their Django session (made on first need)."""
    key = session.get(SESSION_GUEST, "")
    if not key and create:
        key = session[SESSION_GUEST] = new_guest_key()
    return key


def new_guest_key() -> str:
    return secrets.token_urlsafe(24)


def clean_room_name(raw: object) -> str:
    return names.clean_name(raw, what="room name", max_length=ROOM_NAME_MAX, code="bad_room")


def clean_dice_seed(raw: object) -> str:
    """A player's dice seed (1–64 printable ASCII characters), or ``bad_seed``."""
    try:
        return clean_client_seed(raw)
    except InvalidSeed as exc:
        raise ServiceError.of("bad_seed", exc) from None


def create_room(
    *, name: str, rules: str, seats: Sequence[SeatSpec], host_key: str, practice: bool = False,
    chances: str = "auto",  # Room.Chances
    pace: str = "live", move_days: int = 0,  # Room.Pace; over days: MOVE_DAYS
) -> Room:
    name = clean_room_name(name)
    move_days = correspondence.check_move_days(pace, move_days)
    if rules not in RULESETS:
        raise ServiceError("bad_room", gettext_noop("Choose one of the rulesets: %(rulesets)s."),
                           {"rulesets": ", ".join(RULESETS)})
    if not 1 <= len(seats) <= MAX_PLAYERS:
        raise ServiceError("bad_room", gettext_noop("A room has 1 to %(max)d seats."),
                           {"max": MAX_PLAYERS})
    for spec in seats:
        if spec.bot_level is not None and spec.bot_level not in LEVELS:
            raise ServiceError("bad_room", gettext_noop("Bot levels are: %(levels)s."),
                               {"levels": ", ".join(LEVELS)})
    if chances not in Room.Chances.values:
        raise ServiceError("bad_room", gettext_noop(
            "Chances are shown with computer players, always or never."))
    with transaction.atomic():
        room = Room.objects.create(name=name, rules=rules, seats_count=len(seats),
                                   host_key=host_key, practice=practice, chances=chances,
                                   pace=pace, move_days=move_days)
        # The first game's seed, before any player can choose theirs; only its hash is shown.
        room.next_server_seed = draw_server_seed(room.pk, 0)
        room.save(update_fields=["next_server_seed"])
        bots = 0
        for i, spec in enumerate(seats):
            if spec.bot_level is None:
                Seat.objects.create(room=room, index=i)
            else:
                bots += 1
                Seat.objects.create(room=room, index=i, kind=Seat.Kind.BOT,
                                    bot_level=spec.bot_level,
                                    nickname=names.bot_nickname(bots, spec.bot_level),
                                    client_seed=default_client_seed(room.pk, i))
    return room


def get_room(code: str) -> Room:
    room = Room.objects.filter(code=code).first()
    if room is None:
        raise no_room(code)
    return room


def seat_of(room: Room, guest: str | None) -> Seat | None:
    if not guest:
        return None
    return Seat.objects.filter(room=room, guest_key=guest).first()


def take_seat(code: str, guest: str, nickname: str, index: int | None,
              dice_seed: str = "", player: Player | None = None) -> Seat:
    """Give seat ``index`` (None: the first free one) to the guest, who is ``player``, with
    their dice seed (made here if ""); a guest already seated here keeps their seat."""
    nickname = clean_shown_name(nickname, player)
    dice_seed = clean_dice_seed(dice_seed) if dice_seed else ""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()
        if room is None:
            raise no_room(code)
        mine = seat_of(room, guest)
        if mine is not None:
            return mine
        if room.status == Room.Status.PLAYING:
            raise ServiceError("game_running", gettext_noop(
                "A game is running: watch it, and take a free seat for the next one."))
        seats = Seat.objects.filter(room=room).order_by("index")
        if index is None:
            seat = next((s for s in seats if s.is_free), None)
            if seat is None:
                raise ServiceError("seat_taken",
                                   gettext_noop("Every seat is taken; watch this game."))
        else:
            seat = seats.filter(index=index).first()
        if seat is None:
            raise ServiceError("no_seat", gettext_noop("There is no such seat in this room."))
        if not seat.is_free:
            raise ServiceError("seat_taken",
                               gettext_noop("That seat is taken; choose a free one."))
        if room.pace == Room.Pace.DAYS:
            correspondence.check_over_days_cap(player.pk if player else None)
        alike = names.look_alike(nickname, [s.display_name for s in room.seats.all()])
        if alike is not None:
            raise ServiceError("name_taken", gettext_noop(
                "“%(name)s” is too much like “%(alike)s”, who already sits in this room; choose "
                "another name."), {"name": nickname, "alike": alike})
        seat.nickname, seat.guest_key, seat.player = nickname, guest, player
        seat.client_seed = dice_seed or default_client_seed(room.pk, seat.index)
        seat.save(update_fields=["nickname", "guest_key", "player", "client_seed"])
        if room.pace == Room.Pace.DAYS and player is not None and not player.plays_over_days:
            Player.objects.filter(pk=player.pk).update(plays_over_days=True)
            player.plays_over_days = True
    broadcast.send_room_changed(code)
    return seat


def set_dice_seed(code: str, guest: str | None, raw: object) -> Seat:
    """A seated player's own dice seed for the next game (refused while a game runs: the
    running game's seeds were fixed at its start)."""
    dice_seed = clean_dice_seed(raw)
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()
        if room is None:
            raise no_room(code)
        seat = seat_of(room, guest)
        if seat is None:
            raise ServiceError("watcher", gettext_noop("Take a seat to choose a dice seed."))
        if room.status == Room.Status.PLAYING:
            raise ServiceError("game_running", gettext_noop(
                "The dice seeds of a running game are fixed; change yours before the next one."))
        seat.client_seed = dice_seed
        seat.save(update_fields=["client_seed"])
    broadcast.send_room_changed(code)
    return seat


def host_gone(room: Room) -> bool:
    """Whether the room's host is a seated person away past the grace (``grace_ends``): the
    role may pass (``pass_host_roles``), and anyone seated may start the game meanwhile."""
    host = Seat.objects.filter(room=room, guest_key=room.host_key).exclude(
        guest_key="").exclude(kind=Seat.Kind.BOT).order_by("index").first()
    return (host is not None and room.host_key not in connected_guests(room)
            and grace_left(host.last_seen, room.created) == 0)


def start_game(code: str, guest: str | None) -> Game:
    """Start the room's first game (the host, or anyone seated once a seated host is gone:
    ``host_gone``, and they take the role) or a rematch (the host or anyone seated), no game
    running. Free seats are removed and the others renumbered, so seat i is always player i
    of the game."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()
        if room is None:
            raise no_room(code)
        seated = seat_of(room, guest) is not None
        heir = (seated and guest != room.host_key and room.status == Room.Status.WAITING
                and host_gone(room))
        # A rematch needs no host: whoever sat at the last game may offer it.
        if not guest or (guest != room.host_key and not heir
                         and not (seated and room.status == Room.Status.FINISHED)):
            raise ServiceError("not_host", gettext_noop("Only the host can start a game."))
        if heir:  # the role was theirs to take: it passes as the game starts
            room.host_key = guest
            room.save(update_fields=["host_key"])
        if room.status == Room.Status.PLAYING:
            raise ServiceError("game_running",
                               gettext_noop("A game is already running in this room."))
        # Rematches are unlimited otherwise, and every game is kept: a room's growth has a budget.
        hour_ago = timezone.now() - timedelta(hours=1)
        if (Game.objects.filter(room=room, created__gte=hour_ago).count()
                >= settings.GAMES_PER_ROOM_PER_HOUR):
            raise ServiceError(
                "too_many_games",
                gettext_noop("This room started %(count)d games in the last hour, its most; "
                             "wait a little, or create a new room."),
                {"count": settings.GAMES_PER_ROOM_PER_HOUR})
        seats = list(room.seats.order_by("index"))
        taken = [s for s in seats if not s.is_free]
        if not taken:
            raise ServiceError("no_players",
                               gettext_noop("Take a seat before starting the game."))
        for s in seats:
            if s.is_free:
                s.delete()
        for new_index, s in enumerate(taken):
            if s.index != new_index or not s.client_seed:
                s.index = new_index
                s.client_seed = s.client_seed or default_client_seed(room.pk, new_index)
                s.save(update_fields=["index", "client_seed"])
        names = [s.display_name for s in taken]
        client_seeds = [s.client_seed for s in taken]
        games_before = Game.objects.filter(room=room).count()
        # Drawn when the room was made or the last game ended; only a room from before fair
        # dice (or a game ended outside the services) has none yet.
        server_seed = room.next_server_seed or draw_server_seed(room.pk, games_before)
        room.next_server_seed = ""
        room.seats_count = len(taken)
        room.status = Room.Status.PLAYING
        room.save(update_fields=["seats_count", "status", "next_server_seed", "updated"])
        game_row = Game.objects.create(room=room, rules=room.rules, players=names,
                                       player_names=", ".join(names)[:200],
                                       server_seed=server_seed,
                                       commitment=commitment(server_seed),
                                       client_seeds=client_seeds, move_days=room.move_days)
        game = RulesGame(room.rules, names, rng=FairDice(server_seed, client_seeds))
        store_events(game_row, game, list(game.events), by="system", seat=None)
        transaction.on_commit(lambda: rules_cache.keep(game_row.pk, game_row.seq, game))
    broadcast.send_room_changed(code)
    return game_row


#: The name a visitor plays under when they never gave one (the one-click game), stored in
#: the visitor's language (the request's, active when it is read).
DEFAULT_NICKNAME = gettext_lazy("Player")


def default_room_name(nickname: str) -> str:
    """The name of a room whose creator gave none: "Ann’s table" (a room of computers alone:
    "The computers’ table"), stored in the creator's language (the request's, active here)."""
    from django.utils.translation import gettext as _
    if not nickname:
        return _("The computers’ table")
    return (_("%(name)s’s table") % {"name": nickname})[:ROOM_NAME_MAX]


def open_room(guest: str, *, nickname: str, name: str, rules: str, seats: Sequence[SeatSpec],
              player: Player | None = None, dice_seed: str = "", practice: bool = False,
              chances: str = "auto", pace: str = "live", move_days: int = 0) -> Room:
    """A room with its creator in the first seat for a person (``name`` "" for
    ``default_room_name``): the lobby's "Play with friends". A room of computers alone has
    no seat for them: they host it and watch (``nickname`` "")."""
    watching = all(spec.bot_level is not None for spec in seats)
    if watching and nickname:
        raise ServiceError("bad_room", gettext_noop(
            "Every seat is a computer: leave a seat for a person."))
    nickname = "" if watching else clean_shown_name(nickname, player)
    with transaction.atomic():
        room = create_room(name=name or default_room_name(nickname), rules=rules, seats=seats,
                           host_key=guest, practice=practice, chances=chances, pace=pace,
                           move_days=move_days)
        if not watching:
            take_seat(room.code, guest, nickname, None, dice_seed, player)
    return room


def play_the_computer(guest: str, *, nickname: str, rules: str, level: str,
                      player: Player | None = None) -> Room:
    """A room with the visitor and one computer player of ``level``, its game started: the
    lobby's one-click game. No name needed: ``nickname`` may be empty."""
    if level not in LEVELS:
        raise ServiceError("bad_room", gettext_noop("Bot levels are: %(levels)s."),
                           {"levels": ", ".join(LEVELS)})
    from django.utils.translation import gettext as _
    nickname = clean_shown_name(nickname or str(DEFAULT_NICKNAME), player)
    with transaction.atomic():
        # Stored in the creator's language (the request's, active here).
        name = _("%(name)s vs the computer") % {"name": nickname}
        room = create_room(name=name[:ROOM_NAME_MAX], rules=rules,
                           seats=[SeatSpec(), SeatSpec(level)], host_key=guest)
        take_seat(room.code, guest, nickname, 0, player=player)
        start_game(room.code, guest)
    room.refresh_from_db()
    return room


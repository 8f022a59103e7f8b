"""The lobby and a room's page: making a room, taking a seat, the one-click computer game."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.middleware.http import ConditionalGetMiddleware
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.decorators import decorator_from_middleware
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from .. import protocol, selectors, services
from ..ai.triple import ENDGAME_OPEN
from ..domain import translated
from ..domain.rooms import LIVE, OVER_DAYS
from ..models import TURN_TIMES, Room
from ..presenters import players as shown
from ..presenters import rules_text
from ..presenters.correspondence import your_game_line
from ..presenters.invite import invite_qr_svg
from ..rules import MAX_PLAYERS, RULESETS, get_ruleset
from ..rules.dice import DICE_COUNT
from ..selectors.correspondence import your_games
from ..web.players import acting_player, current_player, guest_within_limit, player_name
from .forms import CreateRoomForm, JoinByCodeForm, JoinForm, PlayComputerForm

LOBBY_LIMIT = 20
#: Over-days games the lobby lists ("Your games" has them all).
LOBBY_YOUR_GAMES = 3
RECENT = timedelta(days=2)
def lobby(request: HttpRequest) -> HttpResponse:
    form = CreateRoomForm(request.POST or None, initial={"nickname": player_name(request)})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            guest = guest_within_limit(request, "create_room")
            player = acting_player(request)
            room = services.open_room(
                guest, nickname=data["nickname"], name=data["name"], rules=data["rules"],
                seats=data["seat_specs"], player=player, dice_seed=data["dice_seed"],
                practice=data["practice"], chances=data["chances"] or "auto",
                pace=data["pace"] or LIVE,
                move_days=(data["move_days"] or 0) if data["pace"] == OVER_DAYS else 0)
        except services.ServiceError as exc:
            form.add_error(None, translated.message(exc))
        else:
            if data["nickname"] and player.name != data["nickname"]:  # it follows them
                services.rename_player(player, data["nickname"])
            return redirect(room)
    me = current_player(request)
    context = {
        "form": form,
        # Over-days games waiting for this person first: the lobby shows the first few.
        "your_games": [your_game_line(g) for g in your_games(me.pk)][:LOBBY_YOUR_GAMES]
        if me is not None else [],
        "rulesets": RULESETS.values(),
        "computer_form": PlayComputerForm(),
        "code_form": JoinByCodeForm(),
        "default_nickname": player_name(request) or str(services.DEFAULT_NICKNAME),
        **_lobby_lists(request),
    }
    # A name missing is a question the page asks in place (lobby.js asks before sending).
    refused = form.errors and not form.only_asks_the_name()
    return render(request, "game/lobby.html", context, status=400 if refused else 200)


# The lobby's lists, polled by lobby.js every few seconds: kept by the browser but revalidated
# each time, and an ETag makes an unchanged answer a bodiless 304 (docs/architecture.md says
# why polling rather than a socket).
@require_GET
@cache_control(no_cache=True, private=True)
@decorator_from_middleware(ConditionalGetMiddleware)
def lobby_rooms(request: HttpRequest) -> HttpResponse:
    return render(request, "game/_lobby_rooms.html", _lobby_lists(request))


def _lobby_lists(request: HttpRequest) -> dict[str, list[Room]]:
    """The lobby's lists as this browser's player sees them: private players unnamed."""
    lists = selectors.lobby_rooms(LOBBY_LIMIT, RECENT)
    shown.hide_in_rooms([room for rooms in lists.values() for room in rooms],
                        current_player(request))
    return lists


@require_POST
def play_computer(request: HttpRequest) -> HttpResponse:
    """One click: a room with the visitor (no name needed) and a computer player, started."""
    form = PlayComputerForm(request.POST)
    if not form.is_valid():
        messages.error(request,
                       _("Choose the rules and the computer’s strength from the lists."))
        return redirect("game:lobby")
    try:
        guest = guest_within_limit(request, "create_room")
        player = acting_player(request)
        room = services.play_the_computer(
            guest, nickname=player.name, rules=form.cleaned_data["rules"],
            level=form.cleaned_data["level"], player=player)
    except services.ServiceError as exc:
        messages.error(request, translated.message(exc))
        return redirect("game:lobby")
    return redirect(room)


@require_GET
def join_by_code(request: HttpRequest) -> HttpResponse:
    form = JoinByCodeForm(request.GET)
    if not form.is_valid():
        for error in form.errors.get("code", []):
            messages.error(request, error)
        return redirect("game:lobby")
    return redirect("game:room", code=form.cleaned_data["code"])


def _room_page(request: HttpRequest, room: Room, join_form: JoinForm | None = None,
               status: int = 200) -> HttpResponse:
    guest = services.guest_key(request.session, create=False)
    seat = services.seat_of(room, guest)
    nickname = seat.nickname if seat else player_name(request)
    invite_url = request.build_absolute_uri(room.get_absolute_url())
    context = {
        "room": room,
        "seat": seat.index if seat else None,
        "nickname": nickname,
        "join_form": join_form or JoinForm(room, initial={"nickname": nickname}),
        "invite_url": invite_url,
        "invite_qr": invite_qr_svg(invite_url),
        # After a game against computers alone nobody is left to invite (render/host.js too).
        "invite_hidden": room.status == Room.Status.FINISHED and not any(
            not s.is_bot and s.index != (seat.index if seat else None)
            for s in room.seats.all()),
        "is_host": bool(guest) and guest == room.host_key,
        "rulesets": RULESETS.values(),
        "ruleset": translated.ruleset_data(room.rules),
        "rules_text": rules_text.for_page(get_ruleset(room.rules)),
        "turn_times": TURN_TIMES,
        "max_seats": MAX_PLAYERS,
        "dice_count": DICE_COUNT,
        "daily_url": reverse("game:daily_day", kwargs={
            "rules": room.rules, "day": room.daily.day.isoformat()}) if room.daily_id else "",
        "endgame_open": ENDGAME_OPEN,  # Triple: where its valuation becomes exact
        "first_state": _first_state(room, guest),
    }
    return render(request, "game/room.html", context, status=status)


def _first_state(room: Room, guest: str | None) -> protocol.Frame:
    """The room's ``state`` as its socket sends it on opening, in the page: the room is drawn
    from it at once, not after the socket's round trip (docs/protocol.md)."""
    return protocol.state(selectors.room_state(room, guest).reader_here())


def room(request: HttpRequest, code: str) -> HttpResponse:
    room = get_object_or_404(Room, code=code)
    if room.pace == OVER_DAYS:
        # Over days, a seat is its player's on whichever device they open the room with.
        player = current_player(request)
        if player is not None:
            services.seat_here(room, player, request.session)
    if room.daily_id and services.seat_of(
            room, services.guest_key(request.session, create=False)) is None:
        # a daily challenge has no watchers: its player's own page, from /daily/
        return redirect("game:daily")
    return _room_page(request, room)


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    room = get_object_or_404(Room, code=code)
    form = JoinForm(room, request.POST)
    if form.is_valid():
        try:
            guest = guest_within_limit(request, "take_seat")
            player = acting_player(request)
            services.take_seat(code, guest, form.cleaned_data["nickname"],
                               form.cleaned_data["seat"], form.cleaned_data["dice_seed"], player)
        except services.ServiceError as exc:
            form.add_error(None, translated.message(exc))
        else:
            if player.name != form.cleaned_data["nickname"]:  # the name follows them
                services.rename_player(player, form.cleaned_data["nickname"])
            return redirect(room)
    return _room_page(request, room, form, status=400)

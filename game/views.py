"""Thin views: the lobby, a room page, taking a seat, a game's public page."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.http import ConditionalGetMiddleware
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.decorators import decorator_from_middleware
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from . import selectors, services
from .ai.triple import ENDGAME_OPEN
from .clients import client_address
from .forms import CreateRoomForm, JoinByCodeForm, JoinForm, PlayComputerForm
from .models import TURN_TIMES, Game, GameAnalysis, Room
from .players import acting_player, current_player, player_name
from .presenters.fairness import fairness_data
from .presenters.invite import invite_qr_svg
from .presenters.replay import replay_data
from .presenters.review import review_view
from .rules import MAX_PLAYERS, RULESETS, get_ruleset
from .rules.dice import DICE_COUNT

LOBBY_LIMIT = 20
RECENT = timedelta(days=2)


def _guest_within_limit(request: HttpRequest, action: str) -> str:
    """The visitor's guest key once ``services.check_rate_limit`` let ``action`` pass. A new
    visitor's key is counted first and kept in their session only then: a refused request
    leaves no session row behind."""
    known = services.guest_key(request.session, create=False)
    guest = known or services.new_guest_key()
    services.check_rate_limit(action, session=guest, address=client_address(request))
    if not known:
        request.session[services.SESSION_GUEST] = guest
    return guest


def lobby(request: HttpRequest) -> HttpResponse:
    form = CreateRoomForm(request.POST or None, initial={"nickname": player_name(request)})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            guest = _guest_within_limit(request, "create_room")
            player = acting_player(request)
            room = services.open_room(
                guest, nickname=data["nickname"], name=data["name"], rules=data["rules"],
                seats=data["seat_specs"], player=player, dice_seed=data["dice_seed"],
                practice=data["practice"], chances=data["chances"] or "auto")
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            if data["nickname"] and player.name != data["nickname"]:  # it follows them
                services.rename_player(player, data["nickname"])
            return redirect(room)
    context = {
        "form": form,
        "rulesets": RULESETS.values(),
        "computer_form": PlayComputerForm(),
        "code_form": JoinByCodeForm(),
        "default_nickname": player_name(request) or services.DEFAULT_NICKNAME,
        **selectors.lobby_rooms(LOBBY_LIMIT, RECENT),
    }
    return render(request, "game/lobby.html", context, status=400 if form.errors else 200)


# The lobby's lists, polled by lobby.js every few seconds: kept by the browser but revalidated
# each time, and an ETag makes an unchanged answer a bodiless 304 (docs/architecture.md says
# why polling rather than a socket).
@require_GET
@cache_control(no_cache=True, private=True)
@decorator_from_middleware(ConditionalGetMiddleware)
def lobby_rooms(request: HttpRequest) -> HttpResponse:
    return render(request, "game/_lobby_rooms.html", selectors.lobby_rooms(LOBBY_LIMIT, RECENT))


@require_POST
def play_computer(request: HttpRequest) -> HttpResponse:
    """One click: a room with the visitor (no name needed) and a computer player, started."""
    form = PlayComputerForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose the rules and the computer's strength from the lists.")
        return redirect("game:lobby")
    try:
        guest = _guest_within_limit(request, "create_room")
        player = acting_player(request)
        room = services.play_the_computer(
            guest, nickname=player.name, rules=form.cleaned_data["rules"],
            level=form.cleaned_data["level"], player=player)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
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
        "is_host": bool(guest) and guest == room.host_key,
        "rulesets": RULESETS.values(),
        "ruleset": get_ruleset(room.rules).to_dict(),
        "turn_times": TURN_TIMES,
        "max_seats": MAX_PLAYERS,
        "dice_count": DICE_COUNT,
        "endgame_open": ENDGAME_OPEN,  # Triple: where its valuation becomes exact
    }
    return render(request, "game/room.html", context, status=status)


def room(request: HttpRequest, code: str) -> HttpResponse:
    return _room_page(request, get_object_or_404(Room, code=code))


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    room = get_object_or_404(Room, code=code)
    form = JoinForm(room, request.POST)
    if form.is_valid():
        try:
            guest = _guest_within_limit(request, "take_seat")
            player = acting_player(request)
            services.take_seat(code, guest, form.cleaned_data["nickname"],
                               form.cleaned_data["seat"], form.cleaned_data["dice_seed"], player)
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            if player.name != form.cleaned_data["nickname"]:  # the name follows them
                services.rename_player(player, form.cleaned_data["nickname"])
            return redirect(room)
    return _room_page(request, room, form, status=400)


@require_POST
def set_name(request: HttpRequest) -> HttpResponse:
    """The site header's name control: the name this browser's player goes by from now on
    (seats already taken keep theirs). Back to the page it was sent from."""
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = "/"
    player = current_player(request)
    try:
        name = services.clean_nickname(request.POST.get("player_name", ""))
        # Counted before anything is written: a browser without the cookie gets a new player
        # row per name, so a script would otherwise make rows without end.
        services.check_rate_limit("set_name", session=f"player{player.pk}" if player else "",
                                  address=client_address(request))
        player = player or acting_player(request)
        services.rename_player(player, name)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        acting_player(request)  # a year from now
        messages.success(request, f"You are {player.name} on this browser.")
    return redirect(back)


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A game's page: a replay of every move, rebuilt from the stored events, and the stored
    analysis of its decisions once there is one."""
    game = Game.objects.select_related("room").filter(pk=pk).first()
    if game is None:  # a stale or mistyped review link: the lobby, which lists the games
        messages.info(request, f"There is no game {pk}; here are the games being played.")
        return redirect("game:lobby")
    ruleset = get_ruleset(game.rules)
    events = list(game.events.order_by("seq"))
    stored = GameAnalysis.objects.filter(game=game).values_list("data", flat=True).first()
    context = {
        "game": game,
        "ruleset": ruleset,
        "ruleset_data": ruleset.to_dict(),
        "replay": replay_data(events),
        "analysis": review_view(stored) if game.status == Game.Status.FINISHED else None,
        "standings": sorted(
            ({"name": name, "total": total, "winner": i in game.winners}
             for i, (name, total) in enumerate(zip(game.players, game.totals, strict=False))),
            key=lambda s: -s["total"]),
        "winners": [game.players[i] for i in game.winners],
        "fairness": fairness_data(game, ((e.seq, e.kind, e.payload) for e in events)),
        "seed_rows": list(zip(game.players, game.client_seeds, strict=False)),
    }
    return render(request, "game/game_detail.html", context)


@require_GET
def game_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    """The analysis part of a game's page alone: the page asks for it until it is ready."""
    game = get_object_or_404(Game, pk=pk)
    stored = GameAnalysis.objects.filter(game=game).values_list("data", flat=True).first()
    analysis = review_view(stored) if game.status == Game.Status.FINISHED else None
    return render(request, "game/_analysis.html", {"game": game, "analysis": analysis})


def game_dice(request: HttpRequest, pk: int) -> JsonResponse:
    """A game's seeds and rolls, for checking its dice anywhere (docs/fairness.md)."""
    game = get_object_or_404(Game, pk=pk)
    data = fairness_data(game, game.events.order_by("seq").values_list("seq", "kind", "payload"))
    if data is None:
        raise Http404("This game is from before verifiable dice.")
    return JsonResponse(data, json_dumps_params={"indent": 1})

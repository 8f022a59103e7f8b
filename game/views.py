"""Thin views: the lobby, a room page, taking a seat, a game's public page."""

from __future__ import annotations

from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.http import ConditionalGetMiddleware
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.decorators import decorator_from_middleware
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from . import review_worker, selectors, services, translated
from .ai.triple import ENDGAME_OPEN
from .clients import client_address
from .forms import CreateRoomForm, JoinByCodeForm, JoinForm, PlayComputerForm
from .models import TURN_TIMES, DailyAttempt, Game, GameAnalysis, Room
from .players import acting_player, current_player, player_name
from .presenters import rules_text
from .presenters.fairness import fairness_data
from .presenters.invite import invite_qr_svg
from .presenters.replay import replay_data
from .presenters.review import review_view
from .rules import MAX_PLAYERS, RULESETS, get_ruleset
from .rules.dice import DICE_COUNT
from .selectors.decisions import NoOptions
from .services.daily import utc_today

LOBBY_LIMIT = 20
RECENT = timedelta(days=2)
#: How long a "Try it yourself" request waits for the review worker (a late triple turn
#: takes seconds; a queued review may come first).
TRY_WAIT = 30
#: A finished game's options never change: kept this long (seconds) once valued.
TRY_KEPT = 24 * 3600
#: The HTTP status of each reason a decision's options are not given.
TRY_STATUS = {"no_game": 404, "no_decision": 404, "not_finished": 403, "not_ready": 503,
              "rate_limited": 429, "busy": 503}


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
            form.add_error(None, translated.message(exc))
        else:
            if data["nickname"] and player.name != data["nickname"]:  # it follows them
                services.rename_player(player, data["nickname"])
            return redirect(room)
    context = {
        "form": form,
        "rulesets": RULESETS.values(),
        "computer_form": PlayComputerForm(),
        "code_form": JoinByCodeForm(),
        "default_nickname": player_name(request) or str(services.DEFAULT_NICKNAME),
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
        messages.error(request,
                       _("Choose the rules and the computer's strength from the lists."))
        return redirect("game:lobby")
    try:
        guest = _guest_within_limit(request, "create_room")
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
    }
    return render(request, "game/room.html", context, status=status)


def room(request: HttpRequest, code: str) -> HttpResponse:
    room = get_object_or_404(Room, code=code)
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
            guest = _guest_within_limit(request, "take_seat")
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
        # Counted before anything is looked at or written: a browser without the cookie gets
        # a new player row per name, so a script would otherwise make rows without end.
        services.check_rate_limit("set_name", session=f"player{player.pk}" if player else "",
                                  address=client_address(request))
        name = services.clean_nickname(request.POST.get("player_name", ""))
        player = acting_player(request)  # a disabled player is refused here
        services.rename_player(player, name)
    except services.ServiceError as exc:
        messages.error(request, translated.message(exc))
    else:
        messages.success(request,
                         _("You are %(name)s on this browser.") % {"name": player.name})
    return redirect(back)


def _daily_hidden(request: HttpRequest, game: Game) -> bool:
    """Whether ``game`` is a daily challenge's whose day is not over and this browser's player
    is not its player: its dice are the day's tape, hidden from those still to play it."""
    if not game.daily_id or game.daily.is_over(utc_today()):
        return False
    me = current_player(request)
    return me is None or not DailyAttempt.objects.filter(game=game, player=me).exists()


def _day_seed(game: Game) -> str:
    """A daily game's day seed once its day is over ("" otherwise, and for other games)."""
    return game.daily.revealed_seed(utc_today()) if game.daily_id else ""


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A game's page: a replay of every move, rebuilt from the stored events, and the stored
    analysis of its decisions once there is one."""
    game = Game.objects.select_related("room", "daily").filter(pk=pk).first()
    if game is not None and _daily_hidden(request, game):
        messages.info(request, _("A daily challenge's games are shown once its day is over."))
        return redirect("game:daily")
    if game is None:  # a stale or mistyped review link: the lobby, which lists the games
        messages.info(request, _("There is no game %(game)s; here are the games being played.")
                      % {"game": pk})
        return redirect("game:lobby")
    ruleset = get_ruleset(game.rules)
    events = list(game.events.order_by("seq"))
    stored = GameAnalysis.objects.filter(game=game).values_list("data", flat=True).first()
    context = {
        "game": game,
        "ruleset": ruleset,
        "ruleset_data": translated.ruleset_data(ruleset),
        "rules_text": rules_text.for_page(ruleset),
        "replay": replay_data(events),
        "analysis": review_view(stored) if game.status == Game.Status.FINISHED else None,
        "standings": sorted(
            ({"name": name, "total": total, "winner": i in game.winners}
             for i, (name, total) in enumerate(zip(game.players, game.totals, strict=False))),
            key=lambda s: -s["total"]),
        "winners": [game.players[i] for i in game.winners],
        "fairness": fairness_data(game, ((e.seq, e.kind, e.payload) for e in events),
                                  _day_seed(game)),
        "seed_rows": list(zip(game.players, game.client_seeds, strict=False)),
        "viewer_seat": selectors.seat_of_viewer(game, current_player(request)),
    }
    return render(request, "game/game_detail.html", context)


@require_GET
def game_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    """The analysis part of a game's page alone: the page asks for it until it is ready."""
    game = get_object_or_404(Game.objects.select_related("daily"), pk=pk)
    if _daily_hidden(request, game):
        raise Http404("A daily challenge's games are shown once its day is over.")
    stored = GameAnalysis.objects.filter(game=game).values_list("data", flat=True).first()
    analysis = review_view(stored) if game.status == Game.Status.FINISHED else None
    return render(request, "game/_analysis.html", {"game": game, "analysis": analysis})


@require_GET
def game_try(request: HttpRequest, pk: int, seq: int) -> JsonResponse:
    """The options of the decision at ``seq`` of a finished game, each with what it costs
    against the best and its grade (``presenters.review.tried_view``), for "Try it yourself".
    Valued in the review worker, never here; counted per player and address; refused with
    ``{"error": code, "message"}``."""
    player = current_player(request)
    try:
        services.check_rate_limit("try_decision", session=f"player{player.pk}" if player else "",
                                  address=client_address(request))
    except services.ServiceError as exc:
        return _try_error(exc.code, translated.message(exc))
    game = Game.objects.select_related("daily").filter(pk=pk).first()
    if game is not None and _daily_hidden(request, game):  # its positions are the day's tape
        return _try_error("no_game",
                          _("A daily challenge's games are shown once its day is over."))
    key = f"try:{pk}:{seq}"
    found = cache.get(key)
    if found is None:
        try:
            found = review_worker.submit_try(pk, seq).result(timeout=TRY_WAIT)
        except (FutureTimeout, BrokenProcessPool):  # a worker replaced on the next ask
            return _try_error("busy", _("The analysis is busy; try again in a moment."))
        if "error" in found:  # its sentence is translated here, the worker has no language
            return _try_error(found["error"], translated.message(
                NoOptions(found["error"], found["template"], found["params"])))
        cache.set(key, found, timeout=TRY_KEPT)
    return JsonResponse(found)


def _try_error(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=TRY_STATUS.get(code, 400))


def game_dice(request: HttpRequest, pk: int) -> JsonResponse:
    """A game's seeds and rolls, for checking its dice anywhere (docs/fairness.md)."""
    game = get_object_or_404(Game.objects.select_related("daily"), pk=pk)
    if _daily_hidden(request, game):
        raise Http404("A daily challenge's games are shown once its day is over.")
    data = fairness_data(game, game.events.order_by("seq").values_list("seq", "kind", "payload"),
                         _day_seed(game))
    if data is None:
        raise Http404("This game is from before verifiable dice.")
    return JsonResponse(data, json_dumps_params={"indent": 1})

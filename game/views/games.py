"""A finished game's page: its replay, its review as it arrives, "Try it yourself" and its
dice for checking."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .. import selectors
from ..domain import translated
from ..domain.clock import utc_today
from ..models import DailyAttempt, Game, GameAnalysis
from ..presenters import players as shown
from ..presenters import rules_text
from ..presenters.fairness import fairness_data
from ..presenters.replay import replay_data
from ..presenters.review import headline, review_view, tried_view
from ..rules import get_ruleset
from ..rules.dice import DICE_COUNT
from ..rules.errors import CodedError
from ..selectors import players as profiles
from ..services.review import tried_options
from ..web.clients import client_address
from ..web.players import current_player

#: The HTTP status of each reason a decision's options are not given.
TRY_STATUS = {"no_game": 404, "no_decision": 404, "not_finished": 403, "not_ready": 503,
              "rate_limited": 429, "busy": 503}


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


def _as_seen(request: HttpRequest, game: Game) -> dict[int, str]:
    """``game`` as this browser's player sees it: a private player's seat under its label
    (``presenters.players``); returns the labels of the hidden seats."""
    return shown.seen_by(game, current_player(request))


def _analysis(game: Game, stored: dict | None, labelled: dict[int, str],
              viewer: int | None) -> dict | None:
    """The stored review as this reader sees it (names hidden as elsewhere), with its headline
    from their side if they played (``viewer``: their seat)."""
    view = shown.hide_in_analysis(
        review_view(stored) if game.status == Game.Status.FINISHED else None, labelled)
    if view is not None:
        view["headline"] = headline(view, viewer, game.daily.par if game.daily_id else None)
    return view


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A game's page: a replay of every move, rebuilt from the stored events, and the stored
    analysis of its decisions once there is one."""
    game = Game.objects.select_related("room", "daily").filter(pk=pk).first()
    if game is not None and _daily_hidden(request, game):
        messages.info(request, _("A daily challenge’s games are shown once its day is over."))
        return redirect("game:daily")
    if game is None:  # a stale or mistyped review link: the lobby, which lists the games
        messages.info(request, _("There is no game %(game)s; here are the games being played.")
                      % {"game": pk})
        return redirect("game:lobby")
    ruleset = get_ruleset(game.rules)
    events = list(game.events.order_by("seq"))
    stored = GameAnalysis.objects.filter(game=game).values_list("data", flat=True).first()
    labelled = _as_seen(request, game)
    links = profiles.profile_links(game)
    viewer = selectors.seat_of_viewer(game, current_player(request))
    context = {
        "game": game,
        "ruleset": ruleset,
        "ruleset_data": translated.ruleset_data(ruleset),
        "rules_text": rules_text.for_page(ruleset),
        "replay": shown.hide_in_replay(replay_data(events), labelled),
        "dice_positions": range(1, DICE_COUNT + 1),  # the board's dice before it is drawn
        "analysis": _analysis(game, stored, labelled, viewer),
        "standings": sorted(
            ({"name": name, "total": total, "winner": i in game.winners,
              # A private person is a seat label, never a link (``presenters.players``).
              "profile_url": "" if i in labelled else links.get(i, "")}
             for i, (name, total) in enumerate(zip(game.players, game.totals, strict=False))),
            key=lambda s: -s["total"]),
        "winners": [game.players[i] for i in game.winners],
        "fairness": fairness_data(game, ((e.seq, e.kind, e.payload) for e in events),
                                  _day_seed(game)),
        "seed_rows": list(zip(game.players, game.client_seeds, strict=False)),
        "viewer_seat": viewer,
    }
    return render(request, "game/game_detail.html", context)


@require_GET
def game_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    """The analysis part of a game's page alone: the page asks for it until it is ready."""
    game = get_object_or_404(Game.objects.select_related("daily"), pk=pk)
    if _daily_hidden(request, game):
        raise Http404("A daily challenge's games are shown once its day is over.")
    stored = GameAnalysis.objects.filter(game=game).values_list("data", flat=True).first()
    labelled = _as_seen(request, game)
    return render(request, "game/_analysis.html",
                  {"game": game, "analysis": _analysis(
                      game, stored, labelled,
                      selectors.seat_of_viewer(game, current_player(request)))})


@require_GET
def game_try(request: HttpRequest, pk: int, seq: int) -> JsonResponse:
    """The options of the decision at ``seq`` of a finished game, each with what it costs
    against the best and its grade (``presenters.review.tried_view``), for "Try it yourself";
    refused with ``{"error": code, "message"}`` (``services.tried_options``)."""
    game = Game.objects.select_related("daily").filter(pk=pk).first()
    if game is not None and _daily_hidden(request, game):  # its positions are the day's tape
        return _try_error("no_game",
                          _("A daily challenge’s games are shown once its day is over."))
    player = current_player(request)
    try:
        options = tried_options(pk, seq, who=f"player{player.pk}" if player else "",
                                address=client_address(request))
    except CodedError as exc:  # ServiceError or NoOptions
        return _try_error(exc.code, translated.message(exc))
    return JsonResponse(tried_view(options))


def _try_error(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=TRY_STATUS.get(code, 400))


def game_dice(request: HttpRequest, pk: int) -> JsonResponse:
    """A game's seeds and rolls, for checking its dice anywhere (docs/fairness.md)."""
    game = get_object_or_404(Game.objects.select_related("daily"), pk=pk)
    if _daily_hidden(request, game):
        raise Http404("A daily challenge's games are shown once its day is over.")
    _as_seen(request, game)  # the names only: the seeds and rolls stay as played
    data = fairness_data(game, game.events.order_by("seq").values_list("seq", "kind", "payload"),
                         _day_seed(game))
    if data is None:
        raise Http404("This game is from before verifiable dice.")
    return JsonResponse(data, json_dumps_params={"indent": 1})

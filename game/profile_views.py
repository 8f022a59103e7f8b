"""Thin views of the players' profiles and the leaderboards."""

from __future__ import annotations

from datetime import timedelta

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import profiles, services
from .players import current_player
from .presenters import profile as charts
from .ratings import RATED_RULES
from .rules import RULESETS

WEEK = timedelta(days=7)


def profile(request: HttpRequest, public_id: str) -> HttpResponse:
    player = profiles.player_by_public_id(public_id)
    if player is None:
        raise Http404("There is no such player.")
    own = current_player(request) == player
    context: dict[str, object] = {"player": player, "own": own,
                                  "shown": own or not player.private}
    if context["shown"]:
        stats = profiles.ruleset_stats(player)
        context.update(
            stats=[{"s": s, "histogram": charts.histogram(s.finals), "trend": charts.trend(s.trend)}
                   for s in stats],
            rivals=profiles.head_to_head(player),
            page=profiles.games_page(player, request.GET.get("page")),
            rated_rules=RATED_RULES)
    return render(request, "game/profile.html", context)


@require_POST
def profile_privacy(request: HttpRequest, public_id: str) -> HttpResponse:
    """The owner's toggle: only the browser whose player this is may change it."""
    player = profiles.player_by_public_id(public_id)
    if player is None or current_player(request) != player:
        raise Http404("There is no such player of yours.")
    services.set_profile_private(player, request.POST.get("private") == "1")
    return redirect(player)


def leaderboard(request: HttpRequest, rules: str) -> HttpResponse:
    if rules not in RATED_RULES:
        raise Http404("These rules have no rating.")
    me = current_player(request)
    week_start = timezone.now() - WEEK
    boards = []
    for key, title, since in (("week", _("This week"), week_start),
                              ("all", _("All time"), None)):
        boards.append({"key": key, "title": title,
                       "rows": profiles.leaderboard(rules, since),
                       "mine": profiles.place_of(me, rules, since) if me else None})
    context = {"ruleset": RULESETS[rules], "boards": boards, "me": me,
               "rated_rules": [RULESETS[r] for r in RATED_RULES],
               "min_games": profiles.LEADERBOARD_MIN_GAMES}
    return render(request, "game/leaderboard.html", context)

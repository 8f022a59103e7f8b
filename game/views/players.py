"""Thin views of the players' profiles and the leaderboards."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..domain import translated
from ..presenters import players as shown
from ..presenters import profile as charts
from ..ratings import RATED_RULES, wins
from ..rules import RULESETS
from ..selectors import players as profiles
from ..web import refusals
from ..web.players import acting_player, current_player

WEEK = timedelta(days=7)


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
        refusals.check_limit(request, "set_name",
                             session=f"player{player.pk}" if player else "")
        name = services.clean_nickname(request.POST.get("player_name", ""))
        player = acting_player(request)  # a disabled player is refused here
        services.rename_player(player, name)
    except services.ServiceError as exc:
        messages.error(request, translated.message(exc))
    else:
        messages.success(request,
                         _("You are %(name)s on this browser.") % {"name": player.name})
    return redirect(back)



def profile(request: HttpRequest, public_id: str) -> HttpResponse:
    player = profiles.player_by_public_id(public_id)
    if player is None:
        raise Http404("There is no such player.")
    me = current_player(request)
    own = me == player
    context: dict[str, object] = {"player": player, "own": own,
                                  "shown": own or not player.private}
    if context["shown"]:
        stats = profiles.ruleset_stats(player)
        page = profiles.games_page(player, request.GET.get("page"))
        page.object_list = list(page.object_list)  # read once: the games shown are these
        games = [r.game for r in page.object_list]
        shown.with_current_names(games)  # renamed since: as they go by now
        shown.hide_in_games(games, me)  # private opponents
        context.update(
            stats=[{"s": s, "histogram": charts.histogram(s.finals), "trend": charts.trend(s.trend),
                    "choices": charts.choice_figures(s.grades, s.accuracy)} for s in stats],
            rivals=profiles.head_to_head(player, me),
            page=page,
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
    now = timezone.now()
    week_start = now - WEEK
    boards = []
    for key, title, since in (("week", _("This week"), week_start),
                              ("all", _("All time"), None)):
        mine = profiles.place_of(me, rules, since, now) if me else None
        boards.append({"key": key, "title": title,
                       "rows": profiles.leaderboard(rules, since, now=now), "mine": mine,
                       "why": profiles.why_not_listed(me, rules, since, now)
                       if me and mine is None else None})
    context = {"ruleset": RULESETS[rules], "boards": boards, "me": me,
               "rated_rules": [RULESETS[r] for r in RATED_RULES],
               "min_games": profiles.LEADERBOARD_MIN_GAMES,
               "settled_rd": int(wins.PROVISIONAL_RD),
               "away_weeks": int(wins.LEADERBOARD_AWAY_PERIODS)}
    return render(request, "game/leaderboard.html", context)

"""Over-days games: "Your games", every game a person is in, the ones waiting for them first,
with their notice settings; and the email's one-click unsubscribe."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from .. import services
from ..domain import translated
from ..presenters.correspondence import your_game_line
from ..selectors.correspondence import your_games as read_your_games
from ..services import notices
from ..web.players import acting_player, current_player


def your_games(request: HttpRequest) -> HttpResponse:
    """Every over-days game of this browser's player, the ones waiting for them first."""
    player = current_player(request)
    lines = [your_game_line(g) for g in read_your_games(player.pk)] if player else []
    return render(request, "game/your_games.html", {
        "lines": lines, "player": player,
        "email_address": notices.confirmed_address(player) if player else "",
        "email_choices": player.EmailNotices.choices if player else [],
    })


@require_POST
def notice_settings(request: HttpRequest) -> HttpResponse:
    """Which channels this person's over-days notices go through."""
    try:
        player = acting_player(request)
        services.set_notices(player, push=request.POST.get("push") == "on",
                             email=request.POST.get("email", ""))
    except services.ServiceError as exc:
        messages.error(request, translated.message(exc))
    else:
        messages.success(request, _("Your notice settings are saved."))
    return redirect("game:your_games")


@csrf_exempt  # a mail client's one-click POST (RFC 8058) carries no cookie: the link is the key
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The email's link: GET asks (a link scanner must not unsubscribe anyone), POST stops
    the emails about games over days, at once."""
    player = notices.player_of_token(token[:200])
    if player is None:
        raise Http404("This unsubscribe link is not one of ours.")
    done = request.method == "POST"
    if done:
        notices.unsubscribe_email(player)
    return render(request, "game/unsubscribe.html", {"done": done, "token": token})

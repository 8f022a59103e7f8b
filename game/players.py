"""Which player a browser is: a year-long cookie holding the player's token (HttpOnly,
SameSite=Lax, Secure when the site is served over https). The record is made on the visitor's
first action (a name, a room, a seat), not on every page view, so crawlers make none."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from . import services
from .models import NICKNAME_MAX, Player

COOKIE = "player"
COOKIE_AGE = 365 * 24 * 60 * 60


def current_player(request: HttpRequest) -> Player | None:
    """The player this browser's cookie names, looked up once per request."""
    if not hasattr(request, "_player"):
        request._player = services.find_player(request.COOKIES.get(COOKIE, ""))
    player: Player | None = request._player
    return player


def acting_player(request: HttpRequest) -> Player:
    """The player behind an action, made now if the browser has none; the response then
    (re)sets the cookie, so a year counts from the last action."""
    player = current_player(request)
    if player is None:
        player = services.new_player()
        request._player = player
    request._player_cookie = player.token
    return player


def player_name(request: HttpRequest) -> str:
    player = current_player(request)
    return player.name if player else ""


class PlayerCookieMiddleware:
    """Sets the player cookie on the response of a request that acted as a player."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        token = getattr(request, "_player_cookie", None)
        if token:
            response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True,
                                samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
        return response


def player_context(request: HttpRequest) -> dict[str, object]:
    """The site header's name control, on every page."""
    player = current_player(request)
    return {"player_name": player.name if player else "", "name_max": NICKNAME_MAX,
            "player_profile_url": player.get_absolute_url() if player else ""}

"""Which player a browser is: a year-long cookie holding the player's token (HttpOnly,
SameSite=Lax, Secure when the site is served over https). The record is made on the visitor's
first action (a name, a room, a seat), not on every page view, so crawlers make none.

A browser signed in to an account is the account's player, whatever its cookie says (the
cookie follows). A player that has an account is nobody's without that sign-in: a cookie
kept from before a sign-out, or copied, makes a guest of nobody (``game.web.accounts``)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest, HttpResponse

from .. import services
from ..models import NICKNAME_MAX, Player
from ..selectors import correspondence
from . import refusals

COOKIE = "player"
COOKIE_AGE = 365 * 24 * 60 * 60


def _signed_in(request: HttpRequest) -> AbstractBaseUser | None:
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def _browser_player(request: HttpRequest) -> Player | None:
    user = _signed_in(request)
    if user is not None:
        account = services.player_of(user)
        if account is not None:
            if request.COOKIES.get(COOKIE) != account.token:
                request._player_cookie = account.token  # this device follows the account
            return account
    player = services.find_player(request.COOKIES.get(COOKIE, ""))
    if player is not None and player.user_id is not None \
            and (user is None or player.user_id != user.pk):
        return None  # an account's player, and this browser is not signed in to it
    return player


def current_player(request: HttpRequest) -> Player | None:
    """The player this browser is, looked up once per request."""
    if not hasattr(request, "_player"):
        request._player = _browser_player(request)
    player: Player | None = request._player
    return player


def acting_player(request: HttpRequest) -> Player:
    """The player behind an action, made now if the browser has none; the response then
    (re)sets the cookie, so a year counts from the last action. ServiceError ``disabled``
    for a player the staff disabled."""
    player = current_player(request)
    if player is None:
        player = services.new_player()
        request._player = player
    services.check_active(player)
    request._player_cookie = player.token
    return player


def use_player(request: HttpRequest, player: Player) -> None:
    """From this response on, the browser is ``player`` (signed in to its account)."""
    request._player = player
    request._player_cookie = player.token


def forget_player(request: HttpRequest) -> None:
    """Signed out: the browser is no player until its next action makes a new guest."""
    request._player = None
    request._player_cookie = ""
    request._player_forget = True


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
        if getattr(request, "_player_forget", False):
            response.delete_cookie(COOKIE, samesite="Lax")
        elif token:
            response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True,
                                samesite="Lax", secure=settings.SESSION_COOKIE_SECURE)
        return response


def player_context(request: HttpRequest) -> dict[str, object]:
    """The site header's name control, on every page."""
    player = current_player(request)
    user = _signed_in(request)
    over_days = player is not None and player.plays_over_days
    return {"player_name": player.name if player else "", "name_max": NICKNAME_MAX,
            "player_profile_url": player.get_absolute_url() if player else "",
            "account_name": user.get_username() if user is not None else "",
            # The header's link to "Your games" and how many wait for this person's move.
            "has_games_over_days": over_days,
            "your_turn_count": correspondence.your_turn_count(player.pk)
            if player is not None and over_days else 0}


def guest_within_limit(request: HttpRequest, action: str) -> str:
    """The visitor's guest key once ``services.check_rate_limit`` let ``action`` pass. A new
    visitor's key is counted first and kept in their session only then: a refused request
    leaves no session row behind."""
    known = services.guest_key(request.session, create=False)
    guest = known or services.new_guest_key()
    refusals.check_limit(request, action, session=guest)
    if not known:
        request.session[services.SESSION_GUEST] = guest
    return guest

"""Which language a person reads the site in: the browser's (``Accept-Language``), the one they
picked with the switcher on every page (a year-long cookie), and for a signed-in person their
account's, which follows them to every device. ``LocaleMiddleware`` reads the first two;
this module adds the account's, the switcher's view and the language of a websocket."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from functools import cache
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

from .players import current_player


def supported(code: str) -> str | None:
    """``code`` if it is one of the site's languages, else None."""
    return code if code in dict(settings.LANGUAGES) else None


def set_cookie(response: HttpResponse, code: str) -> None:
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, code,
                        max_age=settings.LANGUAGE_COOKIE_AGE,
                        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
                        secure=settings.LANGUAGE_COOKIE_SECURE)


class AccountLanguageMiddleware:
    """A signed-in person reads their account's language on every device: it wins over the
    browser's cookie and header, and the cookie is brought in line."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        preferred = self._preferred(request)
        if preferred and preferred != request.LANGUAGE_CODE:
            translation.activate(preferred)
            request.LANGUAGE_CODE = preferred
        response = self.get_response(request)
        if preferred and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != preferred \
                and not getattr(request, "_language_chosen", False):
            set_cookie(response, preferred)
        return response

    @staticmethod
    def _preferred(request: HttpRequest) -> str | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        player = current_player(request)
        return supported(player.language) if player is not None else None


def language_of_scope(scope: Mapping[str, Any]) -> str:
    """The language of a websocket's person, as ``LocaleMiddleware`` would choose it for a page
    (the switcher's cookie, then ``Accept-Language``): the sentences sent to that socket alone
    (errors) are in it."""
    cookies = scope.get("cookies") or {}
    headers = dict(scope.get("headers") or ())
    request = SimpleNamespace(
        COOKIES=cookies, path_info="/",
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")})
    language: str = translation.get_language_from_request(request)
    return language


@cache
def catalog_script(language: str) -> bytes:
    """Django's JavaScript catalog of ``language`` (the scripts' words and number formats),
    made once per process: it changes only with a release's compiled catalogs."""
    request = HttpRequest()
    request.method = "GET"
    with translation.override(language):
        response = JavaScriptCatalog.as_view()(request)
    return bytes(response.content)


@cache
def catalog_version(language: str) -> str:
    """A hash of ``language``'s catalog: its address changes when its words do."""
    return hashlib.sha256(catalog_script(language)).hexdigest()[:12]


def catalog_context(request: HttpRequest) -> dict[str, str]:
    """Templates' ``catalog_url``: the scripts' catalog of the page's language, at its hash."""
    language = supported(translation.get_language() or "") or settings.LANGUAGE_CODE
    return {"catalog_url": reverse("javascript-catalog-versioned",
                                   args=[language, catalog_version(language)])}

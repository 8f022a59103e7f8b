"""Web Push for the pages' scripts (static/game/shared/notify.js): the site's public key, and a
browser's subscription added or removed. JSON in and out; a refusal is
``{"error": code, "message": a sentence in the reader's language}`` with an HTTP status."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.csrf import csrf_failure as django_csrf_failure
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from ..domain import translated
from ..rules.errors import CodedError
from ..services import check_active
from ..services import push as web_push
from ..web.clients import client_address
from ..web.players import current_player

#: The HTTP status of each refusal.
STATUS = {"push_too_large": 413, "push_bad": 400, "push_endpoint": 400, "push_taken": 409,
          "rate_limited": 429, "disabled": 403, "no_player": 403, "csrf": 403}


def _refusal(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=STATUS.get(code, 400))


def _too_large(request: HttpRequest) -> bool:
    # Told by the header before the body is read; the body itself is measured again after.
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > web_push.MAX_BODY
    except ValueError:
        return True


@require_GET
@cache_control(no_cache=True)
def key(request: HttpRequest) -> JsonResponse:
    """The site's VAPID public key, the ``applicationServerKey`` a browser subscribes with."""
    return JsonResponse({"key": web_push.public_key()})


@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """This browser's ``PushSubscription.toJSON()`` as one of its player's devices (201).
    Only a browser that is a player already: notices are about games one plays."""
    player = current_player(request)
    if player is None:
        return _refusal("no_player", _("Play a game first: notices are about your games."))
    try:
        if _too_large(request):
            raise web_push.too_large()
        check_active(player)
        web_push.subscribe(player, request.body, address=client_address(request))
    except CodedError as exc:
        return _refusal(exc.code, translated.message(exc))
    return JsonResponse({"subscribed": True}, status=201)


@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    """Forget this browser's subscription (``{"endpoint"}``) if it is its player's; whether
    there was one."""
    player = current_player(request)
    if player is None:
        return JsonResponse({"removed": False})
    try:
        if _too_large(request) or len(request.body) > web_push.MAX_BODY:
            raise web_push.too_large()
        try:
            data = json.loads(request.body)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise web_push.not_a_subscription()
        removed = web_push.unsubscribe(player, data.get("endpoint"),
                                       address=client_address(request))
    except CodedError as exc:
        return _refusal(exc.code, translated.message(exc))
    return JsonResponse({"removed": removed})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A POST without the page's CSRF token: JSON for the scripts' endpoints here, Django's
    page everywhere else (``settings.CSRF_FAILURE_VIEW``)."""
    if request.path.startswith("/push/"):
        return _refusal("csrf", _("This page is out of date; reload it and try again."))
    return django_csrf_failure(request, reason)

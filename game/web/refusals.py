"""Refusals for rate answered late: a visitor over a limit waits before hearing so.

A refusal is cheap, but not free: the request still crossed Daphne, the middleware and the
view, and a script that sends the next request as soon as the last is answered makes that
cost as often as the server can answer — every honest player on the server waits behind it.
Held for ``RATE_REFUSAL_SECONDS`` (a timer on the event loop, no thread), the refusal caps such
a script at one request a connection per that time. Many connections at once are the proxy's
to limit (docs/fairness.md, "Limits").

A refusal for rate is an answer of status 429 (the JSON endpoints), or a page a view refused
through :func:`check_limit` (the forms, which answer with their page and its message).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from .. import services
from .clients import client_address

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Set in the request's ASGI scope by a view that refused the request for rate.
REFUSED = "yahtzee.refused_for_rate"


def check_limit(request: HttpRequest, action: str, *, session: str) -> None:
    """``services.check_rate_limit`` for this request's visitor (``session``) and address; a
    refusal is answered late (the request marked for :class:`SlowRateRefusals`)."""
    try:
        services.check_rate_limit(action, session=session, address=client_address(request))
    except services.ServiceError as exc:
        scope = getattr(request, "scope", None)  # under ASGI only (not Django's test client)
        if exc.code == "rate_limited" and scope is not None:
            scope[REFUSED] = True
        raise


class SlowRateRefusals:
    """ASGI middleware for HTTP: a refusal for rate is sent ``RATE_REFUSAL_SECONDS`` late."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        delay = settings.RATE_REFUSAL_SECONDS
        if scope["type"] != "http" or delay <= 0:
            await self.app(scope, receive, send)
            return

        async def send_late(message: Message) -> None:
            if message["type"] == "http.response.start" and (
                    message["status"] == 429 or scope.get(REFUSED)):
                await asyncio.sleep(delay)
            await send(message)

        await self.app(scope, receive, send_late)

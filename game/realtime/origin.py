"""Whose pages may open a websocket: the site's own, compared as a whole origin.

Channels' ``AllowedHostsOriginValidator`` compares only the host, so ``http://site`` could
script a socket of ``https://site``, and any port of an allowed host passed. Here the ``Origin``
must be exactly the origin of the page the socket belongs to — scheme, host and port, the host
one of ``ALLOWED_HOSTS`` — or one of ``CSRF_TRUSTED_ORIGINS``: the rule Django's CSRF check
applies to forms. Anything else is refused at the handshake.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def _https(scope: dict[str, Any]) -> bool:
    """Whether the page came over https: the site says so, or the trusted proxy does."""
    if settings.HTTPS or scope.get("scheme") == "wss":
        return True
    header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if header:
        name = header[0].removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        return _header(scope, name) == header[1]
    return False


def origin_allowed(scope: dict[str, Any]) -> bool:
    origin = _header(scope, b"origin")
    if not origin or origin == "null":
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    host = _header(scope, b"host")
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return origin == f"{'https' if _https(scope) else 'http'}://{host}"


class SameOriginValidator:
    """ASGI middleware: websockets whose ``Origin`` is not the site's own are refused."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)

"""Who a request comes from: the client's address, the same for pages and websockets.

Behind a proxy every connection comes from the proxy, so the address is read from the header
the proxy sets (``CLIENT_IP_HEADER``, e.g. ``X-Forwarded-For``). Only the right-most entry is
trusted: it is the one our own proxy appended; anything left of it came from the client.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest


def _from_header(value: str) -> str:
    return value.rsplit(",", 1)[-1].strip()


def _meta_key(header: str) -> str:
    return "HTTP_" + header.upper().replace("-", "_")


def client_address(request: HttpRequest) -> str:
    """The client address of an HTTP request ("" if unknown)."""
    header = settings.CLIENT_IP_HEADER
    if header:
        return _from_header(request.META.get(_meta_key(header), ""))
    return request.META.get("REMOTE_ADDR", "") or ""


def scope_client_address(scope: Mapping[str, Any]) -> str:
    """The client address of an ASGI connection (a websocket's ``scope``)."""
    header = settings.CLIENT_IP_HEADER
    if header:
        wanted = header.lower().encode("latin-1")
        for name, value in scope.get("headers", ()):
            if name.lower() == wanted:
                return _from_header(value.decode("latin-1"))
        return ""
    client = scope.get("client")
    return str(client[0]) if client else ""

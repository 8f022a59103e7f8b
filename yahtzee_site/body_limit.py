"""Request bodies bounded before they are read: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``
is answered 413 without its bytes being looked at.

Django checks the size only once it has the whole body, and before that Twisted (under
Daphne) parses every form body itself (``Request.requestReceived``: ``parse_qs``, unbounded):
a 2.4 MB form cost the server's event loop 0.3 s of CPU before Django refused it (measured
with py-spy). So the limit is kept twice: Daphne's request keeps no more than the limit of a
body (:func:`bound_daphne_bodies`: nothing left for Twisted to parse), and the ASGI app
refuses a declared length over it at once, and a body sent without one (chunked) as soon as
it passes the limit (:class:`BoundedBody`). Under Daphne a declared length over the limit is
answered as soon as the headers are read; what comes of its body after is dropped unparsed
(:func:`linger`) until the connection closes.
In front of the servers a proxy should refuse such bodies before they reach them at all
(nginx: ``client_max_body_size``).
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Room for the form's other fields and encoding beyond Django's own limit (which counts the
#: body without the files, and stays the precise check).
SLACK = 16 * 1024


class BodyTooLarge(Exception):
    pass


class BoundedBody:
    """ASGI middleware for HTTP: refuse (413) a body larger than the site takes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    @staticmethod
    def limit() -> int | None:
        most = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return None if most is None else most + SLACK

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.limit()
        if scope["type"] != "http" or limit is None:
            await self.app(scope, receive, send)
            return
        declared = next((value for name, value in scope.get("headers", ())
                         if name.lower() == b"content-length"), None)
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _refuse(send)
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, bounded, send)
        except BodyTooLarge:
            await _refuse(send)


TOO_LARGE_BODY = b"Request body too large.\n"
#: The same answer, written straight to the connection before its body is read (Daphne).
TOO_LARGE_RESPONSE = (b"HTTP/1.1 413 Request Entity Too Large\r\n"
                      b"Content-Type: text/plain; charset=utf-8\r\n"
                      b"Content-Length: %d\r\nConnection: close\r\n\r\n"
                      % len(TOO_LARGE_BODY)) + TOO_LARGE_BODY


async def _refuse(send: Send) -> None:
    body = TOO_LARGE_BODY
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class _Capped(io.BytesIO):
    """A request body kept up to ``limit`` bytes: past it, nothing is kept and nothing is read
    back (the request is refused for its size; nobody parses it)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit, self.overflowed = limit, False

    def write(self, data: Any) -> int:
        if not self.overflowed and self.tell() + len(data) > self.limit:
            self.overflowed = True
            self.seek(0)
            self.truncate()
        return len(data) if self.overflowed else super().write(data)

    def read(self, size: int | None = -1) -> bytes:
        return b"" if self.overflowed else super().read(size)


#: How long a connection answered 413 before its body came may still send it (dropped).
LINGER_SECONDS = 2.0


def linger(channel: Any) -> None:
    """Answer 413 on a Twisted HTTP channel, close our side, drop what the client still
    sends, and close the connection once it is done or after ``LINGER_SECONDS``."""
    from twisted.internet import reactor

    transport = channel.transport
    transport.write(TOO_LARGE_RESPONSE)
    channel.dataReceived = lambda data: None  # the rest of the body: not parsed, not kept
    transport.loseWriteConnection()
    # (the interface's stub is read without its self: mypy sees the arguments shifted)
    reactor.callLater(LINGER_SECONDS, transport.loseConnection)  # type: ignore[arg-type]


def bound_daphne_bodies() -> None:
    """Daphne's requests keep at most the site's limit of a body (see the module's
    docstring); nothing if Daphne does not serve this process."""
    try:
        from daphne import http_protocol  # type: ignore[import-untyped]
    except ImportError:
        return
    base = http_protocol.WebRequest
    if getattr(base, "bounded", False):
        return

    class BoundedWebRequest(base):  # type: ignore[misc, valid-type]
        bounded = True

        def gotLength(self, length: int | None) -> None:  # noqa: N802 - Twisted's name
            limit = BoundedBody.limit()
            if limit is None or (length is not None and length <= limit):
                super().gotLength(length)
                return
            self.content = _Capped(limit)
            if length is not None:
                # Declared too large: answered now, its body never parsed nor kept. The client
                # may still be sending it: closing at once would reset the connection under
                # it and lose the answer (a broken pipe, not a 413). So, as nginx lingers,
                # our side of the connection is closed after the answer, and what still
                # comes is dropped unread for at most LINGER_SECONDS.
                linger(self.channel)

    http_protocol.WebRequest = BoundedWebRequest  # what Daphne's HTTPFactory builds

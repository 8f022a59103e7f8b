"""Handshakes: a path no route matches is refused cleanly, and only the site's own origin
(scheme, host and port) or a trusted one may open a socket."""

from __future__ import annotations

import asyncio
import logging

import pytest
from channels.testing import WebsocketCommunicator

from game.realtime.origin import origin_allowed

pytestmark = pytest.mark.django_db(transaction=True)


def scope(origin: str | None, host: str = "localhost:8000", **extra) -> dict:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return {"type": "websocket", "headers": headers, **extra}


@pytest.mark.parametrize(("origin", "host", "allowed"), [
    ("http://localhost:8000", "localhost:8000", True),
    ("https://localhost:8000", "localhost:8000", False),   # another scheme
    ("http://localhost:8001", "localhost:8000", False),    # another port
    ("http://localhost", "localhost:8000", False),
    ("http://evil.example", "localhost:8000", False),
    ("http://evil.example", "evil.example", False),        # host not allowed
    ("null", "localhost:8000", False),
    (None, "localhost:8000", False),                        # no Origin at all
])
def test_origin_is_compared_as_a_whole(origin, host, allowed):
    assert origin_allowed(scope(origin, host)) is allowed


def test_behind_tls_the_origin_must_be_https(settings):
    settings.ALLOWED_HOSTS = ["yahtzee.example"]
    settings.HTTPS = True
    assert origin_allowed(scope("https://yahtzee.example", "yahtzee.example"))
    assert not origin_allowed(scope("http://yahtzee.example", "yahtzee.example"))


def test_trusted_origins_are_allowed(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example"]
    assert origin_allowed(scope("https://play.example", "internal:8001"))


@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/rooms/UPPER/", "/ws/rooms/abc", "/"])
async def test_an_unknown_path_is_refused_at_the_handshake(path, caplog):
    from yahtzee_site.asgi import application

    comm = WebsocketCommunicator(application, path, headers=[
        (b"origin", b"http://localhost"), (b"host", b"localhost")])
    with caplog.at_level(logging.WARNING):
        connected, _ = await comm.connect(timeout=5)
    assert not connected
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.asyncio
@pytest.mark.parametrize(("origin", "connects"), [
    (b"http://localhost:8000", True), (b"http://localhost:9999", False),
    (b"https://localhost:8000", False)])
async def test_the_app_refuses_other_ports_and_schemes_of_its_own_host(origin, connects):
    from yahtzee_site.asgi import application

    comm = WebsocketCommunicator(application, "/ws/rooms/nosuchroom/", headers=[
        (b"origin", origin), (b"host", b"localhost:8000")])
    connected, code = await comm.connect(timeout=5)
    assert not connected
    # Past the origin check a missing room closes with 4404; before it, Channels' denier.
    assert (code == 4404) is connects


@pytest.mark.asyncio
async def test_sockets_per_session_and_per_address_are_capped(settings):
    from channels.db import database_sync_to_async

    from game import services
    from tests.support.rooms import make_session
    from yahtzee_site.asgi import application

    settings.SOCKETS_PER_SESSION, settings.SOCKETS_PER_ADDRESS = 2, 3
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    session, guest = await database_sync_to_async(make_session)()
    room = await database_sync_to_async(services.create_room)(
        name="Caps", rules="yahtzee", seats=[services.SeatSpec()], host_key=guest)

    async def open_socket(session_key: str | None, address: str) -> tuple[bool, object]:
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
                   (b"x-forwarded-for", address.encode())]
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        comm = WebsocketCommunicator(application, f"/ws/rooms/{room.code}/", headers=headers)
        connected, code = await comm.connect(timeout=5)
        return connected, comm if connected else code

    mine = [await open_socket(session, "203.0.113.1") for _ in range(3)]
    assert [ok for ok, _ in mine] == [True, True, False]  # the session's third tab
    assert mine[2][1] == 4429
    others = [await open_socket(None, "203.0.113.1") for _ in range(2)]
    assert [ok for ok, _ in others] == [True, False]  # the address's fourth socket
    elsewhere = await open_socket(None, "198.51.100.7")
    assert elsewhere[0]
    await mine[0][1].disconnect()  # a tab closes: its place is free again
    again = await open_socket(session, "198.51.100.8")
    assert again[0]
    for ok, comm in (*mine, *others, elsewhere, again):
        if ok:
            await comm.disconnect()
    # Handshakes at the same moment cannot slip past the cap together.
    burst = await asyncio.gather(*(open_socket(session, "192.0.2.9") for _ in range(6)))
    assert 1 <= sum(ok for ok, _ in burst) <= 2, burst
    for ok, comm in burst:
        if ok:
            await comm.disconnect()

"""A Web Push service on loopback, as a browser's would be: it takes the site's POSTs, checks
their VAPID signature (RFC 8292) and decrypts them (RFC 8291, aes128gcm) with the keys of the
"browsers" it made subscriptions for.

    def test_it(push_receiver, player):                   # the fixture; PUSH_ALLOW_LOOPBACK on
        data = push_receiver.subscription_for(player)     # what the browser's toJSON() gives
        services.push.subscribe(player, data)
        services.push.send(player.pk, {...}, tag="game-7")
        assert push_receiver.received == [{..., "tag": "game-7"}]
        push_receiver.answer = 410                        # every endpoint from now on
        push_receiver.answers[data["endpoint"]] = "hang"  # or one endpoint alone

API:

- ``subscription_for(label="")``: a new subscription (a fresh P-256 key pair and a 16-byte
  auth secret, an endpoint ``http://127.0.0.1:<port>/push/<id>``), as the dict
  ``PushSubscription.toJSON()`` gives: ``{"endpoint", "expirationTime": None, "keys":
  {"p256dh", "auth"}}``. ``label`` (a player, a name) only shows in ``deliveries``.
- ``received``: the decrypted payloads (parsed JSON) accepted so far, in arrival order.
- ``deliveries``: every POST, as a :class:`Delivery` (its endpoint, label, status answered,
  decrypted payload, headers, VAPID claims, and what was wrong with it, if anything).
- ``answer``: the status every endpoint answers (201 by default; 404, 410, any status), or
  ``"hang"``: never answer (until the receiver stops). ``answers[endpoint]`` overrides it.
- ``vapid_public_key``: the key the signatures must verify with (the test process's site key
  by default; a Daphne the test started must use the same ``VAPID_PRIVATE_KEY``).
- ``problems``: what failed the checks (a bad signature, a wrong audience, an undecryptable
  body): such a POST is answered 400 (401 for the signature) and not in ``received``.
- ``wait_for(count, timeout=10)``: wait until ``count`` payloads were received.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

HOST = "127.0.0.1"
#: Longest a push message may be (RFC 8030): the receiver refuses more, as services do.
MAX_MESSAGE = 4096


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """One browser's subscription, with the private halves only the browser knows."""

    endpoint: str
    label: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    def to_json(self) -> dict[str, Any]:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}


@dataclass
class Delivery:
    """One POST the receiver got."""

    endpoint: str
    label: str
    status: int | str
    headers: dict[str, str]
    payload: Any = None
    claims: dict[str, Any] = field(default_factory=dict)
    problem: str = ""


class PushReceiver:
    def __init__(self, vapid_public_key: str) -> None:
        self.vapid_public_key = vapid_public_key
        self.answer: int | str = 201
        self.answers: dict[str, int | str] = {}
        self.devices: dict[str, Device] = {}
        self.deliveries: list[Delivery] = []
        self.received: list[Any] = []
        self.problems: list[str] = []
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer((HOST, 0), _handler(self))
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.origin = f"http://{HOST}:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="push-receiver")

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()  # hanging answers end now
        self._server.shutdown()
        self._server.server_close()

    def subscription_for(self, label: object = "") -> dict[str, Any]:
        """A new browser subscription's ``toJSON()`` (see the module's doc)."""
        device = Device(f"{self.origin}/push/{secrets.token_urlsafe(24)}", str(label),
                        ec.generate_private_key(ec.SECP256R1()), secrets.token_bytes(16))
        self.devices[device.endpoint] = device
        return device.to_json()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Any]:
        deadline = time.monotonic() + timeout
        while len(self.received) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(self.received)} push messages within {timeout} s, "
                                     f"not {count}; problems: {self.problems}")
            time.sleep(0.02)
        return self.received

    # --- checking one POST -------------------------------------------------------------

    def check_vapid(self, authorization: str, endpoint: str) -> dict[str, Any]:
        """The JWT's claims, once its signature verified with the site's key; AssertionError
        saying what is wrong otherwise."""
        scheme, _, params = authorization.partition(" ")
        assert scheme == "vapid", f"Authorization scheme {scheme!r}, not vapid (RFC 8292)"
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        assert parts.get("k") == self.vapid_public_key, "signed with another key than the site's"
        header_b64, claims_b64, signature_b64 = parts["t"].split(".")
        header = json.loads(b64url_decode(header_b64))
        assert header.get("alg") == "ES256", f"JWT alg {header.get('alg')!r}"
        signature = b64url_decode(signature_b64)
        assert len(signature) == 64, "an ES256 signature is r and s, 32 bytes each"
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(),
                                                           b64url_decode(parts["k"]))
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"),
                                   int.from_bytes(signature[32:], "big"))
        try:
            key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise AssertionError("the VAPID signature does not verify") from None
        claims = json.loads(b64url_decode(claims_b64))
        origin = "/".join(endpoint.split("/", 3)[:3])
        assert claims.get("aud") == origin, f"aud {claims.get('aud')!r}, not {origin!r}"
        now = time.time()
        assert now < claims.get("exp", 0) <= now + 24 * 3600, "exp not within the next 24 h"
        assert str(claims.get("sub", "")).startswith(("mailto:", "https:")), "no sub"
        return claims

    def decrypt(self, device: Device, body: bytes, encoding: str) -> Any:
        assert encoding == "aes128gcm", f"Content-Encoding {encoding!r}, not aes128gcm"
        assert len(body) <= MAX_MESSAGE, f"{len(body)} bytes, over {MAX_MESSAGE}"
        plain = http_ece.decrypt(body, private_key=device.private_key,
                                 auth_secret=device.auth, version="aes128gcm")
        return json.loads(plain)


def _handler(receiver: PushReceiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            endpoint = receiver.origin + self.path
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(min(length, MAX_MESSAGE + 1))
            headers = {k.lower(): v for k, v in self.headers.items()}
            device = receiver.devices.get(endpoint)
            answer = receiver.answers.get(endpoint, receiver.answer)
            delivery = Delivery(endpoint, device.label if device else "", answer, headers)
            with receiver._lock:
                receiver.deliveries.append(delivery)
            if answer == "hang":
                receiver._stopping.wait()
                return
            status = int(answer)
            try:
                assert device is not None, f"no subscription at {endpoint}"
                try:
                    delivery.claims = receiver.check_vapid(headers.get("authorization", ""),
                                                           endpoint)
                except (AssertionError, KeyError, ValueError) as exc:
                    status = 401
                    raise AssertionError(f"VAPID: {exc}") from None
                assert headers.get("ttl", "").isdigit(), "no TTL header"
                delivery.payload = receiver.decrypt(device, body,
                                                    headers.get("content-encoding", ""))
            except Exception as exc:  # noqa: BLE001 - any fault is the sender's, reported
                delivery.problem = str(exc)
                with receiver._lock:
                    receiver.problems.append(str(exc))
                status = status if status == 401 else 400
            else:
                if 200 <= status < 300:
                    with receiver._lock:
                        receiver.received.append(delivery.payload)
            delivery.status = status
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler


@pytest.fixture
def push_receiver(settings) -> Iterator[PushReceiver]:
    """A push service on loopback for one test; the site may send to it
    (``PUSH_ALLOW_LOOPBACK`` on)."""
    from game.services import push

    settings.PUSH_ALLOW_LOOPBACK = True
    receiver = PushReceiver(push.public_key())
    receiver.start()
    yield receiver
    receiver.stop()

"""Web Push: the devices a person asked to be notified on, and sending them a notice.

A browser that allows notifications subscribes with its push service (Google's for Chrome,
Mozilla's, Apple's, Microsoft's) and hands us ``PushSubscription.toJSON()``: an endpoint URL on
that service and two keys. To notify, the server encrypts the notice for that browser alone
(RFC 8291, aes128gcm) and POSTs it to the endpoint, signed with the site's VAPID key (RFC 8292)
so the push service knows the site the browser subscribed for.

What a client sends is checked before anything is stored, for the server will later POST to
that URL: its size before it is parsed, its exact shape, an endpoint on https on one of
``settings.PUSH_SERVICE_HOSTS`` (never an address of the server's own network), keys that are
a P-256 point and a 16-byte secret. An endpoint known already, under another person, moves to
the one who sent it only if the keys sent are the stored ones (the same browser, now another
player on it: a sign-in, a new guest after a sign-out); a forged one with other keys changes
nothing. Each person keeps at most ``PUSH_SUBSCRIPTIONS_PER_PLAYER`` devices (a new one past it
replaces the oldest).

``send`` never raises for a push service's failure: a dead or slow service costs at most
``PUSH_TIMEOUT`` seconds, all of a person's devices being sent to at once; an answer 404 or 410
(the browser unsubscribed, the subscription expired) deletes that subscription.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import json
import logging
import re
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..models import Player, PushSubscription
from .errors import ServiceError, gettext_noop
from .limits import check_rate_limit

if TYPE_CHECKING:
    from py_vapid import Vapid02

log = logging.getLogger(__name__)

#: The largest body a browser's subscription is read from: its endpoint (at most the
#: model's 1024 characters), two keys and the JSON around them fit in far less.
MAX_BODY = 2048
ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length or 1024
#: A P-256 public key as an uncompressed point (0x04, x, y) and the auth secret (RFC 8291).
P256DH_BYTES = 65
AUTH_BYTES = 16
#: The largest notice: a push message carries at most 4096 bytes (RFC 8030), of which
#: aes128gcm's header (86), its tag (16) and the padding delimiter (1) take 103.
MAX_PAYLOAD = 4096 - 103
#: How long a push service keeps a notice for a device that is off (seconds).
DEFAULT_TTL = 24 * 3600

# The endpoint is matched whole by this pattern rather than parsed: what a URL parser reads
# and what the HTTP client connects to must never differ (a backslash, a user name before
# "@", spaces and control characters have fooled parsers before). Host names only, lower
# case; an IP literal is allowed on loopback alone (checked below).
_ENDPOINT = re.compile(
    r"(?P<scheme>https?)://"
    r"(?P<host>[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*"
    r"|\[::1\])"
    r"(?::(?P<port>[0-9]{1,5}))?"
    r"(?P<path>/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*)"
    r"(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


def _refused(code: str, template: str, **params: Any) -> ServiceError:
    return ServiceError(code, template, params)


# --- the site's key -------------------------------------------------------------------------

@cache
def _vapid(private_key: str) -> Vapid02:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid02

    text = private_key.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) \
                or not isinstance(key.curve, ec.SECP256R1):
            raise ValueError("VAPID_PRIVATE_KEY must be a P-256 (prime256v1) key")
        return Vapid02(key)
    raw = _b64decode(text)
    if raw is None or len(raw) != 32:
        raise ValueError("VAPID_PRIVATE_KEY must be the base64url of 32 bytes, or PEM")
    return Vapid02(ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1()))


def vapid() -> Vapid02:
    """The site's VAPID key (``settings.VAPID_PRIVATE_KEY``)."""
    return _vapid(settings.VAPID_PRIVATE_KEY)


def public_key() -> str:
    """The site's VAPID public key as browsers take it (``applicationServerKey``): the
    base64url, unpadded, of the uncompressed P-256 point (65 bytes)."""
    from cryptography.hazmat.primitives import serialization

    point = vapid().public_key.public_bytes(serialization.Encoding.X962,
                                            serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


# --- subscribing ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Subscription:
    """A browser's subscription, checked: what ``subscribe`` stores."""

    endpoint: str
    p256dh: str
    auth: str


def _b64decode(text: str) -> bytes | None:
    if not _BASE64URL.fullmatch(text):
        return None
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def _host_allowed(host: str) -> bool:
    for pattern in settings.PUSH_SERVICE_HOSTS:
        pattern = pattern.strip().lower()
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) and len(host) > len(pattern) - 1:
                return True
        elif host == pattern:
            return True
    return False


def _loopback(host: str) -> bool:
    if host in ("localhost", "[::1]"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(endpoint: object) -> str:
    """``endpoint`` if the server may POST to it (https on a push service's host; loopback
    too with ``PUSH_ALLOW_LOOPBACK``), else ServiceError ``push_endpoint``."""
    bad = _refused("push_endpoint",
                   gettext_noop("This browser’s push service is not one this site sends to."))
    if not isinstance(endpoint, str) or len(endpoint) > ENDPOINT_MAX:
        raise bad
    match = _ENDPOINT.fullmatch(endpoint)
    if match is None:
        raise bad
    host, port = match["host"], match["port"]
    if settings.PUSH_ALLOW_LOOPBACK and _loopback(host):
        if port is not None and not 0 < int(port) < 65536:
            raise bad
        return endpoint
    # A push service's host by name (an IP literal never is one), https on its usual port.
    if match["scheme"] != "https" or port not in (None, "443") or not _host_allowed(host) \
            or re.fullmatch(r"[0-9.]+", host):
        raise bad
    return endpoint


def too_large() -> ServiceError:
    """The refusal of a body over ``MAX_BODY``."""
    return _refused("push_too_large",
                    gettext_noop("That subscription is too large (at most %(limit)d bytes)."),
                    limit=MAX_BODY)


def not_a_subscription() -> ServiceError:
    """The refusal of anything but a browser's subscription (or, to unsubscribe, its
    endpoint)."""
    return _refused("push_bad", gettext_noop("That is not a browser’s push subscription."))


def parse_subscription(data: bytes | str | Mapping[str, Any]) -> Subscription:
    """A browser's ``PushSubscription.toJSON()`` (the request's raw body, or parsed), checked;
    ServiceError ``push_too_large``, ``push_bad``, ``push_endpoint`` otherwise."""
    if isinstance(data, bytes | str):
        if len(data) > MAX_BODY:  # counted before anything reads it
            raise too_large()
        try:
            parsed: object = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            parsed = None
    else:
        parsed = data
    bad = not_a_subscription()
    if not isinstance(parsed, Mapping) or not isinstance(parsed.get("keys"), Mapping):
        raise bad
    keys = parsed["keys"]
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str) \
            or len(p256dh) > 100 or len(auth) > 30:
        raise bad
    point, secret = _b64decode(p256dh), _b64decode(auth)
    if point is None or secret is None or len(point) != P256DH_BYTES or point[0] != 4 \
            or len(secret) != AUTH_BYTES or not _on_curve(point):
        raise bad
    endpoint = check_endpoint(parsed.get("endpoint"))
    # Stored as browsers write them (unpadded), so that a browser's repeat compares equal.
    return Subscription(endpoint, p256dh.rstrip("="), auth.rstrip("="))


def _on_curve(point: bytes) -> bool:
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return True


def subscribe(player: Player, data: bytes | str | Mapping[str, Any], *, address: str = "",
              ) -> PushSubscription:
    """Store the subscription ``data`` (``PushSubscription.toJSON()``, raw or parsed) as one
    of ``player``'s devices, and turn their device notices on.

    Counted against ``PUSH_CHANGES_PER_HOUR`` (per player, five times that per ``address``)
    before anything is read. The same endpoint again updates it; an endpoint of another
    person moves to ``player`` only with the keys stored for it (``push_taken`` otherwise).
    Past ``PUSH_SUBSCRIPTIONS_PER_PLAYER`` devices, the oldest goes."""
    check_rate_limit("push", session=f"player{player.pk}", address=address)
    checked = parse_subscription(data)
    with transaction.atomic():
        row = PushSubscription.objects.select_for_update().filter(
            endpoint=checked.endpoint).first()
        if row is not None and row.player_id != player.pk \
                and (row.p256dh, row.auth) != (checked.p256dh, checked.auth):
            raise _refused("push_taken", gettext_noop(
                "That push subscription belongs to another browser."))
        if row is None:
            row = PushSubscription.objects.create(
                player=player, endpoint=checked.endpoint, p256dh=checked.p256dh,
                auth=checked.auth)
        else:
            # Subscribed anew: the newest of this person's devices, whoever had it before.
            row.player, row.p256dh, row.auth = player, checked.p256dh, checked.auth
            row.created = timezone.now()
            row.save(update_fields=["player", "p256dh", "auth", "created"])
        keep_newest(player.pk)
        if not player.notify_push:
            Player.objects.filter(pk=player.pk).update(notify_push=True)
            player.notify_push = True
    return row


def keep_newest(player_id: int) -> int:
    """Delete ``player_id``'s subscriptions past ``PUSH_SUBSCRIPTIONS_PER_PLAYER``, oldest
    first; how many went."""
    cap = max(settings.PUSH_SUBSCRIPTIONS_PER_PLAYER, 1)
    extra = list(PushSubscription.objects.filter(player_id=player_id)
                 .order_by("-created", "-id").values_list("id", flat=True)[cap:])
    if extra:
        PushSubscription.objects.filter(id__in=extra).delete()
    return len(extra)


def unsubscribe(player: Player, endpoint: object, *, address: str = "") -> bool:
    """Forget ``player``'s subscription at ``endpoint``; whether there was one (another
    person's is left alone). Counted as ``subscribe`` is."""
    check_rate_limit("push", session=f"player{player.pk}", address=address)
    if not isinstance(endpoint, str) or len(endpoint) > ENDPOINT_MAX:
        return False
    deleted, _ = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return deleted > 0


# --- sending ------------------------------------------------------------------------------

def _topic(tag: str) -> str:
    # A push service keeps one waiting message per topic for a device that is off (RFC 8030
    # 5.4): a game's next notice replaces the last. 32 characters of base64url at most.
    return base64.urlsafe_b64encode(hashlib.sha256(tag.encode()).digest()).decode()[:32]


def _post(row: PushSubscription, body: bytes, ttl: int, topic: str) -> int | None:
    """POST ``body`` to ``row``'s endpoint; the push service's status, None if it gave none
    in time (or refused the connection)."""
    import requests
    from pywebpush import WebPushException, webpush

    scheme, _, authority, _path = row.endpoint.split("/", 3)
    if scheme == "https:" and authority.endswith(":443"):
        authority = authority[:-4]
    session = requests.Session()
    session.max_redirects = 0  # a push service does not redirect; nowhere else is posted to
    try:
        response = webpush(
            {"endpoint": row.endpoint, "keys": {"p256dh": row.p256dh, "auth": row.auth}},
            data=body,  # bytes are sent as they are
            vapid_private_key=vapid(),
            # A fresh dict each time: webpush writes the audience and expiry into it.
            vapid_claims={"sub": settings.VAPID_SUBJECT, "aud": f"{scheme}//{authority}"},
            ttl=ttl, timeout=settings.PUSH_TIMEOUT,
            headers={"Topic": topic, "Urgency": "normal"},
            requests_session=session)
        return int(response.status_code)
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status not in (404, 410):
            log.warning("push to %s refused: %s %s", _host_of(row), status,
                        (exc.response.text[:200] if exc.response is not None else exc))
        return status
    except requests.RequestException as exc:
        log.warning("push to %s failed: %s", _host_of(row), exc.__class__.__name__)
        return None
    finally:
        session.close()


def _host_of(row: PushSubscription) -> str:
    # Logged instead of the endpoint: the endpoint is the device's secret address.
    return row.endpoint.split("/", 3)[2]


def send(player_id: int, payload: Mapping[str, Any], *, tag: str,
         ttl: int = DEFAULT_TTL) -> int:
    """Send ``payload`` (``{"title", "body", "url"}``; ``tag`` is added) to each of the
    player's subscribed devices at once; how many push services accepted it.

    The service worker shows it as a notification with ``tag``, replacing the last one of the
    same tag (one per game). ``ttl``: seconds a push service keeps it for a device that is
    off. Blocks for at most about ``PUSH_TIMEOUT`` seconds (call it from a thread of its own,
    never on a move's path); answers 404 and 410 delete that subscription, other failures
    are logged. ValueError for a payload too large for a push message."""
    body = json.dumps({**payload, "tag": tag}, ensure_ascii=False,
                      separators=(",", ":")).encode()
    if len(body) > MAX_PAYLOAD:
        raise ValueError(f"a push payload holds at most {MAX_PAYLOAD} bytes, not {len(body)}")
    rows = list(PushSubscription.objects.filter(player_id=player_id).order_by("id"))
    if not rows:
        return 0
    topic = _topic(tag)
    with ThreadPoolExecutor(max_workers=len(rows), thread_name_prefix="push") as pool:
        statuses = list(pool.map(lambda row: _post(row, body, ttl, topic), rows))
    gone = [row.pk for row, status in zip(rows, statuses, strict=True) if status in (404, 410)]
    sent = [row.pk for row, status in zip(rows, statuses, strict=True)
            if status is not None and 200 <= status < 300]
    if gone:
        PushSubscription.objects.filter(pk__in=gone).delete()
    if sent:
        PushSubscription.objects.filter(pk__in=sent).update(last_sent=timezone.now())
    return len(sent)

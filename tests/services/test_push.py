"""Web Push, against a real push service on loopback (tests/support/push_receiver.py) that
checks the VAPID signature and decrypts every message with the browser's keys: what a client
may subscribe (every refusal, and that a refusal changes nothing), and sending (the payload
arrives as sent, a gone subscription is deleted, a hanging service costs only the timeout)."""

from __future__ import annotations

import base64
import json
import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from game.models import Player, PushSubscription
from game.services import ServiceError, new_player, push
from tests.yahtzee_site.test_settings import settings_value

pytestmark = pytest.mark.django_db

PAYLOAD = {"title": "Your turn", "body": "Ann scored 25 in Full house.", "url": "/r/abc123/"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def browser_keys() -> dict[str, str]:
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": b64url(point), "auth": b64url(bytes(range(16)))}


def fcm(suffix: str = "abc") -> str:
    return f"https://fcm.googleapis.com/fcm/send/{suffix}:APA91bH-x_y"


def refused(player: Player, data: object) -> str:
    with pytest.raises(ServiceError) as caught:
        push.subscribe(player, data)  # type: ignore[arg-type]
    assert caught.value.message  # a sentence people can read
    return caught.value.code


# --- subscribing -------------------------------------------------------------------------------

def test_a_browser_subscription_is_stored_and_turns_device_notices_on():
    player = new_player("Ann")
    Player.objects.filter(pk=player.pk).update(notify_push=False)
    player.refresh_from_db()
    keys = browser_keys()
    body = json.dumps({"endpoint": fcm(), "expirationTime": None, "keys": keys}).encode()
    row = push.subscribe(player, body)
    assert (row.player_id, row.endpoint, row.p256dh, row.auth) == (
        player.pk, fcm(), keys["p256dh"], keys["auth"])
    assert Player.objects.get(pk=player.pk).notify_push
    # The same browser again (every page load may re-send it): still one row.
    push.subscribe(player, body)
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize("endpoint", [
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
    "https://web.push.apple.com/QGuQyavXutnMXoB8y2Q",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
    "https://fcm.googleapis.com:443/fcm/send/abc",
])
def test_every_browsers_push_service_is_accepted(endpoint):
    push.subscribe(new_player(), {"endpoint": endpoint, "keys": browser_keys()})


@pytest.mark.parametrize("endpoint", [
    "http://fcm.googleapis.com/fcm/send/abc",                 # not https
    "https://evil.example/fcm/send/abc",                      # not a push service
    "https://fcm.googleapis.com.evil.example/send/abc",       # a push service's name inside
    "https://evilpush.apple.com/abc",                         # not under push.apple.com
    "https://push.apple.com/abc",                             # the parent itself
    "https://fcm.googleapis.com@evil.example/abc",            # a user name: another host
    "https://fcm.googleapis.com\\@evil.example/abc",          # parsers disagree on "\"
    "https://fcm.googleapis.com:8443/fcm/send/abc",           # another port
    "https://FCM.googleapis.com/fcm/send/abc",                # not as a browser writes it
    "https://fcm.googleapis.com/fcm send/abc",                # a space
    "https://fcm.googleapis.com/fcm/send/abc#x",              # a fragment
    "https://10.0.0.7/fcm/send/abc",                          # the server's own network
    "https://169.254.169.254/latest/meta-data/",              # a cloud's metadata service
    "http://127.0.0.1:8000/admin/",                           # loopback, not allowed here
    "https://localhost/push",
    "https://[::1]/push",
    "https://" + "a" * 63 + ".push.apple.com/" + "x" * 1000,  # longer than the column
    "",
    None,
    42,
])
def test_an_endpoint_off_the_push_services_is_refused(endpoint):
    player = new_player()
    assert refused(player, {"endpoint": endpoint, "keys": browser_keys()}) == "push_endpoint"
    assert not PushSubscription.objects.exists()


def test_loopback_is_allowed_only_when_a_test_says_so(settings):
    data = {"endpoint": "http://127.0.0.1:8123/push/abc", "keys": browser_keys()}
    assert refused(new_player(), data) == "push_endpoint"
    settings.PUSH_ALLOW_LOOPBACK = True
    push.subscribe(new_player(), data)
    # Loopback only: other private addresses stay refused.
    for endpoint in ("http://10.0.0.7/push", "http://192.168.1.1/push", "http://127.1/push"):
        assert refused(new_player(), {"endpoint": endpoint, "keys": browser_keys()}) \
            == "push_endpoint"


def test_a_body_too_large_is_refused_before_it_is_parsed():
    # Not JSON at all past the limit: had it been parsed, the refusal would be push_bad.
    assert refused(new_player(), b"{" * (push.MAX_BODY + 1)) == "push_too_large"
    big = json.dumps({"endpoint": fcm(), "keys": browser_keys(), "pad": "x" * push.MAX_BODY})
    assert refused(new_player(), big) == "push_too_large"


def point(prefix: bytes, size: int) -> str:
    return b64url(prefix + bytes(size - len(prefix)))


@pytest.mark.parametrize("data", [
    b"not json",
    b"[]",
    b'"a string"',
    {"endpoint": fcm()},                                            # no keys
    {"endpoint": fcm(), "keys": []},
    {"endpoint": fcm(), "keys": {"p256dh": browser_keys()["p256dh"]}},
    {"endpoint": fcm(), "keys": {"auth": browser_keys()["auth"]}},
    {"endpoint": fcm(), "keys": {**browser_keys(), "auth": b64url(bytes(15))}},
    {"endpoint": fcm(), "keys": {**browser_keys(), "auth": b64url(bytes(17))}},
    {"endpoint": fcm(), "keys": {**browser_keys(), "auth": "not base64!"}},
    {"endpoint": fcm(), "keys": {**browser_keys(), "auth": 12}},
    {"endpoint": fcm(), "keys": {**browser_keys(), "p256dh": point(b"\x04", 64)}},
    {"endpoint": fcm(), "keys": {**browser_keys(), "p256dh": point(b"\x02", 33)}},  # compressed
    {"endpoint": fcm(), "keys": {**browser_keys(), "p256dh": point(b"\x05", 65)}},
    {"endpoint": fcm(), "keys": {**browser_keys(), "p256dh": point(b"\x04\x01", 65)}},  # off curve
    {"endpoint": fcm(), "keys": {**browser_keys(), "p256dh": "x" * 101}},
], ids=lambda d: repr(d)[:60])
def test_keys_of_the_wrong_shape_are_refused(data):
    assert refused(new_player(), data) == "push_bad"
    assert not PushSubscription.objects.exists()


def test_an_endpoint_of_another_player_moves_only_with_its_keys():
    ann, eve, bob = new_player("Ann"), new_player("Eve"), new_player("Bob")
    keys = browser_keys()
    push.subscribe(ann, {"endpoint": fcm(), "keys": keys})
    # Eve learned the endpoint, not the browser's keys: nothing changes.
    assert refused(eve, {"endpoint": fcm(), "keys": browser_keys()}) == "push_taken"
    row = PushSubscription.objects.get()
    assert (row.player_id, row.p256dh) == (ann.pk, keys["p256dh"])
    # The same browser with another player on it (signed in, or a new guest): it moves.
    push.subscribe(bob, {"endpoint": fcm(), "keys": keys})
    assert PushSubscription.objects.get().player_id == bob.pk


def test_a_person_keeps_their_newest_devices_up_to_the_cap(settings):
    settings.PUSH_SUBSCRIPTIONS_PER_PLAYER = 3
    player = new_player()
    for n in range(5):
        push.subscribe(player, {"endpoint": fcm(str(n)), "keys": browser_keys()})
    assert sorted(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        fcm("2"), fcm("3"), fcm("4")]


def test_subscribing_is_rate_limited(settings):
    settings.PUSH_CHANGES_PER_HOUR = 2
    player = new_player()
    for n in range(2):
        push.subscribe(player, {"endpoint": fcm(str(n)), "keys": browser_keys()})
    assert refused(player, {"endpoint": fcm("2"), "keys": browser_keys()}) == "rate_limited"
    assert PushSubscription.objects.count() == 2


def test_one_unsubscribes_only_ones_own():
    ann, eve = new_player(), new_player()
    push.subscribe(ann, {"endpoint": fcm(), "keys": browser_keys()})
    assert not push.unsubscribe(eve, fcm())
    assert not push.unsubscribe(ann, fcm("other"))
    assert PushSubscription.objects.count() == 1
    assert push.unsubscribe(ann, fcm())
    assert not PushSubscription.objects.exists()


def test_a_guests_devices_follow_them_into_their_account():
    from game.services import merge_players

    guest, account = new_player("Guest"), new_player("Account")
    push.subscribe(guest, {"endpoint": fcm("phone"), "keys": browser_keys()})
    merge_players(guest, account)
    assert PushSubscription.objects.get().player_id == account.pk


# --- the site's key ------------------------------------------------------------------------

def test_the_public_key_is_the_private_keys_uncompressed_point(settings):
    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    expected = b64url(key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    settings.VAPID_PRIVATE_KEY = b64url(raw)
    assert push.public_key() == expected
    assert len(base64.urlsafe_b64decode(expected + "=")) == 65
    settings.VAPID_PRIVATE_KEY = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()
    assert push.public_key() == expected


def test_without_a_vapid_key_one_is_generated_once_readable_by_its_owner(tmp_path):
    first = settings_value("VAPID_PRIVATE_KEY", tmp_path)
    assert len(base64.urlsafe_b64decode(first + "=")) == 32
    assert settings_value("VAPID_PRIVATE_KEY", tmp_path) == first
    assert (tmp_path / "vapid_private_key").stat().st_mode & 0o777 == 0o600
    assert settings_value("VAPID_PRIVATE_KEY", tmp_path, VAPID_PRIVATE_KEY="$given") == "$given"
    assert settings_value("VAPID_SUBJECT", tmp_path,
                          DEFAULT_FROM_EMAIL="Yahtzee <games@example.org>") \
        == "mailto:games@example.org"


# --- sending -------------------------------------------------------------------------------

def test_a_notice_arrives_decrypted_as_sent_on_every_device(push_receiver):
    player = new_player("Ann")
    phone, laptop = (push_receiver.subscription_for("phone"),
                     push_receiver.subscription_for("laptop"))
    push.subscribe(player, phone)
    push.subscribe(player, json.dumps(laptop))
    push.subscribe(new_player("Bob"), push_receiver.subscription_for("Bob's"))

    started = time.monotonic()
    assert push.send(player.pk, PAYLOAD, tag="game-7", ttl=600) == 2
    elapsed = time.monotonic() - started

    assert push_receiver.problems == []
    assert push_receiver.received == [{**PAYLOAD, "tag": "game-7"}] * 2
    assert sorted(d.label for d in push_receiver.deliveries) == ["laptop", "phone"]
    first = push_receiver.deliveries[0]
    assert first.headers["ttl"] == "600"
    assert first.headers["urgency"] == "normal"
    # One waiting message per game at the push service: the topic is the tag's, 32 chars.
    assert len(first.headers["topic"]) == 32
    assert first.claims["sub"] == "mailto:noreply@localhost"
    assert all(row.last_sent for row in PushSubscription.objects.filter(player=player))
    # How long it took is a figure, not a check: on a loaded machine a send on loopback has
    # taken 3 s. That no device waited for the timeout is the hanging service's test below.
    print(f"\nsend to 2 devices on loopback: {elapsed * 1000:.0f} ms")


def test_non_ascii_words_arrive_whole(push_receiver):
    player = new_player()
    push.subscribe(player, push_receiver.subscription_for(player))
    words = {"title": "Din tur – Ärlig tärning", "body": "Æ ø å ß é 🎲", "url": "/r/x/"}
    assert push.send(player.pk, words, tag="t") == 1
    assert push_receiver.received == [{**words, "tag": "t"}]


@pytest.mark.parametrize("status", [404, 410])
def test_a_gone_subscription_is_deleted(push_receiver, status):
    player = new_player()
    push.subscribe(player, push_receiver.subscription_for("gone"))
    kept = push_receiver.subscription_for("kept")
    push.subscribe(player, kept)
    push_receiver.answers[PushSubscription.objects.order_by("id").first().endpoint] = status
    assert push.send(player.pk, PAYLOAD, tag="game-1") == 1
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) \
        == [kept["endpoint"]]


def test_another_failure_keeps_the_subscription_and_is_logged(push_receiver, caplog):
    player = new_player()
    push.subscribe(player, push_receiver.subscription_for())
    push_receiver.answer = 500
    assert push.send(player.pk, PAYLOAD, tag="game-1") == 0
    assert PushSubscription.objects.filter(player=player, last_sent=None).count() == 1
    assert "push to 127.0.0.1" in caplog.text and "500" in caplog.text
    assert "/push/" not in caplog.text  # the endpoint is the device's secret: never logged


def test_a_hanging_push_service_delays_the_others_by_nothing_past_the_timeout(
        push_receiver, settings, caplog):
    settings.PUSH_TIMEOUT = 0.5
    player = new_player()
    hanging = push_receiver.subscription_for("hanging")
    push.subscribe(player, hanging)
    push.subscribe(player, push_receiver.subscription_for("fine"))
    push_receiver.answers[hanging["endpoint"]] = "hang"
    started = time.monotonic()
    assert push.send(player.pk, PAYLOAD, tag="game-1") == 1
    elapsed = time.monotonic() - started
    assert push_receiver.received == [{**PAYLOAD, "tag": "game-1"}]
    # Waited for the timeout, not for the service: without the timeout the send would hang
    # until the test's own (minutes). The bound leaves room for a loaded machine.
    assert 0.5 <= elapsed < 5, f"{elapsed:.2f} s"
    assert PushSubscription.objects.filter(player=player).count() == 2  # not gone: slow
    assert "ReadTimeout" in caplog.text
    print(f"\nsend with one hanging service (timeout 0.5 s): {elapsed * 1000:.0f} ms")


def test_nobody_subscribed_costs_nothing(push_receiver):
    assert push.send(new_player().pk, PAYLOAD, tag="t") == 0
    assert push_receiver.deliveries == []


def test_a_payload_over_a_push_messages_size_is_refused(push_receiver):
    player = new_player()
    push.subscribe(player, push_receiver.subscription_for())
    with pytest.raises(ValueError, match="at most"):
        push.send(player.pk, {**PAYLOAD, "body": "x" * 4000}, tag="t")
    # The largest that fits arrives (a push service takes 4096 bytes at most).
    fits = push.MAX_PAYLOAD - len(json.dumps({**PAYLOAD, "body": "", "tag": "t"},
                                             separators=(",", ":")))
    assert push.send(player.pk, {**PAYLOAD, "body": "x" * fits}, tag="t") == 1
    assert push_receiver.problems == []

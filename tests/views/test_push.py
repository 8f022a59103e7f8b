"""The pages' Web Push endpoints (docs/protocol.md, "Web Push"): JSON in, JSON out, CSRF
checked, every refusal a code, a sentence in the reader's language and an HTTP status; and the
installable site's manifest, service worker and offline page."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from game.models import Player, PushSubscription
from game.services import push
from game.web.players import COOKIE
from tests.services.test_push import browser_keys, fcm

pytestmark = pytest.mark.django_db


@pytest.fixture
def player_client() -> tuple[Client, Player]:
    player = Player.objects.create(name="Ann")
    client = Client(enforce_csrf_checks=True)
    client.cookies[COOKIE] = player.token
    client.get("/")  # the CSRF cookie, as a page gives it
    return client, player


def post(client: Client, name: str, body: bytes | str | dict, **extra) -> object:
    data = body if isinstance(body, bytes | str) else json.dumps(body)
    return client.post(reverse(name), data, content_type="application/json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value, **extra)


def test_the_public_key_is_given_as_json(client):
    response = client.get(reverse("game:push_key"))
    assert response.status_code == 200
    assert response.json() == {"key": push.public_key()}
    assert "no-cache" in response["Cache-Control"]


def test_a_player_subscribes_and_unsubscribes_this_browser(player_client):
    client, player = player_client
    data = {"endpoint": fcm(), "expirationTime": None, "keys": browser_keys()}
    response = post(client, "game:push_subscribe", data)
    assert (response.status_code, response.json()) == (201, {"subscribed": True})
    assert PushSubscription.objects.get().player_id == player.pk
    response = post(client, "game:push_unsubscribe", {"endpoint": fcm()})
    assert response.json() == {"removed": True}
    assert post(client, "game:push_unsubscribe", {"endpoint": fcm()}).json() == {"removed": False}


def test_without_the_csrf_token_nothing_changes_and_the_answer_is_json(player_client):
    client, _player = player_client
    data = {"endpoint": fcm(), "keys": browser_keys()}
    response = client.post(reverse("game:push_subscribe"), json.dumps(data),
                           content_type="application/json")
    assert response.status_code == 403
    assert response.json()["error"] == "csrf"
    assert not PushSubscription.objects.exists()
    # Elsewhere Django's own page, as before.
    other = client.post(reverse("game:set_name"), {"player_name": "Bob"})
    assert other.status_code == 403 and other["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"endpoint": "https://evil.example/x", "keys": "k"}, 400, "push_bad"),
    ({"endpoint": "https://evil.example/x"}, 400, "push_bad"),
    ("not json", 400, "push_bad"),
    ({"endpoint": "http://127.0.0.1:8000/admin/", "keys": browser_keys()}, 400, "push_endpoint"),
    ({"endpoint": fcm(), "keys": browser_keys(), "pad": "x" * 3000}, 413, "push_too_large"),
])
def test_refusals_say_why_with_a_status(player_client, body, status, code):
    client, _player = player_client
    response = post(client, "game:push_subscribe", body)
    assert response.status_code == status
    assert response.json()["error"] == code
    assert response.json()["message"]
    assert not PushSubscription.objects.exists()


def test_a_refusal_is_in_the_readers_language(player_client):
    client, _player = player_client
    response = post(client, "game:push_subscribe", {"endpoint": "https://evil.example/x",
                                                    "keys": browser_keys()},
                    HTTP_ACCEPT_LANGUAGE="de")
    assert response.json()["error"] == "push_endpoint"
    assert response.json()["message"] != str(push.check_endpoint.__doc__)
    english = post(client, "game:push_subscribe", {"endpoint": "https://evil.example/x",
                                                   "keys": browser_keys()})
    assert response.json()["message"] != english.json()["message"]


def test_someone_elses_endpoint_is_a_conflict(player_client):
    client, _player = player_client
    push.subscribe(Player.objects.create(name="Eve"), {"endpoint": fcm(), "keys": browser_keys()})
    response = post(client, "game:push_subscribe", {"endpoint": fcm(), "keys": browser_keys()})
    assert (response.status_code, response.json()["error"]) == (409, "push_taken")


def test_too_many_is_429(player_client, settings):
    settings.PUSH_CHANGES_PER_HOUR = 1
    client, _player = player_client
    assert post(client, "game:push_subscribe",
                {"endpoint": fcm("1"), "keys": browser_keys()}).status_code == 201
    response = post(client, "game:push_subscribe", {"endpoint": fcm("2"), "keys": browser_keys()})
    assert (response.status_code, response.json()["error"]) == (429, "rate_limited")


def test_a_browser_that_is_no_player_yet_is_told_to_play_first():
    client = Client()
    response = client.post(reverse("game:push_subscribe"),
                           json.dumps({"endpoint": fcm(), "keys": browser_keys()}),
                           content_type="application/json")
    assert (response.status_code, response.json()["error"]) == (403, "no_player")
    assert not Player.objects.exists()  # no row made for a script without a cookie


def test_a_disabled_player_is_refused(player_client):
    client, player = player_client
    Player.objects.filter(pk=player.pk).update(disabled=True)
    response = post(client, "game:push_subscribe", {"endpoint": fcm(), "keys": browser_keys()})
    assert (response.status_code, response.json()["error"]) == (403, "disabled")


def test_only_post_subscribes(player_client):
    client, _player = player_client
    assert client.get(reverse("game:push_subscribe")).status_code == 405


# --- the installable site --------------------------------------------------------------------

def test_every_page_links_the_manifest_and_the_theme_colour(client):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#1d3557"' in html
    assert "game/shared/notify.js" in html


def test_the_manifest_describes_an_installable_app(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="sv")
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["start_url"] == "/" and data["scope"] == "/" and data["id"] == "/"
    assert data["display"] == "standalone"
    assert data["lang"] == "sv" and data["name"] != "Yahtzee with friends"  # translated
    assert data["theme_color"] == "#1d3557" and data["background_color"] == "#f6f4ef"
    assert {(i["sizes"], i["purpose"]) for i in data["icons"]} == {
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}


def test_the_service_worker_is_served_from_the_root_never_from_a_cache(client):
    response = client.get("/sw.js?lang=en")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    first, _, rest = response.content.decode().partition("\n")
    config = json.loads(first.removeprefix("self.swConfig = ").removesuffix(";"))
    assert config["offline"] == "/offline"
    assert config["cache"].startswith("yahtzee-offline-en-")
    assert any(a.endswith("site.css") for a in config["assets"])
    assert 'addEventListener("push"' in rest


def test_the_offline_page_says_so_in_the_readers_language(client):
    response = client.get("/offline", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'lang="fr"' in html and "<script" not in html
    assert "You are offline" not in html

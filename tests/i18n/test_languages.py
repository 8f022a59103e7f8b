"""Which language a page is in: the browser's Accept-Language, the switcher's choice (a
year-long cookie, on every page), a signed-in person's own on every device; a bad choice is
refused with nothing changed. The scripts' catalog follows the page."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from game import services
from game.models import Player
from game.web.languages import language_of_scope
from game.web.players import COOKIE

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
COOKIE_NAME = settings.LANGUAGE_COOKIE_NAME


def page_language(client: Client, path: str = "/", **headers: str) -> str:
    page = client.get(path, **headers).content.decode()
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found, page[:300]
    return found.group(1)


def test_the_browsers_language_is_the_pages():
    client = Client()
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="sv-SE,sv;q=0.9,en;q=0.8") == "sv"
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="de-AT") == "de"
    # Norwegian as browsers send it (no, nb-NO) is Bokmål.
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="nb-NO") == "nb"
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="no") == "nb"
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="ja,zh;q=0.8") == "en"
    assert page_language(client) == "en"


def test_every_page_has_the_switcher_with_every_language(client):
    for path in ["/", "/daily/", "/leaderboard/yahtzee/", "/accounts/login/"]:
        page = client.get(path).content.decode()
        form = page[page.index('class="language-form"'):]
        form = form[:form.index("</form>")]
        codes = re.findall(r'<option value="([a-z-]+)"', form)
        assert codes == [code for code, _name in settings.LANGUAGES], path
        assert 'name="csrfmiddlewaretoken"' in form


def test_the_switcher_remembers_the_choice_for_a_year():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/i18n/language", {"language": "da", "next": "/daily/"})
    assert response.status_code == 302 and response["Location"] == "/daily/"
    cookie = response.cookies[COOKIE_NAME]
    assert cookie.value == "da" and int(cookie["max-age"]) >= 365 * 24 * 3600 - 1
    assert page_language(client) == "da"  # over the browser's English


@pytest.mark.parametrize("form", [
    {"language": "xx"}, {"language": ""}, {}, {"language": "en-us<script>"},
])
def test_a_bad_language_is_refused_and_nothing_changes(form):
    client = Client()
    client.cookies[COOKIE_NAME] = "fr"
    response = client.post("/i18n/language", {**form, "next": "/"})
    assert response.status_code == 400
    with translation.override("fr"):  # said in the language the browser reads
        said = translation.gettext("That language is not one of this site’s.")
    assert response.content.decode() == said != "That language is not one of this site’s."
    assert COOKIE_NAME not in response.cookies
    assert page_language(client) == "fr"


def test_the_switcher_only_goes_back_to_this_site():
    client = Client()
    for next_url in ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]:
        response = client.post("/i18n/language", {"language": "sv", "next": next_url})
        assert response.status_code == 302 and response["Location"] == "/", next_url


def test_the_switcher_wants_a_post(client):
    assert client.get("/i18n/language?language=sv").status_code == 405


def test_an_accounts_language_follows_it_to_every_device():
    users = get_user_model()
    laptop = Client(HTTP_ACCEPT_LANGUAGE="en")
    laptop.post("/name", {"player_name": "Ingrid", "next": "/"})
    guest = Player.objects.get(token=laptop.cookies[COOKIE].value)
    services.claim_player(users.objects.create_user("ingrid", password=PASSWORD), guest)
    laptop.post("/accounts/login/", {"login": "ingrid", "password": PASSWORD})
    laptop.post("/i18n/language", {"language": "nb", "next": "/"})
    assert Player.objects.get(pk=guest.pk).language == "nb"

    phone = Client(HTTP_ACCEPT_LANGUAGE="en-US")
    phone.cookies[COOKIE_NAME] = "fr"  # chosen before signing in on this device
    phone.post("/accounts/login/", {"login": "ingrid", "password": PASSWORD})
    response = phone.get("/")
    assert re.search(r'<html lang="nb"', response.content.decode())
    assert response.cookies[COOKIE_NAME].value == "nb"  # the device's cookie follows

    phone.post("/accounts/logout/")
    phone.cookies[COOKIE_NAME] = "fr"
    assert page_language(phone) == "fr"  # signed out, the device's own choice again


def test_a_guests_choice_stays_on_its_browser():
    client = Client()
    client.post("/name", {"player_name": "Gus", "next": "/"})
    client.post("/i18n/language", {"language": "es", "next": "/"})
    assert Player.objects.get(token=client.cookies[COOKIE].value).language == ""
    assert page_language(client) == "es"


def test_the_scripts_catalog_is_a_script_of_the_pages_language(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    src = re.search(r'<script src="(/i18n/de/([0-9a-f]{12})/catalog\.js)"></script>', page)
    assert src, "the page loads the catalog of its language, at its content's hash"
    # The address alone says the language: a browser reading English gets the German words.
    response = client.get(src.group(1), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]
    text = response.content.decode()
    assert "django.gettext" in text and '"Roll": "W\\u00fcrfeln"' in text
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert hashlib.sha256(response.content).hexdigest()[:12] == src.group(2)
    swedish = re.search(r'<script src="/i18n/sv/([0-9a-f]{12})/catalog\.js"></script>',
                        client.get("/", HTTP_ACCEPT_LANGUAGE="sv").content.decode())
    assert swedish and swedish.group(1) != src.group(2)


def test_a_catalog_asked_for_at_an_old_hash_is_todays_kept_briefly(client):
    response = client.get("/i18n/de/000000000000/catalog.js")
    assert response.status_code == 200
    assert '"Roll": "W\\u00fcrfeln"' in response.content.decode()
    assert response["Cache-Control"] == "public, max-age=3600"
    assert client.get("/i18n/xx/000000000000/catalog.js").status_code == 404
    assert client.get("/i18n/catalog.js").status_code == 200  # pages cached before


@pytest.mark.parametrize(("cookies", "accept", "expected"), [
    ({}, b"sv-SE,sv;q=0.9", "sv"),
    ({COOKIE_NAME: "de"}, b"sv-SE,sv;q=0.9", "de"),
    ({COOKIE_NAME: "klingon"}, b"fr-CA", "fr"),
    ({}, b"", "en"),
    ({}, b"\xff\xfe", "en"),
])
def test_a_websockets_language_is_chosen_as_a_pages(cookies, accept, expected):
    scope = {"cookies": cookies, "headers": [(b"accept-language", accept)]}
    assert language_of_scope(scope) == expected

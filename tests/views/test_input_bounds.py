"""Every input bounded before any work on it: a request body over the site's limit is refused
before it is parsed, and a name is measured before it is normalised (NFKC makes up to 18
characters of one: a 2.4 MB name held a server's core for 1.65 s)."""

from __future__ import annotations

import unicodedata
import urllib.parse

import pytest

from game import services
from game.models import Player
from game.services import names

pytestmark = pytest.mark.django_db

EXPANDING = "\ufdfa"  # "ﷺ": 18 characters once normalised


@pytest.fixture
def normalised(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every string the name checks normalise (the real normalisation)."""
    seen: list[int] = []
    real = unicodedata.normalize

    def recording(form: str, text: str) -> str:
        seen.append(len(text))
        return real(form, text)

    monkeypatch.setattr(names.unicodedata, "normalize", recording)
    return seen


def test_a_huge_name_post_is_refused_unparsed(client):
    client.get("/")
    body = urllib.parse.urlencode({"player_name": EXPANDING * 270_000, "next": "/"})
    assert len(body) > 2_400_000
    response = client.post("/name", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert not Player.objects.exists()


def test_a_name_is_measured_before_it_is_normalised(normalised):
    for raw in (EXPANDING * 10_000, "a" * 100_000, " " * 50_000 + "Ann"):
        with pytest.raises(services.ServiceError) as refused:
            services.clean_nickname(raw)
        assert refused.value.code == "bad_nickname"
    assert normalised == []
    with pytest.raises(services.ServiceError):
        services.clean_room_name(EXPANDING * 10_000)
    assert normalised == []
    assert services.clean_nickname("Ann") == "Ann"  # names that fit are normalised as before
    assert normalised and max(normalised) <= 24 * names.RAW_LENGTH_FACTOR


def test_the_name_form_under_the_body_limit_is_counted_before_it_is_read(client, settings,
                                                                         normalised):
    client.get("/")
    settings.NAMES_PER_HOUR = 1  # a visitor without a player is counted by address: 5
    for _ in range(5):
        client.post("/name", {"player_name": EXPANDING * 1_700, "next": "/"})
    assert normalised == []  # too long as typed: never normalised
    response = client.post("/name", {"player_name": "Ann", "next": "/"}, follow=True)
    assert "try again" in response.content.decode().lower()  # the sixth is over the limit
    assert normalised == []
    assert not Player.objects.filter(name="Ann").exists()


def test_forms_with_too_many_fields_are_refused(client):
    client.get("/")
    response = client.post("/name", {f"f{i}": "x" for i in range(1000)})
    assert response.status_code == 400

"""Numbers that go into markup are never localized: in German the pages still draw their
charts and their scripts still read their data (German writes 12,5 for 12.5)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from game import services
from tests.support.profiles import played_game, store_review
from tests.support.rooms import room_with_players
from tests.views.test_profiles import history  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

GEOMETRY = {"x", "y", "x1", "x2", "y1", "y2", "width", "height", "rx", "ry", "r", "cx", "cy"}
NUMBER = re.compile(r"-?\d+(\.\d+)?")


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.bad: list[str] = []
        self.svg = 0
        self.checked = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self.svg += 1
        for name, value in attrs:
            value = value or ""
            if self.svg and name in GEOMETRY:
                self._check(tag, name, [value])
            elif self.svg and name == "viewbox":
                self._check(tag, name, value.split())
            elif self.svg and name == "points":
                pairs = value.split()
                if any(len(pair.split(",")) != 2 for pair in pairs):
                    self.bad.append(f'<{tag} points="{value}">')
                self._check(tag, name, [n for pair in pairs for n in pair.split(",")])
            elif name.startswith("data-") and re.fullmatch(r"[\d\s.,-]+", value):
                self._check(tag, name, [value])

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.svg -= 1

    def _check(self, tag: str, name: str, numbers: list[str]) -> None:
        self.checked += len(numbers)
        if not all(NUMBER.fullmatch(n) for n in numbers):
            self.bad.append(f'<{tag} {name}="{" ".join(numbers)}">')


def numbers_in_markup(html: str) -> _Attributes:
    reader = _Attributes()
    reader.feed(html)
    return reader


def german(url: str) -> str:
    response = Client().get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert '<html lang="de">' in response.content.decode()
    return response.content.decode()


def test_the_checker_sees_a_german_decimal() -> None:
    assert numbers_in_markup('<svg viewBox="0 0 10 10"><rect x="12,5" y="1"/></svg>').bad
    assert numbers_in_markup('<div data-seat="1,5"></div>').bad
    assert not numbers_in_markup('<svg><polyline points="1.5,2 3,4.25"/></svg>').bad


def test_the_profiles_charts_keep_their_numbers_in_german(history) -> None:  # noqa: F811
    ann, _, _ = history
    reader = numbers_in_markup(german(f"/p/{ann.public_id}/"))
    assert reader.checked > 20 and not reader.bad, reader.bad


def test_a_games_page_and_a_rooms_page_keep_their_numbers_in_german() -> None:
    game = played_game([services.new_player("Ann"), "easy"])
    store_review(game, lucks=[1.5, -2.25], losses=[3.5, 0.75])
    reader = numbers_in_markup(german(game.get_absolute_url()))
    assert reader.checked and not reader.bad, reader.bad
    room, _ = room_with_players(["Ann", "Bob"])
    reader = numbers_in_markup(german(room.get_absolute_url()))
    assert reader.checked and not reader.bad, reader.bad

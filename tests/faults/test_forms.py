"""Bad input through the site's forms, URLs and websocket handshakes, against real Daphne."""

from __future__ import annotations

import json
import socket
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus

from benchmarks.load.browser import BrowserSession, open_room
from tests.support.peers import Peer

from .processes import Site


@pytest.fixture(scope="module")
def site(template_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One server for this module: these tests only add rooms of their own."""
    site = Site.create(template_dir, tmp_path_factory.mktemp("forms") / "site")
    try:
        yield site
    finally:
        site.stop()

pytestmark = pytest.mark.timeout(120)

SCRIPT = "<script>alert(1)</script>"


def count(site: Site, table: str) -> int:
    with site.db() as conn:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # noqa: S608


def seats(site: Site, code: str) -> list[tuple[int, str]]:
    with site.db() as conn:
        return [tuple(r) for r in conn.execute(
            "SELECT s.\"index\", s.nickname FROM game_seat s JOIN game_room r ON s.room_id = r.id"
            " WHERE r.code = ? ORDER BY s.\"index\"", (code,))]


def create_form(values: dict[str, str]) -> dict[str, str]:
    base = {"name": "Friday", "rules": "yahtzee", "seats": "2", "nickname": "Ann",
            "seat_0": "human", "seat_1": "human"}
    return {**base, **values}


def test_unknown_room_codes_are_404_and_refused_on_websocket(site: Site) -> None:
    browser = BrowserSession(site.http_url())
    for path in ("/r/nosuchroom/", "/r/zzzzzzzz/", "/r/%3Cscript%3E/", "/r/" + "a" * 300 + "/",
                 "/games/%3Cscript%3E/", "/games/-1/"):
        page = browser.get(path)
        assert page.status == 404, (path, page.status)
        assert "<script>" not in page.text
    # A finished game's link that points nowhere lands on the lobby, which says so.
    page = browser.get("/games/999999/")
    assert page.status == 200 and page.url == site.http_url() + "/"
    assert "There is no game 999999" in page.text
    browser.get("/")  # for the CSRF cookie
    assert browser.post("/r/zzzzzzzz/join", {"nickname": "Eve", "seat": "0"}).status == 404
    assert browser.get("/r/zzzzzzzz/join").status == 405
    for code in ("zzzzzzzz", "nosuchroom"):
        with pytest.raises(InvalidStatus):
            Peer(site.ws_url(code), site.http_url()).open()
    site.assert_alive()


def test_websocket_needs_our_origin(site: Site) -> None:
    code, _, _ = open_room(site.http_url(), "Origins", "yahtzee", ["Ann"], 0, start=False)
    for origin in ("http://evil.example", "null"):
        with pytest.raises(InvalidStatus) as refused:
            Peer(site.ws_url(code), origin).open()
        assert refused.value.response.status_code == 403
    assert Peer(site.ws_url(code), site.http_url()).open()["type"] == "state"


def test_forms_without_csrf_token_change_nothing(site: Site) -> None:
    browser = BrowserSession(site.http_url())
    browser.get("/")
    rooms = count(site, "game_room")
    refused = browser.post("/", create_form({}), csrf=False)
    assert refused.status == 403
    assert count(site, "game_room") == rooms
    code, _, _ = open_room(site.http_url(), "Csrf", "yahtzee", ["Ann"], 0, start=False, seats=2)
    guest = BrowserSession(site.http_url())
    guest.get(f"/r/{code}/")
    assert guest.post(f"/r/{code}/join", {"nickname": "Eve", "seat": "1"}, csrf=False).status \
        == 403
    assert seats(site, code) == [(0, "Ann"), (1, "")]


@pytest.mark.parametrize("values", [
    {"seats": "99"}, {"seats": "0"}, {"seats": "-1"}, {"seats": "two"}, {"rules": "chess"},
    {"name": "x" * 61}, {"nickname": "n" * 25}, {"nickname": "a\x00b"},
    {"seat_0": "grandmaster"},
])
def test_bad_create_room_forms_are_refused(site: Site, values: dict[str, str]) -> None:
    browser = BrowserSession(site.http_url())
    browser.get("/")
    rooms = count(site, "game_room")
    page = browser.post("/", create_form(values))
    assert page.status == 400, (values, page.status)
    assert count(site, "game_room") == rooms


def test_a_create_room_form_without_a_name_asks_for_it_and_changes_nothing(site: Site) -> None:
    browser = BrowserSession(site.http_url())
    browser.get("/")
    rooms = count(site, "game_room")
    page = browser.post("/", create_form({"nickname": ""}))
    assert page.status == 200  # a question in place, not a refusal
    assert "Your name, please: it goes on your seat." in page.text
    assert count(site, "game_room") == rooms


@pytest.mark.parametrize("nickname", ["n" * 25, "x" * 10_000, "", "   ", "a\x07b", "Ann"])
def test_bad_nicknames_take_no_seat(site: Site, nickname: str) -> None:
    code, _, _ = open_room(site.http_url(), "Nicks", "yahtzee", ["Ann"], 0, start=False,
                           seats=2)
    guest = BrowserSession(site.http_url())
    page = guest.get(f"/r/{code}/")
    answer = guest.submit(page, "/join", {"nickname": nickname, "seat": "1"})
    assert answer.status == 400, (nickname, answer.status)
    assert seats(site, code) == [(0, "Ann"), (1, "")]


def test_script_tags_are_shown_as_text(site: Site) -> None:
    nickname = "<b>x</b><img src=x>"  # within the 24-character limit
    host = BrowserSession(site.http_url())
    page = host.submit(host.get("/"), "/", create_form({"name": SCRIPT, "nickname": nickname}))
    assert page.status == 200 and "/r/" in page.url
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    for text in (page.text, host.get("/").text, BrowserSession(site.http_url()).get(
            f"/r/{code}/").text):
        assert SCRIPT not in text and nickname not in text
        assert "&lt;script&gt;" in text
    # Over the websocket the names travel as JSON data, for the page to insert as text.
    state = Peer(site.ws_url(code), site.http_url(), host.cookie_header()).open()
    assert state["room"]["name"] == SCRIPT
    assert state["room"]["seats"][0]["name"] == nickname
    assert json.dumps(state)  # plain data, nothing else


def test_a_body_over_the_limit_is_refused_before_anyone_parses_it(site: Site) -> None:
    """A 2.4 MB name (NFKC makes 18 characters of each "ﷺ") is refused for its size, as a
    413, before Twisted, Django or the name's checks look at it; the site answers on."""
    browser = BrowserSession(site.http_url())
    browser.get("/")
    players = count(site, "game_player")
    huge = browser.post("/name", {"player_name": "\ufdfa" * 270_000, "next": "/"})
    assert huge.status == 413, huge.status
    assert count(site, "game_player") == players
    assert browser.post("/name", {"player_name": "Ann", "next": "/"}).status == 200
    site.assert_alive()


def test_a_body_declared_too_large_is_answered_before_it_is_sent(site: Site) -> None:
    """Headers declaring 50 MB and no body at all: the answer comes at once (the server
    does not wait for, nor read, megabytes it will drop), and the connection is closed."""
    url = urllib.parse.urlsplit(site.http_url())
    with socket.create_connection((url.hostname, url.port), timeout=10) as conn:
        conn.sendall(b"POST /name HTTP/1.1\r\nHost: " + url.netloc.encode()
                     + b"\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                     b"Content-Length: 50000000\r\n\r\nplayer_name=")
        answer = b""
        while chunk := conn.recv(4096):  # until the server closes
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]
    assert answer.endswith(b"Request body too large.\n")
    site.assert_alive()

"""Rooms and seats made the way a browser makes them: HTTP forms with CSRF and a session cookie.

A :class:`BrowserSession` keeps its own cookie jar, reads the forms of a page, and posts them
with the CSRF token and an ``Origin`` header, like a browser; its session cookie then goes on
the websocket handshake. Used by the load generator and by tests/faults.
"""

from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser

HTTP_TIMEOUT = 30.0


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    #: Every option of each <select>, and the values of radio buttons, by field name.
    choices: dict[str, list[str]] = field(default_factory=dict)


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(Form(a.get("action", ""), a.get("method", "get").lower()))
        elif not self.forms:
            return
        form = self.forms[-1]
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("radio", "checkbox"):
                form.choices.setdefault(name, []).append(a.get("value", "on"))
                if "checked" in a:
                    form.fields[name] = a.get("value", "on")
            elif kind not in ("submit", "button", "image", "reset"):
                form.fields[name] = a.get("value", "")
        elif tag == "textarea" and name:
            form.fields[name] = ""
        elif tag == "select" and name:
            self._select = name
            form.choices[name] = []
        elif tag == "option" and self._select:
            value = a.get("value", "")
            form.choices[self._select].append(value)
            if "selected" in a or self._select not in form.fields:
                form.fields[self._select] = value

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def parse_forms(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    return parser.forms


@dataclass
class Response:
    status: int
    url: str
    text: str


class BrowserSession:
    """One visitor: a cookie jar, GET pages, POST forms (CSRF token and Origin included)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def url(self, path: str) -> str:
        return urllib.parse.urljoin(self.base_url + "/", path)

    def _open(self, request: urllib.request.Request) -> Response:
        request.add_header("Origin", self.base_url)
        try:
            with self.opener.open(request, timeout=HTTP_TIMEOUT) as r:
                return Response(r.status, r.url, r.read().decode("utf-8", "replace"))
        except urllib.error.HTTPError as e:
            return Response(e.code, e.url or request.full_url, e.read().decode("utf-8", "replace"))

    def get(self, path: str) -> Response:
        return self._open(urllib.request.Request(self.url(path)))

    def post(self, path: str, data: dict[str, str], csrf: bool = True) -> Response:
        if csrf and "csrfmiddlewaretoken" not in data:
            data = {**data, "csrfmiddlewaretoken": self.cookie("csrftoken")}
        body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.url(path), data=body, method="POST")
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
        request.add_header("Referer", self.url(path))
        return self._open(request)

    def submit(self, page: Response, pick: str, values: dict[str, str]) -> Response:
        """Fill and post the form of ``page`` whose action is ``pick``, else the first whose
        action contains it (the lobby has several POST forms: "/" is the one creating rooms)."""
        forms = [f for f in parse_forms(page.text) if f.method == "post" and pick in f.action]
        forms = [f for f in forms if f.action == pick] or forms
        if not forms:
            raise LookupError(f"no POST form with {pick!r} in its action on {page.url}")
        form = forms[0]
        return self.post(urllib.parse.urljoin(page.url, form.action or page.url),
                         {**form.fields, **values})

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def cookie_header(self) -> str:
        """The Cookie header a browser would send on this site's websocket."""
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


# --- rooms for the load generator ------------------------------------------------------------
def open_room(base_url: str, name: str, rules: str, nicknames: list[str], watchers: int,
              start: bool = True, seats: int = 0) -> tuple[str, list[str], list[str]]:
    """A room made like browsers do: the host creates it through the lobby form (taking seat 0),
    each other player opens the link and joins through the join form, each watcher just opens
    the page, and the host presses Start (a ``start`` frame on the room's websocket).
    ``seats`` (default: one per nickname) may leave seats free.
    Returns the room code and the Cookie header of each player and watcher."""
    host = BrowserSession(base_url)
    lobby = host.get("/")
    seats = max(seats, len(nicknames))
    values = {"name": name, "rules": rules, "seats": str(seats), "nickname": nicknames[0]}
    values.update({f"seat_{i}": "human" for i in range(seats)})
    page = host.submit(lobby, "/", values)
    if page.status != 200 or "/r/" not in page.url:
        raise RuntimeError(f"creating a room failed: HTTP {page.status} at {page.url}")
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    players = [host]
    for nickname in nicknames[1:]:
        guest = BrowserSession(base_url)
        joined = guest.submit(guest.get(f"/r/{code}/"), "/join", {"nickname": nickname})
        if joined.status != 200:
            raise RuntimeError(f"joining room {code} failed: HTTP {joined.status}")
        players.append(guest)
    lookers = []
    for _ in range(watchers):
        watcher = BrowserSession(base_url)
        if watcher.get(f"/r/{code}/").status != 200:
            raise RuntimeError(f"room page {code} failed")
        lookers.append(watcher)
    if start:
        press_start(base_url, code, host.cookie_header())
    return code, [p.cookie_header() for p in players], [w.cookie_header() for w in lookers]


def press_start(base_url: str, code: str, cookie: str, timeout: float = 30.0,
                attempts: int = 6) -> None:
    """The host's Start button: send ``start``, wait for the state that holds the game.
    A dropped handshake is retried with backoff, as the page does."""
    import json
    import time

    from websockets.exceptions import ConnectionClosed, InvalidHandshake
    from websockets.sync.client import connect
    from websockets.typing import Origin

    url = base_url.replace("http", "ws", 1) + f"/ws/rooms/{code}/"
    delay = 0.25
    for attempt in range(attempts):
        try:
            with connect(url, origin=Origin(base_url), additional_headers=[("Cookie", cookie)],
                         open_timeout=timeout) as ws:
                ws.send(json.dumps({"type": "start", "id": "start"}))
                deadline = time.monotonic() + timeout
                while time.monotonic() < deadline:
                    msg = json.loads(ws.recv(timeout=deadline - time.monotonic()))
                    if msg.get("type") == "error" and msg.get("code") != "game_running":
                        raise RuntimeError(f"start refused in room {code}: {msg}")
                    if msg.get("type") == "state" and msg.get("game"):
                        return
            raise TimeoutError(f"room {code} did not start within {timeout} s")
        except (OSError, InvalidHandshake, ConnectionClosed):
            if attempt == attempts - 1:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 4.0)


def seat_rooms(rooms: int, players: int, watchers: int, http_urls: list[str], rules: str,
               threads: int = 8) -> list[tuple[str, list[str], list[str]]]:
    """``rooms`` started rooms, made over HTTP by a few browser-like threads, round-robin over
    the servers."""
    with ThreadPoolExecutor(threads) as pool:
        futures = [
            pool.submit(open_room, http_urls[i % len(http_urls)], f"Load {i}", rules,
                        [f"Loader{i}-{p}" for p in range(players)], watchers)
            for i in range(rooms)
        ]
        return [f.result() for f in futures]

"""A finished game's page: a game made in a page and played out over a websocket, its review
opened, where its chart takes a click, and manage.py run on the browser server's data (to
compute a game's analysis the way the end of a game does, or to change a stored row)."""

from __future__ import annotations

import subprocess
import sys
import time

from playwright.sync_api import BrowserContext, Page, expect

from tests.support.peer_moves import await_result, bot_move
from tests.support.peers import Peer

from .conftest import DESKTOP, ROOT, STILL, LiveServer
from .pages import create_room


def open_review(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")


def manage(server: LiveServer, *args: str) -> str:
    """Run manage.py against the browser server's data (its database, the session's tables)."""
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=server.env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def chart_point(page: Page, seq: int) -> dict:
    """Where on the page the chart draws ``seq``, at a height where the chart itself takes the
    click (not a mark of a mistake, nor the board kept over it on a phone)."""
    return page.evaluate("""s => {
        const p = window.yahtzeeReplay.review.chart.pointOf(s);
        const svg = document.querySelector('#analysis-chart svg');
        const box = svg.getBoundingClientRect();
        for (let y = box.top + 8; y < box.bottom - 30; y += 4) {
          if (svg.contains(document.elementFromPoint(p.x, y))) return {x: p.x, y};
        }
        return p; }""", seq)


def wait_reviewed(context: BrowserContext, url: str) -> None:
    """Until the game page at ``url`` has its review stored (the end of a game has it
    reviewed in a second or two)."""
    part = url.replace("#", "").rstrip("/") + "/analysis"
    for _ in range(240):
        if 'data-state="ready"' in context.request.get(part).text():
            return
        time.sleep(0.5)
    raise AssertionError(f"no review of {url} within two minutes")


#: Seconds between two commands of ``play_out``: a solo game's moves answered at once would
#: pass the socket's rate limit. Its refill rate (``WS_RATE_PER_SECOND``, 8 a second), with the
#: burst (``WS_RATE_BURST``, 20) as the margin for a late send.
MOVE_EVERY = 1 / 8


def play_out(page: Page, server: LiveServer, *, start: bool = True) -> str:
    """Start the game of the room ``page`` made (``start=False``: the game it is playing) and
    play it to its end over a websocket with the page's cookie, the page closed: the pages
    these tests read are a finished game's, and a page following every move of the game is
    most of the CPU of playing it. Each of the person's turns is one roll scored in the first
    open box (mistakes enough for a review), as ``play_first_box`` plays it; the computer's
    turns as the server plays them. Returns the game page's URL once its review is stored."""
    code = page.url.rstrip("/").rsplit("/", 1)[-1]
    context = page.context
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in context.cookies(server.url))
    page.close()
    peer = Peer(f"ws://127.0.0.1:{server.port}/ws/rooms/{code}/", server.url, cookie, "player")
    first = peer.open()
    try:
        if start:
            peer.send({"type": "start", "id": "start"})
            first = peer.until(lambda m: m["type"] == "state" and m.get("game") is not None, 30)
        game = first["game"]
        assert game is not None, "no game to play out"
        sent = 0.0
        while not game["finished"]:
            if game["current_player"] == peer.seat:
                move = {**bot_move(game), "id": f"move-{game['seq']}"}
                # Within the socket's budget of commands (WS_RATE_PER_SECOND, 8 a second).
                time.sleep(max(0.0, sent + MOVE_EVERY - time.monotonic()))
                sent = time.monotonic()
                peer.send(move)
                await_result(peer, move, timeout=30)
            else:
                peer.until(lambda m: m["type"] in ("event", "state"), 60)
            assert peer.game is not None, "the socket fell behind the game"
            game = peer.game
    finally:
        peer.close()
    url = f"{server.url}/games/{game['id']}/"
    wait_reviewed(context, url)
    return url


def finish_game(browser, server: LiveServer, *, name: str, seats: list[str],
                nickname: str) -> tuple[str, dict]:
    """A Yahtzee game made in the browser and played to its end and its review
    (``play_out``): the game page's URL and the player's cookies (a context's storage
    state)."""
    context = browser.new_context(**STILL, viewport=DESKTOP)
    page = context.new_page()
    create_room(page, server, name=name, rules="yahtzee", seats=seats, nickname=nickname)
    url = play_out(page, server)
    state = context.storage_state()
    context.close()
    return url, state

"""A finished game's page: open its review, find where its chart takes a click, and run
manage.py on the browser server's data (to compute a game's analysis the way the end of a game
does, or to change a stored row)."""

from __future__ import annotations

import subprocess
import sys

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, ROOT, STILL, LiveServer
from .pages import create_room, play_first_box


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


def reviewed_game(page: Page, server: LiveServer) -> str:
    """Once the room's game is over: its page's URL, when its review is stored."""
    expect(page.locator("#result")).to_be_visible(timeout=60_000)
    url = server.url + page.locator("#game-page-link").get_attribute("href")
    part = url.replace("#", "").rstrip("/") + "/analysis"
    for _ in range(240):  # the end of a game has it reviewed in a second or two
        if 'data-state="ready"' in page.request.get(part).text():
            break
        page.wait_for_timeout(500)
    return url


def finish_game(browser, server: LiveServer, *, name: str, seats: list[str],
                nickname: str) -> tuple[str, dict]:
    """A Yahtzee game played in the browser — each of the person's turns one roll scored in
    the first open box (mistakes enough) — to its end and its review: the game page's URL and
    the player's cookies (a context's storage state)."""
    context = browser.new_context(**STILL, viewport=DESKTOP)
    page = context.new_page()
    create_room(page, server, name=name, rules="yahtzee", seats=seats, nickname=nickname)
    page.locator("#start-btn").click()
    for _ in range(13):
        play_first_box(page)
    url = reviewed_game(page, server)
    state = context.storage_state()
    context.close()
    return url, state

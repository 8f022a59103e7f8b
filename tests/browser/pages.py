"""What a test does on our pages, in the words of a player: join, roll, hold, score.

Selectors live here (one place to change when the page changes); the tests read like a game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from playwright.sync_api import Page, expect


@dataclass
class Option:
    """An open box the player to move could score now, as the page shows it."""

    box: str
    column: int
    points: int
    index: int  # position among the page's option buttons (for arrow-key navigation)


def client_state(page: Page) -> dict:
    """The room page's own view of the game (read-only debugging hook of room.js)."""
    return page.evaluate("JSON.parse(JSON.stringify(window.yahtzeeRoom.state.game))")


def last_seq(page: Page) -> int | None:
    return page.evaluate("window.yahtzeeRoom.seq.last")


def wait_connected(page: Page) -> None:
    """Until the socket is open and the page has drawn the server's full state."""
    expect(page.locator("#room")).to_have_attribute("data-synced", "true", timeout=15_000)


def wait_seq(page: Page, seq: int) -> None:
    """Until the page has applied every event up to ``seq``."""
    page.wait_for_function("n => (window.yahtzeeRoom.seq.last || 0) >= n", arg=seq)


def join(page: Page, nickname: str, seat: int) -> None:
    """Take a seat with the room page's join form."""
    page.fill("#join [name=nickname]", nickname)
    seat_field = page.locator("#join [name=seat]")
    if seat_field.evaluate("el => el.tagName") == "SELECT":
        seat_field.select_option(str(seat))
    else:
        seat_field.fill(str(seat))
    page.locator("#join button[type=submit]").click()
    page.wait_for_load_state()
    wait_connected(page)


def dice(page: Page) -> list[int | None]:
    values = page.locator("#dice .die").evaluate_all("els => els.map(e => e.dataset.value)")
    return [int(v) if v else None for v in values]


def held(page: Page) -> list[int]:
    pressed = page.locator("#dice .die").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-pressed') === 'true')")
    return [i for i, p in enumerate(pressed) if p]


def rolls_left(page: Page) -> int:
    return int(page.locator("#rolls-left").get_attribute("data-left"))


def wait_dice(page: Page, values: list[int]) -> None:
    """Until the page shows exactly these dice."""
    page.wait_for_function(
        "want => [...document.querySelectorAll('#dice .die')]"
        ".map(e => e.dataset.value).join(',') === want",
        arg=",".join(str(v) for v in values))


def options(page: Page) -> list[Option]:
    raw = page.locator("#scorecard button.option").evaluate_all(
        "els => els.map(e => [e.dataset.box, +e.dataset.column, +e.textContent])")
    return [Option(box, col, pts, i) for i, (box, col, pts) in enumerate(raw)]


def cell(page: Page, player: int, box: str, column: int = 0):
    """The scorecard cell of ``player`` for ``box`` in ``column``."""
    return page.locator(f'#scorecard tr[data-box="{box}"] td.p{player}[data-col="{column}"]')


def roll_with_key(page: Page) -> None:
    page.locator("body").press("r")


def press(page: Page, key: str) -> None:
    page.keyboard.press(key)


def debug(page: Page) -> str:
    return json.dumps(client_state(page))[:400]


def settle(page: Page) -> None:
    """Until the roll animation (if any) is over, so a screenshot shows dice at rest."""
    page.wait_for_function(
        "document.getAnimations().every(a => a.playState !== 'running')")


def assert_fits(page: Page) -> None:
    """The page needs no horizontal scrolling at its viewport width."""
    scroll, width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll <= width, f"page is {scroll}px wide in a {width}px viewport"

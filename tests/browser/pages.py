"""What a test does on our pages, in the words of a player: join, roll, hold, score.

Selectors live here (one place to change when the page changes); the tests read like a game.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from playwright.sync_api import Page, WebSocketRoute, expect

if TYPE_CHECKING:
    from .conftest import LiveServer


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


class ServerFrames:
    """The page's room socket routed through the test (made before the page opens it):
    frames pass both ways until :meth:`hold`; from then on the server's frames no longer reach
    the page, so the frames a test feeds it (``window.yahtzeeRoom.receive``) are the only ones
    it draws — a state the real room sends later (a room refresh, a catch-up after the channel
    layer answered again) can no longer replace them. :meth:`release` lets them through
    again."""

    def __init__(self, page: Page) -> None:
        self.held = False
        page.route_web_socket(re.compile(r"/ws/rooms/"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: None if self.held else ws.send(message))

    def hold(self) -> None:
        self.held = True

    def release(self) -> None:
        self.held = False


def wait_connected(page: Page) -> None:
    """Until the socket is open and the page has drawn the server's full state."""
    expect(page.locator("#room")).to_have_attribute("data-synced", "true", timeout=15_000)


def wait_seq(page: Page, seq: int) -> None:
    """Until the page has applied every event up to ``seq``."""
    page.wait_for_function("n => (window.yahtzeeRoom.seq.last || 0) >= n", arg=seq)


def room_options(page: Page) -> None:
    """Unfold the lobby's room options (the name, rules, seats… of "Play with friends")."""
    options = page.locator(".more-options")
    if options.get_attribute("open") is None:
        options.locator("> summary").click()


def join(page: Page, nickname: str, seat: int | None = None) -> None:
    """Take a seat with the room page's one button ("Join as …"): the first free seat, or
    ``seat`` (the form's hidden field, as a stale page would send it)."""
    page.fill("#join [name=nickname]", nickname)
    if seat is not None:
        page.locator("#join [name=seat]").evaluate("(el, s) => { el.value = s; }", str(seat))
    page.locator("#join-btn").click()
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
    # A function, not a bare expression: Playwright evals an expression, which the page's
    # Content-Security-Policy (no 'unsafe-eval') refuses.
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running')")


def assert_fits(page: Page) -> None:
    """The page needs no horizontal scrolling at its viewport width."""
    scroll, width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll <= width, f"page is {scroll}px wide in a {width}px viewport"


# WCAG 2 contrast of every visible piece of text against the first opaque background behind
# it (background images such as the hatching of forbidden boxes are ignored: the colour under
# them is what the ratio is checked against).
_CONTRAST_JS = """() => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    if (!el.getClientRects().length || el.closest("[hidden], .visually-hidden, svg")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") continue;
    const fg = parse(style.color).slice(0, 3);
    const [a, b] = [lum(fg), lum(background(el))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      const text = node.textContent.trim().slice(0, 30);
      bad.push(`${el.tagName.toLowerCase()}.${el.className} "${text}" ${ratio.toFixed(2)}`);
    }
  }
  return bad;
}"""


def low_contrast_text(page: Page) -> list[str]:
    """Visible text below WCAG AA contrast (4.5:1, or 3:1 for large text)."""
    return page.evaluate(_CONTRAST_JS)


def confirm_if_asked(page: Page) -> bool:
    """A choice that scores 0 or far below the best asks for a second tap (the confirm bar):
    give it. Whether it was asked."""
    bar = page.locator("#confirm")
    if not bar.is_visible():
        return False
    bar.locator(".confirm-yes").click()
    return True


def create_room(page: Page, server: LiveServer, *, name: str, rules: str, seats: list[str],
                nickname: str, move_days: int = 0) -> str:
    """Create a room in the lobby (seats: "human" or a bot level; over days with
    ``move_days``); returns the room's URL."""
    page.goto(server.url + "/")
    if move_days:
        page.check("input[name=pace][value=days]")
        page.select_option("[name=move_days]", str(move_days))
    room_options(page)
    page.fill("[name=name]", name)
    page.select_option(".create-form [name=rules]", rules)
    page.select_option("[name=seats]", str(len(seats)))
    page.fill("[name=nickname]", nickname)
    for i, kind in enumerate(seats):
        page.select_option(f"[name=seat_{i}]", kind)
    page.get_by_role("button", name="Play with friends").click()
    page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(page)
    return page.url


def play_first_box(page: Page) -> None:
    """One turn of mine when it comes: one roll, then the scorecard's first open box (a
    poor choice confirmed): quick games with mistakes enough for a review."""
    roll = page.locator("#roll-btn")
    expect(roll).to_be_enabled(timeout=30_000)  # my turn (again, after the computer's)
    seq = last_seq(page)
    roll.click()
    wait_seq(page, seq + 1)
    page.locator("#scorecard button.option").first.click()
    confirm_if_asked(page)
    wait_seq(page, seq + 2)


def start_game(page: Page) -> None:
    """The host starts the game; until the page shows the first turn."""
    page.locator("#start-btn").click()
    expect(page.locator("#turn")).to_contain_text("round 1 of")


def roll(page: Page) -> None:
    # Only once the page shows the turn as this player's: before that (a new game's state
    # still on its way) R does nothing, and the seq read here would be the last game's.
    expect(page.locator("#roll-btn")).to_be_enabled()
    before = last_seq(page)
    press(page, "r")
    wait_seq(page, before + 1)


def open_practice_room(page: Page, server: LiveServer, name: str) -> None:
    """Create a one-seat practice room (the coach on) for Ann in the lobby."""
    page.goto(server.url + "/")
    room_options(page)
    page.fill("[name=name]", name)
    page.select_option("[name=rules]", "yahtzee")
    page.select_option("[name=seats]", "1")
    page.fill("[name=nickname]", "Ann")
    page.check("[name=practice]")
    page.get_by_role("button", name="Play with friends").click()
    page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(page)


def rules_state(events: list, *, you: int | None) -> dict:
    """A `state` message for a game folded by the real rules engine from ``events``."""
    from game.rules import Game, event_from_dict

    game = Game.from_events([event_from_dict(e) for e in events])
    names = list(game.players)
    return {
        "type": "state", "seq": len(events),
        "room": {"code": "x", "name": "x", "rules": game.ruleset.name, "status": "playing",
                 "seats": [{"seat": i, "name": n, "kind": "human", "level": None,
                            "connected": True, "host": i == 0} for i, n in enumerate(names)],
                 "watchers": 0},
        "you": {"seat": you, "host": you == 0},
        "game": {**game.to_dict(), "id": 999, "seq": len(events)},
    }

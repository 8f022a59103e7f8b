"""The end of a game as each player reads it: a card that fits a 320 px phone and hides no
result, confetti for a win only (still, for reduced motion), a calm card for a loss; and the
game's page opened right at the end filling in its analysis by itself."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, MOTION, PHONE, POLL_MOST
from .pages import (
    ServerFrames,
    assert_fits,
    create_room,
    low_contrast_text,
    play_first_box,
    settle,
    wait_connected,
)
from .review_pages import manage, open_review, wait_reviewed

pytestmark = pytest.mark.browser

GAME_ID = 999


def played_game(players: list[str], seed: int):
    """A whole game of the real rules engine: each turn one roll, scored in its best box."""
    from game.rules import Game

    game = Game("yahtzee", players, rng=random.Random(seed))
    while not game.is_over:
        game.roll()
        scores = game.potential_scores()
        slot = max(scores, key=lambda s: scores[s])
        game.score(slot.box, slot.column)
    return game


def end_frames(players: list[str], seed: int, game_id: int) -> tuple[dict, dict, object]:
    """A `state` just before the last box of a game, and the `events` that end it."""
    from game.rules import Game

    game = played_game(players, seed)
    events = [e.to_dict() for e in game.events]
    last_score = max(i for i, e in enumerate(events) if e["kind"] == "scored")
    before = Game.from_events(game.events[:last_score])
    seats = [{"seat": i, "name": n, "kind": "human", "level": None, "connected": True,
              "host": i == 0} for i, n in enumerate(players)]
    state = {
        "type": "state", "seq": last_score,
        "room": {"code": "x", "name": "x", "rules": "yahtzee", "status": "playing",
                 "seats": seats, "watchers": 0},
        "game": {**before.to_dict(), "id": game_id, "seq": last_score},
    }
    finish = {
        "type": "events", "game": game_id, "by": "human",
        "events": [{"seq": last_score + 1 + k, "event": e}
                   for k, e in enumerate(events[last_score:])],
        "changes": {**game.to_dict(), "id": game_id, "seq": len(events)},
    }
    return state, finish, game


def play_the_end(page: Page, players: list[str], *, win: bool, game_id: int) -> object:
    """Feed the page the last move of a two-player game it is seated in, as the winner or
    the loser: the page's person (``players[0]``) is seated where that is, so the card's
    names read true."""
    state, finish, game = end_frames(players, 7, game_id)
    winner = game.winners[0]
    you = winner if win else 1 - winner
    if you != 0:
        state, finish, game = end_frames(players[::-1], 7, game_id)  # the same dice
    state["you"] = {"seat": you, "host": you == 0}
    page.evaluate("m => window.yahtzeeRoom.receive(m)", state)
    expect(page.locator("#turn")).to_contain_text("round 13 of 13")
    page.evaluate("m => window.yahtzeeRoom.receive(m)", finish)
    expect(page.locator("#result")).to_be_visible()
    # The window glides to the result (steady.js): until its headline is on the screen.
    page.wait_for_function("""() => {
        const r = document.getElementById('result-title').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight; }""")
    return game


def title_is_on_top(page: Page) -> bool:
    """Nothing covers the result's headline: the point at its middle is the headline."""
    return page.evaluate("""() => {
        const r = document.getElementById('result-title').getBoundingClientRect();
        const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return Boolean(el && el.closest('#result-title'));
    }""")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_loss_is_a_calm_card_and_a_win_has_confetti(daphne_server, new_context, screenshots,
                                                      viewport, scheme):
    phone = viewport == "phone"
    # A phone that asked for reduced motion: the win's confetti stays still (hidden).
    context = (new_context(PHONE, is_mobile=True, has_touch=True, reduced_motion="reduce",
                           color_scheme=scheme) if phone
               else new_context(DESKTOP, color_scheme=scheme, **MOTION))
    page = context.new_page()
    frames = ServerFrames(page)
    create_room(page, daphne_server, name=f"End {viewport} {scheme}", rules="yahtzee",
                seats=["human"], nickname="Ann")
    frames.hold()  # the page draws the game fed to it below, not the real room's
    if phone:
        page.set_viewport_size({"width": 320, "height": 640})
    players = ["Ann", "Bot 1 (medium)"]

    game = play_the_end(page, players, win=False, game_id=GAME_ID)
    loser = 1 - game.winners[0]
    totals = [card.total for card in game.scorecards]
    title = page.locator("#result-title")
    expect(title).to_have_text(f"You finished 2nd — {totals[loser]}")
    expect(page.locator("#result-detail")).to_have_text(
        f"{game.players[game.winners[0]]} wins with {max(totals)} points.")
    expect(page.locator("#result")).to_have_attribute("data-kind", "loss")
    expect(page.locator(".confetti")).to_have_count(0)  # no party for a loss
    expect(page.locator("#celebrate")).to_be_hidden()
    box = title.bounding_box()
    width = page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert title_is_on_top(page)
    assert_fits(page)
    settle(page)
    page.screenshot(path=str(screenshots / f"end-loss-{viewport}-{scheme}.png"))
    assert low_contrast_text(page) == []

    play_the_end(page, players, win=True, game_id=GAME_ID + 1)
    expect(title).to_have_text("You win!")
    expect(page.locator("#result")).to_have_attribute("data-kind", "win")
    confetti = page.locator("#result .confetti")
    expect(confetti).to_have_count(1)
    if phone:
        expect(confetti).to_be_hidden()  # reduced motion: the card alone
    else:
        expect(confetti).to_be_visible()
    assert title_is_on_top(page)  # the confetti is behind the words
    box = title.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], box
    assert_fits(page)
    page.screenshot(path=str(screenshots / f"end-win-{viewport}-{scheme}.png"))
    expect(confetti).to_have_count(0, timeout=5_000)  # once, then gone


def test_a_watcher_reads_who_won_without_a_party(daphne_server, new_context):
    host = new_context(DESKTOP).new_page()
    url = create_room(host, daphne_server, name="Watched end", rules="yahtzee",
                      seats=["human"], nickname="Ann")
    watcher = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    frames = ServerFrames(watcher)
    watcher.goto(url)
    wait_connected(watcher)
    frames.hold()
    state, finish, game = end_frames(["Ann", "Bea"], 7, GAME_ID)
    state["you"] = {"seat": None, "host": False}
    watcher.evaluate("m => window.yahtzeeRoom.receive(m)", state)
    watcher.evaluate("m => window.yahtzeeRoom.receive(m)", finish)
    totals = [card.total for card in game.scorecards]
    expect(watcher.locator("#result-title")).to_have_text(
        f"{['Ann', 'Bea'][game.winners[0]]} wins — {max(totals)}")
    expect(watcher.locator(".confetti")).to_have_count(0)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_review_fills_in_by_itself(daphne_server, yahtzee_table, new_context, screenshots,
                                       viewport):
    """Opened before the analysis is stored, the game's page says it is coming, then shows it
    without a reload; the move list's names are never cut mid-word."""
    phone = viewport == "phone"
    context = (new_context(PHONE, is_mobile=True, has_touch=True) if phone
               else new_context(DESKTOP))
    page = context.new_page()
    # "Player", the name quick play gives: it used to break as "Play/er" in the move list.
    create_room(page, daphne_server, name=f"Review soon {viewport}", rules="yahtzee",
                seats=["human", "easy"], nickname="Player")
    page.locator("#start-btn").click()
    for _ in range(13):
        play_first_box(page)
    expect(page.locator("#result")).to_be_visible(timeout=60_000)
    url = daphne_server.url + page.locator("#game-page-link").get_attribute("href")
    game_id = re.search(r"/games/(\d+)/", url).group(1)
    # However fast the end's own analysis was: the page is opened while there is none.
    wait_reviewed(page.context, url)
    manage(daphne_server, "shell", "-c",
           f"from game.models import GameAnalysis; GameAnalysis.objects.filter(game_id={game_id})"
           ".delete()")
    page.clock.install()  # the page's pauses between its asks are moved on, not waited out
    open_review(page, url)
    analysis = page.locator("#analysis")
    expect(analysis).to_have_attribute("data-state", "pending")
    expect(page.locator("#analysis-wait")).to_contain_text("Analysing every decision")
    page.evaluate("() => { window.notReloaded = true; }")
    page.screenshot(path=str(screenshots / f"review-waiting-{viewport}.png"))
    manage(daphne_server, "analyse", "--game", game_id, "--no-progress")
    page.clock.fast_forward(POLL_MOST)  # the page's next ask, now
    expect(analysis).to_have_attribute("data-state", "ready", timeout=30_000)
    assert page.evaluate("() => window.notReloaded === true")  # filled in, not reloaded
    expect(page.locator(".player-review")).to_have_count(2)
    expect(page.locator("#analysis-chart svg")).to_have_count(1)
    expect(page.locator("#move-list button.move-rolled.g-best, "
                        "#move-list button.move-rolled.g-good, "
                        "#move-list button.move-rolled.g-inaccuracy, "
                        "#move-list button.move-rolled.g-mistake, "
                        "#move-list button.move-rolled.g-blunder")).not_to_have_count(0)
    # Plain words: no symbols of sums, grades with their plurals.
    summary = page.locator(".player-review").first
    expect(summary).to_contain_text("Points lost to the choices")
    expect(summary).to_contain_text(re.compile(r"Chance to win before the game\s*50\.0 %"))
    expect(summary).to_contain_text(
        re.compile(r"Each decision cost \d+\.\d\d\s+points?\s+on average"))
    text = summary.inner_text()
    assert "Σ" not in text and "Δ" not in text and "Verhoeff" not in text
    assert not re.search(r"\b1 (blunders|mistakes|inaccuracies)\b", text), text
    # Each turn's name wraps between words, never inside one ("Play/er").
    names = page.locator("#move-list .move-turn_started").evaluate_all("""els => els.slice(0, 6)
        .map(e => [...e.querySelectorAll('span')].filter((s) => s.getClientRects().length)
          .every((s) => { const node = s.firstChild; const text = node.textContent;
            let at = 0;
            return text.split(' ').every((word) => {
              const range = document.createRange();
              range.setStart(node, at); range.setEnd(node, at + word.length);
              at += word.length + 1;
              const tops = [...range.getClientRects()].filter((r) => r.width > 0)
                .map((r) => Math.round(r.top));
              return new Set(tops).size <= 1; }); }))""")
    assert names and all(names), names
    summary.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"review-summary-{viewport}.png"))
    assert_fits(page)

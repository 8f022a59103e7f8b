"""A finished game's page is a replay: keys, buttons, the move list and #seq= links move it;
with its analysis, the grades in the move list and a chart that moves it too."""

from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, STILL
from .pages import assert_fits, create_room, low_contrast_text, press
from .review_pages import chart_point, open_review, play_out

pytestmark = pytest.mark.browser


def position(page: Page) -> dict:
    """Where the replay is: the frame's index and seq, and the number of frames."""
    return page.evaluate("""() => {
        const r = window.yahtzeeReplay;
        return {index: r.state.index, seq: r.frames[r.state.index].seq,
                kind: r.frames[r.state.index].kind, count: r.frames.length};
    }""")


def frames_of(page: Page) -> list[dict]:
    return page.evaluate("window.yahtzeeReplay.frames")


@pytest.fixture(scope="module")
def six_bot_game(daphne_server, browser, yahtzee_table) -> str:
    """The URL of a finished six-player Yahtzee game, played by six computer players, once the
    review its end computes is stored."""
    context = browser.new_context(**STILL, viewport=DESKTOP)
    page = context.new_page()
    create_room(page, daphne_server, name="Six bots", rules="yahtzee", seats=["easy"] * 6,
                nickname="")
    room = page.url
    url = play_out(page, daphne_server)
    page = context.new_page()  # the room, once the game is over, links to its review
    page.goto(room)
    expect(page.locator("#game-page-link")).to_have_text(re.compile("Review this game"))
    assert daphne_server.url + page.locator("#game-page-link").get_attribute("href") == url
    context.close()
    return url


def analysis_of(page: Page) -> dict:
    return page.evaluate("JSON.parse(document.getElementById('analysis-data').textContent)")


def cursor_x(page: Page) -> float:
    return float(page.locator("#analysis-chart .cursor").get_attribute("x1"))


def chart_x(page: Page, seq: int) -> float:
    return page.evaluate("s => window.yahtzeeReplay.review.chart.x(s)", seq)


def test_the_review_steps_by_keyboard_and_opens_at_a_seq_link(six_bot_game, new_context,
                                                               screenshots):
    page = new_context(DESKTOP).new_page()
    open_review(page, six_bot_game)
    frames = frames_of(page)
    end = position(page)
    assert end["index"] == end["count"] - 1 and end["kind"] == "game_finished"
    expect(page.locator("#replay-status")).to_contain_text("Final scores")
    expect(page.locator("#replay-status")).to_contain_text("Game over: ")
    assert sum(f["kind"] == "turn_started" for f in frames) == 78
    # The end shows the dice the last box was scored with, not an empty tray.
    last_scored = next(f for f in reversed(frames) if f["kind"] == "scored")
    assert page.locator("#replay-dice li").evaluate_all(
        "els => els.map(e => +e.dataset.value)") == last_scored["dice"]

    # Home, then one event at a time: the first turn, the first roll.
    press(page, "Home")
    assert position(page)["index"] == 0
    expect(page.locator(".replay-controls [data-step=first]")).to_be_disabled()
    press(page, "ArrowRight")
    assert position(page)["kind"] == "turn_started"
    expect(page.locator("#replay-dice li.blank")).to_have_count(5)
    # The heading names the turn; no sentence under it repeats "Round 1: …’s turn."
    expect(page.locator("#replay-status strong")).to_contain_text("before the first roll")
    expect(page.locator("#replay-status")).not_to_contain_text("Round 1:")
    press(page, "ArrowRight")
    first_roll = frames[2]
    assert position(page)["kind"] == "rolled"
    values = page.locator("#replay-dice li").evaluate_all("els => els.map(e => +e.dataset.value)")
    assert values == first_roll["dice"]
    expect(page.locator("#replay-status")).to_contain_text("roll 1 of 3")
    expect(page).to_have_url(re.compile(rf"#seq={first_roll['seq']}$"))

    # One turn down: the end of the first turn, its box highlighted on the scorecard.
    press(page, "ArrowDown")
    at = position(page)
    scored = next(f for f in frames if f["kind"] == "scored")
    assert frames[at["index"] + 1]["kind"] == "turn_started"
    assert at["seq"] >= scored["seq"]
    changed = page.locator(f'#replay-card tr[data-box="{scored["box"]}"] td.p0.changed')
    expect(changed).to_have_text(re.compile(rf"^{scored['points']}"))
    press(page, "ArrowDown")
    second_turn_end = position(page)
    assert frames[second_turn_end["index"]]["player"] == 1
    press(page, "ArrowUp")
    assert position(page) == at
    expect(page.locator("#move-list button[aria-current=step]")).to_have_attribute(
        "data-seq", str(at["seq"]))

    # Keyboard alone, from the move list: Tab reaches the current move, arrows move on.
    page.locator("#move-list button[aria-current=step]").focus()
    press(page, "ArrowLeft")
    assert position(page)["index"] == at["index"] - 1
    assert page.evaluate("document.activeElement.getAttribute('aria-current')") == "step"
    press(page, "End")
    assert position(page)["index"] == end["index"]

    # A link to one moment opens the game there, also after a reload.
    middle = frames[len(frames) // 2]
    page.goto(six_bot_game + f"#seq={middle['seq']}")
    page.reload()
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    assert position(page)["seq"] == middle["seq"]
    expect(page.locator("#move-list button[aria-current=step]")).to_have_attribute(
        "data-seq", str(middle["seq"]))

    # Clicking a move goes there.
    target = page.locator("#move-list button.move-scored").nth(10)
    target.click()
    assert position(page)["seq"] == int(target.get_attribute("data-seq"))

    # Beyond the end, before the start, garbage: the nearest valid moment, never an error.
    for fragment, want in ((f"#seq={frames[-1]['seq'] + 1000}", frames[-1]["seq"]),
                           ("#seq=-4", frames[0]["seq"]), ("#seq=0", frames[0]["seq"]),
                           ("#seq=abc", frames[-1]["seq"]), ("#seq=", frames[-1]["seq"]),
                           ("#nonsense", frames[-1]["seq"])):
        page.goto("about:blank")
        open_review(page, six_bot_game + fragment)
        assert position(page)["seq"] == want, fragment
        expect(page.locator("#replay-status")).not_to_be_empty()

    # What a reviewer sees: the middle of the game, on a desktop.
    open_review(page, six_bot_game + f"#seq={middle['seq']}")
    assert low_contrast_text(page) == []
    page.screenshot(path=str(screenshots / "review-desktop.png"))
    page.screenshot(path=str(screenshots / "review-desktop-full.png"), full_page=True)


def test_the_review_on_a_phone_by_touch(six_bot_game, new_context, screenshots):
    page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    frames = None
    open_review(page, six_bot_game + "#seq=40")
    frames = frames_of(page)
    assert position(page)["seq"] == 40
    page.locator(".replay-controls [data-step=next]").tap()
    assert position(page)["seq"] == 41
    page.locator(".replay-controls [data-step=next-turn]").tap()
    assert frames[position(page)["index"] + 1]["kind"] == "turn_started"
    assert_fits(page)
    assert low_contrast_text(page) == []
    page.screenshot(path=str(screenshots / "review-phone.png"))
    page.screenshot(path=str(screenshots / "review-phone-full.png"), full_page=True)


def test_the_analysis_grades_the_moves_and_its_chart_moves_the_replay(six_bot_game,
                                                                      new_context, screenshots):
    page = new_context(DESKTOP).new_page()
    open_review(page, six_bot_game)
    frames = frames_of(page)
    analysis = analysis_of(page)
    expect(page.locator("#analysis")).to_have_attribute("data-state", "ready")
    expect(page.locator("#analysis")).not_to_contain_text("being prepared")

    # Per player, the chain ends at the score on the card: the standings' figures (in the
    # figures folded under the headline).
    expect(page.locator(".player-review")).to_have_count(6)
    page.locator("#review-figures > summary").click()
    finals = page.locator(".player-review .chain:not(.chance-chain) tr.final td:last-child"
                          ).all_inner_texts()
    standings = page.locator(".standings strong").all_inner_texts()
    assert sorted(map(int, finals)) == sorted(map(int, standings))
    expect(page.locator(".player-review").first).to_contain_text("on average, over")

    # Every graded slip has its sign in the move list, on the roll it was decided on (the
    # move before it); autoplay's are marked, not graded.
    slips = [d for d in analysis["decisions"]
             if d["grade"] in ("inaccuracy", "mistake", "blunder") and not d.get("autoplay")]
    assert slips, "six easy bots make mistakes"
    index_of = {f["seq"]: i for i, f in enumerate(frames)}

    def dice_of(d: dict) -> int:
        """The seq of the roll whose dice decision ``d`` was made on."""
        return frames[index_of[d["seq"]] - 1]["seq"]

    expect(page.locator("#move-list .move .g-mark")).to_have_count(len(slips))
    worst = max(slips, key=lambda d: d["loss"])
    sign = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[worst["grade"]]
    expect(page.locator(f'#move-list .move-rolled[data-seq="{dice_of(worst)}"] .g-mark')
           ).to_have_text(sign)

    # Beside the grade, the chance to win a decision gave up, where it is half a point or more.
    costly = [d for d in analysis["decisions"] if d.get("chance_loss", 0) >= 0.005]
    assert costly, "six easy bots give up chances to win"
    expect(page.locator("#move-list .move .chance-mark")).to_have_count(len(costly))
    most = max(costly, key=lambda d: d["chance_loss"])
    expect(page.locator(f'#move-list .move[data-seq="{dice_of(most)}"] .chance-mark')
           ).to_have_text(f"−{100 * most['chance_loss']:.1f} %")
    expect(page.locator(".player-review .chance-chain")).to_have_count(6)

    # By keyboard onto the dice of that decision: the verdict names the loss and the best.
    index = index_of[worst["seq"]]
    open_review(page, six_bot_game + f"#seq={frames[index - 2]['seq']}")
    press(page, "ArrowRight")
    assert position(page)["seq"] == dice_of(worst)
    verdict = page.locator("#replay-status .verdict")
    expect(verdict).to_contain_text(f"{sign}, {worst['loss']:.2f} points lost; best: ")
    expect(verdict).to_contain_text("Chance to win given up: ")
    expect(verdict).not_to_contain_text("Δ")
    assert cursor_x(page) == pytest.approx(chart_x(page, dice_of(worst)), abs=0.1)

    # A click on the chart goes to that moment (to the move, where the moves are under 2 px
    # apart and the click lands on a whole pixel): the replay, the URL and the marker follow.
    chart = page.locator("#analysis-chart svg")
    chart.scroll_into_view_if_needed()
    for want in (len(frames) // 3, 2 * len(frames) // 3 + 5):
        point = chart_point(page, frames[want]["seq"])
        page.mouse.click(point["x"], point["y"])
        at = position(page)
        assert abs(at["index"] - want) <= 1, (at, want)
        expect(page).to_have_url(re.compile(rf"#seq={at['seq']}$"))
        assert cursor_x(page) == pytest.approx(chart_x(page, at["seq"]), abs=0.1)
        expect(page.locator("#move-list button[aria-current=step]")).to_have_attribute(
            "data-seq", str(at["seq"]))
    target = at

    # Beside each player's value, their chance to win as this turn began: they add up to 100 %.
    odds = page.locator("#chart-legend .odds").all_inner_texts()
    assert len(odds) == 6 and all(o.endswith(" % to win") for o in odds)
    assert abs(sum(int(o.split("·")[1].split("%")[0]) for o in odds) - 100) <= 3
    turn = [s for s, _ in analysis["chances"] if s <= at["seq"]][-1]
    want = dict(analysis["chances"])[turn]
    # (Math.round in the page: halves go up.)
    assert [int(o.split("·")[1].split("%")[0]) for o in odds] == [
        math.floor(c * 100 + 0.5) for c in want]

    # The link reloads at that moment, the marker with it.
    page.reload()
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    assert position(page)["seq"] == target["seq"]
    assert cursor_x(page) == pytest.approx(chart_x(page, target["seq"]), abs=0.1)

    # What a reviewer sees: the worst slip of the game, the board, the chart, the summaries.
    open_review(page, six_bot_game + f"#seq={dice_of(worst)}")
    assert low_contrast_text(page) == []
    page.screenshot(path=str(screenshots / "review-analysis-desktop-full.png"), full_page=True)
    # Afresh: the full-page shot lays out every round of the move list, which moves its scroll.
    page.goto("about:blank")
    open_review(page, six_bot_game + f"#seq={dice_of(worst)}")
    page.locator("#review-figures > summary").click()
    page.evaluate("document.getElementById('analysis').scrollIntoView({block: 'start'})")
    page.screenshot(path=str(screenshots / "review-analysis-desktop.png"))


def test_the_analysis_on_a_phone(six_bot_game, new_context, screenshots):
    page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    open_review(page, six_bot_game + "#seq=40")
    frames = frames_of(page)
    chart = page.locator("#analysis-chart svg")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box["width"] <= PHONE["width"] and box["height"] >= 180  # readable, not squeezed
    want = len(frames) // 2
    point = chart_point(page, frames[want]["seq"])
    chart.tap(position={"x": point["x"] - box["x"], "y": point["y"] - box["y"]})
    expect(page).not_to_have_url(re.compile(r"#seq=40$"))
    at = position(page)
    assert abs(at["index"] - want) <= 2, (at, want)  # on a phone a move is under 1 px wide
    expect(page).to_have_url(re.compile(rf"#seq={at['seq']}$"))
    assert_fits(page)
    assert low_contrast_text(page) == []
    page.screenshot(path=str(screenshots / "review-analysis-phone.png"))
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "review-analysis-phone-full.png"), full_page=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_each_final_is_set_against_the_chances_before_the_game(six_bot_game, new_context,
                                                                screenshots, viewport, scheme):
    """Under each player's final score, how many games from an empty card end that high."""
    page = (new_context(PHONE, is_mobile=True, has_touch=True, color_scheme=scheme)
            if viewport == "phone" else new_context(DESKTOP, color_scheme=scheme)).new_page()
    open_review(page, six_bot_game)
    # The figures, folded under the headline, unfolded by their `open` attribute: on this
    # six-player page a click on the summary on a phone sometimes leaves them folded, for a
    # cause not yet found (test_review_reading clicks them open on a two-player page). Read
    # once unfolded: a closed <details> renders nothing, and its cells' text reads empty.
    page.locator("#review-figures").evaluate("details => { details.open = true; }")
    expect(page.locator(".player-review").first).to_be_visible()
    said = page.locator(".player-review .chain + .as-high")
    expect(said).to_have_count(6)
    finals = page.locator(".player-review .chain:not(.chance-chain) tr.final td:last-child")
    for i in range(6):
        final = finals.nth(i).inner_text()
        expect(said.nth(i)).to_have_text(re.compile(
            rf"^From an empty card, ((under|over) )?\d+(\.\d)? % of games end on {final} or "
            r"more\.$"))
    assert_fits(page)
    assert low_contrast_text(page) == []
    reviews = page.locator(".player-reviews")
    reviews.scroll_into_view_if_needed()
    page.locator(".player-review").first.screenshot(
        path=str(screenshots / f"review-as-high-{viewport}-{scheme}.png"))
    reviews.screenshot(path=str(screenshots / f"review-players-{viewport}-{scheme}.png"))


def test_the_review_renders_fast(six_bot_game, new_context):
    """Six players, 78 turns: the page's own work (parse the frames, build the move list, draw
    the table, lay the page out) stays under 300 ms; the times from the HTML's arrival and
    from the navigation are printed beside it (they depend on how busy the machine is)."""
    page = new_context(DESKTOP).new_page()
    open_review(page, six_bot_game)  # warm: static files cached, as for a returning reader
    timings = []
    lobby = six_bot_game.split("/games/")[0] + "/"
    for _ in range(5):
        page.goto(lobby)  # a reader comes from the site (same origin: same browser process)
        open_review(page, six_bot_game)
        timings.append(page.evaluate("""() => {
            const nav = performance.getEntriesByType('navigation')[0];
            const t = window.yahtzeeReplay.timing;
            return {total: t.readyAt, render: t.readyAt - nav.responseEnd,
                    html: nav.responseEnd - nav.startTime, script: t.scriptMs,
                    parts: [t.prepareMs, t.movesMs, t.chartMs, t.drawMs].map(Math.round),
                    bytes: nav.decodedBodySize};
        }"""))
    best = min(timings, key=lambda t: t["script"])
    print(f"\nreview of a 6-player game ({best['bytes']} bytes of HTML): drawn "
          f"{best['render']:.0f} ms after the HTML arrived (our script "
          f"{best['script']:.0f} ms: prepare, move list, chart, draw {best['parts']}); "
          f"{best['total']:.0f} ms from navigation (HTML {best['html']:.0f} ms); "
          f"all runs: {[round(t['render']) for t in timings]} / "
          f"{[round(t['total']) for t in timings]} ms")
    assert best["script"] < 300
    # The HTML with the replay's frames and the analysis: the frames carry the room's own state
    # patches (one renderer for both pages), ~10 KB more than a format of the replay's own.
    assert best["bytes"] < 160_000


def test_a_triple_review_on_a_phone_follows_the_column_of_each_score(daphne_server, new_context):
    page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    create_room(page, daphne_server, name="Triple bots", rules="triple", seats=["easy"] * 2,
                nickname="")
    page.locator("#start-btn").click()
    expect(page.locator("#result")).to_be_visible(timeout=120_000)
    page.locator("#game-page-link").click()
    expect(page.locator("#replay")).to_have_attribute("data-ready", "true")
    switch = page.locator("#replay-switch button")
    expect(switch).to_have_text(["Col. 1 ×1", "Col. 2 ×2", "Col. 3 ×3", "All"])
    frames = frames_of(page)
    press(page, "Home")
    for _ in range(12):  # six turns: each score shows up, in the column it went to
        press(page, "ArrowDown")
        frame = frames[position(page)["index"]]
        scored = [f for f in frames[: position(page)["index"] + 1] if f["kind"] == "scored"][-1]
        expect(switch.nth(scored["column"])).to_have_attribute("aria-pressed", "true")
        cell = page.locator(f'#replay-card tr[data-box="{scored["box"]}"] '
                            f'td.p{scored["player"]}[data-col="{scored["column"]}"]')
        expect(cell).to_have_text(re.compile(rf"^{scored['points']}"))
        assert frame["kind"] in ("scored", "bonus")
    switch.nth(3).tap()
    expect(page.locator("#replay-card thead tr").nth(1).locator("th")).to_have_count(6)
    assert_fits(page)

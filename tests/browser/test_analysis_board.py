"""A finished game's page as an analysis board, on a phone and a desktop: the board, the chart
and the moves together (a click on the chart or on a mistake's mark moves the replay, and the
dice are on screen); "only my mistakes" for a player of the game, a choice of player for anyone
else; Try it yourself graded as the server values every option."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from playwright.sync_api import Page, expect

from .axe import axe_violations
from .conftest import DESKTOP, PHONE
from .pages import (
    low_contrast_text,
)
from .review_pages import chart_point, finish_game, open_review

pytestmark = pytest.mark.browser

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def fixed(x: float, digits: int) -> str:
    """``x`` as the page writes it (JavaScript's toFixed: a tie of the binary value goes up)."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


@pytest.fixture(scope="module")
def ann_game(daphne_server, browser, yahtzee_table) -> dict:
    """A Yahtzee game Ann played against an easy computer player, each turn one roll scored in
    the first open box (mistakes enough), with its review: the page's URL and Ann's cookies."""
    url, state = finish_game(browser, daphne_server, name="Ann's slips",
                             seats=["human", "easy"], nickname="Ann")
    return {"url": url, "ann": state}


def viewport_context(new_context, viewport: str, **kwargs):
    if viewport == "phone":
        return new_context(PHONE, is_mobile=True, has_touch=True, **kwargs)
    return new_context(DESKTOP, **kwargs)


def position(page: Page) -> dict:
    return page.evaluate("""() => { const r = window.yahtzeeReplay;
        return {index: r.state.index, seq: r.frames[r.state.index].seq}; }""")


def analysis_of(page: Page) -> dict:
    return page.evaluate("JSON.parse(document.getElementById('analysis-data').textContent)")


def frames_of(page: Page) -> list[dict]:
    return page.evaluate("window.yahtzeeReplay.frames")


def slips(page: Page, player: int | None = None) -> list[dict]:
    """The graded slips of the review (autoplay's aside), with their player."""
    frames = {f["seq"]: f for f in frames_of(page)}
    return [{**d, "player": frames[d["seq"]]["player"]} for d in analysis_of(page)["decisions"]
            if d["grade"] in SYMBOLS and not d.get("autoplay")
            and (player is None or frames[d["seq"]]["player"] == player)]


def board_in_view(page: Page) -> bool:
    """The dice and the replay's words are wholly on screen."""
    return page.evaluate("""() => ['replay-dice', 'replay-status'].every((id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; })""")


def tap(page: Page, locator, phone: bool) -> None:
    if phone:
        locator.tap()
    else:
        locator.click()


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_chart_and_its_marks_move_the_replay_with_the_board_in_view(
        ann_game, new_context, screenshots, viewport):
    phone = viewport == "phone"
    page = viewport_context(new_context, viewport).new_page()
    open_review(page, ann_game["url"] + "#seq=1")
    everyone = slips(page)
    assert everyone, "a first open box each turn makes mistakes"
    marks = page.locator("#chart-marks .chart-mark")
    expect(marks).to_have_count(len(everyone))
    # Each mark names its slip: its grade, whose, the round, what it cost. (The costliest of
    # those a finger reaches: where marks meet, the worse one is on top.)
    page.locator("#analysis-chart").evaluate("e => e.scrollIntoView({block: 'end'})")
    on_top = set(page.evaluate("""() => [...document.querySelectorAll('#chart-marks button')]
        .filter((b) => { const r = b.getBoundingClientRect();
          return b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); })
        .map((b) => +b.dataset.seq)"""))
    assert on_top
    worst = max((d for d in everyone if d["seq"] in on_top), key=lambda d: d["loss"])
    mark = page.locator(f'#chart-marks .chart-mark[data-seq="{worst["seq"]}"]')
    expect(mark).to_have_attribute("aria-label", re.compile(
        rf"^{worst['grade'].capitalize()} by (Ann|Bot).* in round \d+: .*"
        rf"{fixed(worst['loss'], 2)} points lost$"))

    # The page scrolled to the chart: a mark moves the replay to the dice of its decision
    # (the move before it), the board on screen.
    frames = frames_of(page)
    index_of = {f["seq"]: i for i, f in enumerate(frames)}
    dice_seq = frames[index_of[worst["seq"]] - 1]["seq"]
    mark.evaluate("e => e.scrollIntoView({block: 'end'})")
    tap(page, mark, phone)
    assert position(page)["seq"] == dice_seq
    expect(page).to_have_url(re.compile(rf"#seq={dice_seq}$"))
    expect(page.locator("#move-list button[aria-current=step]")).to_have_attribute(
        "data-seq", str(dice_seq))
    expect(page.locator("#replay-status .verdict")).to_contain_text(SYMBOLS[worst["grade"]])
    assert board_in_view(page)

    # The chart itself, anywhere: the board shows the moment, on screen.
    want = frames[len(frames) // 3]
    chart = page.locator("#analysis-chart svg")
    # At the bottom of the screen: on a phone the board stays at the top, over what scrolls.
    chart.evaluate("e => e.scrollIntoView({block: 'end'})")
    point = chart_point(page, want["seq"])
    box = chart.bounding_box()
    if phone:
        chart.tap(position={"x": point["x"] - box["x"], "y": point["y"] - box["y"]})
    else:
        page.mouse.click(point["x"], point["y"])
    assert abs(position(page)["index"] - frames.index(want)) <= 2
    assert board_in_view(page)
    if not phone:
        # Side by side: the chart and the moves beside the board, nothing scrolled.
        assert page.evaluate("window.scrollY") == 0 or board_in_view(page)
        moves = page.locator("#move-list").bounding_box()
        assert moves["y"] < DESKTOP["height"] and chart.bounding_box()["y"] < DESKTOP["height"]

    # By keyboard: the marks are one tab stop; the arrows move among them, Enter goes there.
    first = marks.first
    first.focus()
    page.keyboard.press("ArrowRight")
    second = everyone[1] if len(everyone) > 1 else everyone[0]
    assert page.evaluate("document.activeElement.dataset.seq") == str(second["seq"])
    page.keyboard.press("Enter")
    assert position(page)["index"] == index_of[second["seq"]] - 1
    assert page.locator("#chart-marks button[tabindex='0']").count() == 1

    page.goto("about:blank")
    open_review(page, ann_game["url"] + f"#seq={dice_seq}")
    assert low_contrast_text(page) == []
    page.screenshot(path=str(screenshots / f"analysis-board-{viewport}.png"))
    if phone:  # the board at the top while the chart and the scorecards scroll under it
        page.locator("#analysis-chart svg").evaluate("e => e.scrollIntoView({block: 'end'})")
        assert board_in_view(page)
        page.screenshot(path=str(screenshots / "analysis-board-phone-scrolled.png"))


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_only_my_mistakes_and_anyone_elses(ann_game, new_context, screenshots, viewport):
    phone = viewport == "phone"
    # Ann, on her browser: the toggle.
    page = viewport_context(new_context, viewport, storage_state=ann_game["ann"]).new_page()
    open_review(page, ann_game["url"])
    mine = slips(page, 0)
    assert mine
    toggle = page.get_by_role("button", name="Only my mistakes")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    all_turns = page.locator("#move-list li.turn:not([hidden])").count()
    tap(page, toggle, phone)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    turns = page.locator("#move-list li.turn:not([hidden])")
    seqs = {d["seq"] for d in mine}
    shown = turns.evaluate_all("""els => els.map((e) => ({player: e.dataset.player,
        seqs: [...e.querySelectorAll('button.move')].map((b) => +b.dataset.seq)}))""")
    assert shown and len(shown) < all_turns
    assert all(t["player"] == "0" and seqs & set(t["seqs"]) for t in shown)
    assert {s for t in shown for s in t["seqs"]} >= seqs  # every slip of hers is listed
    expect(page.locator("#chart-marks .chart-mark")).to_have_count(len(mine))
    expect(page.locator("#moves-filter-note")).to_contain_text("Your ")
    page.locator("#replay").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"analysis-only-mine-{viewport}.png"))
    tap(page, toggle, phone)
    expect(page.locator("#move-list li.turn:not([hidden])")).to_have_count(all_turns)
    expect(page.locator("#chart-marks .chart-mark")).to_have_count(len(slips(page)))

    # Someone who did not play: a choice of player instead.
    other = viewport_context(new_context, viewport).new_page()
    open_review(other, ann_game["url"])
    expect(other.get_by_role("button", name="Only my mistakes")).to_have_count(0)
    picker = other.get_by_label("Show the mistakes of")
    picker.select_option("1")
    bots = slips(other, 1)
    expect(other.locator("#chart-marks .chart-mark")).to_have_count(len(bots))
    assert all(p == "1" for p in other.locator("#move-list li.turn:not([hidden])").evaluate_all(
        "els => els.map((e) => e.dataset.player)"))
    picker.select_option("")
    expect(other.locator("#chart-marks .chart-mark")).to_have_count(len(slips(other)))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_try_it_yourself_grades_another_choice_as_the_server_does(
        ann_game, new_context, screenshots, viewport, scheme):
    phone = viewport == "phone"
    page = viewport_context(new_context, viewport, color_scheme=scheme,
                            bypass_csp=True).new_page()
    open_review(page, ann_game["url"])
    frames = frames_of(page)
    index_of = {f["seq"]: i for i, f in enumerate(frames)}
    # Ann's costliest box: she scored the first open box; try another one.
    decision = max((d for d in slips(page, 0) if frames[index_of[d["seq"]]]["kind"] == "scored"),
                   key=lambda d: d["loss"])
    decision["chosen"] = frames[index_of[decision["seq"]]]["box"]
    at = index_of[decision["seq"]] - 1
    open_review(page, ann_game["url"] + f"#seq={frames[at]['seq']}")
    start = page.locator("#try-panel .try-start")
    tap(page, start, phone)
    expect(page.locator("#try-panel .try-title")).to_have_text("Try it yourself")
    assert position(page)["index"] == at  # the dice the decision was made on
    server = page.request.get(
        f"{ann_game['url'].split('#')[0].rstrip('/')}/try/{decision['seq']}").json()
    assert server["chosen"] == decision["chosen"]
    dice = page.locator("#replay-dice button.die").evaluate_all(
        "els => els.map((e) => +e.dataset.value)")
    assert dice == server["dice"] == frames[at]["dice"]

    # Another box than hers, on the scorecard as in the room: graded as the server grades it.
    other = next(o for o in server["boxes"] if o["box"] != decision["chosen"])
    tap(page, page.locator(f'#replay-card button.option[data-box="{other["box"]}"]'), phone)
    verdict = page.locator("#try-panel .try-verdict")
    expect(verdict).to_have_attribute("data-grade", other["grade"])
    expect(verdict).to_contain_text(words_of(other))
    if other["loss"] >= 0.01:
        expect(verdict).to_contain_text(f"{fixed(other['loss'], 2)} points behind the best")
    expect(verdict).to_contain_text(f"Expected final score {fixed(other['expected'], 1)}")
    # Beside it, what was played: the review's own figure for her choice.
    expect(verdict).to_contain_text("In the game: Scored ")
    expect(verdict).to_contain_text(f"({fixed(decision['loss'], 2)} lost)")

    # Dice held and the others rolled (rolls were left: she scored after one roll).
    assert server["rolls_left"] == 2
    buttons = page.locator("#replay-dice button.die")
    tap(page, buttons.nth(0), phone)
    tap(page, buttons.nth(1), phone)
    expect(buttons.nth(0)).to_have_attribute("aria-pressed", "true")
    kept = sorted(server["dice"][:2])
    hold = next(o for o in server["holds"] if o["keep"] == kept)
    tap(page, page.locator("#try-panel .try-roll"), phone)
    expect(verdict).to_have_attribute("data-grade", hold["grade"])
    expect(verdict).to_contain_text(f"Keep {' '.join(map(str, kept))}: {words_of(hold)}")
    if hold["loss"] >= 0.01:
        expect(verdict).to_contain_text(f"{fixed(hold['loss'], 2)} points behind the best")
    assert axe_violations(page) == []
    page.screenshot(path=str(screenshots / f"try-it-{viewport}-{scheme}.png"))

    # Back to the game: the replay as it was, the decision there to try again.
    tap(page, page.locator("#try-panel .try-stop"), phone)
    expect(page.locator("#try-panel .try-start")).to_be_visible()
    expect(page.locator("#replay-dice button")).to_have_count(0)


def words_of(option: dict) -> str:
    return {"best": "the best choice", "good": "good", "inaccuracy": "an inaccuracy",
            "mistake": "a mistake", "blunder": "a blunder"}[option["grade"]]

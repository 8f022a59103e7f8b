"""A finished game's review as a player reads it, on a phone and a desktop: every mistake's
mark on the chart opens one decision — the board shows the dice it was made on, the words
speak of it, and Try it yourself offers that same decision on those dice; the headline says
the result and why in whole points that agree with the figures folded below it; a solo game
tells a score, never a win."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .axe import axe_violations
from .conftest import DESKTOP, PHONE
from .pages import assert_fits, low_contrast_text
from .review_pages import finish_game, open_review

pytestmark = pytest.mark.browser

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def finished(browser, server, *, name: str, seats: list[str], nickname: str) -> dict:
    url, state = finish_game(browser, server, name=name, seats=seats, nickname=nickname)
    return {"url": url, "player": state}


@pytest.fixture(scope="module")
def duel(daphne_server, browser, yahtzee_table) -> dict:
    """Ann against an easy computer player: her boxes and its re-rolls, both kinds of slip."""
    return finished(browser, daphne_server, name="Marks", seats=["human", "easy"],
                       nickname="Ann")


@pytest.fixture(scope="module")
def solo(daphne_server, browser, yahtzee_table) -> dict:
    return finished(browser, daphne_server, name="Alone", seats=["human"], nickname="Pat")


def viewport_page(new_context, viewport: str, **kwargs) -> Page:
    if viewport == "phone":
        return new_context(PHONE, is_mobile=True, has_touch=True, **kwargs).new_page()
    return new_context(DESKTOP, **kwargs).new_page()


def board(page: Page) -> dict:
    """What the board shows: the frame, its dice as drawn, the words, Try it yourself's offer."""
    return page.evaluate("""() => {
        const r = window.yahtzeeReplay;
        const dice = [...document.querySelectorAll('#replay-dice li')]
          .map((li) => +li.dataset.value);
        const verdict = document.querySelector('#replay-status .verdict');
        return {index: r.state.index, seq: r.frames[r.state.index].seq, dice,
                words: verdict ? verdict.textContent.trim() : '',
                tryOffered: Boolean(document.querySelector('#try-panel .try-start'))}; }""")


def settle(page: Page) -> None:
    """Until the page has drawn two frames: what its scripts changed is laid out."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                  "requestAnimationFrame(done)))")


def on_top(page: Page, mark) -> bool:
    """Whether a finger or a pointer reaches the mark (where marks meet, the worse is on top)."""
    return mark.evaluate("""(b) => { const r = b.getBoundingClientRect();
        return b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }""")


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_every_mark_opens_one_decision_board_words_and_try_alike(duel, new_context, screenshots,
                                                                   viewport):
    phone = viewport == "phone"
    page = viewport_page(new_context, viewport)
    open_review(page, duel["url"])
    frames = page.evaluate("window.yahtzeeReplay.frames")
    index_of = {f["seq"]: i for i, f in enumerate(frames)}
    decisions = page.evaluate("JSON.parse(document.getElementById('analysis-data').textContent)"
                              )["decisions"]
    slips = [d for d in decisions if d["grade"] in SYMBOLS and not d.get("autoplay")]
    marks = page.locator("#chart-marks .chart-mark")
    expect(marks).to_have_count(len(slips))
    kinds = {frames[index_of[d["seq"]]]["kind"] for d in slips}
    assert kinds == {"rolled", "scored"}, kinds  # re-rolls and boxes both marked
    base = duel["url"].split("#")[0].rstrip("/")
    clicked = 0
    for k, slip in enumerate(slips):
        mark = marks.nth(k)
        assert mark.get_attribute("data-seq") == str(slip["seq"])
        made = frames[index_of[slip["seq"]]]  # the move the decision made
        at = index_of[slip["seq"]] - 1  # the moment of the dice it was made on
        mark.evaluate("e => e.scrollIntoView({block: 'center'})")
        # The board above the chart re-renders once the last decision's Try it yourself is
        # left: a tap aimed before that is laid out can land on another mark.
        settle(page)
        if on_top(page, mark):  # pressed as a person would; a mark under another by keyboard
            size = mark.evaluate("e => [e.offsetWidth, e.getBoundingClientRect().width]")
            mark.tap() if phone else mark.click()
            clicked += 1
            # Under the pointer (and, on a touch screen, stuck there after the tap) a mark keeps
            # its size: grown, it covered the next mark's middle and took its tap.
            assert mark.evaluate("e => [e.offsetWidth, e.getBoundingClientRect().width]") == size
        else:
            mark.focus()
            page.keyboard.press("Enter")
        shown = board(page)
        # The board: the dice the decision was made on.
        assert shown["index"] == at, (slip, shown)
        assert shown["dice"] == frames[at]["dice"]
        if made["kind"] == "scored":
            assert made["dice"] == frames[at]["dice"]
        else:
            assert all(made["dice"][p] == frames[at]["dice"][p] for p in made["held"])
        # The words: that decision — what was chosen (the mark's own words), its grade, its cost.
        chosen = re.search(r" in round \d+: (.*), [\d.]+ points lost$",
                           mark.get_attribute("aria-label")).group(1)
        assert shown["words"].count("Choice: ") == 1, shown["words"]
        assert f"Choice: {chosen} — " in shown["words"], (chosen, shown["words"])
        # Its cost as the page rounds it (a half-cent may round up there and down in Python).
        cost = re.search(re.escape(SYMBOLS[slip["grade"]]) + r", ([\d.]+) point", shown["words"])
        assert cost and abs(float(cost.group(1)) - slip["loss"]) <= 0.005 + 1e-9, shown
        assert "Δ" not in shown["words"] and " pp" not in shown["words"]
        # Try it yourself: offered here, and it asks for that decision, on those dice.
        assert shown["tryOffered"]
        with page.expect_response(re.compile(r"/try/\d+$")) as answer:
            start = page.locator("#try-panel .try-start")
            start.tap() if phone else start.click()
        assert answer.value.url == f"{base}/try/{slip['seq']}"
        expect(page.locator("#try-panel .try-title")).to_have_text("Try it yourself")
        tried = answer.value.json()
        assert page.evaluate("window.yahtzeeReplay.tryIt.state.seq") == slip["seq"]
        assert page.evaluate("window.yahtzeeReplay.state.index") == at
        dice = page.locator("#replay-dice button.die").evaluate_all(
            "els => els.map((e) => +e.dataset.value)")
        assert dice == tried["dice"] == frames[at]["dice"]
        assert tried["chosen"] == (made["box"] if made["kind"] == "scored"
                                   else sorted(made["dice"][p] for p in made["held"]))
        if k == 0:
            page.screenshot(path=str(screenshots / f"review-mark-try-{viewport}.png"))
        back = page.locator("#try-panel .try-stop")
        back.tap() if phone else back.click()
        expect(page.locator("#try-panel .try-start")).to_be_visible()
    assert clicked >= len(slips) // 2, (clicked, len(slips))  # most by the pointer itself
    print(f"{viewport}: {len(slips)} marks, {clicked} clicked, {len(slips) - clicked} by keyboard")

    # The worst slip, as a reader lands on it: the board, its words and the chart together.
    worst = max(slips, key=lambda d: d["loss"])
    page.goto("about:blank")
    open_review(page, duel["url"])
    mark = page.locator(f'#chart-marks .chart-mark[data-seq="{worst["seq"]}"]')
    mark.evaluate("e => e.scrollIntoView({block: 'center'})")
    mark.focus()
    page.keyboard.press("Enter")
    assert board(page)["index"] == index_of[worst["seq"]] - 1
    # In the move list the grade is on the roll the choice was made on, the current move.
    current = page.locator("#move-list button[aria-current=step]")
    expect(current.locator(".g-mark")).to_have_text(SYMBOLS[worst["grade"]])
    assert low_contrast_text(page) == []
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / f"review-mark-worst-{viewport}.png"))
    # The same in the dark: its words, its marks and the move list's grade.
    dark = viewport_page(new_context, viewport, color_scheme="dark")
    open_review(dark, duel["url"] + f"#seq={frames[index_of[worst['seq']] - 1]['seq']}")
    assert board(dark)["words"].count("Choice: ") == 1
    assert low_contrast_text(dark) == []
    dark.screenshot(path=str(screenshots / f"review-mark-worst-{viewport}-dark.png"))
    if not phone:  # a mark under the pointer, ringed, in both schemes
        for scheme, shown in (("light", page), ("dark", dark)):
            shown.locator(f'#chart-marks .chart-mark[data-seq="{worst["seq"]}"]').hover()
            shown.locator(".chart-box").screenshot(
                path=str(screenshots / f"review-mark-hover-{scheme}.png"))


def figures_of(page: Page, name: str) -> dict:
    """A player's chain in the folded figures: its rows' values by label."""
    card = page.locator(".player-review", has=page.locator("h3", has_text=name))
    rows = card.locator(".chain:not(.chance-chain) tr")
    out = {}
    for i in range(rows.count()):
        label = rows.nth(i).locator("th").text_content().strip()
        op = rows.nth(i).locator("td.op").text_content().strip()
        out[label] = (op, float(rows.nth(i).locator("td").last.text_content().strip()))
    return out


def whole(x: float) -> int:
    return int(x + 0.5)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_headline_says_the_result_and_why_as_the_figures_below(duel, new_context, screenshots,
                                                                    viewport, scheme):
    # Ann, who played: from her side.
    page = viewport_page(new_context, viewport, storage_state=duel["player"], color_scheme=scheme,
                         bypass_csp=True)  # axe is injected
    open_review(page, duel["url"])
    headline = page.locator("#review-headline")
    expect(headline).to_be_visible()
    text = headline.inner_text()
    finals = dict(zip(page.locator(".standings .standing-name").all_inner_texts(),
                      map(int, page.locator(".standings strong").all_inner_texts()), strict=True))
    ann, bot = finals["Ann"], next(v for k, v in finals.items() if k != "Ann")
    if ann > bot:
        assert text.startswith(f"You won by {ann - bot} point"), text
    elif ann < bot:
        assert re.match(rf"You lost by {bot - ann} points? to .+\.", text), text
    else:
        assert text.startswith("You tied for the win with "), text
    # Its numbers are the figures below, folded, in whole points.
    figures = page.locator("#review-figures")
    expect(figures).not_to_have_attribute("open", "")
    expect(page.locator(".player-review").first).not_to_be_visible()
    page.locator("#review-figures > summary").click()
    expect(page.locator(".player-review").first).to_be_visible()
    chain = figures_of(page, "Ann")
    op, luck = chain["Luck of the dice"]
    _, loss = chain["Points lost to the choices"]
    if whole(luck) == 0:
        assert f"Your dice were average; your choices cost {whole(loss)} point" in text
    elif op == "−":
        assert f"The dice cost you {whole(luck)} point" in text, (text, chain)
        assert f"your choices {whole(loss)}." in text
    else:
        assert f"The dice gave you {whole(luck)} point" in text and \
            f"your choices cost {whole(loss)}." in text
    for word in ("Δ", " pp", "Verhoeff", "(the model)", "Outcome", "An empty card is worth"):
        assert word not in page.locator("#analysis").inner_text(), word
    assert_fits(page)
    assert low_contrast_text(page) == []
    assert axe_violations(page) == []
    page.locator("#review-figures > summary").click()  # folded again for the first look
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / f"review-headline-{viewport}-{scheme}.png"))
    page.locator("#review-figures > summary").click()
    page.locator("#review-figures").screenshot(
        path=str(screenshots / f"review-figures-{viewport}-{scheme}.png"))

    # Someone who did not play: about the winner, by name.
    other = viewport_page(new_context, viewport, color_scheme=scheme)
    open_review(other, duel["url"])
    said = other.locator("#review-headline").inner_text()
    winner = max(finals, key=finals.get)
    if ann != bot:
        assert said.startswith(f"{winner} won by {abs(ann - bot)} point"), said
        assert f"{winner}: " in said
    assert "You " not in said and "your " not in said


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_solo_game_tells_a_score_not_a_win(solo, new_context, screenshots, viewport):
    page = viewport_page(new_context, viewport, storage_state=solo["player"])
    open_review(page, solo["url"])
    final = int(page.locator(".standings strong").inner_text())
    headline = page.locator("#review-headline")
    expect(headline).to_have_text(re.compile(rf"^You scored {final} points\. "))
    top = page.locator(".game-meta").inner_text() + headline.inner_text()
    assert "Won by" not in top and " win" not in top
    expect(page.locator(".standings li.winner")).to_have_count(0)
    # The replay's last words: a score too.
    page.keyboard.press("End")
    expect(page.locator("#replay-status")).to_contain_text(f"Game over: Pat scored {final}.")
    expect(page.locator("#replay-status")).not_to_contain_text("wins")
    assert_fits(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / f"review-solo-{viewport}.png"))


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_review_reads_in_the_readers_language_on_a_phone(duel, new_context, screenshots,
                                                             language):
    """The headline and a mark's words, translated, fitting a 390 px phone."""
    page = viewport_page(new_context, "phone", storage_state=duel["player"],
                         locale={"de": "de-DE", "fr": "fr-FR"}[language])
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": duel["url"]}])
    open_review(page, duel["url"])
    headline = page.locator("#review-headline").inner_text()
    said = {"de": ("Du hast", "Würfel"), "fr": ("Tu as", "dés")}[language]
    assert headline.startswith(said[0]) and said[1] in headline, headline
    mark = page.locator("#chart-marks .chart-mark").first
    mark.focus()
    page.keyboard.press("Enter")
    words = page.locator("#replay-status .verdict").inner_text()
    assert words.split("\n")[-1].startswith({"de": "Entscheidung: ", "fr": "Choix : "}[language])
    assert_fits(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / f"review-headline-phone-{language}.png"))

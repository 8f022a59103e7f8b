"""The lobby: its lists follow what other people do without a reload; one click starts a game
against the computer; a code (or a pasted link) leads to a friend's room."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE
from .pages import assert_fits, low_contrast_text, room_options, settle, wait_connected

pytestmark = pytest.mark.browser

# lobby.js polls every 4 s; a busy machine may take a little longer to answer.
LIVE = 12_000


def marked(page: Page) -> None:
    """Mark the document: a reload would lose the mark."""
    page.evaluate("() => { window.noReload = true; }")


def not_reloaded(page: Page) -> bool:
    return page.evaluate("() => window.noReload === true")


def test_the_lobby_shows_another_sessions_new_room_without_a_reload(
        daphne_server, new_context, screenshots):
    watcher = new_context(DESKTOP).new_page()
    phone = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    for page in (watcher, phone):
        page.goto(daphne_server.url + "/")
        marked(page)
    # Someone else creates a room with a free seat, in their own session.
    maker = new_context(DESKTOP).new_page()
    maker.goto(daphne_server.url + "/")
    room_options(maker)
    maker.fill("[name=name]", "Live <i>room</i>")
    maker.select_option(".create-form [name=seats]", "3")
    maker.select_option("[name=seat_1]", "optimal")
    maker.fill("[name=nickname]", "Maker")
    maker.get_by_role("button", name="Play with friends").click()
    maker.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(maker)  # Maker is "here"
    code = maker.url.rstrip("/").rsplit("/", 1)[-1]

    for page in (watcher, phone):
        waiting = page.locator("section", has=page.locator("#waiting-title"))
        item = waiting.locator(f'li[data-code="{code}"]')
        expect(item).to_be_visible(timeout=LIVE)
        expect(item.locator("a")).to_have_text("Live <i>room</i>")  # text, not markup
        expect(item.locator(".seat-person")).to_have_text("Maker here", timeout=LIVE)
        expect(item.locator(".seat-bot")).to_have_text("Bot 1 (optimal) computer")
        expect(item.locator(".room-seats em")).to_have_text("free seat")
        assert not_reloaded(page)
    settle(watcher)
    watcher.screenshot(path=str(screenshots / "lobby-live.png"), full_page=True)
    phone.screenshot(path=str(screenshots / "lobby-live-phone.png"), full_page=True)
    assert_fits(phone)
    assert low_contrast_text(watcher) == [] and low_contrast_text(phone) == []

    # The phone joins by typing the code (with stray capitals and spaces).
    phone.fill("[name=code]", f" {code.upper()} ")
    phone.get_by_role("button", name="Join", exact=True).click()
    phone.wait_for_url(re.compile(f"/r/{code}/$"))
    wait_connected(phone)
    expect(phone.locator("#join")).to_be_visible()  # the room's own form takes a seat
    # A code that leads nowhere: the lobby says so, nothing else happens.
    phone.goto(daphne_server.url + "/")
    phone.fill("[name=code]", "zzzzzzzz")
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.locator(".messages")).to_contain_text("No room has the code zzzzzzzz.")
    phone.screenshot(path=str(screenshots / "lobby-bad-code-phone.png"))


def test_one_click_starts_a_game_against_the_computer(daphne_server, new_context,
                                                      screenshots):
    page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(daphne_server.url + "/")
    assert_fits(page)
    page.screenshot(path=str(screenshots / "lobby-phone-top.png"))
    expect(page.locator(".lobby-quick")).to_contain_text("you play as Player")
    page.get_by_role("button", name="Play against the computer").tap()
    page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(page)
    code = page.url.rstrip("/").rsplit("/", 1)[-1]
    expect(page.locator("h1")).to_have_text("Player vs the computer")
    expect(page.locator("#turn")).to_contain_text("round 1 of")
    expect(page.locator("#roll-btn")).to_be_enabled()  # my turn, from the first click
    page.locator("#roll-btn").tap()
    first_box = page.locator("#scorecard button.option").first
    expect(first_box).to_be_visible()
    first_box.tap()
    if page.locator("#confirm").is_visible():  # a 0 with these dice asks first
        page.locator("#confirm .confirm-yes").tap()
    # The computer (medium, BOT_DELAY 0 here) plays its turn and it is mine again.
    expect(page.locator("#log")).to_contain_text(
        re.compile(r"Bot 1 \(medium\) (scored|scratched)"), timeout=LIVE)
    expect(page.locator("#roll-btn")).to_be_enabled(timeout=LIVE)
    settle(page)
    page.screenshot(path=str(screenshots / "room-computer-phone.png"), full_page=True)

    # Someone else's lobby lists the game: the person is here, the computer is not "here".
    other = new_context(DESKTOP).new_page()
    other.goto(daphne_server.url + "/")
    now = other.locator("section", has=other.locator("#playing-title"))
    item = now.locator(f'li[data-code="{code}"]')
    expect(item).to_be_visible()
    expect(item.locator(".seat-person")).to_have_text("Player here")
    expect(item.locator(".seat-bot")).to_have_text("Bot 1 (medium) computer")
    other.screenshot(path=str(screenshots / "lobby-playing.png"), full_page=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_a_seat_and_the_one_click_game_go_to_the_computer_that_plays_to_win(
        daphne_server, new_context, screenshots, viewport, scheme):
    """The level in both of the lobby's choices and its line of help; a level the lists do not
    have (a page of an older release, a forged post) is refused beside its seat."""
    phone = viewport == "phone"
    page = (new_context(PHONE, is_mobile=True, has_touch=True, color_scheme=scheme) if phone
            else new_context(DESKTOP, color_scheme=scheme)).new_page()
    page.goto(daphne_server.url + "/")
    page.select_option("#computer_level", "to_win")
    quick = page.locator(".lobby-quick")
    expect(quick.locator("#computer_level option:checked")).to_have_text("Plays to win")
    expect(quick).to_contain_text("Plays to win goes for the win, not the most points")
    room_options(page)
    page.select_option(".create-form [name=seats]", "3")
    page.select_option("[name=seat_1]", "to_win")
    expect(page.locator("[name=seat_1] option:checked")).to_have_text("Computer — plays to win")
    assert_fits(page)
    assert low_contrast_text(page) == []
    page.locator(".seat-kinds").scroll_into_view_if_needed()
    page.locator(".lobby-friends").screenshot(
        path=str(screenshots / f"lobby-to-win-seat-{viewport}-{scheme}.png"))
    quick.screenshot(path=str(screenshots / f"lobby-to-win-quick-{viewport}-{scheme}.png"))

    page.locator("[name=seat_2]").evaluate("el => { el.options[3].value = 'grandmaster'; }")
    page.select_option("[name=seat_2]", "grandmaster")
    page.fill("[name=nickname]", "Ann")
    page.get_by_role("button", name="Play with friends").click()
    page.wait_for_load_state()
    error = page.locator(".seat-kinds .field-errors")
    expect(error).to_have_text("Choose a person or one of the computer levels from the list.")
    assert_fits(page)
    assert low_contrast_text(page) == []
    error.scroll_into_view_if_needed()
    page.locator(".seat-kinds").screenshot(
        path=str(screenshots / f"lobby-bad-level-{viewport}-{scheme}.png"))

    page.select_option("[name=seat_2]", "human")
    page.get_by_role("button", name="Play with friends").click()
    page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(page)
    bot = page.locator("#seats li", has_text="Bot 1 (to win)")
    expect(bot).to_contain_text("computer")
    page.screenshot(path=str(screenshots / f"room-to-win-{viewport}-{scheme}.png"))

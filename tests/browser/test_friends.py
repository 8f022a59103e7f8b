"""Friends at the table: the taps from the lobby to a two-friend game's first roll, the name
set once in the header, the friend's one button and the invite (share sheet, copy, QR code),
on a phone and a desktop, light and dark. Screenshots in var/screenshots/friends-*."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from .conftest import DESKTOP, PHONE
from .pages import assert_fits, dice, low_contrast_text, settle, wait_connected

pytestmark = pytest.mark.browser

# Stands in for the system share sheet (headless Chromium has none): keeps what was shared.
FAKE_SHARE = """
navigator.share = async (data) => { window.sharedData = data; };
"""


@dataclass
class Taps:
    """Counts a person's taps (a click on a desktop, a touch on a phone)."""

    page: Page
    touch: bool
    count: int = 0

    def __call__(self, target: Locator) -> None:
        self.count += 1
        if self.touch:
            target.tap()
        else:
            target.click()


def context_for(new_context, viewport: str, scheme: str = "light") -> BrowserContext:
    if viewport == "phone":
        context = new_context(PHONE, is_mobile=True, has_touch=True, color_scheme=scheme)
        context.add_init_script(FAKE_SHARE)
    else:
        context = new_context(DESKTOP, color_scheme=scheme)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
    return context


def set_name_in_header(page: Page, name: str) -> None:
    page.locator(".name-control summary").click()
    page.fill("#site-name", name)
    page.locator(".name-form button[type=submit]").click()
    expect(page.locator(".name-current")).to_have_text(name)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_from_the_lobby_to_the_first_roll_in_four_taps_for_the_host_and_two_for_a_friend(
        daphne_server, new_context, screenshots, viewport):
    touch = viewport == "phone"
    host = context_for(new_context, viewport).new_page()
    host.goto(daphne_server.url + "/")
    # Her name, once, from the header (any page); the lobby and every room use it from then on.
    set_name_in_header(host, "Ann")
    expect(host.locator("#friends_nickname")).to_have_value("Ann")
    # The first screen offers both ways to play, without scrolling.
    for button in ("Play with friends", "Play against the computer"):
        assert host.get_by_role("button", name=button).is_visible()
        box = host.get_by_role("button", name=button).bounding_box()
        assert box["y"] + box["height"] <= host.viewport_size["height"], button
    assert_fits(host)
    host.screenshot(path=str(screenshots / f"friends-lobby-{viewport}.png"))

    ann = Taps(host, touch)
    ann(host.get_by_role("button", name="Play with friends"))
    host.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(host)
    expect(host.locator("h1")).to_have_text("Ann’s table")
    expect(host.locator("#seats .seat.mine")).to_contain_text("Ann")  # seated at once
    invite = host.locator("#invite")
    expect(invite).to_be_visible()
    if touch:  # the system share sheet; the QR code folded, one tap shows it to a friend
        expect(host.locator(".invite-qr")).to_be_hidden()
        qr = host.get_by_role("button", name="Show the QR code")
        qr.click()
        expect(host.locator(".invite-qr svg")).to_be_visible()
        host.locator("#invite").screenshot(path=str(screenshots / "room44-qr-open-phone.png"))
        expect(host.get_by_role("button", name="Hide the QR code")).to_have_attribute(
            "aria-expanded", "true")
        host.get_by_role("button", name="Hide the QR code").click()
        expect(host.locator(".invite-qr")).to_be_hidden()
        ann(host.get_by_role("button", name="Share invite link"))
        link = host.evaluate("() => window.sharedData.url")
    else:  # no share sheet here: copy, or scan the QR code from the screen
        expect(host.get_by_role("button", name="Share invite link")).to_be_hidden()
        expect(host.locator(".invite-qr svg")).to_be_visible()
        expect(host.locator("#qr-toggle")).to_be_hidden()  # beside the link, no fold
        ann(host.get_by_role("button", name="Copy invite link"))
        expect(host.locator("#copy-link")).to_have_text("Link copied")
        link = host.evaluate("() => navigator.clipboard.readText()")
    assert link == host.url
    settle(host)
    host.screenshot(path=str(screenshots / f"friends-invite-{viewport}.png"), full_page=True)

    guest = context_for(new_context, viewport).new_page()
    guest.goto(link)  # opening the link: no tap
    wait_connected(guest)
    join = guest.locator("#join")
    expect(join).to_be_visible()
    expect(join.locator("button")).to_have_count(1)
    expect(guest.locator("#seats")).to_contain_text("Ann")  # the table, who sits there
    expect(guest.locator("#invite")).to_be_hidden()  # watchers join; the seated invite
    bea = Taps(guest, touch)
    bea(join.locator("#join_nickname"))
    guest.keyboard.type("Bea")
    expect(guest.locator("#join-btn")).to_have_text("Join as Bea")
    assert_fits(guest)
    guest.screenshot(path=str(screenshots / f"friends-join-{viewport}.png"), full_page=True)
    bea(guest.get_by_role("button", name="Join as Bea"))
    guest.wait_for_load_state()
    wait_connected(guest)
    expect(guest.locator("#seats .seat.mine")).to_contain_text("Bea")

    expect(host.locator("#seats")).to_contain_text("Bea")
    ann(host.get_by_role("button", name="Start the game"))
    ann(host.locator("#roll-btn"))
    # An unrolled die carries data-value="" (drawn at the start), so wait for faces.
    rolled = '#dice .die:not([data-value=""])'
    expect(guest.locator(rolled)).to_have_count(5)  # everyone sees it
    expect(host.locator(rolled)).to_have_count(5)  # each page draws its own
    assert dice(host) == dice(guest)
    assert (ann.count, bea.count) == (4, 2)
    assert low_contrast_text(host) == [] and low_contrast_text(guest) == []


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_dark_lobby_join_and_invite(daphne_server, new_context, screenshots, viewport):
    host = context_for(new_context, viewport, "dark").new_page()
    host.goto(daphne_server.url + "/")
    assert low_contrast_text(host) == []
    host.screenshot(path=str(screenshots / f"friends-lobby-dark-{viewport}.png"))
    host.locator(".more-options > summary").click()
    host.locator(".more-options .own-seed summary").click()
    assert low_contrast_text(host) == []
    assert_fits(host)
    host.screenshot(path=str(screenshots / f"friends-options-dark-{viewport}.png"),
                    full_page=True)
    host.fill("#friends_nickname", "Ann")
    host.get_by_role("button", name="Play with friends").click()
    wait_connected(host)
    expect(host.locator("#invite")).to_be_visible()
    assert low_contrast_text(host) == []
    settle(host)
    host.screenshot(path=str(screenshots / f"friends-invite-dark-{viewport}.png"),
                    full_page=True)
    guest = context_for(new_context, viewport, "dark").new_page()
    guest.goto(host.url)
    wait_connected(guest)
    guest.locator(".own-seed summary").click()  # the dice seed: one tap away, not in the way
    expect(guest.locator("#join_dice_seed")).to_have_value(re.compile("^[0-9a-f]{16}$"))
    assert low_contrast_text(guest) == []
    assert_fits(guest)
    guest.screenshot(path=str(screenshots / f"friends-join-dark-{viewport}.png"),
                     full_page=True)
    # The header's name control, opened, in the dark.
    guest.locator(".name-control summary").click()
    expect(guest.locator("#site-name")).to_be_visible()
    assert low_contrast_text(guest) == []
    guest.screenshot(path=str(screenshots / f"friends-name-dark-{viewport}.png"))

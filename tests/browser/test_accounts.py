"""Accounts in a real browser, against a Daphne of their own that mails through a real SMTP
server on loopback: a guest with games signs up and keeps them, a second browser whose guest
has games signs in and its games join the account, sign-out, a password changed and a
forgotten one reset by the emailed link, look-alike names refused, a lockout in the site's
look, no guest taking an account's player over; and the account pages on a phone and a
desktop, light and dark."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.support.smtp import Inbox, running_smtp_server

from .axe import axe_violations
from .conftest import DESKTOP, PHONE, ROOT, LiveServer
from .pages import assert_fits, low_contrast_text

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
LOOKS = [("phone", PHONE, "light"), ("phone", PHONE, "dark"),
         ("desktop", DESKTOP, "light"), ("desktop", DESKTOP, "dark")]


@pytest.fixture(scope="module")
def smtp() -> Iterator[Inbox]:
    with running_smtp_server() as inbox:
        yield inbox


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, redis_url: str, strategy_dir: Path,
         site_template: Path,
         smtp: Inbox) -> Iterator[LiveServer]:
    """A server mailing through ``smtp``; a lockout after 3 failures, so the test is short."""
    server = LiveServer(tmp_path_factory.mktemp("accounts-data"), redis_url, strategy_dir,
                        extra_env={"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp.port),
                                   "ADMIN_LOGIN_FAILURES": "3"})
    server.migrate(site_template)
    server.start()
    yield server
    server.stop()


def open_name_control(page: Page) -> None:
    page.locator(".name-control summary").click()
    expect(page.locator(".name-form")).to_be_visible()


def set_name(page: Page, name: str) -> None:
    open_name_control(page)
    page.fill("#site-name", name)
    page.locator(".name-form button[type=submit]").first.click()
    expect(page.locator(".name-current")).to_have_text(name)


def public_id(page: Page) -> str:
    open_name_control(page)
    href = page.get_by_role("link", name="Your profile").get_attribute("href")
    page.keyboard.press("Escape")
    assert href
    return href.rstrip("/").rsplit("/", 1)[-1]


def give_games(server: LiveServer, *public_ids: str, seed: int) -> None:
    """Reviewed games among these players and two new ones, in the server's database."""
    args = [a for pid in public_ids for a in ("--include", pid)]
    subprocess.run([sys.executable, "manage.py", "generate_history", "--players", "2",
                    "--games", "12", "--seed", str(seed), *args],
                   cwd=ROOT, env=server.env, check=True, timeout=300, capture_output=True)


def games_on_profile(page: Page, server: LiveServer, pid: str) -> int:
    page.goto(f"{server.url}/p/{pid}/")
    return page.evaluate("""() => [...document.querySelectorAll('dt')]
        .filter((dt) => dt.textContent.trim() === 'Games')
        .reduce((n, dt) => n + Number(dt.nextElementSibling.textContent), 0)""")


def fill_form(page: Page, values: dict[str, str]) -> None:
    for name, value in values.items():
        page.fill(f"main input[name={name}]", value)
    page.locator("main form button[type=submit]").first.click()


def sign_in(page: Page, server: LiveServer, name: str, password: str = PASSWORD) -> None:
    page.goto(server.url + "/accounts/login/")
    fill_form(page, {"login": name, "password": password})


def sign_out(page: Page) -> None:
    open_name_control(page)
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator(".name-control")).not_to_have_class("signed-in")


def no_csp_violations(make) -> None:
    assert not [m for m in make.console if "Content Security Policy" in m], make.console


def test_an_account_keeps_a_guests_games_and_gathers_another_browsers(site, new_context):
    laptop = new_context(DESKTOP).new_page()
    laptop.goto(site.url + "/")
    set_name(laptop, "Zoe")
    zoe = public_id(laptop)
    phone_context = new_context(PHONE, is_mobile=True, has_touch=True)
    phone = phone_context.new_page()
    phone.goto(site.url + "/")
    set_name(phone, "Zed")
    zed = public_id(phone)
    give_games(site, zoe, zed, seed=3)
    zoe_games, zed_games = (games_on_profile(laptop, site, zoe),
                            games_on_profile(phone, site, zed))
    assert zoe_games > 0 and zed_games > 0

    # Sign up from the header, on the page the guest was on: back there, signed in, same player.
    laptop.goto(site.url + "/leaderboard/yahtzee/")
    open_name_control(laptop)
    laptop.get_by_role("link", name="Create an account").click()
    expect(laptop.get_by_role("heading", level=1)).to_have_text("Create an account")
    fill_form(laptop, {"username": "zoe", "email": "zoe@example.com",
                       "password1": PASSWORD, "password2": PASSWORD})
    expect(laptop).to_have_url(site.url + "/leaderboard/yahtzee/")
    expect(laptop.locator(".name-control.signed-in .name-current")).to_have_text("Zoe")
    assert public_id(laptop) == zoe
    assert games_on_profile(laptop, site, zoe) == zoe_games

    # The phone's guest signs in: its games join the account, and the phone is Zoe now.
    phone.goto(site.url + "/")
    open_name_control(phone)
    phone.get_by_role("link", name="Sign in").click()
    fill_form(phone, {"login": "zoe", "password": PASSWORD})
    expect(phone.locator(".name-control.signed-in .name-current")).to_have_text("Zoe")
    assert public_id(phone) == zoe
    assert games_on_profile(phone, site, zoe) == zoe_games + zed_games
    assert games_on_profile(phone, site, zed) == 0  # the guest's record is gone

    # A rename on one device is the account's name on the other.
    set_name(phone, "Zoë")
    laptop.goto(site.url + "/")
    expect(laptop.locator(".name-current")).to_have_text("Zoë")

    # Sign out: the phone is nobody until it acts again; the account keeps everything.
    sign_out(phone)
    expect(phone.locator(".name-current")).to_have_text("Your name")
    assert not [c for c in phone_context.cookies() if c["name"] == "player"]
    assert games_on_profile(laptop, site, zoe) == zoe_games + zed_games
    no_csp_violations(new_context)


def test_a_guest_cannot_take_an_accounts_player_over(site, new_context):
    owner = new_context(DESKTOP)
    page = owner.new_page()
    page.goto(site.url + "/accounts/signup/")
    fill_form(page, {"username": "Ada", "password1": PASSWORD, "password2": PASSWORD})
    expect(page.locator(".name-control.signed-in .name-current")).to_have_text("Ada")
    token = next(c for c in owner.cookies() if c["name"] == "player")

    thief_context = new_context(DESKTOP)
    thief_context.add_cookies([token])  # the account's player cookie, copied
    thief = thief_context.new_page()
    thief.goto(site.url + "/")
    expect(thief.locator(".name-current")).to_have_text("Your name")
    set_name(thief, "Mallory")
    page.reload()
    expect(page.locator(".name-current")).to_have_text("Ada")

    # Nor can a look-alike account be made: "ADA", Cyrillic "Аdа" (mixed), "Ada" in full width.
    for alike, error in (("ADA", "exists already"), ("Ａｄａ", "exists already"),
                         ("\u0410d\u0430", "mixes the letters")):
        thief.goto(site.url + "/accounts/signup/")
        fill_form(thief, {"username": alike, "password1": PASSWORD, "password2": PASSWORD})
        expect(thief.locator("main")).to_contain_text(error)
    no_csp_violations(new_context)


def test_password_change_and_reset_by_email(site, new_context, smtp):
    page = new_context(DESKTOP).new_page()
    page.goto(site.url + "/accounts/signup/")
    fill_form(page, {"username": "Bea", "password1": PASSWORD, "password2": PASSWORD})
    expect(page.locator(".name-control.signed-in")).to_be_visible()
    # No email at sign-up; one added later, on the account's email page.
    page.goto(site.url + "/accounts/email/")
    fill_form(page, {"email": "bea@example.com"})
    expect(page.locator("main")).to_contain_text("Waiting for confirmation: bea@example.com")
    page.goto(Inbox.link(smtp.wait_for("bea@example.com")))  # the confirmation, mailed
    expect(page.locator("main")).to_contain_text("Now: bea@example.com")
    smtp.messages.clear()

    # Change the password from the account's page, reached from the header.
    open_name_control(page)
    page.locator(".account-name").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Change the password")
    fill_form(page, {"oldpassword": PASSWORD, "password1": "a changed password 7",
                     "password2": "a changed password 7"})
    expect(page.locator(".messages")).to_contain_text("Password successfully changed")
    sign_out(page)
    sign_in(page, site, "Bea", PASSWORD)
    expect(page.locator("main")).to_contain_text("not correct")
    sign_in(page, site, "Bea", "a changed password 7")
    expect(page.locator(".name-control.signed-in")).to_be_visible()
    sign_out(page)

    # Forgotten: the reset link arrives by email over SMTP; following it sets a new one.
    sign_in(page, site, "Bea", "a wrong guess")
    page.get_by_role("link", name="Forgot your password?").click()
    fill_form(page, {"email": "bea@example.com"})
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your email")
    message = smtp.wait_for("bea@example.com")
    link = Inbox.link(message)
    assert link.startswith(site.url + "/accounts/password/reset/key/")
    assert "Bea" in Inbox.body(message)
    page.goto(link)
    fill_form(page, {"password1": "a reset password 9", "password2": "a reset password 9"})
    expect(page.locator("main")).to_contain_text("Your password is now changed")
    sign_in(page, site, "Bea", "a reset password 9")
    expect(page.locator(".name-control.signed-in .name-current")).to_have_text("Bea")
    no_csp_violations(new_context)


def test_failed_sign_ins_lock_the_account_from_that_browsers_address(site, new_context,
                                                                    screenshots):
    owner = new_context(DESKTOP).new_page()
    owner.goto(site.url + "/accounts/signup/")
    fill_form(owner, {"username": "Cy", "password1": PASSWORD, "password2": PASSWORD})
    sign_out(owner)
    attacker = new_context(DESKTOP).new_page()
    for _ in range(3):  # ADMIN_LOGIN_FAILURES on this server
        sign_in(attacker, site, "Cy", "guess")
    expect(attacker.get_by_role("heading", level=1)).to_have_text("Too many failed sign-ins")
    sign_in(attacker, site, "Cy")  # the right password: still refused from here
    expect(attacker.get_by_role("heading", level=1)).to_have_text("Too many failed sign-ins")
    expect(attacker.locator("main")).to_contain_text("for 15 minutes")
    attacker.set_viewport_size(PHONE)
    attacker.screenshot(path=str(screenshots / "account-locked-out-phone-light.png"))
    # (Every browser here shares 127.0.0.1, so the owner is locked out here too; the tests
    # of tests/views/test_accounts.py show another address getting in.)


def screenshot_pages(context: BrowserContext, server: LiveServer, shots: Path, device: str,
                     scheme: str, signed_in: bool) -> dict[str, list[str]]:
    """Each account page (and the header's name control opened) shot; what axe-core found."""
    found: dict[str, list[str]] = {}
    page = context.new_page()
    pages = ([("account-password", "/accounts/password/change/"),
              ("account-email", "/accounts/email/")] if signed_in else
             [("account-sign-in", "/accounts/login/"), ("account-sign-up", "/accounts/signup/"),
              ("account-reset", "/accounts/password/reset/")])
    for name, path in pages:
        page.goto(server.url + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert_fits(page)
        assert low_contrast_text(page) == [], (name, device, scheme)
        page.screenshot(path=str(shots / f"{name}-{device}-{scheme}.png"), full_page=True)
        if violations := axe_violations(page):
            found[f"{name}-{device}-{scheme}"] = violations
    page.goto(server.url + "/")
    open_name_control(page)
    assert low_contrast_text(page) == [], ("header", device, scheme)
    state = "account" if signed_in else "guest"
    page.screenshot(path=str(shots / f"header-{state}-{device}-{scheme}.png"),
                    clip={"x": 0, "y": 0, "width": page.viewport_size["width"], "height": 330})
    if violations := axe_violations(page):
        found[f"header-{state}-{device}-{scheme}"] = violations
    return found


def test_the_account_pages_on_a_phone_and_a_desktop(site, new_context, screenshots):
    maker = new_context(DESKTOP).new_page()
    maker.goto(site.url + "/accounts/signup/")
    fill_form(maker, {"username": "Dot", "password1": PASSWORD, "password2": PASSWORD})
    set_name(maker, "Dorothea Longname")
    cookies = maker.context.cookies()
    found: dict[str, list[str]] = {}
    for device, viewport, scheme in LOOKS:
        # axe-core is injected into the page: these contexts let it past the CSP (the other
        # tests here check that the pages break no CSP rule).
        options = dict(color_scheme=scheme, is_mobile=device == "phone",
                       has_touch=device == "phone", bypass_csp=True)
        guest = new_context(viewport, **options)
        found |= screenshot_pages(guest, site, screenshots, device, scheme, signed_in=False)
        account = new_context(viewport, **options)
        account.add_cookies(cookies)
        found |= screenshot_pages(account, site, screenshots, device, scheme, signed_in=True)
    assert not found, f"axe found WCAG 2.1 AA violations: {found}"
    # A form's errors, as a person sees them.
    page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(site.url + "/accounts/signup/")
    fill_form(page, {"username": "dot", "password1": "short", "password2": "other"})
    expect(page.locator("main")).to_contain_text("exists already")
    page.screenshot(path=str(screenshots / "account-sign-up-errors-phone-light.png"),
                    full_page=True)
    no_csp_violations(new_context)

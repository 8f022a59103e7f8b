"""A player's profile and a leaderboard in a real browser, on a phone and a desktop, light and
dark: reached from the header's name control, over a generated history of reviewed games."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, ROOT, LiveServer
from .pages import assert_fits, low_contrast_text

pytestmark = pytest.mark.browser

LOOKS = [("phone", PHONE, "light"), ("phone", PHONE, "dark"),
         ("desktop", DESKTOP, "light"), ("desktop", DESKTOP, "dark")]


def generate_history(server: LiveServer, player: str) -> None:
    """Games for twelve new players and ``player`` (a public id), in the server's database
    (whatever other tests left there plays no part)."""
    subprocess.run([sys.executable, "manage.py", "generate_history", "--players", "12",
                    "--games", "160", "--seed", "7", "--include", player],
                   cwd=ROOT, env=server.env, check=True, timeout=600, capture_output=True)


def test_a_profile_and_a_leaderboard_on_a_phone_and_a_desktop(daphne_server, new_context,
                                                             screenshots):
    first = new_context(DESKTOP)
    page = first.new_page()
    page.goto(daphne_server.url + "/")
    page.locator(".name-control summary").click()
    page.fill("#site-name", "Zoe")
    page.locator(".name-form button[type=submit]").click()
    expect(page.locator(".name-current")).to_have_text("Zoe")
    cookies = first.cookies()

    page.locator(".name-control summary").click()
    page.get_by_role("link", name="Your profile").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Zoe")
    profile_url = page.url
    generate_history(daphne_server, profile_url.rstrip("/").rsplit("/", 1)[-1])
    page.reload()
    expect(page.locator(".ruleset-stats").first).to_contain_text("Rating")
    expect(page.locator("svg.histogram rect.bar").first).to_be_visible()
    expect(page.locator("svg.trend polyline.line").first).to_be_visible()
    expect(page.locator(".profile-games li").first).to_be_visible()
    # The choices in a share anyone reads and the grades named with their plurals.
    figures = page.locator(".ruleset-stats").first.locator(".figures")
    expect(figures).to_contain_text(re.compile(r"Good choices\s+the best or good\s*\d+ %"))
    expect(figures).to_contain_text(re.compile(r"Lost a choice\s+points, on average\s*\d+\.\d\d"))
    expect(figures).not_to_contain_text("Accuracy")
    grades = page.locator(".ruleset-stats").first.locator(".grade-counts li").all_inner_texts()
    assert [g.split(" ", 1)[1] for g in grades] == [
        "best", "good", "inaccuracies", "mistakes", "blunders"], grades  # many of each
    leaderboard_url = daphne_server.url + "/leaderboard/yahtzee/"

    for device, viewport, scheme in LOOKS:
        context = new_context(viewport, color_scheme=scheme, is_mobile=device == "phone",
                              has_touch=device == "phone")
        context.add_cookies(cookies)
        view = context.new_page()
        for name, url in (("profile", profile_url), ("leaderboard", leaderboard_url)):
            view.goto(url)
            expect(view.get_by_role("heading", level=1)).to_be_visible()
            assert_fits(view)
            assert low_contrast_text(view) == [], (name, device, scheme)
            view.screenshot(path=str(screenshots / f"{name}-{device}-{scheme}.png"),
                            full_page=True)
            if name == "profile":  # the widest part of the page, at a readable size
                view.locator(".h2h").screenshot(
                    path=str(screenshots / f"profile-h2h-{device}-{scheme}.png"))
                view.locator(".ruleset-stats").first.screenshot(
                    path=str(screenshots / f"profile-figures-{device}-{scheme}.png"))
        # All time: Zoe's 160 generated games settle her yahtzee rating, so she is listed,
        # her row marked, at the place the line above the board names.
        board = view.locator(".board").nth(1)
        mine = board.locator("tr.me")
        expect(mine.locator("th")).to_have_text("Zoe")
        place = mine.locator("td").first.inner_text()
        expect(board.locator(".my-place")).to_contain_text(f"Your place: {place} (")

"""The daily challenge in a real browser: today's page, a daily game played to its end in the
room page (no invite, no host's controls, no watchers), the result beside par, the boards, the
day's scores and the share text; on a phone and a desktop, light and dark. Par comes from the
server's review worker (the yahtzee table built for the session)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, ROOT, LiveServer
from .pages import (
    assert_fits,
    client_state,
    confirm_if_asked,
    last_seq,
    low_contrast_text,
    options,
    roll,
    settle,
    wait_connected,
    wait_seq,
)

pytestmark = pytest.mark.browser

LOOKS = [("phone", PHONE, "light"), ("phone", PHONE, "dark"),
         ("desktop", DESKTOP, "light"), ("desktop", DESKTOP, "dark")]


def generate_dailies(server: LiveServer, players: int) -> None:
    subprocess.run([sys.executable, "manage.py", "generate_dailies", "--players", str(players),
                    "--seed", "3"], cwd=ROOT, env=server.env, check=True, timeout=600,
                   capture_output=True)


def score_best(page) -> None:
    """Score the box worth most now (a second tap if it asks)."""
    before = last_seq(page)
    best = max(options(page), key=lambda o: o.points)
    page.locator(f'#scorecard button.option[data-box="{best.box}"]').click()
    confirm_if_asked(page)
    wait_seq(page, before + 1)


def test_the_daily_played_and_its_result_on_a_phone_and_a_desktop(
        daphne_server, new_context, screenshots, yahtzee_table):
    generate_dailies(daphne_server, 60)
    context = new_context(DESKTOP)
    page = context.new_page()
    page.goto(daphne_server.url + "/daily/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Daily challenge")
    page.get_by_role("button", name="Play today’s Yahtzee").click()
    page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(page)
    room_url = page.url
    expect(page.locator(".daily-badge")).to_be_visible()
    for hidden in ("#invite", "#host-controls", "#watchers"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("#hint-btn")).to_have_count(0)  # no coach

    # Someone else with the link is sent to their own daily: no watchers.
    stranger = new_context(DESKTOP).new_page()
    stranger.goto(room_url)
    expect(stranger).to_have_url(daphne_server.url + "/daily/")

    turn = 0
    while not client_state(page)["finished"]:
        turn += 1
        roll(page)
        if turn == 3:  # mid-game, dice on the table: the looks of a daily game
            settle(page)
            for device, viewport, scheme in LOOKS:
                view_context = new_context(viewport, color_scheme=scheme,
                                           is_mobile=device == "phone",
                                           has_touch=device == "phone")
                view_context.add_cookies(context.cookies())
                view = view_context.new_page()
                view.goto(room_url)  # the same player: the same game goes on here
                wait_connected(view)
                settle(view)
                assert_fits(view)
                assert low_contrast_text(view) == [], (device, scheme)
                view.screenshot(path=str(screenshots / f"daily-room-{device}-{scheme}.png"))
                view_context.close()
            page.reload()  # this page's seat moved to the last view: take it back
            wait_connected(page)
        score_best(page)
    expect(page.locator(".daily-result-link a")).to_be_visible()
    page.screenshot(path=str(screenshots / "daily-finished-desktop.png"))
    page.locator(".daily-result-link a").click()
    expect(page.locator("#daily-final")).to_have_text(re.compile(r"^\d+$"))
    # par comes from the review worker: a reload or two
    for _ in range(30):
        if page.locator("#daily-par").inner_text().strip().isdigit():
            break
        page.wait_for_timeout(1000)
        page.reload()
    expect(page.locator("#daily-par")).to_have_text(re.compile(r"^\d+$"))
    result_url = page.url
    # The squares say what they mean, right under them.
    legend = page.locator(".squares-legend li")
    expect(legend).to_have_count(4)
    expect(legend.first).to_have_text("🟩 best / good")
    share = page.locator("#share-text").inner_text()
    assert re.match(r"Daily Yahtzee \d{4}-\d\d-\d\d: \d+ · par \d+\n[🟩🟨🟧🟥]{13}\n", share), share
    assert share.strip().endswith(result_url)
    # "Copy the result" puts the share text on the clipboard (share.js, as the room's invite)
    context.grant_permissions(["clipboard-read", "clipboard-write"],
                              origin=daphne_server.url)
    page.locator("#copy-share").click()
    expect(page.locator("#copy-share")).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()").strip() == share.strip()

    for device, viewport, scheme in LOOKS:
        view_context = new_context(viewport, color_scheme=scheme, is_mobile=device == "phone",
                                   has_touch=device == "phone")
        view_context.add_cookies(context.cookies())
        view = view_context.new_page()
        for name, url in (("daily-result", result_url), ("daily-home", daphne_server.url
                                                         + "/daily/")):
            view.goto(url)
            expect(view.get_by_role("heading", level=1)).to_be_visible()
            assert_fits(view)
            assert low_contrast_text(view) == [], (name, device, scheme)
            view.screenshot(path=str(screenshots / f"{name}-{device}-{scheme}.png"),
                            full_page=True)
        view.goto(result_url)
        view.locator(".daily-result").screenshot(
            path=str(screenshots / f"room44-daily-legend-{device}-{scheme}.png"))
        view.locator(".share").screenshot(
            path=str(screenshots / f"daily-share-{device}-{scheme}.png"))
        view_context.close()

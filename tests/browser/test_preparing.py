"""A computer player waiting for its strategy table says so in the room, with the progress.

Its own server, over an empty strategy directory where the test plays the builder: it holds
the table's lock and writes its progress, as `make run`'s background build does. The server
is stopped before the lock is let go (it would build the table itself, a minute of CPU)."""

from __future__ import annotations

import fcntl
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, LiveServer
from .pages import settle, wait_connected

pytestmark = pytest.mark.browser


def test_the_room_shows_the_computer_getting_ready(tmp_path: Path, redis_url, site_template,
                                                   new_context, screenshots):
    server = LiveServer(tmp_path, redis_url, tmp_path / "strategy")  # empty: nothing built
    server.migrate(site_template)
    strategy = tmp_path / "strategy"
    strategy.mkdir()
    lock = open(strategy / "yahtzee-forced-v2.lock", "w")  # noqa: SIM115 - held to the end
    fcntl.flock(lock, fcntl.LOCK_EX)
    progress = strategy / "yahtzee-forced-v2.progress"
    progress.write_text(json.dumps({"done": 37, "total": 100}))
    server.start()
    try:
        page = new_context(PHONE, is_mobile=True, has_touch=True).new_page()
        page.goto(server.url + "/")
        page.select_option("[name=level]", "optimal")
        page.get_by_role("button", name="Play against the computer").tap()
        page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
        wait_connected(page)
        watcher = new_context(DESKTOP).new_page()
        watcher.goto(page.url)
        wait_connected(watcher)
        page.locator("#roll-btn").tap()
        page.locator("#scorecard button.option").first.tap()
        if page.locator("#confirm").is_visible():  # a 0 with these dice asks first
            page.locator("#confirm .confirm-yes").tap()
        for p in (page, watcher):
            expect(p.locator("#preparing")).to_have_text(
                "Bot 1 (optimal) is getting ready (37\u00a0%): its strategy table is built once, "
                "the first time it plays.")
        progress.write_text(json.dumps({"done": 64, "total": 100}))
        for p in (page, watcher):
            expect(p.locator("#preparing")).to_contain_text("(64\u00a0%)")
        settle(page)
        page.screenshot(path=str(screenshots / "room-computer-preparing-phone.png"))
        watcher.screenshot(path=str(screenshots / "room-computer-preparing.png"))
        expect(page.locator("#roll-btn")).to_be_disabled()  # the computer's turn: it waits
    finally:
        server.stop()  # before the lock goes: a server left would build the table itself
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()

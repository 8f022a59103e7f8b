"""Fair dice in the browser (docs/fairness.md): the forms bring a random dice seed, a player
changes theirs in the room, and a finished game's page re-derives every roll with Web Crypto;
a die changed in the database is the one roll it (and ``verify_dice``) reports."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, ROOT, LiveServer
from .pages import assert_fits, create_room, low_contrast_text, room_options, wait_connected

pytestmark = pytest.mark.browser


def manage(server: LiveServer, *args: str) -> subprocess.CompletedProcess:
    """manage.py against the browser server's own database."""
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=server.env,
                          capture_output=True, text=True, timeout=120, check=False)


TAMPER = """
from game.models import GameEvent
event = GameEvent.objects.filter(game_id={game}, kind="rolled").order_by("seq")[{index}]
payload = dict(event.payload)
free = next(i for i in range(5) if i not in payload["held"])
payload["dice"][free] = payload["dice"][free] % 6 + 1
GameEvent.objects.filter(pk=event.pk).update(payload=payload)
print(event.seq)
"""


def verify_in_page(page: Page) -> dict:
    page.get_by_role("button", name="Verify every roll").click()
    result = page.locator("#verify-result")
    expect(result).to_have_attribute("data-state", re.compile("^(ok|bad)$"))
    return {"state": result.get_attribute("data-state"), "text": result.inner_text(),
            "ok": page.locator(".verify-roll.ok").count(),
            "bad": [int(k) for k in page.locator(".verify-roll.bad").evaluate_all(
                "els => els.map(e => e.dataset.k)")]}


def test_a_finished_games_page_verifies_every_roll_and_finds_a_changed_die(
        daphne_server, new_context, screenshots):
    page = new_context(viewport=DESKTOP).new_page()
    create_room(page, daphne_server, name="Fair bots", rules="yahtzee",
                seats=["easy", "medium"], nickname="")
    expect(page.locator("#commitment")).to_have_text(re.compile("^[0-9a-f]{64}$"))
    committed = page.locator("#commitment").text_content()  # folded: in the page, not shown
    page.locator("#start-btn").click()
    expect(page.locator("#result")).to_be_visible(timeout=120_000)
    # The room page reveals the seed of the game that ended, and commits to the next one.
    expect(page.locator("#revealed")).to_have_text(re.compile("^[0-9a-f]{64}$"))
    assert page.locator("#commitment").text_content() != committed
    url = daphne_server.url + page.locator("#game-page-link").get_attribute("href")
    game_id = re.search(r"/games/(\d+)/", url).group(1)

    page.goto(url)
    data = json.loads(page.locator("#fairness-data").text_content())
    assert data["commitment"] == committed and len(data["rolls"]) >= 26
    expect(page.locator("#verify-seed")).to_have_text(data["server_seed"])
    checked = verify_in_page(page)
    assert checked["state"] == "ok" and checked["bad"] == []
    assert checked["ok"] == len(data["rolls"])
    assert f"All {len(data['rolls'])} rolls match" in checked["text"]
    assert "matches its commitment" in checked["text"]
    section = page.locator("#verify")
    section.scroll_into_view_if_needed()
    section.screenshot(path=str(screenshots / "verify-dice-desktop.png"))
    assert low_contrast_text(page) == []
    done = manage(daphne_server, "verify_dice", game_id)
    assert done.returncode == 0 and "rolls match" in done.stdout

    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(url)
    verify_in_page(phone)
    assert_fits(phone)
    phone.locator("#verify").screenshot(path=str(screenshots / "verify-dice-phone.png"))

    # One die of the 5th roll changed in the database: that roll, and only it, fails.
    done = manage(daphne_server, "shell", "-c", TAMPER.format(game=game_id, index=4))
    assert done.returncode == 0, done.stderr
    page.reload()
    checked = verify_in_page(page)
    assert checked["state"] == "bad" and checked["bad"] == [5]
    assert checked["ok"] == len(data["rolls"]) - 1
    assert "1 of 75 rolls does NOT match: roll 5." in checked["text"].replace(
        str(len(data["rolls"])), "75")
    given = " ".join(map(str, data["rolls"][4]["dice"]))  # as stored before the change
    expect(page.locator("#verify-mismatches li")).to_have_text(
        re.compile(rf"^Roll 5 by .+: stored .+, the seeds give {given}\.$"))
    page.locator(".verify-roll.bad").scroll_into_view_if_needed()
    page.locator("#verify").screenshot(path=str(screenshots / "verify-dice-tampered.png"))
    done = manage(daphne_server, "verify_dice", game_id)
    assert done.returncode == 1 and "MISMATCH roll 5 " in done.stdout


def test_the_forms_bring_a_random_seed_and_a_player_changes_theirs_in_the_room(
        daphne_server, new_context, screenshots):
    host = new_context(viewport=DESKTOP).new_page()
    host.goto(daphne_server.url + "/")
    seed = host.locator("[name=dice_seed]").input_value()
    assert re.fullmatch("[0-9a-f]{16}", seed)  # the browser's own random seed
    room_options(host)
    host.fill("[name=name]", "Seeds")
    host.select_option("[name=seats]", "2")
    host.fill("[name=nickname]", "Ann")
    host.select_option("[name=seat_1]", "easy")
    host.get_by_role("button", name="Play with friends").click()
    host.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    wait_connected(host)
    # Folded in the fair-dice panel: the room is not crowded with hashes; one tap shows them.
    expect(host.locator("#seed-form")).to_be_hidden()
    host.locator("#fair-details summary").click()
    seeds = host.locator("#dice-seeds li")
    expect(seeds).to_have_count(2)
    expect(seeds.first).to_contain_text(seed)
    expect(host.locator("#seed-form")).to_be_visible()

    host.fill("#seed-input", "ann's own seed")
    host.get_by_role("button", name="Use this seed").click()
    expect(seeds.first).to_contain_text("ann's own seed")
    host.fill("#seed-input", "bad \u00e9")
    host.get_by_role("button", name="Use this seed").click()
    expect(host.locator("#error")).to_contain_text("printable ASCII")

    watcher = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watcher.goto(host.url)
    wait_connected(watcher)
    expect(watcher.locator("#dice-seeds li").first).to_contain_text("ann's own seed")
    expect(watcher.locator("#seed-form")).to_be_hidden()
    assert_fits(watcher)
    watcher.locator("#fairness").screenshot(path=str(screenshots / "room-fair-dice-phone.png"))

    host.locator("#start-btn").click()
    expect(host.locator("#turn")).to_contain_text("round 1 of")
    expect(host.locator("#seed-form")).to_be_hidden()
    expect(host.locator("#commitment-label")).to_contain_text("This game")
    host.locator("#fairness").screenshot(path=str(screenshots / "room-fair-dice-desktop.png"))

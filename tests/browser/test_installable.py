"""The site as an installable app, in Chromium against the real server: the manifest linked
and whole (its icons fetched, PNGs of the sizes it says), Chromium's own installability check,
the service worker registered and in control, a page opened offline showing the offline page
(phone and desktop, light and dark: screenshots), a push message shown by tag, and a notice's
click opening its room.

Installability: Lighthouse 12 dropped the PWA category and its `installable-manifest` audit,
so the check is Chromium's own, through the DevTools protocol (`Page.getInstallabilityErrors`:
empty when the browser would offer to install the site), in a persistent profile (an incognito
context is never installable). The push message is a real `push` event, delivered by the
DevTools protocol (`ServiceWorker.deliverPushMessage`) as a push service's would be.

The click: headless Chromium cannot click a notification, and it lets a worker open or focus a
window only during a real click (anything else is refused with "Not allowed to open a
window"). So the real `notificationclick` handler runs on the real notification (a
`NotificationEvent` dispatched in the worker), with the worker's `openWindow` and
`WindowClient.focus` recording what the handler asked for; the test then opens that address
as the browser would and finds the room.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, CDPSession, Page, Playwright, expect

from game.services.notices import ROLL_ON_OPEN

from .axe import axe_violations
from .conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE
from .pages import (
    assert_fits,
    client_state,
    create_room,
    last_seq,
    low_contrast_text,
    start_game,
    wait_connected,
    wait_seq,
)

pytestmark = pytest.mark.browser

#: A function, not an expression: the page's CSP (no 'unsafe-eval') refuses an evaluated one.
CONTROLLED = "() => navigator.serviceWorker.controller !== null"


@pytest.fixture
def profile(playwright: Playwright, tmp_path: Path) -> Iterator[BrowserContext]:
    """Chromium with a profile on disk (installable, unlike an incognito context) that allows
    the site's notifications."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport=DESKTOP, permissions=["notifications"])
    context.set_default_timeout(15_000)
    errors: list[str] = []
    context.on("weberror", lambda e: errors.append(str(e.error)))
    yield context
    context.close()
    assert not errors, f"script errors: {errors}"


def controlled_page(context: BrowserContext, url: str) -> Page:
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    page.wait_for_function(CONTROLLED)
    return page


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_is_linked_whole_and_chromium_would_install_the_site(daphne_server,
                                                                          profile):
    page = controlled_page(profile, daphne_server.url + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(daphne_server.url + href)
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "Yahtzee with friends" and manifest["short_name"] == "Yahtzee"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/", "/", "standalone")
    assert manifest["theme_color"] == page.locator(
        "meta[name=theme-color][media*=light]").get_attribute("content")
    for icon in manifest["icons"]:
        image = page.request.get(daphne_server.url + icon["src"])
        assert image.ok and image.headers["content-type"] == "image/png", icon
        width, height = png_size(image.body())
        assert f"{width}x{height}" == icon["sizes"], icon
    assert {i["purpose"] for i in manifest["icons"]} == {"any", "maskable"}

    cdp = profile.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["url"] == daphne_server.url + href
    assert parsed["errors"] == [], parsed["errors"]
    assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}


def test_the_worker_controls_the_pages_and_an_offline_page_says_so(daphne_server, profile):
    room = create_room(profile.pages[0] if profile.pages else profile.new_page(), daphne_server,
                       name="Offline", rules="yahtzee", seats=["human", "easy"], nickname="Ann")
    page = controlled_page(profile, room)
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") \
        == daphne_server.url + "/sw.js?lang=en"
    assert [w.url for w in profile.service_workers] == [daphne_server.url + "/sw.js?lang=en"]

    profile.set_offline(True)
    page.goto(room)
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page).to_have_url(room)  # the address stays the room's: "Try again" reloads it
    assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") \
        == "rgb(246, 244, 239)", "the site's stylesheet, from the worker's cache"
    profile.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    wait_connected(page)  # the room itself, connected to its game
    expect(page).to_have_url(room)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_offline_page_reads_well(daphne_server, new_context, screenshots, viewport, scheme):
    context = new_context(viewport, color_scheme=scheme, bypass_csp=True)  # axe's script
    page = context.new_page()
    page.goto(daphne_server.url + "/")
    page.wait_for_function(CONTROLLED)
    context.set_offline(True)
    page.goto(daphne_server.url + "/daily/")
    expect(page.locator("h1")).to_have_text("You are offline")
    assert_fits(page)
    assert low_contrast_text(page) == []
    device = "phone" if viewport == PHONE else "desktop"
    page.screenshot(path=str(screenshots / f"offline-{device}-{scheme}.png"), full_page=True)
    context.set_offline(False)
    assert axe_violations(page) == []


def test_the_offline_page_is_in_the_pages_language(daphne_server, new_context):
    context = new_context(locale="de-DE", extra_http_headers={"Accept-Language": "de"})
    page = context.new_page()
    page.goto(daphne_server.url + "/")
    page.wait_for_function(CONTROLLED)
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL").endswith("lang=de")
    context.set_offline(True)
    page.goto(daphne_server.url + "/rules/")
    expect(page.locator("h1")).to_have_text("Du bist offline")


def registration_id(cdp: CDPSession, page: Page) -> str:
    """The worker's registration, as the DevTools protocol names it (its ServiceWorker domain
    enabled on ``cdp``)."""
    found: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.wait_for_timeout(200)  # the events arrive while Playwright's loop runs
    for _ in range(50):
        if found:
            break
        page.wait_for_timeout(100)
    return next(r["registrationId"] for r in found if not r["isDeleted"])


NOTIFICATIONS = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
  .map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))"""

def shown_notices(page: Page, until, within: int = 200) -> list[dict]:
    """The notifications shown, once ``until`` holds of them (the push handler shows them in
    its own time; Playwright's wait_for_function does not wait on an async predicate)."""
    for _ in range(within):
        shown = page.evaluate(NOTIFICATIONS)
        if until(shown):
            return shown
        page.wait_for_timeout(50)
    raise AssertionError(f"notifications shown: {shown}")


def push(cdp: CDPSession, page: Page, origin: str, rid: str, data: dict, until) -> list[dict]:
    """A push message delivered as a push service would, until its notification shows:
    DevTools now and then drops a message delivered while the worker is being started (a push
    service delivers again, within the message's TTL); three tries at most."""
    for _ in range(3):
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": origin, "registrationId": rid, "data": json.dumps(data)})
        try:
            return shown_notices(page, until, within=60)
        except AssertionError:
            continue
    raise AssertionError("no notification from three deliveries")


#: In the worker: click the notice of `tag` (the real handler, on the real notification), with
#: openWindow and focus recording what it asks for (see the module's doc).
CLICK = """async (tag) => {
  const asked = [];
  self.clients.openWindow = async (url) => { asked.push(["open", url]); return null; };
  WindowClient.prototype.focus = async function () {
    asked.push(["focus", this.url]);
    return this;
  };
  let notice;  // shown by the push handler in its own time: waited for here, 5 s at most
  for (let i = 0; i < 100 && !notice; i++) {
    [notice] = await self.registration.getNotifications({tag});
    if (!notice) await new Promise((r) => setTimeout(r, 50));
  }
  self.dispatchEvent(new NotificationEvent("notificationclick", {notification: notice}));
  for (let i = 0; i < 50 && !asked.length; i++) await new Promise((r) => setTimeout(r, 20));
  return {asked, left: (await self.registration.getNotifications()).length};
}"""


def test_a_push_shows_one_notice_per_game_and_its_click_opens_the_room(daphne_server, profile):
    page = profile.pages[0] if profile.pages else profile.new_page()
    room = create_room(page, daphne_server, name="Over days", rules="yahtzee",
                       seats=["human", "human"], nickname="Ann")
    page.goto(daphne_server.url + "/")
    page.wait_for_function(CONTROLLED)
    cdp = profile.new_cdp_session(page)
    rid = registration_id(cdp, page)
    path = room.removeprefix(daphne_server.url)
    for body in ("Bob scored 25 in Full house.", "Bob scored 30 in Small straight."):
        shown = push(cdp, page, daphne_server.url, rid,
                     {"title": "Your turn", "body": body, "url": path, "tag": "game-1"},
                     lambda ns, body=body: any(n["body"] == body for n in ns))
    assert shown == [{"title": "Your turn", "tag": "game-1", "url": room,
                      "body": "Bob scored 30 in Small straight."}]

    worker = profile.service_workers[0]
    clicked = worker.evaluate(CLICK, "game-1")
    assert clicked == {"asked": [["open", room]], "left": 0}  # opened, and the notice gone
    opened = profile.new_page()
    opened.goto(clicked["asked"][0][1])
    wait_connected(opened)
    expect(opened).to_have_url(re.compile(re.escape(path) + "$"))

    # With the room open in a tab, a click brings that tab forward instead.
    page.evaluate("""async (url) => (await navigator.serviceWorker.ready).showNotification(
        "Your turn", {tag: "game-1", data: {url}})""", room)
    clicked = worker.evaluate(CLICK, "game-1")
    assert clicked == {"asked": [["focus", room]], "left": 0}


def test_from_a_your_turn_notice_to_the_move_made_is_two_taps(daphne_server, profile,
                                                              screenshots):
    """The notice's link asks the room for the turn's first roll (it has no choice in it):
    tap 1, the notification; tap 2, a box."""
    page = profile.pages[0] if profile.pages else profile.new_page()
    page.set_viewport_size(PHONE)
    room = create_room(page, daphne_server, name="Two taps", rules="yahtzee",
                       seats=["human", "easy"], nickname="Ann", move_days=2)
    start_game(page)
    page.goto(daphne_server.url + "/")  # away from the room, as when a notice comes
    page.wait_for_function(CONTROLLED)
    cdp = profile.new_cdp_session(page)
    rid = registration_id(cdp, page)
    path = room.removeprefix(daphne_server.url) + ROLL_ON_OPEN
    push(cdp, page, daphne_server.url, rid,
         {"title": "Your turn", "body": "Two taps", "url": path, "tag": "game-2"},
         lambda ns: len(ns) == 1)

    clicked = profile.service_workers[0].evaluate(CLICK, "game-2")  # tap 1
    assert clicked["asked"] == [["open", daphne_server.url + path]]
    page.goto(clicked["asked"][0][1])
    wait_connected(page)
    page.wait_for_function("() => document.querySelector('#scorecard button.option') !== null")
    game = client_state(page)
    assert game["rolls_left"] == 2 and game["current_player"] == 0  # rolled once, by itself
    expect(page).to_have_url(room)  # the fragment dropped: a reload asks nothing
    assert_fits(page)
    page.screenshot(path=str(screenshots / "over-days-from-notice-phone.png"))
    best = max((o for o in game["options"] if o["allowed"]), key=lambda o: o["points"])
    seq = last_seq(page)
    page.locator(f"#scorecard button.option[data-box='{best['box']}']").first.click()  # tap 2
    wait_seq(page, seq + 1)
    scored = client_state(page)["scorecards"][0]["columns"][0]["boxes"][best["box"]]
    assert scored == best["points"]
    assert page.locator("#confirm").is_hidden()  # nothing asked between

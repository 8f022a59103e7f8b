"""A real server (Daphne in a subprocess, its own SQLite in a temp dir) and headless Chromium.

The server runs exactly as `make run` does, so the browser talks to the real consumer, the
real services and the real database. Nothing here touches the ORM in the test process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Error,
    Page,
    Playwright,
    WebSocket,
    expect,
    sync_playwright,
)

from tests.support.servers import TEARDOWN_WAIT, free_port, serve, stop
from tests.support.workers import once_per_run, run_dir

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 800}
#: A context's option for a test about motion (the glides, the tumble, the celebration): the
#: page as most players see it, animations on.
MOTION = {"reduced_motion": "no-preference"}
#: For a context made outside ``new_context`` that only sets a game up: no animations.
STILL = {"reduced_motion": "reduce"}
# Generous waits: the machine running the suite may be busy (bots, other test processes).
expect.set_options(timeout=15_000)
PHONE = {"width": 390, "height": 844}
#: The pages' own waits, in milliseconds, for tests that move a page's clock (Playwright's)
#: past them: a seat's brief absence before the page shows it away (store.js
#: ``BRIEF_ABSENCE_MS``) and a second more; the reconnection's longest backoff (connection.js
#: ``BACKOFF_MAX_MS``); the longest pause of a game's page between two asks for its analysis
#: (analysis_wait.js ``pollDelays``).
BRIEF_ABSENCE = 6_000
BACKOFF_MAX = 15_000
POLL_MOST = 8_000


@dataclass
class LiveServer:
    """One Daphne process over one data dir; `stop()` and `start()` keep the data and port."""

    data_dir: Path
    redis_url: str  # the real channel layer, as deployed
    strategy_dir: Path  # the test session's strategy tables (built by the tests that need them)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    #: More settings for this server (an SMTP server to mail through, other limits).
    extra_env: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
        env.update({
            "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
            "DATA_DIR": str(self.data_dir),
            "STRATEGY_DIR": str(self.strategy_dir),
            "DATABASE_URL": f"sqlite:///{self.data_dir / 'db.sqlite3'}",
            "REDIS_URL": self.redis_url,
            # Rate-limit counters of this server alone: every test run (and every session
            # working here) shares the host's Redis and the address 127.0.0.1.
            "CACHE_KEY_PREFIX": f"browser-tests-{self.data_dir.name}-{self.port}-{os.getpid()}",
            "DICE_SEED": "browser-tests",
            "BOT_DELAY": "0",
            # Reloads must not count as "away" long enough for the autoplay bot to step in.
            "AWAY_GRACE": "600",
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "LOG_LEVEL": "WARNING",
        })
        env.update(self.extra_env)
        return env

    def prepare(self) -> None:
        """The database, and the static files as production serves them (hashed, compressed):
        ``migrate`` and ``collectstatic``, 9 s of CPU."""
        for command in (["migrate"], ["collectstatic"]):
            subprocess.run([sys.executable, "manage.py", *command, "--noinput", "-v", "0"],
                           cwd=ROOT, env=self.env, check=True, timeout=120)

    def migrate(self, template: Path) -> None:
        """The database and the static files of ``site_template``, copied: what ``prepare``
        makes, the same for every server of the run."""
        for db in template.glob("db.sqlite3*"):
            shutil.copy2(db, self.data_dir / db.name)
        shutil.copytree(template / "static", self.data_dir / "static", copy_function=os.link,
                        dirs_exist_ok=True)

    def start(self) -> None:
        self.proc = serve(self.port, self.env, self.data_dir / "daphne.log")

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc, timeout=TEARDOWN_WAIT)
        self.proc = None


@pytest.fixture(scope="session")
def site_template(tmp_path_factory: pytest.TempPathFactory, redis_url: str,
                  strategy_dir: Path) -> Path:
    """A migrated database and collected static files, made once for the run's workers; each
    server's ``migrate`` copies them."""
    path = run_dir(tmp_path_factory, "site-template")

    def prepare() -> str:
        LiveServer(path, redis_url, strategy_dir).prepare()
        return "prepared"

    once_per_run(path / "prepared", prepare)
    return path


@pytest.fixture(scope="session")
def daphne_server(tmp_path_factory: pytest.TempPathFactory, redis_url: str,
                  strategy_dir: Path, site_template: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("browser-data"), redis_url, strategy_dir)
    server.migrate(site_template)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    """The one Playwright of these tests: its sync API runs an event loop on this thread, and
    a second one may not start beside it. Between its calls it marks that loop as running on
    the thread, where Django then refuses the ORM and pytest-asyncio cannot run a loop of its
    own: so it stops whenever a worker goes on to a test outside this folder (package scope)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"No Chromium at {CHROMIUM}: run scripts/ensure-services (apt-get install "
                    "chromium), or point CHROMIUM at one.")
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def new_context(browser: Browser) -> Iterator:
    """Make browser contexts (separate cookie jars = separate guests); closed after the test.
    Any uncaught script error in a page fails the test. A context asks for reduced motion
    unless the test passes ``reduced_motion="no-preference"``: the dice's tumble, the glides
    and the highlights are half of Chromium's CPU in a game (measured: 18 s instead of 34 for
    a game played on a phone and watched on a desktop), and the tests about motion ask for
    it (``MOTION``)."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []
    console: list[str] = []  # shown when the test fails

    def watch(page: Page) -> None:
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.on("websocket", lambda ws: record_frames(page, ws))

    def make(viewport: dict[str, int] | None = None, **kwargs) -> BrowserContext:
        kwargs.setdefault("reduced_motion", "reduce")
        context = browser.new_context(viewport=viewport or DESKTOP, **kwargs)
        context.set_default_timeout(10_000)
        context.on("page", watch)
        contexts.append(context)
        return context

    make.contexts = contexts  # type: ignore[attr-defined]
    make.console = console  # type: ignore[attr-defined]
    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"


#: The last websocket frames of each page, both ways (shown when a test fails).
FRAMES_KEPT = 40


def record_frames(page: Page, ws: WebSocket) -> None:
    frames = page.__dict__.setdefault("recent_frames", deque(maxlen=FRAMES_KEPT))
    start = time.monotonic()

    def add(direction: str, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else f"<{len(payload)} bytes>"
        frames.append(f"{time.monotonic() - start:8.3f} {direction} {text[:200]}")

    ws.on("framesent", lambda payload: add(">", payload))
    ws.on("framereceived", lambda payload: add("<", payload))
    ws.on("close", lambda _ws: add("x", "closed"))


#: What a failing test's pages hold (room.js's debugging hook), to tell a slow server from a
#: page that never sent or never got a frame.
PAGE_DIAGNOSIS = """() => {
  const room = window.yahtzeeRoom;
  if (!room) return {url: location.href};
  const g = room.state.game;
  return {url: location.href, connected: room.state.connected, busy: room.state.busy,
          seq: room.seq.last, confirming: room.confirm.key,
          focus: document.activeElement && document.activeElement.outerHTML.slice(0, 120),
          game: g && {id: g.id, seq: g.seq, round: g.round, player: g.current_player,
                      dice: g.dice, rolls_left: g.rolls_left, finished: g.finished},
          error: document.getElementById("error")?.textContent || null,
          // The newest lines: the log lists them first.
          log: [...document.querySelectorAll("#log li")].slice(0, 8).map((li) => li.innerText)};
}"""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failed browser test reports its pages' state, their console and the server's log:
    a timeout alone does not say which side stalled (CI keeps no other trace)."""
    report = yield
    if call.when != "call" or not report.failed:
        return report
    funcargs = getattr(item, "funcargs", {})
    make = funcargs.get("new_context")
    for context in getattr(make, "contexts", []):
        for page in context.pages:
            try:
                state = page.evaluate(PAGE_DIAGNOSIS)
            except Error as exc:
                state = f"(not readable: {exc})"
            report.sections.append((f"page {page.url}", str(state)))
            frames = page.__dict__.get("recent_frames")
            if frames:
                report.sections.append((f"websocket frames of {page.url} (s since open)",
                                        "\n".join(frames)))
    if getattr(make, "console", None):
        report.sections.append(("browser console", "\n".join(make.console[-30:])))
    server = funcargs.get("daphne_server")
    log = server.data_dir / "daphne.log" if server else None
    if log and log.exists():
        tail = log.read_text(errors="replace").splitlines()[-60:]
        report.sections.append(("daphne log (last lines)", "\n".join(tail)))
    return report

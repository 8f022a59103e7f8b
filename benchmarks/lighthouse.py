"""Lighthouse on the lobby, a room mid-game, a finished room and a finished game's page, on a
phone and a desktop (not a test): performance, accessibility, best practices, SEO and the layout
shift of each run.

    make node-tools && .venv/bin/python benchmarks/lighthouse.py [--runs 3]

The site runs as in production (DEBUG off, `collectstatic`: hashed, compressed static files) in
one Daphne over a fresh SQLite file. The game: two computer players (easy) play a whole Yahtzee
game, then `manage.py analyse` adds its review, as the end of a game does (the first run builds
the strategy table in var/strategy: a minute or more); its room is the finished room. The room
mid-game: a person and a computer player, two turns each played, its player gone (the
computer does not take their turns over: the away grace is long). Lighthouse's mobile run
simulates a slow 4G phone; its desktop run uses its desktop preset. Needs Debian's Chromium
(CHROME_PATH).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load.services import free_port, start_daphne, stop  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def site_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "STATIC_FROM_SOURCE")}
    env.update(DJANGO_SETTINGS_MODULE="yahtzee_site.settings", DATA_DIR=str(data_dir),
               DATABASE_URL=f"sqlite:///{data_dir / 'db.sqlite3'}", REDIS_URL="",
               STRATEGY_DIR=str(ROOT / "var" / "strategy"), DEBUG="false", DICE_SEED="lighthouse",
               BOT_DELAY="0", REVIEW_ON_FINISH="false", LOG_LEVEL="WARNING",
               AWAY_GRACE="100000")
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   timeout=1800, stdout=subprocess.DEVNULL)


def rooms(url: str) -> dict[str, str]:
    """The pages measured besides the lobby: a room mid-game, a finished room (two computer
    players played it) and its game's page."""
    from playwright.sync_api import sync_playwright

    def create(page: Any, name: str, seats: list[str], nickname: str) -> None:
        page.goto(url + "/")
        page.locator(".more-options").evaluate("el => { el.open = true; }")
        page.fill(".create-form [name=name]", name)
        page.select_option(".create-form [name=rules]", "yahtzee")
        page.select_option(".create-form [name=seats]", str(len(seats)))
        page.fill(".create-form [name=nickname]", nickname)
        for seat, kind in enumerate(seats):
            page.select_option(f"[name=seat_{seat}]", kind)
        page.get_by_role("button", name="Play with friends").click()
        page.wait_for_url("**/r/*/")
        page.locator("#start-btn").click()

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROME, headless=True,
                                     args=CHROME_FLAGS.split()[1:])
        page = browser.new_page()
        create(page, "Lighthouse", ["easy", "easy"], "")
        page.locator("#result").wait_for(state="visible", timeout=300_000)
        finished = page.url
        game = page.locator("#game-page-link").get_attribute("href")
        assert game and game.startswith("/games/"), game
        create(page, "Lighthouse live", ["human", "easy"], "Ann")
        for _ in range(2):
            page.locator("#roll-btn:not(.off-turn):enabled").click(timeout=60_000)
            page.locator("#scorecard button.option").first.click()
            if page.locator("#confirm").is_visible():
                page.locator("#confirm .confirm-yes").click()
        page.locator("#roll-btn:not(.off-turn):enabled").wait_for(timeout=60_000)
        playing = page.url
        browser.close()
    return {"room mid-game": playing, "finished room": finished, "finished game": url + game}


def lighthouse(url: str, desktop: bool) -> dict[str, Any]:
    """One Lighthouse run: each category's score (0-100) and the cumulative layout shift."""
    args = [str(LIGHTHOUSE), url, "--output=json", "--output-path=stdout", "--quiet",
            f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"]
    if desktop:
        args.append("--preset=desktop")
    done = subprocess.run(args, env={**os.environ, "CHROME_PATH": CHROME}, capture_output=True,
                          text=True, timeout=300, check=False)
    if done.returncode:
        raise RuntimeError(f"lighthouse {url} failed:\n{done.stderr[-3000:]}")
    report = json.loads(done.stdout)
    scores: dict[str, Any] = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    scores["cls"] = report["audits"]["cumulative-layout-shift"]["numericValue"]
    scores["lcp_ms"] = report["audits"]["largest-contentful-paint"]["numericValue"]
    failed = [f"{a['id']} ({a['score']})" for c in CATEGORIES if c != "performance"
              for a in (report["audits"][ref["id"]] for ref in report["categories"][c]["auditRefs"])
              if a["score"] is not None and a["score"] < 1 and a["scoreDisplayMode"] == "binary"]
    scores["failed"] = failed
    scores["why"] = _why(report)
    return scores


def _why(report: dict[str, Any]) -> list[str]:
    """The largest paint's element and the elements that shifted most (--why)."""
    lines = []
    for audit, label in (("largest-contentful-paint-element", "LCP"), ("layout-shifts", "shift")):
        details = report["audits"].get(audit, {}).get("details") or {}
        items = details.get("items") or []
        if items and "items" in items[0]:  # LCP: a table of tables
            items = items[0]["items"]
        for item in items[:3]:
            node = item.get("node") or {}
            score = f" {item['score']:.3f}" if isinstance(item.get("score"), float) else ""
            lines.append(f"{label}{score}: {node.get('selector', '?')} "
                         f"{(node.get('nodeLabel') or '')[:60]!r}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per page and device (median)")
    parser.add_argument("--why", action="store_true",
                        help="show each run's largest paint and what shifted")
    parser.add_argument("--only", default="", help="only the pages whose name has this")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"No Lighthouse at {LIGHTHOUSE}: run `make node-tools` (npm ci).")
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        env = site_env(Path(tmp))
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "collectstatic", "--noinput", "-v", "0")
        port = free_port()
        proc = start_daphne("yahtzee_site.asgi:application", port, env, Path(tmp) / "daphne.log")
        try:
            url = f"http://127.0.0.1:{port}"
            pages = {"lobby": url + "/", **rooms(url)}
            game = pages["finished game"]
            manage(env, "analyse", "--game", game.rstrip("/").rsplit("/", 1)[-1])
            print(f"{'page':<14} {'device':<8} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} "
                  f"{'CLS':>7} {'LCP ms':>7}  (median of {args.runs}; each run's CLS)")
            for name, page in pages.items():
                if args.only not in name:
                    continue
                for device in ("mobile", "desktop"):
                    runs = [lighthouse(page, device == "desktop") for _ in range(args.runs)]
                    shifts = " ".join(f"{r['cls']:.3f}" for r in runs)
                    med = {k: statistics.median(r[k] for r in runs)
                           for k in (*CATEGORIES, "cls", "lcp_ms")}
                    print(f"{name:<14} {device:<8} {med['performance']:>5.0f} "
                          f"{med['accessibility']:>5.0f} {med['best-practices']:>5.0f} "
                          f"{med['seo']:>5.0f} {med['cls']:>7.3f} {med['lcp_ms']:>7.0f}  "
                          f"{shifts}", flush=True)
                    for failed in sorted({f for r in runs for f in r["failed"]}):
                        print(f"    failed: {failed}")
                    if args.why:
                        for line in dict.fromkeys(w for r in runs for w in r["why"]):
                            print(f"    {line}")
        finally:
            stop(proc)


if __name__ == "__main__":
    main()

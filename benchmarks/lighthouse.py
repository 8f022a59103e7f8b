"""Lighthouse on the lobby and a finished game's page, on a phone and a desktop (not a test):
performance, accessibility, best practices, SEO and the layout shift of each run.

    make node-tools && .venv/bin/python benchmarks/lighthouse.py [--runs 3]

The site runs as in production (DEBUG off, `collectstatic`: hashed, compressed static files) in
one Daphne over a fresh SQLite file. The game: two computer players (easy) play a whole Yahtzee
game, then `manage.py analyse` adds its review, as the end of a game does (the first run builds
the strategy table in var/strategy: a minute or more). Lighthouse's mobile run simulates a slow
4G phone; its desktop run uses its desktop preset. Needs Debian's Chromium (CHROME_PATH).
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
               BOT_DELAY="0", REVIEW_ON_FINISH="false", LOG_LEVEL="WARNING")
    return env


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   timeout=1800, stdout=subprocess.DEVNULL)


def finished_game(url: str) -> str:
    """Two computer players play a whole game in a room made in the lobby; the game's URL."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROME, headless=True,
                                     args=CHROME_FLAGS.split()[1:])
        page = browser.new_page()
        page.goto(url + "/")
        page.fill(".create-form [name=name]", "Lighthouse")
        page.select_option(".create-form [name=seats]", "2")
        page.fill(".create-form [name=nickname]", "")
        for seat in (0, 1):
            page.select_option(f"[name=seat_{seat}]", "easy")
        page.get_by_role("button", name="Create room").click()
        page.locator("#start-btn").click()
        page.locator("#result").wait_for(state="visible", timeout=300_000)
        game = page.locator("#game-page-link").get_attribute("href")
        browser.close()
    assert game and game.startswith("/games/"), game
    return url + game


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
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per page and device (median)")
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
            game = finished_game(url)
            manage(env, "analyse", "--game", game.rstrip("/").rsplit("/", 1)[-1])
            print(f"{'page':<14} {'device':<8} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} "
                  f"{'CLS':>7} {'LCP ms':>7}  (median of {args.runs}; each run's CLS)")
            for name, page in (("lobby", url + "/"), ("finished game", game)):
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
        finally:
            stop(proc)


if __name__ == "__main__":
    main()

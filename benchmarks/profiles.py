"""Server time of the profile, leaderboard and lobby pages over a generated history:
``python -m benchmarks.profiles --database-url sqlite:///var/bench-profiles/db.sqlite3``.

The database is one ``manage.py generate_history`` filled (docs/benchmarks.md says how). Each
page is requested ``--repeat`` times through Django's test client in this process (the whole
middleware and template path, no network): the most active player's profile, a typical
player's (the median number of games), its second page of games, each rated leaderboard, and
the lobby. Prints the median and the 95th percentile in milliseconds, the queries a page
made, and the CPU time this process spent a request.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.profiles", description=__doc__)
    p.add_argument("--database-url", required=True)
    p.add_argument("--repeat", type=int, default=50)
    args = p.parse_args(argv)
    if not 5 <= args.repeat <= 10_000:
        p.error("--repeat must be 5-10000")
    os.environ.update(DATABASE_URL=args.database_url,
                      DJANGO_SETTINGS_MODULE="yahtzee_site.settings",
                      DEBUG="false", LOG_LEVEL="WARNING", ALLOWED_HOSTS="testserver")
    import django

    django.setup()
    from django.db.models import Count
    from django.test import Client

    from game.models import GameResult, Player

    counts = list(Player.objects.annotate(n=Count("results")).filter(n__gt=0)
                  .order_by("-n").values_list("public_id", "n"))
    if not counts:
        p.error("The database holds no recorded games: run manage.py generate_history first.")
    busiest, typical = counts[0], counts[len(counts) // 2]
    print(f"{GameResult.objects.values('game').distinct().count()} games, {len(counts)} "
          f"players; busiest {busiest[1]} games, typical {typical[1]}")
    pages = [
        (f"profile, {busiest[1]} games", f"/p/{busiest[0]}/"),
        (f"profile, {typical[1]} games", f"/p/{typical[0]}/"),
        ("profile, page 2 of games", f"/p/{busiest[0]}/?page=2"),
        ("leaderboard yahtzee", "/leaderboard/yahtzee/"),
        ("leaderboard yatzy", "/leaderboard/yatzy/"),
        ("lobby", "/"),
    ]
    client = Client()
    print(TIMES_HEAD)
    for name, url in pages:
        print(time_page(client, name, url, args.repeat))
    return 0


TIMES_HEAD = (f"{'page':32} {'median ms':>10} {'p95 ms':>8} {'queries':>8} "
              f"{'CPU ms':>7} {'CPU p95':>8}")


def time_page(client: Any, name: str, url: str, repeat: int) -> str:
    """``url`` requested ``repeat`` times by ``client`` (Django's test client): the line of
    its median and 95th percentile in milliseconds, the queries one request made, and the
    median and 95th percentile of this process's CPU time a request (on a busy machine the
    wall time is mostly waiting for a core; the database's own CPU is not in it)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    p95 = statistics.quantiles(times, n=20)[-1]
    return (f"{name:32} {statistics.median(times):10.1f} {p95:8.1f} {len(queries):8} "
            f"{statistics.median(cpu):7.1f} {statistics.quantiles(cpu, n=20)[-1]:8.1f}")


if __name__ == "__main__":
    raise SystemExit(main())

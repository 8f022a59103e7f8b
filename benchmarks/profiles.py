"""Server time of the profile, leaderboard, lobby and admin pages over a generated history:
``python -m benchmarks.profiles --database-url sqlite:///var/bench-profiles/db.sqlite3``.

The database is one ``manage.py generate_history`` filled (docs/benchmarks.md says how). Each
page is requested once (a server's first request of a page compiles its templates), then
``--repeat`` times through Django's test client in this process (the whole middleware and
template path, no network): the most active player's profile, a typical player's (the median
number of games), its second page of games, each rated leaderboard (this week's and all
time's, on one page; once more as a rated player, with their own place), the lobby and its
polled lists, and as a staff member (``bench-staff``, made if missing) the admin's lists of
games, rooms and players, a game's and a player's page there and searches. Prints the median
and the 95th percentile in milliseconds, the queries a page made and, with ``--slowest N``, its
N slowest queries.
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
    p.add_argument("--slowest", type=int, default=0, metavar="N",
                   help="print each page's N slowest queries (SQL cut to 300 characters)")
    p.add_argument("--only", default="", help="time only the pages whose name has this")
    args = p.parse_args(argv)
    if not 5 <= args.repeat <= 10_000:
        p.error("--repeat must be 5-10000")
    os.environ.update(DATABASE_URL=args.database_url,
                      DJANGO_SETTINGS_MODULE="yahtzee_site.settings",
                      DEBUG="false", LOG_LEVEL="WARNING", ALLOWED_HOSTS="testserver")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db.models import Count
    from django.test import Client

    from game.models import Game, GameResult, Player
    from game.web.players import COOKIE

    counts = list(Player.objects.annotate(n=Count("results")).filter(n__gt=0)
                  .order_by("-n").values_list("public_id", "n"))
    if not counts:
        p.error("The database holds no recorded games: run manage.py generate_history first.")
    busiest, typical = counts[0], counts[len(counts) // 2]
    rated = Player.objects.filter(ratings__ruleset="yahtzee", ratings__games__gte=5).order_by(
        "-ratings__games").first()
    busiest_pk = Player.objects.get(public_id=busiest[0]).pk
    print(f"{GameResult.objects.values('game').distinct().count()} games, {len(counts)} "
          f"players; busiest {busiest[1]} games, typical {typical[1]}")
    logged = Game.objects.filter(seq__gt=0).order_by("-id").values_list("id", flat=True).first()
    staff = get_user_model().objects.filter(username="bench-staff").first() or \
        get_user_model().objects.create_superuser("bench-staff", password=None)
    middle = max(1, Game.objects.count() // 100)  # the middle page of 50 games each
    anyone, admin, ranked = Client(), Client(), Client()
    admin.force_login(staff)
    if rated is not None:  # a player on the board: the page adds their own place
        ranked.cookies[COOKIE] = rated.token
    pages = [
        (anyone, f"profile, {busiest[1]} games", f"/p/{busiest[0]}/"),
        (anyone, f"profile, {typical[1]} games", f"/p/{typical[0]}/"),
        (anyone, "profile, page 2 of games", f"/p/{busiest[0]}/?page=2"),
        (anyone, "leaderboard yahtzee", "/leaderboard/yahtzee/"),
        (anyone, "leaderboard yatzy", "/leaderboard/yatzy/"),
        (ranked, "leaderboard yahtzee, own place", "/leaderboard/yahtzee/"),
        (anyone, "lobby", "/"),
        (anyone, "lobby lists (polled)", "/lobby/rooms"),
        (admin, "admin games", "/admin/game/game/"),
        (admin, f"admin games, page {middle}", f"/admin/game/game/?p={middle}"),
        (admin, "admin games, finished yahtzee", "/admin/game/game/?activity=finished"
                                                 "&rules__exact=yahtzee"),
        (admin, "admin games, search a name", "/admin/game/game/?q=Ann42"),
        (admin, "admin game page", f"/admin/game/game/{logged}/change/"),
        (admin, "admin rooms", "/admin/game/room/"),
        (admin, "admin players", "/admin/game/player/"),
        (admin, "admin players, search a name", "/admin/game/player/?q=Ann4"),
        (admin, "admin player page", f"/admin/game/player/{busiest_pk}/change/"),
    ]
    print(f"load average {os.getloadavg()[0]:.1f}; wall time, and this process's CPU time "
          "(what the request cost in Python, and in SQLite's engine: not PostgreSQL's server)")
    print(TIMES_HEAD)
    for client, name, url in pages:
        if args.only not in name or (logged is None and "game page" in name):
            continue
        print(time_page(client, name, url, args.repeat, slowest=args.slowest), flush=True)
    return 0


TIMES_HEAD = (f"{'page':34} {'median ms':>10} {'p95 ms':>8} {'queries':>8} "
              f"{'CPU ms':>7} {'CPU p95':>8}")


def time_page(client: Any, name: str, url: str, repeat: int, slowest: int = 0) -> str:
    """``url`` requested once, then ``repeat`` times by ``client`` (Django's test client): the
    line of its median and 95th percentile in milliseconds, the queries one request made, the
    median and 95th percentile of this process's CPU time a request (on a busy machine the
    wall time is mostly waiting for a core; the database's own CPU is not in it), then its
    ``slowest`` slowest queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, cpu = [], []
    client.get(url)  # a server's first request of a page compiles its templates: not timed
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
    line = (f"{name:34} {statistics.median(times):10.1f} {p95:8.1f} {len(queries):8} "
            f"{statistics.median(cpu):7.1f} {statistics.quantiles(cpu, n=20)[-1]:8.1f}")
    for query in sorted(queries, key=lambda q: -float(q["time"]))[:slowest]:
        line += f"\n    {float(query['time']) * 1000:7.1f} ms  {query['sql'][:300]}"
    return line


if __name__ == "__main__":
    raise SystemExit(main())

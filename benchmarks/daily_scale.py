"""Server time of the daily challenge's pages with 10,000 players who finished in the same
hour: ``python -m benchmarks.daily_scale --database-url postgresql://…/bench``.

The database is migrated and filled here (``manage.py generate_dailies``: made-up finished
attempts at today's challenge, 80 % accounts) unless ``--no-fill``. Each page is requested
``--repeat`` times through Django's test client in this process (the whole middleware and
template path, no network): the day's result page of a player in the middle of the board (it
holds the leaderboard, the guests, the scores' histogram, their place, friends and streak), of
the best player, of a guest, the daily home page, the commitments, and the lobby (timed in the
same run, it shows how busy the machine was). Prints the median and the 95th percentile in
milliseconds, the queries a page made and this process's CPU time a request; ``--explain``
prints PostgreSQL's plan of the leaderboard and of a player's rank.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.profiles import TIMES_HEAD, time_page

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.daily_scale", description=__doc__)
    p.add_argument("--database-url", required=True)
    p.add_argument("--players", type=int, default=10_000)
    p.add_argument("--repeat", type=int, default=100)
    p.add_argument("--no-fill", action="store_true", help="use the attempts already there")
    p.add_argument("--explain", action="store_true")
    args = p.parse_args(argv)
    if not 5 <= args.repeat <= 10_000:
        p.error("--repeat must be 5-10000")
    env = {**os.environ, "DATABASE_URL": args.database_url,
           "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings", "DEBUG": "false",
           "LOG_LEVEL": "WARNING", "ALLOWED_HOSTS": "testserver"}
    os.environ.update(env)
    if not args.no_fill:
        for command in (["migrate", "--noinput", "-v", "0"],
                        ["generate_dailies", "--players", str(args.players)]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                           check=True, stdout=subprocess.DEVNULL)
    import django

    django.setup()
    from django.conf import settings

    # Pages name static files without a collectstatic run (production's storage needs one).
    settings.STORAGES = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    from django.db import connection
    from django.db.models import Q
    from django.test import Client

    from game.domain.clock import utc_today
    from game.models import DailyAttempt
    from game.selectors import daily
    from game.web.players import COOKIE

    today = utc_today()
    board = (DailyAttempt.objects.filter(challenge__day=today, challenge__rules="yahtzee",
                                         final__isnull=False, account=True)
             .order_by("-final", "loss").select_related("player", "challenge"))
    total = board.count()
    if not total:
        p.error("No finished attempt at today's yahtzee: run without --no-fill.")
    middle, best = board[total // 2], board[0]
    guest = (DailyAttempt.objects.filter(challenge=middle.challenge, account=False,
                                         final__isnull=False)
             .select_related("player").first())
    print(f"{daily.finished(middle.challenge).count()} finished attempts today, {total} "
          "of them accounts")
    day_url = f"/daily/yahtzee/{today.isoformat()}/"
    pages = [(f"result page, place {total // 2 + 1}", day_url, middle.player),
             ("result page, place 1", day_url, best.player),
             ("result page, a guest", day_url, guest.player if guest else None),
             ("daily home page", "/daily/", middle.player),
             ("commitments.json", "/daily/commitments.json", None),
             ("lobby (the machine's yardstick)", "/", None)]
    print(TIMES_HEAD)
    for name, url, player in pages:
        client = Client()
        if player is not None:  # that player's browser: signed in to its account, if any
            client.cookies[COOKIE] = player.token
            if player.user is not None:
                client.force_login(player.user)
        print(time_page(client, name, url, args.repeat))
    if args.explain and connection.vendor == "postgresql":
        for what, qs in (
                ("leaderboard", daily.finished(middle.challenge).filter(account=True)
                 .order_by("-final", "loss", "id")[:daily.BOARD_SIZE]),
                ("rank (counted)", daily.finished(middle.challenge).filter(account=True).filter(
                    Q(final__gt=middle.final) | Q(final=middle.final, loss__lt=middle.loss))
                 .order_by().values("id"))):
            print(f"--- {what}\n{qs.explain(analyze=True)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

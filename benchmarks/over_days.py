"""Games over days at scale (not a test): "Your games", the header's count and the scan.

    python -m benchmarks.over_days --database-url sqlite:///var/bench-over-days/db.sqlite3
    python -m benchmarks.over_days --database-url postgresql://postgres@127.0.0.1/bench_over_days

Fills an empty database (migrated here) with ``--games`` over-days games of two players each
among ``--players`` people, ``--events`` events a game (a roll and a score a turn, so each
game has scores to show as the last move), two thirds of them running and the rest finished;
then times, through Django's test client, "Your games" and the lobby (which lists the first
few and, in the header, how many wait) for the busiest person and a typical one, and one pass
of the scan (``services.correspondence.scan``) with nothing due, and with ``--due`` games
(two people each, started for it) whose first move is out of time (the clock moved two days
by ``CLOCK_FILE``; each move played by the medium bot). Prints the median and 95th percentile
in ms and the queries of each page; the scan's wall and CPU time per pass. A database already
filled is reused (``--refill`` starts afresh).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from datetime import timedelta


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.over_days", description=__doc__)
    p.add_argument("--database-url", required=True)
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--players", type=int, default=20_000)
    p.add_argument("--events", type=int, default=10, help="events a game (1M for 100k games)")
    p.add_argument("--repeat", type=int, default=50)
    p.add_argument("--due", type=int, default=50, help="games out of time for the busy scan")
    p.add_argument("--refill", action="store_true")
    args = p.parse_args(argv)
    if not 100 <= args.games <= 1_000_000 or not 10 <= args.players <= args.games:
        p.error("--games 100-1000000, --players 10 up to --games")
    if not 2 <= args.events <= 40 or args.events % 2:
        p.error("--events: an even number, 2-40 (a roll and a score a turn)")
    clock_file = os.path.join(tempfile.mkdtemp(prefix="over-days-clock-"), "clock")
    with open(clock_file, "w") as f:
        f.write("0")
    os.environ.update(DATABASE_URL=args.database_url, CLOCK_FILE=clock_file,
                      DJANGO_SETTINGS_MODULE="yahtzee_site.settings", DEBUG="false",
                      LOG_LEVEL="WARNING", ALLOWED_HOSTS="testserver",
                      CORRESPONDENCE_SCAN_SECONDS="0", REVIEW_ON_FINISH="false",
                      STATIC_FROM_SOURCE="on")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from benchmarks.profiles import TIMES_HEAD, time_page
    from game.models import Game, GameEvent, Player, Seat
    from game.services import correspondence
    from game.web.players import COOKIE

    call_command("migrate", verbosity=0)
    if args.refill or not Game.objects.filter(move_days__gt=0).exists():
        fill(args.games, args.players, args.events)
    from django.db import connection

    with connection.cursor() as cursor:  # the planner's statistics, as a live database has
        cursor.execute("ANALYZE")
    games = Game.objects.filter(move_days__gt=0).count()
    print(f"{games} over-days games, {GameEvent.objects.count()} events, "
          f"{Player.objects.count()} players; load average {os.getloadavg()[0]:.1f}")

    from django.db.models import Count

    by_games = list(Seat.objects.filter(room__pace="days").values("player_id")
                    .annotate(n=Count("id")).order_by("-n").values_list("player_id", "n"))
    busiest, typical = by_games[0], by_games[len(by_games) // 2]
    print(TIMES_HEAD)
    for name, (player_id, n) in (("busiest", busiest), ("typical", typical)):
        client = Client()
        client.cookies[COOKIE] = Player.objects.get(pk=player_id).token
        for page, url in (("your games", "/games/yours/"), ("lobby", "/")):
            print(time_page(client, f"{page}, {name} ({n} games)", url, args.repeat),
                  flush=True)

    for label in ("nothing due", f"{args.due} games out of time"):
        if label != "nothing due":
            due_games(args.due)
            with open(clock_file, "w") as f:
                f.write(str(2 * 86400 + 60))  # past their two days
        start, start_cpu = time.perf_counter(), time.process_time()
        found = correspondence.scan("bench")
        print(f"scan, {label}: {(time.perf_counter() - start) * 1000:.1f} ms wall, "
              f"{(time.process_time() - start_cpu) * 1000:.1f} ms CPU; {found}", flush=True)
    return 0


def due_games(count: int) -> None:
    """``count`` real over-days games (two people each, started through the services) whose
    first move will be out of time."""
    from game import services

    for i in range(count):
        ann, bea = services.new_player(f"Due{i}a"), services.new_player(f"Due{i}b")
        room = services.open_room(f"due-{i}", nickname=ann.name, name=f"Due {i}",
                                  rules="yahtzee", seats=[services.SeatSpec()] * 2,
                                  player=ann, pace="days", move_days=2)
        services.take_seat(room.code, f"due-{i}-b", bea.name, 1, player=bea)
        services.start_game(room.code, f"due-{i}")


def fill(games: int, players: int, events: int) -> None:
    """The history: people, rooms of two seats, games and their events, in bulk."""
    from django.db import transaction
    from django.utils import timezone

    from game.models import Game, GameEvent, Player, Room, Seat

    rng = random.Random(7)
    now = timezone.now()
    batch = 2000
    print(f"filling {games} games, {players} players, {games * events} events...", flush=True)
    with transaction.atomic():
        Player.objects.bulk_create([Player(name=f"Pl{i}") for i in range(players)],
                                   batch_size=batch)
    ids = list(Player.objects.order_by("id").values_list("id", flat=True))
    # A few busy people: a skewed choice, as on any site.
    weights = [1.0 / (1 + i) ** 0.7 for i in range(len(ids))]
    for start in range(0, games, batch):
        count = min(batch, games - start)
        with transaction.atomic():
            rooms = Room.objects.bulk_create([
                Room(name=f"Table {start + i}", rules="yahtzee", seats_count=2,
                     status=Room.Status.PLAYING, pace=Room.Pace.DAYS, move_days=2)
                for i in range(count)])
            # (rooms of finished games are marked so below, with their games)
            # Running games spread evenly (a person holds 20 at most); finished ones skewed:
            # a few busy people have long histories, as on any site.
            runs = [rng.random() < 2 / 3 for _ in rooms]
            pairs = [rng.sample(ids, 2) if run else rng.choices(ids, weights, k=2)
                     for run in runs]
            Seat.objects.bulk_create([
                Seat(room=room, index=i, nickname=f"Pl{pid}", player_id=pid,
                     guest_key=f"g{pid}")
                for room, pair in zip(rooms, pairs, strict=True)
                for i, pid in enumerate(pair)])
            rows = []
            for room, pair, running in zip(rooms, pairs, runs, strict=True):
                mover = rng.randrange(2)
                # Later than the busy scan's moved clock: only its own games are due then.
                deadline = now + timedelta(seconds=rng.uniform(3 * 86400, 9 * 86400))
                rows.append(Game(
                    room=room, rules="yahtzee", players=[f"Pl{pid}" for pid in pair],
                    player_names=", ".join(f"Pl{pid}" for pid in pair),
                    status=Game.Status.PLAYING if running else Game.Status.FINISHED,
                    seq=events, snapshot={"current_player": mover, "finished": not running},
                    totals=[] if running else [200, 180], winners=[] if running else [0],
                    move_days=2, waiting_for_id=pair[mover] if running else None,
                    move_deadline=deadline if running else None,
                    remind_at=deadline - timedelta(hours=9.6) if running else None,
                    finished=None if running else now))
            made = Game.objects.bulk_create(rows)
            Room.objects.filter(pk__in=[r.pk for r, run in zip(rooms, runs, strict=True)
                                        if not run]).update(status=Room.Status.FINISHED)
            GameEvent.objects.bulk_create([
                GameEvent(game=game, seq=seq, seat=(seq - 1) // 2 % 2, by="human",
                          kind="rolled" if seq % 2 else "scored",
                          payload={"player": (seq - 1) // 2 % 2, "dice": [1, 2, 3, 4, 5],
                                   "held": [], "roll": 1} if seq % 2 else
                          {"player": (seq - 1) // 2 % 2, "box": "chance", "column": 0,
                           "points": 15})
                for game in made for seq in range(1, events + 1)], batch_size=batch)
        print(f"  {start + count} games", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())

"""CPU per command on the service path alone: ``python -m benchmarks.commands``.

Plays ``--moves`` commands (roll, then score the first allowed box like the load benchmark's
players, or with ``--boxes random`` a random one) through ``services.apply_command`` in this
one process, against a fresh SQLite database, with no socket and no channel layer: what the
database and the rules cost a move, apart from the transport (``benchmarks.load`` measures the
whole server). ``--profile`` prints the functions that took the time (cProfile).
``--standings DIR`` (a ``STRATEGY_DIR`` holding the yahtzee table, ``manage.py
build_strategy``) also computes the live standings after every turn, as a server does once its
table is built, and reports their cost apart. ``--connects N`` then opens and closes N
sockets' worth of presence and ``state`` (what a server does when a websocket arrives and
leaves: every socket comes back after a restart).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Callable


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.commands", description=__doc__)
    p.add_argument("--rooms", type=int, default=20)
    p.add_argument("--moves", type=int, default=2000)
    p.add_argument("--rules", default="yahtzee", choices=["yahtzee", "yatzy", "triple"])
    p.add_argument("--profile", action="store_true")
    p.add_argument("--database-url", default="",
                   help="an empty PostgreSQL database to use instead of a fresh SQLite one; "
                        "then the write-ahead log each command writes is measured too")
    p.add_argument("--standings", default="", metavar="STRATEGY_DIR",
                   help="a strategy directory with the table: compute the standings after "
                        "every turn, as a server with its table does")
    p.add_argument("--boxes", choices=["first", "random"], default="first",
                   help="which allowed box a player scores: the first (as the load "
                        "benchmark's players; every game then reaches the same end-game "
                        "states) or a random one (seeded: games differ, as people's do)")
    p.add_argument("--connects", type=int, default=0,
                   help="after the moves, this many socket arrivals and departures (presence "
                        "stored and announced, the full state read), their CPU apart")
    args = p.parse_args(argv)
    if not 1 <= args.rooms <= 1000 or not 1 <= args.moves <= 1_000_000:
        p.error("--rooms must be 1-1000 and --moves 1-1000000")
    if not 0 <= args.connects <= 1_000_000:
        p.error("--connects must be 0-1000000")

    data = tempfile.mkdtemp(prefix="yahtzee-commands-")
    os.environ.update(DATA_DIR=data, DJANGO_SETTINGS_MODULE="yahtzee_site.settings",
                      DEBUG="false", LOG_LEVEL="WARNING")
    os.environ.pop("DATABASE_URL", None)
    if args.standings:
        os.environ["STRATEGY_DIR"] = args.standings
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.conf import settings

    settings.REVIEW_ON_FINISH = False  # a review is not a command's cost
    from game.rules import Roll, Score

    from .load.seed import seed

    rooms = seed(args.rooms, 2, args.rules)
    from django.contrib.sessions.backends.db import SessionStore

    from game import protocol, services

    guests = {}
    for room in rooms:
        keys = [SessionStore(session_key=c.split("=", 1)[1]).load()[services.SESSION_GUEST]
                for c in room["player_cookies"]]
        guests[room["code"]] = keys

    def current_state(code: str) -> dict:
        loaded = services.load_for_decision(code)
        assert loaded is not None, f"room {code} has no game"
        return loaded[1].to_dict()

    states = {r["code"]: current_state(r["code"]) for r in rooms}
    from game.realtime.insight_publisher import TURN_ENDS
    from game.selectors.standings import standings_available, standings_of

    if args.standings and not standings_available(args.rules):
        p.error(f"--standings: no {args.rules} table in {args.standings} (build_strategy)")
    standings = {"cpu": 0.0, "count": 0}
    boxes = random.Random(2026)

    def one_move(i: int) -> None:
        code = rooms[i % len(rooms)]["code"]
        game = states[code]
        if game["finished"]:
            services.start_game(code, guests[code][0])
            game = states[code] = current_state(code)
        who = guests[code][game["current_player"]]
        allowed = [o for o in game["options"] if o["allowed"]]
        box = (boxes.choice(allowed) if args.boxes == "random" else allowed[0]) if allowed else None
        action = Score(box["box"], box["column"]) if box else Roll(())
        # An id on every command, as the room page sends (the duplicate check reads it).
        result = services.apply_command(code, action, guest_key=who, command_id=f"m{i}")
        assert result.state is not None
        states[code] = result.state
        if args.standings and result.events[-1]["kind"] in TURN_ENDS:
            start = time.process_time()
            assert standings_of(result.state["id"]) is not None
            standings["cpu"] += time.process_time() - start
            standings["count"] += 1

    from django.db import connection

    def wal_position() -> int | None:
        """PostgreSQL's write-ahead log position in bytes (None on SQLite)."""
        if connection.vendor != "postgresql":
            return None
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")
            return int(cursor.fetchone()[0])

    def backend_cpu() -> float | None:
        """CPU seconds of this connection's PostgreSQL backend, if it runs on this machine."""
        if connection.vendor != "postgresql":
            return None
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    if args.standings:  # the table loads once per process: not a turn's cost
        first = services.load_for_decision(rooms[0]["code"])
        assert first is not None and standings_of(first[0].pk) is not None
    profile = cProfile.Profile() if args.profile else None

    def measured(step: Callable[[int], None], count: int) -> tuple[float, float]:
        """CPU and wall seconds of ``count`` steps (profiled with --profile)."""
        cpu, wall = time.process_time(), time.perf_counter()
        if profile:
            profile.enable()
        for i in range(count):
            step(i)
        if profile:
            profile.disable()
        return time.process_time() - cpu, time.perf_counter() - wall

    wal, backend = wal_position(), backend_cpu()
    cpu, wall = measured(one_move, args.moves)
    print(f"{args.moves} commands in {args.rooms} rooms on {connection.vendor}: "
          f"{1000 * cpu / args.moves:.3f} ms CPU and {1000 * wall / args.moves:.3f} ms wall "
          "per command (this process)")
    if standings["count"]:
        print(f"of which standings: {1000 * standings['cpu'] / standings['count']:.3f} ms CPU "
              f"per turn end ({standings['count']} turn ends), "
              f"{1000 * standings['cpu'] / args.moves:.3f} ms per command")
    if wal is not None:
        # The whole server's log: run it on a database nothing else writes to.
        written = (wal_position() or 0) - wal
        print(f"write-ahead log: {written / args.moves:.0f} bytes per command")
    after = backend_cpu()
    if backend is not None and after is not None:
        print(f"PostgreSQL backend: {1000 * (after - backend) / args.moves:.3f} ms CPU per "
              "command")
    from game.models import Game, GameEvent

    snapshots = [len(json.dumps(s)) for s in Game.objects.values_list("snapshot", flat=True)]
    payloads = [len(json.dumps(p)) for p in GameEvent.objects.values_list("payload", flat=True)]
    print(f"mean stored JSON: game snapshot {sum(snapshots) / len(snapshots):.0f} bytes, event "
          f"payload {sum(payloads) / len(payloads):.0f} bytes")
    if args.connects:
        from game import selectors
        from game.models import Room

        by_code = {r.code: r for r in Room.objects.filter(code__in=[r["code"] for r in rooms])}

        def one_socket(i: int) -> None:
            """What ``RoomConsumer`` asks of the database when a player's socket opens (its
            room, the presence stored and announced, the ``state``) and when it closes."""
            code = rooms[i % len(rooms)]["code"]
            guest = guests[code][i % 2]
            room = Room.objects.filter(code=code).first()
            assert room is not None
            services.socket_opened(room, f"bench.{i}", guest, "127.0.0.1")
            assert protocol.state(selectors.room_state(room, guest))["you"]["seat"] is not None
            services.socket_closed(by_code[code], f"bench.{i}", guest)

        cpu, _ = measured(one_socket, args.connects)
        print(f"{args.connects} sockets opened and closed: {1000 * cpu / args.connects:.3f} ms "
              "CPU each")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    return 0


if __name__ == "__main__":
    sys.exit(main())

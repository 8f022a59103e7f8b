"""``python -m benchmarks.load``: start servers, run the load phases, print and save figures.

For each server count (1, and 2 with --scale-out) and each target (the bare relay baseline,
then the real app; ``stock`` adds the relay on Channels' own dispatch), Daphne processes are
started on free loopback ports with a private Redis, every load of --rooms is played for
--duration seconds, and the servers are stopped again.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import profile, services
from .browser import seat_rooms
from .hostile import SeedFlood
from .report import held, print_table, with_ratios
from .run import Seating, Shape, relay_seating, run_phase
from .seed import seed_in_subprocess

DEFAULT_PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
#: The relays' applications by target (benchmarks/load/relay_asgi.py).
RELAYS = {"baseline": "benchmarks.load.relay_asgi:application",
          "stock": "benchmarks.load.relay_asgi:stock_application"}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__)
    p.add_argument("--rooms", default="100",
                   help="rooms, or a comma list raised step by step until a load breaks "
                        "(e.g. 100,200,300)")
    p.add_argument("--players", type=int, default=2, help="bot players per room (1-6)")
    p.add_argument("--watchers", type=int, default=5, help="watchers per room")
    p.add_argument("--rate", type=float, default=1.0, help="moves per second per room")
    p.add_argument("--duration", type=float, default=40.0, help="seconds of moves per load")
    p.add_argument("--targets", default="baseline,app",
                   help="a comma list of baseline (the relay, the floor), stock (the relay on "
                        "Channels' own dispatch) and app, run in the order given")
    p.add_argument("--scale-out", action="store_true",
                   help="also run every load split over two Daphne processes")
    p.add_argument("--only-scale-out", action="store_true", help="two Daphne processes only")
    p.add_argument("--ruleset", default="yahtzee", choices=["yahtzee", "yatzy", "triple"])
    p.add_argument("--database", default="postgres", choices=["postgres", "sqlite"],
                   help="the app's database (scale-out needs postgres)")
    p.add_argument("--pg-admin-url", default=DEFAULT_PG_ADMIN,
                   help="a PostgreSQL URL allowed to create the benchmark database")
    p.add_argument("--pg-db", default="yahtzee_bench", help="benchmark database (recreated)")
    p.add_argument("--setup", default="http", choices=["http", "orm"],
                   help="make rooms and seats through the site's forms like a browser (http), "
                        "or straight through game.services in a child process (orm)")
    p.add_argument("--db-options", default="",
                   help="query string added to the app's DATABASE_URL, e.g. conn_max_age=60 "
                        "(django-environ options) to try a setting without editing settings.py")
    p.add_argument("--redis-url", default="",
                   help="use this Redis instead of starting a private one")
    p.add_argument("--hostile", type=int, default=0,
                   help="also run each app load with this many hostile sockets flooding "
                        "sync just under the rate limit (benchmarks/load/hostile.py)")
    p.add_argument("--seed-flood", type=int, default=0, metavar="TABS",
                   help="also run each app load beside a seed flood: one person seated alone "
                        "in their own room, TABS tabs each sending a new seed every 126 ms, "
                        "watched by --seed-flood-watchers sockets (benchmarks/load/hostile.py)")
    p.add_argument("--name-flood", type=int, default=0, metavar="VISITORS",
                   help="also run each app load beside VISITORS threads posting huge names to "
                        "POST /name as fast as they are answered (benchmarks/load/hostile.py)")
    p.add_argument("--seed-flood-watchers", type=int, default=88,
                   help="watcher sockets of the seed flood's room")
    p.add_argument("--seed-flood-sessions", type=int, default=11,
                   help="the people (sessions with a guest key) those watcher sockets are "
                        "spread over, 8 tabs each by default (0: anonymous watchers)")
    p.add_argument("--holds", action="store_true",
                   help="after every roll the roller shows one hold (a transient frame to the "
                        "whole room; on the relay a frame as small)")
    p.add_argument("--strategy-dir", default="",
                   help="a STRATEGY_DIR holding the ruleset's table (manage.py build_strategy): "
                        "the app then sends the live standings after every turn, as a site "
                        "whose table is built does (without: no standings, a fresh data dir)")
    p.add_argument("--boxes", choices=["first", "random"], default="first",
                   help="which allowed box a player scores: the first (every game then reaches "
                        "the same cards) or a seeded random one (games differ, as people's do)")
    p.add_argument("--profile", action="store_true",
                   help="sample the app's servers with py-spy during the moves; the stacks "
                        "go to the log directory, their summary to stderr")
    p.add_argument("--pin", action=argparse.BooleanOptionalAction, default=True,
                   help="each server process on a core of its own (taskset), as the README's "
                        "production recipe runs them (the default); --no-pin lets the OS "
                        "move them between cores")
    p.add_argument("--keep-going", action="store_true",
                   help="run every load of --rooms even after one broke")
    p.add_argument("--out", default="var/bench", help="directory for JSON results and logs")
    args = p.parse_args(argv)
    try:
        args.room_steps = [int(x) for x in args.rooms.split(",") if x.strip()]
    except ValueError:
        p.error(f"--rooms wants numbers separated by commas, not {args.rooms!r}")
    if not args.room_steps or min(args.room_steps) < 1 or max(args.room_steps) > 5000:
        p.error("--rooms must be between 1 and 5000")
    args.targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    if not args.targets or not set(args.targets) <= {"baseline", "stock", "app"}:
        p.error("--targets takes a comma list of baseline, stock and app")
    if not 1 <= args.players <= 6 or not 0 <= args.watchers <= 100:
        p.error("--players must be 1-6 and --watchers 0-100")
    if not 0.01 <= args.rate <= 50 or not 1 <= args.duration <= 3600:
        p.error("--rate must be 0.01-50 and --duration 1-3600 s")
    if not 0 <= args.seed_flood <= 100 or not 0 <= args.seed_flood_watchers <= 1000 \
            or not 0 <= args.seed_flood_sessions <= 1000:
        p.error("--seed-flood must be 0-100 tabs, --seed-flood-watchers and "
                "--seed-flood-sessions 0-1000")
    if args.strategy_dir and not Path(args.strategy_dir).is_dir():
        p.error(f"--strategy-dir {args.strategy_dir!r} is not a directory")
    if args.pin and shutil.which("taskset") is None:
        p.error("--pin needs taskset (util-linux): install it, or run with --no-pin")
    args.server_counts = [2] if args.only_scale_out else [1, 2] if args.scale_out else [1]
    if 2 in args.server_counts and args.database == "sqlite" and "app" in args.targets:
        p.error("scale-out shares one database between processes: use --database postgres")
    return args


def base_env(redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env.update(REDIS_URL=redis_url, PYTHONUNBUFFERED="1", LOG_LEVEL="WARNING")
    return env


def app_env(args: argparse.Namespace, redis_url: str, log_dir: Path) -> dict[str, str]:
    env = base_env(redis_url)
    data_dir = log_dir / "app-data"
    data_dir.mkdir(exist_ok=True)
    env.update(DATA_DIR=str(data_dir), DJANGO_SETTINGS_MODULE="yahtzee_site.settings",
               DEBUG="false", BOT_DELAY="0", AWAY_GRACE="3600", STATIC_FROM_SOURCE="on",
               # Every simulated browser comes from this one address: lift the per-address caps.
               ROOMS_PER_HOUR="1000000", JOINS_PER_MINUTE="1000000",
               SOCKETS_PER_ADDRESS="1000000")
    if args.strategy_dir:
        env["STRATEGY_DIR"] = str(Path(args.strategy_dir).resolve())
    if args.database == "postgres":
        env["DATABASE_URL"] = services.ensure_postgres_db(args.pg_admin_url, args.pg_db)
        if args.db_options:
            env["DATABASE_URL"] += "?" + args.db_options
    else:
        env.pop("DATABASE_URL", None)
    services.migrate(env, log_dir)
    return env


def save(path: Path, results: list[dict[str, Any]]) -> None:
    """Written after every phase, so an interrupted run keeps what it measured."""
    path.write_text(json.dumps({"argv": sys.argv[1:], "results": with_ratios(results)},
                               indent=2))


def run_target(args: argparse.Namespace, target: str, servers_n: int, env: dict[str, str],
               log_dir: Path, results: list[dict[str, Any]], path: Path) -> None:
    if target in RELAYS:
        env = dict(env, DJANGO_SETTINGS_MODULE="benchmarks.load.relay_settings")
        application = RELAYS[target]
    else:
        application = "yahtzee_site.asgi:application"
    tag = f"{target}-{servers_n}"
    with services.daphne_servers(application, servers_n, env, log_dir, tag,
                                 pin=args.pin) as servers:
        for rooms in args.room_steps:
            shape = Shape(rooms, args.players, args.watchers, args.rate, args.duration)
            # With --hostile, --seed-flood or --name-flood, the app's load is measured twice
            # in a row: honest players only, then beside the hostile clients (fresh rooms).
            hostile_too = (args.hostile or args.seed_flood or args.name_flood) \
                and target == "app"
            for hostile in ([False, True] if hostile_too else [False]):
                seatings = make_seatings(args, target, shape, servers.urls("http"), env)
                flood = (seed_flood(args, env) if hostile and args.seed_flood else None)
                print(f"[{target} x{servers_n}] {rooms} rooms x ({args.players} players + "
                      f"{args.watchers} watchers), {args.rate:g} move/s each, "
                      f"{args.duration:g} s, {args.hostile if hostile else 0} hostile sockets"
                      f"{', a seed flood' if flood else ''}"
                      f"{', a name flood' if hostile and args.name_flood else ''} ...",
                      file=sys.stderr, flush=True)
                if not run_load(args, target, servers_n, servers, shape, seatings,
                                args.hostile if hostile else 0, results, path, flood,
                                args.name_flood if hostile else 0):
                    return


def seed_flood(args: argparse.Namespace,
               env: dict[str, str]) -> tuple[SeedFlood, str, str]:
    """The seed flood's room (one seat, its person's session, no game) and its clients."""
    [room] = seed_in_subprocess(env, 1, 1, args.ruleset, start=False,
                                watchers=args.seed_flood_sessions)
    return (SeedFlood(args.seed_flood, args.seed_flood_watchers, room["watcher_cookies"]),
            room["code"], room["player_cookies"][0])


def make_seatings(args: argparse.Namespace, target: str, shape: Shape, http_urls: list[str],
                  env: dict[str, str]) -> list[Seating]:
    if target in RELAYS:
        return relay_seating(shape)
    if args.setup == "orm":
        return [Seating(r["code"], r["player_cookies"], [""] * args.watchers)
                for r in seed_in_subprocess(env, shape.rooms, args.players, args.ruleset)]
    return [Seating(code, players, watchers) for code, players, watchers
            in seat_rooms(shape.rooms, args.players, args.watchers, http_urls, args.ruleset)]


def run_load(args: argparse.Namespace, target: str, servers_n: int,
             servers: services.Servers, shape: Shape, seatings: list[Seating], hostile: int,
             results: list[dict[str, Any]], path: Path,
             flood: tuple[SeedFlood, str, str] | None = None, name_flood: int = 0) -> bool:
    """One measured load; False when it broke and the run should stop."""
    rooms, http_urls = shape.rooms, servers.urls("http")
    moves_cpu: list[float] = []  # server CPU seconds from the first move to the last
    moves_loop_cpu: list[float] = []  # of which their event loops'
    connect_cpu: list[float] = []  # and from the first handshake to the last full state
    profiles: list[tuple[Path, Any]] = []  # py-spy's stacks of each server (--profile)

    def on_moves_done() -> None:
        moves_cpu.append(servers.cpu_since_mark())
        moves_loop_cpu.append(servers.loop_cpu_since_mark())

    def on_start() -> None:
        servers.mark_cpu()
        if args.profile and target == "app":
            for i, proc in enumerate(servers.procs):
                out = path.with_name(f"{path.stem}-profile-{len(results)}-{rooms}-{i}.txt")
                profiles.append((out, profile.start(proc.pid, out, shape.duration)))

    result = asyncio.run(run_phase(
        target + ("+hostile" if hostile else "") + ("+seedflood" if flood else "")
        + ("+nameflood" if name_flood else ""), shape,
        seatings, http_urls,
        relay=target in RELAYS, on_start=on_start, hostile=hostile,
        holds=args.holds, on_moves_done=on_moves_done,
        on_connecting=servers.mark_cpu,
        on_connected=lambda: connect_cpu.append(servers.cpu_since_mark()),
        seed_flood=flood, random_boxes=args.boxes == "random", name_flood=name_flood,
    ))
    for out, recorder in profiles:
        profile.finish(recorder)
        if out.exists():
            print(profile.summary(out), file=sys.stderr)
    cores = servers.cores_since_mark()
    moves = result["moves_ok"]
    # What one move costs the servers, whatever the machine's load does to latency.
    result["server_cpu_ms_per_move"] = (
        round(1000 * moves_cpu[0] / moves, 2) if moves and moves_cpu else None)
    # Of which the event loops' (the main threads'): the rest is the other threads'.
    result["server_loop_cpu_ms_per_move"] = (
        round(1000 * moves_loop_cpu[0] / moves, 2) if moves and moves_loop_cpu else None)
    # What a socket's arrival costs them: the handshake, and on the app the full ``state``
    # and the presence it announces (a restart brings every socket back at once).
    sockets = rooms * (args.players + args.watchers)
    result["server_cpu_ms_per_connect"] = (
        round(1000 * connect_cpu[0] / sockets, 2) if connect_cpu else None)
    result.update(
        target=target, servers=servers_n, rooms=rooms, players=args.players,
        watchers=args.watchers, rate=args.rate, sockets=rooms * (args.players
                                                                 + args.watchers),
        offered_moves_per_s=round(rooms * args.rate, 1),
        server_cpu_cores=round(cores, 2),
        ruleset=args.ruleset if target == "app" else None,
        database=args.database if target == "app" else None,
        boxes=args.boxes if target == "app" else None,
        pinned=args.pin,
    )
    servers.check_alive()
    result["held"] = held(result)
    if args.db_options and target == "app":
        result["db_options"] = args.db_options
    results.append(result)
    save(path, results)
    print_table([result], file=sys.stderr)
    return result["held"] or args.keep_going


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = Path(args.out)
    log_dir = out / f"logs-{stamp}"
    log_dir.mkdir(parents=True, exist_ok=True)
    results: list[dict[str, Any]] = []
    path = out / f"load-{stamp}.json"
    with services.redis_server(log_dir) if not args.redis_url else _given(args.redis_url) as url:
        env = base_env(url)
        if "app" in args.targets:
            env_app = app_env(args, url, log_dir)
        for servers_n in args.server_counts:
            for target in args.targets:
                run_target(args, target, servers_n, env_app if target == "app" else env,
                           log_dir, results, path)
    save(path, results)
    print_table(with_ratios(results))
    print(f"\nJSON: {path}   logs: {log_dir}")
    return 0


class _given:
    """A Redis URL given on the command line: nothing to start or stop."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __enter__(self) -> str:
        return self.url

    def __exit__(self, *exc: object) -> None:
        return None


if __name__ == "__main__":
    sys.exit(main())

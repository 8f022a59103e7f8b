"""Direct-ORM setup of started rooms, for when the browser path (browser.py) is not wanted.

Run in its own process against the app's database (same environment as the servers):
``python -m benchmarks.load.seed`` reads a JSON spec on stdin and prints, as JSON, each room's
code and the ``Cookie`` header of each seated player's Django session (and of each watching
person's, when asked for). It goes through
``game.services`` (create_room, take_seat, start_game), never around them: setup only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from .services import REPO


def seed(rooms: int, players: int, rules: str, start: bool = True,
         watchers: int = 0) -> list[dict[str, Any]]:
    """``watchers``: sessions per room that have a guest key and no seat (people who acted
    somewhere on the site, watching this room), as ``watcher_cookies``."""
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore

    from game import services

    cookie_name = settings.SESSION_COOKIE_NAME

    def session() -> tuple[str, str]:
        store = SessionStore()
        guest = services.guest_key(store)
        store.create()
        return f"{cookie_name}={store.session_key}", guest

    out = []
    for r in range(rooms):
        cookies, guests = [], []
        for _ in range(players):
            cookie, guest = session()
            cookies.append(cookie)
            guests.append(guest)
        room = services.create_room(
            name=f"Load {r}", rules=rules, seats=[services.SeatSpec()] * players,
            host_key=guests[0])
        for i, guest in enumerate(guests):
            services.take_seat(room.code, guest, f"Loader{i}", i)
        if start:
            services.start_game(room.code, guests[0])
        out.append({"code": room.code, "player_cookies": cookies,
                    "watcher_cookies": [session()[0] for _ in range(watchers)]})
    return out


def seed_in_subprocess(env: dict[str, str], rooms: int, players: int, rules: str,
                       start: bool = True, watchers: int = 0) -> list[dict[str, Any]]:
    """Run :func:`seed` in a child process with the servers' environment."""
    spec = json.dumps({"rooms": rooms, "players": players, "rules": rules, "start": start,
                       "watchers": watchers})
    done = subprocess.run([sys.executable, "-m", "benchmarks.load.seed"], input=spec,
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"seeding failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
    django.setup()
    spec = json.load(sys.stdin)
    rooms = seed(int(spec["rooms"]), int(spec["players"]), str(spec["rules"]),
                 bool(spec.get("start", True)), int(spec.get("watchers", 0)))
    print(json.dumps(rooms))


if __name__ == "__main__":
    main()

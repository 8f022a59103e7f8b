"""Over-days games with two real servers on one database and Redis: each one scans, and still
every notice is mailed once, every move out of time is played once, and a server killed
mid-way loses nothing. Time is moved by the clock file both servers read."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.support.smtp import Inbox, running_smtp_server

from .processes import REPO, Site, site_env, wait_until

pytestmark = pytest.mark.timeout(240)

GAMES = 6
DAY = 86400

SEED = """
import json, os
import django
django.setup()
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from game import services
from game.models import Player
made = []
for i in range(int(os.environ["GAMES"])):
    people = []
    for who in ("a", "b"):
        name = f"P{i}{who}"
        player = services.new_player(name)
        user = get_user_model().objects.create_user(name.lower(), f"{name.lower()}@example.com")
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        Player.objects.filter(pk=player.pk).update(user=user, notify_email="turns")
        people.append(player)
    room = services.open_room(f"host{i}", nickname=people[0].name, name=f"Table {i}",
                              rules="yahtzee", seats=[services.SeatSpec()] * 2,
                              player=people[0], pace="days", move_days=1)
    services.take_seat(room.code, f"guest{i}", people[1].name, 1, player=people[1])
    services.start_game(room.code, f"host{i}")
    made.append(room.code)
print(json.dumps(made))
"""


@pytest.fixture
def smtp() -> Inbox:
    with running_smtp_server() as inbox:
        yield inbox


@pytest.fixture
def site_settings(tmp_path: Path, smtp: Inbox) -> dict[str, str]:
    (tmp_path / "clock").write_text("0")
    return {"CLOCK_FILE": str(tmp_path / "clock"), "CORRESPONDENCE_SCAN_SECONDS": "0.5",
            "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp.port),
            "SITE_URL": "https://yahtzee.example", "AUTOPLAY_LEVEL": "medium"}


@pytest.fixture
def two_servers(template_dir: Path, tmp_path: Path, site_settings: dict[str, str]):
    site = Site.create(template_dir, tmp_path / "site", servers=2, env=site_settings)
    try:
        yield site
    finally:
        site.stop()


def seed(site: Site, settings: dict[str, str]) -> list[str]:
    env = {**site_env(site.data_dir, site.redis_url), **settings, "GAMES": str(GAMES),
           "CORRESPONDENCE_SCAN_SECONDS": "0"}
    done = subprocess.run([sys.executable, "-c", SEED], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def events_of(site: Site, code: str) -> list:
    with site.db() as conn:
        return conn.execute(
            """SELECT e.seq, e.kind, e.seat, e.by FROM game_gameevent e
               JOIN game_game g ON g.id = e.game_id JOIN game_room r ON r.id = g.room_id
               WHERE r.code = ? ORDER BY e.seq""", (code,)).fetchall()


def notices(site: Site) -> list[tuple]:
    with site.db() as conn:
        return [tuple(r) for r in conn.execute(
            "SELECT player_id, game_id, seq, kind, outcome, claimed_by FROM game_notification")]


def test_two_servers_send_each_notice_once_and_play_each_late_move_once(
        two_servers: Site, site_settings: dict[str, str], smtp: Inbox, tmp_path: Path) -> None:
    site = two_servers
    codes = seed(site, site_settings)
    # Each game's first player is told, once, by whichever server claimed the notice.
    wait_until(lambda: len(notices(site)) == GAMES
               and all(n[4] for n in notices(site)), 60, "the first notices dealt with")
    wait_until(lambda: len(smtp.messages) >= GAMES, 30, "the first emails")
    assert Counter(m["To"] for m in smtp.messages) == {f"p{i}a@example.com": 1
                                                       for i in range(GAMES)}

    # Nobody moves for a day: each first move is played by the computer, once, by one server.
    (tmp_path / "clock").write_text(str(DAY + 60))
    wait_until(lambda: sum(1 for n in notices(site) if n[3] == "timed_out" and n[4]) == GAMES,
               120, "every late move played and told")
    site.kill_daphne(0)  # a server dies; the other goes on alone, and takes over the notices
    (tmp_path / "clock").write_text(str(DAY + 60 + 61))  # its claims lapse (60 s)
    wait_until(lambda: len(notices(site)) == 3 * GAMES and all(n[4] for n in notices(site)),
               60, "every notice of the next turns dealt with")
    kinds = Counter((n[0], n[3]) for n in notices(site))
    assert set(kinds.values()) == {1}  # no notice twice
    for code in codes:
        events = events_of(site, code)
        by = [e["by"] for e in events if e["seat"] == 0]
        assert by and set(by) == {"autoplay"}, by  # the first player's turn, by the computer
        scored = [e for e in events if e["kind"] == "scored"]
        assert len(scored) == 1  # played once: one box, not two
    sent = Counter(m["To"] for m in smtp.messages)
    # a: "your turn", then "played for you"; b: "your turn" once the computer moved for a.
    assert sent == {**{f"p{i}a@example.com": 2 for i in range(GAMES)},
                    **{f"p{i}b@example.com": 1 for i in range(GAMES)}}

"""The README's production recipe, run as written: its environment and commands on a fresh
PostgreSQL database and Redis, its two Daphnes, its nginx configuration (Debian's nginx, a
throwaway certificate) in front of them, and a real Chromium playing through https and wss.

Only ports and paths differ from the README (and the cores, on a machine with fewer): Chromium
maps ``yahtzee.example`` ports 80 and 443 to nginx's high ports on ``[::1]``. The browser thus
reaches nginx from ``::1`` while nginx reaches the Daphnes from 127.0.0.1, so the address the
site records tells the proxy's header from the connection's peer."""

from __future__ import annotations

import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from playwright.sync_api import Browser, Playwright, expect

from benchmarks.load.services import wait_for_port
from tests.support.readme import (
    readme_nginx_config,
    readme_production_commands,
    readme_production_env,
)
from tests.support.servers import REPO, TEARDOWN_WAIT, free_port, serve, stop

from .conftest import CHROMIUM, CHROMIUM_ARGS
from .pages import (
    confirm_if_asked,
    dice,
    last_seq,
    options,
    roll,
    start_game,
    wait_connected,
    wait_seq,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

HOST = "yahtzee.example"  # the README's ALLOWED_HOSTS and server_name
SITE = f"https://{HOST}"
#: What a client might claim; nginx must replace it with the address it saw.
SPOOFED = "203.0.113.9"


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                      else None)
    if not found:
        pytest.fail("No nginx: run scripts/ensure-services (apt-get install nginx-light).")
    return found


@dataclass
class Daphnes:
    """The recipe's ``daphne`` lines: their options, ports (8001, 8002 in the README) and the
    core each is pinned to (``taskset -c``)."""

    options: tuple[str, ...]
    ports: list[int]
    cores: list[int]

    def core_here(self, i: int) -> int:
        """The README's core of Daphne ``i`` on this machine (one it may use)."""
        available = sorted(os.sched_getaffinity(0))
        return available[self.cores[i] % len(available)]


def readme_daphnes(commands: list[str]) -> Daphnes:
    lines = [shlex.split(c.removesuffix("&")) for c in commands if "bin/daphne " in c]
    assert len(lines) == 2, commands
    ports, options, cores = [], set(), []
    for words in lines:
        assert words[:2] == ["taskset", "-c"], words  # each on a core of its own
        cores.append(int(words[2]))
        words = words[3:]
        ports.append(int(words[words.index("-p") + 1]))
        bound = words.index("-b")
        assert words[bound + 1] == "127.0.0.1" and words[-1] == "yahtzee_site.asgi:application"
        options.add(tuple(words[1:bound]))
    assert len(options) == 1 and len(set(ports)) == 2 and len(set(cores)) == 2, lines
    return Daphnes(options.pop(), ports, cores)


@dataclass
class Ports:
    """This test's ports for what the README puts on 80, 443 and 8001, 8002."""

    http: int
    https: int
    daphnes: list[int]

    def listen(self, port: int) -> int:
        return {80: self.http, 443: self.https}[port]


def nginx_config(doc: str, daphnes: Daphnes, ports: Ports, tmp: Path) -> str:
    """The README's configuration with this test's ports and certificate, in a main
    configuration that keeps nginx in the foreground with every file under ``tmp``."""
    for old in daphnes.ports:  # the upstream names exactly the README's Daphnes
        assert f"server 127.0.0.1:{old};" in doc, doc
    text = doc
    for old, new in zip(daphnes.ports, ports.daphnes, strict=True):
        text = text.replace(f"server 127.0.0.1:{old};", f"server 127.0.0.1:{new};")
    for listen in (80, 443):
        assert text.count(f"listen {listen}") == 1, doc
        text = text.replace(f"listen {listen}", f"listen [::1]:{ports.listen(listen)}")
    text, certs = re.subn(
        r"(ssl_certificate(?:_key)?) [^;]+;",
        lambda m: f"{m[1]} {tmp / ('key.pem' if m[1].endswith('key') else 'cert.pem')};", text)
    assert certs == 2, doc
    temp = "".join(f"    {kind}_temp_path {tmp / kind};\n"
                   for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"daemon off;\nmaster_process on;\nworker_processes 1;\n"
            f"user {pwd.getpwuid(os.geteuid()).pw_name};\n"  # ignored unless root
            f"pid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'} warn;\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{\n    access_log {tmp / 'access.log'};\n{temp}{text}}}\n")


@dataclass
class Site:
    database: str  # the PostgreSQL URL of the site's database
    ports: Ports


@pytest.fixture
def production(tmp_path: Path, redis_url: str, postgres_url: str,
               strategy_dir: Path) -> Iterator[Site]:
    commands = readme_production_commands()
    daphnes = readme_daphnes(commands)
    name = f"yahtzee_nginx_{os.getpid()}"
    database = postgres_url.rsplit("/", 1)[0] + f"/{name}"
    admin = psycopg.connect(postgres_url, autocommit=True)
    admin.execute(f"DROP DATABASE IF EXISTS {name}")
    admin.execute(f"CREATE DATABASE {name}")
    env = {**{k: v for k, v in os.environ.items()
              if k not in ("SECRET_KEY", "DEBUG", "STATIC_FROM_SOURCE")
              and not k.startswith("PYTEST_")},
           **readme_production_env(), "DATABASE_URL": database, "REDIS_URL": redis_url,
           "DATA_DIR": str(tmp_path), "STRATEGY_DIR": str(strategy_dir),
           "CACHE_KEY_PREFIX": f"production-test-{os.getpid()}", "BOT_DELAY": "0",
           "LOG_LEVEL": "WARNING"}
    ports = Ports(free_port(), free_port(), [free_port() for _ in daphnes.ports])
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                    "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=DNS:{HOST}",
                    "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True, timeout=30)
    for command in commands:  # migrate, check --deploy, collectstatic: as written
        if "manage.py" in command:
            words = shlex.split(command)
            assert words[0] == ".venv/bin/python", command
            done = subprocess.run([sys.executable, *words[1:]], cwd=REPO, env=env,
                                  capture_output=True, text=True, timeout=180)
            assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
    procs: list[subprocess.Popen] = []
    try:
        for i, port in enumerate(ports.daphnes):
            procs.append(serve(port, env, tmp_path / f"daphne-{port}.log",
                               options=daphnes.options, cpu=daphnes.core_here(i)))
            assert os.sched_getaffinity(procs[-1].pid) == {daphnes.core_here(i)}
        config = tmp_path / "nginx.conf"
        config.write_text(nginx_config(readme_nginx_config(), daphnes, ports, tmp_path))
        nginx = subprocess.Popen(
            [nginx_binary(), "-p", str(tmp_path), "-c", str(config),
             "-e", str(tmp_path / "error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        procs.append(nginx)
        for listen in (80, 443):
            wait_for_port(ports.listen(listen), 20, nginx, host="::1")
        yield Site(database, ports)
    finally:
        for proc in reversed(procs):
            stop(proc, timeout=TEARDOWN_WAIT)
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


@pytest.fixture
def browser_through_proxy(production: Site, playwright: Playwright) -> Iterator[Browser]:
    """Chromium that finds ``yahtzee.example`` on nginx's ports, as DNS would find it."""
    rules = ", ".join(f"MAP {HOST}:{listen} [::1]:{production.ports.listen(listen)}"
                      for listen in (80, 443))
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=[*CHROMIUM_ARGS, f"--host-resolver-rules={rules}"])
    yield browser
    browser.close()


def sockets(database: str, room: str) -> list[tuple[str, str, str]]:
    """(seated nickname, address, server) of every open socket of the room's players, as the
    site stored them."""
    with psycopg.connect(database) as db:
        return db.execute(
            "SELECT s.nickname, c.address, c.server FROM game_connection c "
            "JOIN game_room r ON r.id = c.room_id "
            "JOIN game_seat s ON s.room_id = r.id AND s.guest_key = c.guest_key "
            "WHERE r.code = %s", (room,)).fetchall()


def socket_servers(database: str, room: str) -> dict[str, str]:
    return {nickname: server for nickname, _, server in sockets(database, room)}


def test_the_readme_recipe_serves_a_game_over_https_and_wss_from_both_daphnes(
        production: Site, browser_through_proxy: Browser):
    site = production
    contexts = [browser_through_proxy.new_context(
        ignore_https_errors=True, extra_http_headers={"X-Forwarded-For": SPOOFED})
        for _ in range(2)]
    try:
        ann, bea = (context.new_page() for context in contexts)
        errors: list[str] = []  # any script error in a page fails the test
        for page in (ann, bea):
            page.on("pageerror", lambda e: errors.append(str(e)))
        sockets_opened: list[str] = []
        ann.on("websocket", lambda ws: sockets_opened.append(ws.url))

        # http is sent to https by nginx; the page comes with HSTS.
        response = ann.goto(f"http://{HOST}/")
        assert ann.url == f"{SITE}/"
        assert response is not None and response.request.redirected_from is not None
        assert response.request.redirected_from.url == f"http://{HOST}/"
        assert response.headers["strict-transport-security"] == \
            "max-age=31536000; includeSubDomains; preload"

        ann.fill("#friends_nickname", "Ann")
        ann.get_by_role("button", name="Play with friends").click()
        ann.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
        wait_connected(ann)  # over wss:// through nginx
        room = ann.url.rstrip("/").rsplit("/", 1)[1]
        assert sockets_opened == [f"wss://{HOST}/ws/rooms/{room}/"]

        # Every cookie is Secure, and the browser kept the player's.
        cookies = {c["name"]: c for c in contexts[0].cookies()}
        assert "player" in cookies and "sessionid" in cookies, cookies
        assert all(c["secure"] for c in cookies.values()), cookies

        bea.goto(ann.url)
        wait_connected(bea)
        bea.fill("#join_nickname", "Bea")
        bea.get_by_role("button", name="Join as Bea").click()
        bea.wait_for_load_state()
        wait_connected(bea)
        expect(ann.locator("#seats")).to_contain_text("Bea")

        # Round robin: reopen Bea's room until her socket is on the other Daphne. A page load
        # makes several requests upstream (the page, the scripts' catalog, the socket): every
        # other try one request more shifts which Daphne her socket's turn falls on.
        for attempt in range(8):
            servers = socket_servers(site.database, room)
            if len(set(servers.values())) == 2:
                break
            if attempt % 2:  # through the browser (its proxy knows the site's name)
                bea.evaluate("url => fetch(url, {cache: 'no-store'}).then((r) => r.status)",
                             ann.url)
            bea.reload()
            wait_connected(bea)
        servers = socket_servers(site.database, room)
        assert servers.keys() == {"Ann", "Bea"} and servers["Ann"] != servers["Bea"], servers

        # The address is the one nginx saw (the browser, on ::1): not nginx's own (127.0.0.1,
        # the Daphnes' peer), not what the client claimed.
        assert {address for _, address, _ in sockets(site.database, room)} == {"::1"}

        # A game across both servers: each move reaches the other player through Redis.
        start_game(ann)
        for _ in range(2):
            for me, other in ((ann, bea), (bea, ann)):
                roll(me)
                other.wait_for_function("n => window.yahtzeeRoom.seq.last >= n",
                                        arg=last_seq(me))
                assert dice(other) == dice(me)
                expect(me.locator("#scorecard button.option").first).to_be_visible()
                best = max(options(me), key=lambda o: (o.points, -o.index))
                before = last_seq(me)
                me.locator(f'#scorecard button.option[data-box="{best.box}"]').click()
                confirm_if_asked(me)
                wait_seq(other, before + 1)
        assert last_seq(ann) == last_seq(bea) >= 12

        # The admin answers only the addresses the recipe allows; ::1 is not one of them.
        refused = ann.goto(f"{SITE}/admin/")
        assert refused is not None and refused.status == 403
        assert "nginx" in ann.content()
        served = ann.goto(f"{SITE}/static/game/shared/site.css")  # other paths still pass
        assert served is not None and served.status == 200
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()

"""Fixtures of the fault tests: a migrated database made once, a fresh Site per test, and a
started room of two seated players (plus peers to connect to it)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.load.seed import seed_in_subprocess
from tests.support.peers import Peer

from .processes import Site, migrated_template, site_env


@pytest.fixture(scope="session")
def template_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return migrated_template(tmp_path_factory.mktemp("faults") / "template")


@pytest.fixture
def site_settings() -> dict[str, str]:
    """Settings of the test's servers beyond ``site_env``; a test module may override it."""
    return {}


@pytest.fixture
def site(template_dir: Path, tmp_path: Path, site_settings: dict[str, str]) -> Iterator[Site]:
    site = Site.create(template_dir, tmp_path / "site", env=site_settings)
    try:
        yield site
    finally:
        site.stop()


@dataclass
class SeededRoom:
    site: Site
    code: str
    cookies: list[str]  # the Cookie header of each seated player's session, seat order

    def player(self, seat: int, server: int = 0, name: str = "") -> Peer:
        return Peer(self.site.ws_url(self.code, server), self.site.http_url(server),
                    self.cookies[seat], name or f"player{seat}")

    def watcher(self, server: int = 0, name: str = "watcher") -> Peer:
        return Peer(self.site.ws_url(self.code, server), self.site.http_url(server), "", name)


@pytest.fixture
def room(site: Site) -> SeededRoom:
    """A started yahtzee game of two seated guests (made through game.services)."""
    seeded = seed_in_subprocess(site_env(site.data_dir, site.redis_url), 1, 2, "yahtzee")[0]
    return SeededRoom(site, seeded["code"], seeded["player_cookies"])

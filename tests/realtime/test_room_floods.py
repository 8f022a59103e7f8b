"""Changes to a room as a whole (a seed, the seats, the options): read once per window for all
of a server's sockets to the room, and a budget per socket for the commands that make them."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

import game.protocol
import game.selectors
from game import services
from game.models import Seat
from tests.support.sockets import close_all, close_layer, seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TABS, EACH = 6, 2  # the seated person's tabs, and the seeds each sends at once
CHANGES = TABS * EACH
WATCHER_SESSIONS = 6  # people watching, each with two tabs


def stored_seed(room, seat: int = 0) -> str:
    return Seat.objects.get(room=room, index=seat).client_seed


def seat_count(room) -> int:
    return Seat.objects.filter(room=room).count()


async def test_a_seed_flood_is_read_once_per_window_for_all_sockets(
        connect, sessions, settings, layer, monkeypatch):
    settings.WS_RATE_PER_SECOND = settings.WS_RATE_BURST = 10_000
    settings.WS_ROOM_PER_SECOND = settings.WS_ROOM_BURST = 10_000  # only the coalescing here
    # A window far longer than the flood takes, so the count does not depend on speed.
    settings.WS_ROOM_REFRESH_WINDOW = 0.5
    room, people = await seated_room(sessions, ["Ann"])
    watchers_sessions = await sessions(2)
    player = [await connect(room.code, people[0][0], f"ann{i}") for i in range(TABS)]
    watchers = [await connect(room.code, session, f"w{i}")
                for i, (session, _) in enumerate(watchers_sessions * 3)]
    everyone = player + watchers

    reads = []
    real = game.selectors.current_game  # one call per room read, whichever way it is read
    monkeypatch.setattr(game.selectors.rooms, "current_game",
                        lambda r: reads.append(r.code) or real(r))
    seeds = [f"flood-{i}" for i in range(CHANGES)]
    before = {c.name: len([m for m in c.messages if m["type"] == "state"]) for c in everyone}
    for i, seed in enumerate(seeds):
        await player[i % TABS].send({"type": "seed", "seed": seed})
    for tab in player:  # answered in order: each tab's seeds are stored by then
        await tab.send({"type": "nonsense"})
        assert (await tab.until_type("error"))["code"] == "unknown_type"
    final = await database_sync_to_async(stored_seed)(room)
    assert final in seeds

    for c in everyone:
        def on_final(m: dict) -> bool:
            return m["type"] == "state" and m["room"]["seats"][0]["seed"] == final

        seen = [m for m in c.messages if m["type"] == "state"]  # a tab may have it already
        last = seen[-1] if seen and on_final(seen[-1]) else await c.until(
            lambda m: m["type"] == "error" or on_final(m))
        assert last["type"] == "state", (c.name, last)
        states = len([m for m in c.messages if m["type"] == "state"]) - before[c.name]
        # Every socket ends on the last change, sending each shared read once at most.
        assert states <= len(reads), (c.name, states, len(reads))
        # Each socket's own part stays its own.
        assert last["you"] == ({"seat": 0, "host": True} if c in player
                               else {"seat": None, "host": False}), c.name
    # A read per window at most: never one per change and socket.
    assert len(reads) <= CHANGES, len(reads)
    await close_all(*everyone)
    await close_layer()


async def test_room_changes_have_a_budget_per_person(connect, sessions, settings):
    settings.WS_RATE_PER_SECOND = settings.WS_RATE_BURST = 10_000  # only the room budget
    settings.WS_ROOM_BURST, settings.WS_ROOM_PER_SECOND = 2, 0.001
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    other_tab = await connect(room.code, people[0][0], "ann2")
    for i in range(2):
        assert (await ann.request({"type": "seed", "seed": f"ok-{i}"}))["type"] == "state"
    refused = await ann.request({"type": "seed", "seed": "over"})
    assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
    # Past the first refusal a flood buys no reply: the next answer is the next frame's.
    for command in ({"type": "seed", "seed": "dropped"}, {"type": "add_seat"},
                    {"type": "room_options", "turn_time": 60}, {"type": "start"}):
        await ann.send(command)
    assert (await ann.request({"type": "nonsense"}))["code"] == "unknown_type"
    assert await database_sync_to_async(stored_seed)(room) == "ok-1"
    assert await database_sync_to_async(seat_count)(room) == 2
    assert [m for m in ann.messages if m["type"] == "state"][-1]["room"]["seats"][0]["seed"] \
        == "ok-1"
    # The budget is the person's: another tab of theirs has none left (eight tabs must not
    # make eight budgets), while another person in the room has their own.
    await other_tab.until(lambda m: m["type"] == "state"
                          and m["room"]["seats"][0]["seed"] == "ok-1")
    await other_tab.send({"type": "seed", "seed": "tab"})
    assert (await other_tab.request({"type": "nonsense"}))["code"] == "unknown_type"
    assert await database_sync_to_async(stored_seed)(room) == "ok-1"
    bob = await connect(room.code, people[1][0], "bob")
    assert (await bob.request({"type": "seed", "seed": "bob"}))["type"] == "state"
    assert await database_sync_to_async(stored_seed)(room, 1) == "bob"
    for c in (ann, other_tab, bob):
        await c.close()


async def test_changes_within_a_window_are_read_once_for_every_socket(
        connect, sessions, settings, layer, monkeypatch):
    # A window far longer than the changes take: they all fall in the first one.
    settings.WS_ROOM_REFRESH_WINDOW = 3.0
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    player = await connect(room.code, people[0][0], "ann")
    watchers = [await connect(room.code, None, f"w{i}") for i in range(8)]
    reads = []
    real = game.selectors.current_game
    monkeypatch.setattr(game.selectors.rooms, "current_game",
                        lambda r: reads.append(r.code) or real(r))

    def change() -> None:
        for i in range(CHANGES):
            services.set_dice_seed(room.code, people[0][1], f"seed-{i}")
        services.set_room_options(room.code, people[0][1], turn_time=60)

    await database_sync_to_async(change)()
    for c in (player, *watchers):
        last = await c.until_type("state")
        assert last["room"]["seats"][0]["seed"] == f"seed-{CHANGES - 1}", c.name
        assert last["room"]["turn_time"] == 60, c.name
    assert len(reads) <= 2, len(reads)  # 1 unless the changes took longer than the window
    await close_all(player, *watchers)
    await close_layer()


async def test_a_flood_is_built_once_per_view_not_per_watcher(
        connect, sessions, settings, layer, monkeypatch):
    """Watchers see the same room whoever they are: each read's ``state`` is built and
    encoded once for all of them, however many people watch with however many tabs; each
    seated person gets their own ``you``, and every socket ends on the last change."""
    settings.WS_RATE_PER_SECOND = settings.WS_RATE_BURST = 10_000
    settings.WS_ROOM_PER_SECOND = settings.WS_ROOM_BURST = 10_000  # only the coalescing here
    settings.WS_ROOM_REFRESH_WINDOW = 0.5  # far longer than the flood takes
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    watcher_sessions = await sessions(WATCHER_SESSIONS)
    tabs = [await connect(room.code, people[0][0], f"ann{i}") for i in range(3)]
    bob = await connect(room.code, people[1][0], "bob")
    watchers = [await connect(room.code, session, f"w{i}")
                for i, (session, _) in enumerate(watcher_sessions * 2)]
    anonymous = await connect(room.code, None, "anonymous")
    everyone = [*tabs, bob, anonymous, *watchers]

    reads, built, encoded = [], [], []
    real_game, real_state, real_encode = (game.selectors.current_game, game.protocol.state,
                                          game.protocol.encode)
    monkeypatch.setattr(game.selectors.rooms, "current_game",
                        lambda r: reads.append(r.code) or real_game(r))
    monkeypatch.setattr(game.protocol, "state",
                        lambda snapshot: built.append(snapshot.you_seat) or real_state(snapshot))
    monkeypatch.setattr(game.protocol, "encode",
                        lambda frame: encoded.append(frame["type"]) or real_encode(frame))
    before = {c.name: len([m for m in c.messages if m["type"] == "state"]) for c in everyone}
    seeds = [f"flood-{i}" for i in range(CHANGES)]
    for i, seed in enumerate(seeds):
        await tabs[i % len(tabs)].send({"type": "seed", "seed": seed})
    for tab in tabs:  # answered in order: each tab's seeds are stored by then
        await tab.send({"type": "nonsense"})
        assert (await tab.until_type("error"))["code"] == "unknown_type"
    final = await database_sync_to_async(stored_seed)(room)

    last = {}
    for c in everyone:
        seen = [m for m in c.messages if m["type"] == "state"]
        done = seen[-1] if seen and seen[-1]["room"]["seats"][0]["seed"] == final else None
        last[c.name] = done or await c.until(
            lambda m: m["type"] == "state" and m["room"]["seats"][0]["seed"] == final)
        states = len([m for m in c.messages if m["type"] == "state"]) - before[c.name]
        assert 1 <= states <= len(reads), (c.name, states, len(reads))
    for tab in tabs:
        assert last[tab.name]["you"] == {"seat": 0, "host": True}
    assert last["bob"]["you"] == {"seat": 1, "host": False}
    for c in (anonymous, *watchers):
        assert last[c.name] == last["anonymous"], c.name
        assert last[c.name]["you"] == {"seat": None, "host": False}, c.name
    # Three views per read (Ann, Bob, every watcher), each frame encoded once. Built per
    # person, the six watching people and the anonymous one would make seven more a read.
    assert 1 <= len(reads) <= CHANGES, len(reads)
    assert len(built) <= 3 * len(reads), (built, len(reads))
    assert encoded.count("state") == len(built), encoded
    await close_all(*everyone)
    await close_layer()

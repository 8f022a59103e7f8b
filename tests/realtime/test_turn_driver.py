"""Computer players and away players' turns, over websockets, through the same services."""

from __future__ import annotations

import asyncio
import fcntl
import json
import shutil

import pytest
from channels.db import database_sync_to_async

from game import services
from game.models import Game, GameEvent
from game.rules import get_ruleset
from tests.support.sockets import play_move, seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_bots_finish_a_whole_game_with_a_person_and_a_watcher(connect, sessions, settings):
    settings.WS_RATE_PER_SECOND = 10_000
    room, people = await seated_room(sessions, ["Ann"], rules="yatzy", bots=["easy", "easy"])
    ann = await connect(room.code, people[0][0], "ann")
    watcher = await connect(room.code, None, "watcher")
    bots = [s for s in ann.state["room"]["seats"] if s["kind"] == "bot"]
    assert [(s["seat"], s["level"], s["connected"]) for s in bots] == [
        (1, "easy", True), (2, "easy", True)]
    await ann.send({"type": "start"})
    await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    while not ann.game["finished"]:
        if ann.game["current_player"] == 0:
            await play_move(ann, [ann, watcher])
        else:  # a bot's turn: wait for the event that ends it
            await ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] in (
                "turn_started", "game_finished"))
    await watcher.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_finished")
    game = await Game.objects.aget(room=room)
    assert game.status == "finished" and len(game.totals) == 3
    stored = [(e.seq, e.by, e.seat) async for e in GameEvent.objects.filter(game=game)
              .exclude(kind__in=("turn_started", "game_finished", "game_started"))]
    assert {(by, seat) for _, by, seat in stored} == {("human", 0), ("bot", 1), ("bot", 2)}
    assert [m["seq"] for m in watcher.events] == list(range(3, game.seq + 1))
    assert [m["seq"] for m in ann.events] == list(range(3, game.seq + 1))
    await ann.close()
    await watcher.close()


async def test_a_to_win_bot_plays_a_whole_game_in_its_worker_thread(connect, sessions, settings,
                                                                    monkeypatch, yahtzee_table):
    """The host gives the computer's seat to the to-win bot; it plays every one of its turns
    to the end, each decision in a worker thread, from the standings' estimates (the tests
    build no score table)."""
    from game.ai.storage import loaded_score_table
    from game.realtime import turn_driver

    assert loaded_score_table("yahtzee") is None
    settings.WS_RATE_PER_SECOND = 10_000
    decided, on_loop = [], []
    plain = turn_driver.decide

    def decide(game, level):
        decided.append(level)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            on_loop.append(level)
        return plain(game, level)

    monkeypatch.setattr(turn_driver, "decide", decide)
    room, people = await seated_room(sessions, ["Ann"], rules="yahtzee", bots=["easy"])
    ann = await connect(room.code, people[0][0], "ann")
    reply = await ann.request({"type": "seat_bot", "seat": 1, "level": "to_win", "id": "w"})
    while [(s["name"], s["level"]) for s in reply["room"]["seats"] if s["seat"] == 1] != [
            ("Bot 1 (to win)", "to_win")]:
        reply = await ann.until_type("state")
    await ann.send({"type": "start"})
    await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    while not ann.game["finished"]:
        if ann.game["current_player"] == 0:
            await play_move(ann, [ann])
        else:
            await ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] in (
                "turn_started", "game_finished"))
    game = await Game.objects.aget(room=room)
    assert game.status == "finished" and game.players == ["Ann", "Bot 1 (to win)"]
    bot_moves = [e async for e in GameEvent.objects.filter(game=game, seat=1, by="bot")
                 .values_list("kind", flat=True)]
    assert bot_moves.count("scored") == 13
    assert decided and set(decided) == {"to_win"} and on_loop == []
    await ann.close()


async def test_a_room_of_bots_plays_itself_while_people_watch(connect, sessions):
    [(host_session, host_guest)] = await sessions(1)
    room = await database_sync_to_async(services.create_room)(
        name="Bots", rules="triple", host_key=host_guest,
        seats=[services.SeatSpec("easy"), services.SeatSpec("medium")])
    host = await connect(room.code, host_session, "host")  # the host watches, unseated
    assert host.state["you"] == {"seat": None, "host": True}
    other = await connect(room.code, None, "other")
    await other.send({"type": "start"})
    assert (await other.until_type("error"))["code"] == "not_host"
    await host.send({"type": "start"})
    for c in (host, other):
        await c.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_finished")
    game = await Game.objects.aget(room=room)
    assert game.status == "finished" and game.players == ["Bot 1 (easy)", "Bot 2 (medium)"]
    for c in (host, other):
        assert [m["seq"] for m in c.events] == list(range(3, game.seq + 1))
        assert {m["by"] for m in c.events} == {"bot"}
    await host.close()
    await other.close()


async def test_an_away_players_turns_are_autoplayed_until_they_return(connect, sessions,
                                                                      settings):
    settings.WS_RATE_PER_SECOND = 10_000
    settings.AWAY_GRACE = 0.2
    room, people = await seated_room(sessions, ["Ann", "Bob"], rules="yahtzee")
    ann = await connect(room.code, people[0][0], "ann")
    ann.timeout = 180  # the first autoplay may build the optimal strategy table (~20 s)
    await ann.send({"type": "start"})
    await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    while ann.game["current_player"] == 0:
        await play_move(ann, [ann])
    # Bob never came: after the grace period his turn is played for him.
    end = await ann.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "turn_started")
    assert end["event"]["player"] == 0
    bob_events = [m for m in ann.events if m["event"].get("player") == 1
                  and m["event"]["kind"] in ("rolled", "scored")]
    assert bob_events and {m["by"] for m in bob_events} == {"autoplay"}
    # Bob comes back: his seat is his, and his next turn waits for him.
    bob = await connect(room.code, people[1][0], "bob")
    assert bob.state["you"]["seat"] == 1
    while ann.game["current_player"] == 0:
        await play_move(ann, [ann, bob])
    reply = await bob.request({"type": "roll", "hold": [], "id": "bob-1"})
    assert reply["type"] == "event" and reply["by"] == "human"
    settings.AWAY_GRACE = 3600  # no autoplay once the sockets close at the end of the test
    await ann.close()
    await bob.close()


async def drivers_stopped(room_code: str, timeout: float = 30) -> None:
    """Wait until no task of this process drives the room (each task is named after it): a
    driver that plays on with nobody here never stops before the game is over."""
    while tasks := [t for t in asyncio.all_tasks() if t.get_name() == f"bots:{room_code}"]:
        await asyncio.wait_for(asyncio.shield(tasks[0]), timeout)


async def test_a_room_everyone_left_pauses_and_goes_on_when_someone_comes(connect, sessions,
                                                                          settings):
    [(host_session, host_guest)] = await sessions(1)
    room = await database_sync_to_async(services.create_room)(
        name="Bots", rules="yahtzee", host_key=host_guest,
        seats=[services.SeatSpec("easy"), services.SeatSpec("easy")])
    host = await connect(room.code, host_session, "host")
    settings.BOT_DELAY = 0.05  # slow enough that the watcher can leave mid-game
    await host.send({"type": "start"})
    await host.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "scored")
    await host.close()
    await drivers_stopped(room.code)  # a move already decided may still land before it stops
    game = await Game.objects.aget(room=room)
    paused_at = game.seq
    assert game.status == "playing"  # nobody here: the bots stopped mid-game
    watcher = await connect(room.code, None, "watcher")  # someone comes: the bots go on
    await watcher.until(lambda m: m["type"] == "event" and m["seq"] > paused_at)
    settings.BOT_DELAY = 0
    await watcher.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "game_finished")
    await watcher.close()


@pytest.fixture
def fresh_strategy_dir(tmp_path, strategy_dir, yahtzee_table):
    """An empty strategy directory, and where the session's yahtzee table is built. Points
    game.ai back at the session's directory afterwards (not at the settings' default: later
    tests would find no table there on a fresh clone)."""
    from game.ai import set_strategy_dir, table_path
    from game.ai.storage import forget_loaded

    built = table_path(get_ruleset("yahtzee"))
    set_strategy_dir(tmp_path)
    forget_loaded()
    yield tmp_path, built
    set_strategy_dir(strategy_dir)
    forget_loaded()


async def test_an_optimal_bot_waiting_for_its_table_tells_the_room_how_far_it_is(
        connect, sessions, fresh_strategy_dir):
    """Another process (here: the test) builds the table; the bot's room hears its progress
    every second, and the bot moves once the table is there."""
    from game.ai import table_path

    empty, built = fresh_strategy_dir
    target = table_path(get_ruleset("yahtzee"))
    [(session, guest)] = await sessions(1)

    def _make():
        room = services.create_room(name="Fresh", rules="yahtzee", host_key=guest,
                                    seats=[services.SeatSpec("optimal"), services.SeatSpec()])
        services.take_seat(room.code, guest, "Ann", 1)
        return room

    room = await database_sync_to_async(_make)()
    with open(target.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a builder at work
        target.with_suffix(".progress").write_text(json.dumps({"done": 42, "total": 100}))
        ann = await connect(room.code, session, "ann")
        await ann.send({"type": "start"})
        first = await ann.until_type("preparing")
        assert first == {"type": "preparing", "seat": 0, "name": "Bot 1 (optimal)",
                         "rules": "yahtzee", "percent": 42.0}
        target.with_suffix(".progress").write_text(json.dumps({"done": 73, "total": 100}))
        later = await ann.until(lambda m: m["type"] == "preparing" and m["percent"] != 42.0)
        assert later["percent"] == 73.0
        # Its first roll needs no table; what to keep does, and waits.
        kinds = [k async for k in GameEvent.objects.filter(game__room=room)
                 .order_by("seq").values_list("kind", flat=True)]
        assert kinds[-1] == "rolled" and kinds.count("rolled") == 1
        shutil.copy(built, target)  # the build ends: the table appears, the lock goes
        target.with_suffix(".progress").unlink()
    done = await ann.until(lambda m: m["type"] == "preparing" and m["percent"] == 100.0)
    assert done["seat"] == 0
    moved = await ann.until(lambda m: m["type"] == "event" and (
        m["event"]["kind"] == "scored" or m["event"].get("roll", 1) > 1))
    assert moved["by"] == "bot" and moved["event"]["player"] == 0
    await ann.close()

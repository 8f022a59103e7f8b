"""Live standings: after every turn, each player's expected final score ± sd and chance to win
go to watchers always, and to players only in rooms with a computer player."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from game.ai import CardState, advisor
from game.models import Game, Room
from game.store import rules_cache
from tests.support.sockets import close_layer, seated_room

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("yahtzee_table")]


def expected_now(room) -> list[tuple[float, float]]:
    """What the advisor says of each card as stored now (expected final, sd)."""
    game = rules_cache.rebuild(Game.objects.get(room=room))
    adv = advisor(game.ruleset)
    return [(round(e.expected, 1), round(e.sd, 1))
            for e in (adv.estimate(CardState.of(c)) for c in game.scorecards)]


async def one_turn(player, others) -> int:
    await player.request({"type": "roll", "hold": [], "id": f"r{id(player)}"})
    allowed = [o for o in player.game["options"] if o["allowed"]]
    scored = await player.request({"type": "score", "box": allowed[0]["box"], "id": "s"})
    turn = await player.until(lambda m: m["type"] == "event"
                              and m["event"]["kind"] == "turn_started")
    for c in others:
        await c.until_seq(turn["seq"])
    return scored["seq"]


async def started(connect, room, people):
    """Ann and Bob (seated) and a watcher connected, and the game started: their clients."""
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    watcher = await connect(room.code, None, "watcher")
    await ann.send({"type": "start"})
    for c in (ann, bob, watcher):
        await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
    return ann, bob, watcher


async def test_watchers_get_standings_after_each_turn_and_players_do_not(connect, sessions,
                                                                         layer):
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann, bob, watcher = await started(connect, room, people)
    await one_turn(ann, (bob, watcher))
    msg = await watcher.until_type("standings")
    game = await Game.objects.aget(room=room)
    assert msg["game"] == game.pk and msg["seq"] == game.seq
    players = msg["players"]
    assert len(players) == 2 and sum(p["chance"] for p in players) == pytest.approx(1, abs=2e-4)
    assert [(p["expected"], p["sd"]) for p in players] == \
        await database_sync_to_async(expected_now)(room)
    # The final score's 10th, 50th and 90th percentiles, around the expected score (the
    # distribution is skewed: the median need not be the mean).
    for p in players:
        low, median, high = p["percentiles"]
        assert low < median < high and low < p["expected"] < high
        assert p["exact"] is False  # 12 boxes open: estimated (exact from 5 open)
    # Ann banked points and Bob has not played: their chances differ, sensibly bounded.
    assert 0 < players[0]["chance"] < 1 and players[0]["chance"] != players[1]["chance"]
    # The players of a room of people only never see it (it went to the whole group at
    # once: a sync answered after it proves it did not come).
    for c in (ann, bob):
        await c.request({"type": "sync"})
        assert not [m for m in c.messages if m["type"] == "standings"], c.name
    # A watcher arriving mid-game gets the standings right after the state.
    late = await connect(room.code, None, "late watcher")
    again = await late.until(lambda m: m["type"] in ("standings",))
    assert again["players"] == players
    for c in (ann, bob, watcher, late):
        await c.close()
    await close_layer()


async def test_with_a_computer_player_the_players_see_standings_too(connect, sessions):
    room, people = await seated_room(sessions, ["Ann"], bots=["easy"])
    ann = await connect(room.code, people[0][0], "ann")
    await ann.send({"type": "start"})
    await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await one_turn(ann, ())
    msg = await ann.until_type("standings")
    assert len(msg["players"]) == 2
    await ann.close()
    await close_layer()



@pytest.mark.parametrize(("chances", "bots", "players_see"), [
    ("on", [], True), ("off", ["easy"], False), ("auto", ["easy"], True)])
async def test_the_room_option_decides_what_players_see(connect, sessions, chances, bots,
                                                        players_see):
    room, people = await seated_room(sessions, ["Ann"], bots=bots)
    await Room.objects.filter(pk=room.pk).aupdate(chances=chances)
    ann = await connect(room.code, people[0][0], "ann")
    watcher = await connect(room.code, None, "watcher")
    await ann.send({"type": "start"})
    state = await ann.until(lambda m: m["type"] == "state" and m["game"] is not None)
    assert state["room"]["chances_for_players"] is players_see
    await watcher.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await one_turn(ann, (watcher,))
    await watcher.until_type("standings")  # watchers always
    await ann.request({"type": "sync"})
    assert bool([m for m in ann.messages if m["type"] == "standings"]) is players_see
    for c in (ann, watcher):
        await c.close()
    await close_layer()


async def test_turns_ending_while_standings_are_published_fold_into_one_more(connect, sessions,
                                                                            layer):
    """A game's standings that must be computed are published once at a time: turn ends
    reported before a publication starts are in it; those reported while it runs give one
    more publication, of the latest cards, not one each; a turn end already published gives
    none."""
    from game import services
    from game.realtime import insight_publisher as insight
    from game.selectors.standings import clear

    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    watcher = await connect(room.code, None, "watcher")
    await ann.send({"type": "start"})
    for c in (ann, watcher):
        await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
    await one_turn(ann, (watcher,))
    first = await watcher.until_type("standings")
    game = await Game.objects.aget(room=room)

    def turn_end(seq: int) -> services.PlayResult:
        """The game's turn end as a command reports it, as if at ``seq``."""
        return services.PlayResult(events=[{"kind": "turn_started"}], first_seq=seq,
                                   game_id=game.pk, state=game.snapshot)

    async def standings_sent_by(report, last: int) -> list[dict]:
        """The frames a report gave, the last of them as of ``last`` (one publisher sends
        them in order: those before it have arrived with it)."""
        while game.pk in insight._latest:  # a task ends just after its frame
            await asyncio.sleep(0.01)
        clear()  # nothing kept: the first report starts a computation (else: at once)
        before = len([m for m in watcher.messages if m["type"] == "standings"])
        await report()
        await watcher.until(lambda m: m["type"] == "standings" and m["seq"] == last)
        while game.pk in insight._latest:
            await asyncio.sleep(0.01)
        await watcher.request({"type": "sync"})
        return [m for m in watcher.messages if m["type"] == "standings"][before:]

    async def three_at_once():
        for seq in (game.seq, game.seq + 1, game.seq):
            insight.after_events(room.code, turn_end(seq))

    async def one_then_two_while_it_runs():
        insight.after_events(room.code, turn_end(game.seq))
        await asyncio.sleep(0)  # the task starts: its frame is on the way to the group
        insight.after_events(room.code, turn_end(game.seq + 1))
        insight.after_events(room.code, turn_end(game.seq + 2))

    async def the_same_while_it_runs():
        insight.after_events(room.code, turn_end(game.seq))
        await asyncio.sleep(0)
        insight.after_events(room.code, turn_end(game.seq))

    once = await standings_sent_by(three_at_once, game.seq + 1)
    assert [m["seq"] for m in once] == [game.seq + 1]
    sent = await standings_sent_by(one_then_two_while_it_runs, game.seq + 2)
    assert [m["seq"] for m in sent] == [game.seq, game.seq + 2]
    assert all(m["players"] == first["players"] for m in once + sent)
    assert len(await standings_sent_by(the_same_while_it_runs, game.seq)) == 1
    for c in (ann, watcher):
        await c.close()
    await close_layer()


async def scratch_in_chance(player, others) -> int:
    """The player to move rolls and scores Chance (re-rolling a Yahtzee, which the forced
    Joker would send to its own box): whatever the dice, their card's state after it is the
    same (only Chance filled, nothing in the upper section). Returns the turn's last seq."""
    for attempt in range(3):
        rolled = await player.request({"type": "roll", "hold": [], "id": f"r{attempt}"})
        if len(set(rolled["event"]["dice"])) > 1:
            break
    await player.request({"type": "score", "box": "chance", "id": "s"})
    turn = await player.until(lambda m: m["type"] == "event"
                              and m["event"]["kind"] == "turn_started")
    for c in others:
        await c.until_seq(turn["seq"])
    return turn["seq"]


async def test_standings_published_on_their_own_follow_the_turns_events(connect, sessions,
                                                                         layer, monkeypatch):
    """However long the layer takes with a turn's events, the standings computed meanwhile on
    the insight thread reach every socket after them, as the protocol says: the mover's
    events go straight to its socket, the group's copy may still be on its way."""
    from game import services
    from game.realtime import insight_publisher
    from game.selectors.standings import clear, standings_after

    slow = asyncio.Event()  # set: the layer holds a command's events until `through` is set
    through = asyncio.Event()
    send_events, send_standings, computed = (services.asend_events, services.asend_standings,
                                            insight_publisher._computed)
    events_gone: list[bool] = []  # per standings frame published: had the events gone?
    done = asyncio.Event()

    async def slow_events(room_code, message):
        if slow.is_set():
            await through.wait()
        return await send_events(room_code, message)

    async def standings(room_code, found):
        events_gone.append(through.is_set())
        await send_standings(room_code, found)

    async def computing(what, arg, game_id):
        try:
            return await computed(what, arg, game_id)
        finally:
            if what is standings_after:  # a turn's (a joining socket's are sent directly)
                done.set()

    monkeypatch.setattr(services, "asend_events", slow_events)
    monkeypatch.setattr(services, "asend_standings", standings)
    monkeypatch.setattr(insight_publisher, "_computed", computing)
    clear()  # nothing kept: Ann's new card's standings are computed, then published
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    await Room.objects.filter(pk=room.pk).aupdate(chances="on")  # the players see them too
    ann, bob, watcher = await started(connect, room, people)
    rolled = await ann.request({"type": "roll", "hold": [], "id": "r"})
    box = next(o["box"] for o in ann.game["options"] if o["allowed"])
    for c in (bob, watcher):
        await c.until_seq(rolled["seq"])
    slow.set()
    await ann.send({"type": "score", "box": box, "id": "s"})
    turn = await ann.until(lambda m: m["type"] == "event"
                           and m["event"]["kind"] == "turn_started")  # straight to Ann
    await asyncio.wait_for(done.wait(), 10)  # computed; published at once unless it waits
    through.set()
    for c in (ann, bob, watcher):
        msg = await c.until_type("standings")
        assert msg["seq"] == turn["seq"], c.name
        heard = [m.get("seq") for m in c.messages if m["type"] in ("event", "state")]
        assert max(heard) == turn["seq"], (c.name, heard)  # the turn came first
    assert events_gone == [True]
    for c in (ann, bob, watcher):
        await c.close()
    await close_layer()


async def test_standings_known_at_once_ride_in_the_events_group_message(
        connect, sessions, layer, monkeypatch):
    """Where the process keeps every card's distribution, a turn's standings travel in its
    events' group message: nothing is published on its own, and every socket that sees them
    gets the standings right after the turn's events — the mover's socket too, which had
    those events straight from its command."""
    from game import services
    from game.selectors.standings import clear

    published: list[int] = []
    publish = services.asend_standings

    async def counted(room_code, found):
        published.append(found.seq)
        await publish(room_code, found)

    monkeypatch.setattr(services, "asend_standings", counted)
    clear()  # this process keeps no distribution yet
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    await Room.objects.filter(pk=room.pk).aupdate(chances="on")  # the players see them too
    ann, bob, watcher = await started(connect, room, people)

    # Ann's turn: her new card's distribution must be computed, so they come on their own.
    first = await scratch_in_chance(ann, (bob, watcher))
    for c in (ann, bob, watcher):
        assert (await c.until_type("standings"))["seq"] == first
    assert published == [first]

    # Bob's card comes to the state Ann's is in: every distribution is kept now.
    second = await scratch_in_chance(bob, (ann, watcher))
    for c in (ann, bob, watcher):
        msg = await c.until_type("standings")
        assert msg["seq"] == second, c.name
        before = c.messages[-2]  # the turn's last event, then at once its standings
        assert before["type"] == "event" and before["seq"] == second, c.name
    assert published == [first]  # nothing more published on its own
    # Both cards stand alike, Ann's with her Chance points and Bob's with his.
    players = msg["players"]
    assert players[0]["sd"] == players[1]["sd"]
    for c in (ann, bob, watcher):
        await c.close()
    await close_layer()

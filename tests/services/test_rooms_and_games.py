"""The services: rooms, seats, start, commands stored as events, idempotency, locking."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection

from game import protocol, selectors, services
from game.models import Game, GameEvent, Room, Seat
from game.protocol.client import event_messages, state_after
from game.rules import NotYourTurn, Roll, RulesError, Score
from game.selectors import standings
from game.selectors.advice import advice_for
from game.services import ServiceError
from game.store import rules_cache
from tests.support.rooms import as_action, next_move, play_to_end, room_with_players

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rules", ["yahtzee", "yatzy", "triple"])
def test_a_whole_game_is_stored_as_events_and_the_snapshot_is_their_fold(rules):
    room, guests = room_with_players(["Ann", "Bob"], rules=rules)
    game = play_to_end(room, guests)
    seqs = list(game.events.values_list("seq", flat=True))
    assert seqs == list(range(1, game.seq + 1))
    rebuilt = rules_cache.rebuild(game)
    assert rebuilt.is_over
    assert rebuilt.to_dict() == game.snapshot
    assert game.totals == [c.total for c in rebuilt.scorecards]
    assert game.winners == list(rebuilt.winners)
    assert game.finished is not None
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert game.events.last().kind == "game_finished"
    assert set(game.events.exclude(seq__lte=2).values_list("by", flat=True)) == {"human"}



def standings_message(game_id: int) -> dict | None:
    """The ``standings`` frame of a game now, as a socket gets it."""
    found = standings.standings_of(game_id)
    return protocol.standings(found) if found else None


def advice_message(game_id: int) -> dict | None:
    found = advice_for(game_id)
    return protocol.advice(found) if found else None


@pytest.mark.parametrize("rules", ["yahtzee", "triple"])
def test_each_command_is_one_events_frame_whose_changes_rebuild_the_stored_state(rules):
    room, guests = room_with_players(["Ann", "Bob", "Cy"], rules=rules)
    game = Game.objects.get(room=room)
    held = selectors.game_state(game)  # what a socket got in its ``state``
    while game.status == Game.Status.PLAYING:
        player = game.snapshot["current_player"]
        result = services.play(room.code, as_action(next_move(game.snapshot)),
                               guest_key=guests[player])
        [text] = services.events_message(result)["texts"]
        frame = json.loads(text)
        assert frame["type"] == "events" and frame["game"] == game.pk
        assert event_messages(frame) == [
            {"type": "event", "seq": result.first_seq + i, "event": event, "by": result.by,
             "game": result.game_id} for i, event in enumerate(result.events)]
        held = state_after(held, frame)
        game.refresh_from_db()
        assert held == selectors.game_state(game) == result.state
    assert held["finished"]


def test_stored_events_cannot_be_changed():
    room, _ = room_with_players(["Ann"])
    event = GameEvent.objects.filter(game__room=room).first()
    event.payload = {"rules": "yatzy", "players": ["Eve"]}
    with pytest.raises(ValueError, match="append-only"):
        event.save()


def test_seeded_dice_are_reproducible_and_differ_between_games():
    a = services.dice_rng(1, 5)
    b = services.dice_rng(1, 5)
    c = services.dice_rng(2, 5)
    rolls = [[r.randint(1, 6) for _ in range(20)] for r in (a, b, c)]
    assert rolls[0] == rolls[1]
    assert rolls[0] != rolls[2]


def test_start_compacts_free_seats_so_seat_equals_player():
    specs = [services.SeatSpec(), services.SeatSpec(), services.SeatSpec("easy")]
    room = services.create_room(name="R", rules="yatzy", seats=specs, host_key="h")
    services.take_seat(room.code, "g1", "Bob", 1)
    game = services.start_game(room.code, "h")
    assert game.players == ["Bob", "Bot 1 (easy)"]
    seats = list(Seat.objects.filter(room=room).values_list("index", "nickname", "guest_key"))
    assert seats == [(0, "Bob", "g1"), (1, "Bot 1 (easy)", "")]
    room.refresh_from_db()
    assert (room.seats_count, room.status) == (2, "playing")
    assert list(game.events.values_list("kind", flat=True)) == ["game_started", "turn_started"]


def test_start_refusals_change_nothing():
    room, guests = room_with_players(["Ann"], start=False)
    with pytest.raises(ServiceError) as err:
        services.start_game(room.code, "someone-else")
    assert err.value.code == "not_host"
    empty = services.create_room(name="E", rules="yahtzee", seats=[services.SeatSpec()],
                                 host_key="h")
    with pytest.raises(ServiceError) as err:
        services.start_game(empty.code, "h")
    assert err.value.code == "no_players"
    services.start_game(room.code, guests[0])
    with pytest.raises(ServiceError) as err:
        services.start_game(room.code, guests[0])
    assert err.value.code == "game_running"
    assert Game.objects.filter(room=room).count() == 1
    with pytest.raises(ServiceError) as err:
        services.start_game("nope", guests[0])
    assert err.value.code == "no_room"


def test_seats_taking_rules():
    room, guests = room_with_players(["Ann"], start=False)
    Seat.objects.create(room=room, index=1)
    refused = [
        (("Zed", 0), "seat_taken"),
        ((" ann ", 1), "name_taken"),
        (("x" * 25, 1), "bad_nickname"),
        (("   ", 1), "bad_nickname"),
        (("Zed", 7), "no_seat"),
    ]
    for (nickname, index), code in refused:
        with pytest.raises(ServiceError) as err:
            services.take_seat(room.code, "g2", nickname, index)
        assert err.value.code == code, (nickname, index)
    seat = services.take_seat(room.code, "g2", "  Zed   the  Cat ", 1)
    assert (seat.index, seat.nickname) == (1, "Zed the Cat")
    # The same guest asking again keeps their seat (reload, second tab).
    assert services.take_seat(room.code, "g2", "Other", 0).index == 1


def test_rematch_keeps_the_seats_and_starts_a_new_game():
    room, guests = room_with_players(["Ann"], rules="yatzy")
    first = play_to_end(room, guests)
    with pytest.raises(RulesError) as err:
        services.play(room.code, Roll(), guest_key=guests[0])
    assert err.value.code == "game_over"
    second = services.start_game(room.code, guests[0])
    assert second.pk != first.pk and second.players == first.players
    assert second.seq == 2
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    result = services.play(room.code, Roll(), guest_key=guests[0])
    assert result.game_id == second.pk


def test_bad_commands_raise_their_code_and_store_nothing():
    room, guests = room_with_players(["Ann", "Bob"])
    game = Game.objects.get(room=room)
    cases = [
        (Roll(), {"guest_key": guests[1]}, "not_your_turn"),
        (Roll(), {"guest_key": "stranger"}, "watcher"),
        (Roll(), {"guest_key": None}, "watcher"),
        (Score("chance"), {"guest_key": guests[0]}, "not_rolled"),
        (Roll((0,)), {"guest_key": guests[0]}, "hold_before_roll"),
    ]
    for action, who, code in cases:
        with pytest.raises((ServiceError, RulesError)) as err:
            services.play(room.code, action, **who)
        assert err.value.code == code
    services.play(room.code, Roll(), guest_key=guests[0])
    more = [
        (Roll((7,)), "invalid_die_position"),
        (Roll((1, 1)), "invalid_die_position"),
        (Score("nonsense"), "unknown_box"),
        (Score("chance", 2), "invalid_column"),
    ]
    for action, code in more:
        with pytest.raises(RulesError) as err:
            services.play(room.code, action, guest_key=guests[0])
        assert err.value.code == code
    game.refresh_from_db()
    assert game.seq == 3 and game.events.count() == 3


def test_no_game_yet():
    room, guests = room_with_players(["Ann"], start=False)
    with pytest.raises(ServiceError) as err:
        services.play(room.code, Roll(), guest_key=guests[0])
    assert err.value.code == "no_game"


def test_a_repeated_command_id_applies_once():
    room, guests = room_with_players(["Ann", "Bob"])
    first = services.play(room.code, Roll(), guest_key=guests[0], command_id="c1")
    again = services.play(room.code, Roll(), guest_key=guests[0], command_id="c1")
    assert len(first.events) == 1 and not first.duplicate
    assert again.duplicate and again.events == []
    game = Game.objects.get(room=room)
    assert game.seq == 3
    assert GameEvent.objects.filter(game=game, command_id="c1").count() == 1
    # Another id is another command.
    services.play(room.code, Roll(), guest_key=guests[0], command_id="c2")
    game.refresh_from_db()
    assert game.seq == 4


def test_expected_seq_refuses_a_stale_command():
    room, guests = room_with_players(["Ann"])
    with pytest.raises(ServiceError) as err:
        services.play(room.code, Roll(), seat_index=0, by="bot", expected_seq=1)
    assert err.value.code == "stale"
    services.play(room.code, Roll(), seat_index=0, by="bot", expected_seq=2)
    assert Game.objects.get(room=room).events.last().by == "bot"


def play_moves(room: Room, guests: list[str], moves: int) -> None:
    for _ in range(moves):
        game = Game.objects.get(room=room)
        move = next_move(game.snapshot)
        services.play(room.code, as_action(move), guest_key=guests[game.snapshot["current_player"]])


def test_after_a_restart_the_game_continues_from_stored_events():
    room, guests = room_with_players(["Ann", "Bob"])
    play_moves(room, guests, 4)
    rules_cache.clear()  # what a new process starts with
    game = Game.objects.get(room=room)
    before = game.snapshot
    assert rules_cache.rebuild(game).to_dict() == before
    play_to_end(room, guests)


def test_a_kept_game_another_server_moved_on_catches_up_from_the_events_it_missed(
        django_assert_num_queries):
    room, guests = room_with_players(["Ann", "Bob"])
    play_moves(room, guests, 3)
    behind = Game.objects.get(room=room)
    kept = rules_cache.rebuild(behind)  # what this process kept at that seq
    play_moves(room, guests, 4)  # served by another process
    rules_cache.clear()
    rules_cache.keep(behind.pk, behind.seq, kept)
    game_row = Game.objects.get(room=room)
    assert game_row.seq > behind.seq
    with django_assert_num_queries(1):  # only the missed events
        game = rules_cache.take(game_row)
    assert game is kept  # caught up, not rebuilt
    assert game.to_dict() == game_row.snapshot == rules_cache.rebuild(game_row).to_dict()
    play_to_end(room, guests)


@pytest.mark.usefixtures("yahtzee_table")
def test_standings_and_advice_read_only_the_events_since_their_last_look(
        django_assert_num_queries):
    room, guests = room_with_players(["Ann", "Bob"])
    play_moves(room, guests, 3)
    game_id = Game.objects.get(room=room).pk
    rules_cache.clear()
    first = standings_message(game_id)  # folds the game once
    assert first is not None
    kept = rules_cache.readers.take(game_id, first["seq"])
    rules_cache.readers.keep(game_id, first["seq"], kept)
    play_moves(room, guests, 2)  # Bob scores, Ann rolls
    row = Game.objects.get(room=room)
    with django_assert_num_queries(2):  # the row's seq, then only the events since
        later = standings_message(game_id)
    with django_assert_num_queries(1):  # the coach reads the same fold: nothing new to read
        advice = advice_message(game_id)
    assert later is not None and advice is not None
    caught_up = rules_cache.readers.take(game_id, row.seq)
    assert caught_up is kept  # caught up, not folded afresh
    rules_cache.readers.keep(game_id, row.seq, caught_up)
    assert later["seq"] == advice["seq"] == row.seq > first["seq"]
    # As if computed afresh by a new process.
    rules_cache.clear()
    standings.clear()
    assert standings_message(game_id) == later
    assert advice_message(game_id) == advice
    assert rules_cache.readers.take(game_id, row.seq).to_dict() == row.snapshot


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_score_commands_apply_exactly_once():
    room, guests = room_with_players(["Ann", "Bob"])
    services.play(room.code, Roll(), guest_key=guests[0])
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def score(box: str) -> None:
        try:
            barrier.wait()
            outcomes.append(services.play(room.code, Score(box), guest_key=guests[0]))
        except Exception as exc:  # noqa: BLE001 - recorded and asserted below
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=score, args=(b,)) for b in ("chance", "ones")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    applied = [o for o in outcomes if isinstance(o, services.PlayResult)]
    refused = [o for o in outcomes if isinstance(o, NotYourTurn)]
    assert len(applied) == 1 and len(refused) == 1, outcomes
    game = Game.objects.get(room=room)
    assert game.events.filter(kind="scored").count() == 1
    assert game.snapshot["current_player"] == 1


@pytest.mark.django_db(transaction=True)
def test_on_sqlite_a_command_queues_behind_this_process_s_other_commands():
    """Not on SQLite's busy handler, whose sleeps oversleep the holder (games.py): a command
    waits on the process's own lock, and goes as soon as it is free."""
    from game.services import games

    assert connection.vendor == "sqlite"  # the embedded default, which the tests run on
    room, guests = room_with_players(["Ann", "Bob"])
    game = Game.objects.get(room=room)
    outcome: list[object] = []

    def roll() -> None:
        try:
            outcome.append(services.play(room.code, Roll(), guest_key=guests[0]))
        finally:
            connection.close()

    with games._SQLITE_COMMANDS:  # another command of this process holds it
        waiting = threading.Thread(target=roll)
        waiting.start()
        waiting.join(0.3)
        assert waiting.is_alive() and not outcome
        assert not game.events.filter(kind="rolled").exists()
    waiting.join(5)
    assert not waiting.is_alive()
    assert isinstance(outcome[0], services.PlayResult)
    assert game.events.filter(kind="rolled").count() == 1

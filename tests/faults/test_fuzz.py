"""Random and malformed frames over real websockets to a room in the middle of a game.

Every fuzzed frame is answered with an ``error`` (a ``state`` for a well-formed ``sync``), and a
flood is dropped by the rate limit; nothing is stored, the sockets stay open, the players play
on.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from tests.support.peer_moves import play, seated_and_playing
from tests.support.peers import Message, Peer

from .conftest import SeededRoom

pytestmark = pytest.mark.timeout(180)

MAX_FRAME = 4096  # docs/protocol.md: too_large above this
ERROR_CODES = {
    "bad_json", "bad_message", "unknown_type", "too_large", "watcher", "not_host", "no_game",
    "game_running", "no_players", "not_your_turn", "game_over", "no_rolls_left", "not_rolled",
    "hold_before_roll", "invalid_die_position", "unknown_box", "invalid_column", "box_filled",
    "joker_forbids", "no_seat", "not_seated", "player_here", "bad_level", "bad_option",
    "last_seat", "room_full", "bad_seed", "not_away",
}

huge_ints = st.sampled_from([2**31, 2**63, -(2**63), 10**100, -1, 5, 6, 10**4000 // 10**3990])
scalars = (st.none() | st.booleans() | st.integers() | huge_ints | st.floats()
           | st.text(max_size=40))
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.text(max_size=10), inner, max_size=6), max_leaves=25)
types = (st.sampled_from(["roll", "score", "sync", "start", "rematch", "hold", "add_seat",
                         "leave_seat", "seat_bot", "remove_seat", "room_options", "seed",
                         "play_for_away"])
         | st.text(max_size=20) | json_values)
command_like = st.fixed_dictionaries(
    {"type": types},
    optional={"hold": json_values | st.lists(huge_ints | st.integers(), max_size=7),
              "held": json_values | st.lists(st.integers(-1, 6), max_size=7),
              "box": json_values | st.sampled_from(["chance", "yahtzee", "ones", "<script>"]),
              "column": json_values | huge_ints, "id": json_values | st.text(max_size=80),
              "seat": json_values | huge_ints, "level": json_values | st.sampled_from(
                  ["easy", "optimal", "<script>"]),
              "turn_time": json_values | huge_ints | st.sampled_from([0, 60, 90, 300]),
              # A seed change is refused while the game runs (game_running), or bad_seed.
              "seed": json_values | st.text(max_size=80) | st.sampled_from(["lucky", ""])})
# Text JSON can carry but no database stores: lone UTF-16 surrogates and NULs (as escapes).
unstorable_text = st.sampled_from(["\\ud800", "\\udfff-x", "a\\u0000b", "\\ud83d\\ud83d"])
unstorable = st.tuples(st.sampled_from(["id", "box", "type", "pad"]), unstorable_text).map(
    lambda kv: '{"type": "roll", "hold": [], "box": "chance", "' + '": "'.join(kv) + '"}')
frames = st.one_of(
    st.text(max_size=200),                                   # mostly not JSON
    unstorable,
    json_values.map(json.dumps),                             # JSON, mostly not an object
    command_like.map(lambda m: json.dumps(m, allow_nan=True)),
    st.integers(1, 2000).map(lambda n: "[" * n + "]" * n),  # nested too deep (or not)
    st.integers(MAX_FRAME + 1, 200_000).map(lambda n: json.dumps({"type": "sync",
                                                                 "pad": "x" * n})),
    st.binary(max_size=64),                                  # binary frames
)


@pytest.fixture
def site_settings() -> dict[str, str]:
    """The fuzzer expects an answer to every frame it sends under the frame limit; the ``sync``
    and room-change budgets answer a flood once and then drop it, and have their own tests
    (tests/faults/test_limits.py)."""
    return {"WS_SYNC_BURST": "10000", "WS_ROOM_BURST": "10000"}


#: The fuzzer's server: no frame budget either (the flood test below has it). Within 8 frames
#: a second the fuzzer spent most of its time waiting.
UNLIMITED = {"WS_RATE_BURST": "10000", "WS_RATE_PER_SECOND": "10000", "WS_SYNC_BURST": "10000",
             "WS_ROOM_BURST": "10000"}


def legal_for(frame: str | bytes) -> bool:
    """A frame that would be a legal move of the player to move (kept from that socket)."""
    try:
        msg = json.loads(frame)
    except (ValueError, RecursionError, TypeError):
        return False
    return isinstance(msg, dict) and msg.get("type") == "roll" and not msg.get("hold")


def expect_reply(peer: Peer, frame: str | bytes) -> Message:
    """The reply to ``frame``: an error with a known code, or the state for a sync."""
    reply = peer.until(lambda m: m["type"] in ("error", "state", "event"), 10)
    assert reply["type"] != "event", f"{frame!r:.200} made an event: {reply}"
    if reply["type"] == "error":
        assert reply["code"] in ERROR_CODES, reply
        assert isinstance(reply["message"], str) and reply["message"]
        return reply
    msg = json.loads(frame)
    assert isinstance(msg, dict) and msg.get("type") == "sync", f"{frame!r:.200} -> state"
    return reply


def fingerprint(room: SeededRoom, peer: Peer) -> tuple:
    state = peer.sync()
    return (len(room.site.stored_events(room.code)), state["seq"], json.dumps(state["game"]))


@pytest.mark.parametrize("site_settings", [UNLIMITED], ids=["unlimited"])
def test_fuzzed_frames_change_nothing(room: SeededRoom) -> None:
    players = [room.player(0), room.player(1)]
    watcher = room.watcher()
    everyone = [*players, watcher]
    for p in everyone:
        p.open()
    play(players, everyone, 4)  # mid-game: player 0 (host) to move next, not rolled yet
    assert players[0].game["current_player"] == 0 and players[0].game["dice"] is None
    # Fuzzing sockets: second tabs of the host (to move) and of the other player, and watchers.
    tabs = {"host": room.player(0, name="host tab"), "other": room.player(1, name="other tab"),
            "watcher": room.watcher(name="fuzz watcher")}
    for t in tabs.values():
        t.open()
    for p in everyone:
        p.drain(0.3)
    before = fingerprint(room, players[1])

    @settings(max_examples=120, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                     HealthCheck.data_too_large])
    @given(frame=frames, who=st.sampled_from(sorted(tabs)))
    def fuzz(frame: str | bytes, who: str) -> None:
        if who == "host" and legal_for(frame):
            who = "other"  # the host's legal first roll would rightly change the game
        tabs[who].send(frame)
        expect_reply(tabs[who], frame)

    fuzz()
    assert fingerprint(room, players[1]) == before, "a fuzzed frame changed the game"
    for t in tabs.values():
        assert t.is_open, f"{t.name} was closed"
    room.site.assert_alive()
    # The real players were never disturbed: nobody got an error, and the game goes on.
    for p in everyone:
        p.drain(0.2)
        assert not [m for m in p.received if m["type"] == "error"], p.name
        assert p.gaps == 0
    play(players, everyone, 4)


def test_flood_is_rate_limited_and_others_play_on(room: SeededRoom) -> None:
    players, everyone = seated_and_playing(room)
    flooder = room.player(1, name="flooding tab")
    flooder.open()
    flooder.drain(0.3)
    before = fingerprint(room, players[1])
    sent = 300
    # As fast as the socket takes them: rolls that reach the command path and are refused
    # whatever the turn (not this seat's turn; its turn before a roll; a die that is not there),
    # so that one handled after the turn passed to this seat cannot take the player's roll.
    for _ in range(sent):
        flooder.send(json.dumps({"type": "roll", "hold": [5]}))
    # Meanwhile the player to move moves, and everyone gets it.
    play(players, everyone, 2)
    replies = [m for m in flooder.drain(1.0) if m["type"] == "error"]
    codes = [m["code"] for m in replies]
    assert "rate_limited" in codes
    assert set(codes) <= {"rate_limited", "not_your_turn", "hold_before_roll",
                          "invalid_die_position"}, set(codes)
    # Far fewer answers than frames: the flood beyond the burst was dropped.
    assert len(replies) < sent / 2, len(replies)
    assert flooder.is_open
    state = flooder.sync_once_admitted()  # the bucket refills; the socket is usable again
    assert state["seq"] == len(room.site.stored_events(room.code)) > before[1]
    room.site.assert_alive()


@pytest.mark.parametrize("size", [MAX_FRAME + 1, 100_000, 900_000])
def test_oversize_frames_are_refused_and_socket_stays(room: SeededRoom, size: int) -> None:
    peer = room.player(1)
    peer.open()
    peer.send(json.dumps({"type": "sync", "pad": "y" * size}))
    assert peer.error()["code"] == "too_large"
    assert peer.sync()["type"] == "state"
    room.site.assert_alive()


def test_frame_over_daphne_limit_closes_only_that_socket(room: SeededRoom) -> None:
    players = [room.player(0), room.player(1)]
    everyone = [*players, room.watcher()]
    for p in everyone:
        p.open()
    big = room.watcher(name="2 MiB sender")
    big.open()
    big.send("z" * (2 * 1024 * 1024))  # over Daphne's own 1 MiB cap: it drops this socket
    with pytest.raises(ConnectionClosed):  # whatever came before it (a presence frame)
        while True:
            big.ws.recv(timeout=10)
    room.site.assert_alive()
    play(players, everyone, 2)

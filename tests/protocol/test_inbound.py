"""A client's frame is parsed once into one typed message, or refused with its id."""

from __future__ import annotations

import json

import pytest

from game.protocol import inbound
from game.protocol.inbound import BadMessage
from game.rules import Roll, Score


def frame(**fields: object) -> str:
    return json.dumps(fields)


@pytest.mark.parametrize(("text", "expected"), [
    (frame(type="sync"), inbound.Sync("")),
    (frame(type="roll", hold=[0, 2], id="c1"), inbound.Play("c1", Roll((0, 2)))),
    (frame(type="score", box="chance", id="c2"), inbound.Play("c2", Score("chance", 0))),
    (frame(type="score", box="ones@2", column=2), inbound.Play("", Score("ones@2", 2))),
    (frame(type="hold", held=[4, 1]), inbound.Hold("", (1, 4))),
    (frame(type="play_for_away"), inbound.PlayForAway("")),
    (frame(type="seed", seed="lucky"), inbound.SetSeed("", "lucky")),
    (frame(type="start"), inbound.Start("")),
    (frame(type="rematch", id="r"), inbound.Start("r")),
    (frame(type="add_seat"), inbound.AddSeat("")),
    (frame(type="leave_seat"), inbound.LeaveSeat("")),
    (frame(type="seat_bot", seat=1, level="easy"), inbound.SeatBot("", 1, "easy")),
    (frame(type="remove_seat", seat=2), inbound.RemoveSeat("", 2)),
    (frame(type="room_options", turn_time=60), inbound.SetOptions("", {"turn_time": 60})),
])
def test_every_client_frame_becomes_one_message(text: str, expected: inbound.Message) -> None:
    assert inbound.parse(text) == expected


def test_every_type_has_a_message() -> None:
    assert {"sync", "roll", "score", "hold", "play_for_away", "seed", "start",
                             "rematch", "add_seat", "leave_seat", "seat_bot", "remove_seat",
                             "room_options"} == inbound.TYPES
    assert issubclass(inbound.SeatBot, inbound.RoomChange)
    assert not issubclass(inbound.Play, inbound.RoomChange)


@pytest.mark.parametrize(("text", "code", "cid"), [
    (None, "bad_message", ""),
    ("x" * 5000, "too_large", ""),
    ("nope", "bad_json", ""),
    ("[1]", "bad_message", ""),
    (frame(id="a"), "bad_message", "a"),  # no type: answered with its id
    (frame(type="dance", id="b"), "unknown_type", "b"),
    (frame(type="roll", hold="all", id="c"), "bad_message", "c"),
    (frame(type="score", box="", id="d"), "bad_message", "d"),
    (frame(type="hold", held=[1, 1], id="e"), "bad_message", "e"),
    (frame(type="seat_bot", seat=True, level="easy"), "bad_message", ""),
    (frame(type="room_options"), "bad_message", ""),
    (frame(type="sync", id=7), "bad_message", ""),  # an invalid id is not echoed
    (frame(type="sync", id="x" * 65), "bad_message", ""),
])
def test_a_bad_frame_is_refused_with_its_id(text: str | None, code: str, cid: str) -> None:
    with pytest.raises(BadMessage) as refused:
        inbound.parse(text)
    assert refused.value.code == code
    assert refused.value.command_id == cid


def test_a_room_refuses_types_before_their_fields_are_read() -> None:
    seen: list[str] = []

    def only_sync(kind: str) -> None:
        seen.append(kind)
        if kind != "sync":
            raise BadMessage("daily", "not here")

    with pytest.raises(BadMessage) as refused:
        inbound.parse(frame(type="seat_bot", seat="bad", id="z"), only_sync)
    assert (refused.value.code, refused.value.command_id, seen) == ("daily", "z", ["seat_bot"])
    assert inbound.parse(frame(type="sync"), only_sync) == inbound.Sync("")

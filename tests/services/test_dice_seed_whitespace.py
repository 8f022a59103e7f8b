"""A dice seed typed in a form or sent over the socket loses the spaces around it and nothing
else (docs/fairness.md): a tab, a newline or a no-break space is refused with a clear error,
and nothing changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from game import services
from game.models import Seat
from tests.support.rooms import room_with_players


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ["\tbob", "bob\n", "bob\r\n", "\u00a0bob"])
def test_the_join_form_refuses_whitespace_other_than_spaces(client, raw):
    room = services.create_room(name="Seeds", rules="yahtzee",
                                seats=[services.SeatSpec()] * 2, host_key="host")
    url = reverse("game:join", args=[room.code])
    bad = client.post(url, {"nickname": "Bob", "seat": "1", "dice_seed": raw})
    assert bad.status_code == 400 and "printable ASCII" in bad.content.decode()
    assert Seat.objects.get(room=room, index=1).is_free
    ok = client.post(url, {"nickname": "Bob", "seat": "1", "dice_seed": "  bob  "})
    assert ok.status_code == 302
    assert Seat.objects.get(room=room, index=1).client_seed == "bob"


@pytest.mark.django_db
def test_a_seed_set_in_the_room_keeps_to_the_same_rule():
    room, guests = room_with_players(["Ann"], rules="yahtzee", start=False)
    before = Seat.objects.get(room=room, index=0).client_seed
    with pytest.raises(services.ServiceError) as bad:
        services.set_dice_seed(room.code, guests[0], "lucky\t")
    assert bad.value.code == "bad_seed"
    assert Seat.objects.get(room=room, index=0).client_seed == before
    services.set_dice_seed(room.code, guests[0], " lucky ")
    assert Seat.objects.get(room=room, index=0).client_seed == "lucky"

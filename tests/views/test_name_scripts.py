"""Names that pass for the site's own labels or for a seated player through letters of other
scripts are refused (UTS #39 skeletons, small capitals read as their letters), and so is a word
mixing scripts; writing in one script, or in the mixes of Japanese, Chinese and Korean, is
fine. Each refusal says why and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from game.models import Seat
from tests.support.rooms import room_with_players

pytestmark = pytest.mark.django_db


def join(client: Client, code: str, nickname: str, seat: int = 1):
    return client.post(reverse("game:join", args=[code]), {"nickname": nickname, "seat": seat})


@pytest.mark.parametrize(("nickname", "reason"), [
    ("\u0412\u043e\u0442 1 (optimal)", "looks like a label of the site"),  # Cyrillic Вот
    ("\u0299\u1d0f\u1d1b 2", "looks like a label of the site"),   # small capitals ʙᴏᴛ
    ("\u1d04\u1d0f\u1d0d\u1d18\u1d1c\u1d1b\u1d07\u0280", "looks like a label of the site"),
    ("An\u043b", "mixes the letters of Cyrillic and Latin"),      # Anл beside Ann
    ("Al\u03b5x", "mixes the letters of Greek and Latin"),
    ("\u13b3ill", "mixes the letters of Cherokee and Latin"),
    ("\u041e\u0442\u0442\u043e", "too much like “Otto”"),         # Cyrillic Отто
])
def test_a_name_passing_for_a_label_or_a_seated_player_is_refused(client, nickname, reason):
    room, _ = room_with_players(["Ann", "Otto"], start=False)
    Seat.objects.create(room=room, index=2)
    resp = join(client, room.code, nickname, 2)
    assert resp.status_code == 400
    assert reason in resp.content.decode()
    assert Seat.objects.get(room=room, index=2).is_free


@pytest.mark.parametrize("nickname", [
    "\u0418\u0432\u0430\u043d",                 # Иван
    "\u0391\u03bb\u03ad\u03be\u03b7\u03c2",     # Αλέξης
    "\u5c71\u7530\u305f\u308d\u3046",           # 山田たろう: Han and Hiragana
    "Tanaka\u592a\u90ce",                       # Latin and Han in one word
    "\uae40\ubbfc\uc218",                       # 김민수
    "Jos\u00e9 Mar\u00eda",
    "Ann-Marie O'Neil",
])
def test_a_name_in_one_script_or_a_cjk_mix_is_taken(client, nickname):
    room, _ = room_with_players(["Zed"], start=False)
    Seat.objects.create(room=room, index=1)
    assert join(client, room.code, nickname, 1).status_code == 302
    assert Seat.objects.get(room=room, index=1).nickname == nickname

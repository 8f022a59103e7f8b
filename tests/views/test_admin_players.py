"""Players in the admin: found by name, each with their seats and games (read-only), renamed
through the site's name checks, and never showing or changing the cookie token."""

from __future__ import annotations

import pytest
from django.urls import reverse

from game import services
from game.models import Player
from tests.support.rooms import room_with_players

pytestmark = pytest.mark.django_db


def seated_player(name: str):
    room, _ = room_with_players([name], bots=["easy"])
    player = services.new_player()
    services.rename_player(player, name)
    room.seats.filter(index=0).update(player=player)
    return player, room


def test_players_are_found_by_name_with_their_seats_and_games(admin_client):
    ann, room = seated_player("Ann")
    bob = services.new_player()
    services.rename_player(bob, "Bob")
    changelist = reverse("admin:game_player_changelist")
    found = admin_client.get(changelist, {"q": "Ann"}).content.decode()
    assert reverse("admin:game_player_change", args=[ann.pk]) in found
    assert reverse("admin:game_player_change", args=[bob.pk]) not in found
    page = admin_client.get(reverse("admin:game_player_change", args=[ann.pk])).content.decode()
    game = room.games.get()
    assert reverse("admin:game_room_change", args=[room.pk]) in page
    assert reverse("admin:game_game_change", args=[game.pk]) in page
    assert 'name="seats-0-nickname"' not in page  # the seats are read-only here
    assert ann.token not in page and 'name="token"' not in page


def test_a_regulars_page_lists_the_latest_seats_and_the_list_counts_them_all(admin_client):
    from game.admin.players import PlayerSeatInline
    from game.models import Room, Seat

    ann, first = seated_player("Ann")
    rooms = [first]
    for _ in range(PlayerSeatInline.SHOWN + 2):
        _, room = seated_player("Ann")
        rooms.append(room)
    Seat.objects.filter(room__in=rooms, index=0).update(player=ann)
    # Rooms made in one second: their age is set apart so that "latest" is certain.
    for age, room in enumerate(rooms):
        Room.objects.filter(pk=room.pk).update(created=room.created.replace(year=2000 + age))
    page = admin_client.get(reverse("admin:game_player_change", args=[ann.pk])).content.decode()
    shown = [room for room in rooms if reverse("admin:game_room_change", args=[room.pk]) in page]
    assert shown == rooms[-PlayerSeatInline.SHOWN:]
    listed = admin_client.get(reverse("admin:game_player_changelist"), {"q": "Ann"})
    (row,) = [p for p in listed.context["cl"].result_list if p.pk == ann.pk]
    assert row.seat_count == len(rooms)


def test_a_rename_passes_the_sites_name_checks_and_leaves_the_token(admin_client):
    ann, _ = seated_player("Ann")
    url = reverse("admin:game_player_change", args=[ann.pk])
    form = {"seats-TOTAL_FORMS": "1", "seats-INITIAL_FORMS": "1", "seats-MIN_NUM_FORMS": "0",
            "seats-MAX_NUM_FORMS": "1000", "seats-0-id": str(ann.seats.get().pk),
            "seats-0-player": str(ann.pk)}
    for bad in ("Bot 9", "A\u202eB", ""):
        resp = admin_client.post(url, {**form, "name": bad, "token": "stolen"})
        assert resp.status_code == 200 and resp.context["errors"], bad
        assert Player.objects.get(pk=ann.pk).name == "Ann"
    resp = admin_client.post(url, {**form, "name": "  Annie ", "token": "stolen"})
    assert resp.status_code == 302
    renamed = Player.objects.get(pk=ann.pk)
    assert (renamed.name, renamed.token) == ("Annie", ann.token)
    assert ann.seats.get().nickname == "Ann"  # seats keep the name they were taken with


def test_staff_disable_a_player_from_its_page_or_the_list(admin_client):
    ann, _ = seated_player("Ann")
    bob = services.new_player("Bob")
    url = reverse("admin:game_player_change", args=[ann.pk])
    form = {"seats-TOTAL_FORMS": "1", "seats-INITIAL_FORMS": "1", "seats-MIN_NUM_FORMS": "0",
            "seats-MAX_NUM_FORMS": "1000", "seats-0-id": str(ann.seats.get().pk),
            "seats-0-player": str(ann.pk)}
    assert admin_client.post(url, {**form, "name": "Ann", "disabled": "on"}).status_code == 302
    assert Player.objects.get(pk=ann.pk).disabled
    with pytest.raises(services.ServiceError, match="disabled"):
        services.check_active(Player.objects.get(pk=ann.pk))
    changelist = reverse("admin:game_player_changelist")
    admin_client.post(changelist, {"action": "disable_players", "_selected_action": [bob.pk]})
    assert Player.objects.get(pk=bob.pk).disabled
    listed = admin_client.get(changelist, {"disabled__exact": "1"}).content.decode()
    assert reverse("admin:game_player_change", args=[bob.pk]) in listed
    admin_client.post(changelist, {"action": "enable_players", "_selected_action": [bob.pk]})
    assert not Player.objects.get(pk=bob.pk).disabled


def test_players_are_found_by_account_and_accounts_show_their_player(admin_client):
    from django.contrib.auth import get_user_model

    ann = services.new_player("Ann")
    user = get_user_model().objects.create_user("annie", password="x" * 12)
    services.claim_player(user, ann)
    changelist = reverse("admin:game_player_changelist")
    found = admin_client.get(changelist, {"q": "annie"}).content.decode()
    assert reverse("admin:game_player_change", args=[ann.pk]) in found
    assert reverse("admin:auth_user_change", args=[user.pk]) in found
    guests = admin_client.get(changelist, {"account": "no"}).content.decode()
    assert reverse("admin:game_player_change", args=[ann.pk]) not in guests
    page = admin_client.get(reverse("admin:auth_user_change", args=[user.pk])).content.decode()
    assert reverse("admin:game_player_change", args=[ann.pk]) in page
    accounts = admin_client.get(reverse("admin:auth_user_changelist"), {"q": "Ann"})
    assert "annie" in accounts.content.decode()

"""Fair dice on the server (docs/fairness.md): seeds drawn and committed before players choose
theirs, the server seed in no message, page or admin view of a running game, revealed at the
end; ``verify_dice`` and the docs' script check a stored game and find a changed die."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from game import selectors, services
from game.models import Game, GameEvent, Room, Seat
from game.rules import Roll
from game.rules.fairness import commitment
from game.services.dice import draw_server_seed
from tests.support.rooms import as_action, next_move, room_with_players
from tests.support.sockets import close_layer, play_move, seated_room

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
DB = pytest.mark.django_db(transaction=True)


def play_to_end(room: Room) -> Game:
    """Every seat's moves (people's and bots') played by the test, to the end."""
    game = Game.objects.filter(room=room).latest("id")
    while game.status == Game.Status.PLAYING:
        player = game.snapshot["current_player"]
        services.play(room.code, as_action(next_move(game.snapshot)), seat_index=player)
        game.refresh_from_db()
    return game


def verify(game_id: int) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_dice", str(game_id), stdout=out)
    except CommandError as exc:
        return exc.returncode, out.getvalue() + str(exc)
    return 0, out.getvalue()


def tamper_one_die(game: Game, nth_roll: int = 3) -> tuple[int, int]:
    """Change one drawn die of the game's nth roll in the stored log; (k, seq) of that roll."""
    rolls = list(game.events.filter(kind="rolled").order_by("seq"))
    event = rolls[nth_roll - 1]
    payload = dict(event.payload)
    free = next(i for i in range(5) if i not in payload["held"])
    payload["dice"] = [d % 6 + 1 if i == free else d for i, d in enumerate(payload["dice"])]
    GameEvent.objects.filter(pk=event.pk).update(payload=payload)  # events refuse .save()
    return nth_roll, event.seq


# --- seeds: drawn first, fixed at the start, revealed at the end ----------------------------------

@pytest.mark.django_db
def test_the_seed_is_committed_at_creation_fixed_at_start_and_revealed_at_the_end(settings):
    room, guests = room_with_players(["Ann"], bots=["easy"], start=False)
    room.refresh_from_db()
    first_seed = room.next_server_seed
    assert len(first_seed) == 64
    state = services_state(room, guests[0])
    assert state["room"]["commitment"] == commitment(first_seed)
    seats = state["room"]["seats"]
    assert all(s["seed"] for s in seats)  # the bot got one from the server, Ann at joining

    services.set_dice_seed(room.code, guests[0], "  my lucky seed  ")
    game = services.start_game(room.code, guests[0])
    room.refresh_from_db()
    assert room.next_server_seed == "" and game.server_seed == first_seed
    assert game.commitment == commitment(first_seed)
    assert game.client_seeds == ["my lucky seed", seats[1]["seed"]]
    started = game.events.get(seq=1).payload
    assert started["commitment"] == game.commitment
    assert started["client_seeds"] == game.client_seeds

    game = play_to_end(room)
    finished = game.events.get(kind="game_finished").payload
    assert finished["server_seed"] == first_seed
    room.refresh_from_db()
    # The rematch's seed was drawn when this game ended, before anyone could change theirs.
    assert room.next_server_seed and room.next_server_seed != first_seed
    rematch = services.start_game(room.code, guests[0])
    assert rematch.commitment == commitment(room.next_server_seed)
    assert verify(game.pk) == (0, verify(game.pk)[1]) and "All" in verify(game.pk)[1]


def services_state(room: Room, guest: str) -> dict:
    from game import protocol
    from game.selectors import room_state
    return protocol.state(room_state(room, guest))


@pytest.mark.django_db
def test_dice_seed_reproduces_games(settings):
    settings.DICE_SEED = "demo"
    assert draw_server_seed(7, 0) == draw_server_seed(7, 0) != draw_server_seed(7, 1)
    settings.DICE_SEED = ""
    assert draw_server_seed(7, 0) != draw_server_seed(7, 0)  # from the OS


@pytest.mark.django_db
def test_a_seed_can_change_only_for_a_seated_player_before_the_start():
    room, guests = room_with_players(["Ann", "Bob"], start=False)
    with pytest.raises(services.ServiceError) as bad:
        services.set_dice_seed(room.code, guests[1], "é" * 3)
    assert bad.value.code == "bad_seed"
    with pytest.raises(services.ServiceError) as watcher:
        services.set_dice_seed(room.code, "someone-else", "abc")
    assert watcher.value.code == "watcher"
    services.start_game(room.code, guests[0])
    with pytest.raises(services.ServiceError) as running:
        services.set_dice_seed(room.code, guests[1], "abc")
    assert running.value.code == "game_running"
    assert Seat.objects.get(room=room, index=1).client_seed != "abc"


@pytest.mark.django_db
def test_join_and_create_forms_take_a_dice_seed_and_refuse_a_bad_one(client):
    resp = client.post(reverse("game:lobby"), {
        "name": "Seeds", "rules": "yahtzee", "seats": "2", "nickname": "Ann",
        "dice_seed": " ann-seed ", "seat_0": "human", "seat_1": "human"})
    assert resp.status_code == 302
    room = Room.objects.get(name="Seeds")
    assert Seat.objects.get(room=room, index=0).client_seed == "ann-seed"
    page = client.get(room.get_absolute_url()).content.decode()
    # The room page shows the commitment its state carries (drawn by the page's script).
    assert 'id="commitment"' in page
    assert selectors.room_state(room, None).commitment == room.next_commitment

    other = client.__class__()
    url = reverse("game:join", args=[room.code])
    bad = other.post(url, {"nickname": "Bob", "seat": "1", "dice_seed": "x" * 65})
    assert bad.status_code == 400 and Seat.objects.get(room=room, index=1).is_free
    bad = other.post(url, {"nickname": "Bob", "seat": "1", "dice_seed": "smörgåsbord"})
    assert bad.status_code == 400 and "printable ASCII" in bad.content.decode()
    assert other.post(url, {"nickname": "Bob", "seat": "1", "dice_seed": "b0b"}).status_code == 302
    assert Seat.objects.get(room=room, index=1).client_seed == "b0b"


# --- nothing of a running game shows the server seed -------------------------------------------

@pytest.mark.asyncio
@DB
@pytest.mark.parametrize("layer", ["memory"], indirect=True)
async def test_no_frame_of_a_running_game_carries_the_server_seed(layer, connect, sessions,
                                                                  settings, caplog):
    """Every frame to the players and a watcher, over a whole game with a seed change, a
    reconnect and bad messages, until the game ends: then the reveal is in game_finished."""
    caplog.set_level(logging.DEBUG)
    settings.WS_RATE_PER_SECOND = 10_000
    room, people = await seated_room(sessions, ["Ann", "Bob"])
    ann = await connect(room.code, people[0][0], "ann")
    bob = await connect(room.code, people[1][0], "bob")
    watcher = await connect(room.code, None, "watcher")
    everyone = [ann, bob, watcher]

    async def refused(client, message) -> str:
        await client.send(message)
        return (await client.until_type("error"))["code"]

    await bob.send({"type": "seed", "seed": "bob picks this"})
    for c in everyone:  # a seed change is a room change: everyone sees it
        await c.until(lambda m: m["type"] == "state"
                      and m["room"]["seats"][1]["seed"] == "bob picks this")
    assert await refused(watcher, {"type": "seed", "seed": "x"}) == "watcher"
    assert await refused(bob, {"type": "seed", "seed": "\t"}) == "bad_seed"
    assert await refused(bob, {"type": "seed", "seed": 5}) == "bad_message"
    committed = ann.state["room"]["commitment"]

    await ann.send({"type": "start"})
    for c in everyone:
        await c.until(lambda m: m["type"] == "state" and m["game"] is not None)
    game = await Game.objects.aget(room=room)
    secret = game.server_seed
    assert commitment(secret) == committed == ann.game["fairness"]["commitment"]
    assert ann.game["fairness"]["client_seeds"][1] == "bob picks this"
    assert await refused(bob, {"type": "seed", "seed": "late"}) == "game_running"

    players = [ann, bob]
    moves = 0
    while not ann.game["finished"]:
        await play_move(players[ann.game["current_player"]], everyone)
        moves += 1
        if moves == 20:  # a reconnect and a sync in the middle of the game
            await watcher.close()
            watcher = await connect(room.code, None, "watcher2")
            everyone = [ann, bob, watcher]
            await watcher.request({"type": "sync"})
            await ann.request({"type": "roll", "hold": [9]})  # an error message too

    frames = [json.dumps(m) for c in (*players, watcher) for m in c.messages]
    finished = [f for f in frames if '"game_finished"' in f and '"type": "event"' in f]
    before_end = [f for f in frames if f not in finished and '"finished": true' not in f]
    assert len(before_end) > 300
    assert not [f for f in before_end if secret in f]
    assert finished and all(secret in f for f in finished)  # revealed, to everyone
    assert secret not in caplog.text
    for c in everyone:
        await c.close()
    await close_layer()


@pytest.mark.django_db
def test_no_page_or_admin_view_of_a_running_game_shows_the_server_seed(client, admin_client):
    room, guests = room_with_players(["Ann", "Bob"])
    game = Game.objects.get(room=room)
    for _ in range(2):
        services.play(room.code, Roll(), guest_key=guests[0])
    secret = game.server_seed
    pages = {
        "room": client.get(room.get_absolute_url()),
        "game": client.get(game.get_absolute_url()),
        "dice": client.get(reverse("game:game_dice", args=[game.pk])),
        "lobby": client.get("/"),
        "admin game": admin_client.get(reverse("admin:game_game_change", args=[game.pk])),
        "admin games": admin_client.get(reverse("admin:game_game_changelist")),
        "admin room": admin_client.get(reverse("admin:game_room_change", args=[room.pk])),
        "admin events": admin_client.get(reverse("admin:game_game_changelist") + "?q=Ann"),
    }
    for name, resp in pages.items():
        assert resp.status_code == 200, name
        assert secret not in resp.content.decode(), name
    assert "hidden until the game ends" in pages["admin game"].content.decode()
    assert json.loads(pages["dice"].content)["server_seed"] is None
    assert game.commitment in pages["game"].content.decode()
    assert verify(game.pk)[0] == 2  # running: nothing to check yet, and no seed printed
    assert secret not in verify(game.pk)[1]

    game = play_to_end(room)
    for url in (game.get_absolute_url(), reverse("game:game_dice", args=[game.pk]),
                reverse("admin:game_game_change", args=[game.pk])):
        page = (admin_client if "admin" in url else client).get(url).content.decode()
        assert secret in page, url


# --- checking: verify_dice, the docs' script, staff ending a game ---------------------------

@pytest.mark.django_db
def test_verify_dice_and_the_docs_script_check_a_stored_game_and_name_a_changed_roll(
        client, tmp_path):
    room, guests = room_with_players(["Ann", "Bob"])
    game = play_to_end(room)
    status, out = verify(game.pk)
    assert status == 0 and "matches the commitment" in out
    assert f"All {game.events.filter(kind='rolled').count()} rolls match." in out

    script = tmp_path / "verify.py"
    script.write_text(re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.S)[0])
    dice = tmp_path / "dice.json"

    def run_script() -> subprocess.CompletedProcess:
        dice.write_bytes(client.get(reverse("game:game_dice", args=[game.pk])).content)
        return subprocess.run([sys.executable, str(script), str(dice)], capture_output=True,
                              text=True, timeout=60)

    done = run_script()
    assert done.returncode == 0 and "MISMATCH" not in done.stdout, done.stdout + done.stderr

    k, seq = tamper_one_die(game)
    status, out = verify(game.pk)
    assert status == 1
    assert re.findall(r"MISMATCH roll (\d+) \(seq (\d+)", out) == [(str(k), str(seq))]
    done = run_script()
    assert done.returncode == 1
    assert [line.split()[0] for line in done.stdout.splitlines() if "MISMATCH" in line] == [
        str(k)]


@pytest.mark.django_db
def test_verify_dice_refuses_what_it_cannot_check():
    assert verify(999)[0] == 2
    room, guests = room_with_players(["Ann"])
    game = Game.objects.get(room=room)
    game.status, game.commitment, game.server_seed = Game.Status.FINISHED, "", ""
    game.save()
    status, out = verify(game.pk)
    assert status == 2 and "predates" in out


@pytest.mark.django_db
def test_staff_ending_a_game_reveals_its_seed_and_the_admin_lists_it(admin_client):
    room, guests = room_with_players(["Ann", "Bob"])
    game = Game.objects.get(room=room)
    services.play(room.code, Roll(), guest_key=guests[0])
    url = reverse("admin:game_game_changelist")
    resp = admin_client.post(url, {"action": "end_games", "_selected_action": [game.pk]})
    assert resp.status_code == 302
    game.refresh_from_db()
    room.refresh_from_db()
    assert game.status == "finished" and game.unfinished and game.winners == []
    last = game.events.order_by("-seq").first()
    assert last.kind == "game_finished" and last.payload["unfinished"] is True
    assert last.payload["server_seed"] == game.server_seed
    assert room.status == "finished" and room.next_server_seed
    assert verify(game.pk)[0] == 0
    listed = admin_client.get(url + "?unfinished__exact=1").content.decode()
    assert f"/admin/game/game/{game.pk}/change/" in listed
    page = admin_client.get(game.get_absolute_url()).content.decode()
    assert "ended by staff" in page
    other, other_guests = room_with_players(["Cy"])
    assert "/change/" in admin_client.get(url + "?unfinished__exact=0").content.decode()
    assert f"/admin/game/game/{game.pk}/change/" not in admin_client.get(
        url + "?unfinished__exact=0").content.decode()


def test_the_terminal_game_plays_fair_dice_and_checks_them_at_the_end(tmp_path):
    """``manage.py play --dice-seed``: the commitment first, the seed and the check at the end."""
    env = {**os.environ, "DATA_DIR": str(tmp_path)}
    stdin = "\n".join(f"s {n}" for n in range(1, 14)) * 3 + "\n"
    done = subprocess.run(
        [sys.executable, "manage.py", "play", "--bots", "1", "--level", "easy",
         "--dice-seed", "  mine  "], cwd=DOCS.parents[1], env=env, input=stdin, text=True,
        capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    committed = re.search(r"server seed commitment ([0-9a-f]{64}); seeds 'mine', '[0-9a-f]{16}'",
                          done.stdout)
    revealed = re.search(r"Server seed, revealed: ([0-9a-f]{64})\. (\d+) of (\d+) rolls",
                         done.stdout)
    assert committed and revealed, done.stdout[-2000:]
    assert commitment(revealed.group(1)) == committed.group(1)
    assert revealed.group(2) == revealed.group(3) and int(revealed.group(3)) >= 26

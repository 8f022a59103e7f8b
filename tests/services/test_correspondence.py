"""Over-days games through the services: each turn's deadline, reminder and notice; the scan
that plays moves out of time and the computers' turns; notices sent once, and not while the
person has the room open. Time is moved by the clock file, never slept through."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from game import protocol, selectors, services
from game.domain import clock
from game.domain.rooms import OVER_DAYS_CAP, REMIND_AT
from game.models import (
    Connection,
    Game,
    GameEvent,
    Notification,
    Player,
    Room,
    Seat,
    ServerProcess,
)
from game.services import correspondence, notices
from game.services.errors import ServiceError
from tests.support.correspondence import Clock, over_days_room, play_turn

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400.0


@pytest.fixture
def moved(settings, tmp_path) -> Clock:
    settings.CLOCK_FILE = str(tmp_path / "clock")
    return Clock(tmp_path / "clock")


def notices_of(player: Player) -> list[tuple[str, int]]:
    return list(Notification.objects.filter(player=player).order_by("id")
                .values_list("kind", "seq"))


def test_a_turn_over_days_keeps_its_deadline_reminder_and_notice(moved):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    game = Game.objects.get(room=room)
    assert (game.move_days, game.waiting_for_id) == (2, ann.pk)
    now = clock.now()
    assert abs((game.move_deadline - now).total_seconds() - 2 * DAY) < 60
    assert abs((game.remind_at - now).total_seconds() - 2 * DAY * REMIND_AT) < 60
    assert notices_of(ann) == [("your_turn", game.seq)]

    moved.forward(DAY)  # Ann moves the next day: Bea's two days start then
    game = play_turn(room, guests[0])
    assert game.waiting_for_id == bea.pk
    assert abs((game.move_deadline - clock.now()).total_seconds() - 2 * DAY) < 60
    assert [kind for kind, _ in notices_of(bea)] == ["your_turn"]
    assert not Notification.objects.filter(player=ann, kind="reminder").exists()
    # The dice's commit-reveal spans the days: the running game's state names the commitment,
    # never the seed, whoever asks (a watcher, a player).
    for guest in (None, guests[0], guests[1]):
        frame = json.dumps(protocol.state(selectors.room_state(room, guest)))
        assert game.commitment in frame and game.server_seed not in frame
        assert '"pace": "days"' in frame and '"move_days": 2' in frame


def test_a_live_room_has_no_deadline_and_no_notice(moved):
    room = services.open_room("host", nickname="Ann", name="Live", rules="yahtzee",
                              seats=[services.SeatSpec(), services.SeatSpec("easy")],
                              player=services.new_player("Ann"))
    services.start_game(room.code, "host")
    game = Game.objects.get(room=room)
    assert (game.move_days, game.waiting_for_id, game.move_deadline) == (0, None, None)
    assert not Notification.objects.exists()


def test_the_scan_plays_a_move_out_of_time_and_tells_its_player(moved):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=1)
    play_turn(room, guests[0])  # Ann moves; Bea never comes
    moved.forward(DAY - 120)
    assert correspondence.scan("test").moves == 0  # not yet out of time
    moved.forward(180)
    found = correspondence.scan("test")
    assert found.moves >= 2  # at least a roll and a score, Bea's whole turn
    game = Game.objects.get(room=room)
    assert game.waiting_for_id == ann.pk  # Ann's turn again, with a new day
    bea_turn = set(GameEvent.objects.filter(game=game, seat=1).values_list("by", flat=True))
    assert bea_turn == {"autoplay"}
    # reminded at 80 % of her day, told once her turn was played for her
    assert [kind for kind, _ in notices_of(bea)] == ["your_turn", "reminder", "timed_out"]
    assert correspondence.scan("test").moves == 0  # nothing more is due


def test_a_reminder_is_made_once_and_only_for_the_turn_that_runs(moved):
    room, guests, (ann, _) = over_days_room(["Ann", "Bea"], days=2)
    moved.forward(2 * DAY * REMIND_AT + 60)
    assert correspondence.scan("test").reminders == 1
    assert correspondence.scan("test").reminders == 0
    assert [k for k, _ in notices_of(ann)] == ["your_turn", "reminder"]
    assert Game.objects.get(room=room).remind_at is None


def test_a_computer_in_an_over_days_game_moves_without_anyone_in_the_room(moved):
    room, guests, (ann,) = over_days_room(["Ann"], bots=("easy",), days=3)
    play_turn(room, guests[0])
    game = Game.objects.get(room=room)
    assert game.waiting_for_id is None and game.move_deadline <= clock.now()
    assert correspondence.scan("test").moves >= 2
    game = Game.objects.get(room=room)
    assert game.waiting_for_id == ann.pk
    assert set(GameEvent.objects.filter(game=game, seat=1).values_list("by", flat=True)) \
        == {"bot"}


def test_days_per_move_and_the_cap_are_checked(moved):
    with pytest.raises(ServiceError) as refused:
        services.open_room("h", nickname="Ann", name="x", rules="yahtzee",
                           seats=[services.SeatSpec()], pace="days", move_days=5)
    assert refused.value.code == "bad_room"
    with pytest.raises(ServiceError):
        services.open_room("h", nickname="Ann", name="x", rules="yahtzee",
                           seats=[services.SeatSpec()], pace="weeks", move_days=2)
    assert not Room.objects.exists()
    ann = services.new_player("Ann")
    for i in range(OVER_DAYS_CAP):
        services.open_room(f"h{i}", nickname="Ann", name=f"t{i}", rules="yahtzee",
                           seats=[services.SeatSpec(), services.SeatSpec()], player=ann,
                           pace="days", move_days=1)
    with pytest.raises(ServiceError) as refused:
        services.open_room("h-over", nickname="Ann", name="one more", rules="yahtzee",
                           seats=[services.SeatSpec(), services.SeatSpec()], player=ann,
                           pace="days", move_days=1)
    assert refused.value.code == "too_many_games"
    assert Room.objects.count() == OVER_DAYS_CAP


@pytest.fixture
def mailed(settings, smtp_server):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp_server.port
    settings.SITE_URL = "https://yahtzee.example"
    return smtp_server


def with_account(player: Player, address: str) -> Player:
    user = get_user_model().objects.create_user(player.name.lower(), address, "pw-12345678")
    EmailAddress.objects.create(user=user, email=address, verified=True, primary=True)
    Player.objects.filter(pk=player.pk).update(user=user, notify_email="turns")
    player.refresh_from_db()
    return player


def test_a_notice_is_emailed_once_with_a_one_click_unsubscribe(moved, mailed, client):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    with_account(bea, "bea@example.com")
    play_turn(room, guests[0])
    assert notices.send_due("one") == 2  # Ann's first notice (she moved since) and Bea's
    message = mailed.wait_for("bea@example.com")
    body = mailed.body(message)
    assert "Ann's table" in message["Subject"] and "https://yahtzee.example/r/" in body
    unsubscribe = str(message["List-Unsubscribe"]).strip().strip("<>")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    outcomes = dict(Notification.objects.values_list("player_id", "outcome"))
    assert outcomes == {ann.pk: "moved", bea.pk: "sent"}
    assert notices.send_due("two") == 0  # dealt with: never again
    assert len(mailed.messages) == 1

    path = unsubscribe.removeprefix("https://yahtzee.example")
    assert client.get(path).status_code == 200  # a link scanner changes nothing
    assert Player.objects.get(pk=bea.pk).notify_email == "turns"
    assert client.post(path).status_code == 200  # the mail client's one click
    assert Player.objects.get(pk=bea.pk).notify_email == "off"
    assert client.post(reverse("game:unsubscribe", args=["forged"])).status_code == 404


def test_nothing_is_sent_while_the_person_has_the_room_open(moved, mailed):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    with_account(bea, "bea@example.com")
    Connection.objects.create(room=room, channel_name="bea-tab", guest_key=guests[1],
                              last_seen=timezone.now())
    play_turn(room, guests[0])
    notices.send_due("one")
    assert Notification.objects.get(player=bea).outcome == "here"
    assert mailed.messages == []


def test_a_notice_whose_moment_passed_is_not_sent(moved, mailed):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    with_account(ann, "ann@example.com")
    play_turn(room, guests[0])  # Ann moved before her notice went out
    notices.send_due("one")
    assert Notification.objects.get(player=ann, kind="your_turn").outcome == "moved"
    assert mailed.messages == []


def test_two_processes_send_each_notice_once(moved, mailed):
    rooms = [over_days_room([f"A{i}", f"B{i}"], days=2) for i in range(6)]
    for room, guests, (_, bea) in rooms:
        with_account(bea, f"{bea.name.lower()}@example.com")
        play_turn(room, guests[0])
    dealt: list[int] = []

    def sender(name: str) -> None:
        try:
            dealt.append(notices.send_due(name))
        finally:
            connection.close()

    threads = [threading.Thread(target=sender, args=(f"server-{i}",)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sum(dealt) == Notification.objects.count() == 12
    assert sorted(m["To"] for m in mailed.messages) == sorted(
        f"b{i}@example.com" for i in range(6))


def test_a_dead_process_claim_lapses_and_another_sends_it(moved, mailed):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    with_account(bea, "bea@example.com")
    play_turn(room, guests[0])
    # A process claimed Bea's notice and died before sending it.
    Notification.objects.filter(player=bea).update(
        claimed_by="dead", claimed_until=clock.now() + timedelta(seconds=notices.CLAIM_SECONDS))
    notices.send_due("alive")
    assert mailed.messages == []
    moved.forward(notices.CLAIM_SECONDS + 1)
    notices.send_due("alive")
    assert mailed.wait_for("bea@example.com")
    assert Notification.objects.get(player=bea).claimed_by == "alive"


def test_a_seat_over_days_follows_its_player_to_another_device(moved, client):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    session = client.session
    session.save()
    client.cookies["player"] = bea.token
    assert client.get(room.get_absolute_url()).status_code == 200
    new_key = client.session[services.SESSION_GUEST]
    assert Seat.objects.get(room=room, player=bea).guest_key == new_key != guests[1]


def test_a_claim_of_a_server_known_dead_is_taken_over_at_once(moved, mailed):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    with_account(bea, "bea@example.com")
    play_turn(room, guests[0])
    # A server that held sockets (it beat), then fell silent, had claimed Bea's notice.
    ServerProcess.objects.create(name="otherhost:1:dead", beat=timezone.now() - timedelta(
        minutes=5))
    Notification.objects.filter(player=bea).update(
        claimed_by="otherhost:1:dead",
        claimed_until=clock.now() + timedelta(seconds=notices.CLAIM_SECONDS))
    notices.send_due("alive")  # no waiting for the claim to lapse
    assert mailed.wait_for("bea@example.com")
    assert Notification.objects.get(player=bea).outcome == "sent"


def test_your_turn_reaches_each_device_once_as_one_notification_per_game(moved, push_receiver):
    room, guests, (ann, bea) = over_days_room(["Ann", "Bea"], days=2)
    phone, laptop = (push_receiver.subscription_for(bea), push_receiver.subscription_for(bea))
    for device in (phone, laptop):
        services.push.subscribe(bea, device)
    play_turn(room, guests[0])
    notices.send_due("one")
    received = push_receiver.wait_for(2)
    game = Game.objects.get(room=room)
    assert {p["tag"] for p in received} == {f"game-{game.pk}"}  # replaces the previous
    link = room.get_absolute_url() + notices.ROLL_ON_OPEN  # the room rolls the first roll
    assert all(p["title"] == "Your turn" and p["url"] == link
               and "Ann's table" in p["body"] and "left" in p["body"] for p in received)
    assert Notification.objects.get(player=bea).channels == ["push"]
    # A device gone from its push service (410) is forgotten; the other still gets its notice.
    push_receiver.answers[phone["endpoint"]] = 410
    moved.forward(2 * DAY * REMIND_AT + 60)
    correspondence.scan("one")
    assert len(push_receiver.wait_for(3)) == 3
    assert list(bea.push_subscriptions.values_list("endpoint", flat=True)) \
        == [laptop["endpoint"]]
    # Turned off: nothing more on any device.
    services.set_notices(bea, push=False, email="off")
    moved.forward(DAY)
    correspondence.scan("one")  # her move is played for her; the notice goes nowhere
    assert Notification.objects.get(player=bea, kind="timed_out").outcome == "none"
    assert len(push_receiver.received) == 3

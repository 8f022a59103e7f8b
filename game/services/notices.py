"""Notices of over-days games, sent once: "your turn", a reminder before a move's time runs
out, and "the computer played your turn".

A notice row is made due in the transaction that made it due (``services.correspondence``),
unique per game, moment, person and kind. :func:`send_due` claims each one for this process
until ``CLAIM_SECONDS`` from now (one UPDATE that only one process wins), then deals with it
once: nothing if its moment passed (the person moved meanwhile) or if the person has the room
open now (they see it there; the page's title says so); else through each channel the person
turned on — a notification on their devices (Web Push, ``services.push``) and, for an account
with a confirmed address, an email with a one-click unsubscribe. A process that died holding a
claim leaves the notice to another once the claim lapses: a notice is then sent late, never
lost. (One that died between sending and marking it done sends it again; the notification
replaces the first, by its tag.)
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ..domain import clock, translated
from ..models import Connection, Game, Notification, Player, Seat
from ..selectors import STALE_AFTER
from ..selectors.correspondence import last_move
from .errors import ServiceError, gettext_noop
from .presence import known_dead

log = logging.getLogger(__name__)

#: How long a process holds a notice it claimed: sending takes seconds at most (each channel
#: has its own timeout), so a dead process's notices go out within this.
CLAIM_SECONDS = 60
#: Notices one pass deals with at most (the next pass takes the rest).
BATCH = 100
#: The signing salt of the email's unsubscribe link.
UNSUBSCRIBE_SALT = "notices.unsubscribe"


def send_due(server: str, limit: int = BATCH) -> int:
    """Claim and deal with the notices due; returns how many this process dealt with. A notice
    claimed by a process known dead (``presence.known_dead``) is taken over at once; any other
    claim once it lapsed."""
    now = clock.now()
    lapsed = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    due = list(Notification.objects.filter(done__isnull=True).order_by("id")
               .values_list("id", "claimed_by", "claimed_until")[:limit])
    dead = {name for name in {c for _, c, u in due if c and u and u >= now and c != server}
            if known_dead(name)}
    dealt = 0
    for notice_id, claimer, until in due:
        taken = Q(claimed_by=claimer, claimed_until=until) if claimer in dead else lapsed
        if not Notification.objects.filter(taken, pk=notice_id, done__isnull=True).update(
                claimed_by=server, claimed_until=now + timedelta(seconds=CLAIM_SECONDS)):
            continue  # another process holds or took it
        deliver(notice_id)
        dealt += 1
    return dealt


def deliver(notice_id: int) -> str:
    """Deal with one claimed notice; returns its outcome."""
    notice = Notification.objects.select_related("player", "game__room").get(pk=notice_id)
    game, player = notice.game, notice.player
    seat = Seat.objects.filter(room_id=game.room_id, player=player).first()
    channels: list[str] = []
    if not _still_due(notice):
        outcome = "moved"
    elif seat is not None and _here(game.room_id, seat.guest_key):
        outcome = "here"
    else:
        with translation.override(player.language or settings.LANGUAGE_CODE):
            text = _words(notice)
            if (player.notify_push and player.push_subscriptions.exists()
                    and _push(player, text)):
                channels.append("push")
            if _wants_email(player, notice.kind) and _email(player, text):
                channels.append("email")
        outcome = "sent" if channels else "none"
    Notification.objects.filter(pk=notice_id).update(
        done=clock.now(), outcome=outcome, channels=channels)
    return outcome


def _still_due(notice: Notification) -> bool:
    if notice.kind == Notification.Kind.TIMED_OUT:
        return True  # it happened; it stays worth telling
    game = notice.game
    return game.status == Game.Status.PLAYING and game.waiting_for_id == notice.player_id


def _here(room_id: int, guest_key: str) -> bool:
    """Whether the seat's person has a live socket to the room (presence is real time)."""
    return bool(guest_key) and Connection.objects.filter(
        room_id=room_id, guest_key=guest_key,
        last_seen__gte=timezone.now() - STALE_AFTER).exists()


#: The link's fragment that asks the room to roll the first roll of the reader's turn.
ROLL_ON_OPEN = "#roll"


def _words(notice: Notification) -> dict[str, str]:
    """The notice's title, body and link, in the active language."""
    game = notice.game
    room = game.room
    url = settings.SITE_URL + room.get_absolute_url()
    left = _time_left(game)
    if notice.kind != Notification.Kind.TIMED_OUT:
        # The room rolls a turn's first roll by itself when opened so (a first roll has no
        # choice in it): from the notification to the move made is two taps, it and a box.
        url += ROLL_ON_OPEN
    if notice.kind == Notification.Kind.TIMED_OUT:
        title = _("The computer played your turn")
        body = _("%(room)s: your move’s time ran out.") % {"room": room.name}
    elif notice.kind == Notification.Kind.REMINDER:
        title = _("Your move is waiting")
        body = _("%(room)s · %(left)s left") % {"room": room.name, "left": left}
    else:
        title = _("Your turn")
        last = last_move_words(game, notice.player_id)
        body = (_("%(room)s · %(last)s · %(left)s left") % {
            "room": room.name, "last": last, "left": left}) if last else (
            _("%(room)s · %(left)s left") % {"room": room.name, "left": left})
    return {"title": title, "body": body, "url": url, "tag": f"game-{game.pk}"}


def _time_left(game: Game) -> str:
    if game.move_deadline is None:
        return ""
    return translated.time_left((game.move_deadline - clock.now()).total_seconds())


def last_move_words(game: Game, player_id: int | None) -> str:
    """The last box another player scored: "Bea scored 25 in Full house" ("" before any)."""
    from ..domain.translated import box_name_label

    mine = Seat.objects.filter(room_id=game.room_id, player_id=player_id).values_list(
        "index", flat=True).first()
    move = last_move(game, mine)
    if move is None:
        return ""
    return _("%(name)s scored %(points)s in %(box)s") % {
        "name": move.name, "points": move.points,
        "box": box_name_label(move.box.split("@")[0])}


def _push(player: Player, text: dict[str, str]) -> bool:
    from . import push

    # The service worker opens only this site's pages: the link as a path.
    payload = {**text, "url": text["url"].removeprefix(settings.SITE_URL)}
    try:
        return push.send(player.pk, payload, tag=text["tag"]) > 0
    except Exception:  # noqa: BLE001 - a push service's failure must not lose the email
        log.warning("Push to player %s failed", player.pk, exc_info=True)
        return False


def _wants_email(player: Player, kind: str) -> bool:
    wanted: str = player.notify_email
    if wanted == "off":
        return False
    return wanted == "turns" or kind == "reminder"


def confirmed_address(player: Player) -> str:
    """The account's confirmed email address ("" for a guest, or none confirmed)."""
    if player.user_id is None:
        return ""
    from allauth.account.models import EmailAddress

    found = (EmailAddress.objects.filter(user_id=player.user_id, verified=True)
             .order_by("-primary").values_list("email", flat=True).first())
    return found or ""


def unsubscribe_token(player: Player) -> str:
    return signing.dumps(player.public_id, salt=UNSUBSCRIBE_SALT)


def player_of_token(token: str) -> Player | None:
    """The player an unsubscribe link is for, or None for a link that is not ours."""
    try:
        public_id = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return Player.objects.filter(public_id=public_id).first()


def _email(player: Player, text: dict[str, str]) -> bool:
    address = confirmed_address(player)
    if not address:
        return False
    unsubscribe = settings.SITE_URL + reverse("game:unsubscribe",
                                              args=[unsubscribe_token(player)])
    body = "\n\n".join([
        text["body"], text["url"],
        _("Emails about your games over days: %(url)s (one click stops them).")
        % {"url": unsubscribe}])
    message = EmailMessage(
        subject=f"{text['title']} · {text['body']}"[:150], body=body, to=[address],
        headers={"List-Unsubscribe": f"<{unsubscribe}>",
                 "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    try:
        message.send()
    except Exception:  # noqa: BLE001 - an SMTP server away: logged, the push still counts
        log.warning("Email to player %s failed", player.pk, exc_info=True)
        return False
    return True


def unsubscribe_email(player: Player) -> None:
    Player.objects.filter(pk=player.pk).update(notify_email=Player.EmailNotices.OFF)


def set_notices(player: Player, *, push: bool, email: str) -> None:
    """A person's choice of channels for over-days games."""
    if email not in Player.EmailNotices.values:
        raise ServiceError("bad_notices", gettext_noop(
            "Emails are sent never, before a move’s time runs out, or every turn."))
    Player.objects.filter(pk=player.pk).update(notify_push=bool(push), notify_email=email)

"""Accounts: the optional sign-in that keeps one player on several devices.

An account owns one player (``Player.user``). Signing up on a browser keeps that browser's
guest player, games and all; signing in on a browser whose guest has games merges the guest
into the account's player (:func:`merge_players`). A player with an account acts only for a
browser signed in to it (``game.web.players.current_player``): its cookie alone is worth nothing.

Account names pass the nicknames' checks and must not read like another account's name: each
account's player keeps the skeleton of its name (``Player.account_key``, unique).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import translation

from .. import ratings
from ..models import (
    NICKNAME_MAX,
    DailyAttempt,
    GameEvent,
    GameResult,
    Player,
    PlayerRating,
    PushSubscription,
    Seat,
)
from . import push, stats
from .errors import ServiceError, gettext_noop
from .names import clean_nickname, name_keys, skeleton
from .rooms import DEFAULT_NICKNAME

#: Django's own limit on a username.
USERNAME_MAX = 150


def clean_account_name(raw: object) -> str:
    """``raw`` as a new account's name: a nickname's checks (normalised, one script a word,
    no label of the site), and no account whose name reads alike; ServiceError if refused."""
    name = clean_nickname(raw, max_length=NICKNAME_MAX)
    if skeleton(name) in _default_names():
        # Every player without a name of their own is shown as it (the one-click game).
        raise ServiceError("name_taken", gettext_noop("“%(name)s” is the name the site gives "
                                                      "players without one; choose another "
                                                      "name."), {"name": name})
    if Player.objects.filter(account_key__in=name_keys(name)).exists():
        raise ServiceError("name_taken", gettext_noop("An account named like “%(name)s” exists "
                                                      "already; choose another name."),
                           {"name": name})
    return name


def _default_names() -> set[str]:
    """The skeletons of the name players without one are shown as, in every language."""
    names = set()
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            names.add(skeleton(str(DEFAULT_NICKNAME)))
    return names


def sign_in_key(name: object) -> str:
    """The account name ``name`` signs in to, as the failed sign-ins are counted: the sign-in
    finds its account whatever the case (allauth compares names case-insensitively), so a
    lockout of "target" must hold for "TARGET" too. Bounded before any work: a name longer
    than any account's cannot sign in, and a megabyte of it costs nothing to count."""
    if not isinstance(name, str):
        return ""
    return name[:USERNAME_MAX + 1].strip().lower()


def player_of(user: AbstractBaseUser) -> Player | None:
    """The player an account keeps, if it has one yet."""
    return Player.objects.filter(user_id=user.pk).first()


def check_active(player: Player) -> None:
    """Refuse anything a disabled player asks for."""
    if player.disabled:
        raise ServiceError("disabled", gettext_noop(
            "This player has been disabled by the site’s staff; it can no longer play, make "
            "rooms or change its name."))


def check_guest_active(room_code: str, guest_key: str | None) -> None:
    """Refuse a room command (a seed, a start, a seat change) from the seat of a disabled
    player in room ``room_code``; a guest without a seat there passes."""
    if guest_key and Seat.objects.filter(room__code=room_code, guest_key=guest_key,
                                         player__disabled=True).exists():
        raise ServiceError("disabled", gettext_noop(
            "This player has been disabled by the site’s staff; it can no longer change rooms "
            "or play."))


def set_player_disabled(player: Player, disabled: bool) -> Player:
    """Disable a player (staff): it can no longer take seats, make rooms, play or rename
    itself; its games and profile stay. Or enable it again."""
    player.disabled = disabled
    player.save(update_fields=["disabled"])
    return player


def claim_player(user: AbstractBaseUser, guest: Player | None) -> Player:
    """The account's player for a browser whose guest was ``guest``, after a sign-up or a
    sign-in: a new account takes the guest over (its games stay); an account that has a
    player takes the guest's games in (:func:`merge_players`). An account's or a disabled
    player is never taken: a new account then starts a player of its own."""
    name = user.get_username()
    free_guest = guest if guest is not None and guest.user_id is None else None
    try:
        with transaction.atomic():
            account = Player.objects.select_for_update().filter(user_id=user.pk).first()
            if account is None:
                if free_guest is not None and not free_guest.disabled:
                    account = Player.objects.select_for_update().get(pk=free_guest.pk)
                    account.user_id, account.account_key = user.pk, skeleton(name)
                    account.name = account.name or name
                    account.save(update_fields=["user", "account_key", "name"])
                    _unrolled(DailyAttempt.objects.filter(player_id=account.pk)) \
                        .update(account=True)
                else:
                    account = Player.objects.create(user_id=user.pk, account_key=skeleton(name),
                                                    name=name)
            elif free_guest is not None and free_guest.pk != account.pk \
                    and not free_guest.disabled:
                merge_players(free_guest, account)
    except IntegrityError as exc:  # two look-alike names signed up at the same moment
        raise ServiceError("name_taken",
                           gettext_noop("An account named like “%(name)s” exists already."),
                           {"name": name}) from exc
    return account


def _unrolled(attempts: QuerySet[DailyAttempt]) -> QuerySet[DailyAttempt]:
    """The daily attempts of ``attempts`` whose game has no roll yet."""
    return attempts.exclude(Exists(GameEvent.objects.filter(game_id=OuterRef("game_id"),
                                                            kind="rolled")))


def _merge_dailies(guest: Player, account: Player) -> None:
    """A guest's daily attempts become the account's; on a day both played, the earlier
    attempt is the player's one attempt and the later one leaves the boards (its game stays
    stored): a second identity that saw the dice first gains nothing. An attempt joins the
    accounts' board only if no die of it was rolled before: one played as a guest stays a
    guest's (else the best of several throwaway guests' tries would be signed into an
    account that never played)."""
    taken = {a.challenge_id: a for a in DailyAttempt.objects.filter(player_id=account.pk)}
    fresh = set(_unrolled(DailyAttempt.objects.filter(player_id=guest.pk))
                .values_list("pk", flat=True))
    for attempt in DailyAttempt.objects.filter(player_id=guest.pk):
        own = taken.get(attempt.challenge_id)
        if own is not None:
            later = own if own.created > attempt.created else attempt
            later.delete()
            if later is not own:
                continue
        attempt.player_id, attempt.account = account.pk, attempt.pk in fresh
        attempt.save(update_fields=["player", "account"])


def merge_players(guest: Player, account: Player) -> None:
    """Move everything of ``guest`` to ``account`` in one transaction, then delete the guest.

    Seats and game results change owner only: a finished game's names (``Game.players``,
    ``Seat.nickname``, ``GameResult.name``), events, totals and review stay as they were
    played. Ratings: where only the guest was rated in a ruleset, the account takes that
    rating; where both were, the two become one (``ratings.combine``: two independent
    estimates of the same strength), with the games of both. Past results keep their
    ``rated`` flags; later games are rated from the combined rating, game by game, as always.
    The profile's figures of the account, and its opponents' records against it, are counted
    again from the results (a rare change: one player's games).
    """
    with transaction.atomic():
        rows = {p.pk: p for p in Player.objects.select_for_update()
                .filter(pk__in=[guest.pk, account.pk]).order_by("pk")}
        if guest.pk not in rows or account.pk not in rows:
            return  # the guest was merged already (two sign-ins at once)
        Seat.objects.filter(player_id=guest.pk).update(player_id=account.pk)
        if rows[guest.pk].plays_over_days:
            Player.objects.filter(pk=account.pk).update(plays_over_days=True)
        moved = GameResult.objects.filter(player_id=guest.pk).update(player_id=account.pk)
        _merge_dailies(guest, account)
        # The guest's devices are the account's person's: their notices follow.
        PushSubscription.objects.filter(player_id=guest.pk).update(player_id=account.pk)
        push.keep_newest(account.pk)
        theirs = {r.ruleset: r for r in PlayerRating.objects.select_for_update()
                  .filter(player_id__in=[guest.pk, account.pk]).order_by("player_id", "ruleset")
                  if r.player_id == guest.pk}
        mine = {r.ruleset: r for r in PlayerRating.objects.filter(player_id=account.pk)}
        for ruleset, row in theirs.items():
            own = mine.get(ruleset)
            if own is None or not own.games:
                if own is not None:
                    own.delete()
                PlayerRating.objects.filter(pk=row.pk).update(player_id=account.pk)
                continue
            if row.games:
                both = ratings.combine(ratings.Rating(own.rating, own.rd, own.volatility),
                                       ratings.Rating(row.rating, row.rd, row.volatility))
                PlayerRating.objects.filter(pk=own.pk).update(
                    rating=both.rating, rd=both.rd, volatility=both.volatility,
                    games=F("games") + row.games, updated=max(own.updated, row.updated),
                    own_games=F("own_games") + row.own_games,
                    points_sum=F("points_sum") + row.points_sum,
                    loss_sum=F("loss_sum") + row.loss_sum,
                    last_game=max((t for t in (own.last_game, row.last_game) if t is not None),
                                  default=None))
            row.delete()
        guest_row = rows[guest.pk]
        if not rows[account.pk].private and guest_row.private:
            Player.objects.filter(pk=account.pk).update(private=True)  # the stricter choice
        guest_row.delete()  # and with it every opponent's record against the guest
        if moved:
            stats.rebuild_players([account.pk])
            met = (GameResult.objects.filter(game_id__in=GameResult.objects.filter(
                player_id=account.pk).values("game_id")).exclude(player_id=account.pk)
                .exclude(player_id=None).values_list("player_id", flat=True).distinct())
            stats.rebuild_rivalries(set(met), account.pk)

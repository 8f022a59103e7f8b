"""The daily challenge's writes: the day's seeds and a player's one attempt (docs/fairness.md,
"The daily challenge's tape"). A daily game's end records its attempt's score
(``services.games``), its review the attempt's loss and the day's par
(``services.daily_review``).

Seeds come from ``secrets`` only (``rules.fairness.new_server_seed``), never from
``DICE_SEED`` or anything else a person could derive them from; they are drawn ahead of the
day (``manage.py daily_seeds``, or lazily by the first page that needs the day), so the
commitment is public before the day starts.
"""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction

from ..domain.clock import utc_today
from ..models import DailyAttempt, DailyChallenge, Game, Player, Room, Seat
from ..rules import DailyDice
from ..rules import Game as RulesGame
from ..rules.fairness import commitment, new_server_seed
from ..store import rules_cache
from .accounts import check_active
from .errors import ServiceError, gettext_noop
from .games import store_events
from .rooms import DEFAULT_NICKNAME

#: The rulesets with a daily challenge.
DAILY_RULES = ("yahtzee", "yatzy")


def ensure_challenges(day: datetime.date) -> dict[str, DailyChallenge]:
    """The challenges of ``day`` in every daily ruleset, their seeds drawn now if missing."""
    found = {c.rules: c for c in DailyChallenge.objects.filter(day=day)}
    for rules in DAILY_RULES:
        if rules not in found:
            seed = new_server_seed()
            try:
                with transaction.atomic():
                    found[rules] = DailyChallenge.objects.create(
                        day=day, rules=rules, seed=seed, commitment=commitment(seed))
            except IntegrityError:  # another process drew it first: theirs stands
                found[rules] = DailyChallenge.objects.get(day=day, rules=rules)
    return found


def challenge(day: datetime.date, rules: str) -> DailyChallenge:
    if rules not in DAILY_RULES:
        raise ServiceError("bad_daily",
                           gettext_noop("The daily challenge is played in %(rulesets)s."),
                           {"rulesets": " and ".join(DAILY_RULES)})
    return ensure_challenges(day)[rules]


def start_attempt(player: Player, guest: str, rules: str) -> DailyAttempt:
    """Today's attempt of ``player`` in ``rules``: the one they started (its seat now this
    browser's, so a reload or their account on another device goes on with it), or a new one:
    a room of their own with its game started on the day's tape."""
    from django.utils.translation import gettext as _
    check_active(player)
    today = utc_today()
    day = challenge(today, rules)
    with transaction.atomic():
        # One attempt per player and day: two tabs starting together wait for each other here.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        attempt = DailyAttempt.objects.filter(challenge=day, player=player).first()
        if attempt is not None:
            Seat.objects.filter(room_id=attempt.room_id, index=0).exclude(
                guest_key=guest).update(guest_key=guest)
            return attempt
        name = player.name or str(DEFAULT_NICKNAME)
        # Stored in the player's language (the request's, active here); the day stays
        # written YYYY-MM-DD.
        room = Room.objects.create(
            name=_("Daily %(rules)s · %(day)s") % {"rules": day.get_rules_display(),
                                                   "day": today.isoformat()}, rules=rules,
            seats_count=1, status=Room.Status.PLAYING, chances=Room.Chances.OFF, daily=day)
        Seat.objects.create(room=room, index=0, nickname=name, player=player, guest_key=guest)
        game_row = Game.objects.create(room=room, rules=rules, players=[name], player_names=name,
                                       commitment=day.commitment, client_seeds=[], daily=day)
        game = RulesGame(rules, [name], rng=DailyDice(day.seed, rules, today))
        store_events(game_row, game, list(game.events), by="system", seat=None)
        transaction.on_commit(lambda: rules_cache.keep(game_row.pk, game_row.seq, game))
        return DailyAttempt.objects.create(challenge=day, player=player, room=room,
                                           game=game_row, account=player.has_account)

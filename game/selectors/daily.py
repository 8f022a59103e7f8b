"""Reads for the daily challenge's pages (they change nothing): a day's leaderboard, the
guests apart, a player's rank and friends, the day's scores, a streak, the fair-play figures.

Every list of a day reads its attempts through the ``daily_board`` index (challenge, account,
final descending, loss): the leaderboard and a player's rank stay a few index reads however
many played (benchmarks/daily_scale.py).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, F, Q, QuerySet, Sum
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..domain.translated import figure
from ..models import DailyAttempt, DailyChallenge, Player, Seat

BOARD_SIZE = 50
#: Guests are listed apart, fewer of them.
GUESTS_SIZE = 20
#: Seconds the day's scores (the histogram) may be old.
SCORES_FOR = 15
#: A grade's square in the share text: one a turn, by its worst decision.
SQUARES = {"best": "🟩", "good": "🟩", "inaccuracy": "🟨", "mistake": "🟧", "blunder": "🟥"}
#: Fair play: a player whose mean loss a decision stays under this over at least
#: ``SUSPECT_MIN_DAILIES`` dailies plays like the optimal bot (people rarely do).
SUSPECT_MEAN_LOSS = 0.05
SUSPECT_MIN_DAILIES = 5


@dataclass(frozen=True)
class Row:
    """A line of a day's board, its words and links made here: a board of 50 lines read
    through the template's lookups, filters and ``{% url %}`` was most of the page's time."""

    place: int
    name: str
    profile_url: str
    final: int
    loss: str
    game_url: str
    you: bool = False


def finished(day: DailyChallenge) -> QuerySet[DailyAttempt]:
    return DailyAttempt.objects.filter(challenge=day, final__isnull=False)


def _rows(attempts: QuerySet[DailyAttempt], me: Player | None, limit: int | None = None
          ) -> list[Row]:
    found = attempts.order_by("-final", F("loss").asc(nulls_last=True), "id").values_list(
        "player_id", "player__name", "player__public_id", "player__private", "final", "loss",
        "game_id")
    if limit is not None:
        found = found[:limit]
    profile = reverse("game:profile", args=["-"]).removesuffix("-/")
    game = reverse("game:game_detail", args=[0]).removesuffix("0/")
    rows = []
    for i, (pid, name, public_id, private, final, loss, game_id) in enumerate(found):
        you = me is not None and pid == me.pk
        # A private player is on the board (the places stay true) as nobody in particular.
        hidden = private and not you
        rows.append(Row(1 + i, _("A player") if hidden else name or pgettext("player", "Player"),
                        "" if hidden else f"{profile}{public_id}/", final,
                        "…" if loss is None else figure(loss, 1), f"{game}{game_id}/", you))
    return rows


def leaderboard(day: DailyChallenge, me: Player | None, size: int = BOARD_SIZE) -> list[Row]:
    """The day's accounts, best score first, ties by expected points lost (fewer first; a
    game not reviewed yet after the reviewed ones)."""
    return _rows(finished(day).filter(account=True), me, size)


def guests(day: DailyChallenge, me: Player | None, size: int = GUESTS_SIZE) -> list[Row]:
    """The day's guests, listed apart (a guest may be anyone's second identity)."""
    return _rows(finished(day).filter(account=False), me, size)


def place_of(attempt: DailyAttempt) -> int:
    """``attempt``'s place among the day's accounts (or among its guests, for a guest)."""
    better = Q(final__gt=attempt.final)
    if attempt.loss is not None:
        better |= Q(final=attempt.final, loss__lt=attempt.loss)
    else:  # not reviewed yet: after the reviewed ones of its score
        better |= Q(final=attempt.final, loss__isnull=False)
    return finished(attempt.challenge).filter(account=attempt.account).filter(better).count() + 1


def scores(day: DailyChallenge) -> dict[int, int]:
    """How many players made each final score on the day (the histogram's input), read at
    most once every ``SCORES_FOR`` seconds: with thousands finishing in the hour, each result
    page grouping every score was a fifth of its time."""
    key = f"daily-scores:{day.pk}"
    found = cache.get(key)
    if found is None:
        found = dict(finished(day).order_by().values_list("final").annotate(n=Count("id"))
                     .values_list("final", "n"))
        cache.set(key, found, SCORES_FOR)
    return found


def friends(day: DailyChallenge, me: Player) -> list[Row]:
    """The day's results of the players ``me`` shared a room with, and ``me``."""
    mates = set(Seat.objects.filter(room__seats__player=me, player__isnull=False)
                .values_list("player_id", flat=True)) | {me.pk}
    return _rows(finished(day).filter(player_id__in=mates), me, BOARD_SIZE)


def attempt_of(day: DailyChallenge, player: Player | None) -> DailyAttempt | None:
    if player is None:
        return None
    return (DailyAttempt.objects.filter(challenge=day, player=player)
            .select_related("challenge").first())


def streak(player: Player, today: datetime.date) -> int:
    """Days in a row, up to today (or yesterday, while today's is still to play), on which
    ``player`` finished a daily challenge."""
    days = set(DailyAttempt.objects.filter(player=player, final__isnull=False,
                                           challenge__day__gte=today - datetime.timedelta(days=400))
               .values_list("challenge__day", flat=True))
    day = today if today in days else today - datetime.timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= datetime.timedelta(days=1)
    return count


def share_text(attempt: DailyAttempt, par: int | None, url: str) -> str:
    """What a player may post: the score, par, a square a turn by its grade, the link.
    Nothing of the dice."""
    day = attempt.challenge
    squares = "".join(SQUARES.get(g, "⬜") for g in attempt.turn_grades)
    values = {"rules": day.get_rules_display(), "day": day.day.isoformat(),
              "score": attempt.final, "par": par}
    # Translators: the first line of a daily challenge's shared result ("Daily Yatzy
    # 2025-03-01: 251 · par 240"); the day stays written YYYY-MM-DD.
    line = (_("Daily %(rules)s %(day)s: %(score)s · par %(par)s") if par is not None
            else _("Daily %(rules)s %(day)s: %(score)s")) % values
    return f"{line}\n{squares}\n{url}"


@dataclass(frozen=True)
class FairPlay:
    player_id: int
    name: str
    dailies: int
    decisions: int
    loss: float

    @property
    def mean_loss(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def suspect(self) -> bool:
        return self.dailies >= SUSPECT_MIN_DAILIES and self.mean_loss < SUSPECT_MEAN_LOSS


def fair_play(players: list[int] | None = None) -> list[FairPlay]:
    """Each player's loss a decision over their reviewed dailies (the admin's view)."""
    rows = DailyAttempt.objects.filter(loss__isnull=False, decisions__gt=0)
    if players is not None:
        rows = rows.filter(player_id__in=players)
    found = rows.values("player_id", "player__name").annotate(
        dailies=Count("id"), decisions_sum=Sum("decisions"), loss_sum=Sum("loss"))
    return [FairPlay(r["player_id"], r["player__name"], r["dailies"], r["decisions_sum"],
                     r["loss_sum"]) for r in found]


def suspects() -> list[int]:
    """The players whose dailies show an implausibly low loss."""
    return [f.player_id for f in fair_play() if f.suspect]

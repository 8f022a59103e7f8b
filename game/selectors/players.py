"""Reads for the players' profiles and the leaderboards (they change nothing).

Everything comes from rows ``services.ratings`` keeps game by game: ``PlayerStats`` (a
player's totals per ruleset), ``Rivalry`` (their record against each opponent), ``GameResult``
(one row per seat of a reviewed game) and ``PlayerRating``. A page reads a fixed number of a
player's own indexed rows, never all their games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.utils.translation import pgettext_lazy

from .. import ratings
from ..ai.actions import LEVELS
from ..ai.review import GRADES
from ..models import GameResult, Player, PlayerRating, PlayerStats, Rivalry
from ..rules import RULESETS

#: A computer opponent's name on a profile, by its level.
COMPUTER_RIVALS = {"easy": pgettext_lazy("rival", "Computer (easy)"),
                   "medium": pgettext_lazy("rival", "Computer (medium)"),
                   "optimal": pgettext_lazy("rival", "Computer (optimal)"),
                   "to_win": pgettext_lazy("rival", "Computer (plays to win)")}
assert tuple(COMPUTER_RIVALS) == LEVELS

GAMES_PER_PAGE = 20
#: The trend shows this many of a player's latest games in a ruleset.
TREND_GAMES = 100
#: The leaderboards list players with at least this many rated games (and a settled rating).
LEADERBOARD_MIN_GAMES = 5
LEADERBOARD_SIZE = 50
HEAD_TO_HEAD_SIZE = 20


def player_by_public_id(public_id: str) -> Player | None:
    if len(public_id) > Player._meta.get_field("public_id").max_length:
        return None
    return Player.objects.filter(public_id=public_id).first()


def games_page(player: Player, number: object) -> Page:
    """A page of the player's reviewed games, newest first (each row is their seat)."""
    rows = (GameResult.objects.filter(player=player).select_related("game", "game__room")
            .order_by("-finished", "-game_id"))
    return Paginator(rows, GAMES_PER_PAGE).get_page(number)


@dataclass
class RulesetStats:
    rules: str
    title: str
    games: int
    average: float
    best: int
    worst: int
    #: Mean expected points lost per graded decision (the review's Δ), None without decisions.
    accuracy: float | None
    decisions: int
    luck_per_game: float
    grades: dict[str, int]
    #: Final scores, oldest first, of the latest ``TREND_GAMES`` games.
    trend: list[int]
    #: How many games ended on each final score.
    finals: dict[int, int] = field(repr=False)
    rating: PlayerRating | None = None

    @property
    def provisional(self) -> bool:
        return self.rating is None or ratings.is_provisional(
            ratings.Rating(self.rating.rating, self.rating.rd, self.rating.volatility))


def ruleset_stats(player: Player) -> list[RulesetStats]:
    """The player's figures per ruleset they played, most played first: their running totals
    (one row a ruleset) and the finals of their latest games, whatever the games' number."""
    held = {r.ruleset: r for r in PlayerRating.objects.filter(player=player)}
    stats = []
    for row in PlayerStats.objects.filter(player=player, games__gt=0).order_by("-games", "rules"):
        latest = (GameResult.objects.filter(player=player, rules=row.rules)
                  .order_by("-finished", "-game_id").values_list("final", flat=True))
        title = RULESETS[row.rules].title if row.rules in RULESETS else row.rules
        stats.append(RulesetStats(
            rules=row.rules, title=title,
            games=row.games, average=row.final_sum / row.games, best=row.best, worst=row.worst,
            accuracy=row.loss_sum / row.decisions if row.decisions else None,
            decisions=row.decisions, luck_per_game=row.luck_sum / row.games,
            grades={g: row.grades.get(g, 0) for g in GRADES},
            trend=list(latest[:TREND_GAMES])[::-1],
            finals={int(score): n for score, n in row.finals.items()}, rating=held.get(row.rules)))
    return stats


@dataclass
class Rival:
    """One opponent of a player: a person or a computer level."""

    name: str
    player: Player | None
    games: int = 0
    wins: int = 0
    draws: int = 0
    #: Games won with the luck taken out (final − Σ luck of each), and the mean margin so.
    adjusted_wins: int = 0
    adjusted_margin_sum: float = 0.0

    @property
    def adjusted_margin(self) -> float:
        return self.adjusted_margin_sum / self.games if self.games else 0.0


def head_to_head(player: Player, limit: int = HEAD_TO_HEAD_SIZE) -> list[Rival]:
    """The player's opponents, most met first: games, wins and the result without luck, read
    from their running records (``Rivalry``), the ``limit`` shown only."""
    rows = (Rivalry.objects.filter(player=player).select_related("rival")
            .order_by("-games", "name")[:limit])
    rivals = []
    for row in rows:
        if row.rival is not None:
            name = row.rival.name or row.name  # the name they go by now
        else:
            name = str(COMPUTER_RIVALS.get(row.bot_level, f"Computer ({row.bot_level})"))
        rivals.append(Rival(name=name, player=row.rival, games=row.games, wins=row.wins,
                            draws=row.draws, adjusted_wins=row.adjusted_wins,
                            adjusted_margin_sum=row.adjusted_margin_sum))
    return rivals


@dataclass
class Standing:
    place: int
    player: Player
    rating: float
    rd: float
    games: int


def _settled(rules: str, since: datetime | None):
    rows = PlayerRating.objects.filter(ruleset=rules, games__gte=LEADERBOARD_MIN_GAMES,
                                       rd__lte=ratings.PROVISIONAL_RD, player__private=False)
    if since is not None:
        rows = rows.filter(player__in=GameResult.objects.filter(
            rules=rules, finished__gte=since, rated=True).values("player_id"))
    return rows


def leaderboard(rules: str, since: datetime | None = None, size: int = LEADERBOARD_SIZE
                ) -> list[Standing]:
    """The settled ratings of ``rules``, best first (of players who played a rated game since
    ``since``, if given); private players are left out."""
    rows = _settled(rules, since).select_related("player").order_by("-rating", "player_id")
    return [Standing(i, r.player, r.rating, r.rd, r.games)
            for i, r in enumerate(rows[:size], start=1)]


def place_of(player: Player, rules: str, since: datetime | None = None) -> Standing | None:
    """The player's own place on that leaderboard, if they are on it (however far down)."""
    row = _settled(rules, since).filter(player=player).first()
    if row is None:
        return None
    above = _settled(rules, since).filter(rating__gt=row.rating).count()
    return Standing(above + 1, player, row.rating, row.rd, row.games)

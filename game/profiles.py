"""Reads for the players' profiles and the leaderboards (they change nothing).

Everything comes from ``GameResult`` (one row per seat of a reviewed game) and
``PlayerRating``, which ``services.ratings`` keeps game by game: a page reads a player's own
indexed rows, never every game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.db.models import Avg, Count, Max, Min, Sum
from django.utils.translation import pgettext_lazy

from . import ratings
from .ai.review import GRADES
from .models import GameResult, Player, PlayerRating
from .rules import RULESETS

#: A computer opponent's name on a profile, by its level.
COMPUTER_RIVALS = {"easy": pgettext_lazy("rival", "Computer (easy)"),
                   "medium": pgettext_lazy("rival", "Computer (medium)"),
                   "optimal": pgettext_lazy("rival", "Computer (optimal)")}

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
    finals: list[int] = field(repr=False)
    rating: PlayerRating | None = None

    @property
    def provisional(self) -> bool:
        return self.rating is None or ratings.is_provisional(
            ratings.Rating(self.rating.rating, self.rating.rd, self.rating.volatility))


def ruleset_stats(player: Player) -> list[RulesetStats]:
    """The player's figures per ruleset they played, most played first."""
    rows = GameResult.objects.filter(player=player)
    sums = (rows.values("rules").annotate(games=Count("id"), average=Avg("final"),
                                          best=Max("final"), worst=Min("final"), luck=Sum("luck"),
                                          loss=Sum("graded_loss"), decisions=Sum("decisions"))
            .order_by("-games", "rules"))
    held = {r.ruleset: r for r in PlayerRating.objects.filter(player=player)}
    stats = []
    for s in sums:
        rules = s["rules"]
        per_game = rows.filter(rules=rules).order_by("-finished", "-game_id")
        finals, grade_rows = [], []
        for final, grades in per_game.values_list("final", "grades"):
            finals.append(final)
            grade_rows.append(grades)
        grades = Counter({g: 0 for g in GRADES})
        for counts in grade_rows:
            grades.update({g: counts.get(g, 0) for g in GRADES})
        decisions = s["decisions"] or 0
        stats.append(RulesetStats(
            rules=rules, title=RULESETS[rules].title if rules in RULESETS else rules,
            games=s["games"], average=s["average"], best=s["best"], worst=s["worst"],
            accuracy=s["loss"] / decisions if decisions else None, decisions=decisions,
            luck_per_game=s["luck"] / s["games"], grades=dict(grades),
            trend=finals[:TREND_GAMES][::-1], finals=finals, rating=held.get(rules)))
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
    """The player's opponents, most met first: games, wins and the result without luck.
    Read as plain rows (a busy player has met thousands of seats), players fetched for the
    ``limit`` shown only."""
    own = GameResult.objects.filter(player=player)
    mine = {g: (final, luck) for g, final, luck in own.values_list("game_id", "final", "luck")}
    theirs = (GameResult.objects.filter(game_id__in=own.values("game_id")).exclude(player=player)
              .values_list("game_id", "final", "luck", "bot_level", "name", "player_id"))
    rivals: dict[str, Rival] = {}
    ids: dict[str, int] = {}
    for game_id, final, luck, bot_level, name, player_id in theirs.iterator():
        me = mine.get(game_id)
        if me is None:
            continue
        if player_id is not None:
            key = f"p{player_id}"
            ids[key] = player_id
        elif bot_level:
            key, name = f"b{bot_level}", str(COMPUTER_RIVALS.get(bot_level,
                                                                 f"Computer ({bot_level})"))
        else:  # a guest from before player records: nobody to follow
            continue
        rival = rivals.setdefault(key, Rival(name=name, player=None))
        rival.games += 1
        rival.wins += me[0] > final
        rival.draws += me[0] == final
        margin = (me[0] - me[1]) - (final - luck)
        rival.adjusted_wins += margin > 0
        rival.adjusted_margin_sum += margin
    shown = sorted(rivals.items(), key=lambda kr: (-kr[1].games, kr[1].name))[:limit]
    people = Player.objects.in_bulk([ids[k] for k, _ in shown if k in ids])
    for key, rival in shown:
        if key in ids:
            rival.player = people.get(ids[key])
            if rival.player is not None and rival.player.name:
                rival.name = rival.player.name  # the name they go by now
    return [rival for _, rival in shown]


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

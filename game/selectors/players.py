"""Reads for the players' profiles and the leaderboards (they change nothing).

Everything comes from rows ``services.ratings`` keeps game by game: ``PlayerStats`` (a
player's totals per ruleset), ``Rivalry`` (their record against each opponent), ``GameResult``
(one row per seat of a reviewed game) and ``PlayerRating``. A page reads a fixed number of a
player's own indexed rows, never all their games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from .. import ratings
from ..ai.actions import LEVELS
from ..ai.review import GRADES
from ..models import (
    DailyAttempt,
    Game,
    GameResult,
    Player,
    PlayerRating,
    PlayerStats,
    Rivalry,
    Seat,
)
from ..ratings import glicko2, wins
from ..rules import MAX_PLAYERS, RULESETS

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


def private_people(player_ids: Iterable[int | None], viewer: Player | None) -> set[int]:
    """Which of ``player_ids`` keep their profile private, ``viewer`` left out (a private
    player sees themselves): the people others see under a neutral label."""
    ids = {pid for pid in player_ids if pid is not None}
    if viewer is not None:
        ids.discard(viewer.pk)
    if not ids:
        return set()
    return set(Player.objects.filter(pk__in=ids, private=True).values_list("pk", flat=True))


def current_names(games: Sequence[Game]) -> dict[int, dict[int, str]]:
    """For each of ``games`` (by id), the name each recorded person goes by now, by seat (a
    person without a name left out): a rename shows on the games they played before. From the
    games' results (who sat where for good); one query."""
    found: dict[int, dict[int, str]] = {g.pk: {} for g in games}
    if found:
        for game_id, seat, name in (GameResult.objects.filter(game_id__in=list(found))
                                    .exclude(player__name="").exclude(player__isnull=True)
                                    .values_list("game_id", "seat", "player__name")
                                    [:len(found) * MAX_PLAYERS]):
            found[game_id][seat] = name
    return found


def private_seats(games: Sequence[Game], viewer: Player | None) -> dict[int, set[int]]:
    """For each of ``games`` (by id), the seats of private players other than ``viewer``.

    A seat's person is read from the game's results once it was reviewed (they say who sat
    where for good); before that from its daily attempt, or the room's seats (the room may
    have seated someone else since: then more is hidden, never less of the one who played)."""
    hidden: dict[int, set[int]] = {g.pk: set() for g in games}
    me = viewer.pk if viewer is not None else None
    recorded: set[int] = set()
    seats = (GameResult.objects.filter(game_id__in=list(hidden))
             .values_list("game_id", "seat", "player_id", "player__private")
             [:len(hidden) * MAX_PLAYERS])  # a page's games' seats, never a history
    for game_id, seat, pid, private in seats:
        recorded.add(game_id)
        if private and pid != me:
            hidden[game_id].add(seat)
    rest = [g for g in games if g.pk not in recorded]
    if not rest:
        return hidden
    daily = DailyAttempt.objects.filter(game_id__in=[g.pk for g in rest], player__private=True)
    for game_id, pid in daily.values_list("game_id", "player_id"):
        if pid != me:
            hidden[game_id].add(0)  # a daily game has one seat
    by_room: dict[int, list[Game]] = {}
    for g in rest:
        by_room.setdefault(g.room_id, []).append(g)
    for room_id, index, pid in Seat.objects.filter(
            room_id__in=list(by_room), player__private=True).values_list(
            "room_id", "index", "player_id"):
        if pid != me:
            for g in by_room[room_id]:
                if index < len(g.players):
                    hidden[g.pk].add(index)
    return hidden


def profile_links(game: Game) -> dict[int, str]:
    """The profile of each person seated in ``game`` who shows one (not private), by seat:
    from its results once reviewed (who sat where for good), else from its daily attempt or
    the room's seats when they still hold the name played with (a seat taken by someone else
    since links nobody). Computers have none. Two queries at most."""
    found: dict[int, Player] = {}
    results = list(GameResult.objects.filter(game=game, player__isnull=False)
                   .select_related("player"))
    if results:
        found = {r.seat: r.player for r in results if r.player is not None}
    elif game.daily_id:
        attempt = DailyAttempt.objects.filter(game=game).select_related("player").first()
        if attempt is not None:
            found = {0: attempt.player}
    else:
        for seat in Seat.objects.filter(room_id=game.room_id, player__isnull=False).exclude(
                kind=Seat.Kind.BOT).select_related("player"):
            if seat.index < len(game.players) and seat.nickname == game.players[seat.index]:
                found[seat.index] = seat.player
    return {seat: player.get_absolute_url() for seat, player in found.items()
            if not player.private}


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
    #: The rating as it stands now (``wins.shown``: its deviation grown for the time away).
    shown: ratings.Rating | None = None

    @property
    def provisional(self) -> bool:
        return self.shown is None or wins.is_provisional(self.shown)

    @property
    def provisional_rd(self) -> float:
        """Below this ± the rating is no longer provisional."""
        return wins.PROVISIONAL_RD


def ruleset_stats(player: Player) -> list[RulesetStats]:
    """The player's figures per ruleset they played, most played first: their running totals
    (one row a ruleset) and the finals of their latest games, whatever the games' number."""
    held = {r.ruleset: r for r in PlayerRating.objects.filter(player=player)}
    now = timezone.now()
    shown = {rules: wins.shown(ratings.Rating(r.rating, r.rd, r.volatility), r.last_game, now)
             for rules, r in held.items()}
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
            finals={int(score): n for score, n in row.finals.items()}, rating=held.get(row.rules),
            shown=shown.get(row.rules)))
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


def head_to_head(player: Player, viewer: Player | None = None,
                 limit: int = HEAD_TO_HEAD_SIZE) -> list[Rival]:
    """The player's opponents, most met first: games, wins and the result without luck, read
    from their running records (``Rivalry``), the ``limit`` shown only. A private opponent is
    left out for every ``viewer`` but themselves: an unnamed row of games and wins against
    one person would still be theirs."""
    shown = Q(rival__isnull=True) | Q(rival__private=False)  # a computer, or a public person
    if viewer is not None:
        shown |= Q(rival=viewer)
    rows = (Rivalry.objects.filter(player=player).filter(shown).select_related("rival")
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
    #: The rating and its deviation as they stand now (``wins.shown``: grown for the time since
    #: the player's last rated game).
    rating: float
    rd: float
    games: int


def _away_since(now: datetime) -> datetime:
    return now - wins.PERIOD * wins.LEADERBOARD_AWAY_PERIODS


def _settled(rules: str, since: datetime | None, now: datetime):
    """The rows that may be listed: what ``wins.on_leaderboard`` asks that the row alone
    answers (enough games, settled when last rated, back within the time away); whether the
    time away has widened the deviation past provisional is checked row by row."""
    rows = PlayerRating.objects.filter(ruleset=rules, games__gte=LEADERBOARD_MIN_GAMES,
                                       rd__lte=wins.PROVISIONAL_RD, last_game__gt=_away_since(now),
                                       player__private=False)
    if since is not None:  # a rated game since then, as its last one is
        rows = rows.filter(last_game__gte=since)
    return rows


def _listed(row: PlayerRating, now: datetime) -> ratings.Rating | None:
    """The row's rating as shown now, if the leaderboard lists it."""
    rating = ratings.Rating(row.rating, row.rd, row.volatility)
    if not wins.on_leaderboard(rating, row.last_game, now):
        return None
    return wins.shown(rating, row.last_game, now)


def _count_listed(rows, now: datetime, away: float) -> int:
    """How many of ``rows`` (``_settled``'s, away at most ``away`` periods now) are listed.
    Those whose deviation cannot pass provisional within that time (``glicko2.idle``: RD² +
    periods·(SCALE·σ)² at most PROVISIONAL_RD²) are counted in the database, in the same
    query as the others are; those few are then read and checked one by one."""
    at_risk = Q(grown__gt=wins.PROVISIONAL_RD ** 2)
    counts = rows.alias(grown=F("rd") * F("rd") + away * glicko2.SCALE ** 2
                        * F("volatility") * F("volatility")).aggregate(
        sure=Count("pk", filter=~at_risk), risky=Count("pk", filter=at_risk))
    if not counts["risky"]:
        return counts["sure"]
    risky = rows.alias(grown=F("rd") * F("rd") + away * glicko2.SCALE ** 2
                       * F("volatility") * F("volatility")).filter(at_risk)
    return counts["sure"] + sum(_listed(r, now) is not None for r in risky)


def leaderboard(rules: str, since: datetime | None = None, size: int = LEADERBOARD_SIZE,
                now: datetime | None = None) -> list[Standing]:
    """The settled ratings of ``rules``, best first, of players not away too long (of players
    who played a rated game since ``since``, if given); private players are left out. Read in
    the index's order, a page at a time, until ``size`` are listed."""
    now = now or timezone.now()
    rows = _settled(rules, since, now).select_related("player").order_by("-rating", "player_id")
    out: list[Standing] = []
    start = 0
    while len(out) < size:
        chunk = list(rows[start:start + size])
        for row in chunk:
            rating = _listed(row, now)
            if rating is not None and len(out) < size:
                out.append(Standing(len(out) + 1, row.player, rating.rating, rating.rd,
                                    row.games))
        if len(chunk) < size:
            break
        start += size
    return out


def place_of(player: Player, rules: str, since: datetime | None = None,
             now: datetime | None = None) -> Standing | None:
    """The player's own place on that leaderboard, if they are on it (however far down)."""
    now = now or timezone.now()
    row = _settled(rules, since, now).filter(player=player).first()
    rating = _listed(row, now) if row is not None else None
    if row is None or rating is None:
        return None
    # Anyone with a rated game since ``since`` has been away less than that long.
    away = wins.LEADERBOARD_AWAY_PERIODS if since is None else min(
        wins.LEADERBOARD_AWAY_PERIODS, wins.periods_between(since, now))
    count = _count_listed(_settled(rules, since, now).filter(rating__gt=row.rating), now, away)
    return Standing(count + 1, player, rating.rating, rating.rd, row.games)


@dataclass
class NotListed:
    """Why a player is not on a leaderboard: the first thing missing."""

    #: "private", "games" (fewer than ``LEADERBOARD_MIN_GAMES`` rated games), "provisional"
    #: (the deviation above ``wins.PROVISIONAL_RD``), "away" (no rated game for
    #: ``wins.LEADERBOARD_AWAY_PERIODS`` weeks), "week" (no rated game this week).
    reason: str
    games_missing: int = 0
    rd: float = 0.0
    last_game: datetime | None = None


def why_not_listed(player: Player, rules: str, since: datetime | None = None,
                   now: datetime | None = None) -> NotListed:
    """What keeps ``player`` off the leaderboard of ``rules`` (ask when ``place_of`` is None)."""
    now = now or timezone.now()
    if player.private:
        return NotListed("private")
    row = PlayerRating.objects.filter(player=player, ruleset=rules).first()
    games = row.games if row is not None else 0
    if row is None or games < LEADERBOARD_MIN_GAMES:
        return NotListed("games", games_missing=LEADERBOARD_MIN_GAMES - games)
    if wins.periods_between(row.last_game or now, now) >= wins.LEADERBOARD_AWAY_PERIODS:
        return NotListed("away", last_game=row.last_game)
    shown = wins.shown(ratings.Rating(row.rating, row.rd, row.volatility), row.last_game, now)
    if wins.is_provisional(shown):
        return NotListed("provisional", rd=shown.rd)
    return NotListed("week", last_game=row.last_game)

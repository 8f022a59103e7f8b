"""The rating of winning: Glicko-2 fed with each player's chance to win, the dice's luck taken
out.

The review (``game.ai.review``) follows every player's chance to win through the game and
splits it::

    outcome (1 won, 0 lost, 1/k a k-way tie) = start + luck − loss + others + drift

``luck`` is what the dice did to the chance: every roll's change, whose mean is exactly 0
given the position (a hold's chance is the mean, over the dice it throws, of the chance after
them). So ``outcome − luck`` has the outcome's own expectation — the player's real chance to
win against these opponents — with the dice's share of the spread removed: what the players'
decisions (their own, ``loss``; the others', ``others``) and the model's turn-start ``drift``
made of the game. That is the **luck-adjusted share of the win**; the shares of a game's
players add up to 1, like the outcomes.

Heads-up, a player's luck-adjusted share is their Glicko-2 score against the other. With
several players, each pair (i, j) is scored ``a_i / (a_i + a_j)`` (Luce's choice axiom: the
chance that i beats j given that one of them wins), and each pair counts ``1 / (n − 1)`` of a
result, so an n-player game moves a rating as much as one heads-up game does, not n − 1 of
them (the pairs share their dice and their players: they are not independent results).

**Three options the benchmark measured; the site uses them by ruleset** (``SITE_OPTIONS``;
``game.services.ratings`` passes each seat's luck-adjusted points and each person's usual
points and loss, the means over their earlier rated games). In yatzy the lean alone, its
shape (``LEAN_SHAPE``: all points while provisional, a fifth once settled) settles ratings in
no more games than the points-based rating; in yahtzee only the lean with the points control
and the precision weight does (docs/ai.md).

**The lean on the points while a rating is uncertain.** A share has the outcome's expectation
but, heads-up, varies by 0.03-0.2 from game to game; a player's luck-adjusted points (the final
less the review's points luck) are nearly as steady as their play, so they order players in
fewer games, but they rate points, not winning (the to-win bot gives up points to win more
often). A new rating needs precision more than it fears that bias; a settled one the other way
round. So a player's result against another is :func:`points_lean` of their deviation parts
the chance to win their points lead stands for (:func:`points_chance`: a logistic at
:func:`points_logit` per point, fitted through the computer levels' measured win rates) and the
rest their rated share: all points while unrated, then, in yahtzee, the deviation's part of an
unrated player's (a settled rating's 50-70 leans a seventh to a fifth, too little to put the
to-win bot below the optimal one); in yatzy all points while the rating is provisional, falling
in a straight line to a fifth at a deviation of 50 (:func:`lean_shape`). It depends on the
player's deviation, never on this game's outcome; where a seat's points are not known nothing
leans.

**The other two**, the points control and the precision weight: with the lean they settle
yahtzee populations as fast as the points do, yatzy's slower than the lean alone (the
precision weight's spread line is yahtzee's; in yatzy a share's spread barely depends on the
players' losses). A result counting up to ``MAX_PRECISION_WEIGHT`` times would move a rating
that much further for a game two accounts of one person arranged, so between two people the
weight above 1 counts only as far as the opponent's result is proven (the service's farming
weight, below: :func:`game_results`): in full against a computer player or a settled rating,
a tenth of it against a newcomer.

**The points control.** What is left of a share once the luck is out is what the decisions did
to the chance to win, and that depends on how close the game was: a mistake costs nothing in
a decided game and much in a close one, so the share of two players who play alike still
varies from game to game. Their points vary with it — a game in which a player lost more
points to their decisions than usual is, most often, one in which they lost more of their
chance too. Heads-up, the share is taken ``POINTS_CONTROL`` per point of the luck-adjusted
points lead's *surprise*: the lead (each player's final less their points luck) less what the
two players' earlier rated games led to expect (each one's mean luck-adjusted points; nothing
for a player without earlier games, or a computer player). The surprise has mean 0 for anyone
whose points do not depend on the opponent, so the share keeps the outcome's expectation — the
rating still rates winning, not points — with less of its spread (a control variate). And a
heads-up result counts by its precision (:func:`precision_weight`): the share between two
players who lose few points varies a few hundredths from game to game, between two poor
players 0.15–0.2, where Glicko-2 would take both for a win's or a loss's uncertainty. Games of
more players and forfeits keep the plain share and weight (the benchmark measured heads-up
games).

Because the luck-adjusted share has the outcome's expectation, the scale is the scale of
winning: a 400-point difference is 10-to-1 odds of winning heads-up. The computer levels'
anchors follow from their measured heads-up win rates against each other (``ANCHORS``,
``ANCHOR_WIN_RATES``), and the to-win bot, which wins more often than the optimal bot, sits
above it.

Only yahtzee and yatzy are rated: their chances are exact (the score table's). Triple has no
chances at all (its valuation gives no spread) and its points-based adjustment drifts by
300–380 points a game that are neither luck nor decisions, so triple games stay unrated.
Coached games and practice rooms are unrated too (the service decides; nothing here).

Leaving counts against the one who left, never against those who stayed: a person whose turns
the computer played (they left, or let a move run out of time) is a seat that ``left``. Their
pair with each seat that stayed is a forfeit, scored 1 for the one who stayed and 0 for the
one who left whatever the dice and the computer made of the seat; a pair of two seats that
left counts nothing (neither result is theirs). Pairs of seats that stayed keep their
luck-adjusted scores.

Time passes: Glicko-2's step for a player who did not play, ``glicko2.idle``, with one
``PERIOD`` (a week) as its unit (:func:`periods_between`, :func:`shown`), and the leaderboard
leaves out players away for ``LEADERBOARD_AWAY_PERIODS`` or whose rating is provisional
(:func:`on_leaderboard`). Farming: a result between two people counts by what it can prove
(:func:`farming_weight`): less against an opponent whose own rating is still uncertain, and
nothing past ``PAIR_GAMES_PER_PERIOD`` games of the same two people in one period.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypedDict

from . import glicko2
from .glicko2 import Rating

#: Rulesets rated: those whose review has exact chances to win.
RATED_RULES = ("yahtzee", "yatzy")
#: Glicko-2's rating period for the time that passes between games (each game is a period of
#: its own for its players, as the points-based rating had it).
PERIOD = timedelta(days=7)
#: Above this deviation a rating is provisional (as lichess: about ten games from unrated).
PROVISIONAL_RD = 110.0
#: A player away this many periods leaves the leaderboard (until their next rated game).
LEADERBOARD_AWAY_PERIODS = 4.0
#: Rated games of the same two people in one period that count; later ones count nothing.
PAIR_GAMES_PER_PERIOD = 5
#: The deviation an anchor is treated with by its opponents: its strength is known.
ANCHOR_RD = 30.0
#: Shares are kept above this before a pair's ratio is taken (a share of 0 beside another of
#: 0 has no ratio).
SHARE_FLOOR = 1e-3
#: How many plain results a luck-adjusted result is worth in Glicko-2's likelihood, before the
#: heads-up precision weight (:func:`precision_weight`). The same weight for every game (3, 10)
#: settled slower and predicted no better than 1 (docs/ai.md, the rating of winning).
RESULT_WEIGHT = 1.0

#: The points control's coefficient: share of the win per point of surprise in the heads-up
#: luck-adjusted points lead (``benchmarks/rating.py --predict --controls``; docs/ai.md).
POINTS_CONTROL = 0.0046
#: The lead's surprise counts within ± this many points: the control is a straight line fitted
#: where surprises are a few tens of points; a game thrown on purpose (hundreds of points short)
#: must not hand its share back.
SURPRISE_LIMIT = 40.0

#: The spread of a heads-up rated share (its standard deviation over games of the same two
#: players) grows with the points the two players' decisions lose: about ``SPREAD_BASE`` +
#: ``SPREAD_PER_POINT`` × their usual losses' sum (points a game; fitted over the 21 pairs of
#: the prediction test's strengths, yahtzee: 0.02-0.05 between two good players, 0.15-0.2 with a
#: poor one).
SPREAD_BASE = 0.034
SPREAD_PER_POINT = 0.00124
#: The spread of a result that counts once (weight 1): Glicko-2 takes every result to be as
#: uncertain as a win or a loss, so a share between two precise players, which varies a few
#: hundredths from game to game, would count no more than a coin's toss between two poor ones.
#: ``precision_weight`` counts each by (SPREAD_REFERENCE / its spread)², at most
#: ``MAX_PRECISION_WEIGHT`` (``benchmarks/rating.py --predict --precision``; docs/ai.md).
SPREAD_REFERENCE = 0.15
MAX_PRECISION_WEIGHT = 10.0
#: The lean on the points (:func:`points_lean`), per ruleset: (the deviation at and below which
#: a result leans by the floor only, the deviation at and above which it is all points, the
#: floor).
#: Yahtzee: the deviation's part of an unrated player's (RD / 350). Yatzy: all points while the
#: rating is provisional (``PROVISIONAL_RD``), falling to a fifth at a deviation of 50 (a
#: settled rating's): it settles yatzy's populations in no more games than the points-based
#: rating, at a cost: where its ratings rest (65-70) it leans 0.4-0.47, about even for the
#: to-win bot against the optimal one, which stays above it in three populations of four (nine
#: of ten with RD / 350). In yahtzee every shape that settles as fast puts the to-win bot below
#: the optimal one in half of them or more (``benchmarks/rating.py --predict --variants``;
#: docs/ai.md, the rating of winning).
LEAN_SHAPE: dict[str, tuple[float, float, float]] = {
    "yahtzee": (0.0, 350.0, 0.0),
    "yatzy": (50.0, PROVISIONAL_RD, 0.2),
}


class Options(TypedDict):
    """:func:`rate_game`'s options of the result (its ``control`` and ``precision``)."""

    control: float
    precision: bool


#: The options of :func:`rate_game` the site rates each ruleset with (the module's docstring):
#: in yahtzee the lean, the points control and the precision weight; in yatzy the lean alone
#: (with the other two its populations settle slower).
SITE_OPTIONS: dict[str, Options] = {
    "yahtzee": {"control": POINTS_CONTROL, "precision": True},
    "yatzy": {"control": 0.0, "precision": False},
}
#: The points a game a person's decisions are taken to lose before they have a rated game.
NEWCOMER_LOSS = 20.0
#: The computer levels' usual loss (points a game against the optimal strategy's expectation;
#: ``benchmarks/rating.py``'s pool and duels).
BOT_LOSS: dict[str, dict[str, float]] = {
    "yahtzee": {"to_win": 4.5, "optimal": 0.0, "medium": 19.7, "easy": 36.5},
    "yatzy": {"to_win": 4.2, "optimal": 0.0, "medium": 19.3, "easy": 49.4},
}

#: Each computer level's fixed rating, per ruleset: the medium bot at a newcomer's 1500, the
#: optimal and easy bots where the three measured win rates between the three put them (least
#: squares on the rating scale, each gap weighted by its variance), the to-win bot above the
#: optimal bot by its measured edge. ``benchmarks/rating.py --anchor-games N`` prints them;
#: ``ANCHOR_WIN_RATES`` holds the rates (docs/ai.md: the rating of winning).
ANCHORS: dict[str, dict[str, float]] = {
    "yahtzee": {"to_win": 1598.0, "optimal": 1586.0, "medium": 1500.0, "easy": 1418.0},
    "yatzy": {"to_win": 1614.0, "optimal": 1600.0, "medium": 1500.0, "easy": 1348.0},
}
#: How far an anchors' gap may stand from the gap of its measured win rate: the logistic model
#: cannot fit the three rates between optimal, medium and easy exactly (in yatzy 94 + 141
#: rating points from optimal to medium to easy, 260 measured from optimal to easy), so the
#: least-squares anchors miss each gap by up to 11 points there (3 in yahtzee).
ANCHOR_MISFIT = 12.0
#: The measured heads-up win rates the anchors stand on: (stronger, weaker) → (the stronger's
#: win rate, its 95 % interval's low and high, games), a tie counted half. The optimal, medium
#: and easy bots play for their own score, so heads-up they play as alone: the optimal bot's
#: final-score distribution against N sampled games of the other (yahtzee: the score table's,
#: exact; yatzy: 400,000 games of ``simulation.play_out``, its score table not yet built then)
#: (medium against easy: every pair of their N games each). The to-win bot against the optimal
#: bot: 20,000 real heads-up games (``benchmarks/to_win.py``, 26 Nov 2026).
ANCHOR_WIN_RATES: dict[str, dict[tuple[str, str], tuple[float, float, float, int]]] = {
    "yahtzee": {("to_win", "optimal"): (0.5179, 0.5123, 0.5234, 20000),
                ("optimal", "medium"): (0.6226, 0.6166, 0.6287, 8000),
                ("optimal", "easy"): (0.7218, 0.7162, 0.7274, 8000),
                ("medium", "easy"): (0.6196, 0.6109, 0.6282, 8000)},
    "yatzy": {("to_win", "optimal"): (0.5202, 0.5147, 0.5256, 20000),
              ("optimal", "medium"): (0.6325, 0.6243, 0.6408, 5000),
              ("optimal", "easy"): (0.8168, 0.8108, 0.8229, 5000),
              ("medium", "easy"): (0.6927, 0.6824, 0.7029, 5000)},
}


def rating_gap(win_rate: float) -> float:
    """The rating difference at which Glicko-2 expects ``win_rate`` heads-up (both ratings
    sure): 400·log10(p / (1 − p))."""
    if not 0 < win_rate < 1:
        raise ValueError(f"A win rate strictly between 0 and 1, not {win_rate}.")
    return 400 * math.log10(win_rate / (1 - win_rate))


def points_logit(rules: str) -> float:
    """The points' scale of winning in ``rules``: the logit of the heads-up chance to win per
    point of expected points lead, the least-squares slope (through 0) of the logits of the
    measured win rates between the levels that play for their own score (``ANCHOR_WIN_RATES``)
    on the points their decisions lose apart (``BOT_LOSS``). The to-win bot is left out: it
    gives up points to win, which is what the points cannot see."""
    loss = BOT_LOSS[rules]
    gaps = [(loss[b] - loss[a], math.log(p / (1 - p)))
            for (a, b), (p, *_) in ANCHOR_WIN_RATES[rules].items() if "to_win" not in (a, b)]
    return sum(x * y for x, y in gaps) / sum(x * x for x, _ in gaps)


def anchor(rules: str, level: str) -> Rating:
    """The fixed rating of the computer player ``level`` in ``rules``."""
    try:
        value = ANCHORS[rules][level]
    except KeyError:
        raise ValueError(f"No anchor rating for a {level!r} bot in {rules!r}.") from None
    return Rating(value, ANCHOR_RD, Rating().volatility)


def is_provisional(rating: Rating) -> bool:
    return rating.rd > PROVISIONAL_RD


# --- the result of a game --------------------------------------------------------------------

def adjusted_share(share: float, luck: float) -> float:
    """A player's luck-adjusted share of the win: their share of the outcome (1 won, 0 lost,
    1/k a k-way tie) less the review's ``chance.luck`` (what the dice did to their chance to
    win), kept within [0, 1]."""
    return min(1.0, max(0.0, share - luck))


def pair_score(mine: float, theirs: float) -> float:
    """The score (0 to 1) of a player whose luck-adjusted share is ``mine`` against one whose
    share is ``theirs``: ``mine / (mine + theirs)`` (heads-up the shares add up to 1 and this
    is ``mine``)."""
    a, b = max(mine, SHARE_FLOOR), max(theirs, SHARE_FLOOR)
    return a / (a + b)


def pair_weight(players: int) -> float:
    """What each pair of an n-player game counts for: 1 / (n − 1), so that a player's pairs add
    up to one result."""
    if players < 2:
        raise ValueError("A pair needs two players.")
    return 1 / (players - 1)


def farming_weight(opponent: Rating, earlier_games: int) -> float:
    """What a result against another person can prove, 0 to 1: ``earlier_games`` is how many
    rated games the same two people finished in the last ``PERIOD`` before this one. Past
    ``PAIR_GAMES_PER_PERIOD`` nothing (two accounts feeding each other wins); before, the
    opponent's deviation decides: full weight for a settled rating, (PROVISIONAL_RD / RD)²
    for a provisional one (an unrated newcomer's result proves a tenth of a result: a fresh
    account thrown a game is cheap). Not for computer players: their anchors are known."""
    if earlier_games < 0:
        raise ValueError("A number of games is at least 0.")
    if earlier_games >= PAIR_GAMES_PER_PERIOD:
        return 0.0
    return min(1.0, (PROVISIONAL_RD / opponent.rd) ** 2)


@dataclass(frozen=True)
class Seat:
    """One player of a finished game, as the rating sees them: their share of the win (1, 0,
    1/k) and the review's ``chance.luck``; their rating before the game (None: never rated)
    or, for a computer player, its level; their luck-adjusted points (final − the review's
    points luck) and their mean luck-adjusted points in their earlier rated games of the
    ruleset (None: not known, no earlier game), and the points their decisions lost a game
    there (a computer player's: ``BOT_LOSS``)."""

    share: float
    luck: float
    rating: Rating | None = None
    bot: str | None = None
    points: float | None = None
    usual: float | None = None
    usual_loss: float | None = None  # points their decisions lose a game, their earlier mean

    @property
    def adjusted(self) -> float:
        return adjusted_share(self.share, self.luck)

    @property
    def surprise(self) -> float:
        """Luck-adjusted points above the player's usual, 0 where either is not known."""
        if self.points is None or self.usual is None:
            return 0.0
        return self.points - self.usual


def rated_shares(seats: Sequence[Seat], left: Sequence[bool] | None = None,
                 control: float = POINTS_CONTROL) -> list[float]:
    """Each seat's luck-adjusted share as the rating counts it: heads-up and nobody left, less
    ``control`` × the surprise of the points lead, kept within ± ``SURPRISE_LIMIT`` (the
    module's docstring; the two still add up to 1 unless kept within [0, 1]); else the plain
    ``adjusted`` share."""
    if len(seats) != 2 or (left is not None and any(left)):
        return [s.adjusted for s in seats]
    lead = min(SURPRISE_LIMIT, max(-SURPRISE_LIMIT, seats[0].surprise - seats[1].surprise))
    return [adjusted_share(seats[0].share, seats[0].luck + control * lead),
            adjusted_share(seats[1].share, seats[1].luck - control * lead)]


def precision_weight(loss: float, other_loss: float) -> float:
    """What a heads-up result counts for by how precise it is: (SPREAD_REFERENCE / its
    expected spread)², the spread from the two players' usual losses (points a game), at most
    ``MAX_PRECISION_WEIGHT``. It depends on the players' earlier games only, never on this
    game's outcome, so it changes how fast a rating moves, not where it goes."""
    spread = SPREAD_BASE + SPREAD_PER_POINT * (max(0.0, loss) + max(0.0, other_loss))
    return min(MAX_PRECISION_WEIGHT, (SPREAD_REFERENCE / spread) ** 2)


def site_options(rules: str) -> Options:
    """The options the site rates games of ``rules`` with (``SITE_OPTIONS``)."""
    try:
        return Options(**SITE_OPTIONS[rules])
    except KeyError:
        raise ValueError(f"Games of {rules!r} are not rated.") from None


def lean_shape(rules: str) -> tuple[float, float, float]:
    """The lean's shape in ``rules``: (the deviation at and below which it is its floor, the
    deviation at and above which it is whole, the floor) (``LEAN_SHAPE``)."""
    return LEAN_SHAPE.get(rules, LEAN_SHAPE["yahtzee"])


def points_lean(rd: float, rules: str = "yahtzee") -> float:
    """The part (0 to 1) of a result that comes from the points lead for a player whose
    deviation is ``rd`` in ``rules``: all of it at or above the shape's whole deviation,
    falling in a straight line to its floor at its end (:func:`lean_shape`; the module's
    docstring)."""
    end, full, floor = lean_shape(rules)
    return floor + (1 - floor) * min(1.0, max(0.0, (rd - end) / (full - end)))


def points_chance(rules: str, lead: float) -> float:
    """The heads-up chance to win that a luck-adjusted points lead of ``lead`` stands for, on
    the scale of winning (:func:`points_logit`)."""
    return 1 / (1 + math.exp(-points_logit(rules) * lead))


def usual_loss(rules: str, seat: Seat) -> float:
    """The points a game ``seat``'s decisions usually lose: a computer level's ``BOT_LOSS``, a
    person's mean over their earlier rated games, a newcomer's ``NEWCOMER_LOSS``."""
    if seat.bot is not None:
        return BOT_LOSS.get(rules, BOT_LOSS["yahtzee"]).get(seat.bot, NEWCOMER_LOSS)
    return NEWCOMER_LOSS if seat.usual_loss is None else seat.usual_loss


def game_results(seats: Sequence[Seat], weights: Sequence[Sequence[float]] | None = None,
                 result_weight: float = RESULT_WEIGHT, left: Sequence[bool] | None = None,
                 control: float = POINTS_CONTROL, rules: str = "yahtzee",
                 precision: bool = True, lean: bool = True
                 ) -> list[list[tuple[int, float, float]]]:
    """Each seat's results: (the other seat, score, weight) for every other seat. The weight
    is ``result_weight`` × ``pair_weight(n)`` × ``weights[i][j]`` (the service's farming
    weight f of i's result against j; default 1), heads-up (nobody left) × the
    ``precision_weight`` p of the two seats' ``usual_loss`` in ``rules`` (``precision``),
    whose part above 1 counts as far as the result is proven: 1 + (p − 1) × f.
    ``left[i]``: seat i left the game (its turns played by the computer): its pairs are
    forfeits (the module's docstring). The scores come from ``rated_shares`` (``control``: its
    points control) and, with ``lean``, lean on the points lead by i's :func:`points_lean`
    where both seats' luck-adjusted points are known."""
    n = len(seats)
    gone = [False] * n if left is None else list(left)
    if len(gone) != n:
        raise ValueError("One flag per seat.")
    shares = rated_shares(seats, gone, control)
    precise = 1.0
    if precision and n == 2 and not any(gone):
        precise = precision_weight(usual_loss(rules, seats[0]), usual_loss(rules, seats[1]))
    out: list[list[tuple[int, float, float]]] = []
    for i in range(n):
        mine = []
        for j in range(n):
            if j == i:
                continue
            proven = 1.0 if weights is None else weights[i][j]
            w = result_weight * pair_weight(n) * proven * (1 + (precise - 1) * proven)
            if gone[i] and gone[j]:
                score, w = 0.5, 0.0
            elif gone[i] or gone[j]:
                score = 0.0 if gone[i] else 1.0
            else:
                score = pair_score(shares[i], shares[j])
                a, b = seats[i].points, seats[j].points
                if lean and seats[i].bot is None and a is not None and b is not None:
                    part = points_lean((seats[i].rating or Rating()).rd, rules)
                    score = part * points_chance(rules, a - b) + (1 - part) * score
            mine.append((j, score, w))
        out.append(mine)
    return out


def rate_game(rules: str, seats: Sequence[Seat],
              weights: Sequence[Sequence[float]] | None = None,
              result_weight: float = RESULT_WEIGHT,
              left: Sequence[bool] | None = None,
              control: float = POINTS_CONTROL, precision: bool = True, lean: bool = True
              ) -> list[Rating]:
    """Every seat's rating after the game, in the seats' order, each game one rating period for
    its players (make their ratings ``shown`` first: the time since their last game). Computer
    players keep their anchor; a person with nothing to count (alone, or every result
    weighted 0) keeps their rating. ``weights[i][j]``, ``left``, ``control``, ``precision``
    and ``lean``: as :func:`game_results`."""
    if rules not in RATED_RULES:
        raise ValueError(f"Games of {rules!r} are not rated.")
    before = [anchor(rules, s.bot) if s.bot is not None else s.rating or Rating()
              for s in seats]
    after = []
    for i, results in enumerate(game_results(seats, weights, result_weight, left, control,
                                             rules, precision, lean)):
        counted = [(before[j], score, w) for j, score, w in results if w > 0]
        if seats[i].bot is not None or not counted:
            after.append(before[i])
            continue
        after.append(glicko2.update(before[i], [(o, s) for o, s, _ in counted],
                                    weights=[w for _, _, w in counted]))
    return after


# --- time ------------------------------------------------------------------------------------

def periods_between(last: datetime, now: datetime) -> float:
    """Rating periods from ``last`` (the player's last rated game) to ``now``, 0 if ``now`` is
    not later."""
    return max(0.0, (now - last) / PERIOD)


def shown(rating: Rating, last: datetime | None, now: datetime) -> Rating:
    """``rating`` as it stands at ``now``, its deviation grown for the time since ``last``
    (None: never rated)."""
    if last is None:
        return rating
    return glicko2.idle(rating, periods_between(last, now))


def on_leaderboard(rating: Rating, last: datetime | None, now: datetime) -> bool:
    """Whether a player is shown on the leaderboard at ``now``: rated, back within
    ``LEADERBOARD_AWAY_PERIODS`` periods of their last rated game, and not provisional once the
    time away has widened their deviation."""
    if last is None:
        return False
    return (periods_between(last, now) < LEADERBOARD_AWAY_PERIODS
            and not is_provisional(shown(rating, last, now)))

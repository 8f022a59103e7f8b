"""Where each player of a game stands: the final score they can expect under optimal play, its
spread, their chance to win (ties shared) and how their final score is spread — for the review
and for live rooms alike.

A chance needs each player's whole final-score distribution. Every player maximises their own
expected score, so the finals are independent and each depends on the player's own card only:
the score table (``score_table.py``, built once beside the strategy table) gives it — exact
while the rest of a card's game is at most ``EXACT_LEVELS`` + 1 turns, elsewhere one exact
turn over quantiles of the states after it (docs/ai.md: the error measured). Until that table
is built (it is never built here: ``manage.py build_strategy`` builds it), the exact end game
for at most ``EXACT_TURNS`` turns to play and a shifted gamma with the card's three moments
before. A card changes once per turn and its future (the points still to come) depends on
its state alone, so futures are kept per state for every game of the process (``Futures``).
Single-column rulesets only: triple has no exact table.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from game.rules import Ruleset, Scorecard

from .advice import Advisor, CardState, advisor
from .distribution import (
    EXACT_TURNS,
    Distribution,
    estimated_distribution,
    is_exact,
    table_distribution,
    table_futures,
    win_chances_of,
)
from .score_table import ScoreTable
from .scoring import FloatArray
from .storage import loaded_score_table, score_table_ready

#: States whose points to come a game's standings keep (a turn leads to a few dozen).
FUTURES_KEPT = 2048
#: The percentiles of the final score a standing carries.
PERCENTILES = (10, 50, 90)


@dataclass(frozen=True)
class Standing:
    expected: float  # final score expected under optimal play from here
    sd: float  # its standard deviation (0 for a full card)
    chance: float  # of winning, ties shared (1 for a player alone)
    #: The final score's 10th, 50th and 90th percentiles (the least whole number reached with
    #: at least that chance).
    percentiles: tuple[int, ...] = ()
    #: Whether this player's final-score distribution is exact (else estimated: docs/ai.md).
    exact: bool = False


def supported(ruleset: Ruleset) -> bool:
    return ruleset.columns == 1


def above(dist: Distribution, points: float) -> float:
    """The chance that a final score distributed as ``dist`` ends above ``points``."""
    lo, probs = dist
    first = int(np.floor(points)) + 1 - lo  # the first whole number above ``points``
    return float(min(1.0, max(0.0, probs[max(0, first):].sum())))


def percentile(dist: Distribution, q: float) -> int:
    """The least whole number the final score reaches with at least chance ``q``/100."""
    lo, probs = dist
    at = int(np.searchsorted(np.cumsum(probs), q / 100 - 1e-12))
    return lo + min(at, len(probs) - 1)


@dataclass(frozen=True)
class Future:
    """What a card's state (mask, upper subtotal, yahtzee box holds 50) has still to come,
    whatever is banked: the distribution of the points to come (``lo``: the smallest, then
    the chance of each value from it on), its ``PERCENTILES``, its expectation and standard
    deviation under optimal play, and whether the distribution is exact."""

    lo: int
    probs: FloatArray
    percentiles: tuple[int, ...]
    expected: float
    sd: float
    exact: bool


#: States whose futures a process keeps (least recently used go first): every player's
#: current card at least (a few hundred live games), and the early cards every game passes
#: through. A future is ~2-8 kB (its probabilities).
FUTURES = 4096


class Futures:
    """The futures of states for one strategy table and one score table (or none: the
    estimator), kept across games: only the player who just moved has a new card, and a
    card's future depends on its state alone, so one computation serves every game that
    reaches the state (early cards repeat everywhere)."""

    def __init__(self, adv: Advisor, table: ScoreTable | None, size: int = FUTURES) -> None:
        self.adv = adv
        self.table = table
        self.size = size
        self._kept: OrderedDict[tuple[int, int, int], Future] = OrderedDict()
        self._lock = threading.Lock()

    def kept(self, state: CardState) -> Future | None:
        """``state``'s future if it is kept, else None (nothing computed)."""
        key = state.key
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def of(self, state: CardState) -> Future:
        found = self.kept(state)
        if found is not None:
            return found
        key = state.key
        found = self._compute(CardState(state.mask, state.upper, state.yahtzee_50, 0))
        with self._lock:
            self._kept[key] = found
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return found

    def _compute(self, state: CardState) -> Future:
        """``state`` with nothing banked: its final score is the points to come."""
        adv, table = self.adv, self.table
        if state.mask == adv.tables.full:
            return Future(0, _CERTAIN, (0,) * len(PERCENTILES), 0.0, 0.0, True)
        if table is not None:
            dist = table_distribution(adv, table, state)
            exact = is_exact(adv, table, state)
        else:
            dist = estimated_distribution(adv, state, exact_turns=EXACT_TURNS)
            exact = adv.tables.n_boxes - state.mask.bit_count() <= EXACT_TURNS
        dist[1].flags.writeable = False  # shared by every game that reaches the state
        estimate = adv.estimate(state)
        return Future(dist[0], dist[1], tuple(percentile(dist, q) for q in PERCENTILES),
                      estimate.expected, estimate.sd, exact)


_CERTAIN = np.ones(1)
_CERTAIN.flags.writeable = False
_futures: dict[tuple[int, int], Futures] = {}
_futures_lock = threading.Lock()


def futures(adv: Advisor, table: ScoreTable | None) -> Futures:
    """The process's futures for this advisor and score table (new ones when either is
    replaced: a table loaded again)."""
    key = (id(adv), id(table))
    with _futures_lock:
        found = _futures.get(key)
        if found is None or found.adv is not adv or found.table is not table:
            found = _futures[key] = Futures(adv, table)
            while len(_futures) > 8:  # tables loaded again (tests): let the old ones go
                del _futures[next(iter(_futures))]
        return found


def forget_futures() -> None:
    """Forget every kept future (what a new process starts with)."""
    with _futures_lock:
        _futures.clear()


class Standings:
    """The standings of a game's players, turn after turn (the futures of their cards are
    kept for every game of the process: :class:`Futures`)."""

    def __init__(self, ruleset: Ruleset) -> None:
        if not supported(ruleset):
            raise ValueError(f"No standings for {ruleset.name}: it has no exact table.")
        self.adv = advisor(ruleset)
        self.ruleset = ruleset
        self.table: ScoreTable | None = None
        #: The points to come from states a turn played to win leads to (``to_win``).
        self.futures: dict[tuple[int, int, int], Distribution] = {}

    def _score_table(self) -> ScoreTable | None:
        """The score table once it is built (loaded, never built here)."""
        if self.table is None:
            self.table = loaded_score_table(self.ruleset)
            if self.table is not None:
                self.futures.clear()  # the estimator's, kept while the table was not built
        return self.table

    def _future(self, state: CardState) -> Future:
        return futures(self.adv, self._score_table()).of(state)

    def _known(self, player: int, state: CardState) -> tuple[Distribution, bool]:
        future = self._future(state)
        return (state.banked + future.lo, future.probs), future.exact

    def _computed(self, state: CardState) -> tuple[Distribution, bool]:
        """A card's final-score distribution between turns, and whether it is exact."""
        table = self._score_table()
        if state.mask == self.adv.tables.full:
            return (state.banked, np.ones(1)), True
        if table is not None:
            return table_distribution(self.adv, table, state), is_exact(self.adv, table, state)
        return (estimated_distribution(self.adv, state, exact_turns=EXACT_TURNS),
                self.adv.tables.n_boxes - state.mask.bit_count() <= EXACT_TURNS)

    def points_to_come(self, keys: Sequence[tuple[int, int, int]]) -> list[Distribution]:
        """The distributions of the points still to come from the states ``keys`` between
        turns (what :meth:`distribution` gives a card in one, less what it has banked),
        computed together and kept for the states a game's turns lead to (``to_win``)."""
        missing = [k for k in dict.fromkeys(keys) if k not in self.futures]
        table = self._score_table()
        full = self.adv.tables.full
        if table is not None:
            played = [k for k in missing if k[0] != full]
            for k in played:
                self.adv.check(CardState(k[0], k[1], bool(k[2])))
            self.futures.update(zip(played, table_futures(self.adv, table, played),
                                    strict=True))
        for mask, upper, y in missing:
            if (mask, upper, y) not in self.futures:
                state = CardState(mask, upper, bool(y))
                self.futures[mask, upper, y] = self._computed(state)[0]
        found = [self.futures[k] for k in keys]
        while len(self.futures) > FUTURES_KEPT:
            del self.futures[next(iter(self.futures))]
        return found

    def distribution(self, player: int, state: CardState) -> Distribution:
        """Player ``player``'s final-score distribution when their card is ``state``."""
        return self._known(player, state)[0]

    def chances(self, cards: Sequence[Scorecard]) -> list[float]:
        """Each player's chance to win from the start of a turn (clipped: the integration
        leaves float noise around 0 and 1)."""
        return self._chances([CardState.of(card) for card in cards])

    def _chances(self, states: list[CardState], found: list[Future] | None = None
                 ) -> list[float]:
        if len(states) == 1:
            return [1.0]
        if found is None:
            found = [self._future(state) for state in states]
        dists = [(state.banked + f.lo, f.probs) for state, f in zip(states, found, strict=True)]
        return [min(1.0, max(0.0, c)) for c in win_chances_of(dists)]

    def finishes_above(self, cards: Sequence[Scorecard], player: int, points: float) -> float:
        """The chance that ``player`` finishes above ``points`` ("Ann finishes above 250 in
        46 % of games")."""
        return above(self.distribution(player, CardState.of(cards[player])), points)

    def of(self, cards: Sequence[Scorecard]) -> list[Standing]:
        return self.of_states([CardState.of(card) for card in cards])

    def of_states(self, states: Sequence[CardState]) -> list[Standing]:
        """Each player's standing, their cards' states given (their futures computed where
        the process has not kept them)."""
        return self._standings(states, [self._future(state) for state in states])

    def kept(self, states: Sequence[CardState]) -> list[Standing] | None:
        """The same, only if the process has kept every card's future (no distribution to
        compute: cheap enough for the event loop), else None. A score table on disk must be
        loaded first (seconds: off the event loop, looked for again until it is), so the
        estimator's futures stand in only where there is none."""
        if self.table is None and score_table_ready(self.ruleset):
            return None
        kept = futures(self.adv, self.table).kept
        found = [kept(state) for state in states]
        if any(f is None for f in found):
            return None
        return self._standings(states, cast(list[Future], found))

    def _standings(self, states: Sequence[CardState], found: list[Future]) -> list[Standing]:
        out = []
        for state, future, chance in zip(states, found, self._chances(list(states), found),
                                         strict=True):
            shape = tuple(state.banked + q for q in future.percentiles)
            out.append(Standing(state.banked + future.expected, future.sd, chance, shape,
                                future.exact))
        return out

"""Plays that trade expected points for spread, and the bot that picks among them to win.

The ``to_win`` bot values the card a box leaves by the chance to win when every later turn is
played for points. A player behind wants a wider spread later, a player ahead a narrower one.
Each play here is a whole policy for the rest of the column: the one that maximises the
expected **utility** exp(``risk`` × points) (risk > 0 seeks a spread, risk < 0 avoids it;
0 is points play). That utility factorises over the turns, so the strategy table's programme
solves it with one change: a hold is worth the certainty equivalent of its rolls
(log E[exp(risk × v)] / risk) instead of their mean (``multisets.hold_certainties``); a box
still adds its points to the state it leads to. Each play's distribution of points to come
from every state is then built as the score table's (``score_table.build``), on disk.

A turn's end is worth the **best** of the plays' chances against the opponents' final scores
(:class:`RiskEnds`): each is the exact chance of a play a player can commit to for the rest of
the game (the opponents play for points, whatever the mover does), so the best of them is a
chance the bot can make sure of, and deciding again every turn does at least as well (the
policy improvement of dynamic programming). With points play among them (``to_win``'s own
valuation) the bot is never below ``to_win`` in its model.

Tables: ``manage.py build_risk`` (a few minutes of CPU per play; never by a request). Without
them the bot plays as ``to_win``.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from game.rules import Game, Ruleset
from game.rules.rulesets import JokerRule

from . import score_table
from .actions import Action
from .advice import Advisor, CardState
from .distribution import table_futures
from .scoring import FloatArray, IntArray, ScoreTables
from .solver import Solution, solve
from .standings import Standings
from .storage import _score_fingerprint, get_solution, table_path
from .to_win import Distribution, StateKey, TurnChances, WinWeights, play, standings_of, win_weights

#: The plays besides points play: their taste for risk, per point (a final score's sd is ~60
#: points, so 0.01 values a spread of 60 at ~18 points of certainty).
RISKS: Final = (-0.03, -0.01, 0.01, 0.03)
#: The risk tables' own format.
RISK_VERSION: Final = 1
#: Chances closer than this are equal (float32 tables): the first play (points) keeps it.
TIE: Final = 1e-6
#: Futures kept per play (the states a game's turns lead to: a few dozen a turn).
FUTURES_KEPT: Final = 20_000


def risk_path(ruleset: Ruleset, risk: float) -> Path:
    path = table_path(ruleset)
    return path.with_name(f"{path.stem}-risk{risk:+.3f}-v{RISK_VERSION}.npz")


def _fingerprint(tables: ScoreTables, risk: float) -> str:
    return hashlib.sha256(repr((_score_fingerprint(tables), float(risk),
                                RISK_VERSION)).encode()).hexdigest()


@dataclass
class RiskPlay:
    """One play: its solution (certainty equivalents) and its distributions of points to come."""

    adv: Advisor
    table: score_table.ScoreTable

    def __post_init__(self) -> None:
        self._futures: OrderedDict[StateKey, Distribution] = OrderedDict()
        self._lock = threading.Lock()

    def futures(self, keys: Sequence[StateKey]) -> list[Distribution]:
        """The points to come from the states ``keys`` between turns under this play, as the
        standings give points play's: the turn played out over the table's distributions of
        the states after it (exact up to five boxes open; the table's quantiles alone are
        within 3.1 % of a chance of the exact distribution, more than what usually separates
        the plays, though the two measured alike: docs/ai.md). Kept: a game's turns lead to
        many of the same states."""
        full = self.adv.tables.full
        with self._lock:
            missing = [k for k in dict.fromkeys(keys) if k[0] != full and k not in self._futures]
            if missing:
                self._futures.update(zip(missing, table_futures(self.adv, self.table, missing),
                                         strict=True))
            found = [(0, _SURE) if k[0] == full else self._futures[k] for k in keys]
            while len(self._futures) > FUTURES_KEPT:
                self._futures.popitem(last=False)
            return found

    def read(self, keys: Sequence[StateKey]) -> list[Distribution]:
        """:meth:`futures` from the table's own distributions alone (quantiles before the last
        ``EXACT_LEVELS`` levels): a fifth of the cost, but see :meth:`futures`."""
        full = self.adv.tables.full
        return [(0, _SURE) if k[0] == full else self.table.distribution(k) for k in keys]


_SURE = np.ones(1)


def build(rules: str | Ruleset, risk: float, joker: JokerRule | None = None,
          progress: Callable[[int], None] | None = None) -> tuple[RiskPlay, float]:
    """Solve the play of ``risk``, build its distributions and store both beside the strategy
    table; returns the play and the seconds taken."""
    tables = get_solution(rules, joker).tables
    start = time.perf_counter()
    solution = solve(tables, progress, risk=risk)
    table, _ = score_table.build(solution, progress)
    seconds = time.perf_counter() - start
    found = RiskPlay(Advisor(solution), table)
    save(risk_path(tables.ruleset, risk), found, seconds)
    return found, seconds


def save(path: Path, found: RiskPlay, seconds: float = 0.0) -> None:
    """Write atomically: a temporary file in the same directory, then a rename."""
    solution, table = found.adv.solution, found.table
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o644)
        with os.fdopen(fd, "wb") as f:
            np.savez(f, values=solution.values, row=table.row, exact_start=table.exact_start,
                     exact_lo=table.exact_lo, exact_probs=table.exact_probs,
                     quantiles=table.quantiles, levels=table.levels,
                     exact_open=np.int64(table.exact_open), risk=np.float64(solution.risk),
                     fingerprint=np.str_(_fingerprint(solution.tables, solution.risk)),
                     build_seconds=np.float64(seconds))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path, tables: ScoreTables, risk: float) -> RiskPlay | None:
    """The play stored at ``path``, or None if it is missing, stale or unreadable."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["fingerprint"]) != _fingerprint(tables, risk):
                return None
            values = data["values"]
            nan = np.full_like(values, np.nan)
            solution = Solution(tables, values, nan, nan, float(data["risk"]))
            table = score_table.ScoreTable(
                data["row"], data["exact_start"], data["exact_lo"], data["exact_probs"],
                data["quantiles"], data["levels"], int(data["exact_open"]))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None
    return RiskPlay(Advisor(solution), table)


_plays: dict[tuple[str, str], tuple[RiskPlay, ...]] = {}
_plays_lock = threading.Lock()


def loaded(solution: Solution) -> tuple[RiskPlay, ...]:
    """The plays of ``RISKS`` on disk for the solution's ruleset (read once per process);
    those missing or stale are left out."""
    ruleset = solution.tables.ruleset
    key = (ruleset.name, str(table_path(ruleset)))
    with _plays_lock:
        found = _plays.get(key)
        if found is None:
            plays = (load(risk_path(ruleset, r), solution.tables, r) for r in RISKS)
            found = _plays[key] = tuple(p for p in plays if p is not None)
        return found


class RiskEnds:
    """Every player's chance at a turn's end when the mover then keeps to the best of the plays
    (points play first: another play is taken only for a chance more than ``margin`` above
    the best before it)."""

    tie = TIE

    def __init__(self, weights: WinWeights, mover: int,
                 plays: Sequence[Callable[[Sequence[StateKey]], list[Distribution]]],
                 margin: float = TIE) -> None:
        self.weights, self.mover, self.plays, self.margin = weights, mover, plays, margin
        self.players = weights.players

    def __call__(self, afters: Sequence[StateKey], totals: Sequence[IntArray]
                 ) -> list[FloatArray]:
        best: list[FloatArray] = []
        for futures in self.plays:
            dists = futures(afters)
            found = [self.weights.chances(banked + lo, probs)
                     for banked, (lo, probs) in zip(totals, dists, strict=True)]
            if not best:
                best = found
                continue
            for kept, new in zip(best, found, strict=True):
                better = new[self.mover] > kept[self.mover] + self.margin
                kept[:, better] = new[:, better]
        return best


def risk_turn(standings: Standings, plays: Sequence[RiskPlay], states: Sequence[CardState],
              mover: int, margin: float = TIE, played_out: bool = True) -> TurnChances:
    """The mover's turn valued by :class:`RiskEnds` over points play and ``plays`` (their
    futures played out one turn, or with ``played_out`` False read from their tables)."""
    dists = [standings.distribution(p, s) for p, s in enumerate(states)]
    ends = RiskEnds(win_weights(dists, mover), mover,
                    [standings.points_to_come,
                     *(p.futures if played_out else p.read for p in plays)], margin)
    return TurnChances(standings.adv, states[mover], mover, ends)


def choose(game: Game, margin: float = TIE, played_out: bool = True) -> Action:
    """The move with the best chance to win, every later turn played by the best of the plays
    (as ``to_win.choose`` where their tables are missing)."""
    plays = loaded(standings_of(game).adv.solution)

    def solve_turn(standings: Standings, states: tuple[CardState, ...], mover: int
                   ) -> TurnChances:
        return risk_turn(standings, plays, states, mover, margin, played_out)

    return play(game, f"risk {margin} {played_out}", solve_turn)

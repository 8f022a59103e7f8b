"""The running figures' counting as it stood when migration 0018 counted the games recorded
before them: frozen here, so that the migration gives the same rows whatever
``services.stats`` becomes (a migration must not import live code)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, Protocol


class Result(Protocol):
    """What a tally reads of a ``GameResult`` (a historical model's row will do)."""

    game_id: int
    seat: int
    player_id: int | None
    bot_level: str
    name: str
    rules: str
    final: int
    luck: float
    decisions: int
    graded_loss: float
    grades: dict[str, int]


def rival_key(result: Result) -> str | None:
    """Whom a seat is, as an opponent: a person, a computer level, or nobody to follow (a
    guest from before player records)."""
    if result.player_id is not None:
        return f"p{result.player_id}"
    if result.bot_level:
        return f"b{result.bot_level}"
    return None


@dataclass
class RulesetTally:
    games: int = 0
    final_sum: int = 0
    best: int | None = None
    worst: int | None = None
    luck_sum: float = 0.0
    loss_sum: float = 0.0
    decisions: int = 0
    grades: Counter[str] = field(default_factory=Counter)
    finals: Counter[str] = field(default_factory=Counter)

    def add(self, r: Result) -> None:
        self.games += 1
        self.final_sum += r.final
        self.best = r.final if self.best is None else max(self.best, r.final)
        self.worst = r.final if self.worst is None else min(self.worst, r.final)
        self.luck_sum += r.luck
        self.loss_sum += r.graded_loss
        self.decisions += r.decisions
        self.grades.update({g: n for g, n in r.grades.items() if n})
        self.finals[str(r.final)] += 1  # JSON keys are text

    def onto(self, row: Any) -> None:
        """Add these games to a ``PlayerStats`` row."""
        assert self.best is not None and self.worst is not None
        row.best = self.best if not row.games else max(row.best, self.best)
        row.worst = self.worst if not row.games else min(row.worst, self.worst)
        row.games += self.games
        row.final_sum += self.final_sum
        row.luck_sum += self.luck_sum
        row.loss_sum += self.loss_sum
        row.decisions += self.decisions
        row.grades = dict(Counter(row.grades) + self.grades)
        row.finals = dict(Counter(row.finals) + self.finals)


@dataclass
class RivalTally:
    rival_id: int | None
    bot_level: str
    name: str = ""
    games: int = 0
    wins: int = 0
    draws: int = 0
    adjusted_wins: int = 0
    adjusted_margin_sum: float = 0.0

    def add(self, me: Result, them: Result) -> None:
        self.name = them.name or self.name
        self.games += 1
        self.wins += me.final > them.final
        self.draws += me.final == them.final
        margin = (me.final - me.luck) - (them.final - them.luck)
        self.adjusted_wins += margin > 0
        self.adjusted_margin_sum += margin

    def onto(self, row: Any) -> None:
        """Add these games to a ``Rivalry`` row."""
        row.name = self.name or row.name
        row.games += self.games
        row.wins += self.wins
        row.draws += self.draws
        row.adjusted_wins += self.adjusted_wins
        row.adjusted_margin_sum += self.adjusted_margin_sum


STATS_FIELDS = ["games", "final_sum", "best", "worst", "luck_sum", "loss_sum", "decisions",
                "grades", "finals"]
RIVALRY_FIELDS = ["name", "games", "wins", "draws", "adjusted_wins", "adjusted_margin_sum"]


@dataclass
class Tally:
    """Games' results counted per (player, ruleset) and per (player, opponent), for the
    people in ``only`` (everyone if None), and against the opponents in ``against`` (every
    opponent if None: ``p<id>`` or ``b<level>`` keys)."""

    only: Collection[int] | None = None
    against: Collection[str] | None = None
    rulesets: dict[tuple[int, str], RulesetTally] = field(default_factory=dict)
    rivals: dict[tuple[int, str], RivalTally] = field(default_factory=dict)

    def add_game(self, results: Sequence[Result]) -> None:
        """One game's results (every seat of it)."""
        for me in results:
            if me.player_id is None or (self.only is not None and me.player_id not in self.only):
                continue
            if self.against is None:
                self.rulesets.setdefault((me.player_id, me.rules), RulesetTally()).add(me)
            for them in results:
                key = rival_key(them)
                if (them.seat == me.seat or them.player_id == me.player_id or key is None
                        or (self.against is not None and key not in self.against)):
                    continue
                self.rivals.setdefault((me.player_id, key), RivalTally(
                    them.player_id, "" if them.player_id is not None else them.bot_level,
                )).add(me, them)

    def add_games(self, results: Iterable[Result]) -> None:
        """Results of whole games, each game's seats together (ordered by game)."""
        for _, seats in groupby(results, key=lambda r: r.game_id):
            self.add_game(list(seats))


def new_rows(tally: Tally, stats_model: Any, rivalry_model: Any) -> tuple[list[Any], list[Any]]:
    """The rows a tally makes where its players have none yet (unsaved; the models may be a
    migration's historical ones)."""
    stats = []
    for (player, rules), counted in sorted(tally.rulesets.items()):
        row = stats_model(player_id=player, rules=rules, games=0, final_sum=0, best=0,
                          worst=0, luck_sum=0.0, loss_sum=0.0, decisions=0, grades={},
                          finals={})
        counted.onto(row)
        stats.append(row)
    rivals = []
    for (player, key), met in sorted(tally.rivals.items()):
        row = rivalry_model(player_id=player, key=key, rival_id=met.rival_id,
                            bot_level=met.bot_level, name="", games=0, wins=0, draws=0,
                            adjusted_wins=0, adjusted_margin_sum=0.0)
        met.onto(row)
        rivals.append(row)
    return stats, rivals

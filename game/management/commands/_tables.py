"""Loading a strategy table from a command, with a progress bar on stderr when it must be
built first (once per data directory, a minute or more) or is being built by another process.
A leading underscore: Django does not take this module for a command."""

from __future__ import annotations

from typing import Any, TextIO

from tqdm import tqdm

from game.ai import get_solution
from game.ai.scoring import score_tables, solver_ruleset
from game.ai.solver import Solution, count_states


class _LazyBar:
    """A bar that appears on the first progress report only: loading a built table is quiet."""

    def __init__(self, rules: str, joker: str | None, stream: TextIO) -> None:
        self.rules, self.joker, self.stream = rules, joker, stream
        self.bar: Any = None

    def __call__(self, n: int) -> None:
        if self.bar is None:
            ruleset = solver_ruleset(self.rules, self.joker)  # type: ignore[arg-type]
            self.stream.write(f"Building the {ruleset.name} strategy table (once per data "
                              "directory; later runs load it)...\n")
            self.bar = tqdm(total=count_states(score_tables(ruleset)), unit="state",
                            unit_scale=True, desc=ruleset.name, file=self.stream)
        self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def solution_with_progress(rules: str, joker: str | None, stream: TextIO) -> Solution:
    bar = _LazyBar(rules, joker, stream)
    try:
        return get_solution(rules, joker, progress=bar)  # type: ignore[arg-type]
    finally:
        bar.close()

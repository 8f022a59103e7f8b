"""A stored game's scorecards as a table: one column per player and scorecard column (three
per player in Triple Yahtzee), one row per box, then the sums."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.utils.translation import pgettext, pgettext_lazy

from ..domain.translated import box_label
from ..models import Game
from ..rules import Ruleset, get_ruleset

#: The sums under the boxes, each a key of a scorecard column in ``Game.snapshot``, named as
#: the room page and the game page name them (``TOTALS`` in static/game/shared/scorecard.js).
SUMS = ((pgettext_lazy("sum", "Upper section"), "upper_subtotal"),
        (pgettext_lazy("sum", "Upper bonus"), "upper_bonus"),
        (pgettext_lazy("sum", "Yahtzee bonus"), "yahtzee_bonus"),
        (pgettext_lazy("sum", "Column total"), "total"))


def sums_of(ruleset: Ruleset) -> list[tuple[str, str]]:
    """The sums a game of ``ruleset`` has: no Yahtzee bonus in Yatzy, and its one column's
    total is the total."""
    found = [(title, key) for title, key in SUMS
             if key != "yahtzee_bonus" or ruleset.yahtzee_bonus]
    if ruleset.columns == 1:
        found = [(pgettext("sum", "Total"), key) if key == "total" else (title, key)
                 for title, key in found]
    return [(str(title), key) for title, key in found]


class Header(NamedTuple):
    player: str
    column: int  # from 1
    multiplier: int


class Row(NamedTuple):
    title: str
    #: Per table column: the points, or None for an open box.
    cells: list[int | None]
    key: str = ""  # a sum's key in the snapshot; "" for a box


@dataclass(frozen=True)
class ScorecardTable:
    ruleset: Ruleset
    headers: list[Header]
    boxes: list[Row]
    sums: list[Row]
    #: Per player: their name and final (or current) total.
    totals: list[tuple[str, int | None]]

    @property
    def has_cards(self) -> bool:
        return bool(self.totals)


def scorecard_table(game: Game) -> ScorecardTable:
    """The table of ``game``'s scorecards as of its snapshot (none before the game starts)."""
    ruleset = get_ruleset(game.rules)
    cards = game.snapshot.get("scorecards") or []
    columns = range(ruleset.columns)

    def row(title: str, key: str, cell) -> Row:
        return Row(title, [cell(card["columns"][c]) for card in cards for c in columns], key)

    return ScorecardTable(
        ruleset=ruleset,
        headers=[Header(name, c + 1, ruleset.multipliers[c])
                 for name in game.players for c in columns],
        boxes=[row(box_label(box.label), "", lambda col, name=box.name: col["boxes"].get(name))
               for box in ruleset.boxes],
        sums=[row(label, key, lambda col, key=key: col[key]) for label, key in sums_of(ruleset)],
        totals=list(zip(game.players, [card.get("total") for card in cards], strict=False)),
    )

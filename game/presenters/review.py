"""The analysis of a finished game as its page shows it: read from the stored review
(``GameAnalysis.data``, the JSON of ``game.ai.review``), never computed again.

:func:`review_view` gives two parts:

- ``players``: one summary per seat, for the template, laid out as the chain of the review
  (start + luck − points lost [+ drift] = final) with the mean loss, its reading and the grade
  counts, in plain words;
- ``script``: only what the page's script needs, small enough for a 6-player page (the move
  list's marks, each roll's luck, the chart's lines)::

    {"exact": true,
     "decisions": [{"seq": 4, "grade": "inaccuracy", "loss": 0.207, "best": [5],
                    "chance_loss": 0.0123, "best_to_win": [5, 5]},
                   {"seq": 9, "grade": "best", "loss": 0},
                   {"seq": 31, "grade": "mistake", "loss": 1.2, "best": "chance@2",
                    "autoplay": true}, ...],
     "luck": [[3, -4.65], [4, 1.82], ...],          # [seq, luck of that roll]
     "series": [[[1, 254.59], [3, 249.94], ...], ...]}  # per player: [seq, expected final]

  ``best`` is left out where the choice was the best; forced moves (one legal option) are
  left out. ``best`` is the dice values kept (a list) or a box name (``box@c`` in triple).
  In games of two or more players (yahtzee, yatzy) each decision also has ``chance_loss``: the
  chance to win it gave up against the best option for winning (0 to 1), and
  ``best_to_win``, that option, where it is not the choice made.

- ``players[i]["chance"]``: the player's chance to win as a chain (start + luck − lost + the
  others' decisions + drift = the outcome), in percent for the template, or None.
- ``players[i]["as_high"]``: how the final score stood against the chances before the game,
  a sentence ("From an empty card, 25 % of games end on 273 or more."), or None (triple, a
  game ended early, a review from before the figure).

:func:`headline` gives the review's first words, for anyone: the result and why, in whole
points rounded from the very figures of the chains below it ("You lost by 73 points to Bob.
The dice cost you 46 points, your choices 28.").

:func:`tried_view` gives one decision's options for "Try it yourself" (``views.game_try``).

``None`` when there is no analysis, or one of another format (``manage.py analyse`` redoes
it): the page then says it is being prepared.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

from ..ai.review import FORCED, GRADES, SYMBOLS, VERSION, DecisionOptions, grade
from ..ai.triple import ENDGAME_OPEN
from ..domain.translated import figure

#: Tom Verhoeff's proficiency-test reading of the mean loss per decision.
EXPERT_MEAN_LOSS = 0.2

#: Each grade's name, for one decision and for several (``grade_label``).
GRADE_LABELS = {"best": ("best", "best"), "good": ("good", "good"),
                "inaccuracy": ("inaccuracy", "inaccuracies"), "mistake": ("mistake", "mistakes"),
                "blunder": ("blunder", "blunders")}


def grade_label(grade: str, count: int) -> str:
    """A grade's name for ``count`` decisions, in the active language ("3 mistakes")."""
    # The catalogs' copies of GRADE_LABELS (ngettext needs its strings written out).
    if grade == "best":
        return npgettext("grade", "best", "best", count)
    if grade == "good":
        return npgettext("grade", "good", "good", count)
    if grade == "inaccuracy":
        return npgettext("grade", "inaccuracy", "inaccuracies", count)
    if grade == "mistake":
        return npgettext("grade", "mistake", "mistakes", count)
    if grade == "blunder":
        return npgettext("grade", "blunder", "blunders", count)
    return GRADE_LABELS[grade][count != 1]


def review_view(data: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What the game's page shows of the stored analysis ``data``, or None if it has none."""
    if not data or data.get("version") != VERSION:
        return None
    exact = data["valuation"] == "exact"
    return {
        "exact": exact,
        # Triple: from how many open boxes on its valuation is exact (the end game).
        "endgame_open": ENDGAME_OPEN,
        "players": [_summary(p, exact) | {"chance": _chance_chain(p.get("chance"))}
                    for p in data["players"]],
        "script": {
            "exact": exact,
            "decisions": [_decision(d) for d in data["decisions"] if d["grade"] != FORCED],
            "luck": [[r["seq"], round(r["luck"], 2)] for r in data["rolls"]],
            "series": _series(data["series"], len(data["players"])),
            # Each player's chance to win at each turn's start (none for triple or solitaire).
            "chances": [[seq, [round(c, 3) for c in cs]] for seq, cs in data.get("chances", [])],
        },
    }


def _summary(player: Mapping[str, Any], exact: bool) -> dict[str, Any]:
    decisions = player["decisions"]
    mean = player["mean_loss"]
    # The chain as the page writes it, one term a row: start, ± luck, − loss [± drift], = final.
    terms = [
        {"label": _("Best play scores, on average"), "op": "", "value": _points(
            player["expected_start"])},
        {"label": _("Luck of the dice"), **_signed(player["luck"])},
        {"label": _("Points lost to the choices"), "op": "−",
         "value": _points(player["loss"])},
    ]
    if not exact:
        terms.append({"label": _("Correction of the estimate (below)"),
                      **_signed(player["drift"])})
    return {
        "terms": terms,
        "name": player["name"],
        "start": player["expected_start"],
        "luck": player["luck"],
        "loss": player["loss"],
        # Exact tables: ~1e-13, not a term of the sum. Triple: the valuation's jumps.
        "drift": None if exact else player["drift"],
        "final": player["final"],
        "decisions": decisions,
        "mean_loss": mean if decisions else None,
        "expert": bool(decisions) and mean < EXPERT_MEAN_LOSS,
        "grades": [{"grade": g, "symbol": SYMBOLS[g], "count": player["grades"][g],
                    "label": grade_label(g, player["grades"][g])} for g in GRADES],
        "autoplay_decisions": player["autoplay_decisions"],
        "autoplay_loss": player["autoplay_loss"],
        "as_high": _as_high(player["final"], player.get("as_high")),
    }


def headline(view: Mapping[str, Any], viewer: int | None = None, par: int | None = None
             ) -> dict[str, Any]:
    """The review's first words (``review_view``'s ``view``, names as the reader sees them):
    ``{"title": the result, "lines": why, in sentences, "groups": the same by player}``.
    From ``viewer``'s side when they played (their seat), else about each player (winners
    first; the winners alone at a table of more than ``WATCHED_IN_FULL``); a solo game says
    the score and how it compares (against ``par``, a daily's; else against the chances from
    an empty card)."""
    players = view["players"]
    finals = [p["final"] for p in players]
    you = viewer if viewer is not None and 0 <= viewer < len(players) else None
    if len(players) == 1:
        return _said(_score_title(players[0], you == 0),
                     [_solo_comparison(players[0], par) + _why(players[0], you == 0)])
    best = max(finals)
    winners = [i for i, f in enumerate(finals) if f == best]
    names = get_text_list([players[i]["name"] for i in winners], _("and"))
    runner_up = max((f for f in finals if f != best), default=best)
    margin = best - runner_up
    if you is not None:
        if you in winners and len(winners) > 1:
            others = get_text_list([players[i]["name"] for i in winners if i != you], _("and"))
            title = ngettext("You tied for the win with %(names)s on %(score)s point.",
                             "You tied for the win with %(names)s on %(score)s points.",
                             best) % {"names": others, "score": best}
        elif you in winners:
            title = ngettext("You won by %(margin)s point.", "You won by %(margin)s points.",
                             margin) % {"margin": margin}
        else:
            behind = best - finals[you]
            title = ngettext("You lost by %(margin)s point to %(winner)s.",
                             "You lost by %(margin)s points to %(winner)s.",
                             behind) % {"margin": behind, "winner": names}
        return _said(title, [_why(players[you], True)])
    if len(winners) > 1:
        title = ngettext("%(names)s tied for the win on %(score)s point.",
                         "%(names)s tied for the win on %(score)s points.",
                         best) % {"names": names, "score": best}
    else:
        title = ngettext("%(name)s won by %(margin)s point.", "%(name)s won by %(margin)s points.",
                         margin) % {"name": names, "margin": margin}
    # About each player, the winners first, at a table of up to three; else the winners.
    told = sorted(range(len(players)), key=lambda i: -finals[i])
    if len(players) > WATCHED_IN_FULL:
        told = winners
    return _said(title, [_why(players[i], False) for i in told])


def _said(title: str, groups: list[list[str]]) -> dict[str, Any]:
    """The headline: its title, the sentences after it by player (``groups``, each drawn on a
    line of its own) and all of them in a row (``lines``)."""
    return {"title": title, "groups": groups, "lines": [line for g in groups for line in g]}


#: A reader who did not play reads why about each player up to this many, else the winners.
WATCHED_IN_FULL = 3


def whole_points(x: float) -> int:
    """A chain's figure (written to 2 decimals below the headline) in whole points, halves up,
    from the very figure the chain writes."""
    return int(Decimal(f"{abs(x):.2f}").quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _score_title(player: Mapping[str, Any], yours: bool) -> str:
    score = player["final"]
    if yours:
        return ngettext("You scored %(score)s point.", "You scored %(score)s points.",
                        score) % {"score": score}
    return ngettext("%(name)s scored %(score)s point.", "%(name)s scored %(score)s points.",
                    score) % {"name": player["name"], "score": score}


def _solo_comparison(player: Mapping[str, Any], par: int | None) -> list[str]:
    """How a solo game's score compares: against par (a daily's), else the chances from an
    empty card (the sentence of the player's card)."""
    if par is None:
        return [player["as_high"]] if player.get("as_high") else []
    diff = player["final"] - par
    if diff == 0:
        return [_("That is par exactly: the best play on the same dice.")]
    values = {"diff": abs(diff), "par": par}
    if diff < 0:
        return [ngettext("That is %(diff)s point under par (%(par)s, the best play on the same "
                         "dice).", "That is %(diff)s points under par (%(par)s, the best play on "
                         "the same dice).", abs(diff)) % values]
    return [ngettext("That is %(diff)s point over par (%(par)s, the best play on the same dice).",
                     "That is %(diff)s points over par (%(par)s, the best play on the same "
                     "dice).", abs(diff)) % values]


def _why(player: Mapping[str, Any], yours: bool) -> list[str]:
    """What the dice and the choices did to ``player``'s score: the chain's luck and points
    lost in whole points; how many choices cost 5 points or more; the computer's share."""
    luck, loss = whole_points(player["luck"]), whole_points(player["loss"])
    values = {"luck": luck, "loss": loss, "name": player["name"]}
    if luck == 0:
        line = (ngettext("Your dice were average; your choices cost %(loss)s point.",
                         "Your dice were average; your choices cost %(loss)s points.", loss)
                if yours else
                ngettext("%(name)s: average dice, the choices cost %(loss)s point.",
                         "%(name)s: average dice, the choices cost %(loss)s points.", loss))
    elif player["luck"] < 0:
        line = (ngettext("The dice cost you %(luck)s point, your choices %(loss)s.",
                         "The dice cost you %(luck)s points, your choices %(loss)s.", luck)
                if yours else
                ngettext("%(name)s: the dice cost %(luck)s point, the choices %(loss)s.",
                         "%(name)s: the dice cost %(luck)s points, the choices %(loss)s.", luck))
    else:
        line = (ngettext("The dice gave you %(luck)s point more than average; your choices cost "
                         "%(loss)s.", "The dice gave you %(luck)s points more than average; your "
                         "choices cost %(loss)s.", luck)
                if yours else
                ngettext("%(name)s: the dice gave %(luck)s point more than average, the choices "
                         "cost %(loss)s.", "%(name)s: the dice gave %(luck)s points more than "
                         "average, the choices cost %(loss)s.", luck))
    lines = [line % values]
    # A blunder is a choice that cost 5 points or more (game.ai.review.grade).
    big = next(g["count"] for g in player["grades"] if g["grade"] == "blunder")
    if big:
        lines.append((ngettext("%(count)s of your choices cost 5 points or more.",
                               "%(count)s of your choices cost 5 points or more each.", big)
                      if yours else
                      ngettext("%(name)s made %(count)s choice that cost 5 points or more.",
                               "%(name)s made %(count)s choices that cost 5 points or more each.",
                               big)) % {"count": big, "name": player["name"]})
    autoplay = player["autoplay_decisions"]
    if autoplay:
        lines.append((ngettext("The computer chose for you %(count)s time while you were away "
                               "(in the points above).", "The computer chose for you %(count)s "
                               "times while you were away (in the points above).", autoplay)
                      if yours else
                      ngettext("The computer chose for %(name)s %(count)s time while away (in "
                               "the points above).", "The computer chose for %(name)s %(count)s "
                               "times while away (in the points above).", autoplay))
                     % {"count": autoplay, "name": player["name"]})
    return lines


def _as_high(final: int, chance: float | None) -> str | None:
    """How the final score stood against the chances before the game, in a sentence under it
    in the player's card (None where the review has no such figure: triple, a game ended
    early)."""
    if chance is None:
        return None
    percent = 100 * chance
    if percent < 0.05:  # would be written 0.0
        return _("From an empty card, under %(percent)s %% of games end on %(final)s or "
                 "more.") % {"final": final, "percent": figure(0.1, 1)}
    if percent >= 99.95:  # would be written 100.0
        return _("From an empty card, over %(percent)s %% of games end on %(final)s or "
                 "more.") % {"final": final, "percent": figure(99.9, 1)}
    places = 0 if 1 <= percent <= 99 else 1
    return _("From an empty card, %(percent)s %% of games end on %(final)s or more.") % {
        "final": final, "percent": figure(percent, places)}


def _points(x: float) -> str:
    """A term of the chain as the table writes it, in the reader's notation (German 12,50)."""
    return figure(abs(x), 2)


def _signed(x: float) -> dict[str, str]:
    return {"op": "−" if round(x, 2) < 0 else "+", "value": _points(x)}


def _chance_chain(chain: Mapping[str, float] | None) -> list[dict[str, str]] | None:
    """A player's chance to win as the page writes it, one term a row, in percentage points."""
    if chain is None:
        return None

    def pp(x: float) -> str:
        return figure(abs(100 * x), 1)

    def signed(x: float) -> dict[str, str]:
        return {"op": "−" if round(100 * x, 1) < 0 else "+", "value": pp(x)}

    return [
        {"label": _("Chance to win before the game"), "op": "", "value": pp(chain["start"])},
        {"label": _("Luck of the dice (everyone’s)"), **signed(chain["luck"])},
        {"label": _("Lost to their own choices"), "op": "−", "value": pp(chain["loss"])},
        {"label": _("The others’ choices"), **signed(chain["others"])},
        {"label": _("Correction of the estimate"), **signed(chain["drift"])},
        {"label": _("Chance to win at the end (won or lost)"), "op": "=",
         "value": pp(chain["final"])},
    ]


def _decision(decision: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"seq": decision["seq"], "grade": decision["grade"],
                           "loss": round(decision["loss"], 3)}
    if "chance_loss" in decision:
        out["chance_loss"] = round(decision["chance_loss"], 4)
        if decision["best_to_win"] != decision["chosen"]:
            out["best_to_win"] = decision["best_to_win"]
    if decision["grade"] != "best":
        out["best"] = decision["best"]
    if decision["by"] == "autoplay":
        out["autoplay"] = True
    return out


def _series(changes: list[list[Any]], players: int) -> list[list[list[float]]]:
    """The stored step changes ``[seq, player, value]`` as one line of points per player."""
    lines: list[list[list[float]]] = [[] for _ in range(players)]
    for seq, player, value in changes:
        lines[player].append([seq, round(value, 2)])
    return lines


def tried_view(options: DecisionOptions) -> dict[str, Any]:
    """One decision with every option a reviewer may take instead, each with what it costs
    against the best and its grade, rounded as the page's marks are (``_decision``)::

        {"seq": 9, "player": 0, "dice": [1, 3, 3, 5, 6], "rolls_left": 2,
         "chosen": [], "best": [3, 3], "expected_best": 251.405,
         "holds": [{"keep": [3, 3], "expected": 251.405, "loss": 0, "grade": "best"}, ...],
         "boxes": [{"box": "chance", "points": 18, "expected": 240.2, "loss": 11.2,
                    "grade": "blunder"}, ...]}

    ``holds`` leaves out keeping all five (nothing to re-roll: scoring is the choice then);
    ``box`` is a slot name (``box@c`` in triple). Best first in each list.
    """
    def priced(option: tuple[int, ...] | str, value: float) -> dict[str, Any]:
        loss = options.loss(option)
        return {"expected": round(value, 3), "loss": round(loss, 3), "grade": grade(loss)}

    holds = [{"keep": list(hold), **priced(hold, value)}
             for hold, value in options.holds.items() if len(hold) < len(options.dice)]
    boxes = [{"box": box, "points": options.points[box], **priced(box, value)}
             for box, value in options.boxes.items()]
    return {
        "seq": options.seq, "player": options.player, "dice": list(options.dice),
        "rolls_left": options.rolls_left,
        "chosen": options.chosen if isinstance(options.chosen, str) else list(options.chosen),
        "best": options.best if isinstance(options.best, str) else list(options.best),
        "expected_best": round(options.expected_best, 3),
        "holds": sorted(holds, key=lambda o: o["loss"]),
        "boxes": sorted(boxes, key=lambda o: o["loss"]),
    }

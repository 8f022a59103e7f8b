"""What the rules say, in the reader's language: the one place the Django side turns the pure
packages' English into the active language (the terminal game and the command line keep the
English).

- :func:`message`: a refusal's sentence (``CodedError``: its ``template`` translated, then
  filled with its ``params``, box labels and ruleset titles among them translated too);
- :func:`box_label` and :func:`ruleset_title`: the names the rules give in English
  (:func:`box_name_label` by a box's stable name);
- :func:`ruleset_data`: ``Ruleset.to_dict()`` as a page draws it, its labels translated;
- :func:`figure`: a number people read, as Python preformats it, in the reader's notation.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from ..rules import RULESETS, Ruleset, get_ruleset
from ..rules.errors import BoxLabel, CodedError, RulesetTitle

# The English labels and titles of game.rules.rulesets, marked here for the catalogs (the
# rules import no Django); tests/i18n checks that every one of the rules' is listed.
BOX_LABELS = (
    pgettext_lazy("box", "Ones"), pgettext_lazy("box", "Twos"), pgettext_lazy("box", "Threes"),
    pgettext_lazy("box", "Fours"), pgettext_lazy("box", "Fives"), pgettext_lazy("box", "Sixes"),
    pgettext_lazy("box", "Three of a kind"), pgettext_lazy("box", "Four of a kind"),
    pgettext_lazy("box", "Full house"), pgettext_lazy("box", "Small straight"),
    pgettext_lazy("box", "Large straight"), pgettext_lazy("box", "Yahtzee"),
    pgettext_lazy("box", "Chance"), pgettext_lazy("box", "One pair"),
    pgettext_lazy("box", "Two pairs"), pgettext_lazy("box", "Yatzy"),
)
RULESET_TITLES = (
    pgettext_lazy("ruleset", "Yahtzee"), pgettext_lazy("ruleset", "Yatzy"),
    pgettext_lazy("ruleset", "Triple Yahtzee"),
)


def box_label(label: str) -> str:
    """A box's English label ("Full house") in the active language."""
    return str(pgettext("box", label))


#: Each box's English label by its name (``"full_house"``), the same in every ruleset.
_LABEL_OF_BOX = {box.name: box.label for ruleset in RULESETS.values() for box in ruleset.boxes}


def box_name_label(name: str) -> str:
    """The label of the box named ``name`` (a stored event's ``"full_house"``) in the active
    language; an unknown name as it is."""
    label = _LABEL_OF_BOX.get(name)
    return box_label(label) if label else name


def ruleset_title(title: str) -> str:
    """A ruleset's English title ("Triple Yahtzee") in the active language."""
    return str(pgettext("ruleset", title))


def _param(value: Any) -> Any:
    if isinstance(value, BoxLabel):
        return box_label(value)
    if isinstance(value, RulesetTitle):
        return ruleset_title(value)
    return value


def message(error: CodedError) -> str:
    """``error``'s sentence in the active language (English where the catalog has none)."""
    text = str(gettext(error.template))
    if not error.params:
        return text
    try:
        return text % {name: _param(value) for name, value in error.params.items()}
    except (KeyError, ValueError, TypeError):  # a translation that lost a placeholder
        return error.message


def ruleset_data(ruleset: str | Ruleset) -> dict[str, Any]:
    """``Ruleset.to_dict()`` for a page: its title and its boxes' labels in the active
    language (names, the stable keys, unchanged)."""
    data = get_ruleset(ruleset).to_dict()
    data["title"] = ruleset_title(data["title"])
    data["boxes"] = [{**box, "label": box_label(box["label"])} for box in data["boxes"]]
    return data


def figure(value: float, places: int, *, signed: bool = False) -> str:
    """``value`` rounded to ``places`` decimals as ``f"{value:.2f}"`` rounds it ("+" before a
    positive one if ``signed``), written the reader's way (German "12,50"). Only for text
    people read: never for JSON, attributes, geometry or URLs."""
    # Through a Decimal: number_format cuts a float's digits instead of rounding them.
    text = number_format(Decimal(f"{value:.{places}f}"), places)
    return f"+{text}" if signed and not text.startswith("-") else text


def time_left(seconds: float) -> str:
    """"2 days", "5 hours", "40 minutes": how long a move has left, roughly, rounded down."""
    seconds = max(0.0, seconds)
    if seconds >= 86400:
        days = int(seconds // 86400)
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    if seconds >= 3600:
        hours = int(seconds // 3600)
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    minutes = max(1, int(seconds // 60))
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}

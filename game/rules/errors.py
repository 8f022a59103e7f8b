"""Every way a move can be illegal, each with a stable code and a sentence a player can read.

The ``code`` is part of the public contract: the websocket protocol sends it to clients in
``error`` messages and the command line prints the sentence.

The sentence is kept as a ``template`` with named ``params``: ``message`` is the English one
(the terminal game and the command line print it), and the Django side translates the
template into a reader's language (``game.translated.message``). This package imports no
Django: templates are marked with :func:`gettext_noop` for the catalogs, and a param that is a
box's label or a ruleset's title says so by its type (:class:`BoxLabel`, :class:`RulesetTitle`)
so that it is translated too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks it for the catalogs (xgettext extracts the calls)."""
    return message


class BoxLabel(str):
    """A box's English label inside a message ("Full house"): translated with context "box"."""

    __slots__ = ()


class RulesetTitle(str):
    """A ruleset's English title inside a message ("Yatzy"): translated with context
    "ruleset"."""

    __slots__ = ()


class CodedError(Exception):
    """Base of every refusal the project reports (rules, services, websocket frames): a stable
    ``code`` and a ``message`` people read, the English ``template`` filled with ``params``."""

    code = "error"

    def __init__(self, template: str, params: Mapping[str, Any] | None = None) -> None:
        self.template = template
        self.params: dict[str, Any] = dict(params or {})
        self.message = template % self.params if self.params else template
        super().__init__(self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in the review worker's process, it crosses back pickled, template and all.
        return _restored, (type(self), self.code, self.template, self.params)


def _restored(cls: type[CodedError], code: str, template: str,
              params: dict[str, Any]) -> CodedError:
    error = cls.__new__(cls)
    CodedError.__init__(error, template, params)
    error.code = code
    return error


class RulesError(CodedError):
    """Base class: an action the rules do not allow. The game is left unchanged."""

    code = "illegal_move"


class UnknownRuleset(RulesError):
    code = "unknown_ruleset"


class InvalidDice(RulesError):
    code = "invalid_dice"


class UnknownBox(RulesError):
    code = "unknown_box"


class InvalidColumn(RulesError):
    code = "invalid_column"


class InvalidPlayers(RulesError):
    code = "invalid_players"


class InvalidDiePosition(RulesError):
    code = "invalid_die_position"


class HoldBeforeFirstRoll(RulesError):
    code = "hold_before_roll"


class NoRollsLeft(RulesError):
    code = "no_rolls_left"


class NotRolledYet(RulesError):
    code = "not_rolled"


class BoxFilled(RulesError):
    code = "box_filled"


class JokerForbids(RulesError):
    code = "joker_forbids"


class NotYourTurn(RulesError):
    code = "not_your_turn"


class GameOver(RulesError):
    code = "game_over"


class InvalidEvent(RulesError):
    """An event that does not fit the game it is applied to (corrupt or foreign history)."""

    code = "invalid_event"

"""Every way a move can be illegal, each with a stable code and a sentence a player can read.

The ``code`` is part of the public contract: the websocket protocol sends it to clients in
``error`` messages and the command line prints the sentence.
"""

from __future__ import annotations


class CodedError(Exception):
    """Base of every refusal the project reports (rules, services, websocket frames): a stable
    ``code`` and a ``message`` people read."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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

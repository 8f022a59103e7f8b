"""The rules of Yahtzee, Yatzy and Triple Yahtzee, in pure Python (no Django here).

>>> from game.rules import Game, get_ruleset
>>> import random
>>> game = Game("yahtzee", ["Ann", "Bob"], rng=random.Random(7))
>>> _ = game.roll()
>>> _ = game.roll(hold=[0, 1])
>>> _ = game.score("chance")
>>> game.current_player
1
>>> get_ruleset("yatzy").box("fours").score((1, 1, 2, 4, 4))
8
"""

from .actions import Action, Roll, Score
from .dice import Dice, RandomSource, parse_dice, roll_dice, system_random, validate_dice
from .errors import (
    BoxFilled,
    GameOver,
    HoldBeforeFirstRoll,
    InvalidColumn,
    InvalidDice,
    InvalidDiePosition,
    InvalidEvent,
    InvalidPlayers,
    JokerForbids,
    NoRollsLeft,
    NotRolledYet,
    NotYourTurn,
    RulesError,
    UnknownBox,
    UnknownRuleset,
)
from .events import (
    BonusAwarded,
    Event,
    GameFinished,
    GameStarted,
    Rolled,
    Scored,
    TurnStarted,
    event_from_dict,
)
from .fairness import DailyDice, FairDice, InvalidSeed, check_game
from .game import MAX_PLAYERS, ROLLS_PER_TURN, Game
from .rulesets import RULESETS, TRIPLE, YAHTZEE, YATZY, Box, Ruleset, get_ruleset
from .scorecard import Scorecard, Slot

__all__ = [
    "MAX_PLAYERS", "ROLLS_PER_TURN", "RULESETS", "TRIPLE", "YAHTZEE", "YATZY", "Action",
    "BonusAwarded", "Box", "BoxFilled", "DailyDice", "Dice", "Event", "FairDice", "Game",
    "GameFinished", "GameOver", "InvalidSeed", "check_game",
    "GameStarted", "HoldBeforeFirstRoll", "InvalidColumn", "InvalidDice", "InvalidDiePosition",
    "InvalidEvent", "InvalidPlayers", "JokerForbids", "NoRollsLeft", "NotRolledYet",
    "NotYourTurn", "RandomSource", "Roll", "Rolled", "Ruleset", "RulesError", "Score",
    "Scorecard", "Scored", "Slot", "TurnStarted", "UnknownBox", "UnknownRuleset",
    "event_from_dict", "get_ruleset", "parse_dice", "roll_dice", "system_random",
    "validate_dice",
]

"""The stored data, one module per area. A game's truth is its events (``GameEvent``, unique
per game and seq); every other row about a game is a cache or a summary of them. Everything
is imported from here: ``from game.models import Game``."""

from ..domain.games import COMMAND_ID_MAX
from ..domain.rooms import TURN_TIMES
from .daily import DailyAttempt, DailyChallenge
from .fields import (
    BOT_LEVEL_CHOICES,
    CODE_ALPHABET,
    CODE_LENGTH,
    LEVEL_LABELS,
    NICKNAME_MAX,
    PUBLIC_ID_LENGTH,
    ROOM_NAME_MAX,
    RULES_CHOICES,
    new_player_token,
    new_public_id,
    new_room_code,
)
from .games import Game, GameAnalysis, GameEvent
from .notifications import Notification, PushSubscription
from .players import Player
from .presence import Connection, ServerProcess
from .ratings import GameResult, PlayerRating, PlayerStats, Rivalry
from .rooms import Room, Seat

__all__ = [
    "BOT_LEVEL_CHOICES", "CODE_ALPHABET", "CODE_LENGTH", "COMMAND_ID_MAX", "LEVEL_LABELS",
    "NICKNAME_MAX", "PUBLIC_ID_LENGTH", "ROOM_NAME_MAX", "RULES_CHOICES", "TURN_TIMES",
    "Connection", "DailyAttempt", "DailyChallenge", "Game", "GameAnalysis", "GameEvent",
    "GameResult", "Notification", "Player", "PlayerRating", "PlayerStats", "PushSubscription",
    "Rivalry", "Room", "Seat", "ServerProcess", "new_player_token", "new_public_id",
    "new_room_code",
]

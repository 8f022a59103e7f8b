"""Where a game's dice come from: its seeds (``game.rules.fairness``), drawn and kept here.

With ``DICE_SEED`` set (tests, demos) every seed is derived from it, the room and the game's
number in the room, so a fresh database replays the same games; otherwise server seeds come
from the operating system and client seeds from the players' browsers.
"""

from __future__ import annotations

import hashlib
import random

from django.conf import settings

from ..models import DailyChallenge, Game
from ..rules import DailyDice, FairDice, RandomSource
from ..rules.fairness import new_client_seed, new_server_seed, server_seed_from


def draw_server_seed(room_id: int, game_number: int) -> str:
    """The secret seed of game ``game_number`` (0 for the first) of room ``room_id``."""
    seed = getattr(settings, "DICE_SEED", "")
    if seed:
        return server_seed_from(f"{seed}:{room_id}:{game_number}")
    return new_server_seed()


def default_client_seed(room_id: int, index: int) -> str:
    """A seat's seed when nobody brought one (computer players, a form sent without it)."""
    seed = getattr(settings, "DICE_SEED", "")
    if seed:
        return hashlib.sha256(f"client-seed:{seed}:{room_id}:{index}".encode()).hexdigest()[:16]
    return new_client_seed()


def dice_rng(game_id: int, seq: int) -> RandomSource:
    """Dice of a game from before fair dice (no seeds stored): the OS; with DICE_SEED set,
    from (seed, game, seq)."""
    seed = getattr(settings, "DICE_SEED", "")
    if seed:
        return random.Random(f"{seed}:{game_id}:{seq}")
    return random.SystemRandom()


def dice_for(game_row: Game, current: object = None) -> FairDice | DailyDice | RandomSource:
    """The dice the next roll of ``game_row`` is drawn with: ``current`` (the cached rules
    game's) when it is this game's fair dice already; a daily challenge's game rolls from
    its day's tape."""
    if game_row.daily_id:
        if isinstance(current, DailyDice) and current.commitment == game_row.commitment:
            return current
        day = DailyChallenge.objects.only("seed", "rules", "day").get(pk=game_row.daily_id)
        return DailyDice(day.seed, day.rules, day.day)
    if game_row.server_seed:
        if isinstance(current, FairDice) and current.commitment == game_row.commitment:
            return current  # the same seed (its SHA-256 matches) and the same game's seeds
        return FairDice(game_row.server_seed, game_row.client_seeds)
    return dice_rng(game_row.pk, game_row.seq)

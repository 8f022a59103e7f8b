"""What several models' fields share: the rulesets and bot levels as choices, sizes, and
the random codes rooms and players are known by."""

from __future__ import annotations

import secrets

from django.utils.translation import pgettext_lazy

from ..ai.actions import LEVELS
from ..rules import RULESETS

# The titles are marked for the catalogs with the context "ruleset" in game.translated.
RULES_CHOICES = [(r.name, pgettext_lazy("ruleset", r.title)) for r in RULESETS.values()]
#: The computer players' levels as people read them.
LEVEL_LABELS = {"easy": pgettext_lazy("computer level", "Easy"),
                "medium": pgettext_lazy("computer level", "Medium"),
                "optimal": pgettext_lazy("computer level", "Optimal"),
                "to_win": pgettext_lazy("computer level", "Plays to win")}
assert tuple(LEVEL_LABELS) == LEVELS
BOT_LEVEL_CHOICES = list(LEVEL_LABELS.items())
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no look-alikes (0/o, 1/l/i)
CODE_LENGTH = 8  # 31**8 ≈ 8.5e11: not guessable by walking the lobby-less URL space
ROOM_NAME_MAX = 60
NICKNAME_MAX = 24
#: A player's public id (their profile's address): never the cookie's token.
PUBLIC_ID_LENGTH = 10


# Field defaults: stored migrations name them as ``game.models.<name>``, so that is where
# they say they live (``game.models`` re-exports them).
def new_player_token() -> str:
    return secrets.token_urlsafe(32)


def new_public_id() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(PUBLIC_ID_LENGTH))


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


for _default in (new_player_token, new_public_id, new_room_code):
    _default.__module__ = "game.models"

"""Player records: a visitor from their first action on, and the name they chose once."""

from __future__ import annotations

from ..models import Player
from .names import clean_shown_name


def find_player(token: str) -> Player | None:
    """The player a browser's cookie names, if that record still exists."""
    if not token or len(token) > Player._meta.get_field("token").max_length:
        return None
    return Player.objects.filter(token=token).first()


def new_player(name: str = "") -> Player:
    return Player.objects.create(name=clean_shown_name(name, None) if name else "")


def rename_player(player: Player, raw: object) -> Player:
    """Give ``player`` the name ``raw`` (a nickname's checks, and no other account's name;
    ServiceError if refused). Seats already taken keep the name they were taken with."""
    player.name = clean_shown_name(raw, player)
    player.save(update_fields=["name"])
    return player


def set_profile_private(player: Player, private: bool) -> Player:
    """Show others only the player's name (True), or their whole profile."""
    player.private = private
    player.save(update_fields=["private"])
    return player


def set_language(player: Player, code: str) -> Player:
    """The language ``player`` reads the site in on every device (an account's preference);
    ``code`` is one of ``settings.LANGUAGES``, checked by the caller."""
    player.language = code
    player.save(update_fields=["language"])
    return player

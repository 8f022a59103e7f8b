"""The staff's admin, one module per area; Django's autodiscovery imports this package, which
registers every area's pages."""

from . import daily, games, players, rooms

__all__ = ["daily", "games", "players", "rooms"]

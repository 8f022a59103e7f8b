"""Reads, one module per area, returning domain values (``game.protocol`` shapes them into
frames); nothing here writes. The services, views and the real-time side import the common
ones from here; each module's other names from it.
"""

from .games import (
    ABANDONED_AFTER,
    RECENT_EVENTS,
    autoplay_in,
    current_game,
    game_state,
    grace_left,
    recent_events,
    seat_of_viewer,
    stale_last_event,
    turn_deadline,
    with_abandoned,
)
from .presence import (
    STALE_AFTER,
    connected_guests,
    others_here,
    presence,
    presence_of,
    presences,
    someone_here,
    with_someone_here,
)
from .rooms import lobby_rooms, recently_finished, room_state, shared_room_state

__all__ = [
    "ABANDONED_AFTER", "RECENT_EVENTS", "STALE_AFTER", "autoplay_in", "connected_guests",
    "current_game", "game_state", "grace_left", "lobby_rooms", "others_here", "presence",
    "presence_of", "presences", "recent_events", "recently_finished", "room_state",
    "seat_of_viewer", "shared_room_state", "someone_here", "stale_last_event", "turn_deadline",
    "with_abandoned", "with_someone_here",
]

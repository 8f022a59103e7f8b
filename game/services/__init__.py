"""Everything that changes a room or a game goes through here (views, consumers and bots).

Each function runs synchronously in one database transaction and broadcasts to the room's
group only after it committed; async callers wrap them in ``game.db.in_db_thread``, or call
:func:`aplay` for moves.
"""

from .errors import ServiceError
from .games import (
    PlayResult,
    aplay,
    dice_rng,
    game_state,
    load_for_decision,
    play,
    rebuild,
)
from .rooms import (
    BOT_LEVELS,
    SeatSpec,
    clean_nickname,
    create_room,
    get_room,
    guest_key,
    seat_of,
    start_game,
    take_seat,
)
from .state import room_state

__all__ = [
    "BOT_LEVELS", "PlayResult", "aplay", "SeatSpec", "ServiceError", "clean_nickname",
    "create_room", "dice_rng", "game_state", "get_room", "guest_key", "load_for_decision",
    "play", "rebuild", "room_state", "seat_of", "start_game", "take_seat",
]

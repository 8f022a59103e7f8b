"""Everything that changes a room, a game or who is connected goes through here: views, forms,
the real-time layer and the commands import these names from ``game.services``, never from its
modules (tests may look inside).

Each function runs synchronously, in one database transaction, and broadcasts to the room's
group only after it committed; async code calls them through
``game.realtime.db_threads.in_db_thread`` (``aplay`` there for moves). Reads that change
nothing are in ``game.selectors``.
"""

from .broadcast import asend_events, asend_presence, group_name
from .dice import dice_rng
from .errors import ServiceError
from .games import PlayResult, apply_command, end_game, load_for_decision, play
from .limits import check_rate_limit
from .presence import (
    HEARTBEAT_SECONDS,
    check_socket_limit,
    refresh_sockets,
    socket_closed,
    socket_opened,
    socket_restored,
)
from .rooms import (
    SESSION_GUEST,
    SESSION_NICKNAME,
    SeatSpec,
    clean_dice_seed,
    clean_nickname,
    clean_room_name,
    create_room,
    get_room,
    guest_key,
    seat_of,
    set_dice_seed,
    start_game,
    take_seat,
)
from .rules_cache import rebuild

__all__ = [
    "HEARTBEAT_SECONDS", "SESSION_GUEST", "SESSION_NICKNAME", "PlayResult", "SeatSpec",
    "ServiceError", "apply_command", "asend_events", "asend_presence", "check_rate_limit",
    "check_socket_limit",
    "clean_dice_seed", "clean_nickname", "clean_room_name", "create_room", "dice_rng",
    "end_game", "get_room", "group_name",
    "guest_key", "load_for_decision", "play", "rebuild", "refresh_sockets", "seat_of",
    "set_dice_seed", "socket_closed", "socket_opened", "socket_restored", "start_game", "take_seat",
]

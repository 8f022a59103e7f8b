"""Everything that changes a room, a game or who is connected goes through here: views, forms,
the real-time layer and the commands import these names from ``game.services``, never from its
modules (tests may look inside).

Each function runs synchronously, in one database transaction, and broadcasts to the room's
group only after it committed; async code calls them through
``game.realtime.db_threads.in_db_thread`` (``aplay`` there for moves). Reads that change
nothing are in ``game.selectors``.
"""

from .broadcast import (
    asend_advice,
    asend_events,
    asend_frame,
    asend_presence,
    asend_standings,
    group_name,
    turn_summary,
)
from .coach import advice_message
from .dice import dice_rng
from .errors import ServiceError
from .games import PlayResult, apply_command, end_game, load_for_decision, play
from .insight import standings_available, standings_message
from .limits import check_rate_limit
from .players import find_player, new_player, rename_player, set_profile_private
from .presence import (
    HEARTBEAT_SECONDS,
    refresh_sockets,
    socket_closed,
    socket_opened,
    socket_restored,
)
from .ratings import rebuild_all as rebuild_ratings
from .ratings import record_game
from .rooms import (
    DEFAULT_NICKNAME,
    SESSION_GUEST,
    SeatSpec,
    clean_dice_seed,
    clean_nickname,
    clean_room_name,
    create_room,
    get_room,
    guest_key,
    open_room,
    play_the_computer,
    seat_of,
    set_dice_seed,
    start_game,
    take_seat,
)
from .rules_cache import rebuild
from .seating import add_seat, leave_seat, remove_seat, seat_bot, set_turn_time

__all__ = [
    "rebuild_ratings", "record_game", "set_profile_private",
    "DEFAULT_NICKNAME", "HEARTBEAT_SECONDS", "PlayResult", "SESSION_GUEST",
    "SeatSpec", "ServiceError", "add_seat", "advice_message", "apply_command", "asend_advice",
    "asend_events", "asend_frame", "asend_presence", "asend_standings",
    "check_rate_limit", "clean_dice_seed", "clean_nickname", "clean_room_name", "create_room",
    "dice_rng", "end_game", "get_room", "group_name", "guest_key", "leave_seat",
    "load_for_decision", "play", "play_the_computer", "rebuild", "refresh_sockets", "remove_seat",
    "seat_bot", "seat_of", "set_dice_seed", "set_turn_time",
    "socket_closed", "socket_opened", "socket_restored", "standings_available",
    "standings_message", "start_game",
    "take_seat", "turn_summary",
    "find_player", "new_player", "open_room", "rename_player",
]

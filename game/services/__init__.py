"""Everything that changes a room, a game or who is connected: each change runs in one
database transaction and is sent to the room's group only after it committed. Views, forms, the
real-time layer and the admin import these names from ``game.services``. The management
commands and the review worker, which need one module and not the site's services, import it
by module (``services.cleanup``, ``services.review``, ``services.errors``); tests may look
inside any.

Most functions are synchronous and block on the database: async code calls them through
``game.realtime.db_threads.in_db_thread``. The ``asend_*`` functions are coroutines for the
event loop: they send to the room's channel-layer group, nothing else. Reads that change
nothing are in ``game.selectors``; the frames are ``game.protocol``'s.
"""

from ..domain.games import PlayResult
from .accounts import (
    check_active,
    check_guest_active,
    claim_player,
    clean_account_name,
    merge_players,
    player_of,
    set_player_disabled,
    sign_in_key,
)
from .away import pass_host_roles, play_for_away
from .broadcast import (
    LAYER_TIMEOUT,
    agroup_add,
    agroup_discard,
    asend_advice,
    asend_events,
    asend_frame,
    asend_presence,
    asend_room_changed,
    asend_standings,
    events_message,
    group_name,
    layer_answered,
    layer_away,
    layer_failed,
    take_dropped,
    within_timeout,
)
from .correspondence import seat_here
from .dice import dice_rng
from .errors import ServiceError
from .games import apply_command, end_game, load_for_decision, play
from .limits import check_rate_limit
from .names import clean_nickname
from .notices import set_notices
from .players import find_player, new_player, rename_player, set_language, set_profile_private
from .presence import (
    HEARTBEAT_SECONDS,
    refresh_sockets,
    server_beat,
    socket_closed,
    socket_opened,
    socket_restored,
)
from .ratings import rebuild_all as rebuild_ratings
from .ratings import record_game, record_games
from .rooms import (
    DEFAULT_NICKNAME,
    SESSION_GUEST,
    SeatSpec,
    clean_dice_seed,
    clean_room_name,
    create_room,
    get_room,
    guest_key,
    new_guest_key,
    open_room,
    play_the_computer,
    seat_of,
    set_dice_seed,
    start_game,
    take_seat,
)
from .seating import add_seat, leave_seat, remove_seat, seat_bot, set_room_options

__all__ = [
    "rebuild_ratings", "record_game", "record_games", "seat_here", "set_language", "set_notices",
    "set_profile_private",
    "check_active", "check_guest_active", "claim_player", "clean_account_name", "merge_players",
    "player_of", "set_player_disabled", "sign_in_key",
    "DEFAULT_NICKNAME", "HEARTBEAT_SECONDS", "PlayResult", "SESSION_GUEST",
    "LAYER_TIMEOUT", "SeatSpec", "ServiceError", "add_seat", "agroup_add", "agroup_discard",
    "apply_command", "asend_advice", "asend_events",
    "asend_frame", "asend_presence", "asend_room_changed", "asend_standings",
    "check_rate_limit", "clean_dice_seed",
    "clean_nickname", "clean_room_name", "create_room", "dice_rng", "end_game",
    "events_message", "find_player", "get_room", "group_name", "guest_key", "layer_answered",
    "layer_away", "layer_failed", "leave_seat",
    "load_for_decision", "new_guest_key", "new_player", "open_room", "pass_host_roles", "play",
    "play_for_away",
    "play_the_computer",
    "refresh_sockets", "remove_seat", "rename_player", "seat_bot", "seat_of", "server_beat",
    "set_dice_seed", "set_room_options", "socket_closed", "socket_opened", "socket_restored",
    "start_game", "take_dropped", "take_seat", "within_timeout",
]

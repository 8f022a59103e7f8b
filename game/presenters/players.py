"""How a private player is shown to everyone else: under a neutral label, never by name;
and the lists of games with each person's name as it is now.

A game's page, its analysis, replay and dice file, the lobby's lists and the daily board
show a seat of a private player (docs/architecture.md, "Players and accounts") as "Player 2"
(its seat) to everyone but that player; a name that also makes up a room's name ("Ann vs the
computer") is replaced there too. Only what is shown changes, in memory: the stored game, its
events and its dice stay as played, so the game can still be checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..models import Game, Player, Room
from ..selectors import players as profiles


def a_player() -> str:
    """A private player where no seat is shown (a line of the daily board)."""
    return _("A player")


def seat_label(index: int) -> str:
    """A private player's seat, in the reader's language: "Player 2"."""
    return _("Player %(number)s") % {"number": index + 1}


#: A computer player's name as a room seats it and a game keeps it ("Bot 2 (to win)",
#: services.names.bot_nickname); no person's name can read so.
_COMPUTER = re.compile(r"Bot (\d+) \((easy|medium|optimal|to win)\)")


def computer_name(name: str) -> str | None:
    """A computer player's stored name in the reader's language ("Computer 2 (leicht)"), or
    None for a person's name. Shown so, never stored so: the game keeps its names as played."""
    found = _COMPUTER.fullmatch(name)
    if found is None:
        return None
    number, level = int(found.group(1)), found.group(2)
    if level == "easy":
        text = pgettext("computer player", "Bot %(number)s (easy)")
    elif level == "medium":
        text = pgettext("computer player", "Bot %(number)s (medium)")
    elif level == "optimal":
        text = pgettext("computer player", "Bot %(number)s (optimal)")
    else:
        text = pgettext("computer player", "Bot %(number)s (to win)")
    return text % {"number": number}


def labels(names: Sequence[str], hidden: Iterable[int]) -> dict[int, str]:
    """The label of each hidden seat of a game whose players are ``names``, and the name of
    each computer player in the reader's language."""
    found = {i: seat_label(i) for i in sorted(hidden) if 0 <= i < len(names)}
    for i, name in enumerate(names):
        if i not in found and (computer := computer_name(name)) is not None:
            found[i] = computer
    return found


def shown_names(names: Sequence[str], labelled: Mapping[int, str]) -> list[str]:
    return [labelled.get(i, name) for i, name in enumerate(names)]


def masked(text: str, replaced: Mapping[str, str]) -> str:
    """``text`` with each name of ``replaced`` standing as a word replaced by its label."""
    for name, label in replaced.items():
        if name.strip():
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", label, text)
    return text


def hide_in_game(game: Game, labelled: Mapping[int, str]) -> dict[str, str]:
    """``game`` (and its room's name, if loaded) as others see it: the hidden seats' names
    replaced by their labels, in memory only (never saved). Returns each name replaced with
    its label."""
    replaced = {game.players[i]: label for i, label in labelled.items()}
    if replaced:
        game.players = shown_names(game.players, labelled)
        if Game.room.is_cached(game):
            game.room.name = masked(game.room.name, replaced)
    return replaced


def seen_by(game: Game, viewer: Player | None) -> dict[int, str]:
    """``game`` as ``viewer`` sees it (``hide_in_game``); returns the hidden seats' labels."""
    labelled = labels(game.players, profiles.private_seats([game], viewer)[game.pk])
    hide_in_game(game, labelled)
    return labelled


def with_current_names(games: Sequence[Game]) -> None:
    """Each of ``games`` named as its people go by now, in memory only: a guest who played as
    "Player" and then gave a name, or a rename, shows on the games they played before. The
    stored names stay as played (the game's events, replay and dice file say them), so only
    the lists of games read this; ``hide_in_games`` comes after it."""
    names = profiles.current_names(games)
    for game in games:
        if names[game.pk]:
            game.players = [names[game.pk].get(i, name) for i, name in enumerate(game.players)]


def hide_in_games(games: Sequence[Game], viewer: Player | None) -> dict[int, dict[str, str]]:
    """Each of ``games`` as ``viewer`` sees it (``hide_in_game``); returns each game's names
    replaced with their labels, by game id."""
    hidden = profiles.private_seats(games, viewer)
    return {game.pk: hide_in_game(game, labels(game.players, hidden[game.pk]))
            for game in games}


def hide_in_replay(data: dict[str, Any], labelled: Mapping[int, str]) -> dict[str, Any]:
    """The replay's data (``presenters.replay``) with the hidden seats' names replaced."""
    if labelled:
        data["players"] = shown_names(data["players"], labelled)
        if data.get("start"):
            data["start"]["players"] = shown_names(data["start"]["players"], labelled)
    return data


def hide_in_analysis(view: dict[str, Any] | None, labelled: Mapping[int, str]
                     ) -> dict[str, Any] | None:
    """The stored review as the page shows it (``presenters.review``), names replaced."""
    if view is not None:
        for i, player in enumerate(view["players"]):
            if i in labelled:
                player["name"] = labelled[i]
    return view


def hide_in_rooms(rooms: Iterable[Room], viewer: Player | None) -> None:
    """The lobby's rooms as ``viewer`` sees them: each ``seat_list`` entry gains the name to
    show (a private person's seat label), the room's name and its last game hide it too."""
    rooms = list(rooms)
    finished = [room.last_game for room in rooms if getattr(room, "last_game", None) is not None]
    played = {game.pk: list(game.players) for game in finished}
    with_current_names(finished)
    people = profiles.private_people(
        (s.player_id for room in rooms for s, _here in room.seat_list), viewer)
    game_labels = hide_in_games(finished, viewer) if finished else {}
    for room in rooms:
        replaced: dict[str, str] = {}
        seats = []
        last = getattr(room, "last_game", None)
        for seat, here in room.seat_list:
            name = seat.display_name
            if seat.is_bot:
                name = computer_name(name) or name
            else:
                if (last is not None and seat.index < len(last.players)
                        and played[last.pk][seat.index] == name):
                    name = last.players[seat.index]  # the same person: the name they go by now
                if seat.player_id in people:
                    name = seat_label(seat.index)
                    replaced[seat.display_name] = name
            seats.append((seat, here, name))
        room.seat_list = seats
        if last is not None:
            replaced = {**game_labels.get(last.pk, {}), **replaced}
        room.name = masked(room.name, replaced)

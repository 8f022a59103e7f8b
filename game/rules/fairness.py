"""Provably fair dice: commit–reveal, so anyone can check every roll after the game.

The server draws a secret ``server_seed`` (32 bytes, written as 64 hex digits) and publishes
only its SHA-256 ``commitment`` before any player's seed is fixed. Each player brings a
``client_seed``. Roll number ``k`` of the game (1 for the game's first ``rolled`` event,
counting every roll of every turn) takes its dice from the byte stream

    HMAC-SHA256(key=server_seed, msg="<seed 1>\\n<seed 2>\\n…\\n<k>\\n<counter>")

for counter = 0, 1, 2, … (ASCII; client seeds in seat order). A byte ``b`` below 252 gives the
face ``b % 6 + 1``; bytes 252–255 are skipped (252 = 6 × 42: no modulo bias). Only the dice
not held are drawn, in position order. The seed is revealed in the ``game_finished`` event.
``docs/fairness.md`` has the whole scheme and a 20-line script that redoes it.

A daily challenge (:class:`DailyDice`) rolls from a *tape* instead: one secret day seed, no
client seed, and the dice of turn ``t``, roll ``r`` from
``HMAC-SHA256(key=day_seed, msg="daily\\n<ruleset>\\n<YYYY-MM-DD>\\n<t>\\n<r>\\n<counter>")``, so
every player of the day who keeps the same dice sees the same roll. Its games reveal nothing
when they end: the day seed is revealed when the day ends.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import itertools
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .dice import DICE_COUNT
from .errors import RulesError, gettext_noop
from .rulesets import get_ruleset

SERVER_SEED_BYTES = 32
CLIENT_SEED_MAX = 64
#: Bytes from here up are skipped: 252 is the largest multiple of 6 that fits in a byte.
REJECT_FROM = 252


class InvalidSeed(RulesError):
    code = "bad_seed"


def new_server_seed() -> str:
    """A fresh secret server seed from the operating system, as 64 hex digits."""
    return secrets.token_hex(SERVER_SEED_BYTES)


def server_seed_from(text: str) -> str:
    """A server seed derived from ``text`` (``DICE_SEED``: reproducible tests and demos)."""
    return hashlib.sha256(f"server-seed:{text}".encode()).hexdigest()


def new_client_seed() -> str:
    """A client seed for a player who brought none (computer players)."""
    return secrets.token_hex(8)


def _key(server_seed: str) -> bytes:
    try:
        key = bytes.fromhex(server_seed)
    except (ValueError, TypeError):
        key = b""
    if len(key) != SERVER_SEED_BYTES:
        raise InvalidSeed(gettext_noop("A server seed is %(digits)d hex digits."),
                          {"digits": SERVER_SEED_BYTES * 2})
    return key


def commitment(server_seed: str) -> str:
    """SHA-256 of the server seed's 32 bytes, in hex: what is published before the game."""
    return hashlib.sha256(_key(server_seed)).hexdigest()


def clean_client_seed(raw: object) -> str:
    """A client seed as typed, without the spaces (U+0020, that character only) around it: 1 to
    64 printable ASCII characters (so every language encodes it the same way, and the newline
    separator stays unambiguous). Any other whitespace, around it or inside, is refused."""
    if not isinstance(raw, str):
        raise InvalidSeed(gettext_noop("A dice seed is text."))
    seed = raw.strip(" ")
    if not 0 < len(seed) <= CLIENT_SEED_MAX:
        raise InvalidSeed(gettext_noop("A dice seed has 1 to %(max)d characters."),
                          {"max": CLIENT_SEED_MAX})
    if not all(" " <= c <= "~" for c in seed):
        raise InvalidSeed(gettext_noop("A dice seed may use letters, digits, spaces and the "
                                       "punctuation of a US keyboard (printable ASCII) only."))
    return seed


def _faces(key: bytes, head: Sequence[str]) -> Iterator[int]:
    """The endless stream of faces of the HMAC messages ``"<head…>\\n<counter>"``, counter =
    0, 1, 2, …: the one byte-to-face rule of every game and every daily tape."""
    for counter in itertools.count():
        message = "\n".join([*head, str(counter)]).encode("ascii")
        for b in hmac.digest(key, message, "sha256"):
            if b < REJECT_FROM:
                yield b % 6 + 1


def _game_head(client_seeds: Sequence[str], k: int) -> list[str]:
    return [*client_seeds, str(k)]


def _daily_head(ruleset: str, day: str, turn: int, roll: int) -> list[str]:
    return ["daily", ruleset, day, str(turn), str(roll)]


def faces(server_seed: str, client_seeds: Sequence[str], k: int) -> Iterator[int]:
    """The endless stream of faces of roll ``k``; its first dice are the roll's new dice."""
    return _faces(_key(server_seed), _game_head(client_seeds, k))


class _RollSource:
    """The random source of one roll: ``randint(1, 6)`` takes the stream's next face."""

    def __init__(self, stream: Iterator[int]) -> None:
        self._stream = stream

    def randint(self, a: int, b: int) -> int:
        if (a, b) != (1, 6):
            raise ValueError("Fair dice only roll faces 1 to 6.")
        return next(self._stream)


class FairDice:
    """The dice of one game: its server seed and client seeds. :class:`game.rules.Game` asks
    it for roll ``k``'s source; the game's ``game_finished`` event reveals the seed."""

    def __init__(self, server_seed: str, client_seeds: Iterable[str]) -> None:
        self._key = _key(server_seed)
        self.client_seeds = tuple(clean_client_seed(s) for s in client_seeds)
        self.commitment = hashlib.sha256(self._key).hexdigest()

    def for_roll(self, k: int) -> _RollSource:
        return _RollSource(_faces(self._key, _game_head(self.client_seeds, k)))

    def reveal(self) -> str:
        """The server seed: only for the end of the game."""
        return self._key.hex()

    def __repr__(self) -> str:  # never the seed: reprs end up in logs and error pages
        return f"<FairDice commitment={self.commitment[:16]}… seeds={len(self.client_seeds)}>"

    def __deepcopy__(self, memo: dict[int, object]) -> FairDice:
        return self  # immutable


# --- the daily challenge's tape -------------------------------------------------------------

def clean_day(raw: object) -> str:
    """A challenge's day (UTC) as ``YYYY-MM-DD``, from a date or that text."""
    if isinstance(raw, datetime.datetime):
        raise InvalidSeed(gettext_noop("A challenge’s day is a date, not a moment."))
    if isinstance(raw, datetime.date):
        return raw.isoformat()
    if isinstance(raw, str) and len(raw) == 10:
        try:
            return datetime.date.fromisoformat(raw).isoformat()
        except ValueError:
            pass
    raise InvalidSeed(gettext_noop("A challenge’s day is written YYYY-MM-DD, not %(raw)s."),
                      {"raw": repr(raw)})


class DailyDice:
    """The dice tape of one day's challenge in one ruleset: the same for every player.

    Roll ``r`` (1–3) of turn ``t`` (the game's round) draws its new dice from the start of its
    own stream of faces (``HMAC-SHA256(day seed, "daily\\n<ruleset>\\n<day>\\n<t>\\n<r>\\n<i>")``
    for i = 0, 1, …) into the dice not held, in position order. So the dice a player sees
    depend only on the day, the turn and which dice they keep: the same kept values give the
    same roll, whatever came before. No player brings a seed (the tape is the same for
    everyone), and no game reveals the day seed: the end of the day does.
    """

    def __init__(self, day_seed: str, ruleset: str, day: datetime.date | str) -> None:
        self._key = _key(day_seed)
        self.ruleset = get_ruleset(ruleset).name
        self.day = clean_day(day)
        self.commitment = hashlib.sha256(self._key).hexdigest()

    def faces(self, turn: int, roll: int) -> Iterator[int]:
        """The endless stream of faces of roll ``roll`` of turn ``turn``."""
        return _faces(self._key, _daily_head(self.ruleset, self.day, turn, roll))

    def for_roll(self, turn: int, roll: int) -> _RollSource:
        return _RollSource(self.faces(turn, roll))

    def __repr__(self) -> str:  # never the seed
        return f"<DailyDice {self.ruleset} {self.day} commitment={self.commitment[:16]}…>"

    def __deepcopy__(self, memo: dict[int, object]) -> DailyDice:
        return self  # immutable


# --- checking a finished game ----------------------------------------------------------------

@dataclass(frozen=True)
class RollCheck:
    """One roll of a game, re-derived: ``expected`` are the dice the seeds give."""

    k: int
    seq: int | None
    player: int
    held: tuple[int, ...]
    stored: tuple[int, ...]
    expected: tuple[int, ...]
    #: Where a daily game's roll sits on the tape: its turn and its roll of the turn (1–3).
    turn: int | None = None
    roll: int | None = None

    @property
    def ok(self) -> bool:
        return self.stored == self.expected

    @property
    def name(self) -> str:
        """How a person finds the roll: its number, and on a daily tape its turn and roll."""
        if self.turn is None:
            return f"roll {self.k}"
        return f"roll {self.k} (turn {self.turn}, roll {self.roll})"


@dataclass(frozen=True)
class GameCheck:
    commitment: str
    server_seed: str
    client_seeds: tuple[str, ...]
    commitment_ok: bool
    rolls: tuple[RollCheck, ...]
    #: The day of a daily challenge's game ("" for any other game).
    daily: str = ""

    @property
    def ok(self) -> bool:
        return self.commitment_ok and all(r.ok for r in self.rolls)

    @property
    def mismatches(self) -> list[RollCheck]:
        return [r for r in self.rolls if not r.ok]


def check_game(events: Iterable[Mapping[str, Any]], server_seed: str | None = None) -> GameCheck:
    """Re-derive every roll of a game from its events (dicts with ``kind``, as stored; a
    ``seq`` is kept when present). The seed is the one ``game_finished`` reveals unless
    ``server_seed`` is given (a daily game's: the day seed, revealed when its day ends). A
    roll's new dice are the stream's faces and its held dice the previous roll's derived ones,
    so the whole game follows from the seeds and the holds. Raises :class:`InvalidSeed` for a
    game without seeds."""
    rows = list(events)
    started = next((e for e in rows if e.get("kind") == "game_started"), None)
    finished = next((e for e in rows if e.get("kind") == "game_finished"), None)
    if started is None or not started.get("commitment"):
        raise InvalidSeed(gettext_noop("This game has no dice commitment (it predates fair dice)."))
    daily = clean_day(started["daily"]) if started.get("daily") else ""
    rules = get_ruleset(started.get("rules") or "").name if daily else ""
    seed = server_seed or (finished or {}).get("server_seed") or ""
    if not seed:
        raise InvalidSeed(gettext_noop("The day seed is revealed when the day ends.") if daily
                          else gettext_noop("The server seed is revealed when the game ends."))
    key = _key(seed)
    client_seeds = tuple(started.get("client_seeds") or ())
    checks = []
    previous: tuple[int, ...] | None = None
    k = turn = 0
    for event in rows:
        if event.get("kind") == "turn_started":
            previous, turn = None, event["round"]
        elif event.get("kind") == "rolled":
            k += 1
            held = tuple(event["held"])
            stored = tuple(event["dice"])
            place = (turn, event["roll"]) if daily else (None, None)
            head = (_daily_head(rules, daily, turn, event["roll"]) if daily
                    else _game_head(client_seeds, k))
            stream = _faces(key, head)
            # Always five: a stored roll of another length (a die lost or added) is a mismatch.
            expected = tuple(
                previous[i] if previous is not None and i in held else next(stream)
                for i in range(DICE_COUNT))
            checks.append(RollCheck(k, event.get("seq"), event["player"], held, stored,
                                    expected, *place))
            previous = expected  # held dice are derived too: a changed die fails one roll
    return GameCheck(
        commitment=started["commitment"], server_seed=key.hex(), client_seeds=client_seeds,
        commitment_ok=hashlib.sha256(key).hexdigest() == started["commitment"],
        rolls=tuple(checks), daily=daily)


def _whole(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{value!r} is not a turn or roll number")
    return value


def check_dice_file(data: Mapping[str, Any]) -> GameCheck:
    """:func:`check_game` of the seeds and rolls a game's page offers for download
    (``/games/<id>/dice.json``: ``commitment``, ``server_seed``, ``client_seeds``, ``rolls``
    with ``held`` and ``dice`` in roll order; a daily game's also ``rules``, ``daily`` (its
    day) and each roll's ``turn`` and ``roll``)."""
    try:
        started = {"kind": "game_started", "commitment": data["commitment"],
                   "client_seeds": list(data["client_seeds"]),
                   "rules": data.get("rules"), "daily": data.get("daily")}
        daily = bool(data.get("daily"))
        events: list[dict[str, Any]] = [started]
        turn = None
        for r in data["rolls"]:
            if daily and r["turn"] != turn:  # each turn of a daily game has its own tape
                turn = r["turn"]
                events.append({"kind": "turn_started", "round": _whole(turn)})
            events.append({"kind": "rolled", "seq": r.get("seq"), "player": r.get("player", 0),
                           "held": list(r["held"]), "dice": list(r["dice"]),
                           "roll": _whole(r["roll"]) if daily else r.get("roll")})
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidSeed(gettext_noop("Not a game’s dice file (%(field)s missing or malformed)."),
                          {"field": repr(exc)}) from None
    finished = {"kind": "game_finished", "server_seed": data.get("server_seed") or ""}
    return check_game([*events, finished])


#: The most rolls a turn has (the rules' ``ROLLS_PER_TURN``, kept here: the turn machine
#: imports this module).
_ROLLS_PER_TURN = 3


def missing_rolls(data: Mapping[str, Any]) -> list[str]:
    """What keeps a finished game's dice file from holding every roll of the game, in words
    ([] when it holds them all): every player's every turn, each with its rolls 1, 2, … (at
    most three, as many as each of them says the turn had: ``of``), and the rolls numbered 1
    to N. A check of the rolls a file holds says
    nothing of the rolls it leaves out, so a file whose last rolls were cut passed it. A game
    ended early (``unfinished``) holds what was played."""
    if data.get("unfinished") or data.get("finished") is False:
        return []
    try:
        ruleset = get_ruleset(str(data["rules"]))
        players = len(data.get("players") or ()) or len(data.get("client_seeds") or ()) or 1
        rolls = list(data["rolls"])
        kept: dict[tuple[int, int], list[int]] = {
            (int(r.get("player", 0)), int(r["turn"])): [] for r in rolls}
        made_of: dict[tuple[int, int], set[int]] = {key: set() for key in kept}
        for r in rolls:
            kept[(int(r.get("player", 0)), int(r["turn"]))].append(int(r["roll"]))
            made_of[(int(r.get("player", 0)), int(r["turn"]))].add(int(r.get("of", 0)))
        numbers = [int(r["k"]) for r in rolls] if all("k" in r for r in rolls) else None
    except (KeyError, TypeError, ValueError, RulesError):
        return ["the file does not say each roll's turn and roll, or the game's rules: it "
                "cannot show that it holds every roll"]
    problems = []
    if numbers is not None and numbers != list(range(1, len(rolls) + 1)):
        problems.append(f"the rolls are not numbered 1 to {len(rolls)} in order")
    for player in range(players):
        for turn in range(1, ruleset.turns + 1):
            made = kept.get((player, turn), [])
            if not made:
                problems.append(f"player {player + 1} has no roll in turn {turn}")
            elif made != list(range(1, len(made) + 1)) or len(made) > _ROLLS_PER_TURN:
                problems.append(f"player {player + 1}'s turn {turn} has rolls {made}")
            elif made_of[(player, turn)] != {len(made)}:  # each roll says the turn's rolls
                problems.append(f"player {player + 1}'s turn {turn} had "
                                f"{max(made_of[(player, turn)])} rolls, the file holds "
                                f"{len(made)}")
    if len(kept) > players * ruleset.turns:
        problems.append("the file holds rolls of turns the game does not have")
    return problems

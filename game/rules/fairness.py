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
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .dice import DICE_COUNT
from .errors import RulesError

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
        raise InvalidSeed(f"A server seed is {SERVER_SEED_BYTES * 2} hex digits.")
    return key


def commitment(server_seed: str) -> str:
    """SHA-256 of the server seed's 32 bytes, in hex: what is published before the game."""
    return hashlib.sha256(_key(server_seed)).hexdigest()


def clean_client_seed(raw: object) -> str:
    """A client seed as typed, without the spaces (U+0020, that character only) around it: 1 to
    64 printable ASCII characters (so every language encodes it the same way, and the newline
    separator stays unambiguous). Any other whitespace, around it or inside, is refused."""
    if not isinstance(raw, str):
        raise InvalidSeed("A dice seed is text.")
    seed = raw.strip(" ")
    if not 0 < len(seed) <= CLIENT_SEED_MAX:
        raise InvalidSeed(f"A dice seed has 1 to {CLIENT_SEED_MAX} characters.")
    if not all(" " <= c <= "~" for c in seed):
        raise InvalidSeed("A dice seed may use letters, digits, spaces and the punctuation of "
                          "a US keyboard (printable ASCII) only.")
    return seed


def _message(client_seeds: Sequence[str], k: int, counter: int) -> bytes:
    return "\n".join([*client_seeds, str(k), str(counter)]).encode("ascii")


def _faces(key: bytes, client_seeds: Sequence[str], k: int) -> Iterator[int]:
    for counter in itertools.count():
        block = hmac.digest(key, _message(client_seeds, k, counter), "sha256")
        for b in block:
            if b < REJECT_FROM:
                yield b % 6 + 1


def faces(server_seed: str, client_seeds: Sequence[str], k: int) -> Iterator[int]:
    """The endless stream of faces of roll ``k``; its first dice are the roll's new dice."""
    return _faces(_key(server_seed), client_seeds, k)


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
        return _RollSource(_faces(self._key, self.client_seeds, k))

    def reveal(self) -> str:
        """The server seed: only for the end of the game."""
        return self._key.hex()

    def __repr__(self) -> str:  # never the seed: reprs end up in logs and error pages
        return f"<FairDice commitment={self.commitment[:16]}… seeds={len(self.client_seeds)}>"

    def __deepcopy__(self, memo: dict[int, object]) -> FairDice:
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

    @property
    def ok(self) -> bool:
        return self.stored == self.expected


@dataclass(frozen=True)
class GameCheck:
    commitment: str
    server_seed: str
    client_seeds: tuple[str, ...]
    commitment_ok: bool
    rolls: tuple[RollCheck, ...]

    @property
    def ok(self) -> bool:
        return self.commitment_ok and all(r.ok for r in self.rolls)

    @property
    def mismatches(self) -> list[RollCheck]:
        return [r for r in self.rolls if not r.ok]


def check_game(events: Iterable[Mapping[str, Any]], server_seed: str | None = None) -> GameCheck:
    """Re-derive every roll of a game from its events (dicts with ``kind``, as stored; a
    ``seq`` is kept when present). The seed is the one ``game_finished`` reveals unless
    ``server_seed`` is given. A roll's new dice are the stream's faces and its held dice the
    previous roll's derived ones, so the whole game follows from the seeds and the holds.
    Raises :class:`InvalidSeed` for a game without seeds."""
    rows = list(events)
    started = next((e for e in rows if e.get("kind") == "game_started"), None)
    finished = next((e for e in rows if e.get("kind") == "game_finished"), None)
    if started is None or not started.get("commitment"):
        raise InvalidSeed("This game has no dice commitment (it predates fair dice).")
    seed = server_seed or (finished or {}).get("server_seed") or ""
    if not seed:
        raise InvalidSeed("The server seed is revealed when the game ends.")
    key = _key(seed)
    client_seeds = tuple(started.get("client_seeds") or ())
    checks = []
    previous: tuple[int, ...] | None = None
    k = 0
    for event in rows:
        if event.get("kind") == "turn_started":
            previous = None
        elif event.get("kind") == "rolled":
            k += 1
            held = tuple(event["held"])
            stored = tuple(event["dice"])
            stream = _faces(key, client_seeds, k)
            # Always five: a stored roll of another length (a die lost or added) is a mismatch.
            expected = tuple(
                previous[i] if previous is not None and i in held else next(stream)
                for i in range(DICE_COUNT))
            checks.append(RollCheck(k, event.get("seq"), event["player"], held, stored,
                                    expected))
            previous = expected  # held dice are derived too: a changed die fails one roll
    return GameCheck(
        commitment=started["commitment"], server_seed=key.hex(), client_seeds=client_seeds,
        commitment_ok=hashlib.sha256(key).hexdigest() == started["commitment"],
        rolls=tuple(checks))


def check_dice_file(data: Mapping[str, Any]) -> GameCheck:
    """:func:`check_game` of the seeds and rolls a game's page offers for download
    (``/games/<id>/dice.json``: ``commitment``, ``server_seed``, ``client_seeds``, ``rolls``
    with ``held`` and ``dice`` in roll order)."""
    try:
        started = {"kind": "game_started", "commitment": data["commitment"],
                   "client_seeds": list(data["client_seeds"])}
        rolls = [{"kind": "rolled", "seq": r.get("seq"), "player": r.get("player", 0),
                  "held": list(r["held"]), "dice": list(r["dice"])} for r in data["rolls"]]
    except (KeyError, TypeError, AttributeError) as exc:
        raise InvalidSeed(f"Not a game's dice file ({exc!r} missing or malformed).") from None
    finished = {"kind": "game_finished", "server_seed": data.get("server_seed") or ""}
    return check_game([started, *rolls, finished])

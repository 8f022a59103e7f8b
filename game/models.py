"""Rooms, seats, games and the append-only event log of every game.

A game's truth is its events (``GameEvent``, unique per game and seq); ``Game.snapshot`` is a
cache of ``rules.Game.from_events(...).to_dict()`` kept for cheap reads, never the source.
Presence lives here too (``Connection``), so every server process sees the same picture.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .ai.actions import LEVELS
from .rules import RULESETS
from .rules.fairness import CLIENT_SEED_MAX, commitment

# The titles are marked for the catalogs with the context "ruleset" in game.translated.
RULES_CHOICES = [(r.name, pgettext_lazy("ruleset", r.title)) for r in RULESETS.values()]
#: The computer players' levels as people read them.
LEVEL_LABELS = {"easy": pgettext_lazy("computer level", "Easy"),
                "medium": pgettext_lazy("computer level", "Medium"),
                "optimal": pgettext_lazy("computer level", "Optimal"),
                "to_win": pgettext_lazy("computer level", "Plays to win")}
assert tuple(LEVEL_LABELS) == LEVELS
BOT_LEVEL_CHOICES = list(LEVEL_LABELS.items())
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no look-alikes (0/o, 1/l/i)
CODE_LENGTH = 8  # 31**8 ≈ 8.5e11: not guessable by walking the lobby-less URL space
ROOM_NAME_MAX = 60
NICKNAME_MAX = 24
#: The room option "turn time" (seconds; 0 = off): after it the turn is played by autoplay.
TURN_TIMES = (0, 60, 120, 300)
#: A client's command id (``id`` in the protocol), stored for idempotency.
COMMAND_ID_MAX = 64


def new_player_token() -> str:
    return secrets.token_urlsafe(32)


#: A player's public id (their profile's address): never the cookie's token.
PUBLIC_ID_LENGTH = 10


def new_public_id() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(PUBLIC_ID_LENGTH))


class Player(models.Model):
    """A visitor, from their first action on: the name they chose once, remembered on their
    browser by a long-lived cookie holding ``token`` (``game.players``). Seats point to it, so
    history, stats and an optional account can hang on it later (DESIGN.md, "Players")."""

    token = models.CharField(gettext_lazy("token"),
                             max_length=64, unique=True, default=new_player_token,
                             editable=False)
    #: The name used for quick play, new rooms and seats ("" until they choose one).
    name = models.CharField(gettext_lazy("name"), max_length=NICKNAME_MAX, blank=True, default="")
    #: The profile's address (``/p/<public_id>/``); the token stays a secret of the cookie.
    public_id = models.CharField(gettext_lazy("public id"),
                                 max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    #: A private profile shows others only the name.
    private = models.BooleanField(gettext_lazy("private"), default=False)
    #: The account that keeps this player on several devices (none for a guest).
    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"),
                                null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="player")
    #: The account name's skeleton (``services.names.skeleton``): no two accounts read alike.
    account_key = models.CharField(gettext_lazy("account key"),
                                   max_length=150, null=True, blank=True, unique=True,
                                   editable=False)
    #: Disabled by staff: the player can no longer act (take seats, make rooms, play, rename).
    disabled = models.BooleanField(gettext_lazy("disabled"), default=False)
    #: The language an account's person reads the site in on every device ("": the browser's).
    language = models.CharField(gettext_lazy("language"), max_length=8, blank=True, default="")
    created = models.DateTimeField(gettext_lazy("created"), auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("player")
        verbose_name_plural = gettext_lazy("players")

    def __str__(self) -> str:
        return self.name or _("Player %(number)s") % {"number": self.pk}

    def get_absolute_url(self) -> str:
        return reverse("game:profile", args=[self.public_id])

    @property
    def has_account(self) -> bool:
        return self.user_id is not None


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Room(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("room status", "Waiting")
        PLAYING = "playing", pgettext_lazy("room status", "Playing")
        FINISHED = "finished", pgettext_lazy("room status", "Finished")

    code = models.CharField(gettext_lazy("code"),
                            max_length=16, unique=True, default=new_room_code, editable=False)
    name = models.CharField(gettext_lazy("name"), max_length=ROOM_NAME_MAX)
    rules = models.CharField(gettext_lazy("rules"),
                             max_length=16, choices=RULES_CHOICES, default="yahtzee")
    seats_count = models.PositiveSmallIntegerField(gettext_lazy("seats count"), default=2)
    status = models.CharField(gettext_lazy("status"),
                              max_length=10, choices=Status.choices, default=Status.WAITING)
    #: The guest key (from the Django session) of whoever created the room.
    host_key = models.CharField(gettext_lazy("host key"), max_length=64, blank=True, default="")
    #: Seconds a player has for a turn before autoplay plays it (0: no limit); ``TURN_TIMES``.
    turn_time = models.PositiveSmallIntegerField(gettext_lazy("turn time"), default=0)
    #: A practice room: a coach shows its players what each choice is worth and asks before a
    #: costly one. Shown on the room, the game's page and in the admin: hints were on.
    practice = models.BooleanField(gettext_lazy("practice"), default=False)

    class Chances(models.TextChoices):
        AUTO = "auto", gettext_lazy("With computer players")
        ON = "on", pgettext_lazy("chances shown", "Always")
        OFF = "off", pgettext_lazy("chances shown", "Never")

    #: Whether the players see each other's chances to win (watchers always do).
    chances = models.CharField(gettext_lazy("chances"),
                               max_length=4, choices=Chances.choices, default=Chances.AUTO)
    #: The secret server seed of the room's next game, drawn before any player's seed is fixed
    #: (at creation, and when a game ends); only its commitment is shown. Secret: never sent.
    next_server_seed = models.CharField(gettext_lazy("next server seed"),
                                        max_length=64, blank=True, default="", editable=False)
    #: The daily challenge this room plays (one player's attempt: no watchers, no rematch).
    daily = models.ForeignKey("DailyChallenge", verbose_name=gettext_lazy("daily"),
                              null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")
    created = models.DateTimeField(gettext_lazy("created"), auto_now_add=True)
    updated = models.DateTimeField(gettext_lazy("updated"), auto_now=True)

    class Meta:
        verbose_name = gettext_lazy("room")
        verbose_name_plural = gettext_lazy("rooms")
        ordering = ["-updated"]
        indexes = [
            # The lobby's lists (rooms of a status, latest first) and the admin's (latest first).
            models.Index(fields=["status", "-updated"], name="room_status_updated"),
            models.Index(fields=["-updated"], name="room_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def get_absolute_url(self) -> str:
        return reverse("game:room", args=[self.code])

    def players_see_chances(self, seats: list[Seat]) -> bool:
        """``chances`` resolved: "auto" means only in a room with a computer player."""
        if self.chances == Room.Chances.AUTO:
            return any(s.kind == Seat.Kind.BOT for s in seats)
        return self.chances == Room.Chances.ON

    @property
    def next_commitment(self) -> str:
        """SHA-256 of the next game's server seed: public."""
        return commitment(self.next_server_seed) if self.next_server_seed else ""


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", pgettext_lazy("seat kind", "Human")
        BOT = "bot", pgettext_lazy("seat kind", "Computer")

    room = models.ForeignKey(Room, verbose_name=gettext_lazy("room"),
                             on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(gettext_lazy("index"))
    kind = models.CharField(gettext_lazy("kind"),
                            max_length=5, choices=Kind.choices, default=Kind.HUMAN)
    bot_level = models.CharField(gettext_lazy("bot level"),
                                 max_length=8, choices=BOT_LEVEL_CHOICES, blank=True, default="")
    #: The name shown for this seat in this room's games (a copy: renaming the player later
    #: does not rename past games).
    nickname = models.CharField(gettext_lazy("nickname"),
                                max_length=NICKNAME_MAX, blank=True, default="")
    #: Who sits here (None for a computer, a free seat, or a guest from before player records).
    player = models.ForeignKey(Player, verbose_name=gettext_lazy("player"),
                               null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="seats")
    #: The guest key kept in the Django session of whoever took the seat ("" while free).
    guest_key = models.CharField(gettext_lazy("guest key"),
                                 max_length=64, blank=True, default="", db_index=True)
    #: Last moment a connection of this seat was known to be open (for the away rule).
    last_seen = models.DateTimeField(gettext_lazy("last seen"), null=True, blank=True)
    #: The seat's own dice seed (fair dice): typed or made by the browser, by the server for
    #: computer players; fixed into the game when it starts.
    client_seed = models.CharField(gettext_lazy("client seed"),
                                   max_length=CLIENT_SEED_MAX, blank=True, default="")

    class Meta:
        verbose_name = gettext_lazy("seat")
        verbose_name_plural = gettext_lazy("seats")
        ordering = ["room", "index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="seat_unique_index"),
        ]

    def __str__(self) -> str:
        return _("%(room)s seat %(index)s: %(name)s") % {
            "room": self.room.code, "index": self.index,
            "name": self.display_name or _("(free)")}

    @property
    def is_bot(self) -> bool:
        return self.kind == self.Kind.BOT

    @property
    def is_free(self) -> bool:
        return self.kind == self.Kind.HUMAN and not self.guest_key

    @property
    def display_name(self) -> str:
        if self.is_bot:
            return self.nickname or f"Bot ({self.bot_level})"
        return self.nickname


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("game status", "Playing")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")

    room = models.ForeignKey(Room, verbose_name=gettext_lazy("room"),
                             on_delete=models.CASCADE, related_name="games")
    rules = models.CharField(gettext_lazy("rules"), max_length=16, choices=RULES_CHOICES)
    status = models.CharField(gettext_lazy("status"),
                              max_length=10, choices=Status.choices, default=Status.PLAYING)
    #: Player names in turn order (player i sits in seat i), and the same names joined for search.
    players = models.JSONField(gettext_lazy("players"), default=list)
    player_names = models.CharField(gettext_lazy("player names"),
                                    max_length=200, blank=True, default="")
    #: Seq of the last stored event; the row is locked while a command is applied.
    # Translators: the number of the game's last event.
    seq = models.PositiveIntegerField(gettext_lazy("seq"), default=0)
    #: Cache of the state after event ``seq`` (re-derivable from the events).
    snapshot = models.JSONField(gettext_lazy("snapshot"), default=dict, blank=True)
    totals = models.JSONField(gettext_lazy("totals"), default=list, blank=True)
    winners = models.JSONField(gettext_lazy("winners"), default=list, blank=True)
    #: Fair dice: the secret server seed (hex; shown only once the game is finished), its
    #: public SHA-256 and the players' seeds in seat order. Empty for games before fair dice.
    server_seed = models.CharField(gettext_lazy("server seed"),
                                   max_length=64, blank=True, default="", editable=False)
    commitment = models.CharField(gettext_lazy("commitment"),
                                  max_length=64, blank=True, default="", editable=False)
    client_seeds = models.JSONField(gettext_lazy("client seeds"), default=list, blank=True)
    #: Ended by staff before every card was full (the one way left to cheat: listed in admin).
    unfinished = models.BooleanField(gettext_lazy("unfinished"), default=False, db_index=True)
    #: A daily challenge's game: its dice come from the day's tape (``server_seed`` stays "").
    daily = models.ForeignKey("DailyChallenge", verbose_name=gettext_lazy("daily"),
                              null=True, blank=True, on_delete=models.PROTECT,
                              related_name="games")
    created = models.DateTimeField(gettext_lazy("created"), auto_now_add=True)
    finished = models.DateTimeField(gettext_lazy("finished"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = gettext_lazy("game")
        verbose_name_plural = gettext_lazy("games")
        ordering = ["-id"]
        # The admin's filters by status and rules: counted from this index alone, a page read
        # newest first from it.
        indexes = [models.Index(fields=["status", "rules", "-id"], name="game_status_rules")]

    def __str__(self) -> str:
        return _("Game %(number)s (%(rules)s) in %(room)s") % {
            "number": self.pk, "rules": self.rules, "room": self.room.code}

    def get_absolute_url(self) -> str:
        return reverse("game:game_detail", args=[self.pk])

    @property
    def revealed_seed(self) -> str:
        """The server seed if it may be shown (the game is over), else ""."""
        return self.server_seed if self.status == self.Status.FINISHED else ""

    @property
    def winner_names(self) -> list[str]:
        return [self.players[i] for i in self.winners if 0 <= i < len(self.players)]

    @property
    def result_line(self) -> str:
        """A finished game's result in words: "Ann beat Bea 221 to 165", "Ann and Bea tied on
        200", "Ann won with 221; Bea 165, Cy 120", "Ann scored 240"."""
        scores = self.final_scores
        if not scores:
            return ""
        if len(scores) == 1:
            return _("%(name)s scored %(points)s") % {"name": scores[0][0],
                                                       "points": scores[0][1]}
        winners = self.winner_names
        if len(winners) > 1:
            names = _("%(names)s and %(last)s") % {"names": ", ".join(winners[:-1]),
                                                   "last": winners[-1]}
            others = ", ".join(f"{name} {total}" for name, total in scores[len(winners):])
            if others:
                # Translators: the others' scores follow, "Cy 120, Dee 98".
                return _("%(names)s tied on %(points)s; %(others)s") % {
                    "names": names, "points": scores[0][1], "others": others}
            return _("%(names)s tied on %(points)s") % {"names": names, "points": scores[0][1]}
        if len(scores) == 2:
            (first, high), (second, low) = scores
            return _("%(winner)s beat %(loser)s %(high)s to %(low)s") % {
                "winner": first, "loser": second, "high": high, "low": low}
        rest = ", ".join(f"{name} {total}" for name, total in scores[1:])
        # Translators: the others' scores follow, "Bea 165, Cy 120".
        return _("%(winner)s won with %(points)s; %(others)s") % {
            "winner": scores[0][0], "points": scores[0][1], "others": rest}

    @property
    def final_scores(self) -> list[tuple[str, int]]:
        """(name, total) of each player, best first (a finished game)."""
        return sorted(zip(self.players, self.totals, strict=False), key=lambda nt: -nt[1])


class GameEvent(models.Model):
    """One event of a game, stored before it is broadcast; rows are never changed or deleted."""

    class By(models.TextChoices):
        HUMAN = "human", pgettext_lazy("move by", "Human")
        BOT = "bot", pgettext_lazy("move by", "Bot")
        AUTOPLAY = "autoplay", pgettext_lazy("move by", "Autoplay (player away)")
        SYSTEM = "system", pgettext_lazy("move by", "System")

    game = models.ForeignKey(Game, verbose_name=gettext_lazy("game"),
                             on_delete=models.CASCADE, related_name="events")
    # Translators: an event's number in its game.
    seq = models.PositiveIntegerField(gettext_lazy("seq"))
    # Translators: an event's kind (rolled, scored, ...).
    kind = models.CharField(gettext_lazy("kind"), max_length=20)
    payload = models.JSONField(gettext_lazy("payload"), default=dict)
    created = models.DateTimeField(gettext_lazy("created"), auto_now_add=True)
    # Translators: who made a move: a person, a computer player, autoplay or the server.
    by = models.CharField(gettext_lazy("by"), max_length=10, choices=By.choices, default=By.SYSTEM)
    #: Seat that sent the command (None for events the server made on its own, like a start).
    seat = models.PositiveSmallIntegerField(gettext_lazy("seat"), null=True, blank=True)
    #: Client-chosen command id, on the first event of the command only (for idempotency).
    command_id = models.CharField(gettext_lazy("command id"),
                                  max_length=COMMAND_ID_MAX, blank=True, default="")

    class Meta:
        verbose_name = gettext_lazy("game event")
        verbose_name_plural = gettext_lazy("game events")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq"),
            models.UniqueConstraint(
                fields=["game", "seat", "command_id"],
                condition=~models.Q(command_id=""),
                name="event_unique_command",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValueError("Game events are append-only: a stored event is never changed.")
        super().save(*args, **kwargs)

    def to_rules_dict(self) -> dict:
        """The event as ``game.rules.event_from_dict`` reads it."""
        return {"kind": self.kind, **self.payload}


class Connection(models.Model):
    """One open websocket to a room, refreshed by a heartbeat; rows older than the staleness
    window are ignored (a killed server never runs ``disconnect()``)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    guest_key = models.CharField(max_length=64, blank=True, default="")
    #: The client's address (``game.clients``), for the cap on sockets per address.
    address = models.CharField(max_length=64, blank=True, default="")
    last_seen = models.DateTimeField(db_index=True)
    #: The server process holding the socket (``ServerProcess.name``).
    server = models.CharField(max_length=100, blank=True, default="", db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["guest_key", "last_seen"], name="connection_guest_seen"),
            models.Index(fields=["address", "last_seen"], name="connection_address_seen"),
        ]

    def __str__(self) -> str:
        return f"{self.room.code}: {self.channel_name}"


class ServerProcess(models.Model):
    """A server process holding sockets, alive while it beats. One that stopped beating
    crashed: its ``Connection`` rows are deleted (``services.presence.sweep_dead_servers``)."""

    name = models.CharField(max_length=100, unique=True)
    beat = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name


class GameAnalysis(models.Model):
    """The review of a finished game: ``game.ai.review.analyse(...).to_dict()``, computed once
    when the game ends (``services.review.analyse_game``); a page view only reads it. Rows of
    another ``version`` are recomputed by ``manage.py analyse``."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    version = models.PositiveSmallIntegerField()
    data = models.JSONField()
    #: When ``data`` was (re)computed.
    created = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return _("Analysis of game %(number)s (v%(version)s)") % {
            "number": self.game_id, "version": self.version}


class GameResult(models.Model):
    """One seat of a reviewed game, as the profiles and the ratings read it: written once,
    right after the game's review is stored (``services.ratings.record_game``), from the game
    and its review; a cache (``manage.py rebuild_ratings`` writes them all again)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    #: The person seated (None for a computer player or a guest from before player records).
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE,
                               related_name="results")
    bot_level = models.CharField(max_length=8, blank=True, default="")
    name = models.CharField(max_length=NICKNAME_MAX, blank=True, default="")
    rules = models.CharField(max_length=16, choices=RULES_CHOICES)
    finished = models.DateTimeField()
    final = models.IntegerField()
    #: Σ luck of the seat's rolls, from the review; ``final - luck`` is the luck-adjusted result.
    luck = models.FloatField()
    won = models.BooleanField()
    #: Real decisions graded, their summed loss (expected points) and counts per grade.
    decisions = models.PositiveIntegerField()
    graded_loss = models.FloatField()
    grades = models.JSONField(default=dict)
    #: Some of the seat's decisions were made by autoplay (the player was away).
    autoplay = models.BooleanField(default=False)
    #: The game changed this person's rating (rated rules, no autoplay, someone to compare with).
    rated = models.BooleanField(default=False)

    class Meta:
        ordering = ["-finished", "-game_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="result_unique_seat"),
        ]
        indexes = [
            models.Index(fields=["player", "-finished"], name="result_player_finished"),
            models.Index(fields=["player", "rules", "-finished"], name="result_player_rules"),
            models.Index(fields=["rules", "finished"], name="result_rules_finished"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}: {self.final}"

    @property
    def adjusted(self) -> float:
        return self.final - self.luck


class PlayerStats(models.Model):
    """A person's running totals in one ruleset, the profile's figures: added to with each
    recorded game's ``GameResult`` (``services.stats``), so a profile reads one row per ruleset
    however many games the player has; a cache of the results, rebuilt with the ratings."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="stats")
    rules = models.CharField(max_length=16, choices=RULES_CHOICES)
    games = models.PositiveIntegerField(default=0)
    final_sum = models.BigIntegerField(default=0)
    best = models.IntegerField(default=0)
    worst = models.IntegerField(default=0)
    luck_sum = models.FloatField(default=0.0)
    #: Σ expected points lost over the graded decisions, and how many there were.
    loss_sum = models.FloatField(default=0.0)
    decisions = models.PositiveIntegerField(default=0)
    #: Decisions per review grade, and games per final score (the histogram's counts).
    grades = models.JSONField(default=dict)
    finals = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "rules"], name="stats_unique_rules"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.rules}: {self.games} games"


class Rivalry(models.Model):
    """A person's record against one opponent (another person, or a computer level) over every
    recorded game they sat in together, kept game by game like ``PlayerStats``."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rivalries")
    #: ``p<player id>`` for a person, ``b<level>`` for a computer player.
    key = models.CharField(max_length=16)
    rival = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    bot_level = models.CharField(max_length=8, blank=True, default="")
    #: The name the opponent sat under at the latest game (a person's current name wins).
    name = models.CharField(max_length=NICKNAME_MAX, blank=True, default="")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    #: Games won with each side's luck taken out (final − Σ luck), and those margins summed.
    adjusted_wins = models.PositiveIntegerField(default=0)
    adjusted_margin_sum = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="rivalry_unique_key"),
        ]
        # Head to head lists the opponents most met first: read in order, never sorted.
        indexes = [models.Index(fields=["player", "-games", "name"], name="rivalry_most_met")]

    def __str__(self) -> str:
        return f"{self.player} vs {self.name}: {self.games} games"


class PlayerRating(models.Model):
    """A person's rating in one ruleset (``game.ratings``), updated game by game."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    ruleset = models.CharField(max_length=16, choices=RULES_CHOICES)
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "ruleset"], name="rating_unique_player"),
        ]
        # The leaderboard's order, its tie broken by player: read in order, never sorted.
        indexes = [models.Index(fields=["ruleset", "-rating", "player"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player} {self.ruleset}: {self.rating:.0f} ± {self.rd:.0f}"


class DailyChallenge(models.Model):
    """One day's (UTC) challenge in one ruleset: the secret seed of its dice tape
    (``rules.DailyDice``), drawn with ``secrets`` before the day starts; only its SHA-256 is
    shown until the day is over. Par is the optimal bot's score on the tape, computed once in
    the review worker (with its line of moves)."""

    day = models.DateField(gettext_lazy("day"))
    rules = models.CharField(gettext_lazy("rules"), max_length=16, choices=RULES_CHOICES)
    #: Secret until the day is over (``revealed_seed``): never sent before.
    seed = models.CharField(gettext_lazy("seed"), max_length=64, editable=False)
    commitment = models.CharField(gettext_lazy("commitment"), max_length=64, editable=False)
    # Translators: the optimal bot's score on a day's dice.
    par = models.IntegerField(gettext_lazy("par"), null=True, blank=True)
    #: Par's moves: [{"turn", "dice" of each roll, "held" of each re-roll, "box", "points"}].
    par_line = models.JSONField(gettext_lazy("par line"), default=list, blank=True, editable=False)
    created = models.DateTimeField(gettext_lazy("created"), auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("daily challenge")
        verbose_name_plural = gettext_lazy("daily challenges")
        ordering = ["-day", "rules"]
        constraints = [
            models.UniqueConstraint(fields=["day", "rules"], name="daily_unique_day_rules"),
        ]

    def __str__(self) -> str:
        return _("Daily %(rules)s %(day)s") % {"rules": self.rules, "day": self.day.isoformat()}

    def is_over(self, today: datetime.date) -> bool:
        """Whether the day is over (``today`` is the current UTC date)."""
        return self.day < today

    def revealed_seed(self, today: datetime.date) -> str:
        """The day seed once the day is over (UTC), else ""."""
        return self.seed if self.is_over(today) else ""


class DailyAttempt(models.Model):
    """A player's one attempt at a day's challenge: its room and game (a solo game on the
    day's tape), the final score when it ends, and the review's figures once it is stored."""

    challenge = models.ForeignKey(DailyChallenge, verbose_name=gettext_lazy("challenge"),
                                  on_delete=models.CASCADE,
                                  related_name="attempts")
    player = models.ForeignKey(Player, verbose_name=gettext_lazy("player"),
                               on_delete=models.CASCADE, related_name="daily_attempts")
    room = models.OneToOneField(Room, verbose_name=gettext_lazy("room"),
                                on_delete=models.CASCADE, related_name="daily_attempt")
    game = models.OneToOneField(Game, verbose_name=gettext_lazy("game"),
                                on_delete=models.CASCADE, related_name="daily_attempt")
    #: Whether an account played it from its first roll: the leaderboard lists these only.
    # Translators: whether a daily attempt's player had an account.
    account = models.BooleanField(gettext_lazy("account"), default=False)
    # Translators: a daily attempt's final score.
    final = models.IntegerField(gettext_lazy("final"), null=True, blank=True)
    finished = models.DateTimeField(gettext_lazy("finished"), null=True, blank=True)
    #: From the review: real decisions graded, their summed loss (expected points), and the
    #: grade of each turn (its worst decision's), for the share text.
    decisions = models.PositiveIntegerField(gettext_lazy("decisions"), default=0)
    loss = models.FloatField(gettext_lazy("loss"), null=True, blank=True)
    turn_grades = models.JSONField(gettext_lazy("turn grades"), default=list, blank=True)
    created = models.DateTimeField(gettext_lazy("created"), auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("daily attempt")
        verbose_name_plural = gettext_lazy("daily attempts")
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "player"], name="daily_one_attempt"),
        ]
        indexes = [
            # the leaderboard and a player's rank: best score first, ties by the loss
            models.Index(fields=["challenge", "account", "-final", "loss", "id"],
                         name="daily_board"),
            # a player's dailies (streak, fair-play figures)
            models.Index(fields=["player", "-created"], name="daily_player"),
        ]

    def __str__(self) -> str:
        return f"{self.challenge}: {self.player} {self.final if self.final is not None else '…'}"

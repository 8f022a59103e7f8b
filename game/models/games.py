"""Games, the append-only event log of each (the truth: ``Game.snapshot`` is a cache of the
fold of its events) and each finished game's stored review."""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from ..domain.games import COMMAND_ID_MAX
from .fields import RULES_CHOICES
from .rooms import Room


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
    #: An over-days game: its room's days per move when it started (0: a live game). Then the
    #: player to move (``waiting_for``), when their move's time runs out (the computer plays
    #: it) and when they are reminded are kept here, as each turn starts.
    move_days = models.PositiveSmallIntegerField(gettext_lazy("days per move"), default=0)
    waiting_for = models.ForeignKey("Player", verbose_name=gettext_lazy("waiting for"),
                                    null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    move_deadline = models.DateTimeField(gettext_lazy("move deadline"), null=True, blank=True,
                                         db_index=True)
    remind_at = models.DateTimeField(gettext_lazy("remind at"), null=True, blank=True,
                                     db_index=True)

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

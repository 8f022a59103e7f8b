"""Rooms and their seats."""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from ..domain.rooms import Chances as ChancesChoices
from ..domain.rooms import Pace as PaceChoices
from ..rules.fairness import CLIENT_SEED_MAX, commitment
from .fields import BOT_LEVEL_CHOICES, NICKNAME_MAX, ROOM_NAME_MAX, RULES_CHOICES, new_room_code
from .players import Player


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

    Chances = ChancesChoices
    Pace = PaceChoices

    #: Live, or over days: then ``move_days`` days a move, and nobody is played for when away.
    pace = models.CharField(gettext_lazy("pace"), max_length=4, choices=Pace.choices,
                            default=Pace.LIVE)
    move_days = models.PositiveSmallIntegerField(gettext_lazy("days per move"), default=0)

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
                               related_name="seats", db_index=False)  # seat_person_rooms
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
        indexes = [
            # A person's rooms, newest first, read by key: "Your games" walks them to the
            # rooms still going without the planner hashing every playing room of the site.
            models.Index(fields=["player", "-room"], name="seat_person_rooms"),
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

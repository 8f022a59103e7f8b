"""Notifications of over-days games: each one due (your turn, a reminder, a move the computer
made when time ran out), sent once through the person's channels, and the devices that asked
for Web Push."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy

from .games import Game
from .players import Player


class Notification(models.Model):
    """One notice to one person about one moment of a game (its ``seq``): made in the
    transaction that made it due, unique, then claimed by one server process and sent once
    (``services.notices``). A claim lapses at ``claimed_until``: a process that died while
    sending leaves it to another."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", gettext_lazy("your turn")
        REMINDER = "reminder", gettext_lazy("reminder")
        TIMED_OUT = "timed_out", gettext_lazy("played for you")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notifications")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    created = models.DateTimeField(auto_now_add=True)
    claimed_by = models.CharField(max_length=100, blank=True, default="")
    claimed_until = models.DateTimeField(null=True, blank=True)
    #: When it was dealt with (sent, or not needed: see ``outcome``); None while due.
    done = models.DateTimeField(null=True, blank=True)
    #: "sent" (``channels`` says where), "here" (the person had the room open), "moved" (the
    #: moment passed before it went out), "none" (no channel on).
    outcome = models.CharField(max_length=8, blank=True, default="")
    channels = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq", "player", "kind"],
                                               name="notification_once")]
        indexes = [models.Index(fields=["done", "id"], name="notification_due")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.player_id} in game {self.game_id} at {self.seq}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its push service's endpoint and its keys), for the
    person who made it; removed when the push service says it is gone (404, 410)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE,
                               related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1024, unique=True)
    p256dh = models.CharField(max_length=128)
    auth = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)
    last_sent = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push for {self.player_id}"

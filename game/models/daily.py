"""The daily challenge: each day's committed dice, and each player's one attempt."""

from __future__ import annotations

import datetime

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .fields import RULES_CHOICES
from .games import Game
from .players import Player
from .rooms import Room


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

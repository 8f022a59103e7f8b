"""A player: whoever acts on the site, with or without an account."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .fields import NICKNAME_MAX, new_player_token, new_public_id


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
    #: Has sat in a game over days: the header links "Your games" (read on every page, so
    #: kept here rather than found among all of a busy person's seats).
    plays_over_days = models.BooleanField(gettext_lazy("plays over days"), default=False)
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

    class EmailNotices(models.TextChoices):
        OFF = "off", pgettext_lazy("email notices", "Never")
        REMINDERS = "reminders", pgettext_lazy("email notices", "Before a move’s time runs out")
        TURNS = "turns", pgettext_lazy("email notices", "Every turn")

    #: Over-days games: a notification on this person's devices when it is their turn (once
    #: they allowed one on a device), and emails (accounts with a confirmed address).
    notify_push = models.BooleanField(gettext_lazy("notify on devices"), default=True)
    notify_email = models.CharField(gettext_lazy("email notices"), max_length=9,
                                    choices=EmailNotices.choices, default=EmailNotices.REMINDERS)
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

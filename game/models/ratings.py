"""What finished games leave to their players: results, running figures, rivalries and
ratings."""

from __future__ import annotations

from django.db import models

from .fields import NICKNAME_MAX, RULES_CHOICES
from .games import Game
from .players import Player


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
    #: What the dice did to the seat's chance to win (the review's ``chance.luck``; None: the
    #: review has no chance chain: one player, triple, an older review).
    chance_luck = models.FloatField(null=True, blank=True)
    #: The share of the win the rating counted (1 won, 0 lost or left, 1/k a k-way tie) and the
    #: luck-adjusted share (``game.ratings.wins``), for display; None when the game was not rated.
    share = models.FloatField(null=True, blank=True)
    adjusted = models.FloatField(null=True, blank=True)
    won = models.BooleanField()
    #: Real decisions graded, their summed loss (expected points) and counts per grade.
    decisions = models.PositiveIntegerField()
    graded_loss = models.FloatField()
    grades = models.JSONField(default=dict)
    #: Some of the seat's decisions were made by autoplay (the player was away).
    autoplay = models.BooleanField(default=False)
    #: The game changed this person's rating (rated rules, a chance chain, someone to compare
    #: with; a seat the computer played for the person who left counts as their loss).
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
    def adjusted_final(self) -> float:
        """The final score with the dice's luck taken out."""
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
    #: When the last rated game finished: the time since grows the deviation shown
    #: (``wins.shown``) and a player away too long leaves the leaderboard.
    last_game = models.DateTimeField(null=True, blank=True)
    #: The rated games whose play was the person's own (not left to the computer), their
    #: luck-adjusted points (final − the review's points luck) and the points their decisions
    #: lost, summed: a heads-up result's points control and precision weight are taken from
    #: their means (``wins.Seat.usual``, ``usual_loss``).
    own_games = models.PositiveIntegerField(default=0)
    points_sum = models.FloatField(default=0.0)
    loss_sum = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "ruleset"], name="rating_unique_player"),
        ]
        # The leaderboard's order, its tie broken by player: read in order, never sorted.
        indexes = [models.Index(fields=["ruleset", "-rating", "player"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player} {self.ruleset}: {self.rating:.0f} ± {self.rd:.0f}"

    @property
    def usual_points(self) -> float | None:
        """Mean luck-adjusted points over the person's own rated games (None: none yet)."""
        return self.points_sum / self.own_games if self.own_games else None

    @property
    def usual_loss(self) -> float | None:
        """Mean points a game their decisions lost there (None: no such game yet)."""
        return self.loss_sum / self.own_games if self.own_games else None

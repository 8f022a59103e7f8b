"""The daily challenge in the admin: the days with their commitments (the seed only once the
day is over), and every attempt beside its player's loss a decision across their dailies, the
implausibly low ones flagged and filtered."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from game import services
from game.domain.clock import utc_today
from game.models import DailyAttempt, DailyChallenge, Game, Room
from game.selectors import daily
from game.services.daily import ensure_challenges

pytestmark = pytest.mark.django_db


def attempts(player, losses: list[float], decisions: int = 40) -> None:
    """Reviewed dailies of ``player`` on the days before today, one a day."""
    today = utc_today()
    for back, loss in enumerate(losses, start=1):
        day, _ = DailyChallenge.objects.get_or_create(
            day=today - datetime.timedelta(days=back), rules="yahtzee",
            defaults={"seed": "1" * 64, "commitment": "c" * 64})
        room = Room.objects.create(name="d", rules="yahtzee", daily=day)
        game = Game.objects.create(room=room, rules="yahtzee", daily=day)
        DailyAttempt.objects.create(challenge=day, player=player, room=room, game=game,
                                    final=250, decisions=decisions, loss=loss, account=True)


def test_near_zero_loss_over_five_dailies_is_flagged(admin_client):
    peeker = services.new_player("Pia")
    strong = services.new_player("Sam")
    lucky = services.new_player("Lou")
    attempts(peeker, [0.0, 0.4, 0.2, 0.0, 0.3])  # 0.9 over 200 decisions
    attempts(strong, [6.0, 9.0, 4.0, 12.0, 7.0])  # 38 over 200: a strong person
    attempts(lucky, [0.0, 0.0, 0.0])  # too few dailies to say
    figures = {f.name: f for f in daily.fair_play()}
    assert figures["Pia"].suspect and figures["Pia"].mean_loss == pytest.approx(0.0045)
    assert not figures["Sam"].suspect and not figures["Lou"].suspect
    assert daily.suspects() == [peeker.pk]
    url = reverse("admin:game_dailyattempt_changelist")
    page = admin_client.get(url).content.decode()
    assert "0.005" in page and "0.190" in page  # each player's Δ a decision
    flagged = admin_client.get(url, {"suspect": "yes"})
    assert {a.player.name for a in flagged.context["cl"].result_list} == {"Pia"}


def test_a_days_seed_shows_in_the_admin_only_once_the_day_is_over(admin_client):
    today = ensure_challenges(utc_today())["yahtzee"]
    past = DailyChallenge.objects.create(day=utc_today() - datetime.timedelta(days=1),
                                         rules="yahtzee", seed="ab" * 32, commitment="c" * 64)
    listing = admin_client.get(reverse("admin:game_dailychallenge_changelist")).content.decode()
    assert today.commitment in listing and today.seed not in listing
    assert past.seed in listing
    change = admin_client.get(reverse("admin:game_dailychallenge_change", args=[today.pk]))
    assert today.seed not in change.content.decode()

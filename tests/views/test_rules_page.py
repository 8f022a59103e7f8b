"""The rules page (/rules/) and the room's "How boxes score" panel: one set of sentences
(game/presenters/rules_text.py), rendered in the reader's language."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from game.presenters import rules_text
from game.rules import RULESETS
from tests.support.rooms import room_with_players


@pytest.mark.parametrize("name", list(RULESETS))
def test_every_box_and_bonus_of_every_ruleset_has_its_sentence(name):
    ruleset = RULESETS[name]
    page = rules_text.for_page(ruleset)
    assert set(page["boxes"]) == set(ruleset.box_names)
    assert all(s.endswith(".") for s in page["boxes"].values())
    assert any(s.startswith("Upper bonus: ") for s in page["bonuses"])


def test_the_sentences_take_their_figures_from_the_rulesets():
    yahtzee, yatzy, triple = (RULESETS[n] for n in ("yahtzee", "yatzy", "triple"))
    assert rules_text.for_page(yahtzee)["boxes"]["full_house"].startswith("25 ")
    assert rules_text.for_page(yatzy)["boxes"]["small_straight"] == "15 for exactly 1-2-3-4-5."
    assert rules_text.for_page(yatzy)["bonuses"][0] == (
        "Upper bonus: 50 when Ones to Sixes add up to 63 or more.")
    bonuses = rules_text.for_page(triple)["bonuses"]
    assert "Final total: column 1 + 2 × column 2 + 3 × column 3." in bonuses
    assert any(line.startswith("Joker rule: ") for line in bonuses)
    yatzy_bonuses = rules_text.for_page(yatzy)["bonuses"]
    assert not any(line.startswith("Joker rule: ") for line in yatzy_bonuses)


@pytest.mark.django_db
def test_the_rules_page_has_a_section_for_each_variant():
    html = Client().get(reverse("game:rules")).content.decode()
    for name, ruleset in RULESETS.items():
        section = re.search(rf'<section[^>]*id="rules-{name}".*?</section>', html, re.S).group(0)
        assert ruleset.title in section
        for box in ruleset.boxes:
            assert rules_text.box_sentence(ruleset, box) in section.replace("&#x27;", "'")
        assert "Upper bonus" in section
    assert "A turn" in html and "three rolls" in html


@pytest.mark.django_db
def test_the_rules_page_renders_in_every_language():
    client = Client()
    for code in ("sv", "da", "nb", "de", "fr", "es"):
        response = client.get(reverse("game:rules"), HTTP_ACCEPT_LANGUAGE=code)
        assert response.status_code == 200
        assert f'<html lang="{code}">' in response.content.decode()


@pytest.mark.django_db
def test_the_lobby_and_the_rooms_panel_link_the_rules_and_the_room_carries_its_sentences():
    client = Client()
    assert reverse("game:rules") in client.get(reverse("game:lobby")).content.decode()
    room, _ = room_with_players(["Ann", "Bob"], rules="yatzy")
    html = client.get(room.get_absolute_url()).content.decode()
    assert f'{reverse("game:rules")}#rules-yatzy' in html
    data = json.loads(re.search(r'<script id="rules-text"[^>]*>(.*?)</script>', html,
                                re.S).group(1))
    assert data == rules_text.for_page(RULESETS["yatzy"])
    with translation.override("de"):
        assert rules_text.for_page(RULESETS["yatzy"])["boxes"]  # renders in another language

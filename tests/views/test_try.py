"""Try it yourself: GET /games/<id>/try/<seq> gives one decision of a finished game with every
option it had, valued in the review worker as the game's review values them; anything else is
refused with a code and a sentence, and counted against the visitor's budget."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from game.ai.review import analyse
from game.models import Game
from game.rules import event_from_dict
from tests.support.rooms import finished_game, room_with_players


def the_review(game: Game) -> dict:
    rows = list(game.events.order_by("seq").values_list("seq", "kind", "payload", "by"))
    return analyse([event_from_dict({**p, "kind": k}) for _, k, p, _ in rows],
                   by=[b for *_, b in rows], seqs=[s for s, *_ in rows]).to_dict()


@pytest.mark.django_db(transaction=True)  # the review worker reads the game from its process
def test_a_decisions_options_match_its_review_and_bad_asks_are_refused(client, settings,
                                                                       yahtzee_table):
    game = finished_game(["Ann", "Bob"])
    review = the_review(game)
    decisions = [d for d in review["decisions"] if d["grade"] != "forced"]
    # A hold that re-rolls something: keeping all five is no option of the page (scoring is the
    # choice then), and whether this game has one first depends on its room's id (its seeds),
    # which depends on the tests that ran before in the same database.
    hold = next(d for d in decisions if d["kind"] == "hold" and len(d["chosen"]) < 5)
    box = next(d for d in decisions if d["kind"] == "box")
    for d in (hold, box):
        response = client.get(f"/games/{game.pk}/try/{d['seq']}")
        assert response.status_code == 200, response.content
        tried = response.json()
        assert tried["seq"] == d["seq"] and tried["player"] == d["player"]
        assert tried["chosen"] == d["chosen"] and tried["best"] == d["best"]
        assert tried["expected_best"] == round(d["expected_best"], 3)
        chosen = (next(o for o in tried["boxes"] if o["box"] == d["chosen"]) if d["kind"] == "box"
                  else next(o for o in tried["holds"] if o["keep"] == d["chosen"]))
        assert chosen["loss"] == round(d["loss"], 3) and chosen["grade"] == d["grade"]
        assert chosen["expected"] == round(d["expected_chosen"], 3)
        assert len(tried["dice"]) == 5 and tried["rolls_left"] == d["rolls_left"]
    # Kept: the second ask is answered from the cache, the same.
    assert client.get(f"/games/{game.pk}/try/{box['seq']}").json()["boxes"] == tried["boxes"]

    playing = Game.objects.get(room=room_with_players(["Cy", "Di"])[0])
    for url, status, code in (
            (f"/games/{game.pk}/try/1", 404, "no_decision"),  # the game's start
            (f"/games/{game.pk}/try/99999", 404, "no_decision"),
            ("/games/99999/try/4", 404, "no_game"),
            (f"/games/{playing.pk}/try/4", 403, "not_finished")):  # no coach for a live game
        response = client.get(url)
        assert response.status_code == status, url
        assert response.json()["error"] == code and response.json()["message"]
    assert client.post(f"/games/{game.pk}/try/{box['seq']}").status_code == 405

    # A visitor asking too often is told to wait; nothing is valued for them.
    cache.clear()
    settings.TRIES_PER_MINUTE = 2  # per player; five times that per address (no cookie here)
    for _ in range(10):
        assert client.get(f"/games/{game.pk}/try/{hold['seq']}").status_code == 200
    refused = client.get(f"/games/{game.pk}/try/{hold['seq']}")
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"

"""The edges around a game: a shared link's preview (Open Graph) on the lobby, a room and a
finished game; the daily's squares with their legend, its yesterday only where a day has a
page and a missing day's own 404; a game's page linking each public person to their profile;
the invite after a game only where someone is left to invite."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from game import services
from game.domain.clock import utc_today
from game.models import DailyAttempt, DailyChallenge, GameAnalysis, Room
from game.services.daily import start_attempt
from tests.support.profiles import played_game

from .test_daily import as_player, day_url, finish
from .test_try import the_review


def meta(html: str, prop: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(prop)}" content="([^"]*)">', html)
    assert found, prop
    return unescape(found.group(1))


@pytest.mark.django_db
def test_a_shared_link_has_a_preview_with_absolute_addresses(yahtzee_table):
    ann, bea = services.new_player("Ann"), services.new_player("Bea")
    game = played_game([ann, bea])
    room = game.room
    pages = {"/": "Play Yahtzee with friends", room.get_absolute_url(): room.name,
             game.get_absolute_url(): game.result_line}
    for url, title in pages.items():
        html = Client().get(url).content.decode()
        assert meta(html, "og:title") == title, url
        assert meta(html, "og:description"), url
        assert meta(html, "og:url") == f"http://testserver{url}", url
        image = meta(html, "og:image")
        assert re.fullmatch(r"http://testserver/static/game/shared/share(\.[0-9a-f]+)?\.png",
                            image), image
        assert meta(html, "twitter:card") == "summary_large_image"
    assert "Ann beat Bea" in game.result_line or "Bea beat Ann" in game.result_line
    room_page = Client().get(room.get_absolute_url()).content.decode()
    assert "a room of Yahtzee" in meta(room_page, "og:description")
    # In the reader's language, like the page.
    swedish = Client(HTTP_ACCEPT_LANGUAGE="sv").get("/").content.decode()
    assert meta(swedish, "og:locale") == "sv" and meta(swedish, "og:image:alt") != (
        "Five dice showing six: a Yahtzee")


@pytest.mark.django_db
def test_a_games_page_links_public_people_to_their_profiles_and_no_one_else(yahtzee_table):
    ann, bea = services.new_player("Ann"), services.new_player("Bea")
    game = played_game([ann, bea, "easy"])
    # Before its review: from the room's seats, which still hold the names played with.
    html = Client().get(game.get_absolute_url()).content.decode()
    standings = html[html.index('<ol class="standings"'):]
    standings = standings[:standings.index("</ol>")]
    assert f'<a href="{ann.get_absolute_url()}">Ann</a>' in standings
    assert f'<a href="{bea.get_absolute_url()}">Bea</a>' in standings
    assert standings.count("<a ") == 2  # the computer has no profile
    review = the_review(game)
    GameAnalysis.objects.create(game=game, version=review["version"], data=review)
    assert services.record_game(game.pk)
    services.set_profile_private(bea, True)
    html = Client().get(game.get_absolute_url()).content.decode()
    assert ann.get_absolute_url() in html
    assert bea.get_absolute_url() not in html
    # A seat label, unlinked: the name is nowhere as a word (a CSRF token may hold its letters).
    assert not re.search(r"\bBea\b", html)


@pytest.mark.django_db(transaction=True)
def test_the_daily_squares_have_a_legend_in_the_readers_language():
    ann = services.new_player("Ann")
    attempt = finish(start_attempt(ann, "ga", "yahtzee"), "ga")
    DailyAttempt.objects.filter(pk=attempt.pk).update(
        turn_grades=["best"] * 10 + ["inaccuracy", "mistake", "blunder"])
    page = as_player(ann).get(day_url(attempt))
    html = page.content.decode()
    legend = html[html.index('<ul class="squares-legend"'):]
    legend = legend[:legend.index("</ul>")]
    for square, words in (("🟩", "best / good"), ("🟨", "inaccuracy"), ("🟧", "mistake"),
                          ("🟥", "blunder")):
        assert re.search(rf'{square}</span> {re.escape(words)}</li>', legend), (square, legend)
    german = as_player(ann)
    german.cookies["django_language"] = "de"
    assert "Was die Kästchen bedeuten" in german.get(day_url(attempt)).content.decode()


@pytest.mark.django_db(transaction=True)
def test_yesterday_is_linked_only_for_days_with_a_page_and_a_missing_day_is_a_site_404():
    today = utc_today()
    yesterday = today - datetime.timedelta(days=1)
    html = Client().get(reverse("game:daily")).content.decode()  # a new site
    assert "Yesterday’s games" not in html and yesterday.isoformat() not in html
    missing = Client().get(reverse("game:daily_day", args=["yahtzee", yesterday.isoformat()]))
    assert missing.status_code == 404
    page = missing.content.decode()
    assert "There is no daily challenge of" in page and reverse("game:daily") in page
    assert '<header class="site-header">' in page  # the site's page, not a bare one
    swedish = Client(HTTP_ACCEPT_LANGUAGE="sv").get(
        reverse("game:daily_day", args=["yatzy", yesterday.isoformat()]))
    assert swedish.status_code == 404 and "Det finns ingen daglig utmaning" in \
        swedish.content.decode()
    # Only yesterday's Yahtzee was played: only it is linked.
    DailyChallenge.objects.create(day=yesterday, rules="yahtzee", seed="s" * 64,
                                  commitment="c" * 64)
    html = Client().get(reverse("game:daily")).content.decode()
    assert "Yesterday’s games" in html
    assert reverse("game:daily_day", args=["yahtzee", yesterday.isoformat()]) in html
    assert reverse("game:daily_day", args=["yatzy", yesterday.isoformat()]) not in html
    assert Client().get(reverse("game:daily_day", args=[
        "yahtzee", yesterday.isoformat()])).status_code == 200


@pytest.mark.django_db
def test_after_a_game_the_invite_stays_only_where_someone_is_left_to_invite(yahtzee_table):
    ann = services.new_player("Ann")
    solo = played_game([ann, "easy"])  # against the computer
    host = Client()
    session = host.session
    room = Room.objects.get(pk=solo.room_id)
    assert room.status == Room.Status.FINISHED
    seated = room.seats.get(index=0).guest_key
    session[services.SESSION_GUEST] = seated
    session.save()
    page = host.get(room.get_absolute_url()).content.decode()
    assert re.search(r'<section id="invite"[^>]* hidden>', page)
    # Below the result, never above it.
    assert page.index('id="result"') < page.index('id="invite"')
    bea = services.new_player("Bea")
    friends = played_game([ann, bea])
    guest = Room.objects.get(pk=friends.room_id).seats.get(index=0).guest_key
    session[services.SESSION_GUEST] = guest
    session.save()
    page = host.get(friends.room.get_absolute_url()).content.decode()
    assert re.search(r'<section id="invite"[^>]*>', page).group(0).endswith('"invite-title">')
    assert page.index('id="result"') < page.index('id="rematch-btn"') < page.index(
        'id="invite"')

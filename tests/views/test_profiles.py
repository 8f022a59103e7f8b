"""The profile page (figures per ruleset, charts, head to head, games; private profiles) and
the leaderboards (settled ratings, this week and all time, your own place)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.template.defaultfilters import floatformat
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game import services
from game.models import Player, PlayerRating
from game.selectors import players as profiles
from game.web.players import COOKIE
from tests.support.profiles import played_game, store_review

pytestmark = pytest.mark.django_db

GRADES_A = {"best": 20, "good": 4, "inaccuracy": 3, "mistake": 2, "blunder": 1}
GRADES_B = {"best": 25, "good": 1, "inaccuracy": 2, "mistake": 1, "blunder": 1}


def as_player(player: Player) -> Client:
    client = Client()
    client.cookies[COOKIE] = player.token
    return client


@pytest.fixture
def history():
    """Ann's three reviewed games: two against Bea, one against the easy bot."""
    ann, bea = services.new_player("Ann"), services.new_player("Bea")
    games = [played_game([ann, bea]), played_game([bea, ann]), played_game([ann, "easy"])]
    reviews = [  # (Σ luck, Σ loss) of each seat, in the game's seat order (Ann second in game 2)
        ([12.0, -4.0], [6.0, 9.0]), ([3.0, -7.5], [12.0, 4.5]), ([0.0, 5.0], [3.0, 30.0])]
    for game, (lucks, losses) in zip(games, reviews, strict=True):
        grades = [GRADES_A, GRADES_B] if game.players[0] == "Ann" else [GRADES_B, GRADES_A]
        store_review(game, lucks=lucks, losses=losses, grades=grades)
        services.record_game(game.pk)
    return ann, bea, games


def ann_finals(games) -> list[int]:
    return [g.totals[g.players.index("Ann")] for g in games]


def page_text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_profile_shows_each_figure_from_the_reviewed_games(history):
    ann, bea, games = history
    finals = ann_finals(games)
    response = Client().get(f"/p/{ann.public_id}/")
    assert response.status_code == 200
    (stats,) = response.context["stats"]
    s = stats["s"]
    assert (s.rules, s.games, s.best, s.worst) == ("yahtzee", 3, max(finals), min(finals))
    assert s.average == pytest.approx(sum(finals) / 3)
    assert s.accuracy == pytest.approx((6.0 + 4.5 + 3.0) / 90)  # Ann's Σ loss / decisions
    assert s.luck_per_game == pytest.approx((12.0 - 7.5 + 0.0) / 3)
    assert s.grades == {g: 3 * n for g, n in GRADES_A.items()}
    assert s.trend == finals  # oldest first
    text = page_text(response)
    assert f"Average {sum(finals) / 3:.1f}" in text and f"Best {max(finals)}" in text
    assert "Luck a game +1.5" in text
    # The choices in words and percent: 72 of 90 the best or good, 13.5 points lost in all.
    assert "Good choices the best or good 80 %" in text
    assert "Lost a choice points, on average 0.15" in text
    assert "Accuracy" not in text and "Δ" not in text
    assert "60 best 12 good 9 inaccuracies 6 mistakes 3 blunders" in text
    assert "provisional" in text  # three games are not enough to settle a rating
    assert ("provisional until the ± is below 110: each rated game narrows it, time away "
            "widens it") in text
    row = PlayerRating.objects.get(player=ann, ruleset="yahtzee")
    assert f"Rating {row.rating:.0f} ± {row.rd:.0f}" in text


def test_the_charts_are_svg_drawn_on_the_server(history):
    ann, _, games = history
    response = Client().get(f"/p/{ann.public_id}/")
    html = response.content.decode()
    (stats,) = response.context["stats"]
    bars = stats["histogram"]["bars"]
    assert sum(b.count for b in bars) == 3
    assert html.count('<rect class="bar"') == len(bars)
    points = re.search(r'<polyline class="line" points="([^"]+)"', html).group(1).split()
    assert len(points) == 3
    heights = [float(p.split(",")[1]) for p in points]  # a higher score is drawn higher up
    finals = ann_finals(games)
    assert sorted(range(3), key=lambda i: heights[i]) == sorted(range(3), key=lambda i: -finals[i])
    assert "style=" not in html and "<script>" not in html


def test_head_to_head_counts_wins_and_the_result_without_luck(history):
    ann, bea, games = history
    response = Client().get(f"/p/{ann.public_id}/")
    rivals = {r.name: r for r in response.context["rivals"]}
    assert set(rivals) == {"Bea", "Computer (easy)"}
    vs_bea = rivals["Bea"]
    a = ann_finals(games)
    b = [games[0].totals[1], games[1].totals[0]]
    margins = [(a[0] - 12.0) - (b[0] + 4.0), (a[1] + 7.5) - (b[1] - 3.0)]
    assert (vs_bea.games, vs_bea.wins) == (2, (a[0] > b[0]) + (a[1] > b[1]))
    assert vs_bea.adjusted_wins == sum(m > 0 for m in margins)
    assert vs_bea.adjusted_margin == pytest.approx(sum(margins) / 2)
    bot = rivals["Computer (easy)"]
    assert bot.games == 1 and bot.adjusted_margin == pytest.approx(
        (a[2] - 0.0) - (games[2].totals[1] - 5.0))
    html = response.content.decode()
    assert f'href="{bea.get_absolute_url()}"' in html
    # Signed as the review's figures are: a plus, or a minus sign (U+2212), never a hyphen.
    for rival in (vs_bea, bot):
        m = rival.adjusted_margin
        sign = "+" if m > 0 else "−" if m < 0 else ""
        assert f'<td class="num">{sign}{floatformat(abs(m), 1)}</td>' in html


def test_a_profile_reads_as_much_after_many_more_games(history):
    """The figures are running totals (one row a ruleset, one an opponent): a profile's
    queries do not grow with the player's games, and each read of their results is a page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, bea, _ = history

    def profile_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert Client().get(f"/p/{ann.public_id}/").status_code == 200
        results = [q["sql"] for q in queries if 'FROM "game_gameresult"' in q["sql"]]
        assert results and all(" LIMIT " in sql or "COUNT(*)" in sql for sql in results)
        return len(queries)

    few = profile_queries()
    for seats in ([ann, bea], [ann, "medium"], [bea, ann], [ann, bea, "easy"]):
        game = played_game(seats)
        store_review(game, lucks=[1.0, -1.0, 0.5][:len(seats)])
        services.record_game(game.pk)
    assert profile_queries() == few
    (stats,) = Client().get(f"/p/{ann.public_id}/").context["stats"]
    assert stats["s"].games == 7 and sum(stats["s"].finals.values()) == 7
    assert len(stats["s"].trend) == 7


def test_the_games_are_listed_newest_first_a_page_at_a_time(history, monkeypatch):
    ann, _, games = history
    monkeypatch.setattr(profiles, "GAMES_PER_PAGE", 2)
    first = Client().get(f"/p/{ann.public_id}/")
    second = Client().get(f"/p/{ann.public_id}/?page=2")
    assert [r.game for r in first.context["page"]] == [games[2], games[1]]
    assert [r.game for r in second.context["page"]] == [games[0]]
    html = first.content.decode()
    assert f'href="{games[2].get_absolute_url()}"' in html and 'rel="next"' in html
    assert Client().get(f"/p/{ann.public_id}/?page=x").status_code == 200  # the first page


def test_the_profile_never_shows_the_cookie_token_and_the_header_links_it(history):
    ann, _, _ = history
    own = as_player(ann).get(reverse("game:lobby")).content.decode()
    assert f'href="/p/{ann.public_id}/">Your profile' in own
    page = Client().get(f"/p/{ann.public_id}/").content.decode()
    assert ann.token not in page and ann.token not in own
    assert Client().get("/p/nobody1234/").status_code == 404
    assert Client().get(f"/p/{'x' * 40}/").status_code == 404


def test_a_private_profile_shows_others_only_the_name(history):
    ann, bea, _ = history
    owner = as_player(ann)
    url = f"/p/{ann.public_id}/"
    assert owner.post(reverse("game:profile_privacy", args=[ann.public_id]),
                      {"private": "1"}).status_code == 302
    ann.refresh_from_db()
    assert ann.private
    other = Client().get(url)
    assert other.status_code == 200 and "Ann keeps their profile private." in page_text(other)
    assert "stats" not in other.context and "Head to head" not in page_text(other)
    assert "Head to head" in page_text(owner.get(url))  # the owner still sees everything
    # Bea's profile no longer links Ann's; only Ann may change Ann's setting.
    assert f'href="{url}"' not in Client().get(f"/p/{bea.public_id}/").content.decode()
    stranger = as_player(bea).post(reverse("game:profile_privacy", args=[ann.public_id]),
                                   {"private": "0"})
    assert stranger.status_code == 404
    ann.refresh_from_db()
    assert ann.private
    assert Client().get(reverse("game:profile_privacy", args=[ann.public_id])).status_code == 405


def settled(player: Player, rules: str, rating: float, *, rd: float = 80.0, games: int = 12,
            away: timedelta = timedelta(days=1)) -> None:
    """A rating row as a history of games would leave it, its last rated game ``away`` ago."""
    PlayerRating.objects.create(player=player, ruleset=rules, rating=rating, rd=rd,
                                volatility=0.06, games=games, updated=timezone.now(),
                                last_game=timezone.now() - away)


def test_the_leaderboards_list_settled_ratings_this_week_and_all_time(history):
    """Ratings written directly (settling one takes many games); who played this week is who
    had a rated game since, the last one kept on the rating's row."""
    ann, bea, games = history
    PlayerRating.objects.all().delete()
    names = ["Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
    cy, di, ed, flo, gus, hal, ivy = (services.new_player(n) for n in names)
    settled(hal, "yahtzee", 2050.0, away=timedelta(weeks=5))  # away too long
    # Settled when last rated, but three weeks away widened ± 109 past 110: sqrt(109² + 3 ×
    # (173.7 × 0.06)²) = 110.48. Above everyone, so Bea's place counts her out too.
    settled(ivy, "yahtzee", 2100.0, rd=109.0, away=timedelta(weeks=3))
    settled(ann, "yahtzee", 1700.0)
    settled(bea, "yahtzee", 1600.0)
    settled(cy, "yahtzee", 1800.0, away=timedelta(days=10))  # settled, not this week
    settled(di, "yahtzee", 1900.0, rd=150.0)  # provisional
    settled(ed, "yahtzee", 1950.0, games=3)   # too few games
    settled(flo, "yahtzee", 1750.0)
    settled(gus, "yatzy", 2000.0)             # the other ruleset
    Player.objects.filter(pk=flo.pk).update(private=True)

    response = as_player(bea).get(reverse("game:leaderboard", args=["yahtzee"]))
    assert response.status_code == 200
    week, all_time = response.context["boards"]
    assert [(s.place, s.player.name) for s in all_time["rows"]] == [
        (1, "Cy"), (2, "Ann"), (3, "Bea")]
    assert [(s.place, s.player.name) for s in week["rows"]] == [(1, "Ann"), (2, "Bea")]
    assert (week["mine"].place, all_time["mine"].place) == (2, 3)
    text = page_text(response)
    assert "Your place: 2 (1600)" in text and "Your place: 3 (1600)" in text
    assert "Gus" not in text and "Flo" not in text and "Di" not in text
    assert "Hal" not in text and "Ivy" not in text
    # The ± shown is the one grown for the day since the last game: sqrt(80² + 1/7 × 10.42²).
    assert all_time["rows"][1].rd == pytest.approx((80.0 ** 2 + (173.7178 * 0.06) ** 2 / 7)
                                                   ** 0.5, abs=0.01)

    def not_listed(player: Player) -> str:
        return page_text(as_player(player).get(reverse("game:leaderboard", args=["yahtzee"])))

    assert "You are not listed yet: 2 more rated games to go." in not_listed(ed)
    assert ("You are not listed yet: your rating is still provisional (± 150; listed below "
            "± 110).") in not_listed(di)
    assert ("You are not listed: your last rated game was more than 4 weeks ago."
            in not_listed(hal))
    assert "You are not listed yet: your rating is still provisional (± 110;" in not_listed(ivy)

    private = as_player(flo).get(reverse("game:leaderboard", args=["yahtzee"]))
    assert "Your profile is private, so you are not listed." in page_text(private)
    assert Client().get("/leaderboard/triple/").status_code == 404
    assert Client().get("/leaderboard/chess/").status_code == 404


def test_a_player_away_four_weeks_leaves_the_leaderboard_their_deviation_grown():
    ann = services.new_player("Ann")
    settled(ann, "yahtzee", 1700.0, rd=60.0, away=timedelta(0))
    now = PlayerRating.objects.get(player=ann).last_game
    (listed,) = profiles.leaderboard("yahtzee", now=now)
    assert (listed.player, listed.rd) == (ann, 60.0)
    later = profiles.leaderboard("yahtzee", now=now + timedelta(weeks=3, days=6))
    assert [s.player for s in later] == [ann] and later[0].rd > 60.0  # ± grows while away
    assert profiles.place_of(ann, "yahtzee", now=now + timedelta(weeks=3, days=6)) is not None
    assert profiles.leaderboard("yahtzee", now=now + timedelta(weeks=4)) == []
    assert profiles.place_of(ann, "yahtzee", now=now + timedelta(weeks=4)) is None
    why = profiles.why_not_listed(ann, "yahtzee", now=now + timedelta(weeks=4))
    assert (why.reason, why.last_game) == ("away", now)

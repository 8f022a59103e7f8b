"""Thin views of the daily challenge: today's page, starting (or going on with) an attempt, a
day's results, the public list of the days' commitments."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import services
from ..domain import translated
from ..domain.clock import utc_today
from ..models import DailyChallenge
from ..presenters import profile as charts
from ..presenters.review import grade_label
from ..selectors import daily
from ..services.daily import DAILY_RULES, ensure_challenges, start_attempt
from ..web.players import acting_player, current_player, guest_within_limit

#: How many days back the commitments list reaches.
COMMITMENT_DAYS = 7


def home(request: HttpRequest) -> HttpResponse:
    """Today's challenge in each ruleset (play, go on, or your result) and tomorrow's
    commitments, published before its day starts."""
    today = utc_today()
    tomorrow = today + datetime.timedelta(days=1)
    challenges = ensure_challenges(today)
    upcoming = ensure_challenges(tomorrow)
    me = current_player(request)
    cards = []
    for rules in DAILY_RULES:
        day = challenges[rules]
        cards.append({"challenge": day, "attempt": daily.attempt_of(day, me),
                      "players": daily.finished(day).count()})
    context = {
        "today": today, "cards": cards, "tomorrow": tomorrow,
        "upcoming": [upcoming[r] for r in DAILY_RULES],
        "yesterday": today - datetime.timedelta(days=1),
        # Only the days that have a page: a new site has no yesterday.
        "yesterday_played": list(DailyChallenge.objects.filter(
            day=today - datetime.timedelta(days=1)).order_by("rules")),
        "streak": daily.streak(me, today) if me else 0,
    }
    return render(request, "game/daily.html", context)


@require_POST
def play(request: HttpRequest, rules: str) -> HttpResponse:
    """Start today's attempt in ``rules``, or go on with it (on this browser now)."""
    if rules not in DAILY_RULES:
        raise Http404("No daily challenge in these rules.")
    try:
        guest = guest_within_limit(request, "create_room")
        player = acting_player(request)
        attempt = start_attempt(player, guest, rules)
    except services.ServiceError as exc:
        messages.error(request, translated.message(exc))
        return redirect("game:daily")
    if attempt.final is not None:
        return redirect("game:daily_day", rules=rules, day=attempt.challenge.day.isoformat())
    return redirect(attempt.room)


#: The upper boxes, by face: a box scoring the dice of its face.
_UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")


def _par_points(turn: dict) -> tuple[int, int]:
    """A turn of par's line: its box's own points and the bonus it brought besides. Lines
    stored before the two were kept apart hold their sum: a bonus is more than any box scores
    (35 or 50 upper, 100 a Yahtzee), so an upper box's own points are its face's dice of the
    last roll and a lower box's what is left under 100."""
    if "bonus" in turn:
        return turn["points"], turn["bonus"]
    total = turn["points"]
    if turn["box"] in _UPPER:
        face = _UPPER.index(turn["box"]) + 1
        own = face * turn["rolls"][-1].count(face)
    else:
        own = total % 100
    return own, total - own


def _par_steps(line: list[dict]) -> list[dict]:
    """Par's line as read on the page: each turn's rolls, each with the dice kept after it;
    its box (by its label), the box's points and, apart, the bonus it brought."""
    steps = []
    for t in line:
        points, bonus = _par_points(t)
        steps.append({"box": translated.box_name_label(t["box"]), "points": points,
                      "bonus": bonus, "steps": [
                          {"dice": "".join(map(str, dice)),
                           "kept": "".join(map(str, t["held"][i])) if i < len(t["held"]) else None}
                          for i, dice in enumerate(t["rolls"])]})
    return steps


def _square_legend() -> list[tuple[str, str]]:
    """What each square of a day's turns means: the grades it stands for (best and good share
    green), in the reader's language."""
    by_square: dict[str, list[str]] = {}
    for grade, square in daily.SQUARES.items():
        by_square.setdefault(square, []).append(grade_label(grade, 1))
    return [(square, " / ".join(names)) for square, names in by_square.items()]


def _day(raw: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(raw)
    except ValueError:
        raise Http404("A day is written YYYY-MM-DD.") from None


def day_page(request: HttpRequest, rules: str, day: str) -> HttpResponse:
    """A day's results: today's once you finished it (your score beside par, your review, the
    leaderboard, the scores, your friends, your streak, the share text); a past day's for
    everyone, with its revealed seed and par's line."""
    when = _day(day)
    today = utc_today()
    challenge = DailyChallenge.objects.filter(day=when, rules=rules).first()
    if challenge is None or when > today:
        # The site's page, saying which day is missing and where the daily is.
        return render(request, "404.html", {"missing_day": when}, status=404)
    me = current_player(request)
    attempt = daily.attempt_of(challenge, me)
    over = challenge.is_over(today)
    if not over and (attempt is None or attempt.final is None):
        messages.info(request,
                      _("Today’s results are shown once you have played it to the end."))
        return redirect("game:daily")
    scores = daily.scores(challenge)
    url = request.build_absolute_uri(
        reverse("game:daily_day", kwargs={"rules": rules, "day": when.isoformat()}))
    context = {
        "challenge": challenge, "attempt": attempt, "over": over, "me": me,
        "seed": challenge.revealed_seed(today),
        "par_line": _par_steps(challenge.par_line) if over else [],
        "place": daily.place_of(attempt) if attempt and attempt.final is not None else None,
        "place_of": (daily.finished(challenge).filter(account=attempt.account).count()
                     if attempt and attempt.final is not None else 0),
        "board": daily.leaderboard(challenge, me),
        "guests": daily.guests(challenge, me),
        "friends": daily.friends(challenge, me) if me else [],
        "histogram": charts.histogram(scores, bin_width=10),
        "players": sum(scores.values()),
        "streak": daily.streak(me, today) if me else 0,
        "share": (daily.share_text(attempt, challenge.par, url)
                  if attempt and attempt.final is not None else ""),
        # Each turn's square and its grade's name ("Turn 3: mistake"), and what they mean.
        "turn_squares": ([(daily.SQUARES.get(g, "⬜"), grade_label(g, 1))
                          for g in attempt.turn_grades] if attempt else []),
        "square_legend": _square_legend(),
        "today": today,
    }
    return render(request, "game/daily_day.html", context)


@require_GET
def commitments(request: HttpRequest) -> JsonResponse:
    """Every daily challenge from a week ago to tomorrow: its commitment (published before its
    day starts) and, once its day is over, its seed and par."""
    today = utc_today()
    ensure_challenges(today)
    ensure_challenges(today + datetime.timedelta(days=1))
    rows = DailyChallenge.objects.filter(
        day__gte=today - datetime.timedelta(days=COMMITMENT_DAYS)).order_by("day", "rules")
    return JsonResponse({"today": today.isoformat(), "challenges": [
        {"day": c.day.isoformat(), "rules": c.rules, "commitment": c.commitment,
         "seed": c.revealed_seed(today) or None, "par": c.par if c.is_over(today) else None}
        for c in rows]}, json_dumps_params={"indent": 1})

"""The rules page (/rules/): the three games in the reader's language."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..presenters.rules_text import all_rulesets_text


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "game/rules.html", {"rulesets": all_rulesets_text()})

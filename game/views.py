from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .rules import RULESETS


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "game/lobby.html", {"rulesets": RULESETS.values()})

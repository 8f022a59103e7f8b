"""Thin views: the lobby, a room page, taking a seat, a game's public page."""

from __future__ import annotations

from datetime import timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from . import services
from .forms import CreateRoomForm, JoinForm
from .models import Game, Room
from .rules import RULESETS, get_ruleset
from .services.rooms import SESSION_NICKNAME

LOBBY_LIMIT = 20
RECENT = timedelta(days=2)


def lobby(request: HttpRequest) -> HttpResponse:
    form = CreateRoomForm(request.POST or None, initial={
        "nickname": request.session.get(SESSION_NICKNAME, "")})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        guest = services.guest_key(request.session)
        room = services.create_room(name=data["name"], rules=data["rules"],
                                    seats=data["seat_specs"], host_key=guest)
        if data["nickname"]:
            first = next(i for i, s in enumerate(data["seat_specs"]) if s.bot_level is None)
            services.take_seat(room.code, guest, data["nickname"], first)
            request.session[SESSION_NICKNAME] = data["nickname"]
        return redirect(room)
    rooms = Room.objects.prefetch_related("seats")
    context = {
        "form": form,
        "waiting": rooms.filter(status=Room.Status.WAITING)[:LOBBY_LIMIT],
        "playing": rooms.filter(status=Room.Status.PLAYING)[:LOBBY_LIMIT],
        "finished": rooms.filter(status=Room.Status.FINISHED,
                                 updated__gte=timezone.now() - RECENT)[:LOBBY_LIMIT],
        "rulesets": RULESETS.values(),
    }
    return render(request, "game/lobby.html", context, status=400 if form.errors else 200)


def _room_page(request: HttpRequest, room: Room, join_form: JoinForm | None = None,
               status: int = 200) -> HttpResponse:
    guest = services.guest_key(request.session, create=False)
    seat = services.seat_of(room, guest)
    nickname = seat.nickname if seat else request.session.get(SESSION_NICKNAME, "")
    context = {
        "room": room,
        "seat": seat.index if seat else None,
        "nickname": nickname,
        "join_form": join_form or JoinForm(room, initial={"nickname": nickname}),
        "is_host": bool(guest) and guest == room.host_key,
        "rulesets": RULESETS.values(),
    }
    return render(request, "game/room.html", context, status=status)


def room(request: HttpRequest, code: str) -> HttpResponse:
    return _room_page(request, get_object_or_404(Room, code=code))


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    room = get_object_or_404(Room, code=code)
    form = JoinForm(room, request.POST)
    if form.is_valid():
        guest = services.guest_key(request.session)
        try:
            services.take_seat(code, guest, form.cleaned_data["nickname"],
                               form.cleaned_data["seat"])
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            request.session[SESSION_NICKNAME] = form.cleaned_data["nickname"]
            return redirect(room)
    return _room_page(request, room, form, status=400)


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("room"), pk=pk)
    ruleset = get_ruleset(game.rules)
    cards = game.snapshot.get("scorecards", [])
    columns = range(ruleset.columns)
    rows = [
        {"title": box.label, "cells": [
            card["columns"][c]["boxes"].get(box.name) for card in cards for c in columns]}
        for box in ruleset.boxes
    ]
    extra = [
        (label, [card["columns"][c][key] for card in cards for c in columns])
        for label, key in (("Upper subtotal", "upper_subtotal"), ("Upper bonus", "upper_bonus"),
                           ("Yahtzee bonus", "yahtzee_bonus"), ("Column total", "total"))
    ]
    context = {
        "game": game,
        "ruleset": ruleset,
        "players": list(zip(game.players, [c.get("total") for c in cards], strict=False)),
        "column_headers": [(name, c + 1, ruleset.multipliers[c])
                           for name in game.players for c in columns],
        "rows": rows,
        "extra_rows": extra,
        "events": [(e, describe(e.kind, e.payload, game.players))
                   for e in game.events.order_by("seq")],
        "winners": [game.players[i] for i in game.winners],
    }
    return render(request, "game/game_detail.html", context)


def describe(kind: str, payload: dict, players: list[str]) -> str:
    """One line of the event log, for people."""
    def who() -> str:
        i = payload.get("player")
        return players[i] if isinstance(i, int) and 0 <= i < len(players) else "?"

    column = payload.get("column", 0)
    where = f" (column {column + 1})" if column else ""
    if kind == "game_started":
        return f"Game of {payload.get('rules')} started: {', '.join(payload.get('players', []))}"
    if kind == "turn_started":
        return f"Round {payload.get('round')}: {who()}'s turn"
    if kind == "rolled":
        held = payload.get("held") or []
        keep = f", keeping {len(held)}" if held else ""
        return f"{who()} rolled {' '.join(map(str, payload.get('dice', [])))}{keep}"
    if kind == "scored":
        joker = " (Joker)" if payload.get("joker") else ""
        box = str(payload.get("box", "")).replace("_", " ")
        return f"{who()} scored {payload.get('points')} in {box}{where}{joker}"
    if kind == "bonus":
        return f"{who()} earned the {payload.get('bonus')} bonus: {payload.get('points')}{where}"
    if kind == "game_finished":
        names = [players[i] for i in payload.get("winners", []) if 0 <= i < len(players)]
        return f"Game over. Won by {', '.join(names)} — totals {payload.get('totals')}"
    return kind

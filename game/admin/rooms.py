"""Rooms (rules and status read-only once a game started) and their seats."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Game, Room, Seat
from .common import IdsFirstPaginator, WithoutBulkDelete, keeps_a_finished_game, live


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "kind", "bot_level", "nickname", "last_seen")
    readonly_fields = ("last_seen",)

    def get_readonly_fields(self, request, obj=None):
        return self.fields if live(obj) else self.readonly_fields

    def has_add_permission(self, request, obj=None) -> bool:
        return not live(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not live(obj) and super().has_delete_permission(request, obj)


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ("link", "status", "player_names", "created", "finished")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    @admin.display(description=gettext_lazy("game"))
    def link(self, obj: Game) -> str:
        return format_html('<a href="{}">{}</a>', obj.get_absolute_url(),
                           _("Game %(number)s") % {"number": obj.pk})

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Room)
class RoomAdmin(WithoutBulkDelete, admin.ModelAdmin):
    list_display = ("name", "code", "rules", "status", "practice", "chances", "seats_count",
                    "created", "updated")
    list_filter = ("rules", "status", "practice", "created")
    search_fields = ("name", "code", "seats__nickname")
    show_full_result_count = False  # one count of a long list, not two
    list_per_page = 50
    paginator = IdsFirstPaginator
    # Whether hints were on is part of every game's record: fixed once the room exists.
    readonly_fields = ("code", "status", "practice", "host_key", "created", "updated")
    inlines = [SeatInline, GameInline]

    def get_readonly_fields(self, request, obj=None):
        # The status follows the games (services change it); rules and seats once one started.
        extra = ("name", "rules", "seats_count") if live(obj) else ()
        return (*extra, *self.readonly_fields)

    def has_delete_permission(self, request, obj=None) -> bool:
        # Every finished game is kept: its room (which would take it along) too.
        return not keeps_a_finished_game(obj) and super().has_delete_permission(request, obj)


class SeatForm(forms.ModelForm):
    def clean(self) -> dict:
        cleaned = super().clean()
        room = cleaned.get("room")
        if room is not None and live(room):
            raise forms.ValidationError(
                _("This room’s game has started: its seats are read-only here (players change "
                  "seats between games, from the room’s page)."))
        return cleaned


@admin.register(Seat)
class SeatAdmin(WithoutBulkDelete, admin.ModelAdmin):
    """Seats on their own; those of a room whose game started are read-only, as in the room."""

    form = SeatForm
    list_display = ("room", "index", "kind", "bot_level", "nickname", "last_seen")
    list_filter = ("kind", "bot_level")
    search_fields = ("nickname", "room__code", "room__name")
    list_select_related = ("room",)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and live(obj.room):
            return [f.name for f in Seat._meta.fields]
        return super().get_readonly_fields(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not (obj is not None and live(obj.room)) and super().has_delete_permission(
            request, obj)


#: Events a player's move makes; the others (a game's start, a new turn, the end) follow from
#: the rules, whoever's command stored them.

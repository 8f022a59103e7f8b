"""Admin review of games (read-only scorecards and event log), rooms and seats."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from .models import Game, GameEvent, Room, Seat
from .rules import get_ruleset
from .views import describe


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "kind", "bot_level", "nickname", "last_seen")
    readonly_fields = ("last_seen",)


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ("link", "status", "player_names", "created", "finished")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    @admin.display(description="game")
    def link(self, obj: Game) -> str:
        return format_html('<a href="{}">Game {}</a>', obj.get_absolute_url(), obj.pk)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "rules", "status", "seats_count", "created", "updated")
    list_filter = ("rules", "status", "created")
    search_fields = ("name", "code", "seats__nickname")
    readonly_fields = ("code", "host_key", "created", "updated")
    inlines = [SeatInline, GameInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("room", "index", "kind", "bot_level", "nickname", "last_seen")
    list_filter = ("kind", "bot_level")
    search_fields = ("nickname", "room__code", "room__name")
    list_select_related = ("room",)


class GameEventInline(admin.TabularInline):
    """The full event log, read-only: events are append-only."""

    model = GameEvent
    extra = 0
    fields = ("seq", "kind", "what", "by", "seat", "command_id", "created")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)

    @admin.display(description="what happened")
    def what(self, obj: GameEvent) -> str:
        return describe(obj.kind, obj.payload, obj.game.players)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "room", "rules", "status", "player_names", "final_totals", "created",
                    "finished")
    list_filter = ("rules", "status", "finished")
    search_fields = ("player_names", "room__seats__nickname", "room__code", "room__name")
    list_select_related = ("room",)
    date_hierarchy = "created"
    fields = ("room", "rules", "status", "player_names", "public_page", "scorecards", "seq",
              "created", "finished")
    readonly_fields = fields
    inlines = [GameEventInline]

    @admin.display(description="totals")
    def final_totals(self, obj: Game) -> str:
        return ", ".join(f"{n}: {t}" for n, t in zip(obj.players, obj.totals, strict=False))

    @admin.display(description="public page")
    def public_page(self, obj: Game) -> str:
        return format_html('<a href="{0}">{0}</a>', obj.get_absolute_url())

    @admin.display(description="scorecards")
    def scorecards(self, obj: Game) -> str:
        cards = obj.snapshot.get("scorecards") or []
        if not cards:
            return "—"
        ruleset = get_ruleset(obj.rules)
        cols = range(ruleset.columns)
        head = format_html_join("", "<th>{} {}</th>", (
            (name, f"c{c + 1}×{ruleset.multipliers[c]}" if ruleset.columns > 1 else "")
            for name in obj.players for c in cols))

        def cell(value) -> str:
            return "–" if value is None else str(value)

        rows = [
            (box.label, [cell(card["columns"][c]["boxes"].get(box.name))
                         for card in cards for c in cols])
            for box in ruleset.boxes
        ] + [
            (label, [cell(card["columns"][c][key]) for card in cards for c in cols])
            for label, key in (("Upper bonus", "upper_bonus"), ("Yahtzee bonus", "yahtzee_bonus"),
                               ("Column total", "total"))
        ] + [("Total", [cell(card["total"]) if c == 0 else "" for card in cards for c in cols])]
        body = format_html_join("", "<tr><th>{}</th>{}</tr>", (
            (label, format_html_join("", "<td>{}</td>", ((v,) for v in values)))
            for label, values in rows))
        return format_html('<table class="scorecards"><thead><tr><th></th>{}</tr></thead>'
                           "<tbody>{}</tbody></table>", head, body)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

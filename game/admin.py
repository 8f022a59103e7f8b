"""Admin review of games (read-only scorecards and event log), rooms and seats."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from . import services
from .models import Game, GameAnalysis, GameEvent, Room, Seat
from .presenters import describe, scorecard_table

#: The sums the admin's scorecards show under the boxes.
ADMIN_SUMS = ("upper_bonus", "yahtzee_bonus", "total")


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
    list_display = ("id", "room", "rules", "status", "unfinished", "player_names",
                    "final_totals", "created", "finished")
    #: "Ended unfinished: yes" lists the games staff ended early — the one way left for a
    #: server to cheat with fair dice (stop a game whose rolls it dislikes): keep it short.
    list_filter = ("unfinished", "rules", "status", "finished")
    search_fields = ("player_names", "room__seats__nickname", "room__code", "room__name")
    list_select_related = ("room",)
    date_hierarchy = "created"
    fields = ("room", "rules", "status", "unfinished", "player_names", "public_page", "review",
              "dice", "scorecards", "seq", "created", "finished")
    readonly_fields = fields
    inlines = [GameEventInline]
    actions = ["end_games"]

    @admin.display(description="fair dice")
    def dice(self, obj: Game) -> str:
        """Commitment and client seeds; the server seed only once the game is over."""
        if not obj.commitment:
            return "— (a game from before fair dice)"
        seed = obj.revealed_seed
        return format_html(
            "commitment <code>{}</code><br>client seeds {}<br>server seed {}<br>"
            "<code>manage.py verify_dice {}</code>",
            obj.commitment, ", ".join(f"“{s}”" for s in obj.client_seeds),
            format_html("<code>{}</code>", seed) if seed else "hidden until the game ends",
            obj.pk)

    @admin.action(description="End the selected running games now, unfinished (reveals "
                              "their server seeds)")
    def end_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        ended = 0
        for game in queryset.filter(status=Game.Status.PLAYING):
            try:
                services.end_game(game.pk)
            except services.ServiceError as exc:
                self.message_user(request, f"Game {game.pk}: {exc.message}", messages.WARNING)
            else:
                ended += 1
        self.message_user(request, f"Ended {ended} game{'s' if ended != 1 else ''}.")

    @admin.display(description="totals")
    def final_totals(self, obj: Game) -> str:
        return ", ".join(f"{n}: {t}" for n, t in zip(obj.players, obj.totals, strict=False))

    @admin.display(description="public page")
    def public_page(self, obj: Game) -> str:
        return format_html('<a href="{0}">{0}</a>', obj.get_absolute_url())

    @admin.display(description="review")
    def review(self, obj: Game) -> str:
        """Each player's play as the review grades it, and the link to the whole review."""
        analysis = GameAnalysis.objects.filter(game=obj).first()
        link = format_html('<a href="{}">Open the review</a>', obj.get_absolute_url())
        if analysis is None:
            return format_html("{} (not analysed yet: <code>manage.py analyse --game {}</code>)",
                               link, obj.pk)
        head = ("player", "decisions", "mean Δ", "skill cost ΣΔ", "luck ΣL", "best", "good",
                "?!", "?", "??", "autoplayed")
        rows = format_html_join("", "<tr>{}</tr>", (
            (format_html_join("", "<td>{}</td>", ((v,) for v in (
                p["name"], p["decisions"], f'{p["mean_loss"]:.3f}', f'{p["loss"]:.2f}',
                f'{p["luck"]:+.2f}', *(p["grades"][g] for g in
                                      ("best", "good", "inaccuracy", "mistake", "blunder")),
                p["autoplay_decisions"]))),)
            for p in analysis.data["players"]))
        return format_html('{}<table class="review"><thead><tr>{}</tr></thead><tbody>{}'
                           "</tbody></table>", link,
                           format_html_join("", "<th>{}</th>", ((h,) for h in head)), rows)

    @admin.display(description="scorecards")
    def scorecards(self, obj: Game) -> str:
        table = scorecard_table(obj)
        if not table.has_cards:
            return "—"
        multi = table.ruleset.columns > 1
        head = format_html_join("", "<th>{} {}</th>", (
            (h.player, f"c{h.column}×{h.multiplier}" if multi else "") for h in table.headers))

        def cell(value) -> str:
            return "–" if value is None else str(value)

        rows = [
            (row.title, [cell(v) for v in row.cells])
            for row in table.boxes + [r for r in table.sums if r.key in ADMIN_SUMS]
        ] + [("Total", [cell(total) if c == 0 else ""
                        for _, total in table.totals for c in range(table.ruleset.columns)])]
        body = format_html_join("", "<tr><th>{}</th>{}</tr>", (
            (label, format_html_join("", "<td>{}</td>", ((v,) for v in values)))
            for label, values in rows))
        return format_html('<table class="scorecards"><thead><tr><th></th>{}</tr></thead>'
                           "<tbody>{}</tbody></table>", head, body)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

"""Games: read-only scorecards, standings and a paged event log saying who acted."""

from __future__ import annotations

from math import ceil

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from .. import services
from ..domain.translated import figure
from ..models import Game, GameAnalysis, GameEvent, Room
from ..presenters import describe, scorecard_table
from ..selectors import with_abandoned
from .common import ADMIN_SUMS, IdsFirstPaginator, WithoutBulkDelete

MOVES = ("rolled", "scored", "bonus")


def who_acted(event: GameEvent) -> str:
    """Who made the move: a person, a computer player, or the computer for someone away."""
    if event.kind not in MOVES:
        # Translators: who acted, in the admin's event log: an event the rules made.
        return _("the rules")
    players = event.game.players
    name = players[event.seat] if event.seat is not None and event.seat < len(players) else None
    if event.by == GameEvent.By.HUMAN:
        return _("%(name)s (person)") % {"name": name} if name else _("a person")
    if event.by == GameEvent.By.BOT:
        return _("%(name)s (computer)") % {"name": name} if name else _("a computer player")
    if event.by == GameEvent.By.AUTOPLAY:
        return (_("the computer for %(name)s, who was away") % {"name": name} if name
                else _("autoplay"))
    return _("the server")


class GameEventInline(admin.TabularInline):
    """The event log, read-only (events are append-only), one page at a time: the page is
    chosen by ``?events=N`` (``GameAdmin.change_view``)."""

    model = GameEvent
    extra = 0
    fields = ("seq", "what", "who", "when")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)
    template = "admin/game/event_log_inline.html"
    verbose_name_plural = gettext_lazy("event log")

    def get_queryset(self, request):
        first, last = getattr(request, "event_range", (1, GameAdmin.EVENTS_PER_PAGE))
        # Each line names its player from the game's names: the game read with the events,
        # once, not once per line.
        return (super().get_queryset(request).filter(seq__gte=first, seq__lte=last)
                .select_related("game").only(*(f.name for f in GameEvent._meta.concrete_fields),
                                             "game__players"))

    @admin.display(description=gettext_lazy("what happened"))
    def what(self, obj: GameEvent) -> str:
        return describe(obj.kind, obj.payload, obj.game.players)

    @admin.display(description=gettext_lazy("who acted"))
    def who(self, obj: GameEvent) -> str:
        return who_acted(obj)

    # Translators: the column of the times of a game's events (admin).
    @admin.display(description=gettext_lazy("at"))
    def when(self, obj: GameEvent) -> str:
        # The game's date is above; a time per line keeps the rows one line high on a phone.
        return timezone.localtime(obj.created).strftime("%H:%M:%S")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # append-only


class ActivityFilter(admin.SimpleListFilter):
    """Games still played, abandoned (no move for ``selectors.ABANDONED_AFTER``) or over."""

    title = gettext_lazy("activity")
    parameter_name = "activity"

    def lookups(self, request, model_admin):
        return (("playing", pgettext("game status", "Playing")),
                ("abandoned", pgettext("game status", "Abandoned")),
                ("finished", pgettext("game status", "Finished")))

    def queryset(self, request, queryset):
        if self.value() == "abandoned":
            return queryset.filter(abandoned=True)
        if self.value() == "playing":
            return queryset.filter(status=Game.Status.PLAYING, abandoned=False)
        if self.value() == "finished":
            return queryset.filter(status=Game.Status.FINISHED)
        return queryset


@admin.register(Game)
class GameAdmin(WithoutBulkDelete, admin.ModelAdmin):
    list_display = ("id", "room", "rules", "activity", "unfinished", "player_names",
                    "final_totals", "created", "finished")
    #: "Ended unfinished: yes" lists the games staff ended early — the one way left for a
    #: server to cheat with fair dice (stop a game whose rolls it dislikes): keep it short.
    list_filter = ("unfinished", "rules", ActivityFilter, "room__practice", "finished")
    # The players' names are on the game row (``player_names``): no join with the seats, which
    # would make the search scan them all and the list DISTINCT. See get_search_results.
    search_fields = ("player_names",)
    search_help_text = gettext_lazy("A player’s name, or a room’s code.")
    list_select_related = ("room",)
    # Over a long history a list must not count every game twice (the total beside the filtered
    # count) nor read every game's date (the date hierarchy's months): the "finished" filter
    # narrows by date instead.
    show_full_result_count = False
    list_per_page = 50
    paginator = IdsFirstPaginator
    fields = ("room", "rules", "activity", "unfinished", "practice", "standings", "public_page",
              "review", "dice", "scorecards", "seq", "created", "finished")
    readonly_fields = fields
    inlines = [GameEventInline]
    actions = ["end_games"]
    EVENTS_PER_PAGE = 50

    def get_queryset(self, request):
        # The snapshot (the whole state, ~1.5 KB of JSON) is read by the game's page only.
        return with_abandoned(super().get_queryset(request)).defer("snapshot")

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Game],
                           search_term: str) -> tuple[QuerySet[Game], bool]:
        """A room's code finds that room's games (its unique index); anything else the games
        whose players' names hold each word (a trigram index on PostgreSQL). Never an OR across
        the room's join, which no index serves."""
        code = search_term.strip().lower()
        if Room.objects.filter(code=code).exists():
            return queryset.filter(room__code=code), False
        return super().get_search_results(request, queryset, search_term)

    @admin.display(description=gettext_lazy("status"), ordering="status")
    def activity(self, obj: Game) -> str:
        return pgettext("game status", "Abandoned") if obj.abandoned \
            else obj.get_status_display()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        game = Game.objects.filter(pk=object_id).only("seq").first() if object_id.isdigit() \
            else None
        count = game.seq if game else 0
        per = self.EVENTS_PER_PAGE
        pages = max(1, ceil(count / per))
        try:
            page = min(max(1, int(request.GET.get("events", "1"))), pages)
        except ValueError:
            page = 1
        request.event_range = ((page - 1) * per + 1, page * per)
        extra_context = {
            **(extra_context or {}),
            "event_page": {"first": min(count, (page - 1) * per + 1),
                           "last": min(count, page * per), "count": count},
            "event_pages": [{"number": n, "current": n == page,
                             "label": f"{(n - 1) * per + 1}–{min(count, n * per)}"}
                            for n in range(1, pages + 1)],
        }
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description=gettext_lazy("practice room"), boolean=True)
    def practice(self, obj: Game) -> bool:
        """The coach's hints were on for this game's players."""
        return obj.room.practice

    @admin.display(description=gettext_lazy("fair dice"))
    def dice(self, obj: Game) -> str:
        """Commitment and client seeds; the server seed only once the game is over."""
        if not obj.commitment:
            return _("— (a game from before fair dice)")
        seed = obj.revealed_seed
        return format_html(
            "{} <code>{}</code><br>{} {}<br>{} {}<br><code>manage.py verify_dice {}</code>",
            _("commitment"), obj.commitment,
            _("client seeds"), ", ".join(f"“{s}”" for s in obj.client_seeds),
            _("server seed"),
            format_html("<code>{}</code>", seed) if seed else _("hidden until the game ends"),
            obj.pk)

    @admin.action(description=gettext_lazy("End the selected running games now, unfinished "
                                           "(reveals their server seeds)"))
    def end_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        ended = 0
        for game in queryset.filter(status=Game.Status.PLAYING):
            try:
                services.end_game(game.pk)
            except services.ServiceError as exc:
                self.message_user(request, _("Game %(number)s: %(error)s") % {
                    "number": game.pk, "error": exc.message}, messages.WARNING)
            else:
                ended += 1
        self.message_user(request, ngettext("Ended %(count)d game.", "Ended %(count)d games.",
                                            ended) % {"count": ended})

    @admin.display(description=gettext_lazy("totals"))
    def final_totals(self, obj: Game) -> str:
        return " · ".join(f"{n} {t}" for n, t in zip(obj.players, obj.totals, strict=False))

    @admin.display(description=gettext_lazy("standings"))
    def standings(self, obj: Game) -> str:
        """Players by total, best first, the winner(s) marked (running totals while playing)."""
        totals = obj.totals or [card.get("total", 0) for card in
                                obj.snapshot.get("scorecards", [])]
        if not totals:
            return "—"
        ranked = sorted(zip(obj.players, totals, range(len(totals)), strict=False),
                        key=lambda r: -r[1])
        rows = format_html_join("", "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td>"
                                "<td>{}</td></tr>", (
            (place, name, total, _("winner") if i in obj.winners else "")
            for place, (name, total, i) in enumerate(ranked, start=1)))
        total = _("total (final)") if obj.status == Game.Status.FINISHED \
            else _("total (so far)")
        return format_html('<table class="standings"><thead><tr><th>#</th><th>{}</th>'
                           '<th class="num">{}</th><th></th></tr></thead>'
                           "<tbody>{}</tbody></table>", _("player"), total, rows)

    @admin.display(description=gettext_lazy("public page"))
    def public_page(self, obj: Game) -> str:
        return format_html('<a href="{0}">{0}</a>', obj.get_absolute_url())

    @admin.display(description=gettext_lazy("review"))
    def review(self, obj: Game) -> str:
        """Each player's play as the review grades it, and the link to the whole review."""
        analysis = GameAnalysis.objects.filter(game=obj).first()
        link = format_html('<a href="{}">{}</a>', obj.get_absolute_url(), _("Open the review"))
        if analysis is None:
            return format_html("{} ({} <code>manage.py analyse --game {}</code>)",
                               link, _("not analysed yet:"), obj.pk)
        head = (_("player"), _("decisions"), _("mean Δ"), _("skill cost ΣΔ"), _("luck ΣL"),
                _("best"), _("good"), "?!", "?", "??", _("autoplayed"))
        rows = format_html_join("", "<tr>{}</tr>", (
            (format_html_join("", "<td>{}</td>", ((v,) for v in (
                p["name"], p["decisions"], figure(p["mean_loss"], 3),
                figure(p["loss"], 2), figure(p["luck"], 2, signed=True), *(p["grades"][g] for g in
                                      ("best", "good", "inaccuracy", "mistake", "blunder")),
                p["autoplay_decisions"]))),)
            for p in analysis.data["players"]))
        return format_html('{}<table class="review"><thead><tr>{}</tr></thead><tbody>{}'
                           "</tbody></table>", link,
                           format_html_join("", "<th>{}</th>", ((h,) for h in head)), rows)

    @admin.display(description=gettext_lazy("scorecards"))
    def scorecards(self, obj: Game) -> str:
        table = scorecard_table(obj)
        if not table.has_cards:
            return "—"
        multi = table.ruleset.columns > 1
        head = format_html_join("", "<th>{} {}</th>", (
            (h.player, f"c{h.column}×{h.multiplier}" if multi else "") for h in table.headers))

        def cell(value) -> str:
            return "–" if value is None else str(value)

        boxes = [(row.title, [cell(v) for v in row.cells]) for row in table.boxes]
        sums = [(row.title, [cell(v) for v in row.cells])
                for row in table.sums if row.key in ADMIN_SUMS]
        if multi:  # the columns' totals above, the player's (the sum of them) below
            sums.append((_("Total"), [cell(total) if c == 0 else "" for _, total in table.totals
                                   for c in range(table.ruleset.columns)]))
        # The sums stand apart from the boxes; the last, the players' totals, in bold.
        kinds = ["box"] * len(boxes) + ["sum first"] + ["sum"] * (len(sums) - 2) + ["sum total"]
        rows = [(kind, label, values) for kind, (label, values) in zip(kinds, boxes + sums,
                                                                        strict=True)]
        body = format_html_join("", '<tr class="{}"><th>{}</th>{}</tr>', (
            (kind, label, format_html_join("", "<td>{}</td>", ((v,) for v in values)))
            for kind, label, values in rows))
        return format_html('<table class="scorecards"><thead><tr><th></th>{}</tr></thead>'
                           "<tbody>{}</tbody></table>", head, body)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        # Every finished game is kept, with its event log.
        return not (obj is not None and obj.status == Game.Status.FINISHED) and \
            super().has_delete_permission(request, obj)

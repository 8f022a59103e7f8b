"""Admin review of games (read-only scorecards, standings and a paged event log saying who
acted), rooms (rules and status read-only once a game started), seats, players (renamed,
disabled) and the accounts that keep them."""

from __future__ import annotations

from math import ceil

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.paginator import Page, Paginator
from django.db.models import Count, F, FloatField, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from . import daily, services
from .models import DailyAttempt, DailyChallenge, Game, GameAnalysis, GameEvent, Player, Room, Seat
from .presenters import describe, scorecard_table
from .selectors import with_abandoned
from .services.daily import utc_today
from .translated import figure

#: The sums the admin's scorecards show under the boxes.
ADMIN_SUMS = ("upper_subtotal", "upper_bonus", "yahtzee_bonus", "total")


def _keeps_a_finished_game(room: Room | None) -> bool:
    """Deleting the room would delete a finished game (and its event log) with it."""
    return room is not None and room.games.filter(status=Game.Status.FINISHED).exists()


class WithoutBulkDelete:
    """Deleting in bulk would pass over the checks of ``has_delete_permission``."""

    def get_actions(self, request):
        actions = super().get_actions(request)  # type: ignore[misc]
        actions.pop("delete_selected", None)
        return actions


class IdsFirstPaginator(Paginator):
    """A page of a long list read in two steps: its rows' ids first (walking the ordering's
    index, nothing joined nor computed for the rows skipped), then those rows alone. With a
    plain OFFSET the database joins and computes every row before the page too."""

    def page(self, number: int | str) -> Page:
        valid = self.validate_number(number)
        bottom = (valid - 1) * self.per_page
        top = min(bottom + self.per_page, self.count)
        if top + self.orphans >= self.count:
            top = self.count
        ids = list(self.object_list.values_list("pk", flat=True)[bottom:top])
        return self._get_page(self.object_list.filter(pk__in=ids), valid, self)


def _live(room: Room | None) -> bool:
    """A room whose game started: its rules, status and seats belong to the game now."""
    return room is not None and room.status != Room.Status.WAITING


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "kind", "bot_level", "nickname", "last_seen")
    readonly_fields = ("last_seen",)

    def get_readonly_fields(self, request, obj=None):
        return self.fields if _live(obj) else self.readonly_fields

    def has_add_permission(self, request, obj=None) -> bool:
        return not _live(obj) and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not _live(obj) and super().has_delete_permission(request, obj)


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
        extra = ("name", "rules", "seats_count") if _live(obj) else ()
        return (*extra, *self.readonly_fields)

    def has_delete_permission(self, request, obj=None) -> bool:
        # Every finished game is kept: its room (which would take it along) too.
        return not _keeps_a_finished_game(obj) and super().has_delete_permission(request, obj)


class SeatForm(forms.ModelForm):
    def clean(self) -> dict:
        cleaned = super().clean()
        room = cleaned.get("room")
        if room is not None and _live(room):
            raise forms.ValidationError(
                _("This room's game has started: its seats are read-only here (players change "
                  "seats between games, from the room's page)."))
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
        if obj is not None and _live(obj.room):
            return [f.name for f in Seat._meta.fields]
        return super().get_readonly_fields(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not (obj is not None and _live(obj.room)) and super().has_delete_permission(
            request, obj)


#: Events a player's move makes; the others (a game's start, a new turn, the end) follow from
#: the rules, whoever's command stored them.
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
    search_help_text = gettext_lazy("A player's name, or a room's code.")
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


class PlayerSeatInline(admin.TabularInline):
    """A player's seats, read-only: each room with its games (seats change from room pages)."""

    model = Seat
    fk_name = "player"
    extra = 0
    fields = ("room_link", "nickname", "room_status", "games")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = gettext_lazy("latest seats and games (all of them on the profile)")
    #: A regular has sat in thousands of rooms: the page shows the latest.
    SHOWN = 20

    def get_queryset(self, request):
        seats = super().get_queryset(request)
        match = request.resolver_match
        player = match.kwargs.get("object_id", "") if match is not None else ""
        if player.isdigit():  # the formset filters by player; a slice can't be filtered
            latest = (Seat.objects.filter(player_id=int(player)).order_by("-room__created")
                      .values_list("pk", flat=True)[:self.SHOWN])
            seats = seats.filter(pk__in=list(latest))
        return seats.select_related("room").prefetch_related("room__games").order_by(
            "-room__created")

    @admin.display(description=gettext_lazy("room"))
    def room_link(self, obj: Seat) -> str:
        return format_html('<a href="{}">{} ({})</a>',
                           reverse("admin:game_room_change", args=[obj.room_id]),
                           obj.room.name, obj.room.code)

    @admin.display(description=gettext_lazy("room status"))
    def room_status(self, obj: Seat) -> str:
        return obj.room.get_status_display()

    @admin.display(description=gettext_lazy("games"))
    def games(self, obj: Seat) -> str:
        return format_html_join(" · ", '<a href="{}">{}</a>', (
            (reverse("admin:game_game_change", args=[g.pk]),
             _("Game %(number)s") % {"number": g.pk})
            for g in obj.room.games.all())) or "—"

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ("name", "disabled")

    def clean_name(self) -> str:
        # The checks every name on the site passes (services.clean_nickname).
        try:
            return services.clean_nickname(self.cleaned_data.get("name", ""))
        except services.ServiceError as exc:
            raise forms.ValidationError(exc.message) from exc


class AccountFilter(admin.SimpleListFilter):
    title = gettext_lazy("account")
    parameter_name = "account"

    def lookups(self, request, model_admin):
        return [("yes", _("With an account")), ("no", _("Guests"))]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(user__isnull=self.value() == "no")
        return queryset


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Players by name or account, each with their seats and games; a rename passes the site's
    name checks; a disabled player can no longer act (take seats, make rooms, play, rename).
    The cookie token is never shown: it would let whoever reads it act as them."""

    form = PlayerForm
    list_display = ("__str__", "name", "account", "seat_count", "disabled", "created")
    list_filter = ("disabled", AccountFilter)
    search_fields = ("name", "user__username", "public_id")
    fields = ("name", "disabled", "account", "profile", "created")
    readonly_fields = ("account", "profile", "created")
    actions = ("disable_players", "enable_players")
    inlines = [PlayerSeatInline]

    # Over many players a list neither counts them twice nor counts every player's seats: a
    # page's ids first, then each shown player's seats counted on its own (a subquery).
    show_full_result_count = False
    list_per_page = 50
    paginator = IdsFirstPaginator

    def get_queryset(self, request):
        seats = (Seat.objects.filter(player=OuterRef("pk")).order_by().values("player")
                 .annotate(n=Count("pk")).values("n"))
        return super().get_queryset(request).select_related("user").annotate(
            seat_count=Coalesce(Subquery(seats), 0))

    @admin.display(description=gettext_lazy("seats"), ordering="seat_count")
    def seat_count(self, obj: Player) -> int:
        return obj.seat_count  # annotated above

    @admin.display(description=gettext_lazy("account"), ordering="user__username")
    def account(self, obj: Player) -> str:
        if obj.user_id is None:
            return "—"
        return format_html('<a href="{}">{}</a>',
                           reverse("admin:auth_user_change", args=[obj.user_id]),
                           obj.user.get_username())

    @admin.display(description=gettext_lazy("profile"))
    def profile(self, obj: Player) -> str:
        return format_html('<a href="{0}">{0}</a>', obj.get_absolute_url())

    def save_model(self, request, obj: Player, form, change) -> None:
        if "name" in form.changed_data:
            services.rename_player(obj, form.cleaned_data["name"])
        if "disabled" in form.changed_data:
            services.set_player_disabled(obj, form.cleaned_data["disabled"])

    @admin.action(description=gettext_lazy("Disable the selected players (they can no longer "
                                           "act)"))
    def disable_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        for player in queryset:
            services.set_player_disabled(player, True)
        count = queryset.count()
        self.message_user(request, ngettext("Disabled %(count)d player.",
                                            "Disabled %(count)d players.", count)
                          % {"count": count}, messages.SUCCESS)

    @admin.action(description=gettext_lazy("Enable the selected players again"))
    def enable_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        for player in queryset:
            services.set_player_disabled(player, False)
        count = queryset.count()
        self.message_user(request, ngettext("Enabled %(count)d player.",
                                            "Enabled %(count)d players.", count)
                          % {"count": count}, messages.SUCCESS)

    def has_add_permission(self, request) -> bool:
        return False  # made by the site, on a visitor's first action


class PlayerInline(admin.StackedInline):
    """The player an account keeps: its name and whether it is disabled, with its profile."""

    model = Player
    fk_name = "user"
    fields = ("player_link", "name", "disabled")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = gettext_lazy("player")

    @admin.display(description=gettext_lazy("player"))
    def player_link(self, obj: Player) -> str:
        return format_html('<a href="{}">{}</a> · <a href="{}">{}</a>',
                           reverse("admin:game_player_change", args=[obj.pk]), obj,
                           obj.get_absolute_url(), _("profile"))

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class AccountAdmin(UserAdmin):
    """Accounts: Django's user admin (password reset, staff flags, deactivation) with the
    player each keeps; found by name, email or their player's name."""

    inlines = [*UserAdmin.inlines, PlayerInline]
    list_display = ("username", "email", "player_name", "is_active", "is_staff", "last_login",
                    "date_joined")
    search_fields = ("username", "email", "player__name")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")

    @admin.display(description=gettext_lazy("player"), ordering="player__name")
    def player_name(self, obj) -> str:
        player = getattr(obj, "player", None)
        return player.name if player is not None else "—"


User = get_user_model()
admin.site.unregister(User)
admin.site.register(User, AccountAdmin)
@admin.register(DailyChallenge)
class DailyChallengeAdmin(admin.ModelAdmin):
    """The days' challenges: the commitment, par, and the seed once the day is over (never
    before: staff who could read it could play the day knowing its dice)."""

    list_display = ("day", "rules", "commitment", "par", "attempts", "seed_if_over")
    list_filter = ("rules",)
    date_hierarchy = "day"
    fields = ("day", "rules", "commitment", "par", "seed_if_over")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(attempt_count=Count("attempts"))

    @admin.display(description=gettext_lazy("attempts"), ordering="attempt_count")
    def attempts(self, obj: DailyChallenge) -> int:
        return obj.attempt_count  # annotated above

    @admin.display(description=gettext_lazy("seed"))
    def seed_if_over(self, obj: DailyChallenge) -> str:
        return obj.revealed_seed(utc_today()) or _("revealed when the day is over")

    def has_add_permission(self, request) -> bool:
        return False  # drawn by the site (manage.py daily_seeds, or the first page of a day)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _player_dailies(value: str):
    """A subquery: the outer attempt's player's ``value`` summed over their reviewed dailies."""
    rows = (DailyAttempt.objects.filter(player=OuterRef("player"), loss__isnull=False,
                                        decisions__gt=0)
            .order_by().values("player"))
    if value == "count":
        return Subquery(rows.annotate(n=Count("id")).values("n"))
    return Subquery(rows.annotate(total=Sum(value)).values("total"))


class SuspectFilter(admin.SimpleListFilter):
    """Fair play: attempts of players whose loss a decision stays implausibly low (under
    ``daily.SUSPECT_MEAN_LOSS`` over at least ``daily.SUSPECT_MIN_DAILIES`` reviewed dailies)."""

    title = gettext_lazy("implausibly low loss")
    parameter_name = "suspect"

    def lookups(self, request, model_admin):
        return (("yes", _("Yes (mean Δ < %(loss)s over ≥ %(count)s dailies)") % {
            "loss": number_format(daily.SUSPECT_MEAN_LOSS),
            "count": daily.SUSPECT_MIN_DAILIES}),)

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(player_id__in=daily.suspects())
        return queryset


@admin.register(DailyAttempt)
class DailyAttemptAdmin(admin.ModelAdmin):
    """Each attempt at a daily, with its player's loss a decision across all their dailies:
    near zero over many dailies plays like the optimal bot, which people rarely do."""

    list_display = ("challenge", "player", "account", "final", "decisions", "loss",
                    "player_dailies", "player_mean_loss", "suspect")
    list_filter = (SuspectFilter, "account", "challenge__rules", "challenge__day")
    search_fields = ("player__name",)
    list_select_related = ("challenge", "player")
    fields = ("challenge", "player", "game", "account", "final", "finished", "decisions",
              "loss", "turn_grades")
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            p_dailies=Coalesce(_player_dailies("count"), 0),
            p_loss=_player_dailies("loss"), p_decisions=_player_dailies("decisions"),
        ).annotate(p_mean=F("p_loss") / Coalesce(F("p_decisions"), 1, output_field=FloatField()))

    @admin.display(description=gettext_lazy("player's dailies"), ordering="p_dailies")
    def player_dailies(self, obj: DailyAttempt) -> int:
        return obj.p_dailies

    @admin.display(description=gettext_lazy("player's Δ a decision"), ordering="p_mean")
    def player_mean_loss(self, obj: DailyAttempt) -> str:
        return "–" if obj.p_mean is None else figure(obj.p_mean, 3)

    @admin.display(description=gettext_lazy("suspect"), boolean=True)
    def suspect(self, obj: DailyAttempt) -> bool:
        return (obj.p_dailies >= daily.SUSPECT_MIN_DAILIES and obj.p_mean is not None
                and obj.p_mean < daily.SUSPECT_MEAN_LOSS)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

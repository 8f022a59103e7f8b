"""Players (renamed with the site's checks, disabled) and the accounts that keep them."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .. import services
from ..models import Player, Seat
from .common import IdsFirstPaginator


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

"""The daily challenges and their attempts, with the fair-play figures."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, F, FloatField, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..domain.clock import utc_today
from ..domain.translated import figure
from ..models import DailyAttempt, DailyChallenge
from ..selectors import daily


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

    @admin.display(description=gettext_lazy("player’s dailies"), ordering="p_dailies")
    def player_dailies(self, obj: DailyAttempt) -> int:
        return obj.p_dailies

    @admin.display(description=gettext_lazy("player’s Δ a decision"), ordering="p_mean")
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

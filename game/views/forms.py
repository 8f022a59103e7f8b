"""Forms of the lobby (create a room) and the room page (take a seat)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy, pgettext_lazy

from .. import services
from ..ai.actions import LEVELS
from ..domain import translated
from ..domain.rooms import MOVE_DAYS
from ..models import (
    CODE_ALPHABET,
    CODE_LENGTH,
    LEVEL_LABELS,
    NICKNAME_MAX,
    ROOM_NAME_MAX,
    RULES_CHOICES,
    Room,
)
from ..rules import MAX_PLAYERS
from ..rules.fairness import CLIENT_SEED_MAX

#: A seat's choices in the lobby: a person, or a computer player of each level.
SEAT_CHOICES = [
    ("human", pgettext_lazy("seat", "A person")),
    ("easy", pgettext_lazy("seat", "Computer — easy")),
    ("medium", pgettext_lazy("seat", "Computer — medium")),
    ("optimal", pgettext_lazy("seat", "Computer — optimal")),
    ("to_win", pgettext_lazy("seat", "Computer — plays to win")),
]
assert [level for level, _label in SEAT_CHOICES[1:]] == list(LEVELS)


def _validated(clean: Callable[[str], str], value: str) -> str:
    """``value`` through a service's validation, its refusal as the form's error."""
    try:
        return clean(value)
    except services.ServiceError as exc:
        raise forms.ValidationError(translated.message(exc)) from None


def dice_seed_field() -> forms.CharField:
    """Your own input to the dice (docs/fairness.md); the page fills in a random one."""
    return forms.CharField(
        max_length=CLIENT_SEED_MAX, required=False, label=gettext_lazy("Dice seed"), strip=False,
        widget=forms.TextInput(attrs={"class": "dice-seed", "autocomplete": "off",
                                      "spellcheck": "false"}),
        help_text=gettext_lazy("Optional: your share of the dice’s randomness, any text; after "
                               "the game anyone can check every roll with it."))


def _clean_dice_seed(form: forms.Form) -> str:
    raw = form.cleaned_data.get("dice_seed", "")
    # Spaces alone are cut (docs/fairness.md): a tab or a newline is refused, not trimmed.
    return _validated(services.clean_dice_seed, raw) if raw.strip(" ") else ""


def nickname_field(*, required: bool = True, css_class: str = "") -> forms.CharField:
    """A player's name for a seat: the name they chose once is filled in."""
    attrs = {"autocomplete": "nickname", "spellcheck": "false"}
    if css_class:
        attrs["class"] = css_class
    return forms.CharField(max_length=NICKNAME_MAX, label=gettext_lazy("Your name"),
                           required=required,
                           widget=forms.TextInput(attrs=attrs))


def _days(count: int) -> Any:
    return ngettext_lazy("%(count)d day", "%(count)d days", "count") % {"count": count}


#: The one question of "Play with friends" a visitor without a name is asked: not a refusal.
NAME_NEEDED = "name_needed"


class CreateRoomForm(forms.Form):
    """The lobby's "Play with friends": a name is all it needs; the rest are options."""

    nickname = nickname_field(required=False)
    name = forms.CharField(
        max_length=ROOM_NAME_MAX, label=gettext_lazy("Room name"), required=False,
        help_text=gettext_lazy("Optional: “Your name’s table” if you leave it empty."))
    rules = forms.ChoiceField(choices=RULES_CHOICES, label=gettext_lazy("Rules"),
                              initial="yahtzee")
    seats = forms.TypedChoiceField(
        coerce=int, choices=[(n, str(n)) for n in range(1, MAX_PLAYERS + 1)], initial=2,
        label=gettext_lazy("Seats"))
    practice = forms.BooleanField(
        required=False, label=gettext_lazy("Practice room"),
        help_text=gettext_lazy("A coach shows what each choice is worth and asks before a "
                               "costly one. Everyone will see that hints were on."))
    chances = forms.ChoiceField(
        choices=Room.Chances.choices, initial=Room.Chances.AUTO, required=False,
        label=gettext_lazy("Chances to win shown to players"),
        help_text=gettext_lazy("Watchers see them, so “Never” only hides them: a player can "
                               "also watch."))
    dice_seed = dice_seed_field()
    pace = forms.ChoiceField(
        choices=Room.Pace.choices, initial=Room.Pace.LIVE, required=False,
        widget=forms.RadioSelect, label=gettext_lazy("How you play"))
    move_days = forms.TypedChoiceField(
        coerce=int, choices=[(d, _days(d)) for d in MOVE_DAYS], initial=2, required=False,
        label=gettext_lazy("Time for each move"),
        help_text=gettext_lazy("Over days: each player moves when they like, within this "
                               "time; the computer plays a move whose time runs out."))

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "friends_%s")
        super().__init__(*args, **kwargs)
        for i in range(MAX_PLAYERS):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                choices=SEAT_CHOICES, initial="human", required=False,
                label=_("Seat %(number)d") % {"number": i + 1},
                error_messages={"invalid_choice": _(
                    "Choose a person or one of the computer levels from the list.")})

    def only_asks_the_name(self) -> bool:
        """Whether the name is all the form still needs (asked in place, not an error)."""
        return list(self.errors) == ["nickname"] and self.has_error("nickname", NAME_NEEDED)

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("name", "rules", "seats", "practice", "chances")]

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{i}"] for i in range(MAX_PLAYERS)]

    def clean_name(self) -> str:
        raw = self.cleaned_data["name"]
        return _validated(services.clean_room_name, raw) if raw.strip() else ""

    def clean_nickname(self) -> str:
        raw = self.cleaned_data.get("nickname", "")
        return _validated(services.clean_nickname, raw) if raw.strip() else ""

    def clean_dice_seed(self) -> str:
        return _clean_dice_seed(self)

    def clean(self) -> dict:
        data = super().clean()
        count = data.get("seats")
        if count:
            kinds = [data.get(f"seat_{i}") or "human" for i in range(count)]
            data["seat_specs"] = [
                services.SeatSpec(None if k == "human" else k) for k in kinds]
            # Computers alone make a game to watch; with a seat for a person, it is yours.
            if "human" in kinds and not data.get("nickname") and "nickname" not in self.errors:
                self.add_error("nickname", forms.ValidationError(
                    _("Your name, please: it goes on your seat."), code=NAME_NEEDED))
            elif data.get("nickname") and "human" not in kinds:
                self.add_error("nickname",
                               _("Every seat is a computer: leave a seat for a person."))
        return data


class JoinForm(forms.Form):
    """A room's one button, "Join as Bea": the first free seat unless one is named."""

    nickname = nickname_field(css_class="join-name")
    seat = forms.TypedChoiceField(coerce=int, required=False, empty_value=None,
                                  widget=forms.HiddenInput)
    dice_seed = dice_seed_field()

    def __init__(self, room: Room, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "join_%s")
        super().__init__(*args, **kwargs)
        self.free_seats = [s.index for s in room.seats.order_by("index") if s.is_free]
        self.fields["seat"].choices = [(i, _("Seat %(number)d") % {"number": i + 1})
                                       for i in self.free_seats]

    def clean_nickname(self) -> str:
        return _validated(services.clean_nickname, self.cleaned_data["nickname"])

    def clean_dice_seed(self) -> str:
        return _clean_dice_seed(self)


class PlayComputerForm(forms.Form):
    """The lobby's one-click game: nothing to type, sensible defaults."""

    rules = forms.ChoiceField(choices=RULES_CHOICES, label=gettext_lazy("Rules"),
                              initial="yahtzee")
    level = forms.ChoiceField(choices=list(LEVEL_LABELS.items()),
                              label=gettext_lazy("Computer"), initial="medium")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Ids of its own: the lobby shows this form beside the create-room form, whose fields
        # share its names (one id for two menus leaves a label naming the wrong one).
        kwargs.setdefault("auto_id", "computer_%s")
        super().__init__(*args, **kwargs)


class JoinByCodeForm(forms.Form):
    """A room's code, or its whole link pasted (``…/r/<code>/``)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "code_%s")
        super().__init__(*args, **kwargs)

    code = forms.CharField(
        max_length=200, label=gettext_lazy("Room code"),
        help_text=gettext_lazy("The 8 letters after /r/ in the link, or the whole link."))

    def clean_code(self) -> str:
        raw = self.cleaned_data["code"].strip()
        code = raw.rstrip("/").rsplit("/r/", 1)[-1].split("/")[0].strip().lower()
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            raise forms.ValidationError(
                _("A room code is %(length)d letters and digits, like k3x9qpab.")
                % {"length": CODE_LENGTH})
        if not Room.objects.filter(code=code).exists():
            raise forms.ValidationError(_("No room has the code %(code)s.") % {"code": code})
        return code

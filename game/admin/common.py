"""What the admin's pages share: no bulk delete, a paginator for big tables, and when a room
is live (its rules and seats read-only)."""

from __future__ import annotations

from django.core.paginator import Page, Paginator

from ..models import Game, Room

#: The sums the admin's scorecards show under the boxes.
ADMIN_SUMS = ("upper_subtotal", "upper_bonus", "yahtzee_bonus", "total")


def keeps_a_finished_game(room: Room | None) -> bool:
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


def live(room: Room | None) -> bool:
    """A room whose game started: its rules, status and seats belong to the game now."""
    return room is not None and room.status != Room.Status.WAITING

"""Why a request to a room was refused, with a stable code (sent to clients in ``error``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.errors import CodedError, gettext_noop

__all__ = ["ServiceError", "gettext_noop", "no_room"]


class ServiceError(CodedError):
    """A command the room refuses; nothing was changed. ``template`` and ``params`` as
    :class:`CodedError`'s (mark the template with ``gettext_noop``)."""

    def __init__(self, code: str, template: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(template, params)
        self.code = code

    @classmethod
    def of(cls, code: str, error: CodedError) -> ServiceError:
        """``error``'s sentence under another code (a rules error refused by a service)."""
        return cls(code, error.template, error.params)


def no_room(code: str) -> ServiceError:
    return ServiceError("no_room", gettext_noop("There is no room %(code)s."),
                        {"code": repr(code)})

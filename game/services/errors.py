"""Why a request to a room was refused, with a stable code (sent to clients in ``error``)."""

from __future__ import annotations

from ..rules.errors import CodedError


class ServiceError(CodedError):
    """A command the room refuses; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[ServiceError], tuple[str, str]]:
        # Raised in the review worker process, it crosses back pickled.
        return ServiceError, (self.code, self.message)


def no_room(code: str) -> ServiceError:
    return ServiceError("no_room", f"There is no room {code!r}.")

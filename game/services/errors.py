"""Why a request to a room was refused, with a stable code (sent to clients in ``error``)."""

from __future__ import annotations


class ServiceError(Exception):
    """A command the room refuses; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def no_room(code: str) -> ServiceError:
    return ServiceError("no_room", f"There is no room {code!r}.")

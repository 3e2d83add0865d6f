"""Journal errors. Bad input is the shop's `invalid_request` (422), with a message that names the field."""

from __future__ import annotations

from gpurent.core.errors import InvalidRequest

__all__ = ["JournalInputInvalid"]


class JournalInputInvalid(InvalidRequest):
    """A field of an entry or a run is invalid (422 `invalid_request`); `field` names it for forms."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)

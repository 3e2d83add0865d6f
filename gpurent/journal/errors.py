"""Journal errors. Bad input is the shop's `invalid_request` (422), with a message that names the field."""

from __future__ import annotations

from django.utils.translation import gettext as _

from gpurent.core.errors import ApplicationError, InvalidRequest

__all__ = ["JournalInputInvalid", "TooManyRuns"]


class JournalInputInvalid(InvalidRequest):
    """A field of an entry or a run is invalid (422 `invalid_request`); `field` names it for forms."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


class TooManyRuns(ApplicationError):
    """The entry already holds `JOURNAL_MAX_RUNS_PER_ENTRY` runs: 409 like `too_many_ssh_keys` (the request is well
    formed; the entry's state refuses it; decision 0315). Not replayed: the key is forgotten, like every refusal
    that is not a business outcome, so nothing is stored for a request that wrote nothing."""

    code = "too_many_runs"
    status = 409
    replayable = False

    def __init__(self, limit: int) -> None:
        super().__init__(
            _(
                "This entry has %(limit)s runs, the most one entry can hold. Open a new entry for the next runs "
                "(for example one per sweep)."
            )
            % {"limit": limit}
        )

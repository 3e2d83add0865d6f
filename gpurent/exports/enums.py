"""Where a prepared download stands."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ExportState(models.TextChoices):
    """The states of one prepared download (an `Export`).

    - `queued`: the customer asked for it; no worker has started writing it yet.
    - `writing`: a worker is writing it; `rows_done` of `rows_total` are written (a worker that dies starts again
      from the first row: its task is queued again, decision 0384).
    - `ready`: written whole; its file, `size_bytes` long with the SHA-256 `sha256`, can be downloaded until
      `expires_at`.
    - `failed`: the worker could not write it; the customer may ask again.
    """

    QUEUED = "queued", _("Waiting for its turn")
    WRITING = "writing", _("Being prepared")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Could not be prepared")

"""Downloads answered in one response: whole, with their length and digest, or not at all (decision 0430).

A whole-history download (the balance statement, the orders, the journal) is made of *pieces*: text, each with
the number of rows written so far. A short history is answered at once, built in memory (its size is bounded by
the caller's row limit) and sent with `Content-Length` and `Repr-Digest` (RFC 9530: the SHA-256 of the body), so
that a client always tells a complete file from a cut one. A longer history is never streamed from a request
(a worker timeout or a restart could cut it after the 200 status): the caller refuses it with
`DownloadTooLarge` (the API) or sends the customer to the page that has it prepared by the background worker
(`gpurent.exports`).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _

from .errors import ApplicationError

__all__ = ["DownloadTooLarge", "Pieces", "count_up_to", "download_whole", "repr_digest"]

Pieces = Iterator[tuple[str, int]]
"""A download's text, piece by piece, each with the number of rows written so far (for progress)."""


class DownloadTooLarge(ApplicationError):
    code = "download_too_large"
    status = 409
    default_message = _(
        "This history is too long to download in one response. Ask for the file to be prepared "
        "(POST /api/v1/exports) and download it when it is ready."
    )


def count_up_to(queryset: QuerySet[Any], limit: int) -> int:
    """How many rows `queryset` has, counting no further than `limit + 1` (one bounded query)."""
    return queryset[: limit + 1].count()


def repr_digest(sha256: bytes) -> str:
    """The `Repr-Digest` header's value for a body with this SHA-256 digest (RFC 9530)."""
    return f"sha-256=:{base64.b64encode(sha256).decode()}:"


def download_whole(pieces: Iterable[tuple[str, int]], *, filename: str, content_type: str) -> HttpResponse:
    """The pieces as one attachment (UTF-8) with its `Content-Length` and `Repr-Digest`; for bounded histories
    only: the body is built in memory."""
    body = "".join(text for text, _rows in pieces).encode()
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Content-Length"] = str(len(body))
    response["Repr-Digest"] = repr_digest(hashlib.sha256(body).digest())
    return response

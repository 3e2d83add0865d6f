"""`/api/v1/exports`: have a whole-history file prepared by the background worker, follow it, download it.

A client asks for a kind (`POST`, with an `Idempotency-Key`), reads the export until `state` is `ready` (or
`failed`), then downloads `file_url`. The file answers with `Content-Length`, `Repr-Digest` (RFC 9530,
`sha-256=:<base64>:`) and an `ETag`; `size_bytes` and `sha256` here say the same. A download cut short is
resumed with `Range: bytes=<bytes received>-` (and `If-Range: <ETag>`). Decision 0430.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, cast

from django.http import HttpRequest, HttpResponseBase
from django.urls import reverse
from django.utils.translation import get_language
from ninja import Field, Router, Schema, Status

from gpurent.accounts.api_auth import api_auth
from gpurent.accounts.models import User
from gpurent.accounts.owners import Owner
from gpurent.core.api import ErrorOut
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import IdempotencyKeyHeader, api_idempotent
from gpurent.core.schemas import InputSchema

from .enums import ExportState
from .files import export_file_response
from .models import Export
from .selectors import export_get_for
from .services import export_request

router = Router(tags=["exports"], auth=api_auth)

_READ = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut}


class ExportIn(InputSchema):
    kind: Literal["balance.csv", "rentals.csv", "journal.json", "journal.md"] = Field(
        description="`balance.csv`: every ledger line of my balance; `rentals.csv`: every order; `journal.json`, "
        "`journal.md`: my whole experiment journal (as `GET /api/v1/journal/export.json|md`, UTF-8)."
    )


class ExportOut(Schema):
    id: str
    kind: str
    state: ExportState = Field(description="`queued`, `writing`, `ready` or `failed`")
    rows_total: int = Field(description="Rows the file will have (lines; orders; journal entries and runs)")
    rows_done: int = Field(description="Rows written so far; equal to `rows_total` once ready")
    size_bytes: int = Field(description="The file's length once ready (its `Content-Length`), else bytes so far")
    sha256: str = Field(description="The file's SHA-256 in hex once ready, else empty")
    filename: str
    created_at: datetime
    finished_at: datetime | None
    expires_at: datetime | None = Field(description="Once ready: when the file is deleted")
    file_url: str | None = Field(description="Once ready: where to download it")


def export_out(export: Export) -> dict[str, Any]:
    ready = export.state == ExportState.READY
    return {
        "id": str(export.public_id),
        "kind": export.kind,
        "state": export.state,
        "rows_total": export.rows_total,
        "rows_done": export.rows_done,
        "size_bytes": export.size_bytes,
        "sha256": export.sha256,
        "filename": export.filename,
        "created_at": export.created_at,
        "finished_at": export.finished_at,
        "expires_at": export.expires_at,
        "file_url": reverse("api:export_download", args=[export.public_id]) if ready else None,
    }


def _owner(request: HttpRequest) -> Owner:
    return Owner(user=cast(User, request.user))


@router.post(
    "",
    response={202: ExportOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    summary="Have a whole-history file prepared",
)
def export_create(request: HttpRequest, payload: ExportIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Queue the file for the background worker, or answer the one of this kind still being prepared. Asking
    again once it is ready or failed replaces it with a new one. Requires an `Idempotency-Key` header."""
    owner = _owner(request)

    def create() -> Outcome:
        export = export_request(owner=owner, kind=payload.kind, language=get_language())
        return Outcome(202, export_out(export))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), create)
    return Status(outcome.status, outcome.body)


@router.get("/{export_id}", response={200: ExportOut, **_READ}, summary="Read a prepared file's state")
def export_read(request: HttpRequest, export_id: str) -> dict[str, Any]:
    return export_out(export_get_for(_owner(request), export_id))


@router.get(
    "/{export_id}/file",
    response={200: None, 206: None, 409: ErrorOut, 416: None, **_READ},
    summary="Download a prepared file",
    url_name="export_download",
    description="The whole file (200) or one range of it (206, `Range: bytes=<first>-[<last>]`; 416 past its "
    "end), with `Content-Length`, `Repr-Digest` (SHA-256) and `ETag`. 409 `export_not_ready` until its state is "
    "`ready`.",
)
def export_download(request: HttpRequest, export_id: str) -> HttpResponseBase:
    return export_file_response(request, export_get_for(_owner(request), export_id))

"""`/api/v1/journal`: list and open entries, read one, post a run (Idempotency-Key), export.

Authentication: a personal API token (`Authorization: Bearer gpr_…`, what the journal client on a rented
machine uses) or the session cookie with CSRF. Guests keep their entries on the web pages only.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal, cast

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from ninja import Field, Query, Router, Schema, Status

from gpurent.accounts.api_auth import api_auth
from gpurent.accounts.models import User
from gpurent.accounts.owners import Owner
from gpurent.core.api import ErrorOut, PageIn, api_page
from gpurent.core.downloads import DownloadTooLarge
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import IdempotencyKeyHeader, api_idempotent
from gpurent.core.schemas import InputSchema

from .export import JOURNAL_DIRECT_MAX, entry_data, entry_document, entry_markdown, journal_whole, run_data
from .models import JournalEntry
from .records import EntryDraft, MeasurementDraft, RunDraft
from .selectors import LATEST_RUNS, entries_with_runs_for, entry_get_for, run_get
from .services import MAX_GPUS, MAX_KEYS, MAX_NUMBER, entry_create, run_create

router = Router(tags=["journal"], auth=api_auth)

Scalar = str | int | float | bool


def _owner(request: HttpRequest) -> Owner:
    return Owner(user=cast(User, request.user))


class EntryIn(InputSchema):
    question: str = Field(min_length=1, max_length=300, examples=["bf16 vs fp8 at batch 16"])
    hypothesis: str = Field(default="", max_length=10_000)
    metrics: str = Field(default="", max_length=10_000, description="Metrics and quality criteria")
    stop_criterion: str = Field(default="", max_length=10_000)
    rental: str = Field(default="", max_length=16, description="A reference of one of my orders (R-…)")
    estimate: str = Field(default="", max_length=64, description="The id of one of my saved estimates")


class MeasurementIn(InputSchema):
    peak_bytes_per_gpu: list[int] = Field(default_factory=list, max_length=MAX_GPUS, examples=[[22_548_578_304]])
    peak_source: str = Field(default="", max_length=100, examples=["torch.cuda.max_memory_allocated"])
    throughput: float | None = Field(default=None, ge=0, le=MAX_NUMBER, allow_inf_nan=False)
    throughput_unit: str = Field(default="", max_length=40, examples=["tokens/s"])
    latency_ms: float | None = Field(default=None, ge=0, le=MAX_NUMBER, allow_inf_nan=False)
    quality_metric: str = Field(default="", max_length=100, examples=["eval loss"])
    quality_value: float | None = Field(default=None, ge=-MAX_NUMBER, le=MAX_NUMBER, allow_inf_nan=False)

    def to_draft(self) -> MeasurementDraft:
        return MeasurementDraft(
            peak_bytes_per_gpu=tuple(self.peak_bytes_per_gpu),
            peak_source=self.peak_source,
            throughput=self.throughput,
            throughput_unit=self.throughput_unit,
            latency_ms=self.latency_ms,
            quality_metric=self.quality_metric,
            quality_value=self.quality_value,
        )


def _pairs(values: dict[str, Scalar]) -> dict[str, str]:
    # Numbers and booleans are recorded as the text a person would write: 16 → "16", True → "true".
    return {key: str(value).lower() if isinstance(value, bool) else str(value) for key, value in values.items()}


class RunIn(InputSchema):
    name: str = Field(min_length=1, max_length=200, examples=["bf16 b16"])
    code_version: str = Field(default="", max_length=200, examples=["a1b2c3d"])
    environment: str = Field(default="", max_length=500, examples=["Ubuntu 22.04, CUDA 12.4, driver 550"])
    versions: dict[str, Scalar] = Field(default_factory=dict, max_length=MAX_KEYS, examples=[{"torch": "2.4.0"}])
    parameters: dict[str, Scalar] = Field(default_factory=dict, max_length=MAX_KEYS, examples=[{"batch": "16"}])
    seeds: dict[str, Scalar] = Field(default_factory=dict, max_length=MAX_KEYS, examples=[{"torch": "0"}])
    determinism: dict[str, Scalar] = Field(default_factory=dict, max_length=MAX_KEYS)
    reproducibility: Literal["exact", "tolerance", "not_stated"] = "not_stated"
    tolerance: str = Field(default="", max_length=200)
    outcome: Literal["completed", "oom", "failed"] = "completed"
    failure: str = Field(default="", max_length=10_000)
    checkpoint: Literal["none", "saved_not_reloaded", "reloaded", "reload_failed"] = "none"
    first: MeasurementIn | None = Field(default=None, description="The first run (warm-up, compilation)")
    steady: MeasurementIn | None = Field(default=None, description="The steady state after warm-up")
    conclusion: str = Field(default="", max_length=10_000)

    def to_draft(self) -> RunDraft:
        return RunDraft(
            name=self.name,
            code_version=self.code_version,
            environment=self.environment,
            versions=_pairs(self.versions),
            parameters=_pairs(self.parameters),
            seeds=_pairs(self.seeds),
            determinism=_pairs(self.determinism),
            reproducibility=self.reproducibility,
            tolerance=self.tolerance,
            outcome=self.outcome,
            failure=self.failure,
            checkpoint=self.checkpoint,
            first=self.first.to_draft() if self.first else MeasurementDraft(),
            steady=self.steady.to_draft() if self.steady else MeasurementDraft(),
            conclusion=self.conclusion,
        )


class MeasurementOut(Schema):
    kind: Literal["observation"]
    peak_bytes_per_gpu: list[int]
    peak_bytes: int | None
    peak_source: str
    throughput: float | None
    throughput_unit: str
    latency_ms: float | None
    quality_metric: str
    quality_value: float | None


class EstimateCheckOut(Schema):
    estimated_peak_bytes: int
    observed_peak_bytes: int
    observed_phase: Literal["first", "steady"]
    error_bytes: int = Field(description="Estimate minus observation; positive when the estimate was too high")
    error_pct: float


class RunOut(Schema):
    id: str
    entry_id: str
    number: int
    name: str
    code_version: str
    environment: str
    versions: dict[str, str]
    parameters: dict[str, str]
    seeds: dict[str, str]
    determinism: dict[str, str]
    reproducibility: str
    tolerance: str
    outcome: str
    failure: str
    checkpoint: str
    first: MeasurementOut | None
    steady: MeasurementOut | None
    conclusion: str
    estimate_check: EstimateCheckOut | None
    created_at: datetime
    web_url: str


class EstimateRefOut(Schema):
    kind: Literal["estimate"]
    id: str
    title: str
    peak_bytes: int
    engine_version: str
    computed_at: datetime


class EntryOut(Schema):
    id: str
    question: str
    hypothesis: str
    metrics: str
    stop_criterion: str
    rental: str | None
    estimate: EstimateRefOut | None
    created_at: datetime
    run_count: int
    runs: list[RunOut] = Field(description="Every run, oldest first (an entry holds at most 200)")
    web_url: str


class EntrySummaryOut(EntryOut):
    """An entry in the list: the fields of `EntryOut`, and its newest runs."""

    runs: list[RunOut] = Field(
        description="Deprecated (kept because fields of this API are never removed): every run, oldest first, at most"
        " 200 per entry. Read `run_count` and `latest_runs` here, and `GET /entries/{id}` for all the runs.",
        json_schema_extra={"deprecated": True},
    )
    latest_runs: list[RunOut] = Field(
        description=f"The {LATEST_RUNS} newest runs, newest first; read the entry for all of them"
    )


class EntryListOut(Schema):
    items: list[EntrySummaryOut] = Field(description="One page of entries, newest first")
    next: str | None = Field(description="Cursor of the older entries (pass as ?cursor=), null on the last page")


_READ = {401: ErrorOut, 403: ErrorOut}
_WRITE = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut}


@router.get("/entries", response={200: EntryListOut, 422: ErrorOut, **_READ}, summary="List my journal entries")
def list_entries(request: HttpRequest, page: Query[PageIn]) -> dict[str, Any]:
    """A page of my entries, each with its run count and newest runs (`GET /entries/{id}` has all its runs).
    Each also carries `runs`, all of them, deprecated: read `latest_runs` and the entry instead."""
    return api_page(entries_with_runs_for(_owner(request)), page, _list_item)


def _list_item(entry: JournalEntry) -> dict[str, Any]:
    """An entry of the list: everything `GET /entries/{id}` answers, and its newest runs taken from those runs (all
    prefetched, oldest first), not read a second time."""
    data = entry_data(entry)
    return {**data, "latest_runs": data["runs"][::-1][:LATEST_RUNS]}


@router.post("/entries", response={201: EntryOut, **_WRITE}, summary="Open a journal entry")
def create_entry(request: HttpRequest, payload: EntryIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Open an entry for one experimental question. Requires an `Idempotency-Key` header. `rental` and
    `estimate` must be mine: anything else is 422 `invalid_request` naming the field."""
    owner = _owner(request)
    draft = EntryDraft(
        **payload.model_dump(exclude={"rental", "estimate"}), order_ref=payload.rental, estimate_id=payload.estimate
    )

    def create() -> Outcome:
        entry = entry_create(owner=owner, draft=draft)
        return Outcome(201, entry_data(entry_get_for(owner, entry.public_id)))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), create)
    return Status(outcome.status, outcome.body)


@router.get("/entries/{entry_id}", response={200: EntryOut, 404: ErrorOut, **_READ}, summary="Read one entry")
def get_entry(request: HttpRequest, entry_id: str) -> dict[str, Any]:
    """An entry with its runs; another owner's entry, or an unknown id, is a 404."""
    return entry_data(entry_get_for(_owner(request), entry_id))


@router.post("/entries/{entry_id}/runs", response={201: RunOut, **_WRITE}, summary="Post a run to an entry")
def create_run(request: HttpRequest, entry_id: str, payload: RunIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Record a run in one of my entries. Requires an `Idempotency-Key` header: a retry with the same key
    and body returns the same run; the same key with another body is 422 `idempotency_key_reused`. An entry
    holds at most 200 runs (`JOURNAL_MAX_RUNS_PER_ENTRY`): one more is 409 `too_many_runs`; open a new entry.
    Peaks are bytes per GPU; numbers in `parameters`, `seeds`... are stored as text."""
    owner = _owner(request)
    entry = entry_get_for(owner, entry_id)
    draft = payload.to_draft()

    def create() -> Outcome:
        run = run_create(entry=entry, draft=draft)
        fresh = entry_get_for(owner, entry.public_id)
        created = run_get(fresh, run.public_id)
        created.entry = fresh
        return Outcome(201, run_data(created))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), create)
    return Status(outcome.status, outcome.body)


@router.get("/entries/{entry_id}/runs/{run_id}", response={200: RunOut, 404: ErrorOut, **_READ}, summary="Read one run")
def get_run(request: HttpRequest, entry_id: str, run_id: str) -> dict[str, Any]:
    entry = entry_get_for(_owner(request), entry_id)
    run = run_get(entry, run_id)
    run.entry = entry
    return run_data(run)


def _download(content: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


_WHOLE = (
    "Sent whole with `Content-Length` and `Repr-Digest` (SHA-256); 409 `download_too_large` past "
    f"{JOURNAL_DIRECT_MAX:,} entries and runs together: prepare the file with `POST /api/v1/exports` instead."
)


@router.get(
    "/export.json",
    response={200: None, 409: ErrorOut, **_READ},
    summary="Export my whole journal as JSON",
    description="The entries and runs as the API reads them, except that each `web_url` is the page's whole URL "
    "(the shop's address and the path), since the file is read away from the site. " + _WHOLE,
)
def export_journal_json(request: HttpRequest) -> HttpResponse:
    # The API's JSON has always been ASCII (non-ASCII characters escaped); the page's download is UTF-8 text.
    return _whole(journal_whole(_owner(request), "json", "journal.json", ensure_ascii=True))


@router.get(
    "/export.md",
    response={200: None, 409: ErrorOut, **_READ},
    summary="Export my whole journal as Markdown",
    description=_WHOLE,
)
def export_journal_md(request: HttpRequest) -> HttpResponse:
    return _whole(journal_whole(_owner(request), "md", "journal.md"))


def _whole(response: HttpResponse | None) -> HttpResponse:
    if response is None:
        raise DownloadTooLarge()
    return response


@router.get(
    "/entries/{entry_id}/export.json", response={200: None, 404: ErrorOut, **_READ}, summary="Export an entry as JSON"
)
def export_entry_json(request: HttpRequest, entry_id: str) -> HttpResponse:
    """The entry as `GET /entries/{id}` reads it, except that each `web_url` is the page's whole URL."""
    entry = entry_get_for(_owner(request), entry_id)
    content = json.dumps(entry_document(entry), cls=DjangoJSONEncoder, indent=2)
    return _download(content, "application/json", f"journal-entry-{entry.public_id}.json")


@router.get(
    "/entries/{entry_id}/export.md", response={200: None, 404: ErrorOut, **_READ}, summary="Export an entry as Markdown"
)
def export_entry_md(request: HttpRequest, entry_id: str) -> HttpResponse:
    entry = entry_get_for(_owner(request), entry_id)
    return _download(entry_markdown(entry), "text/markdown", f"journal-entry-{entry.public_id}.md")

"""`/api/v1/estimates`: compute and save an estimate (with an Idempotency-Key), read one back, page through the
catalog table it stored.

Both operations need authentication (a personal token or the session cookie), because a saved estimate has
an owner; the page at /estimate/ serves guests. The body of the POST is the engine's input object, the
same one `python -m vramcalc --input inputs.json` and `manage.py estimate --input` read.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any, cast

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Field, Query, Router, Schema, Status
from ninja.renderers import JSONRenderer

from gpurent.accounts.api_auth import api_auth
from gpurent.accounts.models import User
from gpurent.accounts.owners import Owner
from gpurent.core.api import ErrorOut, PageIn
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import IdempotencyKeyHeader, api_idempotent_known
from gpurent.core.pagination import list_page
from gpurent.core.schemas import InputSchema
from vramcalc.option_schema import input_ranges

from .fit.rows_shown import FIT_ROWS_SHOWN, stored_rows_shown
from .models import SavedEstimate
from .selectors import estimate_get_for
from .services import estimate_fields_for, estimate_save_fields
from .workloads import WORKLOAD_KINDS

router = Router(tags=["estimates"], auth=api_auth)

# Every numeric input's range, as the engine declares it (`vramcalc.ranges`, decision 0374).
_RANGES = dict(input_ranges())


def _ranges_in(group: str) -> str:
    """The ranges of the numeric inputs under `group.` ("`cards` 1..65536, …"), for that object's description."""
    prefix = f"{group}."
    found = [f"`{path.removeprefix(prefix)}` {bounds}" for path, bounds in _RANGES.items() if path.startswith(prefix)]
    return "Numeric fields and their ranges (inclusive): " + ", ".join(found) + "."


def _number(path: str, description: str = "", **field: Any) -> Any:
    """An optional numeric input documented with its range (the engine checks it: 422 naming the field)."""
    bounds = _RANGES[path]
    text = f"{description} ({bounds})" if description else f"Within {bounds}"
    extra: dict[str, Any] = {"minimum": bounds.minimum, "maximum": bounds.maximum}
    return Field(default=None, description=text, json_schema_extra=extra, **field)


def _workloads() -> str:
    """The workload kinds as the engine spells them: "inference, full_finetune, … or vision_finetune"."""
    *first, last = WORKLOAD_KINDS
    return f"{', '.join(first)} or {last}"


class EstimateIn(InputSchema):
    """Engine inputs (`vramcalc.serialize.inputs_from_dict`). `model` is a preset id (see
    `python -m vramcalc --list-presets`) or a full model object; every other field is optional and takes the
    engine's default. Unknown fields are refused with 422, naming the field, as on every write endpoint. Every
    number has a range (in each field's description, and `minimum`/`maximum` for the top-level ones); a value
    outside it is refused with 422 `invalid_request` naming the field, e.g. `parallel.cards: must be within
    1..65536`."""

    model: str | dict[str, Any] = Field(examples=["llama-3.1-70b"], description=_ranges_in("model"))
    workload: str | None = Field(
        default=None,
        description=_workloads(),
        examples=["inference"],
    )
    precision: dict[str, Any] | None = Field(default=None, examples=[{"weights": "bf16", "kv_cache": "bf16"}])
    quantization: dict[str, Any] | None = Field(
        default=None, examples=[{"method": "bnb_nf4"}], description=_ranges_in("quantization")
    )
    batch_size: int | None = _number("batch_size", examples=[1])
    seq_len: int | None = _number("seq_len", examples=[8192])
    context_len: int | None = _number("context_len")
    concurrent_sequences: int | None = _number("concurrent_sequences", examples=[16])
    image_height: int | None = _number("image_height")
    image_width: int | None = _number("image_width")
    training: dict[str, Any] | None = Field(
        default=None, examples=[{"activation_checkpointing": True}], description=_ranges_in("training")
    )
    lora: dict[str, Any] | None = Field(default=None, description=_ranges_in("lora"))
    parallel: dict[str, Any] | None = Field(
        default=None, examples=[{"strategy": "single", "cards": 1}], description=_ranges_in("parallel")
    )
    runtime: dict[str, Any] | None = Field(default=None, description=_ranges_in("runtime"))
    diffusion: dict[str, Any] | None = Field(default=None, description=_ranges_in("diffusion"))
    flash_attention: bool | None = Field(default=None, description="Fused attention (default true)")
    images_per_sequence: int | None = _number("images_per_sequence", "Vision-language models: images per sequence")


class ComponentOut(Schema):
    key: str
    label: str
    bytes: int
    formula: str
    assumption: str
    phases: list[str]
    low_bytes: int | None = None
    high_bytes: int | None = None


class NoteOut(Schema):
    key: str
    text: str
    low_bytes: int | None = Field(None, description="Not modelled: the effect's likely size on one card, low end")
    high_bytes: int | None = Field(None, description="Not modelled: the effect's likely size on one card, high end")
    direction: int | None = Field(
        None,
        description="1: the measured peak may be higher by up to high_bytes (the range's high end includes it); "
        "-1: lower (the low end includes it); 0: it depends on a setting the inputs do not state",
    )


class RangeOut(Schema):
    coverage_pct: int = Field(description="Share of measured peaks the range is meant to hold (90: 9 runs in 10)")
    kind: str = Field(description="The kind of workload whose calibrated band built the range")
    low_pct: int = Field(description="The band's low end, percent of the expected peak (before not-modelled sizes)")
    high_pct: int = Field(description="The band's high end, percent of the expected peak")
    meaning: str = Field(description="What the range means, in English")


class ResultOut(Schema):
    peak_bytes: int
    peak_low_bytes: int | None = Field(None, description="Low end of the per-card peak's range")
    peak_high_bytes: int | None = Field(None, description="High end of the range; the catalog fit uses it")
    peak_phase: str
    peak_reserved_bytes: int
    peak_allocated_bytes: int | None = Field(None, description="Live tensors (torch.cuda.max_memory_allocated)")
    nvidia_smi_bytes: int | None = Field(None, description="What nvidia-smi would show: reserved + context")
    vae_decode_peak_bytes: int | None
    kv_bytes_per_token: int | None
    cards: int
    workload: str
    components: list[ComponentOut]
    notes: list[str]
    warnings: list[NoteOut] = Field(default_factory=list, description="Approximations the estimate relies on")
    not_modelled: list[NoteOut] = Field(
        default_factory=list, description="What it leaves out for these inputs, each with its likely size where known"
    )
    range: RangeOut | None = Field(
        None, description="What peak_low_bytes..peak_high_bytes means (absent on estimates saved before engine 0.3.0)"
    )


class PricesOut(Schema):
    three_days: str = Field(alias="3", examples=["510.00"])
    seven_days: str = Field(alias="7", examples=["1110.00"])
    thirty_days: str = Field(alias="30", examples=["4350.00"])


class GpuFitOut(Schema):
    gpu: str
    name: str
    memory_bytes_per_card: int
    usable_bytes_per_card: int
    cards_per_lot: int
    fits: bool
    status: str | None = Field(None, description="fits (high end fits), tight (only the expected peak) or does_not_fit")
    lots: int | None
    cards: int | None
    peak_bytes_per_card: int
    peak_high_bytes_per_card: int | None = None
    headroom_bytes: int
    stock_lots: int
    in_stock: bool
    prices_usd: PricesOut | None


class EstimateOut(Schema):
    id: str = Field(description="The public id: /estimate/{id}/ on the web, /api/v1/estimates/{id} here")
    title: str
    inputs: dict[str, Any]
    result: ResultOut
    peak_bytes: int
    vae_decode_peak_bytes: int | None
    engine_version: str
    usable_pct: int
    created_at: datetime
    measured_peak_bytes: int | None
    measured_at: datetime | None
    catalog_fit: list[GpuFitOut] = Field(
        description="The GPUs that fit best, in catalog order: every GPU on sale when there are at most "
        f"{FIT_ROWS_SHOWN}, else the {FIT_ROWS_SHOWN} that rank first (fits, cheapest 7-day price first; then tight, "
        "cheapest first; then does not fit, smallest shortfall first). The whole table: "
        "GET /api/v1/estimates/{id}/catalog-fit"
    )
    web_url: str
    catalog_fit_total: int = Field(description="Rows in the whole catalog table (GPUs on sale when it was saved)")


class GpuFitListOut(Schema):
    items: list[GpuFitOut]
    next: str | None = Field(description="Cursor of the following rows (pass as ?cursor=), null on the last page")


def estimate_out(saved: SavedEstimate) -> dict[str, Any]:
    """A saved estimate in the API's shape; the catalog table is the one stored when it was saved."""
    return {
        "id": str(saved.public_id),
        "title": saved.title_text,
        "inputs": saved.inputs,
        "result": saved.result,
        "peak_bytes": saved.peak_bytes,
        "vae_decode_peak_bytes": saved.result.get("vae_decode_peak_bytes"),
        "engine_version": saved.engine_version,
        "usable_pct": saved.usable_pct,
        "created_at": saved.created_at,
        "measured_peak_bytes": saved.measured_peak_bytes,
        "measured_at": saved.measured_at,
        "catalog_fit": stored_rows_shown(saved.catalog_fit),
        "web_url": f"/estimate/{saved.public_id}/",
        "catalog_fit_total": len(saved.catalog_fit),
    }


_RENDERER = JSONRenderer()
# What differs between two estimates of the same inputs against the same catalog.
_PER_ESTIMATE = ("id", "created_at", "measured_peak_bytes", "measured_at", "web_url")


def _encode(value: Any) -> str:
    return json.dumps(value, cls=_RENDERER.encoder_class, **_RENDERER.json_dumps_params)


def _encoded_fields(fields: dict[str, Any]) -> dict[str, str]:
    """The parts of the answer that are the same for every estimate of these fields (`estimate_fields`), checked
    by `EstimateOut` and JSON-encoded as ninja would: done once per inputs and catalog version, cached with the
    fields, instead of validating and encoding the ~8 KB of result and catalog table on every request."""
    sample = estimate_out(SavedEstimate(public_id=uuid.uuid4(), created_at=timezone.now(), **fields))
    dumped = EstimateOut.model_validate(sample).model_dump(by_alias=True)
    return {name: _encode(value) for name, value in dumped.items() if name not in _PER_ESTIMATE}


def _created(saved: SavedEstimate, encoded: dict[str, str]) -> HttpResponse:
    """The 201 answer, byte for byte what ninja makes of `estimate_out(saved)` through `EstimateOut` (the schema's
    field order and JSON encoder; tested against ninja's answer to the GET), from the cached encoded fields."""
    own = estimate_out(saved)
    body = ", ".join(
        f"{_encode(name)}: {encoded[name] if name in encoded else _encode(own[name])}"
        for name in EstimateOut.model_fields
    )
    return HttpResponse(f"{{{body}}}", status=201, content_type=f"{_RENDERER.media_type}; charset=utf-8")


@router.post(
    "",
    response={201: EstimateOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    by_alias=True,
    summary="Estimate memory per card and save the estimate",
)
def create_estimate(
    request: HttpRequest, payload: EstimateIn, idempotency_key: IdempotencyKeyHeader
) -> Status | HttpResponse:
    """Estimate the per-card memory of a workload, fit it against every GPU on sale (smallest number of lots
    under the plan, within 90 % of each card's memory, or the share `runtime.gpu_memory_utilization_pct` gives a vLLM
    server (at most 95 %), with the price for 3, 7 and 30 days), and save it. The answer's
    `catalog_fit` holds the GPUs that fit best (all of them up to 12 on sale), `catalog_fit_total` the size of the
    whole table, which `GET /api/v1/estimates/{id}/catalog-fit` pages through.
    Requires an `Idempotency-Key` header: a retry with the same key and body returns the same estimate; while
    the first is still running, a retry gets 409 `idempotency_key_in_use` (retry it shortly).
    Invalid inputs: 422 `invalid_request`, the message names the field (e.g. `parallel.tensor_parallel`).
    With the session cookie instead of a token, the CSRF token is required (403 without it)."""
    owner = Owner(user=cast(User, request.user))
    # The engine reads the body as sent: the schema above documents it, but would drop unknown fields that the
    # engine must refuse by name, and would coerce "8" to 8 where the engine asks for an integer.
    data = json.loads(request.body)
    # Computed (or taken from the cache) before the key is touched: invalid inputs are a 422 that stores nothing.
    fields, encoded = estimate_fields_for(data, _encoded_fields)
    public_id = uuid.uuid4()
    saved: list[SavedEstimate] = []

    def write() -> None:
        saved.append(estimate_save_fields(owner=owner, fields=fields, public_id=public_id))

    # The key's record keeps only the id: the estimate (and its catalog table) is stored once, in its row. The id
    # is made up front, so the key is inserted finished in the estimate's own transaction (decision 0205), which
    # does not wait for its disk flush: an estimate is not money (decision 0255).
    outcome = api_idempotent_known(
        request, idempotency_key, data, Outcome(201, {"id": str(public_id)}), write, durable=False
    )
    if outcome.is_error:
        return Status(outcome.status, outcome.body)
    if saved and not outcome.replayed:
        return _created(saved[0], encoded)
    return Status(outcome.status, estimate_out(estimate_get_for(owner, outcome.body["id"])))


@router.get(
    "/{estimate_id}",
    response={200: EstimateOut, 401: ErrorOut, 404: ErrorOut},
    by_alias=True,
    summary="Read one of my saved estimates",
)
def get_estimate(request: HttpRequest, estimate_id: str) -> dict[str, Any]:
    """A saved estimate of the authenticated user; another owner's, or an unknown id, is a 404."""
    return estimate_out(estimate_get_for(Owner(user=cast(User, request.user)), estimate_id))


@router.get(
    "/{estimate_id}/catalog-fit",
    response={200: GpuFitListOut, 401: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    by_alias=True,
    summary="Page through the whole catalog table of one of my saved estimates",
)
def list_estimate_catalog_fit(request: HttpRequest, estimate_id: str, page: Query[PageIn]) -> dict[str, Any]:
    """Every row of the catalog table stored with the estimate (one per GPU on sale when it was saved, with that
    day's prices and stock), in catalog order, `limit` rows at a time; `next` leads to the following rows. Another
    owner's estimate, or an unknown id, is a 404; a `cursor` that is not a `next` of this list is 422
    `invalid_request`."""
    saved = estimate_get_for(Owner(user=cast(User, request.user)), estimate_id)
    found = list_page(saved.catalog_fit, page.cursor, size=page.limit)
    return {"items": found.items, "next": found.next}

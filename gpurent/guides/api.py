"""`/api/v1/guides`: list the guides (public), and create and read one's own quote requests (authenticated)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status
from ninja.security import django_auth

from gpurent.accounts.owners import owner_for
from gpurent.catalog.filters import CATALOG_ORDER
from gpurent.catalog.selectors import gpu_list
from gpurent.core.api import ErrorOut, PageIn, api_page
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import IdempotencyKeyHeader, api_idempotent
from gpurent.core.pagination import keyset_page
from gpurent.core.schemas import InputSchema

from .guide import Guide
from .models import QuoteRequest
from .selectors import guide_list, quote_request_get_for, quote_request_list_for
from .services import QuoteDetails, quote_request_create

# Session authentication (with CSRF) by default. Guides may not import `accounts` (DESIGN §10), which owns the
# personal-token authentication, so config/api.py sets `guides_router.auth = api_auth` before mounting it
# (operations without their own `auth` inherit the router's; the public guide list sets `auth=None`).
router = Router(tags=["guides"], auth=django_auth)

# GPUs per page of the guide list: each brings at most 15 guides (5 workloads × 3 scopes), ~8.2 KB of JSON, so
# the largest page (15 GPUs) stays under issue 16's 150 KB per response.
GPUS_PER_PAGE = 10
MAX_GPUS_PER_PAGE = 15

WorkloadName = Literal["llm-serving", "lora-finetuning", "full-finetuning", "image-generation", "vision-finetuning"]
ScopeName = Literal["proof-of-concept", "pilot", "production"]


class GuideFilter(InputSchema):
    gpu: str = Field(default="", max_length=50, description="A catalog GPU slug; empty for all")
    workload: WorkloadName | Literal[""] = ""
    scope: ScopeName | Literal[""] = ""


class GuidePageIn(PageIn):
    """A page of the guide list counts GPUs, each with its guides."""

    limit: int = Field(
        GPUS_PER_PAGE, ge=1, le=MAX_GPUS_PER_PAGE, description="GPUs per page; each brings its guides (at most 15)"
    )


class GuideOut(Schema):
    title: str
    gpu: str
    gpu_name: str
    workload: WorkloadName
    scope: ScopeName
    model_preset: str
    url: str
    estimator_url: str
    estimator_fields: dict[str, str]


class GuideListOut(Schema):
    items: list[GuideOut] = Field(description="The guides of one page of GPUs, in catalog order")
    next: str | None = Field(description="Cursor of the next GPUs' guides (pass as ?cursor=), null on the last page")


def _guide_out(guide: Guide) -> dict[str, Any]:
    return {
        "title": guide.title,
        "gpu": guide.gpu.slug,
        "gpu_name": guide.gpu.name,
        "workload": guide.workload.value,
        "scope": guide.scope.value,
        "model_preset": guide.preset,
        "url": guide.url,
        "estimator_url": guide.estimator_url,
        "estimator_fields": guide.fields,
    }


@router.get("", response={200: GuideListOut, 422: ErrorOut}, auth=None, summary="List the workload guides")
def list_guides(request: HttpRequest, filters: Query[GuideFilter], page: Query[GuidePageIn]) -> dict[str, Any]:
    """The guides (GPU on sale × workload × scope) of one keyset page of GPUs, optionally filtered; an unknown GPU
    matches none. A bad cursor is 422 `invalid_request`."""
    gpus = gpu_list().filter(slug=filters.gpu) if filters.gpu else gpu_list()
    found = keyset_page(gpus, page.cursor, size=page.limit, key=CATALOG_ORDER)
    guides = guide_list(gpus=found.items, workload=filters.workload, scope=filters.scope)
    return {"items": [_guide_out(guide) for guide in guides], "next": found.next}


class QuoteIn(InputSchema):
    gpu: str = Field(min_length=1, max_length=50, description="A catalog GPU slug, as in /api/v1/catalog")
    workload: WorkloadName = Field(description="The guide's workload")
    guide_scope: ScopeName = Field(description="The guide's scope")
    model: str = Field(min_length=1, max_length=200)
    endpoint: Literal["ssh", "openai_api", "custom_api", "batch", "notebook"]
    support_level: Literal["self_managed", "assisted", "managed"]
    delivery_scope: ScopeName
    expected_load: str = Field(min_length=1, max_length=500)
    sample_data: str = Field(default="", max_length=20_000)
    contact_email: str | None = Field(default=None, max_length=254, description="Defaults to the account's email")


class QuoteOut(Schema):
    id: uuid.UUID
    ref: str
    gpu: str
    workload: str
    guide_scope: str
    model: str
    endpoint: str
    support_level: str
    delivery_scope: str
    expected_load: str
    sample_data: str
    contact_email: str
    status: Literal["new", "in_review", "answered", "closed"]
    created_at: datetime


class QuoteListOut(Schema):
    items: list[QuoteOut] = Field(description="One page of quote requests, newest first")
    next: str | None = Field(description="Cursor of the older requests (pass as ?cursor=), null on the last page")


def _quote_out(quote: QuoteRequest) -> dict[str, Any]:
    return {
        "id": quote.public_id,
        "ref": quote.short_id,
        "gpu": quote.gpu.slug,
        "workload": quote.guide_workload,
        "guide_scope": quote.guide_scope,
        "model": quote.model_name,
        "endpoint": quote.endpoint,
        "support_level": quote.support_level,
        "delivery_scope": quote.delivery_scope,
        "expected_load": quote.expected_load,
        "sample_data": quote.sample_data,
        "contact_email": quote.contact_email,
        "status": quote.status,
        "created_at": quote.created_at,
    }


@router.post(
    "/quotes",
    response={201: QuoteOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    summary="Send a quote request",
)
def create_quote(request: HttpRequest, payload: QuoteIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Store a quote request and acknowledge it by email. Requires an `Idempotency-Key` header: a retry with the
    same key and body returns the same request; the same key with another body is refused (422
    `idempotency_key_reused`). An unknown GPU is 422 `invalid_request`; too many requests in an hour from one
    account or address is 429 `rate_limited`."""
    owner = owner_for(request)
    email = payload.contact_email if payload.contact_email is not None else getattr(request.user, "email", "")
    details = QuoteDetails(
        gpu_slug=payload.gpu,
        guide_workload=payload.workload,
        guide_scope=payload.guide_scope,
        model_name=payload.model,
        endpoint=payload.endpoint,
        support_level=payload.support_level,
        delivery_scope=payload.delivery_scope,
        expected_load=payload.expected_load,
        contact_email=email,
        sample_data=payload.sample_data,
    )

    def create() -> Outcome:
        quote = quote_request_create(owner=owner, details=details, client_ip=request.META.get("REMOTE_ADDR", ""))
        return Outcome(201, _quote_out(quote))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), create)
    return Status(outcome.status, outcome.body)


@router.get(
    "/quotes",
    response={200: QuoteListOut, 401: ErrorOut, 403: ErrorOut, 422: ErrorOut},
    summary="List my quote requests",
)
def list_quotes(request: HttpRequest, page: Query[PageIn]) -> dict[str, Any]:
    return api_page(quote_request_list_for(owner_for(request)), page, _quote_out)


@router.get(
    "/quotes/{quote_id}",
    response={200: QuoteOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    summary="Read one of my quote requests",
)
def get_quote(request: HttpRequest, quote_id: str) -> dict[str, Any]:
    """Another owner's request, or a malformed id, is 404 `not_found`."""
    return _quote_out(quote_request_get_for(owner_for(request), quote_id))

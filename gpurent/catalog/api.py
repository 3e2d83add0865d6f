"""`GET /api/v1/catalog`: the GPU models on sale, in the shape of DESIGN §11.1."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Field, Query, Router, Schema
from ninja.renderers import JSONRenderer

from gpurent.core.api import ErrorOut, PageIn, api_page
from gpurent.core.caching.pages import cached_page, public_key, store_page

from .enums import Stack, Term, Vendor
from .filters import CATALOG_ORDER
from .models import GpuModel
from .selectors import catalog_version, gpu_list

router = Router(tags=["catalog"])
_RENDERER = JSONRenderer()


class PricesOut(Schema):
    """Price of one lot per term, in USD as a decimal string with two decimals."""

    three_days: str = Field(alias="3", examples=["95.00"])
    seven_days: str = Field(alias="7", examples=["205.00"])
    thirty_days: str = Field(alias="30", examples=["790.00"])


class MachineOut(Schema):
    """The machine around the cards of one lot; null where the shop does not state it."""

    vcpus_per_lot: int | None
    ram_gib_per_lot: int | None
    disk_gib_per_lot: int | None
    network: str
    region: str
    driver_version: str
    stack_version: str = Field(examples=["CUDA 12.8"])
    interconnect: str
    typical_ready_minutes: int | None


class CatalogItemOut(Schema):
    slug: str
    name: str
    vendor: Vendor
    memory_gib_per_card: float
    memory_mib_per_card: int
    stack: Stack
    cards_per_lot: int
    stock_lots: int
    prices_usd: PricesOut
    summary: str
    machine: MachineOut


class CatalogOut(Schema):
    items: list[CatalogItemOut]
    next: str | None = Field(description="Cursor of the following GPU models (pass as ?cursor=), null on the last page")


def catalog_item(gpu: GpuModel) -> dict[str, Any]:
    """One catalog entry as the API shows it (field names are public: never rename them)."""
    return {
        "slug": gpu.slug,
        "name": gpu.name,
        "vendor": gpu.vendor,
        "memory_gib_per_card": float(gpu.memory_gib_per_card),
        "memory_mib_per_card": gpu.memory_mib_per_card,
        "stack": gpu.stack,
        "cards_per_lot": gpu.cards_per_lot,
        "stock_lots": gpu.stock_lots,
        "prices_usd": {str(term.value): gpu.lot_price(term).to_api() for term in Term},
        "summary": gpu.summary,
        "machine": {field: getattr(gpu, field) for field in MachineOut.model_fields},
    }


@router.get("", response={200: CatalogOut, 422: ErrorOut}, by_alias=True, summary="List the GPU models on sale")
def catalog(request: HttpRequest, page: Query[PageIn]) -> dict[str, Any] | HttpResponse:
    """The GPU models on sale in catalog order: memory per card, cards per lot (B200: 2), stock in lots, and
    the price of one lot for 3, 7 and 30 days. An order's total is the lot price × lots. One page of `limit`
    models; `next` is the cursor of the following page (null when there is none)."""
    # The answer is the same for everyone, with a token, a session or neither (nothing here authenticates or
    # shows the caller): from the cache while no GPU on sale changed (decisions 0200, 0255).
    key = public_key(request, "api-catalog", catalog_version)
    if (hit := cached_page(key)) is not None:
        return hit
    data = api_page(gpu_list(), page, catalog_item, key=CATALOG_ORDER)
    if key is None:
        return data
    # What ninja does with the returned dict: the schema's dump by alias, through its default JSON renderer
    # (the test compares the bytes with ninja's own answer to an htmx request, which is never cached).
    body = _RENDERER.render(request, CatalogOut.model_validate(data).model_dump(by_alias=True), response_status=200)
    return store_page(request, key, HttpResponse(body, content_type=f"{_RENDERER.media_type}; charset=utf-8"))

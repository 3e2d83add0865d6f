"""`GET /api/v1/catalog`: the GPU models on sale, in the shape of DESIGN §11.1."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema

from .enums import Stack, Term, Vendor
from .models import GpuModel
from .selectors import gpu_list

router = Router(tags=["catalog"])


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


@router.get("", response=CatalogOut, by_alias=True, summary="List the GPU models on sale")
def catalog(request: HttpRequest) -> dict[str, Any]:
    """Every GPU model on sale: memory per card, cards per lot (B200: 2), stock in lots, and the price of
    one lot for 3, 7 and 30 days. An order's total is the lot price × lots."""
    return {"items": [catalog_item(gpu) for gpu in gpu_list()]}

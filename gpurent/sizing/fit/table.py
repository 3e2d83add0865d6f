"""Which catalog GPUs fit an estimate, with how many lots, and what that costs (DESIGN §6).

Memory is per card and never pooled. For each GPU the search grows the chosen plan one card at a time,
exactly as `vramcalc.capacity.min_cards` does (`single` grows tensor parallelism; ZeRO/FSDP and pipeline
grow their degree; card counts the plan rejects are skipped), except for DDP: replicas do not reduce the
memory per card, so a DDP plan keeps the card count the customer chose. Cards become lots with the GPU's
`cards_per_lot` (a B200 lot is two cards), and an order holds at most 10 lots.

A configuration **fits** when the *high end* of the per-card peak's range is within the usable share of the memory
the driver reports (`usable_pct`: `USABLE_PCT`, or the share a vLLM server is told to take); it is **tight** when
only the expected peak is; otherwise it does **not fit**. The table
offers the smallest configuration that fits, else the smallest tight one. A recipe that cannot use more cards
is not offered more: DDP replicas and single-device fine-tunes or image generation keep the card count chosen
(a single-device fine-tune is not split by tensor parallelism on its own).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gpurent.catalog.enums import MAX_LOTS_PER_ORDER, Term
from gpurent.catalog.models import GpuModel
from gpurent.catalog.pricing import quote_for
from gpurent.core.money import Usd
from vramcalc import Engine, Estimate, EstimateInput, InvalidInput, Strategy, Workload, estimate
from vramcalc.capacity import fits, fixed_card_count
from vramcalc.units import MIB

__all__ = [
    "FITS",
    "NO_FIT",
    "TIGHT",
    "USABLE_PCT",
    "VLLM_SHARE_MAX_PCT",
    "GpuFit",
    "card_bytes",
    "catalog_fit",
    "fits_on_card",
    "plan_with_cards",
    "usable_pct",
]

FITS, TIGHT, NO_FIT = "fits", "tight", "does_not_fit"

# The share of a card's driver-reported memory an estimate may use; vLLM's default utilisation is the same.
USABLE_PCT = 90
# The most of a card a vLLM share counts for. vLLM refuses to start when the share is more than its process finds free
# after its own CUDA context (with the default 1 GiB: about 95.8 % of a 24 GB card, 98.7 % of an 80 GB one), so a share
# above this is not trusted further (decision 0583).
VLLM_SHARE_MAX_PCT = 95


def card_bytes(gpu: GpuModel) -> int:
    """Memory of one card of `gpu` in bytes (the driver-reported MiB)."""
    return gpu.memory_mib_per_card * MIB


def usable_pct(inp: EstimateInput) -> int:
    """The share of a card an estimate of `inp` may fill. A vLLM server takes the share it is told to
    (`runtime.gpu_memory_utilization_pct`, its `--gpu-memory-utilization`; at most `VLLM_SHARE_MAX_PCT`) and fails to
    start when what it needs does not fit in it; anything else keeps `USABLE_PCT` as its margin. SGLang's
    `--mem-fraction-static` is another rule (weights and KV pool inside it, activations and graphs outside), which
    the table does not model: SGLang keeps `USABLE_PCT` too."""
    if inp.workload is Workload.INFERENCE and inp.runtime.engine is Engine.VLLM:
        return min(inp.runtime.gpu_memory_utilization_pct, VLLM_SHARE_MAX_PCT)
    return USABLE_PCT


def fits_on_card(result: Estimate, size: int, usable: int) -> bool:
    """The table's rule for "fits": the high end of the per-card peak is within `usable` % of `size` bytes.
    Anything else that says whether a configuration fits (a guide's largest batch) uses it too."""
    return fits(result.peak_high_bytes, size, usable).fits


def plan_with_cards(inp: EstimateInput, cards: int) -> EstimateInput | None:
    """`inp` over `cards` cards under the same strategy, or None when the plan rejects that count.

    The same rule as `vramcalc.capacity.min_cards`: `single` is one replica split by tensor parallelism over
    all its cards; the other strategies keep their tensor-parallel degree.
    """
    plan = inp.parallel
    tp = cards if plan.strategy is Strategy.SINGLE else plan.tensor_parallel
    try:
        return dataclasses.replace(inp, parallel=dataclasses.replace(plan, cards=cards, tensor_parallel=tp))
    except InvalidInput:
        return None


@dataclass(frozen=True)
class GpuFit:
    """One row of the catalog table.

    Attributes:
        gpu: the catalog model.
        status: `FITS` (the high end fits), `TIGHT` (only the expected peak fits) or `NO_FIT`.
        cards: cards of the smallest configuration that fits (None when none does).
        lots: lots of that configuration: ceil(cards / cards_per_lot).
        peak_bytes: expected per-card peak of that configuration, else of the plan as chosen.
        peak_high_bytes: high end of that peak's range.
        headroom_bytes: usable bytes − high end of the peak (negative when it does not fit).
        usable_bytes: the usable share of one card (`usable_pct`).
        prices: price of `lots` lots per term (lot price × lots), None when it does not fit.
    """

    gpu: GpuModel
    status: str
    cards: int | None
    lots: int | None
    peak_bytes: int
    peak_high_bytes: int
    headroom_bytes: int
    usable_bytes: int
    prices: dict[int, Usd] | None

    @property
    def fits(self) -> bool:
        """The high end of the peak fits."""
        return self.status == FITS

    @property
    def tight(self) -> bool:
        """The expected peak fits, its high end does not."""
        return self.status == TIGHT

    @property
    def card_bytes(self) -> int:
        return card_bytes(self.gpu)

    @property
    def in_stock(self) -> bool:
        return self.lots is not None and self.lots <= self.gpu.stock_lots

    @property
    def week_price(self) -> Usd | None:
        return None if self.prices is None else self.prices[Term.WEEK]

    def to_api(self) -> dict[str, Any]:
        """The API's shape: bytes as integers, prices as decimal strings (DESIGN §11.1)."""
        return {
            "gpu": self.gpu.slug,
            "name": self.gpu.name,
            "memory_bytes_per_card": self.card_bytes,
            "usable_bytes_per_card": self.usable_bytes,
            "cards_per_lot": self.gpu.cards_per_lot,
            "fits": self.fits,
            "status": self.status,
            "lots": self.lots,
            "cards": self.cards,
            "peak_bytes_per_card": self.peak_bytes,
            "peak_high_bytes_per_card": self.peak_high_bytes,
            "headroom_bytes": self.headroom_bytes,
            "stock_lots": self.gpu.stock_lots,
            "in_stock": self.in_stock,
            "prices_usd": None
            if self.prices is None
            else {str(term): price.to_api() for term, price in sorted(self.prices.items())},
        }


class _Peaks:
    """Per-card peaks of `inp` by card count, each estimated once for the whole table."""

    def __init__(self, inp: EstimateInput, chosen: Estimate) -> None:
        self._inp = inp
        self._cache: dict[int, Estimate | None] = {inp.parallel.cards: chosen}

    def at(self, cards: int) -> Estimate | None:
        if cards not in self._cache:
            candidate = plan_with_cards(self._inp, cards)
            self._cache[cards] = None if candidate is None else estimate(candidate)
        return self._cache[cards]


def _row(gpu: GpuModel, inp: EstimateInput, chosen: Estimate, peaks: _Peaks, usable: int) -> GpuFit:
    per_lot = gpu.cards_per_lot
    size = card_bytes(gpu)
    fixed = fixed_card_count(inp)
    counts: Iterable[int] = (inp.parallel.cards,) if fixed else range(1, MAX_LOTS_PER_ORDER * per_lot + 1)
    tight: tuple[int, Estimate] | None = None
    for cards in counts:
        result = peaks.at(cards)
        if result is None or -(-cards // per_lot) > MAX_LOTS_PER_ORDER:
            continue
        if fits_on_card(result, size, usable):
            return _offer(gpu, FITS, cards, result, usable)
        if tight is None and fits(result.peak_bytes, size, usable).fits:
            tight = (cards, result)
    if tight is not None:
        return _offer(gpu, TIGHT, *tight, usable)
    # Nothing fits: the headroom shown is the shortfall of the plan as chosen, as in the bar chart.
    fit = fits(chosen.peak_high_bytes, size, usable)
    return GpuFit(
        gpu, NO_FIT, None, None, chosen.peak_bytes, chosen.peak_high_bytes, fit.headroom_bytes, fit.usable_bytes, None
    )


def _offer(gpu: GpuModel, status: str, cards: int, result: Estimate, usable: int) -> GpuFit:
    lots = -(-cards // gpu.cards_per_lot)
    fit = fits(result.peak_high_bytes, card_bytes(gpu), usable)
    prices = {term.value: quote_for(gpu, term_days=term.value, lots=lots).total for term in Term}
    high = result.peak_high_bytes
    return GpuFit(gpu, status, cards, lots, result.peak_bytes, high, fit.headroom_bytes, fit.usable_bytes, prices)


def catalog_fit(inp: EstimateInput, chosen: Estimate, gpus: Iterable[GpuModel]) -> list[GpuFit]:
    """One `GpuFit` per GPU of `gpus`, in catalog order. `chosen` is `estimate(inp)`, reused."""
    peaks, usable = _Peaks(inp, chosen), usable_pct(inp)
    return [_row(gpu, inp, chosen, peaks, usable) for gpu in gpus]

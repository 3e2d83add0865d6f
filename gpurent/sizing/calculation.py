"""One estimate for the web page, the API and the command: engine inputs → breakdown + catalog table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.translation import gettext

from gpurent.catalog.enums import Stack
from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_list
from vramcalc import Estimate, EstimateInput, InvalidInput, estimate
from vramcalc.serialize import inputs_from_dict, inputs_to_dict

from .errors import EstimateInputInvalid, EstimateTooLarge
from .fit.rows_shown import fit_rank, rows_shown
from .fit.table import GpuFit, catalog_fit, usable_pct

__all__ = ["MAX_PEAK_BYTES", "Sizing", "inputs_from_payload", "size_workload"]

# 1 PiB per card: far beyond any card, still far below what a BIGINT column holds.
MAX_PEAK_BYTES = 2**50


@dataclass(frozen=True)
class Sizing:
    """An estimate and the catalog table computed from it.

    Attributes:
        inputs: the engine inputs.
        result: the engine's estimate for the plan as chosen.
        fit: one row per catalog GPU on sale, in catalog order (the whole table; a page shows `fit_shown`).
        usable_pct: the share of each card counted as usable (`fit.table.usable_pct`).
    """

    inputs: EstimateInput
    result: Estimate
    fit: list[GpuFit]
    usable_pct: int

    @property
    def peak_components(self) -> list[dict[str, Any]]:
        """The components live in the peak phase (they add up to `peak_bytes`), largest first."""
        phase = self.result.peak_phase
        live = [c.to_dict() for c in self.result.components if phase in c.phases and c.bytes > 0]
        return sorted(live, key=lambda c: -int(c["bytes"]))

    @cached_property
    def fit_shown(self) -> list[GpuFit]:
        """The rows the estimator shows: all of them up to `FIT_ROWS_SHOWN`, else those that fit best, in catalog
        order (`fit.rows_shown`); `cheapest` is always among them."""
        return rows_shown(self.fit, fit_rank)

    @property
    def fit_left_out(self) -> int:
        """How many rows of the table `fit_shown` leaves out."""
        return len(self.fit) - len(self.fit_shown)

    @property
    def fitting(self) -> list[GpuFit]:
        return [row for row in self.fit if row.fits]

    @property
    def cheapest(self) -> GpuFit | None:
        """The configuration with the lowest 7-day price whose high end fits (else the cheapest tight one)."""
        priced = [row for row in self.fit if row.week_price is not None and row.fits]
        priced = priced or [row for row in self.fit if row.week_price is not None]
        return min(priced, key=lambda row: row.week_price.cents) if priced else None  # type: ignore[union-attr]

    @property
    def cheapest_cuda(self) -> GpuFit | None:
        """When `cheapest` is not a CUDA card (an AMD card runs ROCm), the cheapest CUDA card by the same rule: most
        workflows are written for CUDA, so the answer names both instead of switching stacks without a word."""
        cheapest = self.cheapest
        if cheapest is None or cheapest.gpu.stack == Stack.CUDA:
            return None
        cuda = [row for row in self.fit if row.week_price is not None and row.gpu.stack == Stack.CUDA]
        cuda = [row for row in cuda if row.fits] or cuda
        return min(cuda, key=lambda row: row.week_price.cents) if cuda else None  # type: ignore[union-attr]

    def inputs_dict(self) -> dict[str, Any]:
        return inputs_to_dict(self.inputs)

    def fit_api(self) -> list[dict[str, Any]]:
        return [row.to_api() for row in self.fit]


def inputs_from_payload(data: Mapping[str, Any]) -> EstimateInput:
    """Engine inputs from a JSON object (`vramcalc.serialize.inputs_from_dict` format).

    Raises:
        EstimateInputInvalid: the engine rejects a field (its name is in the message and in `field`).
    """
    try:
        return inputs_from_dict(data)
    except InvalidInput as error:
        raise EstimateInputInvalid.from_engine(error) from None
    except RecursionError:
        raise EstimateInputInvalid("input", gettext("nested too deeply")) from None


def size_workload(inp: EstimateInput, gpus: Iterable[GpuModel] | None = None) -> Sizing:
    """Estimate `inp` and fit it against `gpus` (default: every GPU on sale).

    Raises:
        EstimateTooLarge: the per-card peak exceeds `MAX_PEAK_BYTES`.
        EstimateInputInvalid: the engine rejects the inputs while estimating.
    """
    try:
        result = estimate(inp)
        if result.peak_bytes > MAX_PEAK_BYTES:
            raise EstimateTooLarge()
        rows = catalog_fit(inp, result, gpu_list() if gpus is None else gpus)
    except InvalidInput as error:
        raise EstimateInputInvalid.from_engine(error) from None
    return Sizing(inputs=inp, result=result, fit=rows, usable_pct=usable_pct(inp))

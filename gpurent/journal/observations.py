"""Estimates and observations are different things, so they are different types (DESIGN §6, §7).

An `EstimatedPeak` is an assumption the estimator computed from inputs; an `ObservedPeak` is what a card
reported during a run. `PeakCheck` sets one beside the other and says how far the estimate was off. Nothing
here mixes them: a template or an export that shows a number always knows which kind it has.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from gpurent.core.formats import decimal_text
from gpurent.sizing.models import SavedEstimate

from .enums import Phase
from .models import Measurement, Run

__all__ = [
    "EstimatedPeak",
    "ObservedPeak",
    "PeakCheck",
    "estimated_peak",
    "measured_text",
    "observed_peak",
    "peak_check",
]


def measured_text(value: float | None) -> str:
    """A measured number without noise, in the active language: "1,234.5" ("1.234,5"), "0.8123", "—" when not
    measured. The run page and the comparison write every measurement with it."""
    if value is None:
        return "—"
    if abs(value) >= 1:
        return decimal_text(f"{value:.2f}")
    return decimal_text(format(Decimal(f"{value:.4g}"), "f"))


@dataclass(frozen=True, slots=True)
class EstimatedPeak:
    """The per-card peak an estimate assumed, in bytes, with what it was computed by and when."""

    bytes: int
    engine_version: str
    computed_at: datetime
    title: str
    estimate_id: str


@dataclass(frozen=True, slots=True)
class ObservedPeak:
    """The peak memory measured in one phase of a run, per GPU in bytes, and how it was read."""

    bytes_per_gpu: tuple[int, ...]
    phase: str
    source: str

    @property
    def bytes(self) -> int:
        """The highest per-GPU peak: the card that limits the configuration."""
        return max(self.bytes_per_gpu)


@dataclass(frozen=True, slots=True)
class PeakCheck:
    """An estimate set beside an observation of the same workload."""

    estimated: EstimatedPeak
    observed: ObservedPeak

    @property
    def error_bytes(self) -> int:
        """Estimate minus observation: positive when the estimate was too high (safe side)."""
        return self.estimated.bytes - self.observed.bytes

    @property
    def error_pct(self) -> float:
        """(estimate − observed) / observed × 100, the same definition as the estimator's own page."""
        return self.error_bytes * 100 / self.observed.bytes


def estimated_peak(estimate: SavedEstimate | None) -> EstimatedPeak | None:
    if estimate is None:
        return None
    return EstimatedPeak(
        bytes=estimate.peak_bytes,
        engine_version=estimate.engine_version,
        computed_at=estimate.created_at,
        title=estimate.title_text,
        estimate_id=str(estimate.public_id),
    )


def observed_peak(run: Run) -> ObservedPeak | None:
    """The run's peak to hold against an estimate: steady state when measured, else the first run."""
    by_phase: dict[str, Measurement] = {m.phase: m for m in run.measurements.all() if m.peak_bytes_per_gpu}
    for phase in (Phase.STEADY, Phase.FIRST):
        if phase in by_phase:
            m = by_phase[phase]
            return ObservedPeak(tuple(m.peak_bytes_per_gpu), phase, m.peak_source)
    return None


def peak_check(run: Run) -> PeakCheck | None:
    """The run's observed peak beside its entry's estimate, or None when either is missing."""
    estimated, observed = estimated_peak(run.entry.estimate), observed_peak(run)
    if estimated is None or observed is None:
        return None
    return PeakCheck(estimated, observed)

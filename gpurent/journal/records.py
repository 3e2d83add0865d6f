"""What a journal entry or a run is made of, as plain values: the forms and the API both build these, and
the services validate and store them. Keeping them apart from the models keeps validation in one place."""

from __future__ import annotations

from dataclasses import dataclass, field

from .enums import Checkpoint, Outcome, Reproducibility

__all__ = ["EntryDraft", "MeasurementDraft", "RunDraft"]


@dataclass(frozen=True, slots=True)
class EntryDraft:
    """An experimental question. `order_ref` is a rental reference of the owner, `estimate_id` the public id of
    one of the owner's saved estimates; both optional."""

    question: str
    hypothesis: str = ""
    metrics: str = ""
    stop_criterion: str = ""
    order_ref: str = ""
    estimate_id: str = ""


@dataclass(frozen=True, slots=True)
class MeasurementDraft:
    """What was observed in one phase. Peaks in bytes, one per GPU; throughput in `throughput_unit`."""

    peak_bytes_per_gpu: tuple[int, ...] = ()
    peak_source: str = ""
    throughput: float | None = None
    throughput_unit: str = ""
    latency_ms: float | None = None
    quality_metric: str = ""
    quality_value: float | None = None

    @property
    def is_empty(self) -> bool:
        """Nothing was observed: no measurement row is written for this phase."""
        return (
            not self.peak_bytes_per_gpu
            and self.throughput is None
            and self.latency_ms is None
            and (self.quality_value is None)
        )


@dataclass(frozen=True, slots=True)
class RunDraft:
    """One run as submitted. Key/value fields map names to strings (numbers are sent as their text)."""

    name: str
    code_version: str = ""
    environment: str = ""
    versions: dict[str, str] = field(default_factory=dict)
    parameters: dict[str, str] = field(default_factory=dict)
    seeds: dict[str, str] = field(default_factory=dict)
    determinism: dict[str, str] = field(default_factory=dict)
    reproducibility: str = Reproducibility.NOT_STATED
    tolerance: str = ""
    outcome: str = Outcome.COMPLETED
    failure: str = ""
    checkpoint: str = Checkpoint.NONE
    first: MeasurementDraft = field(default_factory=MeasurementDraft)
    steady: MeasurementDraft = field(default_factory=MeasurementDraft)
    conclusion: str = ""

"""Estimator output: per-card components and the peak, JSON-ready through ``to_dict()``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .text import Text
from .units import format_bytes

__all__ = ["Component", "Estimate", "Note", "PhaseTotal"]


@dataclass(frozen=True)
class Component:
    """One line of the per-card breakdown.

    Attributes:
        key: stable identifier (``weights``, ``kv_cache``, ``activations`` …).
        label: human label.
        bytes: bytes on one card (the busiest card when cards differ).
        formula: the formula with the numbers that produced ``bytes``.
        assumption: what the formula assumes; where it can be wrong (English; a :class:`~vramcalc.text.Text`
            where the engine built it, so ``to_dict`` also gives its key and values for translation).
        phases: phases of the step during which the memory is held (``forward_backward``,
            ``optimizer_step``, ``serving``, ``denoise``, ``vae_decode`` …).
        dynamic: allocated and freed during the step (counts toward allocator fragmentation).
        in_allocator: held by PyTorch's caching allocator (the CUDA context and NCCL buffers are not).
        low_bytes: low end of the component's range (``None``: exact, equal to ``bytes``).
        high_bytes: high end of the component's range (``None``: exact).
    """

    key: str
    label: str
    bytes: int
    formula: str
    assumption: str
    phases: tuple[str, ...]
    dynamic: bool = False
    in_allocator: bool = True
    low_bytes: int | None = None
    high_bytes: int | None = None

    @property
    def low(self) -> int:
        """Low end of the range."""
        return self.bytes if self.low_bytes is None else self.low_bytes

    @property
    def high(self) -> int:
        """High end of the range."""
        return self.bytes if self.high_bytes is None else self.high_bytes

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form."""
        return {
            "key": self.key,
            "label": self.label,
            "bytes": self.bytes,
            "human": format_bytes(self.bytes),
            "low_bytes": self.low,
            "high_bytes": self.high,
            "formula": self.formula,
            "assumption": self.assumption,
            "assumption_text": _structured(self.assumption),
            "phases": list(self.phases),
            "dynamic": self.dynamic,
            "in_allocator": self.in_allocator,
        }


def _structured(value: str) -> dict[str, Any] | None:
    """The key-and-values form of an engine text (``None`` for a plain string)."""
    return value.to_dict() if isinstance(value, Text) else None


@dataclass(frozen=True)
class PhaseTotal:
    """Bytes live on one card during a phase, allocator slack included (expected, low and high ends)."""

    phase: str
    bytes: int
    low_bytes: int = 0
    high_bytes: int = 0


@dataclass(frozen=True)
class Note:
    """A caveat of the estimate: ``key`` is stable (for translation), ``text`` is English.

    Attributes:
        low_bytes: for an effect not modelled, its likely size on one card, low end (0: only an upper bound).
        high_bytes: its likely size, high end (0: no size is stated).
        direction: +1 the measured peak may be higher by up to ``high_bytes`` (the range's high end includes it),
            -1 lower (the low end includes it), 0 it depends on a setting the inputs do not state.
    """

    key: str
    text: str
    low_bytes: int = 0
    high_bytes: int = 0
    direction: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (the likely size only where one is stated)."""
        found: dict[str, Any] = {"key": self.key, "text": self.text}
        if self.high_bytes:
            found |= {"low_bytes": self.low_bytes, "high_bytes": self.high_bytes, "direction": self.direction}
        return found


@dataclass(frozen=True)
class Estimate:
    """Per-card memory estimate.

    Attributes:
        engine_version: version of the formulas that produced it.
        workload: the workload estimated.
        cards: cards in the plan.
        components: breakdown for the busiest card (the peak phase's fragmentation included).
        phases: per-phase totals; the peak is their maximum.
        peak_bytes: the expected peak per card: what must fit (includes context and non-PyTorch buffers);
            what ``nvidia-smi`` would show.
        peak_low_bytes: low end of the peak's range (the largest phase total at the low end).
        peak_high_bytes: high end of the peak's range; the fit decision uses it.
        peak_allocated_bytes: live tensors at the peak (``torch.cuda.max_memory_allocated``): the reserved
            peak without the allocator's slack.
        peak_phase: the phase where the peak happens.
        peak_reserved_bytes: the peak inside PyTorch's allocator (``max_memory_reserved``).
        kv_bytes_per_token: KV cache per token per card (inference of KV models), else ``None``.
        vae_decode_peak_bytes: the VAE-decode phase total (diffusion), else ``None``.
        notes: caveats that apply to this estimate as a whole (English; texts with keys, see ``note_texts``).
        warnings: approximations this estimate relies on (they widen the range).
        not_modelled: what the estimate leaves out for these inputs, with the likely size where it is known.
        range_coverage_pct: the share of measured peaks the range is meant to hold (0 for an estimate made before
            ranges were calibrated).
        range_kind: the kind of workload whose band built the range (``serving``, ``training_several_cards`` …).
        range_low_pct: the band's low end, percent of the expected peak.
        range_high_pct: the band's high end, percent of the expected peak.
        range_meaning: what the range means, in words (English; a text with a key for translation).
    """

    engine_version: str
    workload: str
    cards: int
    components: tuple[Component, ...]
    phases: tuple[PhaseTotal, ...]
    peak_bytes: int
    peak_phase: str
    peak_reserved_bytes: int
    kv_bytes_per_token: int | None = None
    vae_decode_peak_bytes: int | None = None
    notes: tuple[str, ...] = ()
    peak_low_bytes: int = 0
    peak_high_bytes: int = 0
    peak_allocated_bytes: int = 0
    warnings: tuple[Note, ...] = ()
    not_modelled: tuple[Note, ...] = ()
    range_coverage_pct: int = 0
    range_kind: str = ""
    range_low_pct: int = 0
    range_high_pct: int = 0
    range_meaning: str = ""

    def component(self, key: str) -> Component | None:
        """The component with ``key``, or ``None``."""
        return next((c for c in self.components if c.key == key), None)

    def bytes_of(self, *keys: str) -> int:
        """Sum of the bytes of the components with ``keys`` (missing keys count 0)."""
        return sum(c.bytes for c in self.components if c.key in keys)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form (ints, strings, lists, dicts only)."""
        return {
            "engine_version": self.engine_version,
            "workload": self.workload,
            "cards": self.cards,
            "peak_bytes": self.peak_bytes,
            "peak_human": format_bytes(self.peak_bytes),
            "peak_phase": self.peak_phase,
            "peak_low_bytes": self.peak_low_bytes,
            "peak_high_bytes": self.peak_high_bytes,
            "peak_reserved_bytes": self.peak_reserved_bytes,
            "peak_allocated_bytes": self.peak_allocated_bytes,
            "nvidia_smi_bytes": self.peak_bytes,
            "kv_bytes_per_token": self.kv_bytes_per_token,
            "vae_decode_peak_bytes": self.vae_decode_peak_bytes,
            "phases": [
                {"phase": p.phase, "bytes": p.bytes, "low_bytes": p.low_bytes, "high_bytes": p.high_bytes}
                for p in self.phases
            ],
            "components": [c.to_dict() for c in self.components],
            "notes": list(self.notes),
            "note_texts": [_structured(n) for n in self.notes],
            "warnings": [n.to_dict() for n in self.warnings],
            "not_modelled": [n.to_dict() for n in self.not_modelled],
            "range": {
                "coverage_pct": self.range_coverage_pct,
                "kind": self.range_kind,
                "low_pct": self.range_low_pct,
                "high_pct": self.range_high_pct,
                "meaning": self.range_meaning,
                "meaning_text": _structured(self.range_meaning),
            },
        }

"""``estimate(inputs) -> Estimate``: assemble components per workload, find the peak phase."""

from __future__ import annotations

import dataclasses

from .architecture import param_counts
from .calibration import COVERAGE_PCT, band_for, bounds, limits, meaning
from .components.runtime import comm_component, context_component, fragmentation_component
from .diffusion import DECODE, diffusion_components
from .diffusion import phases_of as diffusion_phases
from .diffusion_train import diffusion_training_components
from .diffusion_train import phases_of as diffusion_training_phases
from .infer import PHASES as SERVING_PHASES
from .infer import inference_components
from .inputs import EstimateInput
from .model import ModelKind
from .options import Engine, Workload
from .result import Component, Estimate, Note, PhaseTotal
from .text import Text, text
from .train import BOTH as TRAINING_PHASES
from .train import training_components
from .uncertainty import Caveat, not_modelled, spread_for, warnings_for
from .unmodelled import unmodelled
from .version import ENGINE_VERSION

__all__ = ["estimate"]


def _ranged(component: Component, caveats: tuple[Caveat, ...]) -> Component:
    """``component`` with its low and high ends from its spread."""
    low, high = spread_for(component.key, caveats)
    size = component.bytes
    return dataclasses.replace(component, low_bytes=size + size * low // 100, high_bytes=size + size * high // 100)


def _phase_total(components: list[Component], phase: str, frag: Component) -> PhaseTotal:
    """Expected, low and high bytes live in ``phase``, its allocator slack ``frag`` included."""
    live = [c for c in components if phase in c.phases] + [frag]
    return PhaseTotal(phase, sum(c.bytes for c in live), sum(c.low for c in live), sum(c.high for c in live))


def estimate(inp: EstimateInput) -> Estimate:
    """Estimate per-card memory for ``inp``.

    Args:
        inp: validated inputs.

    Returns:
        The per-card breakdown of the busiest card and its peak over the phases of the workload.
    """
    kv_per_token: int | None = None
    notes: list[Text] = []
    phases: tuple[str, ...]
    if inp.model.kind is ModelKind.DIFFUSION and inp.workload.is_training:
        phases = diffusion_training_phases(inp)
        components = diffusion_training_components(inp)
    elif inp.workload is Workload.DIFFUSION:
        phases = diffusion_phases(inp)
        components = diffusion_components(inp)
    elif inp.workload.is_training:
        phases = TRAINING_PHASES
        components = training_components(inp)
    else:
        phases = SERVING_PHASES
        components, kv = inference_components(inp)
        if kv is not None:
            kv_per_token = kv.per_sequence // inp.context_tokens
    components.append(context_component(inp, phases))
    comm = comm_component(inp, phases)
    if comm is not None:
        components.append(comm)
    warnings = warnings_for(inp)
    components = [_ranged(c, warnings) for c in components]
    totals: list[PhaseTotal] = []
    frag_by_phase: dict[str, Component] = {}
    for phase in phases:
        dynamic = sum(c.bytes for c in components if phase in c.phases and c.dynamic)
        held = (
            sum(c.bytes for c in components if phase in c.phases and c.in_allocator) if inp.workload.is_training else 0
        )
        frag = _ranged(fragmentation_component(dynamic, phase, held), warnings)
        frag_by_phase[phase] = frag
        totals.append(_phase_total(components, phase, frag))
    peak = max(totals, key=lambda p: p.bytes)
    components.append(frag_by_phase[peak.phase])
    reserved = sum(c.bytes for c in components if peak.phase in c.phases and c.in_allocator)
    if inp.parallel.cards > 1:
        notes.append(text("note.per_card"))
    if inp.runtime.engine.is_server and not inp.workload.is_training:
        notes.append(text("note.server"))
    if inp.runtime.engine is Engine.LLAMA_CPP and not inp.workload.is_training:
        notes.append(text("note.llama_cpp"))
    decode = next((p.bytes for p in totals if p.phase == DECODE), None)
    left_out = _left_out(inp, frag_by_phase[peak.phase].bytes, _decode_excess(totals, peak))
    low, high = bounds(inp, peak.bytes, warnings, left_out)
    band = band_for(inp)
    return Estimate(
        engine_version=ENGINE_VERSION,
        workload=inp.workload.value,
        cards=inp.parallel.cards,
        components=tuple(c for c in components if c.bytes > 0 or c.key == "weights"),
        phases=tuple(totals),
        peak_bytes=peak.bytes,
        peak_phase=peak.phase,
        peak_reserved_bytes=reserved,
        kv_bytes_per_token=kv_per_token,
        vae_decode_peak_bytes=decode,
        notes=tuple(notes),
        peak_low_bytes=low,
        peak_high_bytes=high,
        peak_allocated_bytes=reserved - frag_by_phase[peak.phase].bytes,
        warnings=tuple(Note(c.key, c.text) for c in warnings),
        not_modelled=left_out,
        range_coverage_pct=COVERAGE_PCT,
        range_kind=band.key,
        range_low_pct=limits(inp, warnings)[0],
        range_high_pct=limits(inp, warnings)[1],
        range_meaning=meaning(inp, warnings),
    )


def _decode_excess(totals: list[PhaseTotal], peak: PhaseTotal) -> int:
    """How far the VAE decode's phase total exceeds every other phase's: 0 unless the decode is the peak phase. An
    effect that lowers only the decode can lower the peak by no more than this (decision 0582)."""
    if peak.phase != DECODE:
        return 0
    return peak.bytes - max((p.bytes for p in totals if p.phase != DECODE), default=0)


def _left_out(inp: EstimateInput, fragmentation: int, decode_excess: int) -> tuple[Note, ...]:
    """What the estimate leaves out: the effects with a likely size first, then the workload's general ones."""
    total = 0 if inp.model.kind is ModelKind.DIFFUSION else param_counts(inp.model).total
    found = unmodelled(inp, total, fragmentation, decode_excess)
    sized = [Note(u.key, u.text, u.low_bytes, u.high_bytes, u.direction) for u in found]
    # A server's profiling pass is where its vision encoder's activations show: named once, with its size.
    named = {n.key for n in sized} | ({"vision_encoder_activations"} if inp.runtime.engine.is_server else set())
    return (*sized, *(Note(c.key, c.text) for c in not_modelled(inp) if c.key not in named))

"""Memory outside the model: CUDA context, communication buffers, allocator fragmentation."""

from __future__ import annotations

from ..fmt import show
from ..inputs import EstimateInput
from ..options import Strategy
from ..result import Component
from ..text import text
from ..units import MIB

__all__ = [
    "FRAGMENTATION_PCT",
    "TRAINING_RESERVE_PCT",
    "comm_component",
    "context_component",
    "fragmentation_component",
]

# Caching-allocator slack on memory that is allocated and freed during the step (activations, logits,
# temporaries): reserved ~ allocated x 1.05-1.15 for steady loops (estimator.md §3). One constant,
# calibrated on the public measured cases (see bench/estimator_cases_map.json).
FRAGMENTATION_PCT = 15
# A training step's allocator also keeps reserved a share of everything it holds, not only of what the step
# churns: the blocks the gradients, the optimizer step's temporaries and the communication buckets are cut from
# are split and cached for sizes that do not come back in the same order. Fitted on the tuning parts' training
# rows compared as max_memory_reserved, which the churn's share alone left 8.5 % under at the median, and on the whole
# card (decision 0600); max_memory_allocated figures do not move.
TRAINING_RESERVE_PCT = 8


def context_component(inp: EstimateInput, phases: tuple[str, ...]) -> Component:
    """CUDA context, kernels and library handles of one process per card."""
    size = inp.runtime.cuda_context_mib * MIB
    return Component(
        key="cuda_context",
        label="CUDA context",
        bytes=size,
        formula=show(f"{inp.runtime.cuda_context_mib} MiB", size),
        assumption=text("runtime.cuda_context"),
        phases=phases,
        in_allocator=False,
    )


def comm_component(inp: EstimateInput, phases: tuple[str, ...]) -> Component | None:
    """NCCL buffers when cards communicate (not for independent inference replicas)."""
    plan = inp.parallel
    replicas = not inp.workload.is_training and plan.strategy is Strategy.DDP and plan.tensor_parallel == 1
    if plan.cards == 1 or replicas:
        return None
    size = inp.runtime.comm_buffer_mib * MIB
    return Component(
        key="comm_buffers",
        label="Communication buffers",
        bytes=size,
        formula=show(f"{inp.runtime.comm_buffer_mib} MiB per card", size),
        assumption=text("runtime.comm_buffers"),
        phases=phases,
        in_allocator=False,
    )


def fragmentation_component(dynamic_bytes: int, phase: str, held_bytes: int = 0) -> Component:
    """Allocator slack for ``dynamic_bytes`` churned during ``phase``, plus, in a training step, the share
    :data:`TRAINING_RESERVE_PCT` of ``held_bytes``, all the allocator holds in that phase (0 outside training)."""
    size = dynamic_bytes * FRAGMENTATION_PCT // 100
    expr = f"{FRAGMENTATION_PCT}% x {dynamic_bytes:,} B allocated and freed during {phase}"
    assumption = text("runtime.fragmentation")
    if held_bytes:
        size += held_bytes * TRAINING_RESERVE_PCT // 100
        expr += f" + {TRAINING_RESERVE_PCT}% x {held_bytes:,} B held by the allocator in {phase}"
        assumption = text("runtime.fragmentation_training", pct=TRAINING_RESERVE_PCT)
    return Component(
        key="fragmentation",
        label="Allocator fragmentation",
        bytes=size,
        formula=show(expr, size),
        assumption=assumption,
        phases=(phase,),
    )

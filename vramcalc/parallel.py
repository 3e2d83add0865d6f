"""How a parallelism plan divides each kind of memory per card (estimator.md §5).

Memory is per card, never pooled: DDP replicates everything; ZeRO-1 shards optimizer states (and
master weights), ZeRO-2 also gradients, ZeRO-3/FSDP full shard also parameters, none of them shards
activations; tensor parallelism splits weights, gradients, optimizer states and KV heads by ``t``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .options import ParallelPlan, Strategy
from .text import Text, joined, text

__all__ = ["ShardDivisors", "shard_divisors", "sharded"]


@dataclass(frozen=True)
class ShardDivisors:
    """Divisors applied (after tensor parallelism) to each model state; 0 means held on the CPU.

    Attributes:
        weights: parameters (ZeRO-3/FSDP: ``N``; parameter offload: 0).
        grads: gradients (ZeRO-2 and up: ``N``).
        optimizer: optimizer states, master weights and the step's temporaries (ZeRO-1 and up: ``N``).
        label: the plan in words.
    """

    weights: int
    grads: int
    optimizer: int
    label: Text


def shard_divisors(plan: ParallelPlan) -> ShardDivisors:
    """Divisors of ``plan`` (see :class:`ShardDivisors`)."""
    n = plan.data_parallel
    stage = plan.strategy.shard_stage
    weights = n if stage == 3 else 1
    grads = n if stage >= 2 else 1
    optimizer = n if stage >= 1 or plan.distributed_optimizer else 1
    if plan.offload_params:
        weights = grads = 0
    if plan.offload_optimizer or plan.offload_params:
        optimizer = 0
    label = _label(plan)
    return ShardDivisors(weights, grads, optimizer, label)


def _label(plan: ParallelPlan) -> Text:
    names: dict[Strategy, Text | str] = {
        Strategy.SINGLE: text("plan.single"),
        Strategy.DDP: text("plan.ddp"),
        Strategy.ZERO1: "ZeRO-1",
        Strategy.ZERO2: "ZeRO-2",
        Strategy.ZERO3: "ZeRO-3",
        Strategy.FSDP: text("plan.fsdp"),
        Strategy.PIPELINE: text("plan.pipeline"),
    }
    parts = [text("plan.over", strategy=names[plan.strategy], cards=plan.cards)]
    if plan.tensor_parallel > 1:
        parts.append(text("plan.tp", tp=str(plan.tensor_parallel)))
    if plan.distributed_optimizer:
        parts.append(text("plan.distributed_optimizer"))
    if plan.contiguous_grad_buffer:
        parts.append(text("plan.contiguous_grad_buffer"))
    if plan.offload_params:
        parts.append(text("plan.offload_all"))
    elif plan.offload_optimizer:
        parts.append(text("plan.offload_optimizer"))
    return joined(*parts, sep=", ") if len(parts) > 1 else parts[0]


def sharded(value: int, divisor: int) -> int:
    """``value / divisor`` rounded up, 0 when the state is offloaded (``divisor == 0``)."""
    if divisor == 0:
        return 0
    return -(-value // divisor)

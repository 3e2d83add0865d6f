"""How a parallelism plan divides each kind of memory per card (estimator.md §5).

Memory is per card, never pooled: DDP replicates everything; ZeRO-1 shards optimizer states (and
master weights), ZeRO-2 also gradients, ZeRO-3/FSDP full shard also parameters, none of them shards
activations; tensor parallelism splits weights, gradients, optimizer states and KV heads by ``t``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .options import ParallelPlan, Strategy

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
    label: str


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


def _label(plan: ParallelPlan) -> str:
    names = {
        Strategy.SINGLE: "single replica",
        Strategy.DDP: "DDP (replicated)",
        Strategy.ZERO1: "ZeRO-1",
        Strategy.ZERO2: "ZeRO-2",
        Strategy.ZERO3: "ZeRO-3",
        Strategy.FSDP: "FSDP full shard",
        Strategy.PIPELINE: "pipeline split",
    }
    label = f"{names[plan.strategy]} over {plan.cards} card(s)"
    if plan.tensor_parallel > 1:
        label += f", TP={plan.tensor_parallel}"
    if plan.distributed_optimizer:
        label += ", distributed optimizer"
    if plan.contiguous_grad_buffer:
        label += ", contiguous fp32 grad buffer"
    if plan.offload_params:
        label += ", params+optimizer offloaded"
    elif plan.offload_optimizer:
        label += ", optimizer offloaded"
    return label


def sharded(value: int, divisor: int) -> int:
    """``value / divisor`` rounded up, 0 when the state is offloaded (``divisor == 0``)."""
    if divisor == 0:
        return 0
    return -(-value // divisor)

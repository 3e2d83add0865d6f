"""Training model states: gradients, master weights, optimizer states and the optimizer-step transient.

Bytes per trainable parameter (estimator.md §4.1): AdamW 2 states in ``precision.optimizer_states``;
bitsandbytes 8-bit Adam 2 B (+ fp32 absmax per 256 values per state); SGD with momentum and Lion one
state; Adafactor factored second moments ``(rows + cols) x 4 B`` per matrix; paged optimizers live in
CUDA managed memory that is paged to the host under pressure, so they are not counted on the card.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..architecture import LinearShape, linear_shapes, param_counts
from ..dtypes import DType, bytes_for, dtype_bytes
from ..inputs import EstimateInput
from ..options import LoRATargets, OptimizerKind
from ..text import Text, text

__all__ = [
    "OptimizerBytes",
    "adapter_shapes",
    "largest_tensor",
    "master_bytes",
    "master_element_bytes",
    "optimizer_bytes",
    "step_transient_bytes",
    "trainable_params",
]

_TARGET_ROLES = {
    LoRATargets.QV: ("q", "v", "kv_b"),
    LoRATargets.ATTENTION: ("q", "k", "v", "o", "q_a", "kv_a", "kv_b"),
}


def adapter_shapes(inp: EstimateInput) -> tuple[LinearShape, ...]:
    """Linear matrices that get LoRA adapters."""
    shapes = linear_shapes(inp.model)
    targets = inp.lora.targets
    if targets is LoRATargets.ALL_LINEAR:
        return tuple(s for s in shapes if s.role != "router")
    return tuple(s for s in shapes if s.role in _TARGET_ROLES[targets])


def trainable_params(inp: EstimateInput) -> tuple[int, str]:
    """Trainable parameters and the expression: all parameters (with a trained vision encoder's, engine 0.3.21), or
    ``r·(d_in + d_out)`` per adapter."""
    if not inp.workload.is_adapter:
        total = param_counts(inp.model).total
        if inp.training.vision_encoder_trained:
            return total + inp.model.vision_encoder_params, "all parameters + vision encoder"
        return total, "all parameters"
    r = inp.lora.rank
    params = sum(r * (s.d_in + s.d_out) * s.count for s in adapter_shapes(inp))
    return params, f"LoRA r={r} on {inp.lora.targets.value}: sum r·(d_in + d_out)"


def largest_tensor(inp: EstimateInput) -> int:
    """Elements of the largest single trainable tensor (bounds per-tensor temporaries)."""
    if inp.workload.is_adapter:
        return max(inp.lora.rank * max(s.d_in, s.d_out) for s in adapter_shapes(inp))
    model = inp.model
    biggest = max(s.d_in * s.d_out for s in linear_shapes(model))
    return max(biggest, model.vocab_size * model.hidden_size)


@dataclass(frozen=True)
class OptimizerBytes:
    """Optimizer state on one card before sharding, and how it was computed."""

    bytes: int
    expression: str
    on_card: bool


def _adafactor_bytes(inp: EstimateInput, trainable: int) -> int:
    if inp.workload.is_adapter:
        shapes = [(inp.lora.rank, s.d_in, s.count) for s in adapter_shapes(inp)]
        shapes += [(inp.lora.rank, s.d_out, s.count) for s in adapter_shapes(inp)]
        return sum((r + c) * 4 * n for r, c, n in shapes)
    model = inp.model
    matrices = list(linear_shapes(model))
    if model.vocab_size:
        embeddings = param_counts(model).embedding // (model.vocab_size * model.hidden_size)
        matrices.append(LinearShape("embedding", model.vocab_size, model.hidden_size, embeddings))
    factored = sum((s.d_in + s.d_out) * 4 * s.count for s in matrices)
    in_matrices = sum(s.params for s in matrices)
    return factored + max(0, trainable - in_matrices) * 4


def optimizer_bytes(inp: EstimateInput, trainable: int) -> OptimizerBytes:
    """Optimizer state bytes for ``trainable`` parameters (whole model, unsharded)."""
    kind = inp.training.optimizer
    state = dtype_bytes(inp.precision.optimizer_states)
    if kind is OptimizerKind.ADAMW:
        return OptimizerBytes(2 * state * trainable, f"2 states (m, v) x {state} B x P", True)
    if kind is OptimizerKind.ADAMW_8BIT:
        blocks = bytes_for(trainable, 4, 256)
        return OptimizerBytes(2 * (trainable + blocks), "2 states x (1 B + fp32 absmax per 256) x P", True)
    if kind in (OptimizerKind.PAGED_ADAMW, OptimizerKind.PAGED_ADAMW_8BIT):
        per = 2 * state if kind is OptimizerKind.PAGED_ADAMW else 2
        return OptimizerBytes(0, f"paged: {per} B x P in CUDA managed memory, evicted to host", False)
    if kind in (OptimizerKind.SGD_MOMENTUM, OptimizerKind.LION):
        return OptimizerBytes(state * trainable, f"1 state x {state} B x P", True)
    if kind is OptimizerKind.ADAFACTOR:
        return OptimizerBytes(_adafactor_bytes(inp, trainable), "factored: (rows + cols) x 4 B per matrix", True)
    return OptimizerBytes(0, "plain SGD keeps no state", True)


def step_transient_bytes(inp: EstimateInput, trainable: int) -> tuple[int, Text]:
    """Temporaries of the optimizer step, before sharding.

    PyTorch's default (foreach) Adam/Lion/SGD-momentum allocates one parameter-sized temporary list
    (e.g. ``sqrt(v)``) in the state dtype; fused, 8-bit, paged and Adafactor steps work tensor by tensor
    (one fp32 temporary of the largest tensor); an optimizer fused into backward leaves none.
    """
    if inp.training.optimizer_in_backward:
        return 0, text("train.step_in_backward")
    kind = inp.training.optimizer
    foreach = kind in (OptimizerKind.ADAMW, OptimizerKind.SGD_MOMENTUM, OptimizerKind.LION)
    if foreach and not inp.training.fused_optimizer:
        state = dtype_bytes(inp.precision.optimizer_states)
        return state * trainable, text("train.step_foreach", bytes=state)
    if kind is OptimizerKind.SGD:
        return 0, text("train.step_sgd")
    return 4 * largest_tensor(inp), text("train.step_per_tensor")


def master_element_bytes(inp: EstimateInput) -> int:
    """Bytes of the master copy a trainable weight stored in 16-bit gets: 4 with ``master_weights`` (fp32), the
    weights' own 2 with ``master_weights_16bit`` (DeepSpeed's 16-bit master weights), else none."""
    if inp.precision.weights is DType.FP32:
        return 0
    if inp.precision.master_weights_16bit:
        return dtype_bytes(inp.precision.weights)
    return 4 if inp.precision.master_weights else 0


def master_bytes(inp: EstimateInput, trainable: int) -> int:
    """The master copy of ``trainable`` weights stored in 16-bit (:func:`master_element_bytes` each)."""
    return master_element_bytes(inp) * trainable

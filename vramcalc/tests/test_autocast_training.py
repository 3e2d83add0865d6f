"""Engine 0.3.32: what AMP autocast (fp32 weights, 16-bit compute) saves for backward that 16-bit training does not.

PyTorch's autocast op reference puts ``matmul`` and ``linear`` on the float16 list and ``softmax`` and ``layer_norm``
on the float32 list. An eager attention (timm's ``attn.softmax(dim=-1)`` then ``attn @ v``) therefore saves the
softmax's fp32 output and, for the matmul, its 16-bit cast; and the norms read the fp32 residual stream (decision
0585).

Engine 0.3.33 (decision 0587): the copy is in the compute dtype, every saved residual-stream element is fp32
(checkpointed inputs too), the residual stays under compile and the copy does not, and FSDP/ZeRO-3 mixed precision
runs no autocast.
"""

from __future__ import annotations

from typing import Any

from vramcalc.components.activations import (
    autocast_residual_fp32,
    layer_activation,
    op_checkpoint_activation,
    sequence_tokens,
)
from vramcalc.estimate import estimate
from vramcalc.serialize import inputs_from_dict

AMP: dict[str, Any] = {"weights": "fp32", "compute": "fp16", "optimizer_states": "fp32"}
HALF: dict[str, Any] = {"weights": "fp16", "compute": "fp16", "optimizer_states": "fp32", "master_weights": True}
H, HEADS, BATCH = 192, 3, 128


def _deit(precision: dict[str, Any], dropout: bool = False, **fields: Any) -> Any:
    model = {
        "name": "DeiT-Ti-like ViT",
        "kind": "vision",
        "num_layers": 12,
        "hidden_size": H,
        "num_attention_heads": HEADS,
        "intermediate_size": 768,
        "gated_mlp": False,
        "image_size": 224,
        "patch_size": 16,
        "param_count": 5717416,
        "dropout": dropout,
    }
    data = {
        "model": model,
        "workload": "vision_finetune",
        "precision": precision,
        "batch_size": BATCH,
        "flash_attention": False,
        **fields,
    }
    return inputs_from_dict(data)


def _scores(inp: Any) -> int:
    s = sequence_tokens(inp)
    return layer_activation(inp, s, BATCH).scores


def test_eager_softmax_under_autocast_saves_fp32_probabilities_and_their_16_bit_copy() -> None:
    """Per score element: 4 B (softmax output) + 2 B (the matmul's cast copy) under autocast; 2 B in fp16 training,
    where the matmul saves the softmax's own output. With dropout both add the 1-byte mask and the dropped copy."""
    amp, half = _deit(AMP), _deit(HALF)
    s = sequence_tokens(amp)
    assert s == 197
    elements = HEADS * s * s * BATCH
    assert _scores(amp) == elements * (4 + 2)
    assert _scores(half) == elements * 2
    assert _scores(_deit(AMP, dropout=True)) == elements * (4 + 1 + 2)
    assert _scores(_deit(HALF, dropout=True)) == elements * (2 + 1 + 2)
    assert "a·s² x 6 B scores" in layer_activation(amp, s, BATCH).expression


def test_norms_under_autocast_save_the_fp32_residual_stream() -> None:
    """Two norms per layer read the fp32 residual: 2h x (4 - 2) B more per token than fp16 training counts; not
    twice with an upcasting norm (``norm_fp32_input`` already counts its fp32 input, and under autocast its
    normalized tensor is fp32 too: 2h x (2 + 4) B for a trained norm, 0.3.33), under compile too (the two saved norm
    inputs, 0.3.33), not where every saved tensor is already 4 B (a quantized base under autocast)."""
    amp, half = _deit(AMP), _deit(HALF)
    s = sequence_tokens(amp)
    tokens = s * BATCH
    assert autocast_residual_fp32(amp)
    assert not autocast_residual_fp32(half)
    assert layer_activation(amp, s, BATCH).linear - layer_activation(half, s, BATCH).linear == tokens * 2 * 2 * H
    assert "2h x 2 B fp32 norms" in layer_activation(amp, s, BATCH).expression
    upcast = _deit(AMP, training={"norm_fp32_input": True})
    assert layer_activation(upcast, s, BATCH).linear - layer_activation(half, s, BATCH).linear == tokens * 2 * 6 * H
    assert "2h x 6 B fp32 norms" in layer_activation(upcast, s, BATCH).expression
    qlora = inputs_from_dict(
        {
            "model": "llama-3.1-8b",
            "workload": "qlora",
            "precision": {"weights": "fp32", "compute": "bf16"},
            "quantization": {"method": "bnb_nf4"},
            "batch_size": 1,
            "seq_len": 512,
        }
    )
    assert not autocast_residual_fp32(qlora)


def _llama(**fields: Any) -> Any:
    data: dict[str, Any] = {
        "model": "llama-3.1-8b",
        "workload": "lora",
        "precision": {"weights": "fp32", "compute": "bf16"},
        "batch_size": 4,
        "seq_len": 2048,
        **fields,
    }
    return inputs_from_dict(data)


def test_quantized_base_under_autocast_saves_a_16_bit_copy_of_its_scores() -> None:
    """A QLoRA with eager attention: 4 B fp32 softmax + 2 B bf16 cast for the matmul (6 B, 0.3.32 counted 8), and
    the matmul's copy of a dropped tensor is in bf16 too."""
    qlora = _llama(workload="qlora", quantization={"method": "bnb_nf4"}, flash_attention=False, batch_size=1)
    layer = layer_activation(qlora, 2048, 1)
    assert layer.scores == 32 * 2048 * 2048 * 6
    assert "a·s² x 6 B scores" in layer.expression
    vit = _deit(
        {"weights": "fp32", "compute": "bf16"}, dropout=True, workload="qlora", quantization={"method": "bnb_nf4"}
    )
    s = sequence_tokens(vit)
    assert layer_activation(vit, s, BATCH).scores == HEADS * s * s * BATCH * (4 + 1 + 2)


def test_checkpointed_autocast_layers_keep_fp32_inputs() -> None:
    """Under autocast a checkpointed layer's input (and the embedding output, and op-SAC's kept input) is the fp32
    residual stream: 4 B an element where bf16 training keeps 2."""
    amp = estimate(_llama(training={"activation_checkpointing": True}))
    bf16 = estimate(
        _llama(precision={"weights": "bf16", "compute": "bf16"}, training={"activation_checkpointing": True})
    )
    inputs = 32 * 4 * 2048 * 4096
    amp_acts = next(c for c in amp.components if c.key == "activations")
    bf16_acts = next(c for c in bf16.components if c.key == "activations")
    assert "h x 4 B" in amp_acts.formula
    assert "h x 2 B" in bf16_acts.formula
    recomputed = (
        layer_activation(_llama(), 2048, 4).total
        - layer_activation(_llama(precision={"weights": "bf16", "compute": "bf16"}), 2048, 4).total
    )
    assert amp_acts.bytes - bf16_acts.bytes == inputs * 2 + recomputed
    op = op_checkpoint_activation(_llama(training={"selective_op_checkpointing": True}), 2048, 4)
    op_bf16 = op_checkpoint_activation(
        _llama(precision={"weights": "bf16", "compute": "bf16"}, training={"selective_op_checkpointing": True}), 2048, 4
    )
    assert op.total - op_bf16.total == 4 * 2048 * 4096 * 2


def test_fsdp_mixed_precision_runs_no_autocast() -> None:
    """FSDP/ZeRO-3 with fp32 weights and 16-bit compute is a mixed-precision policy: no fp32 residual, no fp32
    softmax or 16-bit copy, as fp16 training counts."""
    fsdp = _deit(AMP, parallel={"strategy": "fsdp", "cards": 2})
    fsdp_half = _deit(HALF, parallel={"strategy": "fsdp", "cards": 2})
    s = sequence_tokens(fsdp)
    assert not autocast_residual_fp32(fsdp)
    assert layer_activation(fsdp, s, BATCH) == layer_activation(fsdp_half, s, BATCH)
    ddp = _deit(AMP, parallel={"strategy": "ddp", "cards": 2})
    assert autocast_residual_fp32(ddp)
    assert layer_activation(ddp, s, BATCH).scores == HEADS * s * s * BATCH * (4 + 2)


def test_compiled_autocast_keeps_the_fp32_residual_and_recomputes_the_copy() -> None:
    """Under compile the two saved norm inputs are still the fp32 residual (2h x 2 B more than fp16), and the
    score's 16-bit copy is recomputed by Inductor from the saved fp32 softmax output (4 B a score)."""
    compiled = _deit(AMP, training={"compiled": True})
    compiled_half = _deit(HALF, training={"compiled": True})
    s = sequence_tokens(compiled)
    tokens = s * BATCH
    layer, half = layer_activation(compiled, s, BATCH), layer_activation(compiled_half, s, BATCH)
    assert layer.linear - half.linear == tokens * 2 * 2 * H
    assert layer.scores == HEADS * s * s * BATCH * 4
    assert "2h x 2 B fp32 norms" in layer.expression
    assert "a·s² x 4 B scores" in layer.expression


def test_the_activations_formula_shows_the_autocast_terms() -> None:
    """The customer sees both terms in the activations formula of an estimate."""
    result = estimate(_deit(AMP))
    formula = next(c for c in result.components if c.key == "activations").formula
    assert "2h x 2 B fp32 norms" in formula
    assert "a·s² x 6 B scores" in formula
    qlora = estimate(_llama(workload="qlora", quantization={"method": "bnb_nf4"}, flash_attention=False, batch_size=1))
    assert "a·s² x 6 B scores" in next(c for c in qlora.components if c.key == "activations").formula

"""Engine 0.3.32: what AMP autocast (fp32 weights, 16-bit compute) saves for backward that 16-bit training does not.

PyTorch's autocast op reference puts ``matmul`` and ``linear`` on the float16 list and ``softmax`` and ``layer_norm``
on the float32 list. An eager attention (timm's ``attn.softmax(dim=-1)`` then ``attn @ v``) therefore saves the
softmax's fp32 output and, for the matmul, its 16-bit cast; and the norms read the fp32 residual stream (decision
0585).
"""

from __future__ import annotations

from typing import Any

from vramcalc.components.activations import autocast_residual_fp32, layer_activation, sequence_tokens
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
    twice with an upcasting norm (``norm_fp32_input`` already counts its fp32 input), not under compile, not where
    every saved tensor is already 4 B (a quantized base under autocast)."""
    amp, half = _deit(AMP), _deit(HALF)
    s = sequence_tokens(amp)
    tokens = s * BATCH
    assert autocast_residual_fp32(amp)
    assert not autocast_residual_fp32(half)
    assert layer_activation(amp, s, BATCH).linear - layer_activation(half, s, BATCH).linear == tokens * 2 * 2 * H
    assert "2h x 2 B fp32 norms" in layer_activation(amp, s, BATCH).expression
    upcast = _deit(AMP, training={"norm_fp32_input": True})
    assert layer_activation(upcast, s, BATCH).linear - layer_activation(half, s, BATCH).linear == tokens * 2 * 4 * H
    compiled = _deit(AMP, training={"compiled": True})
    compiled_half = _deit(HALF, training={"compiled": True})
    assert layer_activation(compiled, s, BATCH).linear == layer_activation(compiled_half, s, BATCH).linear
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

"""Bytes of quantized weights, metadata included (scales, zero points, group indices, block constants).

Sources: GPTQ/AWQ packing as stored by AutoGPTQ/AutoAWQ (reproduces TheBloke's published file sizes,
see estimator.md §1.2); bitsandbytes NF4 block-wise absmax and double quantization (QLoRA paper §3);
ggml block structs (``ggml-common.h``); MXFP4 (32-element blocks with an E8M0 scale); NVFP4 (16-element
blocks with an FP8 scale).
"""

from __future__ import annotations

from .architecture import LinearShape
from .dtypes import bytes_for
from .options import Quantization, QuantMethod
from .text import Text, text

__all__ = ["GGUF_BLOCKS", "linear_bytes", "quantized_role_bytes", "storage_note"]

# (bytes per block, weights per block) for ggml types.
GGUF_BLOCKS: dict[str, tuple[int, int]] = {
    "q4_0": (18, 32),
    "q4_1": (20, 32),
    "q5_0": (22, 32),
    "q5_1": (24, 32),
    "q8_0": (34, 32),
    "q2_k": (84, 256),
    "q3_k": (110, 256),
    "q4_k": (144, 256),
    "q5_k": (176, 256),
    "q6_k": (210, 256),
}

# "_M" mixes keep attn_v and ffn_down at a higher type on about half of the layers (llama.cpp
# ``use_more_bits``); modelled as that share of those matrices at the higher type.
_GGUF_MIX = {"q4_k_m": ("q4_k", "q6_k"), "q5_k_m": ("q5_k", "q6_k"), "q3_k_m": ("q3_k", "q4_k")}
_MIX_ROLES = ("v", "down", "expert_down")


def _gptq(shape: LinearShape, quant: Quantization, with_g_idx: bool) -> int:
    d_in, d_out, bits = shape.d_in, shape.d_out, quant.bits
    groups = 1 if quant.group_size is None else -(-d_in // quant.group_size)
    qweight = -(-d_in * bits // 32) * d_out * 4  # int32-packed
    scales = groups * d_out * 2  # fp16
    qzeros = groups * -(-d_out * bits // 32) * 4  # int32-packed
    g_idx = d_in * 4 if with_g_idx else 0  # int32 per input channel
    return qweight + scales + qzeros + g_idx


def _nf4(numel: int, double_quant: bool) -> int:
    data = bytes_for(numel, 1, 2)  # two 4-bit codes per byte
    blocks = -(-numel // 64)
    if not double_quant:
        return data + blocks * 4  # fp32 absmax per 64 weights
    return data + blocks + -(-blocks // 256) * 4  # int8 absmax + fp32 per 256 blocks


def _gguf(shape: LinearShape, gguf_type: str) -> int:
    numel = shape.d_in * shape.d_out
    if gguf_type in GGUF_BLOCKS:
        return bytes_for(numel, *GGUF_BLOCKS[gguf_type]) * shape.count
    base, high = _GGUF_MIX[gguf_type]
    if shape.role not in _MIX_ROLES:
        return bytes_for(numel, *GGUF_BLOCKS[base]) * shape.count
    high_count = shape.count // 2
    low_count = shape.count - high_count
    return bytes_for(numel, *GGUF_BLOCKS[high]) * high_count + bytes_for(numel, *GGUF_BLOCKS[base]) * low_count


def linear_bytes(shape: LinearShape, quant: Quantization, dense_bytes: int) -> int:
    """Bytes of all ``shape.count`` matrices stored with ``quant`` (``dense_bytes`` per weight if none).

    Args:
        shape: the matrices.
        quant: storage format.
        dense_bytes: bytes per weight when ``quant.method`` is ``none``.
    """
    numel = shape.d_in * shape.d_out
    method = quant.method
    if method in (QuantMethod.GPTQ, QuantMethod.AWQ):
        return _gptq(shape, quant, with_g_idx=method is QuantMethod.GPTQ) * shape.count
    if method is QuantMethod.BNB_NF4:
        return _nf4(numel, quant.double_quant) * shape.count
    if method in (QuantMethod.BNB_INT8, QuantMethod.FP8, QuantMethod.INT8_WEIGHT_ONLY):
        return (numel + shape.d_out * 4) * shape.count  # 1 B/weight + fp32 scale per output row
    if method is QuantMethod.MXFP4:
        return (bytes_for(numel, 1, 2) + bytes_for(numel, 1, 32)) * shape.count
    if method is QuantMethod.NVFP4:
        return (bytes_for(numel, 1, 2) + bytes_for(numel, 1, 16) + 4) * shape.count
    if method is QuantMethod.INT4_WEIGHT_ONLY:
        # torchao int4 weight-only, group 128: packed uint4 + bf16 scale and zero per group.
        return (bytes_for(numel, 1, 2) + bytes_for(numel, 4, 128)) * shape.count
    if method is QuantMethod.GGUF:
        return _gguf(shape, quant.gguf_type)
    return numel * dense_bytes * shape.count


def quantized_role_bytes(shapes: tuple[LinearShape, ...], quant: Quantization, dense_bytes: int) -> int:
    """Bytes of the linear layers in ``shapes`` stored with ``quant``.

    Routers are skipped (they are counted with the non-linear parameters, always dense). MXFP4
    (gpt-oss) converts only MoE experts when the model has them; other matrices stay dense.
    """
    has_experts = any(s.role.startswith("expert_") for s in shapes)
    total = 0
    for shape in shapes:
        if shape.role == "router":
            continue
        dense = quant.method is QuantMethod.MXFP4 and has_experts and not shape.role.startswith("expert_")
        total += shape.params * dense_bytes if dense else linear_bytes(shape, quant, dense_bytes)
    return total


def storage_note(quant: Quantization) -> Text:
    """One line describing the storage format and its metadata, for the component's assumption."""
    method = quant.method
    group: Text | str = str(quant.group_size) if quant.group_size else text("quant.per_column")
    if method is QuantMethod.GPTQ:
        return text("quant.gptq", bits=str(quant.bits), group=group)
    if method is QuantMethod.AWQ:
        return text("quant.awq", bits=str(quant.bits), group=group)
    if method is QuantMethod.BNB_NF4:
        return text("quant.nf4_double" if quant.double_quant else "quant.nf4")
    if method is QuantMethod.GGUF:
        return text("quant.gguf", gguf_type=quant.gguf_type)
    keys = {
        QuantMethod.BNB_INT8: "quant.bnb_int8",
        QuantMethod.FP8: "quant.fp8",
        QuantMethod.INT8_WEIGHT_ONLY: "quant.int8_weight_only",
        QuantMethod.INT4_WEIGHT_ONLY: "quant.int4_weight_only",
        QuantMethod.MXFP4: "quant.mxfp4",
        QuantMethod.NVFP4: "quant.nvfp4",
    }
    return text(keys.get(method, "quant.none"))

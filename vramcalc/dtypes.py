"""Element storage sizes, as (bytes per block, elements per block) so byte counts stay exact integers."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DType", "KVDType", "bytes_for", "dtype_bytes", "kv_storage"]


class DType(StrEnum):
    """Dense floating-point storage of weights, gradients, activations and optimizer states."""

    FP32 = "fp32"
    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"


class KVDType(StrEnum):
    """KV-cache element formats: dense (fp32/bf16/fp16/fp8) and llama.cpp block formats."""

    FP32 = "fp32"
    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"
    Q8_0 = "q8_0"
    Q4_0 = "q4_0"


_DENSE = {DType.FP32: 4, DType.BF16: 2, DType.FP16: 2, DType.FP8: 1}

# llama.cpp KV block formats: q8_0 = 32 int8 + fp16 scale = 34 B / 32; q4_0 = 16 B + fp16 scale = 18 B / 32.
_KV = {
    KVDType.FP32: (4, 1),
    KVDType.BF16: (2, 1),
    KVDType.FP16: (2, 1),
    KVDType.FP8: (1, 1),
    KVDType.Q8_0: (34, 32),
    KVDType.Q4_0: (18, 32),
}


def dtype_bytes(dtype: DType) -> int:
    """Bytes per element of a dense dtype (fp32 4, bf16/fp16 2, fp8 1)."""
    return _DENSE[dtype]


def kv_storage(dtype: KVDType) -> tuple[int, int]:
    """``(block_bytes, block_elements)`` of a KV-cache format."""
    return _KV[dtype]


def bytes_for(numel: int, block_bytes: int, block_elems: int) -> int:
    """Bytes to store ``numel`` elements in blocks of ``block_elems`` taking ``block_bytes`` each.

    A partial last block costs a full block (``ceil``), as in llama.cpp and bitsandbytes.
    """
    return -(-numel // block_elems) * block_bytes

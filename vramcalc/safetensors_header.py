"""Exact weight bytes from a ``.safetensors`` header or a ``model.safetensors.index.json``.

A safetensors file starts with an 8-byte little-endian header length and a JSON header listing every
tensor's dtype, shape and byte offsets. Only the header is read, never the tensors. Packed integer
and fp8 tensors mark a pre-quantized checkpoint: their element counts are not parameter counts
(a 4-bit GPTQ ``qweight`` packs 8 weights per int32), so such checkpoints are sized from bytes.
"""

from __future__ import annotations

import dataclasses
import json
import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from .errors import InvalidInput
from .model import ModelSpec

__all__ = [
    "MAX_HEADER_BYTES",
    "HeaderSummary",
    "apply_header",
    "read_safetensors_header",
    "summarize_header",
    "summarize_index",
]

MAX_HEADER_BYTES = 100 * 1024 * 1024

_DTYPE_BYTES = {
    "F64": 8, "I64": 8, "U64": 8,
    "F32": 4, "I32": 4, "U32": 4,
    "F16": 2, "BF16": 2, "I16": 2, "U16": 2,
    "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I8": 1, "U8": 1, "BOOL": 1,
}  # fmt: skip
_PACKED_NAMES = ("qweight", "weight_packed", "_blocks", "absmax", "quant_state")
_PACKED = ("I32", "U32", "I8", "U8", "F8_E4M3", "F8_E5M2", "F8_E8M0", "I16", "U16")


@dataclass(frozen=True)
class HeaderSummary:
    """What a checkpoint header says about its weights.

    Attributes:
        total_bytes: bytes of all tensors.
        bytes_by_dtype: bytes per safetensors dtype (``{"BF16": …}``); empty for an index file.
        tensors: number of tensors (0 for an index file).
        float_params: elements in floating-point tensors (parameters when nothing is packed).
        prequantized: packed integer or fp8 tensors are present.
    """

    total_bytes: int
    bytes_by_dtype: tuple[tuple[str, int], ...]
    tensors: int
    float_params: int
    prequantized: bool


def read_safetensors_header(source: str | Path | BinaryIO) -> dict[str, Any]:
    """Read and parse the JSON header of a safetensors file (path or binary stream).

    Raises:
        InvalidInput: truncated file, oversized or malformed header (field ``safetensors``).
    """
    if isinstance(source, str | Path):
        with open(source, "rb") as handle:
            return read_safetensors_header(handle)
    prefix = source.read(8)
    if len(prefix) != 8:
        raise InvalidInput("safetensors", "file is shorter than the 8-byte header length")
    (length,) = struct.unpack("<Q", prefix)
    if length == 0 or length > MAX_HEADER_BYTES:
        raise InvalidInput("safetensors", f"implausible header length {length}")
    raw = source.read(length)
    if len(raw) != length:
        raise InvalidInput("safetensors", "header is truncated")
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InvalidInput("safetensors", "header is not valid JSON") from None
    if not isinstance(header, dict):
        raise InvalidInput("safetensors", "header must be a JSON object")
    return header


def _tensor_bytes(name: str, entry: Any) -> tuple[str, int, int]:
    if not isinstance(entry, Mapping):
        raise InvalidInput(f"safetensors.{name}", "tensor entry must be an object")
    dtype, shape = entry.get("dtype"), entry.get("shape")
    if dtype not in _DTYPE_BYTES or not isinstance(shape, list) or not all(isinstance(d, int) for d in shape):
        raise InvalidInput(f"safetensors.{name}", "needs a known dtype and an integer shape")
    numel = math.prod(shape)
    return str(dtype), numel, numel * _DTYPE_BYTES[str(dtype)]


def summarize_header(header: Mapping[str, Any]) -> HeaderSummary:
    """Per-dtype bytes of one safetensors header (``__metadata__`` ignored)."""
    by_dtype: dict[str, int] = {}
    float_params = 0
    tensors = 0
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        dtype, numel, size = _tensor_bytes(name, entry)
        by_dtype[dtype] = by_dtype.get(dtype, 0) + size
        tensors += 1
        if dtype.startswith(("F", "BF")) and not dtype.startswith("F8"):
            float_params += numel
    prequantized = any(d in _PACKED for d in by_dtype)
    return HeaderSummary(sum(by_dtype.values()), tuple(sorted(by_dtype.items())), tensors, float_params, prequantized)


def summarize_index(index: Mapping[str, Any], bytes_per_param: int = 2) -> HeaderSummary:
    """Total bytes from a ``model.safetensors.index.json`` (``metadata.total_size``).

    The index lists no dtypes: tensor names of packed formats (``qweight``, ``weight_packed``, MXFP4
    ``_blocks``, bitsandbytes ``absmax``) mark a pre-quantized checkpoint; otherwise the parameter
    count is ``total_size / bytes_per_param``.

    Raises:
        InvalidInput: no integer ``metadata.total_size``, or a non-positive ``bytes_per_param``.
    """
    metadata = index.get("metadata")
    total = metadata.get("total_size") if isinstance(metadata, Mapping) else None
    if not isinstance(total, int) or total <= 0:
        raise InvalidInput("index.metadata.total_size", "missing or not a positive integer")
    if bytes_per_param <= 0:
        raise InvalidInput("bytes_per_param", "must be > 0")
    weight_map = index.get("weight_map")
    names = list(weight_map) if isinstance(weight_map, Mapping) else []
    packed = any(marker in name for name in names for marker in _PACKED_NAMES)
    params = 0 if packed else total // bytes_per_param
    return HeaderSummary(total, (), len(names), params, packed)


def apply_header(model: ModelSpec, summary: HeaderSummary) -> ModelSpec:
    """``model`` with the checkpoint's exact sizes.

    Unpacked float checkpoints give the exact parameter count (weights are then sized in the chosen
    dtype); packed checkpoints give exact bytes, used as the weights of a pre-quantized model.
    """
    if summary.prequantized:
        return dataclasses.replace(model, checkpoint_bytes=summary.total_bytes, checkpoint_prequantized=True)
    if summary.float_params:
        return dataclasses.replace(model, param_count=summary.float_params, checkpoint_bytes=summary.total_bytes)
    return dataclasses.replace(model, checkpoint_bytes=summary.total_bytes)

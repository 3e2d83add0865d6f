"""Safetensors headers: exact bytes per dtype, header-only reads, packed checkpoints."""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path
from typing import Any

import pytest

from vramcalc import EstimateInput, InvalidInput, estimate
from vramcalc.presets import get_preset
from vramcalc.safetensors_header import (
    apply_header,
    read_safetensors_header,
    summarize_header,
    summarize_index,
)


def _write(path: Path, header: dict[str, Any], payload: int = 64) -> Path:
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"\0" * payload)
    return path


BF16_HEADER = {
    "__metadata__": {"format": "pt"},
    "model.embed_tokens.weight": {"dtype": "BF16", "shape": [1000, 64], "data_offsets": [0, 128000]},
    "model.layers.0.mlp.up_proj.weight": {"dtype": "BF16", "shape": [256, 64], "data_offsets": [128000, 160768]},
    "model.norm.weight": {"dtype": "F32", "shape": [64], "data_offsets": [160768, 161024]},
}


def test_header_of_a_fake_file_gives_exact_bytes(tmp_path: Path) -> None:
    header = read_safetensors_header(_write(tmp_path / "model.safetensors", BF16_HEADER))
    summary = summarize_header(header)
    assert summary.total_bytes == 128000 + 32768 + 256
    assert dict(summary.bytes_by_dtype) == {"BF16": 160768, "F32": 256}
    assert summary.tensors == 3
    assert summary.float_params == 1000 * 64 + 256 * 64 + 64
    assert not summary.prequantized


def test_packed_gptq_header_is_prequantized_and_sized_from_bytes() -> None:
    header = {
        "layers.0.q.qweight": {"dtype": "I32", "shape": [512, 4096], "data_offsets": [0, 1]},
        "layers.0.q.scales": {"dtype": "F16", "shape": [32, 4096], "data_offsets": [1, 2]},
    }
    summary = summarize_header(header)
    assert summary.prequantized
    model = apply_header(get_preset("llama-2-7b"), summary)
    assert model.checkpoint_prequantized
    assert estimate(EstimateInput(model=model)).bytes_of("weights") == 512 * 4096 * 4 + 32 * 4096 * 2


def test_float_header_sets_exact_param_count() -> None:
    model = apply_header(get_preset("llama-2-7b"), summarize_header(BF16_HEADER))
    assert model.param_count == 1000 * 64 + 256 * 64 + 64
    assert model.checkpoint_bytes == 161024


def test_stream_and_index_file() -> None:
    raw = json.dumps(BF16_HEADER).encode()
    header = read_safetensors_header(io.BytesIO(struct.pack("<Q", len(raw)) + raw))
    assert "model.norm.weight" in header
    index = {"metadata": {"total_size": 16_060_522_496}, "weight_map": {"lm_head.weight": "model-00004.safetensors"}}
    summary = summarize_index(index)
    assert summary.float_params == 8_030_261_248
    model = apply_header(get_preset("llama-3.1-8b"), summary)
    assert model.param_count == 8_030_261_248
    packed = summarize_index({"metadata": {"total_size": 100}, "weight_map": {"a.qweight": "x"}})
    assert packed.prequantized
    assert apply_header(get_preset("llama-3.1-8b"), summarize_index({"metadata": {"total_size": 1}}, 2)).param_count


def test_header_with_only_metadata_keeps_bytes() -> None:
    summary = summarize_header({"__metadata__": {}, "x": {"dtype": "BOOL", "shape": [8], "data_offsets": [0, 8]}})
    assert summary.float_params == 0
    assert apply_header(get_preset("llama-2-7b"), summary).checkpoint_bytes == 8


@pytest.mark.parametrize(
    ("blob", "message"),
    [
        (b"\x01\x02", "shorter"),
        (struct.pack("<Q", 0), "implausible"),
        (struct.pack("<Q", 10) + b"{}", "truncated"),
        (struct.pack("<Q", 4) + b"\xff\xfe{}", "not valid JSON"),
        (struct.pack("<Q", 2) + b"[]", "JSON object"),
    ],
)
def test_malformed_files_are_rejected(blob: bytes, message: str) -> None:
    with pytest.raises(InvalidInput) as info:
        read_safetensors_header(io.BytesIO(blob))
    assert info.value.field == "safetensors"
    assert message in info.value.message


@pytest.mark.parametrize(
    "entry", [3, {"dtype": "F17", "shape": [1]}, {"dtype": "F16", "shape": "1"}, {"dtype": "F16", "shape": [1.5]}]
)
def test_malformed_tensor_entries(entry: Any) -> None:
    with pytest.raises(InvalidInput) as info:
        summarize_header({"w": entry})
    assert info.value.field == "safetensors.w"


def test_bad_index_files() -> None:
    with pytest.raises(InvalidInput):
        summarize_index({"metadata": {}})
    with pytest.raises(InvalidInput):
        summarize_index({"metadata": {"total_size": 10}}, bytes_per_param=0)

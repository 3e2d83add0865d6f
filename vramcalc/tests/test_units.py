from __future__ import annotations

from vramcalc.architecture import linear_shapes
from vramcalc.model import MLASpec, ModelSpec
from vramcalc.units import GIB, format_bytes, gib, to_gib


def test_unit_conversions_and_formatting() -> None:
    assert gib(1.5) == 3 * GIB // 2
    assert to_gib(GIB) == 1.0
    assert format_bytes(-2 * GIB) == "-2.00 GiB"
    assert format_bytes(1536) == "1.50 KiB"
    assert format_bytes(12) == "12 B"


def test_format_bytes_never_shows_1000_of_a_unit_below_gib() -> None:
    """1000 MiB reads "0.98 GiB": a range "1000.00 MiB - 1.46 GiB" read as two magnitudes (QA walk, 0563)."""
    assert format_bytes(999) == "999 B"
    assert format_bytes(1000) == "0.98 KiB"
    assert format_bytes(1000 * 1024**2) == "0.98 GiB"
    assert format_bytes(int(999.996 * 1024**2)) == "0.98 GiB"
    assert format_bytes(int(999.99 * 1024**2)) == "999.99 MiB"
    assert format_bytes(-1000 * 1024**2) == "-0.98 GiB"
    assert format_bytes(5 * 1024**4) == "5120.00 GiB"


def test_mla_without_query_compression_has_a_single_q_projection() -> None:
    model = ModelSpec(
        name="mla-lite",
        num_layers=2,
        hidden_size=256,
        num_attention_heads=4,
        intermediate_size=512,
        vocab_size=100,
        mla=MLASpec(kv_lora_rank=64, qk_rope_head_dim=16, qk_nope_head_dim=32, v_head_dim=32),
    )
    q = [s for s in linear_shapes(model) if s.role == "q"]
    assert q[0].d_in == 256
    assert q[0].d_out == 4 * 48

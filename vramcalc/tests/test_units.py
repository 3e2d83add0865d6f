from __future__ import annotations

from vramcalc.architecture import linear_shapes
from vramcalc.model import MLASpec, ModelSpec
from vramcalc.units import GIB, MIB, format_bytes, format_bytes_range, gib, to_gib


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


def test_a_range_writes_its_low_end_in_the_high_ends_unit() -> None:
    """The CLI's "1.00 GiB (512.00 MiB - 1.60 GiB)" reads "(0.50 GiB - 1.60 GiB)"; a low end under a tenth of the
    high end's unit keeps its own, and the units then say that the range spans more than tenfold."""
    assert format_bytes_range(512 * MIB, int(1.6 * GIB)) == ("0.50 GiB", "1.60 GiB")
    assert format_bytes_range(1000 * MIB, int(1.46 * GIB)) == ("0.98 GiB", "1.46 GiB")
    assert format_bytes_range(5 * MIB, int(1.46 * GIB)) == ("5.00 MiB", "1.46 GiB")
    assert format_bytes_range(56 * MIB, 104 * MIB) == ("56.00 MiB", "104.00 MiB")
    assert format_bytes_range(0, 12) == ("0 B", "12 B")


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

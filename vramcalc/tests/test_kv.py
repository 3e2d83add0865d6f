"""KV cache: hand-computed anchors from estimator.md §2 (cases K01-K04, K09)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from vramcalc import Engine, EstimateInput, KVDType, ParallelPlan, Precision, RuntimeOptions, Strategy, estimate
from vramcalc.components.kv import kv_cache
from vramcalc.presets import get_preset
from vramcalc.units import GIB


def _kv(preset: str, context: int, **kwargs: Any) -> int:
    inp = EstimateInput(model=get_preset(preset), seq_len=min(context, 2048), context_len=context, **kwargs)
    return kv_cache(inp).bytes


@pytest.mark.parametrize(
    ("preset", "per_token"),
    [("llama-3.1-8b", 131_072), ("llama-3.1-70b", 327_680), ("llama-3.1-405b", 516_096), ("opt-13b", 819_200)],
)
def test_kv_per_token_matches_published_formula(preset: str, per_token: int) -> None:
    assert _kv(preset, 1) == per_token


def test_kv_llama_3_1_8b_at_128k_is_15_62_gib() -> None:
    assert _kv("llama-3.1-8b", 128_000) / GIB == pytest.approx(15.625)


def test_kv_405b_does_not_reproduce_the_blog_2x_error() -> None:
    assert _kv("llama-3.1-405b", 128_000) / GIB == pytest.approx(61.52, abs=0.01)


def test_kv_mqa_octocoder_16k_is_about_0_33_gb() -> None:
    assert _kv("starcoder-15b", 16_000) == 2 * 40 * 1 * 128 * 2 * 16_000


def test_kv_mla_caches_one_latent_without_factor_two() -> None:
    assert _kv("deepseek-v3", 1) == 61 * (512 + 64) * 2


def test_kv_mla_is_replicated_under_tensor_parallel() -> None:
    tp = ParallelPlan(strategy=Strategy.SINGLE, cards=8, tensor_parallel=8)
    assert _kv("deepseek-v3", 1000, parallel=tp) == _kv("deepseek-v3", 1000)


def test_kv_heads_split_by_tp_and_replicated_beyond_kv_heads() -> None:
    base = _kv("llama-3.1-8b", 1000)
    assert _kv("llama-3.1-8b", 1000, parallel=ParallelPlan(cards=2, tensor_parallel=2)) == base // 2
    assert _kv("llama-3.1-8b", 1000, parallel=ParallelPlan(cards=8, tensor_parallel=8)) == base // 8
    mqa = _kv("starcoder-15b", 1000)
    assert _kv("starcoder-15b", 1000, parallel=ParallelPlan(cards=4, tensor_parallel=4)) == mqa


def test_kv_sliding_window_caps_tokens() -> None:
    assert _kv("mistral-7b-v0.1", 32_768) == 32 * 4096 * 4096  # 32 layers x window x 4 KiB
    gemma = _kv("gemma-2-9b", 32_768)
    per_layer_token = 2 * 8 * 256 * 2
    assert gemma == per_layer_token * (21 * 32_768 + 21 * 4096)


def test_kv_precision_fp8_halves_and_q8_0_block_overhead() -> None:
    bf16 = _kv("llama-3.1-8b", 4096)
    assert _kv("llama-3.1-8b", 4096, precision=Precision(kv_cache=KVDType.FP8)) == bf16 // 2
    q8 = _kv("llama-3.1-8b", 4096, precision=Precision(kv_cache=KVDType.Q8_0))
    assert q8 == 32 * 4096 * (2 * 8 * 128 // 32 * 34)
    assert _kv("llama-3.1-8b", 4096, precision=Precision(kv_cache=KVDType.FP32)) == 2 * bf16


def test_kv_scales_with_concurrent_sequences() -> None:
    assert _kv("llama-3.1-8b", 4096, concurrent_sequences=8) == 8 * _kv("llama-3.1-8b", 4096)


def test_kv_pipeline_split_holds_a_stage_of_layers() -> None:
    plan = ParallelPlan(strategy=Strategy.PIPELINE, cards=3)
    assert _kv("llama-3.1-8b", 1, parallel=plan) == 11 * 4096


def test_kv_encoder_decoder_adds_cross_attention() -> None:
    inp = EstimateInput(model=get_preset("t5-3b"), seq_len=512, context_len=128)
    per_layer_token = 2 * 32 * 128 * 2
    assert kv_cache(inp).bytes == 24 * per_layer_token * (128 + 512)


def test_kv_ctranslate2_beams_share_their_inputs_cross_attention() -> None:
    """Engine 0.3.25: CTranslate2 replicates the decoder state over the beam but not the projected memory, so the
    cross-attention K/V is kept once per input (``batch_size``), the self-attention K/V once per hypothesis."""
    per_layer_token = 2 * 20 * 64 * 2
    common: dict[str, Any] = {"model": get_preset("whisper-large-v3"), "seq_len": 1500, "context_len": 448}
    ct2 = EstimateInput(
        batch_size=2, concurrent_sequences=10, runtime=RuntimeOptions(engine=Engine.CTRANSLATE2), **common
    )
    kv = kv_cache(ct2)
    assert kv.bytes == 32 * per_layer_token * (448 * 10 + 1500 * 2)
    assert kv.per_sequence == 32 * per_layer_token * (448 + 1500)
    assert kv.formula.startswith("(32 layers x 448 tokens) x 2 x 20 KV heads x 64 x bf16 (5120 B per token-layer) x 10")
    assert "+ (32 cross-attention layers x 1,500 encoder tokens) x 2 x 20 KV heads x 64 x bf16 x 2 seqs" in kv.formula
    # transformers expands the encoder output to every beam: each hypothesis keeps its own
    hf = EstimateInput(batch_size=2, concurrent_sequences=10, **common)
    assert kv_cache(hf).bytes == 32 * per_layer_token * (448 + 1500) * 10
    # one hypothesis per input: the one-term formula as before
    greedy = EstimateInput(
        batch_size=2, concurrent_sequences=2, runtime=RuntimeOptions(engine=Engine.CTRANSLATE2), **common
    )
    assert kv_cache(greedy).bytes == 32 * per_layer_token * (448 + 1500) * 2
    assert "+ 32 cross-attention layers x 1,500 encoder tokens) x" in kv_cache(greedy).formula


def test_kv_encoder_has_no_cache() -> None:
    result = estimate(EstimateInput(model=get_preset("bert-base-cased"), seq_len=512))
    assert result.component("kv_cache") is None
    assert result.kv_bytes_per_token is None


def test_kv_component_assumption_names_attention_kind() -> None:
    for preset, kind in [
        ("llama-2-7b", "MHA"),
        ("llama-3.1-8b", "GQA"),
        ("starcoder-15b", "MQA"),
        ("deepseek-v3", "MLA"),
    ]:
        result = estimate(EstimateInput(model=get_preset(preset), seq_len=16))
        component = result.component("kv_cache")
        assert component is not None
        assert component.assumption.startswith(kind)
    q4 = estimate(EstimateInput(model=get_preset("llama-2-7b"), seq_len=16, precision=Precision(kv_cache=KVDType.Q4_0)))
    kv = q4.component("kv_cache")
    assert kv is not None
    assert "llama.cpp" in kv.assumption


def test_kv_per_token_reported_for_capacity() -> None:
    model = dataclasses.replace(get_preset("llama-3.1-8b"))
    result = estimate(EstimateInput(model=model, context_len=8192))
    assert result.kv_bytes_per_token == 131_072

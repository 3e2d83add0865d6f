"""Ranges: exact terms stay exact, approximate ones widen, approximations in the inputs widen further."""

from __future__ import annotations

import dataclasses

from vramcalc import Estimate, ParallelPlan, Strategy, estimate
from vramcalc.capacity import fixed_card_count
from vramcalc.serialize import inputs_from_dict
from vramcalc.uncertainty import DEFAULT_SPREAD, NO_FUSED_ATTENTION_PCT, SPREADS, spread_for, warnings_for


def _result(**fields: object) -> Estimate:
    return estimate(inputs_from_dict({"model": "llama-3.1-8b", **fields}))


def test_weights_and_kv_are_exact_and_the_peak_range_brackets_the_expected_value() -> None:
    result = _result(seq_len=4096, concurrent_sequences=4)
    weights, kv = result.component("weights"), result.component("kv_cache")
    assert weights is not None
    assert kv is not None
    assert (weights.low, weights.high) == (weights.bytes, weights.bytes)
    assert (kv.low, kv.high) == (kv.bytes, kv.bytes)
    assert result.peak_low_bytes < result.peak_bytes < result.peak_high_bytes
    assert result.peak_allocated_bytes < result.peak_reserved_bytes < result.peak_bytes
    assert result.to_dict()["nvidia_smi_bytes"] == result.peak_bytes


def test_an_approximation_in_the_inputs_widens_the_terms_it_touches() -> None:
    fused = _result(workload="full_finetune", seq_len=2048)
    eager = _result(workload="full_finetune", seq_len=2048, flash_attention=False)
    assert [w.key for w in eager.warnings] == ["no_fused_attention"]
    assert fused.warnings == ()
    act = eager.component("activations")
    assert act is not None
    _low, high = SPREADS["activations"]
    assert act.high == act.bytes + act.bytes * (high * NO_FUSED_ATTENTION_PCT // 100) // 100
    # 110 % from decision 0526; 100 % on twenty-five parts (decision 0564): named, widening nothing
    assert act.high >= act.bytes + act.bytes * high // 100
    assert spread_for("unknown-key", ()) == DEFAULT_SPREAD


def test_declared_parameter_count_and_moe_training_are_flagged() -> None:
    declared = inputs_from_dict(
        {
            "model": {
                "name": "declared",
                "kind": "encoder",
                "num_layers": 2,
                "hidden_size": 64,
                "num_attention_heads": 4,
                "intermediate_size": 256,
                "vocab_size": 100,
                "param_count": 123_456,
            }
        }
    )
    assert [w.key for w in warnings_for(declared)] == ["declared_param_count"]
    moe = inputs_from_dict({"model": "mixtral-8x7b", "workload": "lora"})
    assert "moe_routing" in [w.key for w in warnings_for(moe)]


def test_not_modelled_depends_on_the_workload() -> None:
    serving = {n.key for n in _result(runtime={"engine": "transformers"}).not_modelled}
    training = {n.key for n in _result(workload="lora").not_modelled}
    assert "cuda_graphs" in serving
    assert "framework_buffers" in training
    assert "other_processes" in serving & training


def test_quantized_kernels_buffers_are_named_under_transformers() -> None:
    gptq = {"method": "gptq", "bits": 4, "group_size": 128}
    under_transformers = {n.key for n in _result(quantization=gptq).not_modelled}
    on_a_server = {n.key for n in _result(quantization=gptq, runtime={"engine": "vllm"}).not_modelled}
    plain = {n.key for n in _result().not_modelled}
    assert "quant_kernel_buffers" in under_transformers
    assert "quant_kernel_buffers" not in on_a_server | plain


def test_fixed_card_count_for_replicas_and_one_card_recipes() -> None:
    lora = inputs_from_dict({"model": "llama-3.1-8b", "workload": "lora"})
    serving = inputs_from_dict({"model": "llama-3.1-8b"})
    assert fixed_card_count(lora)
    assert not fixed_card_count(serving)
    ddp = dataclasses.replace(serving, parallel=ParallelPlan(strategy=Strategy.DDP, cards=2))
    assert fixed_card_count(ddp)
    fsdp = dataclasses.replace(lora, parallel=ParallelPlan(strategy=Strategy.FSDP, cards=2))
    assert not fixed_card_count(fsdp)

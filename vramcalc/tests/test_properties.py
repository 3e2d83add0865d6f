"""Hypothesis properties of the estimator (the invariants the issue lists, and a few more)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from vramcalc import EstimateInput, ParallelPlan, Quantization, QuantMethod, Strategy, Workload, estimate
from vramcalc.components.kv import kv_cache
from vramcalc.components.weights import model_weight_bytes
from vramcalc.options import GGUF_MIXES, GGUF_TYPES
from vramcalc.serialize import inputs_from_dict, inputs_to_dict

from .strategies import decoder_models, inference_inputs, training_inputs

STATES = ("weights", "gradients", "master_weights", "optimizer_state")


@given(inference_inputs(), st.integers(1, 100_000))
def test_longer_context_never_shrinks_the_kv_cache(inp: EstimateInput, extra: int) -> None:
    longer = dataclasses.replace(inp, context_len=inp.context_tokens + extra)
    assert kv_cache(longer).bytes >= kv_cache(inp).bytes


@given(inference_inputs(), st.integers(1, 8))
def test_more_sequences_never_shrink_the_peak(inp: EstimateInput, extra: int) -> None:
    more = dataclasses.replace(inp, concurrent_sequences=inp.concurrent_sequences + extra)
    assert estimate(more).peak_bytes >= estimate(inp).peak_bytes


@settings(max_examples=50)
@given(training_inputs(), st.sampled_from([Strategy.ZERO1, Strategy.ZERO2, Strategy.ZERO3]), st.integers(1, 63))
def test_more_sharding_cards_never_raise_per_card_model_states(inp: EstimateInput, strategy: Strategy, n: int) -> None:
    fewer = dataclasses.replace(inp, parallel=ParallelPlan(strategy=strategy, cards=n))
    more = dataclasses.replace(inp, parallel=ParallelPlan(strategy=strategy, cards=n + 1))
    assert estimate(more).bytes_of(*STATES) <= estimate(fewer).bytes_of(*STATES)


@settings(max_examples=50)
@given(training_inputs(), st.integers(2, 64))
def test_ddp_per_card_model_states_equal_single_card(inp: EstimateInput, cards: int) -> None:
    ddp = dataclasses.replace(inp, parallel=ParallelPlan(strategy=Strategy.DDP, cards=cards))
    assert estimate(ddp).bytes_of(*STATES) == estimate(inp).bytes_of(*STATES)
    assert estimate(ddp).bytes_of("activations") == estimate(inp).bytes_of("activations")


@settings(max_examples=50)
@given(training_inputs(), st.integers(2, 64))
def test_sharding_never_divides_activations(inp: EstimateInput, cards: int) -> None:
    zero3 = dataclasses.replace(inp, parallel=ParallelPlan(strategy=Strategy.ZERO3, cards=cards))
    assert estimate(zero3).bytes_of("activations") == estimate(inp).bytes_of("activations")


_QUANTS = st.one_of(
    st.builds(Quantization, st.sampled_from([QuantMethod.GPTQ, QuantMethod.AWQ]), st.sampled_from([2, 3, 4, 8]),
              st.sampled_from([None, 32, 64, 128])),
    st.builds(Quantization, st.sampled_from([QuantMethod.BNB_NF4]), double_quant=st.booleans()),
    st.builds(Quantization, st.sampled_from([QuantMethod.BNB_INT8, QuantMethod.FP8, QuantMethod.MXFP4,
                                             QuantMethod.NVFP4, QuantMethod.INT8_WEIGHT_ONLY,
                                             QuantMethod.INT4_WEIGHT_ONLY])),
    st.builds(Quantization, st.just(QuantMethod.GGUF), gguf_type=st.sampled_from(GGUF_TYPES + GGUF_MIXES)),
)  # fmt: skip


@given(decoder_models(), _QUANTS)
def test_quantized_weights_never_exceed_bf16(model: object, quant: Quantization) -> None:
    from vramcalc.model import ModelSpec

    assert isinstance(model, ModelSpec)
    dense = model_weight_bytes(model, 2, Quantization())
    assert model_weight_bytes(model, 2, quant).total <= dense.total


@given(training_inputs(), st.integers(1, 8))
def test_larger_batch_never_shrinks_training_peak(inp: EstimateInput, extra: int) -> None:
    bigger = dataclasses.replace(inp, batch_size=inp.batch_size + extra)
    assert estimate(bigger).peak_bytes >= estimate(inp).peak_bytes


@given(inference_inputs())
def test_peak_is_the_largest_phase_and_components_are_non_negative(inp: EstimateInput) -> None:
    result = estimate(inp)
    assert result.peak_bytes == max(p.bytes for p in result.phases)
    assert all(c.bytes >= 0 for c in result.components)
    assert result.peak_reserved_bytes <= result.peak_bytes


@given(training_inputs(strategy=Strategy.FSDP, cards=4))
def test_inputs_round_trip_through_dicts(inp: EstimateInput) -> None:
    assert inputs_from_dict(inputs_to_dict(inp)) == inp


@given(training_inputs())
def test_lora_never_needs_more_than_full_finetuning(inp: EstimateInput) -> None:
    full = dataclasses.replace(inp, workload=Workload.FULL_FINETUNE)
    lora = dataclasses.replace(inp, workload=Workload.LORA)
    assert estimate(lora).bytes_of(*STATES, "adapter_weights") <= estimate(full).bytes_of(*STATES)

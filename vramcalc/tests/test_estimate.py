"""The assembled estimate: phases, peak, JSON output, validation errors naming the field."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from vramcalc import (
    DType,
    Engine,
    EstimateInput,
    InvalidInput,
    LoRAConfig,
    MLASpec,
    ModelKind,
    ModelSpec,
    MoESpec,
    ParallelPlan,
    Precision,
    Quantization,
    QuantMethod,
    RuntimeOptions,
    Strategy,
    TrainingOptions,
    Workload,
    estimate,
)
from vramcalc.components.runtime import FRAGMENTATION_PCT, TRAINING_RESERVE_PCT
from vramcalc.infer import eager_score_bytes
from vramcalc.model import DiffusionSpec
from vramcalc.presets import get_preset
from vramcalc.units import GIB, MIB
from vramcalc.version import ENGINE_VERSION


def test_inference_breakdown_has_formula_and_assumption_for_each_component() -> None:
    result = estimate(EstimateInput(model=get_preset("llama-3.1-8b"), context_len=8192, concurrent_sequences=4))
    keys = [c.key for c in result.components]
    assert keys[:2] == ["weights", "kv_cache"]
    assert {"workspace", "logits", "cuda_context", "fragmentation"} <= set(keys)
    for component in result.components:
        assert component.formula
        assert component.assumption
    assert result.engine_version == ENGINE_VERSION
    assert result.peak_bytes == sum(c.bytes for c in result.components)
    assert result.peak_reserved_bytes == result.peak_bytes - 1024 * MIB


def test_to_dict_is_json_ready() -> None:
    result = estimate(
        EstimateInput(model=get_preset("llama-3.1-8b"), parallel=ParallelPlan(cards=2, tensor_parallel=2))
    )
    payload = json.loads(json.dumps(result.to_dict()))
    assert payload["cards"] == 2
    assert payload["components"][0]["key"] == "weights"
    assert payload["notes"]
    assert result.component("nope") is None


def test_tp_weights_per_card_match_vllm_log() -> None:
    result = estimate(EstimateInput(model=get_preset("llama-3-8b"), parallel=ParallelPlan(cards=2, tensor_parallel=2)))
    assert result.bytes_of("weights") / GIB == pytest.approx(7.48, abs=0.01)
    assert result.bytes_of("comm_buffers") == 512 * MIB


def test_pipeline_split_weights_on_busiest_stage() -> None:
    plan = ParallelPlan(strategy=Strategy.PIPELINE, cards=2)
    result = estimate(
        EstimateInput(model=get_preset("gpt-neox-20b"), precision=Precision(weights=DType.FP16), parallel=plan)
    )
    whole = 20_554_567_680 * 2
    assert whole / 2 <= result.bytes_of("weights") < whole * 0.55


def test_bnb_inference_adds_dequant_workspace() -> None:
    inp = EstimateInput(model=get_preset("llama-3.1-8b"), quantization=Quantization(QuantMethod.BNB_INT8))
    assert estimate(inp).bytes_of("dequant_workspace") == 4096 * 14336 * 2


def test_eager_prefill_adds_scores() -> None:
    flash = estimate(EstimateInput(model=get_preset("llama-2-7b"), seq_len=4096))
    eager = estimate(EstimateInput(model=get_preset("llama-2-7b"), seq_len=4096, flash_attention=False))
    # 16-bit scores, the softmax's fp32 probabilities and their 16-bit copy: 2 + 4 + 2 bytes a score (decision 0535).
    assert eager.bytes_of("workspace") - flash.bytes_of("workspace") == 32 * 4096 * 4096 * 8


def test_eager_score_bytes_by_compute_dtype() -> None:
    assert eager_score_bytes(2) == 8
    # fp32 scores need no copy of the probabilities back to the compute dtype.
    assert eager_score_bytes(4) == 8
    # A softmax in the compute dtype (BART-family attention, Whisper's): scores and probabilities only.
    assert eager_score_bytes(2, softmax_in_compute_dtype=True) == 4
    assert eager_score_bytes(4, softmax_in_compute_dtype=True) == 8


def test_a_softmax_in_the_compute_dtype_halves_an_eager_prefills_scores() -> None:
    """Engine 0.3.20: transformers' Whisper attention (copied from BART's) takes ``nn.functional.softmax(attn_weights,
    dim=-1)`` in fp16, so a score holds 2 + 2 bytes, not 2 + 4 + 2 (whisper-flash-attention's eager batch-32 rows)."""
    flash = estimate(EstimateInput(model=get_preset("llama-2-7b"), seq_len=4096))
    eager = estimate(
        EstimateInput(
            model=get_preset("llama-2-7b"),
            seq_len=4096,
            flash_attention=False,
            runtime=RuntimeOptions(softmax_in_compute_dtype=True),
        )
    )
    assert eager.bytes_of("workspace") - flash.bytes_of("workspace") == 32 * 4096 * 4096 * 4
    assert "scores and softmax a·s² x 4 B" in eager.component("workspace").formula  # type: ignore[union-attr]


def test_ctranslate2_takes_its_attention_softmax_in_the_compute_dtype() -> None:
    """Engine 0.3.25: CTranslate2's ``dot_product_attention`` writes the softmax into a tensor of the values' dtype,
    so an fp16 score holds 2 + 2 bytes, as with ``runtime.softmax_in_compute_dtype``."""
    common: dict[str, Any] = {"model": get_preset("whisper-large-v3"), "seq_len": 1500, "flash_attention": False}
    ct2 = estimate(EstimateInput(runtime=RuntimeOptions(engine=Engine.CTRANSLATE2), **common))
    hf = estimate(EstimateInput(**common))
    assert "scores and softmax a·s² x 4 B" in ct2.component("workspace").formula  # type: ignore[union-attr]
    assert hf.bytes_of("workspace") - ct2.bytes_of("workspace") == 20 * 1500 * 1500 * 4  # 2 + 4 + 2 against 2 + 2


def test_the_prompts_logits_count_where_the_forward_computes_and_upcasts_them() -> None:
    """Engine 0.3.27 (decision 0573): a forward that runs the LM head over every prompt position and upcasts it
    (``logits = logits.float()``: transformers before ``num_logits_to_keep``, the Qwen2 and first Qwen2-VL classes of
    the Qwen speed benchmarks) holds 2 + 4 bytes a logit at the prefill; the layers' working set is gone by then and
    the cache has not grown to the whole context, so only what the logits exceed those by is added."""
    model = get_preset("qwen2-vl-7b")
    plain = EstimateInput(model=model, seq_len=30720, context_len=32768)
    whole = dataclasses.replace(plain, runtime=RuntimeOptions(prompt_logits=True))
    before, after = estimate(plain), estimate(whole)
    assert before.bytes_of("logits") == model.vocab_size * 4  # the last position's, in fp32
    prompt = 30720 * model.vocab_size * (2 + 4)
    at_prompt = estimate(dataclasses.replace(plain, context_len=None)).bytes_of("kv_cache")
    grown = after.bytes_of("kv_cache") - at_prompt
    assert grown == 2048 * 28 * 2 * 4 * 128 * 2  # the 2,048 new tokens' keys and values
    assert after.bytes_of("logits") == prompt - after.bytes_of("workspace") - grown
    assert after.peak_bytes - before.peak_bytes > 20 * GIB
    formula = after.component("logits").formula  # type: ignore[union-attr]
    assert "30,720 prompt tokens x 152,064 vocab x (2 B + 4 B fp32 upcast)" in formula
    assert after.component("logits").assumption != before.component("logits").assumption  # type: ignore[union-attr]
    # A prefill alone: the cache does not grow after it.
    prefill = estimate(dataclasses.replace(whole, context_len=None))
    assert prefill.bytes_of("logits") == prompt - prefill.bytes_of("workspace")
    assert "cache grown" not in prefill.component("logits").formula  # type: ignore[union-attr]
    # fp32: the upcast is a no-op, 4 bytes a logit.
    fp32 = estimate(dataclasses.replace(whole, precision=Precision(weights=DType.FP32, compute=DType.FP32)))
    assert "(4 B)" in fp32.component("logits").formula  # type: ignore[union-attr]
    # Servers compute the last position's only; the switch is transformers'.
    served = estimate(dataclasses.replace(whole, runtime=RuntimeOptions(engine=Engine.VLLM, prompt_logits=True)))
    assert served.bytes_of("logits") == model.vocab_size * 4
    # A short prompt under a tuple cache: the decoding (two caches) stays the larger, the logits add nothing.
    short = EstimateInput(
        model=get_preset("llama-2-7b"),
        batch_size=16,
        seq_len=128,
        context_len=384,
        concurrent_sequences=16,
        runtime=RuntimeOptions(tuple_kv_cache=True, prompt_logits=True),
    )
    assert estimate(short).bytes_of("logits") == 16 * 32000 * 4
    assert (
        estimate(short).peak_bytes
        == estimate(dataclasses.replace(short, runtime=RuntimeOptions(tuple_kv_cache=True))).peak_bytes
    )


def test_moe_inference_working_set_uses_active_experts() -> None:
    result = estimate(EstimateInput(model=get_preset("mixtral-8x7b"), seq_len=1024))
    assert result.bytes_of("workspace") == 1024 * (2 * 4096 + 3 * 14336 * 2) * 2


def test_prequantized_checkpoint_uses_header_bytes() -> None:
    model = dataclasses.replace(get_preset("llama-2-7b"), checkpoint_bytes=3_894_000_000, checkpoint_prequantized=True)
    assert estimate(EstimateInput(model=model)).bytes_of("weights") == 3_894_000_000


def _bad(**kwargs: Any) -> InvalidInput:
    defaults: dict[str, Any] = {"model": get_preset("llama-3.1-8b")}
    defaults.update(kwargs)
    with pytest.raises(InvalidInput) as info:
        EstimateInput(**defaults)
    return info.value


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"batch_size": 0}, "batch_size"),
        ({"context_len": 0}, "context_len"),
        ({"image_height": 4}, "image_height"),
        ({"workload": Workload.DIFFUSION}, "workload"),
        ({"workload": Workload.VISION_FINETUNE}, "workload"),
        ({"workload": Workload.FULL_FINETUNE, "quantization": Quantization(QuantMethod.GPTQ)}, "quantization.method"),
        ({"workload": Workload.QLORA}, "quantization.method"),
        ({"parallel": ParallelPlan(Strategy.ZERO3, cards=4)}, "parallel.strategy"),
        ({"workload": Workload.LORA, "parallel": ParallelPlan(Strategy.PIPELINE, cards=2)}, "parallel.strategy"),
        ({"parallel": ParallelPlan(cards=3, tensor_parallel=3)}, "parallel.tensor_parallel"),
        ({"parallel": ParallelPlan(Strategy.PIPELINE, cards=64)}, "parallel.cards"),
        (
            {
                "workload": Workload.FULL_FINETUNE,
                "training": TrainingOptions(optimizer_in_backward=True),
                "parallel": ParallelPlan(Strategy.FSDP, cards=2),
            },
            "training.optimizer_in_backward",
        ),
    ],
)
def test_invalid_combinations_name_the_field(kwargs: dict[str, Any], field: str) -> None:
    assert _bad(**kwargs).field == field


def test_invalid_kv_head_split_and_prequantized_with_quant() -> None:
    model = dataclasses.replace(get_preset("phi-4"))  # 40 heads, 10 KV heads
    assert _bad(model=model, parallel=ParallelPlan(cards=4, tensor_parallel=4)).field == "parallel.tensor_parallel"
    packed = dataclasses.replace(get_preset("llama-2-7b"), checkpoint_bytes=1, checkpoint_prequantized=True)
    assert _bad(model=packed, quantization=Quantization(QuantMethod.GPTQ)).field == "quantization.method"


def test_diffusion_rejects_tensor_parallel() -> None:
    inp: dict[str, Any] = {"model": get_preset("sd-1.5"), "workload": Workload.DIFFUSION}
    assert _bad(**inp, parallel=ParallelPlan(cards=2, tensor_parallel=2)).field == "parallel.strategy"


def test_vision_image_smaller_than_patch_is_rejected() -> None:
    model = get_preset("vit-base-patch16-224")
    for name in ("image_height", "image_width"):
        assert _bad(model=model, workload=Workload.VISION_FINETUNE, **{name: 8}).field == name


@pytest.mark.parametrize(
    ("factory", "field"),
    [
        (lambda: ModelSpec(name=" "), "model.name"),
        (lambda: ModelSpec(name="x", num_layers=0), "model.num_layers"),
        (
            lambda: ModelSpec(name="x", num_layers=1, hidden_size=64, num_attention_heads=4, intermediate_size=8),
            "model.vocab_size",
        ),
        (lambda: _model(num_kv_heads=3), "model.num_kv_heads"),
        (lambda: _model(hidden_size=66), "model.head_dim"),
        (lambda: _model(head_dim=0), "model.head_dim"),
        (lambda: _model(sliding_window=0), "model.sliding_window"),
        (lambda: _model(sliding_window_layers=1), "model.sliding_window_layers"),
        (lambda: _model(sliding_window=8, sliding_window_layers=9), "model.sliding_window_layers"),
        (lambda: _model(kind=ModelKind.ENCODER_DECODER), "model.num_decoder_layers"),
        (lambda: _model(kind=ModelKind.VISION, vocab_size=0), "model.image_size"),
        (lambda: _model(moe=MoESpec(4, 2, 16, dense_layers=3)), "model.moe.dense_layers"),
        (lambda: _model(param_count=0), "model.param_count"),
        (lambda: _model(checkpoint_bytes=0), "model.checkpoint_bytes"),
        (lambda: _model(checkpoint_prequantized=True), "model.checkpoint_prequantized"),
        (lambda: ModelSpec(name="d", kind=ModelKind.DIFFUSION), "model.diffusion"),
        (lambda: MoESpec(0, 1, 1), "model.moe.num_experts"),
        (lambda: MoESpec(2, 3, 1), "model.moe.experts_per_token"),
        (lambda: MLASpec(0, 1, 1, 1), "model.mla.kv_lora_rank"),
        (lambda: DiffusionSpec(1, "gan", 1, 1, 1), "model.diffusion.denoiser_kind"),
        (
            lambda: DiffusionSpec(1, "dit", 1, 1, 1, denoiser_linear_fraction_pct=101),
            "model.diffusion.denoiser_linear_fraction_pct",
        ),
        (lambda: DiffusionSpec(1, "dit", 1, 1, 1, text_encoder_params=(0,)), "model.diffusion.text_encoder_params[0]"),
        (lambda: DiffusionSpec(0, "dit", 1, 1, 1), "model.diffusion.denoiser_params"),
        (lambda: Quantization(QuantMethod.GPTQ, bits=5), "quantization.bits"),
        (lambda: Quantization(group_size=0), "quantization.group_size"),
        (lambda: Quantization(QuantMethod.GGUF, gguf_type="q9"), "quantization.gguf_type"),
        (lambda: Precision(weights=DType.FP8), "precision.weights"),
        (lambda: Precision(compute=DType.FP8), "precision.compute"),
        (lambda: Precision(optimizer_states=DType.FP8), "precision.optimizer_states"),
        (lambda: LoRAConfig(rank=0), "lora.rank"),
        (lambda: ParallelPlan(cards=0), "parallel.cards"),
        (lambda: ParallelPlan(cards=2), "parallel.cards"),
        (lambda: ParallelPlan(Strategy.PIPELINE, cards=4, tensor_parallel=2), "parallel.tensor_parallel"),
        (lambda: ParallelPlan(Strategy.DDP, cards=2, offload_optimizer=True), "parallel.offload_optimizer"),
        (lambda: ParallelPlan(Strategy.ZERO2, cards=2, offload_params=True), "parallel.offload_params"),
        (lambda: RuntimeOptions(cuda_context_mib=-1), "runtime.cuda_context_mib"),
        (lambda: RuntimeOptions(comm_buffer_mib=-1), "runtime.comm_buffer_mib"),
        (lambda: RuntimeOptions(gpu_memory_utilization_pct=0), "runtime.gpu_memory_utilization_pct"),
    ],
)
def test_option_validation_names_the_field(factory: Any, field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        factory()
    assert info.value.field == field
    assert field in str(info.value)


def _model(**kwargs: Any) -> ModelSpec:
    defaults: dict[str, Any] = {
        "name": "m",
        "num_layers": 2,
        "hidden_size": 64,
        "num_attention_heads": 4,
        "intermediate_size": 128,
        "vocab_size": 100,
    }
    defaults.update(kwargs)
    return ModelSpec(**defaults)


def test_model_properties() -> None:
    model = _model(kind=ModelKind.ENCODER_DECODER, num_decoder_layers=3)
    assert model.total_layers == 5
    assert model.has_kv_cache
    assert model.has_vocab_logits
    assert _model(kind=ModelKind.ENCODER).has_vocab_logits is False


def test_vllm_engine_and_runtime_context_are_configurable() -> None:
    runtime = RuntimeOptions(engine=Engine.VLLM, cuda_context_mib=500)
    result = estimate(EstimateInput(model=get_preset("llama-3.1-8b"), runtime=runtime))
    assert result.bytes_of("cuda_context") == 500 * MIB


def test_engine_notes_and_replica_inference_has_no_comm_buffers() -> None:
    replicas = EstimateInput(model=get_preset("llama-3.1-8b"), parallel=ParallelPlan(Strategy.DDP, cards=4))
    assert estimate(replicas).bytes_of("comm_buffers") == 0
    vllm = estimate(EstimateInput(model=get_preset("llama-3.1-8b"), runtime=RuntimeOptions(engine=Engine.VLLM)))
    assert any("vLLM" in note for note in vllm.notes)
    cpp = estimate(EstimateInput(model=get_preset("llama-3.1-8b"), runtime=RuntimeOptions(engine=Engine.LLAMA_CPP)))
    assert any("llama.cpp" in note for note in cpp.notes)


def test_vision_inference_prefill_uses_patches() -> None:
    model = get_preset("vit-huge-patch14-224")
    small = estimate(EstimateInput(model=model, image_height=224, image_width=224)).bytes_of("workspace")
    big = estimate(EstimateInput(model=model, image_height=448, image_width=448)).bytes_of("workspace")
    assert small == (16 * 16 + 1) * (2 * 1280 + 2 * 5120) * 2
    assert big > 3.9 * small


def test_a_training_step_keeps_a_share_of_what_the_allocator_holds_reserved() -> None:
    """Engine 0.3.38 (decision 0600): in training the allocator's slack is 15 % of what the step churns plus 8 % of
    everything it holds in that phase, so max_memory_reserved rises and max_memory_allocated does not; serving keeps
    the churn's share alone."""
    inp = EstimateInput(
        model=get_preset("llama-3.1-8b"),
        workload=Workload.FULL_FINETUNE,
        seq_len=4096,
        training=TrainingOptions(activation_checkpointing=True),
    )
    result = estimate(inp)
    frag = result.component("fragmentation")
    assert frag is not None
    live = [c for c in result.components if result.peak_phase in c.phases and c.key != "fragmentation"]
    churn = sum(c.bytes for c in live if c.dynamic) * FRAGMENTATION_PCT // 100
    held = sum(c.bytes for c in live if c.in_allocator)
    assert frag.bytes == churn + held * TRAINING_RESERVE_PCT // 100
    assert result.peak_reserved_bytes - result.peak_allocated_bytes == frag.bytes
    assert result.peak_allocated_bytes == held
    assert f"+ {TRAINING_RESERVE_PCT}% x {held:,} B held by the allocator in {result.peak_phase}" in frag.formula
    serving = estimate(EstimateInput(model=get_preset("llama-3.1-8b"), context_len=8192))
    served = serving.component("fragmentation")
    assert served is not None
    assert "held by the allocator" not in served.formula
    dynamic = sum(c.bytes for c in serving.components if serving.peak_phase in c.phases and c.dynamic)
    assert served.bytes == dynamic * FRAGMENTATION_PCT // 100

"""Training model states, activations and sharding (estimator.md §4-5; cases Z01, Z06)."""

from __future__ import annotations

from typing import Any

import pytest

from vramcalc import (
    DType,
    EstimateInput,
    LoRAConfig,
    LoRATargets,
    ModelSpec,
    OptimizerKind,
    ParallelPlan,
    Precision,
    Quantization,
    QuantMethod,
    Strategy,
    TrainingOptions,
    Workload,
    estimate,
)
from vramcalc.components.activations import layer_activation
from vramcalc.components.training import trainable_params
from vramcalc.errors import InvalidInput
from vramcalc.presets import get_preset
from vramcalc.units import KIB

MIXED = Precision(weights=DType.FP16, compute=DType.FP16, master_weights=True)
STATES = ("weights", "gradients", "master_weights", "optimizer_state")


def _zero_model() -> ModelSpec:
    """A 7.5B-parameter GPT-like model (ZeRO paper example)."""
    return ModelSpec(
        name="zero-7.5b",
        num_layers=32,
        hidden_size=4096,
        num_attention_heads=32,
        intermediate_size=16384,
        vocab_size=50000,
        gated_mlp=False,
        param_count=7_500_000_000,
    )


def _states(strategy: Strategy, cards: int, model: ModelSpec | None = None, **kwargs: Any) -> int:
    inp = EstimateInput(
        model=model or _zero_model(),
        workload=Workload.FULL_FINETUNE,
        precision=MIXED,
        seq_len=16,
        parallel=ParallelPlan(strategy=strategy, cards=cards, **kwargs),
    )
    return estimate(inp).bytes_of(*STATES)


@pytest.mark.parametrize(
    ("strategy", "gb"),
    [(Strategy.DDP, 120.0), (Strategy.ZERO1, 31.4), (Strategy.ZERO2, 16.6), (Strategy.ZERO3, 1.875)],
)
def test_model_states_reproduce_zero_paper_at_64_gpus(strategy: Strategy, gb: float) -> None:
    assert _states(strategy, 64) / 1e9 == pytest.approx(gb, rel=0.01)


def test_fsdp_equals_zero3_and_ddp_equals_single() -> None:
    assert _states(Strategy.FSDP, 8) == _states(Strategy.ZERO3, 8)
    assert _states(Strategy.DDP, 8) == _states(Strategy.SINGLE, 1)


def test_offload_moves_states_off_the_card() -> None:
    opt_off = _states(Strategy.ZERO2, 8, offload_optimizer=True)
    assert opt_off == 7_500_000_000 * 2 + -(-7_500_000_000 * 2 // 8)
    assert _states(Strategy.ZERO3, 8, offload_params=True) == 0


def test_tensor_parallel_splits_model_states() -> None:
    model = get_preset("llama-3.1-8b")
    single = _states(Strategy.SINGLE, 1, model)
    tp = _states(Strategy.SINGLE, 4, model, tensor_parallel=4)
    assert single / 4 <= tp < single / 4 * 1.01


def test_korthikanti_gpt3_layer_activation_is_2_869_gb() -> None:
    gpt3 = ModelSpec(
        name="gpt-3",
        num_layers=96,
        hidden_size=12288,
        num_attention_heads=96,
        intermediate_size=4 * 12288,
        vocab_size=50257,
        gated_mlp=False,
        dropout=True,
    )
    inp = EstimateInput(
        model=gpt3, workload=Workload.FULL_FINETUNE, precision=MIXED, seq_len=2048, flash_attention=False
    )
    layer = layer_activation(inp, 2048, 1)
    assert layer.total == 2048 * 12288 * (34 + 80)
    assert layer.linear == 34 * 2048 * 12288


def test_llama_3_1_8b_layer_activation_is_about_164_kib_per_token() -> None:
    inp = EstimateInput(model=get_preset("llama-3.1-8b"), workload=Workload.FULL_FINETUNE, seq_len=2048)
    layer = layer_activation(inp, 2048, 2)
    per_token = layer.linear / 4096
    assert per_token == 12 * 4096 + 4 * 8 * 128 + 8 * 14336
    assert per_token / KIB == pytest.approx(164, abs=1)


def _train(**kwargs: Any) -> EstimateInput:
    defaults: dict[str, Any] = {"model": get_preset("llama-3.1-8b"), "workload": Workload.FULL_FINETUNE}
    defaults.update(kwargs)
    return EstimateInput(**defaults)


def test_checkpointing_keeps_layer_inputs_and_one_layer() -> None:
    full = estimate(_train(batch_size=2, seq_len=2048)).bytes_of("activations")
    ckpt = estimate(
        _train(batch_size=2, seq_len=2048, training=TrainingOptions(activation_checkpointing=True))
    ).bytes_of("activations")
    assert ckpt == 32 * 4096 * 4096 * 2 + full // 32 - 4096 * 4096 * 2 // 32 or ckpt < full / 5


def test_flash_off_adds_score_matrices() -> None:
    on = estimate(_train(seq_len=1024)).bytes_of("activations")
    off = estimate(_train(seq_len=1024, flash_attention=False)).bytes_of("activations")
    assert off - on > 32 * 32 * 1024 * 1024 * 2 * 0.9


def test_logits_spike_and_chunked_loss() -> None:
    plain = estimate(_train(batch_size=2, seq_len=2048)).bytes_of("logits")
    assert plain == 4096 * 128256 * 10
    chunked = estimate(_train(batch_size=2, seq_len=2048, training=TrainingOptions(chunked_loss=True)))
    assert chunked.bytes_of("logits") == 4096 * 128256 * 5
    fp32 = estimate(_train(precision=Precision(weights=DType.FP32, compute=DType.FP32), seq_len=1))
    assert fp32.bytes_of("logits") == 128256 * 8


@pytest.mark.parametrize(
    ("optimizer", "bytes_per_param"),
    [
        (OptimizerKind.ADAMW, 8),
        (OptimizerKind.SGD_MOMENTUM, 4),
        (OptimizerKind.LION, 4),
        (OptimizerKind.SGD, 0),
        (OptimizerKind.PAGED_ADAMW, 0),
        (OptimizerKind.PAGED_ADAMW_8BIT, 0),
    ],
)
def test_optimizer_state_bytes_per_parameter(optimizer: OptimizerKind, bytes_per_param: int) -> None:
    result = estimate(_train(training=TrainingOptions(optimizer=optimizer), seq_len=8))
    assert result.bytes_of("optimizer_state") == bytes_per_param * 8_030_261_248


def test_adam_8bit_and_adafactor_are_small() -> None:
    p = 8_030_261_248
    eight = estimate(_train(training=TrainingOptions(optimizer=OptimizerKind.ADAMW_8BIT), seq_len=8))
    assert eight.bytes_of("optimizer_state") == 2 * (p + -(-p // 256) * 4)
    ada = estimate(_train(training=TrainingOptions(optimizer=OptimizerKind.ADAFACTOR), seq_len=8))
    assert 0 < ada.bytes_of("optimizer_state") < p * 4 * 0.1


def test_pure_bf16_states_and_master_weights() -> None:
    p = 8_030_261_248
    bf16 = estimate(_train(precision=Precision(optimizer_states=DType.BF16), seq_len=8))
    assert bf16.bytes_of("weights", "gradients", "optimizer_state", "master_weights") == 8 * p
    mixed = estimate(_train(precision=Precision(master_weights=True), seq_len=8))
    assert mixed.bytes_of("weights", "gradients", "optimizer_state", "master_weights") == 16 * p
    fp32 = estimate(_train(precision=Precision(weights=DType.FP32, compute=DType.FP32, master_weights=True), seq_len=8))
    assert fp32.bytes_of("master_weights") == 0


def test_deepspeeds_16_bit_master_weights_are_2_bytes_a_trainable_parameter() -> None:
    """Engine 0.3.17: DeepSpeed's bf16_master_weights_and_grads keeps ZeRO's master partition in bf16, beside the
    bf16 parameters (DeepSpeedExamples' bf16_master_weight README: master weights 2N bytes, 10N in all with bf16
    Adam states), with or without master_weights; fp32 weights still need no copy."""
    p = 8_030_261_248
    low = estimate(_train(precision=Precision(optimizer_states=DType.BF16, master_weights_16bit=True), seq_len=8))
    assert low.bytes_of("weights", "gradients", "optimizer_state", "master_weights") == 10 * p
    master = low.component("master_weights")
    assert master is not None
    assert master.label == "Master weights (16-bit)"
    assert master.formula.startswith("2 B x 8,030,261,248")
    both = Precision(master_weights=True, master_weights_16bit=True)
    assert estimate(_train(precision=both, seq_len=8)).bytes_of("master_weights") == 2 * p
    fp32 = Precision(weights=DType.FP32, compute=DType.FP32, master_weights_16bit=True)
    assert estimate(_train(precision=fp32, seq_len=8)).bytes_of("master_weights") == 0


def test_amp_autocast_copies_give_hf_18_bytes_accounting() -> None:
    amp = estimate(_train(precision=Precision(weights=DType.FP32, compute=DType.FP16), seq_len=8))
    linear = 32 * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336)
    assert amp.bytes_of("autocast_copies") == 2 * linear
    assert amp.bytes_of("weights", "gradients", "optimizer_state") == 16 * 8_030_261_248


def test_a_quantized_base_has_no_autocast_copies() -> None:
    """bitsandbytes' 4-bit linears dequantize their own weight and keep only the quantized one for backward: autocast
    casts none of them, even when the unquantized modules are fp32 (peft's prepare_model_for_kbit_training;
    decision 0524)."""
    qlora = estimate(
        _train(
            workload=Workload.QLORA,
            precision=Precision(weights=DType.FP32, compute=DType.FP16),
            quantization=Quantization(QuantMethod.BNB_NF4),
            seq_len=8,
        )
    )
    assert qlora.bytes_of("autocast_copies") == 0
    assert qlora.bytes_of("dequant_workspace") > 0


def test_step_transients_by_optimizer_kind() -> None:
    p = 8_030_261_248
    foreach = estimate(_train(seq_len=8))
    assert foreach.bytes_of("optimizer_step") == 4 * p
    fused = estimate(_train(seq_len=8, training=TrainingOptions(fused_optimizer=True)))
    assert fused.bytes_of("optimizer_step") == 4 * 128256 * 4096
    in_bwd = estimate(_train(seq_len=8, training=TrainingOptions(optimizer_in_backward=True)))
    assert in_bwd.bytes_of("optimizer_step") == 0
    assert in_bwd.bytes_of("gradients") == 128256 * 4096 * 2
    sgd = estimate(_train(seq_len=8, training=TrainingOptions(optimizer=OptimizerKind.SGD)))
    assert sgd.bytes_of("optimizer_step") == 0


def test_lora_trainable_params_llama_2_7b_qv_r8() -> None:
    inp = _train(model=get_preset("llama-2-7b"), workload=Workload.LORA, lora=LoRAConfig(8, LoRATargets.QV))
    assert trainable_params(inp)[0] == 4_194_304


def test_a_trained_vision_encoder_carries_gradients_and_optimizer_states() -> None:
    """Engine 0.3.21: nanoVLM's ``AdamW(model.parameters())`` trains the vision tower and projector with the language
    model, so their fp32 gradients, AdamW states and step temporaries are counted too."""
    llava = get_preset("llava-1.5-7b")
    frozen = _train(model=llava, images_per_sequence=1)
    trained = _train(model=llava, images_per_sequence=1, training=TrainingOptions(vision_encoder_trained=True))
    assert trainable_params(trained)[0] == trainable_params(frozen)[0] + llava.vision_encoder_params
    assert trainable_params(trained)[1] == "all parameters + vision encoder"
    before, after = estimate(frozen), estimate(trained)
    assert after.bytes_of("optimizer_state") - before.bytes_of("optimizer_state") == 8 * llava.vision_encoder_params
    assert after.bytes_of("gradients") - before.bytes_of("gradients") == 2 * llava.vision_encoder_params
    # Under autocast over fp32 weights its linears' 16-bit casts are cached like the language model's.
    fp32 = Precision(weights=DType.FP32, compute=DType.BF16)
    frozen32 = _train(model=llava, images_per_sequence=1, precision=fp32)
    trained32 = _train(
        model=llava, images_per_sequence=1, precision=fp32, training=TrainingOptions(vision_encoder_trained=True)
    )
    added = estimate(trained32).bytes_of("autocast_copies") - estimate(frozen32).bytes_of("autocast_copies")
    assert added == 2 * llava.vision_encoder_params


@pytest.mark.parametrize("workload", [Workload.LORA, Workload.FULL_FINETUNE])
def test_a_trained_vision_encoder_needs_a_full_fine_tune_of_a_vlm(workload: Workload) -> None:
    model = get_preset("llava-1.5-7b") if workload is Workload.LORA else get_preset("llama-3.1-8b")
    with pytest.raises(InvalidInput) as err:
        _train(model=model, workload=workload, training=TrainingOptions(vision_encoder_trained=True))
    assert err.value.field == "training.vision_encoder_trained"


def test_lora_targets_attention_and_all_linear() -> None:
    attention = _train(workload=Workload.LORA, lora=LoRAConfig(16, LoRATargets.ATTENTION))
    assert trainable_params(attention)[0] == 32 * 16 * (2 * 8192 + 2 * (4096 + 1024))
    everything = _train(workload=Workload.LORA, lora=LoRAConfig(8, LoRATargets.ALL_LINEAR))
    assert trainable_params(everything)[0] == 20_971_520


def test_lora_keeps_activations_and_adds_dropout_copies() -> None:
    full = estimate(_train(seq_len=512)).bytes_of("activations")
    lora = estimate(_train(seq_len=512, workload=Workload.LORA)).bytes_of("activations")
    assert lora == full
    dropped = estimate(_train(seq_len=512, workload=Workload.LORA, lora=LoRAConfig(dropout=True)))
    assert dropped.bytes_of("activations") > full
    for targets in LoRATargets:
        inp = _train(seq_len=512, workload=Workload.LORA, lora=LoRAConfig(dropout=True, targets=targets))
        assert estimate(inp).bytes_of("activations") > full


def test_qlora_frozen_nf4_base_with_dequant_workspace() -> None:
    inp = _train(workload=Workload.QLORA, quantization=Quantization(QuantMethod.BNB_NF4), seq_len=512)
    result = estimate(inp)
    lora = estimate(_train(workload=Workload.LORA, seq_len=512))
    assert result.bytes_of("weights") < lora.bytes_of("weights") / 2.5
    assert result.bytes_of("dequant_workspace") == 4096 * 14336 * 2
    component = result.component("weights")
    assert component is not None
    assert component.label == "Weights (frozen base)"


def test_zero3_adds_gathered_working_set_and_ddp_adds_buckets() -> None:
    zero3 = estimate(_train(seq_len=8, parallel=ParallelPlan(Strategy.ZERO3, cards=8)))
    assert zero3.bytes_of("gathered_params") == 2 * 128256 * 4096 * 2
    ddp = estimate(_train(seq_len=8, parallel=ParallelPlan(Strategy.DDP, cards=8)))
    assert ddp.bytes_of("ddp_buckets") == ddp.bytes_of("gradients")
    view = estimate(_train(seq_len=8, parallel=ParallelPlan(Strategy.DDP, cards=8, grad_bucket_view=True)))
    assert view.bytes_of("ddp_buckets") == 0


def test_adapter_adafactor_and_largest_tensor() -> None:
    inp = _train(
        workload=Workload.LORA,
        seq_len=8,
        training=TrainingOptions(optimizer=OptimizerKind.ADAFACTOR, optimizer_in_backward=True),
    )
    result = estimate(inp)
    assert result.bytes_of("optimizer_state") > 0
    assert result.bytes_of("gradients") == 8 * 14336 * 2


def test_vision_finetune_uses_patches_as_tokens() -> None:
    model = get_preset("vit-large-patch16-224")
    inp = EstimateInput(model=model, workload=Workload.VISION_FINETUNE, batch_size=8, image_height=384, image_width=384)
    small = EstimateInput(model=model, workload=Workload.VISION_FINETUNE, batch_size=8)
    big = estimate(inp).bytes_of("activations")
    assert big > estimate(small).bytes_of("activations") * 2.5
    assert estimate(inp).component("logits") is None


def test_adafactor_on_a_vision_model_has_no_vocabulary() -> None:
    inp = EstimateInput(
        model=get_preset("vit-base-patch16-224"),
        workload=Workload.VISION_FINETUNE,
        training=TrainingOptions(optimizer=OptimizerKind.ADAFACTOR),
    )
    assert 0 < estimate(inp).bytes_of("optimizer_state") < 86_567_656 * 4 * 0.1


def test_compiled_training_saves_only_matmul_outputs() -> None:
    inp = _train(seq_len=2048, batch_size=2, training=TrainingOptions(compiled=True))
    layer = layer_activation(inp, 2048, 2)
    assert layer.linear / 4096 == (2 * 4096 + 2 * 4096 + 2 * 1024 + 2 * 14336) * 2
    gelu = EstimateInput(
        model=get_preset("gpt2-xl"), workload=Workload.FULL_FINETUNE, training=TrainingOptions(compiled=True)
    )
    eager = EstimateInput(model=get_preset("gpt2-xl"), workload=Workload.FULL_FINETUNE)
    assert layer_activation(gelu, 512, 1).linear < layer_activation(eager, 512, 1).linear


def test_a_quantized_base_under_autocast_saves_fp32_activations() -> None:
    """bitsandbytes' 4-bit linears return their input's dtype, and with the unquantized modules in fp32 the residual
    stream is fp32 from the embedding on: the saved activations take 4 B an element, not the compute precision's 2
    (decision 0524). A bf16 base under the same quantization keeps 2 B."""
    fields: dict[str, Any] = {
        "workload": Workload.QLORA,
        "quantization": Quantization(QuantMethod.BNB_NF4),
        "seq_len": 512,
        "lora": LoRAConfig(rank=8, targets=LoRATargets.QV),
    }
    fp32 = _train(precision=Precision(weights=DType.FP32, compute=DType.BF16), **fields)
    bf16 = _train(precision=Precision(weights=DType.BF16, compute=DType.BF16), **fields)
    assert layer_activation(fp32, 512, 1).linear == 2 * layer_activation(bf16, 512, 1).linear
    ckpt = TrainingOptions(activation_checkpointing=True)
    inputs32 = estimate(_train(precision=fp32.precision, training=ckpt, **fields)).component("activations")
    inputs16 = estimate(_train(precision=bf16.precision, training=ckpt, **fields)).component("activations")
    assert inputs32 is not None
    assert inputs16 is not None
    assert "x 4 B" in inputs32.formula
    assert "x 2 B" in inputs16.formula


def test_deepspeed_zero3_steps_each_sub_group_with_its_gradients_in_the_master_precision() -> None:
    """Engine 0.3.17: ZeRO-3's ``_prepare_fp32_grad_for_sub_group`` converts one sub-group's gradient partition to
    the master dtype and ``_release_sub_group`` frees it after that sub-group's step: min(partition, 1e9) parameters
    at 4 B (fp32 master) or 2 B (16-bit master), in the step only; none with the optimizer offloaded, none without a
    master copy (FSDP's fp32 weights), none under ZeRO-2."""
    p = 8_030_261_248

    def grads(**plan: Any) -> Any:
        return estimate(_train(precision=Precision(master_weights=True), parallel=ParallelPlan(**plan), seq_len=8))

    four = grads(strategy=Strategy.ZERO3, cards=4).component("master_grads")
    assert four is not None
    assert four.bytes == 1_000_000_000 * 4  # a quarter of 8.03 B parameters is more than one sub-group
    assert four.phases == ("optimizer_step",)
    sixteen = grads(strategy=Strategy.ZERO3, cards=16).component("master_grads")
    assert sixteen is not None
    assert sixteen.bytes == -(-p // 16) * 4
    low = estimate(
        _train(
            precision=Precision(optimizer_states=DType.BF16, master_weights_16bit=True),
            parallel=ParallelPlan(strategy=Strategy.ZERO3, cards=16),
            seq_len=8,
        )
    ).component("master_grads")
    assert low is not None
    assert low.bytes == -(-p // 16) * 2
    offloaded = grads(strategy=Strategy.ZERO3, cards=4, offload_optimizer=True)
    assert offloaded.component("master_grads") is None
    assert grads(strategy=Strategy.ZERO2, cards=4).component("master_grads") is None
    fp32 = ParallelPlan(strategy=Strategy.FSDP, cards=4)
    fsdp = estimate(_train(precision=Precision(weights=DType.FP32), parallel=fp32, seq_len=8))
    assert fsdp.component("master_grads") is None


def test_checkpointed_backward_holds_the_gradients_beside_the_first_layer_rebuilt() -> None:
    """Engine 0.3.23: with gradients freed after each step and full checkpointing, the rebuild of the first layer
    happens with every later layer's gradient held; the forward-backward phase counts the gradients that exceed the
    layer inputs and the logits, beside one layer's activations."""
    base = {"batch_size": 1, "seq_len": 256, "training": TrainingOptions(fused_optimizer=True, gradients_freed=True)}
    plain = estimate(_train(**base))
    assert plain.component("gradients_in_backward") is None
    training = TrainingOptions(fused_optimizer=True, gradients_freed=True, activation_checkpointing=True)
    result = estimate(_train(batch_size=1, seq_len=256, training=training))
    held = result.component("gradients_in_backward")
    assert held is not None
    assert held.phases == ("forward_backward",)
    layer = layer_activation(_train(batch_size=1, seq_len=256, training=training), 256, 1).total
    freed = result.bytes_of("activations") - layer + result.bytes_of("logits")
    assert held.bytes == result.bytes_of("gradients") - freed
    kept = TrainingOptions(activation_checkpointing=True)  # gradients kept across steps: counted in both phases
    assert estimate(_train(batch_size=1, seq_len=256, training=kept)).component("gradients_in_backward") is None


def test_adapters_have_no_gradients_to_hold_at_the_last_recompute() -> None:
    training = TrainingOptions(gradients_freed=True, activation_checkpointing=True)
    result = estimate(_train(workload=Workload.LORA, seq_len=256, training=training))
    assert result.component("gradients_in_backward") is None


def test_no_gradients_held_at_the_last_recompute_where_the_rebuild_does_not_hold_them() -> None:
    training = TrainingOptions(fused_optimizer=True, gradients_freed=True, activation_checkpointing=True)
    # Every other layer checkpointed: the layers between keep their activations, the rule does not apply.
    every_other = TrainingOptions(
        fused_optimizer=True, gradients_freed=True, activation_checkpointing=True, checkpoint_every=2
    )
    assert estimate(_train(batch_size=1, seq_len=256, training=every_other)).component("gradients_in_backward") is None
    # Inputs and logits larger than every gradient: the rebuild's moment is not the phase's peak.
    big = estimate(_train(batch_size=16, seq_len=4096, training=training))
    assert big.component("gradients_in_backward") is None
    # ZeRO-3 with parameters and optimizer offloaded keeps no gradients on the card (0 bytes, not shown).
    offloaded = ParallelPlan(strategy=Strategy.ZERO3, cards=2, offload_optimizer=True, offload_params=True)
    result = estimate(_train(batch_size=1, seq_len=256, training=training, parallel=offloaded))
    assert result.component("gradients") is None
    assert result.component("gradients_in_backward") is None

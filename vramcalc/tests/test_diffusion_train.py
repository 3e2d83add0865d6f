"""Diffusion training (SDXL/Flux LoRA, full fine-tuning) and sequence parallelism."""

from __future__ import annotations

from typing import Any

import pytest

from vramcalc import Estimate, InvalidInput, estimate
from vramcalc.components.runtime import TRAINING_RESERVE_PCT
from vramcalc.model import DiffusionSpec
from vramcalc.presets import get_preset
from vramcalc.serialize import inputs_from_dict, inputs_to_dict
from vramcalc.unet_levels import unet_training_elements
from vramcalc.units import GIB


def _run(model: str, workload: str, **fields: Any) -> Estimate:
    return estimate(inputs_from_dict({"model": model, "workload": workload, **fields}))


def test_sdxl_lora_is_a_training_estimate_with_frozen_encoders_and_a_vae_encode_phase() -> None:
    result = _run("sdxl-base-1.0", "lora", image_height=1024, image_width=1024)
    keys = {c.key for c in result.components}
    assert {"adapter_weights", "text_encoder_weights", "vae_encode", "activations"} <= keys
    assert [p.phase for p in result.phases] == ["vae_encode", "forward_backward", "optimizer_step"]
    assert "diffusion_training" not in [w.key for w in result.warnings]  # counted per UNet level (0220)
    assert "diffusion_training" in [w.key for w in _run("flux.1-dev", "lora").warnings]  # a DiT: the allowance
    assert 8 * GIB < result.peak_bytes < 24 * GIB
    assert result.peak_low_bytes < result.peak_bytes < result.peak_high_bytes
    checkpointed = _run("sdxl-base-1.0", "lora", training={"activation_checkpointing": True})
    assert checkpointed.peak_bytes < result.peak_bytes


@pytest.mark.parametrize("targets", ["qv", "attention", "all_linear"])
def test_lora_targets_scale_the_adapter(targets: str) -> None:
    result = _run("flux.1-dev", "lora", lora={"targets": targets, "rank": 16})
    adapter = result.component("adapter_weights")
    assert adapter is not None
    assert adapter.bytes > 0


def test_gradients_freed_after_each_step_leave_the_forward_backward_phase() -> None:
    """Decision 0525: freed after each step, the gradients are held by the optimizer step, not by forward and
    backward (nor by the VAE encode before them)."""
    held = _run("sd-1.5", "full_finetune")
    freed = _run("sd-1.5", "full_finetune", training={"gradients_freed": True})
    grads = freed.bytes_of("gradients")
    assert grads == held.bytes_of("gradients") > 0
    before = {p.phase: p.bytes for p in held.phases}
    after = {p.phase: p.bytes for p in freed.phases}
    assert after["forward_backward"] <= before["forward_backward"] - grads
    assert after["vae_encode"] <= before["vae_encode"] - grads
    assert after["optimizer_step"] == before["optimizer_step"]


@pytest.mark.parametrize("optimizer", ["adamw", "adamw_8bit", "lion", "sgd_momentum", "sgd"])
def test_full_fine_tune_states_follow_the_optimizer(optimizer: str) -> None:
    result = _run("sd-1.5", "full_finetune", training={"optimizer": optimizer, "fused_optimizer": True})
    assert result.component("gradients") is not None
    assert result.component("optimizer_step") is None


def test_master_weights_and_unmodelled_optimizers() -> None:
    result = _run("sd-1.5", "full_finetune", precision={"master_weights": True})
    assert result.component("master_weights") is not None
    low = _run("sd-1.5", "full_finetune", precision={"master_weights_16bit": True})
    fp32_copy, bf16_copy = result.component("master_weights"), low.component("master_weights")
    assert fp32_copy is not None
    assert bf16_copy is not None
    assert bf16_copy.bytes * 2 == fp32_copy.bytes
    assert (bf16_copy.label, fp32_copy.label) == ("Master weights (16-bit)", "Master weights (fp32)")
    with pytest.raises(InvalidInput, match="diffusion training"):
        _run("sd-1.5", "full_finetune", training={"optimizer": "adafactor"})


def test_diffusion_training_refusals() -> None:
    with pytest.raises(InvalidInput) as error:
        _run("sd-1.5", "qlora", quantization={"method": "bnb_nf4"})
    assert error.value.field == "workload"
    with pytest.raises(InvalidInput) as error:
        _run("sd-1.5", "lora", quantization={"method": "fp8"})
    assert error.value.field == "quantization.method"
    with pytest.raises(InvalidInput) as error:
        _run("sd-1.5", "lora", parallel={"strategy": "zero2", "cards": 2})
    assert error.value.field == "parallel.strategy"
    with pytest.raises(InvalidInput):
        _run("llama-3.1-8b", "diffusion")


def test_sequence_parallel_divides_activations_and_logits_per_card() -> None:
    plan = {"strategy": "fsdp", "cards": 8}
    one = _run("llama-3.1-8b", "full_finetune", seq_len=32768, parallel=plan)
    eight = _run("llama-3.1-8b", "full_finetune", seq_len=32768, parallel={**plan, "sequence_parallel": 8})
    for key in ("activations", "logits"):
        a, b = one.component(key), eight.component(key)
        assert a is not None
        assert b is not None
        assert b.bytes * 7 < a.bytes
    act = eight.component("activations")
    assert act is not None
    assert "Sequence parallel over 8 cards" in act.assumption


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"parallel": {"strategy": "fsdp", "cards": 8, "sequence_parallel": 3}}, "parallel.sequence_parallel"),
        ({"parallel": {"strategy": "fsdp", "cards": 8, "sequence_parallel": 0}}, "parallel.sequence_parallel"),
        (
            {"seq_len": 1001, "parallel": {"strategy": "fsdp", "cards": 8, "sequence_parallel": 8}},
            "parallel.sequence_parallel",
        ),
    ],
)
def test_sequence_parallel_validation(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as error:
        _run("llama-3.1-8b", "full_finetune", **fields)
    assert error.value.field == field


def test_sequence_parallel_is_for_training() -> None:
    with pytest.raises(InvalidInput) as error:
        _run("llama-3.1-8b", "inference", parallel={"strategy": "ddp", "cards": 2, "sequence_parallel": 2})
    assert error.value.field == "parallel.sequence_parallel"


def test_vision_language_model_adds_its_encoder_and_image_tokens() -> None:
    text = _run("llava-1.5-7b", "inference", seq_len=512, concurrent_sequences=4)
    images = _run("llava-1.5-7b", "inference", seq_len=512, concurrent_sequences=4, images_per_sequence=2)
    vision = images.component("vision_encoder_weights")
    kv_text, kv_images = text.component("kv_cache"), images.component("kv_cache")
    assert vision is not None
    assert kv_text is not None
    assert kv_images is not None
    assert kv_images.bytes * 512 == kv_text.bytes * (512 + 2 * 576)
    assert "vision_encoder_activations" in [n.key for n in images.not_modelled]
    lora = _run("llava-1.5-7b", "lora", seq_len=1024, images_per_sequence=1)
    assert lora.component("vision_encoder_weights") is not None


def test_vision_language_validation() -> None:
    with pytest.raises(InvalidInput) as error:
        _run("llama-3.1-8b", "inference", images_per_sequence=1)
    assert error.value.field == "images_per_sequence"
    with pytest.raises(InvalidInput) as error:
        _run("llava-1.5-7b", "inference", images_per_sequence=-1)
    assert error.value.field == "images_per_sequence"
    base = {"name": "x", "num_layers": 2, "hidden_size": 64, "num_attention_heads": 4}
    cases = [
        ({"image_tokens": 5}, "model.image_tokens"),
        ({"vision_encoder_params": 5}, "model.image_tokens"),
        ({"vision_encoder_params": -1, "image_tokens": -1}, "model.vision_encoder_params"),  # below its range
    ]
    for extra, field in cases:
        model = {**base, "intermediate_size": 128, "vocab_size": 100, **extra}
        with pytest.raises(InvalidInput) as error:
            inputs_from_dict({"model": model})
        assert error.value.field == field


def test_unet_walk_counts_a_two_level_unet_by_hand() -> None:
    """Decision 0220's per-level count on a UNet small enough to add up by hand (full fine-tuning, eager)."""
    spec = DiffusionSpec(
        denoiser_params=1000,
        denoiser_kind="unet",
        denoiser_hidden=4,
        denoiser_heads=1,
        vae_params=10,
        text_tokens=77,
        unet_channels=(4, 8),
        unet_layers_per_block=1,
        unet_transformer_depth=(1, 0),
        unet_mid_transformer_depth=0,
        unet_heads=(1, 1),
    )
    count = unet_training_elements(spec, 4, 4, "all", fused=False, checkpointing=False)
    # level 0: 16 tokens x 4 channels; level 1: 4 tokens x 8 channels. Resnet: N (3 C_in + 3 C).
    resnets = 16 * 24 + 4 * 36 + 2 * 4 * 48 + 4 * 72 + 4 * 60 + 16 * 48 + 16 * 36
    transformers = 3 * 16 * 4 * (3 + 21 + 7)  # one down, two up; 3C + (21 + 7)C per block
    plain = 16 * 4 + 16 * 8 + 16 * 3 * 4  # stride-2 conv input, upsampled tensor, output head
    assert count.saved == resnets + transformers + plain == 9120
    assert count.scores == 3 * 1 * 16 * (16 + 77)  # softmax outputs: self- and cross-attention
    assert count.transient == 2 * 16 * 16  # two score-sized gradients of the widest self-attention
    fused = unet_training_elements(spec, 4, 4, "all", fused=True, checkpointing=False)
    assert fused.scores == fused.transient == 0
    assert fused.saved == count.saved + 3 * 16 * 4 * 2  # the kernel keeps its self- and cross-attention output
    frozen = unet_training_elements(spec, 4, 4, "frozen_qv", fused=False, checkpointing=False)
    assert frozen.saved == count.saved - 3 * 16 * 4 * 7  # frozen linears keep no input
    checkpointed = unet_training_elements(spec, 4, 4, "all", fused=False, checkpointing=True)
    inputs = 16 * 4 + 4 * 4 + 2 * 4 * 8 + 4 * 16 + 4 * 12 + 16 * 12 + 16 * 8 + 3 * 16 * 4
    assert checkpointed.saved == inputs + plain
    assert checkpointed.transient == 16 * 4 * 31 + 16 * 93 + 2 * 16 * 16  # one transformer recomputed


def test_eager_attention_and_text_encoder_training_add_what_they_keep() -> None:
    base = {"image_height": 512, "image_width": 512, "precision": {"weights": "fp32", "compute": "fp32"}}
    fused = _run("sd-1.5", "lora", **base)
    eager = _run("sd-1.5", "lora", flash_attention=False, **base)
    act = fused.component("activations")
    eager_act = eager.component("activations")
    assert act is not None
    assert eager_act is not None
    # 5 self-attentions at 64x64 latent tokens x 8 heads, fp32: at least 2.5 GiB of probabilities per image
    assert eager_act.bytes - act.bytes > 5 * 8 * 4096 * 4096 * 4
    trained = _run("sd-1.5", "full_finetune", diffusion={"train_text_encoder": True}, **base)
    frozen = _run("sd-1.5", "full_finetune", **base)
    grads, frozen_grads = trained.component("gradients"), frozen.component("gradients")
    assert grads is not None
    assert frozen_grads is not None
    assert grads.bytes - frozen_grads.bytes == 123060480 * 4  # the CLIP encoder's fp32 gradients
    assert trained.component("text_encoder_activations") is not None
    assert frozen.component("text_encoder_activations") is None
    flux = _run("flux.1-dev", "full_finetune", diffusion={"train_text_encoder": True})
    flux_grads = flux.component("gradients")
    assert flux_grads is not None
    assert flux_grads.bytes == (11901408320 + 123060480) * 2  # CLIP-L trains, T5-XXL stays frozen


def test_unet_layout_validation() -> None:
    with pytest.raises(InvalidInput, match="one entry per UNet level"):
        DiffusionSpec(1000, "unet", 4, 1, 10, unet_channels=(4, 8), unet_transformer_depth=(1,), unet_heads=(1, 1))
    with pytest.raises(InvalidInput, match="only a UNet"):
        DiffusionSpec(1000, "dit", 4, 1, 10, unet_channels=(4,), unet_transformer_depth=(1,), unet_heads=(1,))
    with pytest.raises(InvalidInput, match="one width per text encoder"):
        DiffusionSpec(1000, "unet", 4, 1, 10, text_encoder_params=(5, 6), text_encoder_hidden=(4,))
    with pytest.raises(InvalidInput) as error:
        DiffusionSpec(1000, "unet", 4, 1, 10, unet_channels=(4,), unet_transformer_depth=(-1,), unet_heads=(1,))
    assert error.value.field == "model.diffusion.unet_transformer_depth[0]"
    with pytest.raises(InvalidInput) as error:
        DiffusionSpec(
            1000, "unet", 4, 1, 10, unet_channels=(4,), unet_transformer_depth=(1,), unet_heads=(1,),
            unet_mid_transformer_depth=-1,
        )  # fmt: skip
    assert error.value.field == "model.diffusion.unet_mid_transformer_depth"


@pytest.mark.parametrize("targets", ["qv", "attention"])
def test_unet_lora_on_part_of_the_linears_keeps_fewer_activations_than_on_all(targets: str) -> None:
    """Frozen linears keep no input (decision 0220): a UNet LoRA on attention or q/v keeps less than on all."""
    base = {"image_height": 512, "image_width": 512}
    narrow = _run("sd-1.5", "lora", lora={"targets": targets, "rank": 16}, **base).component("activations")
    wide = _run("sd-1.5", "lora", lora={"targets": "all_linear", "rank": 16}, **base).component("activations")
    assert narrow is not None
    assert wide is not None
    assert narrow.bytes < wide.bytes


def test_vae_widths_come_from_the_model() -> None:
    """Decision 0222: encode at the first VAE width, decode at the second (both at full resolution)."""
    import dataclasses

    from vramcalc.presets import get_preset

    model = get_preset("sd-1.5")
    assert model.diffusion is not None
    narrow = dataclasses.replace(model, diffusion=dataclasses.replace(model.diffusion, vae_channels=(64, 128, 256)))
    fields = {"image_height": 512, "image_width": 512}
    for workload, key in (("lora", "vae_encode"), ("diffusion", "vae_decode")):
        wide_part = _run("sd-1.5", workload, **fields).component(key)
        narrow_part = estimate(inputs_from_dict({"model": narrow, "workload": workload, **fields})).component(key)
        assert wide_part is not None
        assert narrow_part is not None
        assert wide_part.bytes == 2 * narrow_part.bytes
    with pytest.raises(InvalidInput, match="two VAE levels"):
        dataclasses.replace(model.diffusion, vae_channels=(128,))


def test_lora_on_the_text_encoders_adds_their_adapters_to_the_trainable_parameters() -> None:
    base = {"image_height": 512, "image_width": 512, "lora": {"rank": 16, "targets": "all_linear"}}
    trained = _run("sd-1.5", "lora", diffusion={"train_text_encoder": True}, **base)
    frozen = _run("sd-1.5", "lora", **base)
    assert trained.bytes_of("adapter_weights") > frozen.bytes_of("adapter_weights")
    qv = _run("sd-1.5", "lora", diffusion={"train_text_encoder": True}, **{**base, "lora": {"targets": "qv"}})
    assert qv.bytes_of("adapter_weights") < trained.bytes_of("adapter_weights")


def test_a_dit_checkpointed_keeps_block_inputs_and_rebuilds_one_block() -> None:
    plain = _run("flux.1-dev", "lora").bytes_of("activations")
    checkpointed = _run("flux.1-dev", "lora", training={"activation_checkpointing": True}).bytes_of("activations")
    assert 0 < checkpointed < plain


def test_a_dit_that_states_its_blocks_keeps_activations_per_block() -> None:
    """Engine 0.3.37 (decision 0597): Flux's 19 double-stream and 38 single-stream blocks, not the 105 blocks of its
    parameters' equivalent depth; the formula names what it counted."""
    spec = get_preset("flux.1-dev").diffusion
    assert spec is not None
    assert spec.denoiser_blocks == 57
    latent = 512 // (spec.vae_scale_factor * spec.patch_size)
    tokens = latent * latent + spec.text_tokens
    fields: dict[str, Any] = {"image_height": 512, "image_width": 512}
    stated = _run("flux.1-dev", "lora", **fields).component("activations")
    assert stated is not None
    assert stated.bytes == tokens * 17 * spec.denoiser_hidden * 2 * 57
    assert "57 DiT blocks" in stated.formula
    unstated = inputs_to_dict(inputs_from_dict({"model": "flux.1-dev", "workload": "lora", **fields}))
    unstated["model"]["diffusion"]["denoiser_blocks"] = 0
    derived = estimate(inputs_from_dict(unstated)).component("activations")
    assert derived is not None
    blocks = spec.denoiser_params // (12 * spec.denoiser_hidden**2)
    assert blocks == 105
    assert derived.bytes == tokens * 17 * spec.denoiser_hidden * 2 * blocks
    assert "105 equivalent blocks" in derived.formula


def test_only_a_dit_states_its_blocks() -> None:
    with pytest.raises(InvalidInput) as error:
        DiffusionSpec(1000, "unet", 4, 1, 10, denoiser_blocks=2)
    assert error.value.field == "model.diffusion.denoiser_blocks"


def test_ddp_keeps_its_gradient_buckets_in_diffusion_training_too() -> None:
    """Decision 0546: PyTorch DDP's Reducer allocates flat buckets over the trainable gradients when the model is
    wrapped (ColossalAI's TorchDDPPlugin passes gradient_as_bucket_view=False by default), one more copy of the
    gradients through the run, as in transformer training; a bucket view, one card or LoRA's few gradients change it."""
    fields: dict[str, Any] = {"precision": {"weights": "fp32", "compute": "fp32"}, "batch_size": 8}
    ddp = _run("sd-1.5", "full_finetune", parallel={"strategy": "ddp", "cards": 4}, **fields)
    one = _run("sd-1.5", "full_finetune", **fields)
    grads = ddp.bytes_of("gradients")
    assert ddp.bytes_of("ddp_buckets") == grads == 859_520_964 * 4
    assert ddp.component("ddp_buckets").phases == ("vae_encode", "forward_backward", "optimizer_step")  # type: ignore[union-attr]
    assert one.component("ddp_buckets") is None
    assert ddp.peak_allocated_bytes == one.peak_allocated_bytes + grads
    view = _run("sd-1.5", "full_finetune", parallel={"strategy": "ddp", "cards": 4, "grad_bucket_view": True}, **fields)
    assert view.component("ddp_buckets") is None
    lora = _run("sd-1.5", "lora", parallel={"strategy": "ddp", "cards": 4})
    assert lora.bytes_of("ddp_buckets") == lora.bytes_of("gradients") > 0


@pytest.mark.parametrize(("optimizer", "temporaries"), [("adamw", True), ("adamw_8bit", False), ("sgd", False)])
def test_only_foreach_optimizers_step_with_a_parameter_sized_temporary(optimizer: str, temporaries: bool) -> None:
    """Engine 0.3.23: bitsandbytes' 8-bit AdamW updates one parameter at a time (``Optimizer8bit.step``), as the LLM
    training path already counts it; PyTorch's foreach AdamW keeps one temporary per trainable parameter."""
    result = _run("sd-1.5", "full_finetune", training={"optimizer": optimizer})
    step = result.component("optimizer_step")
    assert (step is not None) is temporaries
    if step is not None:
        assert step.bytes >= result.bytes_of("gradients") > 0


def test_cached_latents_and_prompt_embeddings_leave_the_vae_and_the_text_encoders_off_the_card() -> None:
    """Engine 0.3.36 (decision 0595): training from cached latents has no VAE on the card and no VAE encode phase;
    from cached prompt embeddings, no text encoder. The denoiser's own step is unchanged."""
    plain = _run("sdxl-base-1.0", "lora", image_height=1024, image_width=1024)
    latents = _run("sdxl-base-1.0", "lora", image_height=1024, image_width=1024, diffusion={"cached_latents": True})
    assert [p.phase for p in latents.phases] == ["forward_backward", "optimizer_step"]
    assert latents.component("vae_weights") is None
    assert latents.component("vae_encode") is None
    assert latents.bytes_of("text_encoder_weights") == plain.bytes_of("text_encoder_weights") > 0
    assert latents.bytes_of("activations") == plain.bytes_of("activations")
    step = {p.phase: p.bytes for p in plain.phases}["forward_backward"]
    # The VAE leaves the step with the allocator's reserve on it (engine 0.3.38), to a byte of rounding.
    vae = plain.bytes_of("vae_weights")
    left = step - vae - vae * TRAINING_RESERVE_PCT // 100
    assert abs({p.phase: p.bytes for p in latents.phases}["forward_backward"] - left) <= 1
    both = _run(
        "sdxl-base-1.0",
        "lora",
        image_height=1024,
        image_width=1024,
        diffusion={"cached_latents": True, "cached_text_embeddings": True},
    )
    assert both.component("text_encoder_weights") is None
    assert both.peak_bytes < latents.peak_bytes < plain.peak_bytes


@pytest.mark.parametrize(
    ("model", "workload", "diffusion", "field"),
    [
        ("sdxl-base-1.0", "diffusion", {"cached_latents": True}, "diffusion.cached_latents"),
        ("llama-3.1-8b", "lora", {"cached_text_embeddings": True}, "diffusion.cached_text_embeddings"),
        (
            "sd-1.5",
            "lora",
            {"cached_text_embeddings": True, "train_text_encoder": True},
            "diffusion.cached_text_embeddings",
        ),
    ],
)
def test_caches_are_for_diffusion_training_with_frozen_text_encoders(
    model: str, workload: str, diffusion: dict[str, bool], field: str
) -> None:
    with pytest.raises(InvalidInput) as raised:
        _run(model, workload, diffusion=diffusion)
    assert raised.value.field == field

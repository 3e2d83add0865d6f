"""Diffusion: weights per component, denoiser activations, the separate VAE-decode peak (§6)."""

from __future__ import annotations

from typing import Any

import pytest

from vramcalc import (
    DiffusionOptions,
    DType,
    EstimateInput,
    InvalidInput,
    Precision,
    Quantization,
    QuantMethod,
    Workload,
    estimate,
)
from vramcalc.calibration import bounds
from vramcalc.diffusion import DECODE, DENOISE, SAFETY_CHECKER_PARAMS, VAE_BATCH_TENSORS, vae_workspace_bytes
from vramcalc.presets import get_preset
from vramcalc.units import GIB


def _gen(preset: str, **kwargs: Any) -> EstimateInput:
    return EstimateInput(model=get_preset(preset), workload=Workload.DIFFUSION, **kwargs)


def test_flux_bf16_weights_match_memory_after_loading() -> None:
    result = estimate(_gen("flux.1-dev", diffusion=DiffusionOptions(guidance=False)))
    weights = result.bytes_of("weights", "text_encoder_weights", "vae_weights")
    assert weights / GIB == pytest.approx(31.45, rel=0.01)  # diffusers benchmark: 31.447 GB after loading
    assert result.peak_phase == DECODE
    assert result.vae_decode_peak_bytes == result.peak_bytes


def test_vae_decode_grows_with_pixels_and_tiling_bounds_it() -> None:
    small = estimate(_gen("sd-1.5", image_height=512, image_width=512, precision=Precision(weights=DType.FP16)))
    big = estimate(_gen("sd-1.5", image_height=1024, image_width=1024, precision=Precision(weights=DType.FP16)))
    assert big.bytes_of("vae_decode") == 4 * small.bytes_of("vae_decode")
    tiled = estimate(_gen("sd-1.5", image_height=1024, image_width=1024, diffusion=DiffusionOptions(vae_tiling=True)))
    assert tiled.bytes_of("vae_decode") == small.bytes_of("vae_decode")
    component = tiled.component("vae_decode")
    assert component is not None
    assert component.assumption.startswith("Tiled")


def test_vae_decode_fp16_1024_is_6_half_and_1_fp32_full_resolution_256_channel_tensors() -> None:
    result = estimate(_gen("sd-1.5", precision=Precision(weights=DType.FP16, compute=DType.FP16)))
    assert result.bytes_of("vae_decode") == 1024 * 1024 * 256 * (6 * 2 + 4)
    assert result.bytes_of("vae_decode") / GIB == pytest.approx(4.0)


def test_slicing_decodes_one_image_at_a_time() -> None:
    batch = estimate(_gen("sdxl-base-1.0", batch_size=4))
    sliced = estimate(_gen("sdxl-base-1.0", batch_size=4, diffusion=DiffusionOptions(vae_slicing=True)))
    one = estimate(_gen("sdxl-base-1.0", batch_size=1))
    assert sliced.bytes_of("vae_decode") == one.bytes_of("vae_decode")
    assert sliced.bytes_of("vae_decode") < batch.bytes_of("vae_decode") < 4 * sliced.bytes_of("vae_decode")


def test_each_further_image_decoded_at_once_adds_three_full_resolution_tensors() -> None:
    """Decision 0533: the fitted single-image working set (6 half + 1 fp32 tensor of the second width at full
    resolution) is taken once a decode call; each further image adds what one resnet block holds live under no_grad
    (its input, the norm's and the activation's or convolution's outputs). Flux in bf16, 1024 px, 16 images: 4 GiB
    for the first and 1.5 GiB for each further image, 26.5 GiB (64 GiB at engine 0.3.10; the diffusers benchmark's
    peak grows by 1.84 GiB an image from 4 to 16 images)."""
    flux = DiffusionOptions(guidance=False)
    one = estimate(_gen("flux.1-dev", batch_size=1, diffusion=flux))
    sixteen = estimate(_gen("flux.1-dev", batch_size=16, diffusion=flux))
    pixels = 1024 * 1024 * 256
    assert one.bytes_of("vae_decode") == pixels * (6 * 2 + 4)
    assert sixteen.bytes_of("vae_decode") == pixels * (6 * 2 + 4) + 15 * pixels * VAE_BATCH_TENSORS * 2
    assert sixteen.bytes_of("vae_decode") / GIB == pytest.approx(26.5)
    component = sixteen.component("vae_decode")
    assert component is not None
    assert "+ 15 image(s) x 1024x1024 px x 256 ch x 3 x 2 B" in component.formula


def test_sdxl_upcasts_its_fp16_vae_to_fp32_to_decode() -> None:
    """Decision 0533: diffusers' SDXL pipelines cast an fp16 VAE whose config sets force_upcast to fp32 for the
    decode (activations and weights); bf16 and fp32 runs, and pipelines without the flag, keep the weights' dtype."""
    fp16 = Precision(weights=DType.FP16, compute=DType.FP16)
    sdxl = estimate(_gen("sdxl-base-1.0", precision=fp16))
    spec = get_preset("sdxl-base-1.0").diffusion
    assert spec is not None
    assert spec.vae_force_upcast
    pixels = 1024 * 1024 * 256
    assert sdxl.bytes_of("vae_decode") == pixels * (6 * 4 + 4) + spec.vae_params * 2
    component = sdxl.component("vae_decode")
    assert component is not None
    assert "+ VAE fp32 upcast 83,653,863 x 2 B" in component.formula
    bf16 = estimate(_gen("sdxl-base-1.0", precision=Precision(weights=DType.BF16, compute=DType.BF16)))
    assert bf16.bytes_of("vae_decode") == pixels * (6 * 2 + 4)
    sd15 = estimate(_gen("sd-1.5", precision=fp16))
    assert sd15.bytes_of("vae_decode") == pixels * (6 * 2 + 4)


def test_cpu_offload_keeps_one_component_resident() -> None:
    offload = estimate(_gen("flux.1-dev", diffusion=DiffusionOptions(cpu_offload=True, guidance=False)))
    assert offload.peak_phase == DENOISE
    resident = estimate(_gen("flux.1-dev", diffusion=DiffusionOptions(guidance=False)))
    assert offload.peak_bytes < resident.peak_bytes - 8 * GIB


def test_quantized_denoiser_and_text_encoders() -> None:
    nf4 = Quantization(QuantMethod.BNB_NF4)
    only_denoiser = estimate(_gen("flux.1-dev", quantization=nf4))
    both = estimate(_gen("flux.1-dev", quantization=nf4, diffusion=DiffusionOptions(quantize_text_encoders=True)))
    bf16 = estimate(_gen("flux.1-dev"))
    assert only_denoiser.bytes_of("weights") < bf16.bytes_of("weights") / 3
    # T5's FFN output projections stay fp32 under bitsandbytes (test_text_encoder_fp32.py): 4-bit saves 1/3
    assert both.bytes_of("text_encoder_weights") < only_denoiser.bytes_of("text_encoder_weights") * 2 / 3
    assert only_denoiser.bytes_of("vae_weights") == bf16.bytes_of("vae_weights")


def test_guidance_doubles_denoiser_batch_and_eager_attention_adds_scores() -> None:
    cfg = estimate(_gen("sd-1.5")).bytes_of("activations")
    no_cfg = estimate(_gen("sd-1.5", diffusion=DiffusionOptions(guidance=False))).bytes_of("activations")
    assert cfg == 2 * no_cfg
    eager = estimate(_gen("sd-1.5", flash_attention=False)).bytes_of("activations")
    assert eager > cfg


def test_eager_unet_attention_is_sized_at_its_widest_self_attention() -> None:
    # SDXL's first level (DownBlock2D) has no attention: its widest self-attention is level 1's, 10 heads over
    # (1024 / 8 / 2)² = 4,096 tokens; SD 1.5 attends at its first level, 8 heads over (512 / 8)² = 4,096 tokens.
    for preset, size, heads, tokens in (("sdxl-base-1.0", 1024, 10, 4096), ("sd-1.5", 512, 8, 4096)):
        fused = estimate(_gen(preset, image_height=size, image_width=size)).bytes_of("activations")
        eager = estimate(_gen(preset, image_height=size, image_width=size, flash_attention=False))
        # the guidance batch of 2, the scores and their softmax, 2 bytes each
        assert eager.bytes_of("activations") - fused == 2 * heads * tokens * tokens * 2 * 2
        assert f"scores {heads} heads x 4,096²" in next(c for c in eager.components if c.key == "activations").formula


def test_under_autocast_an_eager_attention_holds_its_softmax_in_fp32() -> None:
    """Engine 0.3.13: autocast runs ``softmax`` in float32, so a 16-bit score gives a 4-byte probability (2 + 4 B a
    score, not 2 + 2). Said with 16-bit weights (``diffusion.autocast``, lambda-diffusers' half-precision runs),
    implied by fp32 weights computed in 16 bits; an fp32 compute dtype has nothing to upcast."""
    half = Precision(weights=DType.FP16, compute=DType.FP16)
    size = {"image_height": 512, "image_width": 512, "flash_attention": False}
    plain = estimate(_gen("sd-1.5", precision=half, **size))
    autocast = estimate(_gen("sd-1.5", precision=half, diffusion=DiffusionOptions(autocast=True), **size))
    implied = estimate(_gen("sd-1.5", precision=Precision(weights=DType.FP32, compute=DType.FP16), **size))
    fp32 = Precision(weights=DType.FP32, compute=DType.FP32)
    full = estimate(_gen("sd-1.5", precision=fp32, diffusion=DiffusionOptions(autocast=True), **size))
    full_plain = estimate(_gen("sd-1.5", precision=fp32, **size))
    # the guidance batch of 2, 8 heads over 4,096 tokens, 2 more bytes a score
    assert autocast.bytes_of("activations") - plain.bytes_of("activations") == 2 * 8 * 4096 * 4096 * 2
    assert implied.bytes_of("activations") == autocast.bytes_of("activations")
    assert full.bytes_of("activations") == full_plain.bytes_of("activations")
    assert "x 6 B" in next(c for c in autocast.components if c.key == "activations").formula
    # The norms' fp32 outputs are named with their upper bound (the working set counted in 4 bytes, not 2), and
    # move the high end; without autocast nothing is named.
    norms = next(n for n in autocast.not_modelled if n.key == "autocast_norms")
    assert norms.high_bytes == 2 * 4096 * 16 * 320 * 2
    assert norms.direction == 1
    assert not [n for n in plain.not_modelled if n.key == "autocast_norms"]
    assert not [n for n in full.not_modelled if n.key == "autocast_norms"]


def test_dit_attends_to_text_tokens_too() -> None:
    result = estimate(_gen("sd3-medium", diffusion=DiffusionOptions(guidance=False)))
    tokens = (1024 // 16) ** 2 + 333
    assert result.bytes_of("activations") == tokens * 10 * 1536 * 2


def test_the_sd_safety_checker_stays_on_the_card_under_model_offload() -> None:
    """Engine 0.3.19: Stable Diffusion 1.x's safety checker (CLIP ViT-L/14 vision tower, 303,981,588 parameters) is
    on the card for the whole run: ``pipe.to("cuda")`` moves it, and ``enable_model_cpu_offload`` moves the pipeline's
    ``_exclude_from_cpu_offload`` components to the device instead of hooking them (fresh-20's F20-17/18)."""
    fp16 = Precision(weights=DType.FP16, compute=DType.FP16)
    for offload in (False, True):
        plain = estimate(_gen("sd-1.5", precision=fp16, diffusion=DiffusionOptions(cpu_offload=offload)))
        checked = estimate(
            _gen("sd-1.5", precision=fp16, diffusion=DiffusionOptions(cpu_offload=offload, safety_checker=True))
        )
        assert plain.component("safety_checker_weights") is None
        assert checked.bytes_of("safety_checker_weights") == SAFETY_CHECKER_PARAMS * 2
        assert checked.peak_bytes == plain.peak_bytes + SAFETY_CHECKER_PARAMS * 2  # resident in every phase


def test_text_encoders_kept_in_fp32_count_four_bytes_a_parameter() -> None:
    """Engine 0.3.22: a pipeline that keeps its text encoders in fp32 beside a 16-bit denoiser and VAE (Open-Sora 1.2's
    app builds T5 with ``dtype=torch.float`` and casts only the VAE and STDiT3 to bfloat16; fresh-23's F23-25..32)."""
    bf16 = Precision(weights=DType.BF16, compute=DType.BF16)
    spec = get_preset("sd3-medium").diffusion
    assert spec is not None
    plain = estimate(_gen("sd3-medium", precision=bf16))
    kept = estimate(_gen("sd3-medium", precision=bf16, diffusion=DiffusionOptions(text_encoders_fp32=True)))
    assert plain.bytes_of("text_encoder_weights") == sum(spec.text_encoder_params) * 2
    assert kept.bytes_of("text_encoder_weights") == sum(spec.text_encoder_params) * 4
    assert kept.bytes_of("weights", "vae_weights") == plain.bytes_of("weights", "vae_weights")


@pytest.mark.parametrize(
    ("preset", "workload", "diffusion", "quantization"),
    [
        ("sd3-medium", Workload.DIFFUSION, DiffusionOptions(text_encoders_fp32=True, quantize_text_encoders=True),
         Quantization(QuantMethod.BNB_NF4)),
        ("llama-3.2-1b", Workload.INFERENCE, DiffusionOptions(text_encoders_fp32=True), Quantization()),
    ],
)  # fmt: skip
def test_text_encoders_fp32_is_refused_without_a_diffusion_model_or_with_quantized_encoders(
    preset: str, workload: Workload, diffusion: DiffusionOptions, quantization: Quantization
) -> None:
    with pytest.raises(InvalidInput) as raised:
        EstimateInput(model=get_preset(preset), workload=workload, diffusion=diffusion, quantization=quantization)
    assert raised.value.field == "diffusion.text_encoders_fp32"


def test_vae_conv_workspace_moves_the_low_end_by_the_fitted_share_beyond_the_live_tensors() -> None:
    # Decision 0578: of the decode's fitted working set (6 half-precision tensors and one fp32 tensor a pixel and
    # channel), a resnet block holds 3 (its input, the norm's and the activation's outputs); the rest is the
    # convolutions' cuDNN workspace, which PyTorch shrinks to what it can allocate (Conv_v8.cpp's try_configs).
    half = Precision(weights=DType.FP16, compute=DType.FP16)
    inp = _gen("sd-1.5", precision=half, image_height=2048, image_width=2048)
    result = estimate(inp)
    note = next(n for n in result.not_modelled if n.key == "vae_conv_workspace")
    assert note.direction == -1
    assert note.low_bytes == 0
    assert note.high_bytes == vae_workspace_bytes(inp) == 2048 * 2048 * 256 * (3 * 2 + 4)
    assert result.bytes_of("vae_decode") - note.high_bytes == 2048 * 2048 * 256 * VAE_BATCH_TENSORS * 2
    # The range's low end reaches down by it; the expected value and the high end do not move.
    plain = bounds(inp, result.peak_bytes, (), ())
    assert result.peak_low_bytes == max(plain[0] - note.high_bytes, 0) < plain[0]
    assert result.peak_high_bytes == plain[1]
    tiled = _gen(
        "sd-1.5", precision=half, image_height=2048, image_width=2048, diffusion=DiffusionOptions(vae_tiling=True)
    )
    spec = get_preset("sd-1.5").diffusion
    assert spec is not None
    assert vae_workspace_bytes(tiled) == spec.vae_tile_px**2 * 256 * (3 * 2 + 4)
    # Outside generation (a diffusion model trained, a language model) nothing is named.
    assert vae_workspace_bytes(EstimateInput(model=get_preset("sd-1.5"), workload=Workload.LORA)) == 0
    assert vae_workspace_bytes(EstimateInput(model=get_preset("llama-3.2-3b"))) == 0
    assert not [
        n
        for n in estimate(EstimateInput(model=get_preset("llama-3.2-3b"))).not_modelled
        if n.key == "vae_conv_workspace"
    ]


def test_vae_conv_workspace_moves_nothing_where_the_denoise_is_the_peak() -> None:
    # Decision 0582: a smaller decode cannot lower a peak another phase sets. Wan 2.1 14B at its defaults peaks in the
    # denoise, a little above its decode, as it does at 2048 px: the low end stays at the band's own.
    for size in ({}, {"image_height": 2048, "image_width": 2048}):
        inp = _gen("wan2.1-t2v-14b", **size)
        result = estimate(inp)
        assert result.peak_phase == DENOISE
        assert vae_workspace_bytes(inp) > 0
        assert not [n for n in result.not_modelled if n.key == "vae_conv_workspace"]
        assert result.peak_low_bytes == bounds(inp, result.peak_bytes, (), result.not_modelled)[0]
        assert result.peak_low_bytes == bounds(inp, result.peak_bytes, (), ())[0]


def test_vae_conv_workspace_lowers_a_decode_peak_no_further_than_the_next_phase() -> None:
    # FLUX.1-dev, four images with a sliced decode: the decode is the peak, 2.17 GiB above the denoise, less than its
    # 2.5 GiB workspace share; the low end reaches down by that difference only.
    inp = _gen("flux.1-dev", batch_size=4, diffusion=DiffusionOptions(vae_slicing=True))
    result = estimate(inp)
    assert result.peak_phase == DECODE
    phases = {p.phase: p.bytes for p in result.phases}
    excess = phases[DECODE] - max(b for phase, b in phases.items() if phase != DECODE)
    assert excess == phases[DECODE] - phases[DENOISE]
    note = next(n for n in result.not_modelled if n.key == "vae_conv_workspace")
    assert note.high_bytes == excess < vae_workspace_bytes(inp)
    assert result.peak_bytes - note.high_bytes == phases[DENOISE]
    plain = bounds(inp, result.peak_bytes, (), ())
    assert result.peak_low_bytes == plain[0] - excess

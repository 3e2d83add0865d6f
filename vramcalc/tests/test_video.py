"""Video diffusion inference (decision 0223): latent frames, DiT tokens, the frame-batched 3D VAE decode."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from vramcalc import DiffusionOptions, DType, EstimateInput, InvalidInput, Precision, Workload, estimate
from vramcalc.calibration import bounds
from vramcalc.diffusion import DECODE, ENCODE, vae_workspace_bytes
from vramcalc.presets import get_preset
from vramcalc.video import frames, latent_frames, pass_frames, pixels

FP16 = Precision(weights=DType.FP16, compute=DType.FP16)


def _video(preset: str = "cogvideox-2b", **kwargs: Any) -> EstimateInput:
    return EstimateInput(model=get_preset(preset), workload=Workload.DIFFUSION, precision=FP16, **kwargs)


def test_defaults_and_latent_frames_of_the_causal_vae() -> None:
    inp = _video()
    spec = get_preset("cogvideox-2b").diffusion
    assert spec is not None
    assert (frames(inp, spec), latent_frames(inp, spec), pixels(inp, spec)) == (49, 13, (480, 720))
    assert latent_frames(_video(diffusion=DiffusionOptions(num_frames=81)), spec) == 21
    assert latent_frames(_video(diffusion=DiffusionOptions(num_frames=1)), spec) == 1


def test_denoiser_tokens_are_latent_frames_times_latent_patches_plus_the_prompt() -> None:
    result = estimate(_video(diffusion=DiffusionOptions(guidance=False)))
    tokens = 13 * (480 // 16) * (720 // 16) + 226
    assert result.bytes_of("activations") == tokens * 10 * 1920 * 2
    activations = result.component("activations")
    assert activations is not None
    assert "13 latent frames" in activations.assumption


def test_decode_working_set_is_one_pass_and_the_clip_is_kept() -> None:
    result = estimate(_video())
    working = 9 * 480 * 720 * 256 * ((6 + 3) * 2 + 4)  # 2 latent frames per pass: at most 9 frames
    clip = 2 * 49 * 480 * 720 * 3 * 2
    assert result.bytes_of("vae_decode") == working + clip
    longer = estimate(_video(diffusion=DiffusionOptions(num_frames=97)))
    assert longer.bytes_of("vae_decode") - result.bytes_of("vae_decode") == 2 * 48 * 480 * 720 * 3 * 2


def test_tiling_decodes_one_240x360_tile_per_pass() -> None:
    tiled = estimate(_video(diffusion=DiffusionOptions(vae_tiling=True)))
    assert tiled.bytes_of("vae_decode") == 9 * 240 * 360 * 256 * 22 + 2 * 49 * 480 * 720 * 3 * 2


def test_offload_peak_is_the_largest_phase_and_t5_keeps_wo_in_fp32() -> None:
    resident = estimate(_video())
    offload = estimate(_video(diffusion=DiffusionOptions(cpu_offload=True, vae_tiling=True)))
    assert offload.peak_bytes < resident.peak_bytes
    assert offload.peak_phase == ENCODE  # tiled decode is smaller than the fp16 T5-XXL
    assert resident.peak_phase == DECODE
    t5 = (4_762_310_656 - 1_006_632_960) * 2 + 1_006_632_960 * 4
    assert resident.bytes_of("text_encoder_weights") == t5


def test_eager_attention_adds_token_squared_scores() -> None:
    fused = estimate(_video())
    eager = estimate(_video(flash_attention=False))
    tokens = 13 * 30 * 45 + 226
    assert eager.bytes_of("activations") - fused.bytes_of("activations") == 2 * 30 * tokens * tokens * 2 * 2


def test_frames_on_an_image_model_and_video_training_are_refused() -> None:
    with pytest.raises(InvalidInput, match="video model"):
        EstimateInput(
            model=get_preset("sdxl-base-1.0"), workload=Workload.DIFFUSION, diffusion=DiffusionOptions(num_frames=16)
        )
    with pytest.raises(InvalidInput, match="not modelled"):
        EstimateInput(model=get_preset("cogvideox-2b"), workload=Workload.LORA)
    with pytest.raises(InvalidInput):
        DiffusionOptions(num_frames=-1)


def test_image_models_are_unchanged_by_the_video_path() -> None:
    spec = get_preset("sdxl-base-1.0").diffusion
    assert spec is not None
    assert not spec.is_video
    inp = EstimateInput(model=get_preset("sdxl-base-1.0"), workload=Workload.DIFFUSION)
    assert (frames(inp, spec), latent_frames(inp, spec), pixels(inp, spec)) == (1, 1, (1024, 1024))


def test_video_layout_validation() -> None:
    spec = get_preset("cogvideox-2b").diffusion
    assert spec is not None
    with pytest.raises(InvalidInput) as error:
        replace(spec, temporal_compression=-1)
    assert error.value.field == "model.diffusion.temporal_compression"
    with pytest.raises(InvalidInput) as error:
        replace(spec, vae_tile_width_px=-1)
    assert error.value.field == "model.diffusion.vae_tile_width_px"
    with pytest.raises(InvalidInput, match="a video model is a DiT"):
        replace(spec, default_frames=0)


def test_a_vae_that_decodes_the_whole_clip_at_once_holds_every_frame_in_its_pass() -> None:
    spec = get_preset("cogvideox-2b").diffusion
    assert spec is not None
    whole = replace(spec, vae_decode_latent_frames=0)
    inp = _video()
    assert pass_frames(inp, whole) == frames(inp, whole) == 49
    assert pass_frames(inp, spec) < 49


@pytest.mark.parametrize(
    ("preset", "dim", "ffn", "layers", "expected"),
    [("wan2.1-t2v-1.3b", 1536, 8960, 30, 1_418_996_800), ("wan2.1-t2v-14b", 5120, 13824, 40, 14_288_491_584)],
)
def test_wan_presets_count_their_config_and_decode_one_latent_frame_a_pass(
    preset: str, dim: int, ffn: int, layers: int, expected: int
) -> None:
    """Decision 0522: WanTransformer3DModel's blocks and embedders counted from transformer/config.json, UMT5-XXL's
    encoder from text_encoder/config.json; AutoencoderKLWan decodes one latent frame a pass (5 frames at most)."""
    block = 2 * 4 * (dim * dim + dim) + 4 * dim + 2 * dim + 2 * dim * ffn + ffn + dim + 6 * dim
    embedders = 64 * dim + dim + 256 * dim + dim * dim + 2 * dim + 6 * dim * dim + 6 * dim
    embedders += 4096 * dim + dim * dim + 2 * dim + 64 * dim + 64 + 2 * dim
    spec = get_preset(preset).diffusion
    assert spec is not None
    assert spec.denoiser_params == layers * block + embedders == expected
    umt5_layer = 4 * 4096 * 4096 + 32 * 64 + 3 * 4096 * 10240 + 2 * 4096
    assert spec.text_encoder_params == (256384 * 4096 + 24 * umt5_layer + 4096,)
    inp = _video(preset)
    assert (frames(inp, spec), latent_frames(inp, spec), pixels(inp, spec)) == (81, 21, (480, 832))
    assert pass_frames(inp, spec) == 5
    decode = estimate(inp).component("vae_decode")
    assert decode is not None
    assert "5 frames per pass x 480x832 px x 192 ch" in decode.formula


def test_vae_conv_workspace_of_a_video_decode_reaches_the_estimate_and_its_low_end() -> None:
    # Decision 0578: a video model's 3D VAE counts the workspace share over one decoder pass; decision 0582: it moves
    # a decode-peaked estimate's low end by its size (CogVideoX-2B's decode is far above its denoise), and the
    # expected value and the high end not at all.
    for tiling in (False, True):
        inp = _video(diffusion=DiffusionOptions(vae_tiling=tiling))
        result = estimate(inp)
        assert result.peak_phase == DECODE
        note = next(n for n in result.not_modelled if n.key == "vae_conv_workspace")
        assert (note.direction, note.low_bytes) == (-1, 0)
        assert note.high_bytes == vae_workspace_bytes(inp) > 0
        plain = bounds(inp, result.peak_bytes, (), ())
        assert result.peak_low_bytes == plain[0] - note.high_bytes
        assert result.peak_high_bytes == plain[1]
    untiled = vae_workspace_bytes(_video())
    assert vae_workspace_bytes(_video(diffusion=DiffusionOptions(vae_tiling=True))) < untiled

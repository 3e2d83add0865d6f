"""Image-to-image and inpainting encode the input image first (decision 0465); a server's fused-MoE caches."""

from __future__ import annotations

from typing import Any

import pytest

from vramcalc import InvalidInput, estimate
from vramcalc.diffusion import IMAGE_ENCODE, VAE_BATCH_TENSORS, VAE_FP32_TENSORS, VAE_HALF_TENSORS
from vramcalc.serialize import inputs_from_dict


def _sdxl(**diffusion: Any) -> Any:
    return inputs_from_dict(
        {
            "model": "sdxl-base-1.0",
            "workload": "diffusion",
            "precision": {"weights": "fp16", "compute": "fp16"},
            "batch_size": 2,
            "image_height": 1024,
            "image_width": 1024,
            "diffusion": diffusion,
        }
    )


@pytest.mark.parametrize("task", ["image_to_image", "inpainting"])
def test_the_input_image_is_encoded_in_its_own_phase(task: str) -> None:
    result = estimate(_sdxl(task=task))
    encode = result.component("vae_encode")
    assert encode is not None
    assert encode.phases == (IMAGE_ENCODE,)
    # SDXL's pipelines upcast the fp16 VAE to fp32 (force_upcast); the second image adds three tensors (decision 0533)
    vae_params = 83653863
    first = 1024 * 1024 * 128 * (VAE_HALF_TENSORS * 4 + VAE_FP32_TENSORS * 4)
    assert encode.bytes == first + 1024 * 1024 * 128 * VAE_BATCH_TENSORS * 4 + vae_params * 2
    assert next(p.phase for p in result.phases) == IMAGE_ENCODE
    assert str(encode.assumption).startswith({"image_to_image": "Image-to-image:", "inpainting": "Inpainting:"}[task])
    weights = result.component("vae_weights")
    assert weights is not None
    assert IMAGE_ENCODE in weights.phases
    assert estimate(_sdxl()).component("vae_encode") is None


def test_tiling_slicing_and_offload_apply_to_the_encode() -> None:
    inp = inputs_from_dict(
        {
            "model": "sdxl-base-1.0",
            "workload": "diffusion",
            "batch_size": 2,
            "image_height": 4096,
            "image_width": 4096,
            "diffusion": {"task": "image_to_image", "vae_tiling": True, "vae_slicing": True},
        }
    )
    tiled = estimate(inp).component("vae_encode")
    tile = inp.model.diffusion.vae_tile_px  # type: ignore[union-attr]
    assert tiled is not None
    assert tile < 4096
    assert tiled.bytes == tile * tile * 128 * (VAE_HALF_TENSORS * 2 + VAE_FP32_TENSORS * 4)
    offload = estimate(_sdxl(task="inpainting", cpu_offload=True))
    vae = offload.component("vae_weights")
    assert vae is not None
    assert vae.phases == (IMAGE_ENCODE, "vae_decode")
    text_encoders = offload.component("text_encoder_weights")
    assert text_encoders is not None
    assert text_encoders.phases == ("text_encode",)


@pytest.mark.parametrize(
    "data",
    [
        {"model": "llama-3.1-8b", "diffusion": {"task": "image_to_image"}},
        {"model": "cogvideox-2b", "workload": "diffusion", "diffusion": {"task": "image_to_image"}},
        {"model": "sd-1.5", "workload": "lora", "diffusion": {"task": "inpainting"}},
    ],
)
def test_an_input_image_needs_an_image_generation(data: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput) as raised:
        inputs_from_dict(data)
    assert raised.value.field == "diffusion.task"


def test_a_server_counts_the_fused_moe_caches_per_routed_token() -> None:
    def workspace(engine: str) -> int:
        return estimate(inputs_from_dict({"model": "qwen3-30b-a3b", "runtime": {"engine": engine}})).bytes_of(
            "workspace"
        )

    served = inputs_from_dict({"model": "qwen3-30b-a3b", "runtime": {"engine": "vllm"}})
    moe, h = served.model.moe, served.model.hidden_size
    assert moe is not None
    routed = moe.experts_per_token * (3 * moe.expert_intermediate_size + h)
    heads = served.model.num_attention_heads * served.model.dim_per_head
    per_token = 2 * h + max(2 * heads + 2 * served.model.kv_heads * served.model.dim_per_head, routed)
    assert workspace("vllm") == 8192 * per_token * 2
    assert workspace("transformers") < workspace("vllm")

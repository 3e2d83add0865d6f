"""T5's ``_keep_in_fp32_modules = ["wo"]``: which loads keep the FFN output projections in fp32."""

from __future__ import annotations

import dataclasses
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
from vramcalc.model import DiffusionSpec
from vramcalc.presets import get_preset

T5_XXL_WO = 24 * 10240 * 4096


def _text_bytes(preset: str, **kwargs: Any) -> int:
    result = estimate(EstimateInput(model=get_preset(preset), workload=Workload.DIFFUSION, **kwargs))
    return result.bytes_of("text_encoder_weights")


def test_presets_with_t5_xxl_declare_its_wo_weights() -> None:
    for preset in ("flux.1-dev", "flux.1-schnell", "sd3-medium"):
        spec = get_preset(preset).diffusion
        assert spec is not None
        assert spec.text_encoder_fp32_params == T5_XXL_WO == 1_006_632_960


def test_bitsandbytes_text_encoders_keep_wo_in_fp32() -> None:
    for method in (QuantMethod.BNB_NF4, QuantMethod.BNB_INT8):
        quantized = _text_bytes(
            "flux.1-dev", quantization=Quantization(method), diffusion=DiffusionOptions(quantize_text_encoders=True)
        )
        bf16 = _text_bytes("flux.1-dev")
        # wo alone is 3.75 GiB in fp32: more than a quarter of the bf16 encoders, whatever the 4/8-bit rest
        assert quantized > T5_XXL_WO * 4
        assert quantized < bf16


def test_fp16_load_keeps_wo_in_fp32_and_bf16_does_not() -> None:
    fp16 = _text_bytes("sd3-medium", precision=Precision(weights=DType.FP16, compute=DType.FP16))
    bf16 = _text_bytes("sd3-medium", precision=Precision(weights=DType.BF16, compute=DType.BF16))
    assert fp16 - bf16 == T5_XXL_WO * 2


def test_cast_after_loading_converts_wo_too() -> None:
    fp16 = Precision(weights=DType.FP16, compute=DType.FP16)
    fp8 = _text_bytes(
        "sd3-medium",
        precision=fp16,
        quantization=Quantization(QuantMethod.FP8),
        diffusion=DiffusionOptions(quantize_text_encoders=True),
    )
    spec = get_preset("sd3-medium").diffusion
    assert spec is not None
    assert fp8 < sum(spec.text_encoder_params) * 11 // 10  # about 1 B per parameter, nothing left in fp32


def test_text_encoder_explanation_names_the_fp32_modules() -> None:
    result = estimate(
        EstimateInput(
            model=get_preset("flux.1-dev"),
            workload=Workload.DIFFUSION,
            quantization=Quantization(QuantMethod.BNB_NF4),
            diffusion=DiffusionOptions(quantize_text_encoders=True),
        )
    )
    component = result.component("text_encoder_weights")
    assert component is not None
    assert "_keep_in_fp32_modules" in component.assumption


def test_fp16_diffusion_training_counts_wo_in_fp32() -> None:
    model = get_preset("sd3-medium")
    fp16 = Precision(weights=DType.FP16, compute=DType.FP16)
    with_wo = estimate(EstimateInput(model=model, workload=Workload.LORA, precision=fp16))
    spec = model.diffusion
    assert spec is not None
    without = dataclasses.replace(model, diffusion=dataclasses.replace(spec, text_encoder_fp32_params=0))
    plain = estimate(EstimateInput(model=without, workload=Workload.LORA, precision=fp16))
    assert with_wo.bytes_of("text_encoder_weights") - plain.bytes_of("text_encoder_weights") == T5_XXL_WO * 2


def test_fp32_params_cannot_exceed_the_largest_encoder() -> None:
    with pytest.raises(InvalidInput) as err:
        DiffusionSpec(
            denoiser_params=10,
            denoiser_kind="dit",
            denoiser_hidden=8,
            denoiser_heads=1,
            vae_params=10,
            text_encoder_params=(100,),
            text_encoder_fp32_params=101,
        )
    assert err.value.field == "model.diffusion.text_encoder_fp32_params"

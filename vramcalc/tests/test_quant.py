"""Quantized storage: reproduces published checkpoint sizes (estimator.md §1.2, cases W08-W12, Z07)."""

from __future__ import annotations

import pytest

from vramcalc import EstimateInput, estimate
from vramcalc.architecture import LinearShape
from vramcalc.components.weights import model_weight_bytes
from vramcalc.options import Quantization, QuantMethod
from vramcalc.presets import get_preset
from vramcalc.quant import _nf4, linear_bytes, quantized_role_bytes, storage_note


@pytest.mark.parametrize(
    ("preset", "group", "formula_gb"),
    [
        ("llama-2-7b", 128, 3.894),
        ("llama-2-7b", 32, 4.273),
        ("mistral-7b-v0.1", 128, 4.156),
        ("llama-2-13b", 128, 7.255),
        ("llama-2-13b", 32, 7.998),
    ],
)
def test_gptq_weight_bytes_reproduce_thebloke_file_sizes(preset: str, group: int, formula_gb: float) -> None:
    weights = model_weight_bytes(get_preset(preset), 2, Quantization(QuantMethod.GPTQ, bits=4, group_size=group))
    assert weights.total / 1e9 == pytest.approx(formula_gb, abs=0.001)


def test_gptq_layer_bytes_by_hand() -> None:
    shape = LinearShape("q", 4096, 4096, 1)
    expected = 4096 * 4096 // 2 + 32 * 4096 * 2 + 32 * 4096 // 2 + 4096 * 4
    assert linear_bytes(shape, Quantization(QuantMethod.GPTQ, 4, 128), 2) == expected
    awq = expected - 4096 * 4  # AWQ stores no g_idx
    assert linear_bytes(shape, Quantization(QuantMethod.AWQ, 4, 128), 2) == awq


def test_gptq_per_column_group_has_one_group() -> None:
    shape = LinearShape("q", 256, 8, 1)
    per_column = linear_bytes(shape, Quantization(QuantMethod.GPTQ, 4, None), 2)
    assert per_column == 256 * 8 // 2 + 8 * 2 + 4 + 256 * 4


def test_nf4_double_quant_saves_about_3_gb_on_65b() -> None:
    params = 65_200_000_000
    saved = _nf4(params, double_quant=False) - _nf4(params, double_quant=True)
    assert saved / 1e9 == pytest.approx(3.03, rel=0.01)  # QLoRA paper, case Z07


def test_nf4_bits_per_weight() -> None:
    n = 64 * 256 * 100
    assert _nf4(n, False) * 8 / n == pytest.approx(4.5)
    assert _nf4(n, True) * 8 / n == pytest.approx(4.127, abs=0.001)


@pytest.mark.parametrize(
    ("quant", "bits_per_weight"),
    [
        (Quantization(QuantMethod.GGUF, gguf_type="q4_0"), 4.5),
        (Quantization(QuantMethod.GGUF, gguf_type="q8_0"), 8.5),
        (Quantization(QuantMethod.GGUF, gguf_type="q4_k"), 4.5),
        (Quantization(QuantMethod.GGUF, gguf_type="q6_k"), 6.5625),
        (Quantization(QuantMethod.GGUF, gguf_type="q2_k"), 2.625),
        (Quantization(QuantMethod.MXFP4), 4.25),
        (Quantization(QuantMethod.NVFP4), 4.5),
        (Quantization(QuantMethod.INT4_WEIGHT_ONLY), 4.25),
    ],
)
def test_block_formats_bits_per_weight(quant: Quantization, bits_per_weight: float) -> None:
    shape = LinearShape("up", 4096, 4096, 1)
    assert linear_bytes(shape, quant, 2) * 8 / (4096 * 4096) == pytest.approx(bits_per_weight, abs=0.001)


def test_per_row_scaled_formats_add_fp32_per_row() -> None:
    shape = LinearShape("up", 1024, 512, 2)
    for method in (QuantMethod.FP8, QuantMethod.BNB_INT8, QuantMethod.INT8_WEIGHT_ONLY):
        assert linear_bytes(shape, Quantization(method), 2) == 2 * (1024 * 512 + 512 * 4)


def test_unquantized_linear_bytes_use_dense_size() -> None:
    assert linear_bytes(LinearShape("up", 10, 10, 3), Quantization(), 4) == 1200


def test_gguf_mix_upgrades_half_of_v_and_down() -> None:
    shapes = (LinearShape("v", 256, 256, 4), LinearShape("q", 256, 256, 4))
    mixed = quantized_role_bytes(shapes, Quantization(QuantMethod.GGUF, gguf_type="q4_k_m"), 2)
    block = 256 * 256 // 256
    assert mixed == block * (2 * 210 + 2 * 144) + block * 4 * 144


def test_mxfp4_converts_only_experts_of_moe_models() -> None:
    shapes = (LinearShape("q", 256, 256, 1), LinearShape("expert_up", 256, 256, 1), LinearShape("router", 256, 4, 1))
    size = quantized_role_bytes(shapes, Quantization(QuantMethod.MXFP4), 2)
    assert size == 256 * 256 * 2 + 256 * 256 * 17 // 32


def test_gguf_weights_quantize_embeddings_and_keep_q6k_head_for_mixes() -> None:
    model = get_preset("llama-2-7b")
    q40 = model_weight_bytes(model, 2, Quantization(QuantMethod.GGUF, gguf_type="q4_0"))
    assert q40.embedding == 2 * 32000 * 4096 * 18 // 32
    mix = model_weight_bytes(model, 2, Quantization(QuantMethod.GGUF, gguf_type="q4_k_m"))
    assert mix.embedding == 32000 * 4096 * (144 + 210) // 256
    tied = model_weight_bytes(get_preset("llama-3.2-1b"), 2, Quantization(QuantMethod.GGUF, gguf_type="q8_0"))
    assert tied.embedding == 128256 * 2048 * 34 // 32


def test_storage_notes_name_the_format() -> None:
    for method in QuantMethod:
        note = storage_note(Quantization(method))
        assert note
    assert "double" in storage_note(Quantization(QuantMethod.BNB_NF4, double_quant=True))
    assert "per-column" in storage_note(Quantization(QuantMethod.AWQ, group_size=None))


@pytest.mark.parametrize("method", [QuantMethod.BNB_NF4, QuantMethod.BNB_INT8])
def test_bitsandbytes_quantizes_the_vision_tower_at_load(method: QuantMethod) -> None:
    # bitsandbytes replaces every linear of the model as transformers loads it, the vision tower's too (decision 0535).
    model = get_preset("llava-1.5-7b")
    params = model.vision_encoder_params
    quant = Quantization(method)
    vision = estimate(EstimateInput(model=model, quantization=quant)).component("vision_encoder_weights")
    assert vision is not None
    assert vision.bytes == linear_bytes(LinearShape("vision", params, 1, 1), quant, 2) < params * 2
    assert str(vision.assumption).startswith("Quantized by bitsandbytes")


def test_a_checkpoint_quantized_beforehand_keeps_the_vision_tower_in_the_weights_dtype() -> None:
    model = get_preset("llava-1.5-7b")
    gptq = Quantization(QuantMethod.GPTQ, bits=4, group_size=128)
    vision = estimate(EstimateInput(model=model, quantization=gptq)).component("vision_encoder_weights")
    assert vision is not None
    assert vision.bytes == model.vision_encoder_params * 2
    assert str(vision.assumption).startswith("Kept in the weights dtype")

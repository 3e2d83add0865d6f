"""The preset library parses, is large enough, and every preset estimates for its workloads."""

from __future__ import annotations

import pytest

from vramcalc import EstimateInput, InvalidInput, ModelKind, Quantization, QuantMethod, Workload, estimate
from vramcalc.presets import get_preset, list_presets


def test_library_has_at_least_30_real_architectures_across_workloads() -> None:
    presets = list_presets()
    assert len(presets) >= 30
    kinds = {p.model.kind for p in presets}
    assert kinds == set(ModelKind)
    ids = [p.id for p in presets]
    assert len(ids) == len(set(ids))
    for required in (
        "llama-3.1-8b",
        "mistral-7b-v0.1",
        "mixtral-8x7b",
        "qwen2.5-7b",
        "gemma-2-9b",
        "deepseek-v3",
        "phi-4",
        "gpt-oss-20b",
        "bert-base-cased",
        "t5-3b",
        "vit-base-patch16-224",
        "vit-large-patch16-224",
        "vit-huge-patch14-224",
        "sd-1.5",
        "sdxl-base-1.0",
        "flux.1-dev",
    ):
        assert required in ids


@pytest.mark.parametrize("preset", [p.id for p in list_presets()])
def test_each_preset_estimates_for_each_of_its_workloads(preset: str) -> None:
    entry = next(p for p in list_presets() if p.id == preset)
    assert entry.source
    for workload in entry.workloads:
        quant = Quantization(QuantMethod.BNB_NF4) if workload == "qlora" else Quantization()
        inp = EstimateInput(model=entry.model, workload=Workload(workload), seq_len=512, quantization=quant)
        assert estimate(inp).peak_bytes > 0


def test_unknown_preset_names_the_model_field() -> None:
    with pytest.raises(InvalidInput) as info:
        get_preset("gpt-5")
    assert info.value.field == "model"


def test_whisper_and_qwen2_vl_presets_match_their_public_sizes() -> None:
    from vramcalc.architecture import param_counts

    whisper = get_preset("whisper-large-v3")
    assert whisper.kind is ModelKind.ENCODER_DECODER
    assert abs(param_counts(whisper).total - 1_550_000_000) < 0.02 * 1_550_000_000  # model card: 1550M
    qwen = get_preset("qwen2-vl-7b")
    total = param_counts(qwen).total + qwen.vision_encoder_params
    assert abs(total - 8_290_000_000) < 0.01 * 8_290_000_000  # Qwen2-VL-7B: 8.29B with the vision tower
    assert qwen.image_tokens == (448 // 28) ** 2

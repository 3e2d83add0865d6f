from __future__ import annotations

import dataclasses

import pytest

from vramcalc.architecture import LinearShape, linear_shapes, param_counts
from vramcalc.presets import get_preset, list_presets


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("llama-2-7b", 6_738_415_616),
        ("llama-3.1-8b", 8_030_261_248),
        ("llama-3.1-70b", 70_553_706_496),
        ("llama-3.1-405b", 405_853_388_800),
        ("llama-3.2-1b", 1_235_814_400),
        ("mixtral-8x7b", 46_702_792_704),
        ("phi-4", 14_659_507_200),
        ("t5-3b", 2_851_598_336),
    ],
)
def test_param_counts_derived_from_architecture_match_checkpoints(preset: str, expected: int) -> None:
    model = dataclasses.replace(get_preset(preset), param_count=None)
    assert abs(param_counts(model).total - expected) / expected < 1e-4


def test_param_counts_every_transformer_preset_within_2_percent_of_its_checkpoint() -> None:
    for preset in list_presets():
        model = preset.model
        if model.param_count is None:
            continue
        derived = param_counts(dataclasses.replace(model, param_count=None)).total
        assert abs(derived - model.param_count) / model.param_count < 0.02, preset.id


def test_param_counts_split_llama_into_linear_embedding_other() -> None:
    counts = param_counts(get_preset("llama-2-7b"))
    assert counts.embedding == 2 * 32000 * 4096
    assert counts.linear == 32 * (4 * 4096 * 4096 + 3 * 4096 * 11008)
    assert counts.other == counts.total - counts.linear - counts.embedding
    assert counts.largest_layer == 4 * 4096 * 4096 + 3 * 4096 * 11008  # one block beats the embedding


def test_linear_shapes_mla_and_moe_roles() -> None:
    roles = {s.role for s in linear_shapes(get_preset("deepseek-v3"))}
    assert {"q_a", "q", "kv_a", "kv_b", "o", "gate", "expert_gate", "router"} <= roles
    counts = param_counts(get_preset("deepseek-v3"))
    assert counts.largest_layer > 10 * counts.per_layer // 10  # a MoE block is the largest unit


def test_linear_shapes_encoder_decoder_has_cross_attention() -> None:
    shapes = linear_shapes(get_preset("t5-3b"))
    cross = [s for s in shapes if s.role == "cross"]
    assert sum(s.count for s in cross) == 4 * 24


def test_linear_shape_params() -> None:
    assert LinearShape("q", 2, 3, 4).params == 24


def test_param_counts_vision_counts_patch_embedding() -> None:
    model = dataclasses.replace(get_preset("vit-base-patch16-224"), param_count=None)
    assert param_counts(model).embedding == 3 * 16 * 16 * 768

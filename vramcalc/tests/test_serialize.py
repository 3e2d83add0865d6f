"""Plain-dict round trip for the web form/API."""

from __future__ import annotations

import json
from typing import Any

import pytest

from vramcalc import EstimateInput, InvalidInput, ParallelPlan, Strategy, Workload
from vramcalc.dictconv import from_dict, to_dict
from vramcalc.model import ModelSpec
from vramcalc.presets import get_preset
from vramcalc.serialize import inputs_from_dict, inputs_to_dict


def test_round_trip_through_json_is_identity() -> None:
    inp = EstimateInput(
        model=get_preset("deepseek-v3"),
        workload=Workload.INFERENCE,
        context_len=4096,
        parallel=ParallelPlan(strategy=Strategy.SINGLE, cards=8, tensor_parallel=8),
    )
    data = json.loads(json.dumps(inputs_to_dict(inp)))
    assert inputs_from_dict(data) == inp
    diffusion = EstimateInput(model=get_preset("sdxl-base-1.0"), workload=Workload.DIFFUSION)
    assert inputs_from_dict(json.loads(json.dumps(inputs_to_dict(diffusion)))) == diffusion


def test_preset_name_and_model_object_are_accepted() -> None:
    inp = inputs_from_dict({"model": "Llama-3.1-8B", "workload": "lora", "lora": {"rank": 16, "targets": "qv"}})
    assert inp.model.name == "llama-3.1-8b"
    assert inp.lora.rank == 16
    spec = get_preset("llama-2-7b")
    assert inputs_from_dict({"model": spec}).model is spec


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"model": "llama-3.1-8b", "batch": 2}, "batch"),
        ({"model": "llama-3.1-8b", "workload": "painting"}, "workload"),
        ({"model": "llama-3.1-8b", "batch_size": "2"}, "batch_size"),
        ({"model": "llama-3.1-8b", "batch_size": True}, "batch_size"),
        ({"model": "llama-3.1-8b", "flash_attention": 1}, "flash_attention"),
        ({"model": "llama-3.1-8b", "parallel": 3}, "parallel"),
        ({"model": "llama-3.1-8b", "parallel": {"cards": 2, "tensor_parallel": 3}}, "parallel.tensor_parallel"),
        ({"model": "llama-3.1-8b", "parallel": {"strategy": "zero9"}}, "parallel.strategy"),
        ({"model": "no-such-model"}, "model"),
        ({"model": 3}, "model"),
        ({"model": {"name": "x", "num_layers": 2, "hidden_size": "big"}}, "model.hidden_size"),
        ({"model": {"name": 3}}, "model.name"),
        ({"model": {"num_layers": 2}}, "model"),
        ({"model": {"name": "x", "diffusion": 5}}, "model.diffusion"),
        (
            {
                "model": {
                    "name": "x",
                    "kind": "diffusion",
                    "diffusion": {
                        "denoiser_params": 1,
                        "denoiser_kind": "unet",
                        "denoiser_hidden": 1,
                        "denoiser_heads": 1,
                        "vae_params": 1,
                        "text_encoder_params": 5,
                    },
                }
            },
            "model.diffusion.text_encoder_params",
        ),
    ],
)
def test_bad_dicts_name_the_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        inputs_from_dict(data)
    assert info.value.field == field


def test_non_mapping_input_is_rejected() -> None:
    with pytest.raises(InvalidInput):
        inputs_from_dict([])  # type: ignore[arg-type]


def test_generic_helpers() -> None:
    with pytest.raises(TypeError):
        to_dict(3)
    model = from_dict(
        ModelSpec,
        {
            "name": "x",
            "num_layers": 1,
            "hidden_size": 8,
            "num_attention_heads": 2,
            "intermediate_size": 8,
            "vocab_size": 10,
            "num_kv_heads": None,
        },
    )
    assert model.num_kv_heads is None


def test_unknown_nested_field_is_named() -> None:
    with pytest.raises(InvalidInput) as info:
        inputs_from_dict({"model": "llama-3.1-8b", "parallel": {"gpus": 2}})
    assert info.value.field == "parallel.gpus"

"""Autocast's cached 16-bit weight copies in a forward pass with fp32 weights (engine 0.3.23)."""

from __future__ import annotations

from typing import Any

import pytest

from vramcalc import estimate
from vramcalc.architecture import param_counts
from vramcalc.presets import get_preset
from vramcalc.serialize import inputs_from_dict


def _infer(**fields: Any) -> dict[str, Any]:
    return {"model": "llama-3.2-1b", "workload": "inference", "seq_len": 256, **fields}


def test_fp32_weights_under_bf16_autocast_hold_a_copy_of_every_linear_weight() -> None:
    """PyTorch's ``cached_cast`` keeps the cast of each fp32 leaf that requires grad until the autocast region ends,
    whatever the grad mode: by the end of one forward pass every linear weight has its 16-bit copy."""
    result = estimate(inputs_from_dict(_infer(precision={"weights": "fp32", "compute": "bf16"})))
    copies = result.component("autocast_copies")
    assert copies is not None
    assert copies.bytes == param_counts(get_preset("llama-3.2-1b")).linear * 2
    assert copies.phases == ("serving",)
    assert str(copies.assumption) == (
        "Autocast keeps the 16-bit cast of each fp32 weight until its region ends, under no_grad too."
    )


@pytest.mark.parametrize(
    "fields",
    [
        {"precision": {"weights": "fp32", "compute": "fp32"}},
        {"precision": {"weights": "bf16", "compute": "bf16"}},
        {"precision": {"weights": "fp32", "compute": "bf16"}, "runtime": {"engine": "vllm"}},
        {"precision": {"weights": "fp32", "compute": "bf16"}, "quantization": {"method": "bnb_nf4"}},
    ],
)
def test_no_copies_without_autocast_over_fp32_weights(fields: dict[str, Any]) -> None:
    assert estimate(inputs_from_dict(_infer(**fields))).component("autocast_copies") is None


def test_tensor_parallel_divides_the_copies() -> None:
    one = estimate(inputs_from_dict(_infer(precision={"weights": "fp32", "compute": "bf16"})))
    two = estimate(
        inputs_from_dict(
            _infer(
                precision={"weights": "fp32", "compute": "bf16"},
                parallel={"strategy": "ddp", "cards": 2, "tensor_parallel": 2},
            )
        )
    )
    assert two.bytes_of("autocast_copies") == one.bytes_of("autocast_copies") // 2

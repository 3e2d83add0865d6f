"""A packed vision encoder's dense attention mask under transformers (decision 0501)."""

from __future__ import annotations

from typing import Any

from vramcalc import estimate
from vramcalc.infer import vision_mask_bytes
from vramcalc.serialize import inputs_from_dict


def _serve(engine: str = "transformers", **fields: Any) -> Any:
    data = {"model": "qwen2-vl-7b", "workload": "inference", "seq_len": 64, "images_per_sequence": 4, **fields}
    return inputs_from_dict({**data, "runtime": {"engine": engine}})


def test_the_mask_covers_every_patch_of_the_batch_in_bool_and_the_compute_dtype() -> None:
    inp = _serve(batch_size=2)
    patches = 2 * 4 * 256 * 4  # sequences x images x image tokens x patches per token
    assert vision_mask_bytes(inp) == patches * patches * (1 + 2)
    result = estimate(inp)
    mask = result.component("vision_attention_mask")
    assert mask is not None
    assert mask.bytes == vision_mask_bytes(inp)
    assert "8,192 patches" in str(mask.assumption)
    note = next(n for n in result.not_modelled if n.key == "vision_mask_flash_attention")
    assert (note.low_bytes, note.high_bytes, note.direction) == (0, mask.bytes, 0)


def test_no_mask_on_a_server_without_images_or_for_an_encoder_that_runs_images_one_by_one() -> None:
    assert vision_mask_bytes(_serve(engine="vllm")) == 0
    assert vision_mask_bytes(_serve(images_per_sequence=0)) == 0
    llava = inputs_from_dict({"model": "llava-1.5-7b", "workload": "inference", "images_per_sequence": 1})
    assert vision_mask_bytes(llava) == 0
    assert estimate(llava).component("vision_attention_mask") is None
    assert all(n.key != "vision_mask_flash_attention" for n in estimate(llava).not_modelled)

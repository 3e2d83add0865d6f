"""Every numeric input has a range, declared once on its field (decision 0374, issue 32: 10^30 cards were accepted).

Out of range is an `InvalidInput` naming the field, however the input is built; the bounds leave every real
workload in; the CLI refuses the same values and says each flag's range.
"""

from __future__ import annotations

import dataclasses
import io
import typing
from pathlib import Path
from typing import Any

import pytest

from vramcalc import EstimateInput, InvalidInput, estimate
from vramcalc.capacity import min_cards
from vramcalc.cli import build_parser
from vramcalc.cli import main as vramcalc_main
from vramcalc.dictconv import to_dict, type_hints
from vramcalc.option_schema import input_ranges, option_range, options
from vramcalc.presets import get_preset
from vramcalc.ranges import field_range
from vramcalc.serialize import inputs_from_dict

README = Path(__file__).resolve().parents[1] / "README.md"
RANGES = dict(input_ranges())


def _numeric_fields(cls: type, prefix: str) -> list[str]:
    """Every int, optional int or tuple-of-int field under `cls`, as a dotted path (nested dataclasses walked)."""
    hints = type_hints(cls)
    found: list[str] = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        args = typing.get_args(hint)
        nested = next((a for a in (*args, hint) if isinstance(a, type) and dataclasses.is_dataclass(a)), None)
        if nested is not None:
            found += _numeric_fields(nested, f"{prefix}{f.name}.")
        elif hint is int or int in args:
            assert field_range(cls, f.name) is not None, f"{prefix}{f.name} has no range"
            found.append(prefix + f.name)
    return found


def test_every_numeric_input_declares_a_range():
    fields = _numeric_fields(EstimateInput, "")
    assert len(fields) > 60
    assert {path.removesuffix("[i]") for path in RANGES} == set(fields)


# A preset that has each part of a model, to change one of its numbers.
PRESET_WITH = {"model.moe.": "mixtral-8x7b", "model.mla.": "deepseek-v3", "model.diffusion.": "sdxl-base-1.0"}


def _body_with(path: str, value: int) -> tuple[dict[str, Any], str]:
    """An input body with the number at `path` set to `value`, and the field the refusal must name."""
    name = path.removesuffix("[i]")
    if not path.startswith("model."):
        body: dict[str, Any] = {"model": "llama-3.1-8b"}
        *parents, leaf = name.split(".")
        target = body
        for key in parents:
            target = target.setdefault(key, {})
        target[leaf] = value
        return body, name
    preset = next((p for prefix, p in PRESET_WITH.items() if path.startswith(prefix)), "llama-3.1-8b")
    model = to_dict(get_preset(preset))
    *parents, leaf = name.removeprefix("model.").split(".")
    target = model
    for key in parents:
        target = target[key]
    if path.endswith("[i]"):
        target[leaf] = [value, *(target[leaf] or [1])[1:]]
        return {"model": model}, f"{name}[0]"
    target[leaf] = value
    return {"model": model}, name


@pytest.mark.parametrize("path", sorted(RANGES))
def test_a_number_just_outside_its_range_is_refused_naming_the_field(path):
    bounds = RANGES[path]
    for value in (bounds.minimum - 1, bounds.maximum + 1):
        body, field = _body_with(path, value)
        with pytest.raises(InvalidInput) as refused:
            inputs_from_dict(body)
        assert (refused.value.field, refused.value.message) == (field, f"must be within {bounds}")


def test_ten_to_the_thirty_cards_are_refused_as_the_issue_found():
    with pytest.raises(InvalidInput) as refused:
        inputs_from_dict({"model": "llama-3.1-70b", "parallel": {"strategy": "ddp", "cards": 10**30}})
    assert str(refused.value) == "parallel.cards: must be within 1..65536"


@pytest.mark.parametrize(
    "body",
    [
        # Llama 3 405B pre-training: 16,384 cards, tensor parallel 8, 8k sequences (its paper's largest run).
        {
            "model": "llama-3.1-405b",
            "workload": "full_finetune",
            "seq_len": 8192,
            "training": {"activation_checkpointing": True},
            "parallel": {"strategy": "fsdp", "cards": 16_384, "tensor_parallel": 8},
        },
        # A 10M-token context (Llama 4 Scout's), served on 8 cards.
        {
            "model": "llama-3.1-8b",
            "context_len": 10_000_000,
            "parallel": {"strategy": "single", "cards": 8, "tensor_parallel": 8},
        },
        # A busy vLLM server: 4,096 requests held, 65,536 tokens per step.
        {
            "model": "llama-3.1-8b",
            "concurrent_sequences": 4096,
            "runtime": {"engine": "vllm", "max_num_seqs": 4096, "max_num_batched_tokens": 65_536},
        },
        # An 8K image.
        {"model": "sdxl-base-1.0", "workload": "diffusion", "image_height": 8192, "image_width": 8192},
    ],
)
def test_real_large_workloads_are_inside_the_ranges(body):
    assert estimate(inputs_from_dict(body)).peak_bytes > 0


def test_the_capacity_questions_have_their_ranges_too():
    inp = inputs_from_dict({"model": "llama-3.1-8b"})
    with pytest.raises(InvalidInput) as refused:
        min_cards(inp, 80 * 2**30, max_cards=10**30)
    assert str(refused.value) == "max_cards: must be within 1..65536"


def test_the_cli_refuses_out_of_range_values_and_says_each_flags_range():
    out = io.StringIO()
    assert vramcalc_main(["--preset", "llama-3.1-70b", "--strategy", "ddp", "--cards", str(10**30)], out=out) == 2
    assert out.getvalue() == "error: parallel.cards: must be within 1..65536\n"
    out = io.StringIO()
    assert vramcalc_main(["--preset", "llama-3.1-8b", "--runtime-max-num-seqs", "0"], out=out) == 2
    assert out.getvalue() == "error: runtime.max_num_seqs: must be within 1..65536\n"
    helps = {action.dest: action.help or "" for action in build_parser()._actions}
    assert helps["cards"].endswith("1..65536")
    assert helps["seq_len"].endswith(str(option_range("seq_len")))
    assert helps["opt__runtime__max_num_seqs"].endswith("1..65536")


def test_readme_lists_every_range():
    text = README.read_text(encoding="utf-8")
    for path, bounds in input_ranges():
        assert f"| `{path}` | {bounds.minimum:,} | {bounds.maximum:,} |" in text, path


def test_the_option_schema_carries_the_ranges():
    numeric = [o for o in options() if o.hint is int or o.hint == (int | None)]
    assert len(numeric) > 15
    assert all(o.range == RANGES[o.path] for o in numeric)


def test_a_path_that_is_not_a_numeric_option_has_no_range() -> None:
    with pytest.raises(KeyError):
        option_range("parallel.strategy")

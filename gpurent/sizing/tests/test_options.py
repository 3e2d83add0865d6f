"""One option schema: the web form, the API, the CLI and the library accept the same set of engine options."""

import dataclasses
import io
import json

import pytest
from django.urls import reverse

from gpurent.sizing.api import EstimateIn
from gpurent.sizing.forms.choices import DEFAULTS, FORM_OPTIONS
from gpurent.sizing.forms.estimate import EstimateForm
from vramcalc import EstimateInput, estimate
from vramcalc.cli import build_parser, flag_paths
from vramcalc.cli import main as vramcalc_main
from vramcalc.option_schema import options
from vramcalc.serialize import inputs_from_dict

PATHS = {option.path for option in options()}


def test_the_web_form_reaches_every_engine_option():
    assert set(FORM_OPTIONS) == PATHS
    assert set(FORM_OPTIONS.values()) <= set(EstimateForm.base_fields)


def test_the_cli_has_a_flag_for_every_engine_option():
    paths = flag_paths()
    namespace = vars(build_parser().parse_args([]))
    assert set(paths) >= PATHS
    assert {paths[path] for path in PATHS} <= set(namespace)


def test_the_api_accepts_every_top_level_engine_field():
    top = {f.name for f in dataclasses.fields(EstimateInput)}
    assert set(EstimateIn.model_fields) == top


def test_the_library_accepts_every_option_at_its_default():
    data: dict = {"model": "llama-3.1-8b"}
    for option in options():
        *parents, leaf = option.path.split(".")
        target = data
        for key in parents:
            target = target.setdefault(key, {})
        value = option.default
        target[leaf] = value.value if hasattr(value, "value") else value
    assert inputs_from_dict(data) == inputs_from_dict({"model": "llama-3.1-8b"})


@pytest.mark.django_db
def test_sequence_parallel_gives_the_same_peak_through_form_cli_and_library(client, demo_catalog):
    library = estimate(
        inputs_from_dict(
            {
                "model": "llama-3.1-8b",
                "workload": "full_finetune",
                "seq_len": 32768,
                "training": {"activation_checkpointing": True},
                "parallel": {"strategy": "fsdp", "cards": 8, "sequence_parallel": 8},
            }
        )
    ).peak_bytes
    out = io.StringIO()
    flags = ["--preset", "llama-3.1-8b", "--workload", "full_finetune", "--seq-len", "32768", "--checkpointing"]
    flags += ["--strategy", "fsdp", "--cards", "8", "--parallel-sequence-parallel", "8", "--json"]
    assert vramcalc_main(flags, out=out) == 0
    assert json.loads(out.getvalue())["estimate"]["peak_bytes"] == library
    form = {
        **DEFAULTS,
        "workload": "full_finetune",
        "seq_len": "32768",
        "activation_checkpointing": "on",
        "strategy": "fsdp",
        "cards": "8",
        "sequence_parallel": "8",
    }
    page = client.post(reverse("sizing:estimate"), form)
    assert page.context["sizing"].result.peak_bytes == library

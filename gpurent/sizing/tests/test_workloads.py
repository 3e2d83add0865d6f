"""The workload table (`sizing/workloads.py`): one entry per engine workload, read by the form, titles and API."""

import pytest
from django.utils import translation

from gpurent.sizing.api import EstimateIn
from gpurent.sizing.forms.choices import (
    ADAPTER_ONLY,
    DEFAULTS,
    DIFFUSION_ONLY,
    FIELD_ENGINES,
    SERVING_ONLY,
    TRAINING_ONLY,
)
from gpurent.sizing.forms.estimate import EstimateForm
from gpurent.sizing.workloads import FIELDSET_HELP, WORKLOAD_CHOICES, WORKLOAD_KINDS, workload_kind
from vramcalc import Workload

# A preset each kind runs on (the engine refuses a diffusion workload on a language model, and so on).
PRESET_FOR = {
    Workload.INFERENCE: "llama-3.1-8b",
    Workload.FULL_FINETUNE: "llama-3.1-8b",
    Workload.LORA: "llama-3.1-8b",
    Workload.QLORA: "llama-3.1-8b",
    Workload.DIFFUSION: "sdxl-base-1.0",
    Workload.VISION_FINETUNE: "vit-base-patch16-224",
}


def test_workload_table_has_one_entry_per_engine_workload_in_the_engines_order():
    assert list(WORKLOAD_KINDS) == [workload.value for workload in Workload]
    assert all(kind.workload.value == key for key, kind in WORKLOAD_KINDS.items())
    assert [value for value, _label in WORKLOAD_CHOICES] == list(WORKLOAD_KINDS)
    assert set(PRESET_FOR) == set(Workload)


def test_workload_table_training_and_adapter_are_the_engines():
    for kind in WORKLOAD_KINDS.values():
        assert kind.is_training is kind.workload.is_training
        assert kind.is_adapter is kind.workload.is_adapter
    assert [k.value for k in WORKLOAD_KINDS.values() if k.serving] == ["inference"]
    assert [k.value for k in WORKLOAD_KINDS.values() if k.generation] == ["diffusion"]


def test_workload_kind_of_an_unknown_value_is_none():
    assert workload_kind("qlora") is WORKLOAD_KINDS["qlora"]
    assert workload_kind("bogus") is None


def test_workload_training_help_names_every_training_kind_and_no_other():
    with translation.override("en"):
        help_text = str(FIELDSET_HELP["training"])
        for kind in WORKLOAD_KINDS.values():
            assert (str(kind.short_label) in help_text) is kind.is_training, kind.value


def test_workload_labels_are_distinct_in_every_language():
    for language in ("en", "es", "vi", "tr"):
        with translation.override(language):
            assert len({str(kind.label) for kind in WORKLOAD_KINDS.values()}) == len(WORKLOAD_KINDS)
            assert len({str(kind.short_label) for kind in WORKLOAD_KINDS.values()}) == len(WORKLOAD_KINDS)


@pytest.mark.parametrize("workload", list(Workload))
def test_workload_form_shows_the_field_groups_of_its_table_entry(workload):
    kind = WORKLOAD_KINDS[workload]
    form = EstimateForm({**DEFAULTS, "preset": PRESET_FOR[workload], "workload": workload.value})
    hidden = form.hidden_field_names()
    for fields, shown in (
        (set(SERVING_ONLY) - set(FIELD_ENGINES), kind.serving),  # the fields of one engine: test_views.py
        (TRAINING_ONLY, kind.is_training),
        (ADAPTER_ONLY, kind.is_adapter),
        (DIFFUSION_ONLY, kind.generation),
    ):
        assert not set(fields) & hidden if shown else set(fields) <= hidden, (workload, fields)


def test_workload_form_of_an_unknown_kind_shows_no_kinds_fields_and_is_refused():
    form = EstimateForm({**DEFAULTS, "workload": "bogus"})
    assert {*SERVING_ONLY, *TRAINING_ONLY, *ADAPTER_ONLY, *DIFFUSION_ONLY} <= form.hidden_field_names()
    assert not form.is_valid()
    assert "workload" in form.errors


def test_workload_api_description_names_every_kind():
    description = EstimateIn.model_json_schema()["properties"]["workload"]["description"]
    assert description == "inference, full_finetune, lora, qlora, diffusion or vision_finetune"

"""The engine's input ranges hold on every surface of the shop (decision 0374; issue 32: `parallel.cards` = 10^30
was saved with its catalog table). The API answers 422 naming the field, the web form puts the error on the field,
`manage.py estimate` says what is wrong, and the three refuse exactly what the engine refuses."""

from __future__ import annotations

import io

import pytest
from django import forms
from django.core.management import CommandError, call_command
from django.urls import reverse

from gpurent.sizing.forms.choices import DEFAULTS, FORM_OPTIONS, QUANTIZATIONS
from gpurent.sizing.forms.estimate import EstimateForm
from gpurent.sizing.forms.training_plans import MILLION, MILLION_FIELDS
from gpurent.sizing.models import SavedEstimate
from vramcalc.dictconv import to_dict
from vramcalc.option_schema import input_ranges, options
from vramcalc.presets import get_preset

from .test_api import bearer, post

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HUGE = 10**30


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"parallel": {"strategy": "ddp", "cards": HUGE}}, "parallel.cards: must be within 1..65536"),
        ({"seq_len": HUGE}, "seq_len: must be within 1..16777216"),
        ({"batch_size": 0}, "batch_size: must be within 1..65536"),
        ({"runtime": {"engine": "vllm", "max_num_seqs": HUGE}}, "runtime.max_num_seqs: must be within 1..65536"),
        ({"lora": {"rank": HUGE}, "workload": "lora"}, "lora.rank: must be within 1..1048576"),
    ],
)
def test_the_api_refuses_a_number_out_of_range_with_422_naming_the_field(client, demo_catalog, user, body, field):
    response = post(client, bearer(user), {"model": "llama-3.1-70b", **body})
    assert response.status_code == 422
    assert response.json()["error"] == {"code": "invalid_request", "message": field}
    assert not SavedEstimate.objects.exists()


def test_a_model_object_is_held_to_its_ranges_too(client, demo_catalog, user):
    model = to_dict(get_preset("llama-3.1-8b")) | {"hidden_size": HUGE}
    response = post(client, bearer(user), {"model": model})
    assert response.status_code == 422
    assert response.json()["error"]["message"] == "model.hidden_size: must be within 0..1048576"
    assert not SavedEstimate.objects.exists()


def test_every_number_of_the_form_has_the_engines_range():
    numeric = [option for option in options() if option.range is not None]
    assert len(numeric) > 15
    for option in numeric:
        assert option.range is not None
        name = FORM_OPTIONS[option.path]
        field = EstimateForm.base_fields[name]
        if name == "quantization":  # a fixed list of formats, each within the range
            leaf = option.path.split(".")[1]
            values = [spec[leaf] for _label, spec in QUANTIZATIONS.values() if leaf in spec]
            assert values, option.path
            assert all(value in option.range for value in values), option.path
            continue
        unit = MILLION if name in MILLION_FIELDS else 1
        assert isinstance(field, forms.IntegerField), name
        bounds = option.range
        assert (field.min_value, field.max_value) == (-(-bounds.minimum // unit), bounds.maximum // unit), name


def test_the_form_puts_an_out_of_range_number_on_its_field(client, demo_catalog):
    form = {**DEFAULTS, "preset": "llama-3.1-70b", "strategy": "ddp", "cards": str(HUGE)}
    response = client.post(reverse("sizing:result"), form, **HTMX)
    assert response.context["form"].errors["cards"] == ["Ensure this value is less than or equal to 65536."]
    assert not SavedEstimate.objects.exists()


def test_the_form_takes_what_the_api_takes(client, demo_catalog):
    """A 1,024-card DDP plan is inside the engine's range: the form took at most 80 cards before."""
    form = {**DEFAULTS, "preset": "llama-3.1-8b", "workload": "full_finetune", "strategy": "ddp", "cards": "1024"}
    response = client.post(reverse("sizing:result"), form, **HTMX)
    assert response.context["form"].errors == {}


def test_manage_py_estimate_says_which_number_is_out_of_range(demo_catalog):
    with pytest.raises(CommandError) as refused:
        call_command(
            "estimate", "--preset", "llama-3.1-70b", "--strategy", "ddp", "--cards", str(HUGE), stdout=io.StringIO()
        )
    assert str(refused.value) == "parallel.cards: must be within 1..65536"


def test_the_api_schema_documents_every_range(client):
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["EstimateIn"]["properties"]
    for path, bounds in input_ranges():
        group, _, leaf = path.partition(".")
        if not leaf:  # a top-level number: its own minimum and maximum
            assert (schema[path]["minimum"], schema[path]["maximum"]) == (bounds.minimum, bounds.maximum), path
            assert str(bounds) in schema[path]["description"], path
        else:  # inside an object: listed in the object's description
            assert f"`{leaf}` {bounds}" in schema[group]["description"], path

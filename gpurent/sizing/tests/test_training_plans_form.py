"""Megatron-style DDP, ZeRO-3 limits and activation offloading are reachable from the form, the CLI and the API."""

import io
import json

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.sizing.form_choices import DEFAULTS
from gpurent.sizing.forms import EstimateForm
from vramcalc import estimate
from vramcalc.cli import main as vramcalc_main
from vramcalc.serialize import inputs_from_dict

MEGATRON = {
    "model": "llama-3.1-8b",
    "workload": "full_finetune",
    "seq_len": 4096,
    "training": {"optimizer": "adamw", "activation_checkpointing": True, "activation_offloading": True},
    "parallel": {
        "strategy": "ddp",
        "cards": 8,
        "tensor_parallel": 1,
        "distributed_optimizer": True,
        "contiguous_grad_buffer": True,
    },
}


def _form(**fields: str) -> EstimateForm:
    form = EstimateForm({**DEFAULTS, "workload": "full_finetune", "activation_checkpointing": "on", **fields})
    assert form.is_valid(), form.errors
    return form


def test_megatron_plan_through_the_form_equals_the_library():
    form = _form(
        strategy="ddp",
        cards="8",
        activation_offloading="on",
        distributed_optimizer="on",
        contiguous_grad_buffer="on",
    )
    assert form.cleaned_data["inputs"] == inputs_from_dict(MEGATRON)


def test_megatron_plan_through_the_cli_equals_the_library():
    out = io.StringIO()
    flags = ["--preset", "llama-3.1-8b", "--workload", "full_finetune", "--seq-len", "4096", "--checkpointing"]
    flags += ["--strategy", "ddp", "--cards", "8", "--training-activation-offloading"]
    flags += ["--parallel-distributed-optimizer", "--parallel-contiguous-grad-buffer", "--json"]
    assert vramcalc_main(flags, out=out) == 0
    assert json.loads(out.getvalue())["estimate"]["peak_bytes"] == estimate(inputs_from_dict(MEGATRON)).peak_bytes


def test_zero3_limits_are_given_in_millions_of_parameters():
    form = _form(strategy="fsdp", cards="8", zero3_prefetch_params="500", zero3_max_live_params="1000")
    plan = form.cleaned_data["inputs"].parallel
    assert (plan.zero3_prefetch_params, plan.zero3_max_live_params) == (500_000_000, 1_000_000_000)


def test_zero3_limits_are_ignored_for_inference():
    form = EstimateForm({**DEFAULTS, "zero3_prefetch_params": "500"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["inputs"].parallel.zero3_prefetch_params == 0


def test_a_plan_option_of_another_framework_is_a_form_error_on_its_field():
    form = EstimateForm(
        {**DEFAULTS, "workload": "full_finetune", "strategy": "fsdp", "cards": "2", "distributed_optimizer": "on"}
    )
    assert not form.is_valid()
    assert "distributed_optimizer" in form.errors


@pytest.mark.django_db
def test_the_api_accepts_the_plan_options(client, demo_catalog, user):
    _token, secret = api_token_create(user=user, name="test")
    response = client.post(
        "/api/v1/estimates",
        MEGATRON,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="plans-1",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert response.status_code == 201, response.content
    assert response.json()["peak_bytes"] == estimate(inputs_from_dict(MEGATRON)).peak_bytes

"""`manage.py estimate`: the engine CLI's numbers plus the catalog table; the same peak everywhere."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.sizing.forms.choices import EXAMPLES
from vramcalc.cli import main as vramcalc_main

pytestmark = pytest.mark.django_db

SERVING_FLAGS = [
    "--preset",
    "llama-3.1-70b",
    "--workload",
    "inference",
    "--seq-len",
    "8192",
    "--concurrent",
    "16",
    "--engine",
    "vllm",
]
QLORA_FLAGS = [
    "--preset", "llama-3.1-70b", "--workload", "qlora", "--quant", "bnb_nf4", "--double-quant", "--seq-len", "4096",
    "--optimizer", "paged_adamw", "--checkpointing", "--lora-rank", "16",
]  # fmt: skip


def run(*args):
    out = io.StringIO()
    call_command("estimate", *args, stdout=out)
    return out.getvalue()


def test_estimate_command_prints_the_engine_breakdown_then_the_catalog(demo_catalog):
    text = run(*SERVING_FLAGS)
    engine = io.StringIO()
    assert vramcalc_main(SERVING_FLAGS, out=engine) == 0
    assert text.startswith(engine.getvalue())
    assert "Catalog fit (a card fits when the high end of the peak is within 90% of its memory" in text
    h100 = next(line for line in text.splitlines() if line.startswith("H100 80GB"))
    assert h100.split()[2:4] == ["4", "4"]
    assert "$1,480.00" in h100
    assert "does not fit" in next(line for line in text.splitlines() if line.startswith("RTX 4090"))


def test_estimate_command_json(demo_catalog):
    payload = json.loads(run(*SERVING_FLAGS, "--json"))
    assert set(payload) == {"inputs", "estimate", "usable_pct", "catalog_fit"}
    b200 = next(row for row in payload["catalog_fit"] if row["gpu"] == "b200-2x180gb")
    assert (b200["lots"], b200["cards"], b200["prices_usd"]["7"]) == (1, 2, "1700.00")


def test_estimate_command_invalid_input_is_a_command_error(demo_catalog):
    with pytest.raises(CommandError, match=r"parallel\.tensor_parallel"):
        run("--preset", "llama-3.1-70b", "--cards", "3")


@pytest.mark.parametrize(("flags", "example"), [(SERVING_FLAGS, 0), (QLORA_FLAGS, 1)])
def test_same_inputs_give_the_same_peak_in_both_clis_the_api_and_the_page(client, demo_catalog, flags, example):
    engine = io.StringIO()
    vramcalc_main([*flags, "--json"], out=engine)
    engine_json = json.loads(engine.getvalue())
    peak = engine_json["estimate"]["peak_bytes"]

    command = json.loads(run(*flags, "--json"))
    assert command["estimate"]["peak_bytes"] == peak

    page = client.get(reverse("sizing:estimate"), EXAMPLES[example][1])
    assert page.context["sizing"].result.peak_bytes == peak

    from gpurent.accounts.models import User

    user = User.objects.create_user(f"cli{example}@example.com", "plum orbit ferry lantern")
    _token, secret = api_token_create(user=user, name="t")
    api = client.post(
        "/api/v1/estimates",
        engine_json["inputs"],
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="same",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    ).json()
    assert api["peak_bytes"] == peak
    assert [row["lots"] for row in api["catalog_fit"]] == [row["lots"] for row in command["catalog_fit"]]

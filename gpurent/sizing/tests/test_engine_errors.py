"""The engine's input errors reach the customer in their language, next to the field, without internal names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.sizing.forms.choices import DEFAULTS
from gpurent.sizing.texts.engine_errors import MESSAGES, Labelled, engine_message, option_label

VRAMCALC = Path(__file__).resolve().parents[3] / "vramcalc"
HTMX = {"HTTP_HX_REQUEST": "true"}


def engine_fixed_messages() -> set[str]:
    """Every constant message the engine raises `InvalidInput` with (parsed in a fresh interpreter)."""
    paths = sorted(str(path) for path in VRAMCALC.rglob("*.py") if "tests" not in path.parts)
    script = Path(__file__).with_name("engine_messages.py")
    done = subprocess.run([sys.executable, "-I", str(script), *paths], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


def test_every_fixed_engine_message_is_marked_for_translation():
    messages = engine_fixed_messages()
    assert len(messages) > 50
    assert sorted(messages - set(MESSAGES)) == []


@pytest.mark.parametrize("language", ["es", "vi", "tr"])
def test_every_engine_message_is_translated(language):
    with translation.override(language):
        for message in MESSAGES:
            assert engine_message(message) != message, (language, message)


@pytest.mark.parametrize(
    ("message", "translated"),
    [
        ("unknown GGUF type 'q9'", "tipo GGUF desconocido 'q9'"),
        ("must be at least one patch (16 px)", "debe ser al menos un parche (16 px)"),
        ("must be > 0, got -1", "debe ser > 0 (se recibió -1)"),
        ("something the engine says one day", "something the engine says one day"),
    ],
)
def test_messages_built_from_values_are_rebuilt_in_the_language(message, translated):
    with translation.override("es"):
        assert engine_message(message) == translated


@pytest.mark.parametrize(
    ("language", "label"),
    [
        ("en", "Image generation (diffusion)"),
        ("es", "Generación de imágenes (difusión)"),
        ("vi", "Sinh ảnh (khuếch tán)"),
        ("tr", "Görüntü üretimi (difüzyon)"),
    ],
)
def test_a_message_naming_an_option_shows_its_label_in_the_language(language, label):
    with translation.override(language):
        shown = engine_message("only diffusion models run the 'diffusion' workload")
    assert label in shown
    assert "'diffusion'" not in shown


@pytest.mark.parametrize("language", ["en", "es", "vi", "tr"])
def test_no_message_quotes_an_option_by_its_raw_value(language):
    labelled = {message: known for message, known in MESSAGES.items() if isinstance(known, Labelled)}
    assert len(labelled) == 7  # engine 0.3.26 added ZeRO-2's reduce-buffer refusal
    with translation.override(language):
        for message, known in labelled.items():
            shown = engine_message(message)
            for value in known.values:
                assert str(option_label(value)) in shown, (language, shown)
                quoted = [f"{pair[0]}{value}{pair[1]}" for pair in ("''", "“”", "«»")]
                assert not any(raw in shown for raw in quoted), (language, shown)


@pytest.mark.django_db
def test_the_form_shows_the_workload_refusal_with_the_workloads_spanish_label(client):
    form = {**DEFAULTS, "workload": "diffusion", "preset": "llama-3.2-1b"}
    response = client.post(reverse("sizing:result"), form, HTTP_ACCEPT_LANGUAGE="es", **HTMX)
    html = response.content.decode()
    assert "solo los modelos de difusión ejecutan la carga de trabajo «Generación de imágenes (difusión)»" in html
    assert "la carga de trabajo &#x27;diffusion&#x27;" not in html
    assert "la carga de trabajo 'diffusion'" not in html


@pytest.mark.django_db
def test_the_form_shows_the_engines_refusal_in_vietnamese_without_internal_names(client):
    form = {**DEFAULTS, "workload": "full_finetune", "strategy": "pipeline", "cards": "2", "preset": "llama-3.2-1b"}
    response = client.post(reverse("sizing:result"), form, HTTP_ACCEPT_LANGUAGE="vi", **HTMX)
    html = response.content.decode()
    assert "khi huấn luyện, hãy chia các lớp thành các giai đoạn pipeline" in html
    assert "parallel.strategy" not in html
    assert "pipeline stages instead" not in html


@pytest.mark.django_db
def test_the_api_message_follows_the_request_language_and_keeps_its_code(client, user):
    from gpurent.accounts.services import api_token_create

    from .conftest import SERVING_70B

    _token, secret = api_token_create(user=user, name="test")
    payload = {**SERVING_70B, "workload": "full_finetune", "parallel": {"strategy": "pipeline", "cards": 2}}
    response = client.post(
        "/api/v1/estimates",
        payload,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="tr",
        HTTP_IDEMPOTENCY_KEY="k-tr",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert error["message"] == "parallel.strategy: eğitim için katmanları bunun yerine pipeline aşamalarına bölün"


@pytest.mark.django_db
def test_a_switchs_refusal_is_shown_at_that_switch(client):
    # Review: "text encoders kept in fp32" with quantized text encoders was refused at the top of the form, with no
    # label to say what "needs a diffusion model whose text encoders are not quantized" was about.
    form = {**DEFAULTS, "workload": "diffusion", "preset": "sd3-medium"}
    form |= {"quantize_text_encoders": "on", "text_encoders_fp32": "on"}
    html = client.post(reverse("sizing:result"), form, **HTMX).content.decode()
    assert 'data-field="id_text_encoders_fp32"' in html
    assert "needs a diffusion model whose text encoders are not quantized" in html

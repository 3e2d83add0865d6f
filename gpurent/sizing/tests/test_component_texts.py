"""The breakdown's labels and assumptions in the customer's language; the engine's English as the fallback."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.sizing.forms.choices import DEFAULTS
from gpurent.sizing.texts.components import ASSUMPTIONS, LABELS, component_assumption, component_label

SERVING_FORM = {**DEFAULTS, "preset": "llama-3.1-70b", "seq_len": "8192", "concurrent": "16"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def labels(html: str) -> list[str]:
    return re.findall(r'<span class="component-label">(.*?)</span>', html)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "weights", "context", "assumption"),
    [
        ("vi", "Trọng số", "Ngữ cảnh CUDA", "Toàn bộ trọng số nằm trên card"),
        ("es", "Pesos", "Contexto de CUDA", "Todos los pesos residen en la tarjeta"),
    ],
)
def test_estimate_breakdown_is_in_the_customers_language(client, demo_catalog, language, weights, context, assumption):
    response = client.post(reverse("sizing:result"), SERVING_FORM, HTTP_ACCEPT_LANGUAGE=language, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    shown = labels(html)
    assert weights in shown
    assert context in shown
    assert "Weights" not in shown
    assert assumption in html
    assert "All weights resident on the card" not in html
    assert 'data-key="weights"' in html  # the stable key is untouched


@pytest.mark.django_db
def test_estimate_breakdown_stays_english_in_english(client, demo_catalog):
    response = client.post(reverse("sizing:result"), SERVING_FORM, HTTP_ACCEPT_LANGUAGE="en", **HTMX)
    shown = labels(response.content.decode())
    assert "Weights" in shown
    assert "CUDA context" in shown


def test_unknown_key_and_changed_english_fall_back_to_the_engines_text():
    with translation.override("vi"):
        unknown = {"key": "new_thing", "label": "New thing", "assumption": "Something new."}
        assert component_label(unknown) == "New thing"
        assert component_assumption(unknown) == "Something new."
        # A known key whose English changed in the engine: the new English, never the stale translation.
        changed = {"key": "weights", "label": "Model weights", "assumption": "All weights, differently worded."}
        assert component_label(changed) == "Model weights"
        assert component_assumption(changed) == "All weights, differently worded."
        assert component_label({"key": "weights", "label": "Weights", "assumption": ""}) == "Trọng số"


def test_texts_with_numbers_are_rebuilt_from_the_engines_values():
    with translation.override("es"):
        assert component_label({"key": "optimizer_state", "label": "Optimizer state (adamw)"}) == (
            "Estado del optimizador (adamw)"
        )
        vision = {
            "key": "vision_encoder_weights",
            "assumption": "Kept in the weights dtype on every card, frozen in fine-tuning; each image adds 576 "
            "tokens to the sequence (KV cache and activations).",
        }
        assert "576 tokens" in component_assumption(vision)
        assert component_assumption(vision).startswith("Se mantienen")
        activations = {
            "key": "activations",
            "assumption": "Saved for backward per Korthikanti et al. (2022), generalised to GQA/gated MLP."
            " Sequence parallel over 4 cards: each holds 2,048 of the 8,192 tokens"
            " (Ulysses all-to-all / ring attention buffers are in the communication allowance)."
            " Attention scores are materialised (no fused attention).",
        }
        text = component_assumption(activations)
        assert text.startswith("Guardadas para el backward")
        assert "4 tarjetas" in text
        assert "2,048 de los 8,192 tokens" in text
        assert text.endswith("(sin atención fusionada).")
        # An unknown tail keeps the whole text English.
        activations["assumption"] += " Something new."
        assert component_assumption(activations) == activations["assumption"]


def test_the_component_objects_work_as_well_as_their_dicts():
    from vramcalc.result import Component

    component = Component("gradients", "Gradients", 1, "1 B", "Adapters stored in the weights dtype.", ("x",))
    with translation.override("tr"):
        assert component_label(component) == "Gradyanlar"
        # The assumption belongs to another key: not translated.
        assert component_assumption(component) == "Adapters stored in the weights dtype."


def test_every_translation_is_keyed_by_its_own_english():
    for (_key, english), translated in [*LABELS.items(), *ASSUMPTIONS.items()]:
        with translation.override("en"):
            assert str(translated) == english


@pytest.mark.django_db
def test_every_examples_breakdown_labels_are_translated(client, demo_catalog):
    from gpurent.sizing.forms.choices import EXAMPLES

    english = {english for _key, english in LABELS}
    same_in_spanish = {"Logits", "CUDA graphs"}
    for _title, query in EXAMPLES:
        response = client.post(reverse("sizing:result"), {**DEFAULTS, **query}, HTTP_ACCEPT_LANGUAGE="es", **HTMX)
        shown = labels(response.content.decode())
        assert shown, query
        assert not (set(shown) & english) - same_in_spanish, query


@pytest.mark.django_db
def test_saved_estimate_page_shows_the_breakdown_translated(client, demo_catalog):
    saved = client.post(reverse("sizing:save"), {**SERVING_FORM, "idempotency_key": "key-vi"})
    assert saved.status_code == 302
    html = client.get(saved["Location"], HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "Trọng số" in labels(html)
    assert "Weights" not in labels(html)
    assert "Toàn bộ trọng số nằm trên card" in html
    assert "All weights resident on the card" not in html

"""The words of the estimator's formula lines read in the customer's language (decision 0225).

Every formula of every estimator variant of ``test_engine_texts`` (all workload kinds and the options that
change the texts) is checked: after the phrases of ``texts.formulas`` are taken out, what is left is notation
(numbers, operators, units, symbols, identifiers, product names); and each phrase has a translation in es, vi
and tr. The page test renders the breakdown in every language and looks for English words in its formulas.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.sizing.forms.choices import DEFAULTS
from gpurent.sizing.forms.estimate import EstimateForm
from gpurent.sizing.tests.test_engine_texts import LANGUAGES, VARIANTS
from gpurent.sizing.texts.formulas import PHRASES, _compiled, formula_text
from vramcalc import estimate

HTMX = {"HTTP_HX_REQUEST": "true"}

# Lower-case words that are notation, not English: symbols of the formulas, functions and library terms that
# are written the same in every language on this page.
NOTATION = {"x", "h", "ad", "kd", "f", "a", "s", "r", "m", "v", "e", "max", "min", "ceil", "px"}
NOTATION |= {"softmax", "logsumexp", "logits", "foreach", "absmax", "bitsandbytes", "ggml", "bf", "fp", "q", "k"}
NOTATION |= {"adamw", "adam", "lion", "sgd", "adafactor"}  # optimizer names, as the form lists them
# Loanwords the languages write as English does in machine-learning texts, here and in the engine texts' existing
# translations (the quantization notes inside a weights formula): "token", "embedding", "backward", "tensor" …
LOANWORDS = {"token", "embedding", "embeddings", "forward", "backward", "tensor"}
LOANWORDS |= {"micro-batch"}  # docs/terms.toml: "batch" is the word in Spanish, Vietnamese and Turkish
SAME: dict[str, set[str]] = {
    # "host": the shop's Spanish says "memoria del host" (the training caveat on host memory).
    "es": LOANWORDS | {"tokens", "bits", "byte", "bytes", "routers", "denoiser", "host"},
    # docs/terms.toml: "card", "cache"; "gradient" is how Vietnamese ML writing (and the shop's other Vietnamese texts)
    # says it.
    "vi": LOANWORDS | {"byte", "attention", "cross-attention", "scale", "video", "card", "cache", "gradient"},
    "tr": LOANWORDS | {"video"},  # "video" is the Vietnamese and Turkish word as well
}
WORD = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z][a-z]*(?:-[a-z]+)*(?![A-Za-z0-9_-])")


def english_words(formula: str) -> list[str]:
    """Words of `formula` that are English: lower-case, not notation (capitals are names: LoRA, KV, GGUF)."""
    return [w for w in WORD.findall(formula) if w.islower() and w not in NOTATION]


def formulas() -> list[str]:
    found: set[str] = set()
    for variant in VARIANTS:
        form = EstimateForm({**DEFAULTS, **variant})
        assert form.is_valid(), (variant, form.errors)
        found.update(component.formula for component in estimate(form.cleaned_data["inputs"]).components)
    return sorted(found)


def test_english_words_finds_words_and_leaves_notation():
    assert english_words("8,030,261,248 params: 2 B per parameter = 14.96 GiB") == ["params", "per", "parameter"]
    assert english_words("4,096 tokens x (2h + max(2ad + 2kd, 3f)/1) x 2 B") == ["tokens"]
    assert english_words("LoRA r=8 on all_linear: sum r·(d_in + d_out)") == ["on", "sum"]


def test_every_english_word_of_every_variant_formula_is_a_translated_phrase():
    pattern, _table = _compiled()
    left = {formula: english_words(pattern.sub(" ", formula)) for formula in formulas()}
    assert {formula: words for formula, words in left.items() if words} == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_formula_of_any_variant_keeps_an_english_word(language):
    with translation.override(language):
        for formula in formulas():
            shown = formula_text(formula)
            left = [w for w in english_words(shown) if w in english_words(formula) and w not in SAME[language]]
            assert left == [], (language, formula, shown)


def test_english_formulas_are_unchanged_but_for_their_counts():
    with translation.override("en"):
        for formula in formulas():
            counted = re.sub(r"\b1 (image|video)\(s\)", r"1 \1", formula)
            counted = re.sub(r"\b1 micro-batch\(es\)", "1 micro-batch", counted)
            counted = re.sub(r"\b1 seqs\b", "1 seq", re.sub(r"\((e?s)\)", r"\1", counted))
            assert formula_text(formula) == counted


def test_values_and_quantization_notes_are_carried_over():
    with translation.override("es"):
        assert formula_text("15% x 1,024 B allocated and freed during forward_backward = 153.60 MiB") == (
            "15% x 1.024 B asignados y liberados durante forward y backward = 153,60 MiB"
        )
        nf4 = formula_text("70,553,706,496 params: bitsandbytes NF4: 4 bits + absmax per 64 weights (fp32) = 1 GiB")
        assert nf4.startswith("70.553.706.496 parámetros: bitsandbytes NF4: 4 bits + absmax ")
        assert "weights" not in nf4
    with translation.override("tr"):
        assert formula_text("LoRA r=8 on all_linear: sum r·(d_in + d_out)").startswith("LoRA r=8 all_linear ")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phrase_is_translated(language):
    with translation.override(language):
        same = [english for english, translated in PHRASES.items() if str(translated) == english_msgid(english)]
    assert same == [english for english in PHRASES if english in SAME[language]], language


def english_msgid(english: str) -> str:
    return re.sub(r"\{(\w+)\}", r"%(\1)s", english.replace("%", "%%"))


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_breakdown_shows_translated_formulas(client, language):
    form = {**DEFAULTS, "preset": "sdxl-base-1.0", "workload": "lora", "image_size": "1024", "lora_rank": "16"}
    response = client.post(reverse("sizing:result"), form, HTTP_ACCEPT_LANGUAGE=language, **HTMX)
    assert response.status_code == 200
    shown = [
        html.unescape(f) for f in re.findall(r'class="component-formula"><code>(.*?)</code>', response.content.decode())
    ]
    assert shown
    assert not any(" params" in line or "foreach step" in line for line in shown), shown


@pytest.mark.django_db
def test_the_fit_table_shows_the_catalog_region_and_interconnect_translated(client, demo_catalog):
    response = client.post(reverse("sizing:result"), DEFAULTS, HTTP_ACCEPT_LANGUAGE="es", **HTMX)
    page = html.unescape(response.content.decode())
    assert "NVLink 5 entre las dos tarjetas (1,8 TB/s en cada sentido)" in page
    assert "between the two cards" not in page


@pytest.mark.parametrize(
    ("language", "formula", "shown"),
    [
        ("es", "1 image(s) x 1024x1024 px x 16 ch", "1 imagen x"),
        ("es", "2 image(s) x 1024x1024 px x 16 ch", "2 imágenes x"),
        ("es", "1 seqs x 151,936 vocab x 4 B (fp32, last token)", "1 secuencia x"),
        ("es", "1 video(s) x 17 frames per pass", "1 vídeo x"),
        ("en", "1,024 image(s) x 64x64 px", "1,024 images x"),
    ],
)
def test_a_count_in_a_formula_reads_with_the_languages_plural(language, formula, shown):
    """Issue 29: "1 secuencias", "image(s)"."""
    with translation.override(language):
        text = formula_text(formula)
    assert shown in text
    assert "(s)" not in text

"""The estimator's form reads in the page's language (issue 29: "Activation checkpointing", "Optimizer", "LoRA
rank", "Pipeline (inference)" in Turkish and Vietnamese; "Quantization" in the Turkish term chips; "EU
(Frankfurt)" in Vietnamese while US regions were translated)."""

import pytest
from django.urls import reverse

QUERY = "?workload=lora&preset=sdxl-base-1.0&image_size=1024&lora_rank=16"
CASES = {
    # language: (labels the page must show, their English that it showed before)
    "tr": (
        [
            "LoRA derecesi (rank)",
            "Aktivasyonları yeniden hesaplama",
            "Pipeline paralelliği (inference)",
            ">Kuantizasyon</a>",
        ],
        # "Optimizer" is the Turkish word too (docs/terms.toml, the Turkish reviewer: docs/translation-reviews/tr.md).
        ["LoRA rank", "Activation checkpointing", ">Pipeline (inference)<", ">Quantization<"],
    ),
    "vi": (["Tính lại giá trị kích hoạt", "Châu Âu (Frankfurt)"], ["Activation checkpointing", "EU (Frankfurt)"]),
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(CASES))
def test_the_estimator_form_has_no_english_labels(client, language, demo_catalog):
    page = client.get(reverse("sizing:estimate") + QUERY, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    shown, english = CASES[language]
    assert [label for label in shown if label not in page] == []
    assert [label for label in english if label in page] == []

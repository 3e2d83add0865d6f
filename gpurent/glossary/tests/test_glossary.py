import re

import pytest

from gpurent.glossary.terms import TERMS

pytestmark = pytest.mark.django_db

ANCHORS = [
    "vram",
    "kv-cache",
    "quantization",
    "tensor-parallelism",
    "ddp",
    "fsdp",
    "cuda",
    "rocm",
    "training-checkpoint",
    "lora",
    "vae",
    "fixed-rental-term",
    "idempotency-key",
]


def test_glossary_has_its_thirteen_terms_at_stable_anchors(client):
    assert [term.slug for term in TERMS] == ANCHORS
    html = client.get("/glossary/").content.decode()
    for anchor in ANCHORS:
        assert f'id="{anchor}"' in html
    assert len(re.findall(r'class="glossary-entry"', html)) == 13


def test_glossary_says_a_definition_is_not_a_promise(client):
    html = client.get("/glossary/").content.decode()
    assert "it is not a promise that a given workload runs on a given allocation" in html


def test_glossary_fixed_term_states_week_month_and_no_pause():
    text = " ".join(str(p) for p in next(t for t in TERMS if t.slug == "fixed-rental-term").paragraphs)
    assert "A week is always 7 days and a month always 30 days" in text
    assert "does not pause it and does not extend it" in text


def test_glossary_see_also_points_at_existing_entries():
    for term in TERMS:
        assert all(other.slug in ANCHORS for other in term.related())


def test_glossary_promises_no_wiped_disks_at_the_term_end(client):
    # A host rental's home is deleted days after the term, a desk rental's by no step of the shop (QA walk).
    html = client.get("/glossary/").content.decode()
    assert "wiped" not in html
    assert "Save checkpoints off the rented machine before the term ends: access to it closes then." in html

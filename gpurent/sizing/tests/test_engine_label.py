"""The engine that made an estimate, named in the reader's language (issue 29: "(formulas 2026-12d, ranges)" in
English on every page); the stored version string stays as the engine wrote it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.sizing.forms.choices import DEFAULTS
from gpurent.sizing.templatetags.sizing import engine_label
from vramcalc.version import ENGINE_VERSION, __version__


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "vramcalc 9.9.9, formulas 2030-01a (with ranges)"),
        ("es", "vramcalc 9.9.9, fórmulas 2030-01a (con rangos)"),
        ("vi", "vramcalc 9.9.9, công thức 2030-01a (có khoảng giá trị)"),
        ("tr", "vramcalc 9.9.9, formüller 2030-01a (aralıklı)"),
    ],
)
def test_the_engine_is_named_in_the_readers_language(language, shown):
    with translation.override(language):
        assert engine_label("vramcalc 9.9.9 (formulas 2030-01a, ranges)") == shown
        assert engine_label(ENGINE_VERSION).startswith(f"vramcalc {__version__}, ")  # the engine of today is read
        assert engine_label("vramcalc 0.1.0 (formulas 2026-11a)").startswith("vramcalc 0.1.0, ")
        assert engine_label("vramcalc 1.0") == "vramcalc 1.0"  # a string it cannot read: as stored


@pytest.mark.django_db
def test_the_estimate_page_names_the_engine_in_spanish(client, demo_catalog):
    form = {**DEFAULTS, "preset": "llama-3.1-70b"}
    html = client.post(reverse("sizing:result"), form, HTTP_ACCEPT_LANGUAGE="es", HTTP_HX_REQUEST="true").content
    page = html.decode()
    with translation.override("es"):
        assert engine_label(ENGINE_VERSION) in page
    assert "fórmulas" in page
    assert "(formulas" not in page

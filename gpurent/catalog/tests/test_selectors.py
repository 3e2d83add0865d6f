"""`gpu_get`: one GPU model by slug, every field read in one query, an off-sale one only when asked for."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_get
from gpurent.core.errors import NotFound

pytestmark = pytest.mark.django_db


def field_values(gpu: GpuModel) -> dict[str, object]:
    return {field.attname: getattr(gpu, field.attname) for field in GpuModel._meta.concrete_fields}


def test_gpu_get_reads_every_field_in_one_query(gpu):
    with CaptureQueriesContext(connection) as captured:
        found = gpu_get(gpu.slug)
    assert len(captured) == 1
    assert field_values(found) == field_values(GpuModel.objects.get(pk=gpu.pk))
    assert found.glossary_terms == ["vram", "fsdp"]  # JSON decoded, not text
    assert found.on_sale is True  # a bool on SQLite too, not 1
    assert found.updated_at.tzinfo is not None
    assert not found._state.adding  # a saved row: save() updates it
    assert found.get_deferred_fields() == set()  # no field left to a hidden query later


def test_gpu_get_off_sale_is_not_found_unless_asked_for(gpu):
    GpuModel.objects.filter(pk=gpu.pk).update(on_sale=False)
    with pytest.raises(NotFound):
        gpu_get(gpu.slug)
    assert gpu_get(gpu.slug, include_off_sale=True).pk == gpu.pk
    with pytest.raises(NotFound):
        gpu_get("no-such-gpu", include_off_sale=True)

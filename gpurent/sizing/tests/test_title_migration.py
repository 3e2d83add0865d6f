"""Migration 0002: the titles the shop built and stored in the page's language are emptied (built again when
shown, in the reader's language); a title the customer typed is kept; backward writes the English title again."""

from importlib import import_module

import pytest
from django.apps import apps

from gpurent.accounts.owners import Owner
from gpurent.sizing.calculation import inputs_from_payload, size_workload
from gpurent.sizing.models import SavedEstimate
from gpurent.sizing.services import estimate_save

from .conftest import QLORA_70B, SERVING_70B

pytestmark = pytest.mark.django_db

migration = import_module("gpurent.sizing.migrations.0002_title_built_when_shown")


def saved_with_title(user, payload, title):
    saved = estimate_save(owner=Owner(user=user), sizing=size_workload(inputs_from_payload(payload)))
    SavedEstimate.objects.filter(pk=saved.pk).update(title=title)
    return saved


def test_forward_empties_the_shops_titles_in_any_language_and_keeps_the_customers(user, demo_catalog):
    spanish = saved_with_title(user, SERVING_70B, "llama-3.1-70b · servicio · 1 tarjeta")
    turkish = saved_with_title(user, QLORA_70B, "llama-3.1-70b · QLoRA · 1 kart")
    typed = saved_with_title(user, SERVING_70B, "Support bot, 70B")
    typed_alike = saved_with_title(user, SERVING_70B, "llama-3.1-70b · my test")  # not the shop's three parts
    migration.empty_built_titles(apps, None)
    titles = dict(SavedEstimate.objects.values_list("pk", "title"))
    assert titles == {
        spanish.pk: "",
        turkish.pk: "",
        typed.pk: "Support bot, 70B",
        typed_alike.pk: "llama-3.1-70b · my test",
    }


def test_backward_writes_the_english_title_the_previous_release_stored(user, demo_catalog):
    built = saved_with_title(user, QLORA_70B, "")
    typed = saved_with_title(user, SERVING_70B, "Support bot, 70B")
    migration.write_english_titles(apps, None)
    titles = dict(SavedEstimate.objects.values_list("pk", "title"))
    assert titles == {built.pk: "llama-3.1-70b · QLoRA · 1 card", typed.pk: "Support bot, 70B"}
    # ...and forward again returns to where it was.
    migration.empty_built_titles(apps, None)
    assert dict(SavedEstimate.objects.values_list("pk", "title")) == {built.pk: "", typed.pk: "Support bot, 70B"}


def test_the_frozen_english_labels_are_the_apps_english_titles(user, demo_catalog):
    # The migration's copy of the short labels makes the same English title as the app does today.
    for payload in (SERVING_70B, QLORA_70B):
        saved = saved_with_title(user, payload, "")
        assert migration.english_title(saved.inputs) == saved.title_text

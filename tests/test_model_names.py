"""Every model of the project names itself in the singular and the plural, in all four languages.

Django's default plural is the name plus "s", which the back office showed as "Ledger entrys" and "Receiving
addresss"; each model therefore states both names, and the plural follows English spelling.
"""

import re

import pytest
from django.apps import apps
from django.utils import translation

LANGUAGES = ["es", "vi", "tr"]

# The back-office desks are proxies of shop models, listed in the admin under their own names.
PROJECT_MODELS = [model for model in apps.get_models() if model.__module__.startswith("gpurent.")]
# Operator-only back-office text stays English (docs/decisions/0160-language-without-url-prefix.md).
CUSTOMER_APP_MODELS = [model for model in PROJECT_MODELS if model._meta.app_label != "backoffice"]

# Endings whose English plural is not the word plus "s": "entry" → "entries", "address" → "addresses".
NOT_PLUS_S = re.compile(r"([^aeiou]y|s|x|z|ch|sh)$")


def test_the_walk_finds_the_models_of_every_app():
    labels = {model._meta.app_label for model in PROJECT_MODELS}
    assert {"core", "accounts", "catalog", "orders", "ledger", "payments", "journal", "support"} <= labels


@pytest.mark.parametrize("model", PROJECT_MODELS, ids=lambda m: m._meta.label)
def test_every_model_states_its_singular_and_plural_name(model):
    options = model._meta.original_attrs
    assert "verbose_name" in options, f"{model._meta.label}: set Meta.verbose_name"
    assert "verbose_name_plural" in options, f"{model._meta.label}: set Meta.verbose_name_plural"


@pytest.mark.parametrize("model", PROJECT_MODELS, ids=lambda m: m._meta.label)
def test_no_plural_is_the_naive_name_plus_s(model):
    with translation.override("en"):
        singular, plural = str(model._meta.verbose_name), str(model._meta.verbose_name_plural)
    if plural == f"{singular}s":
        assert not NOT_PLUS_S.search(singular), f"{model._meta.label}: the plural of {singular!r} is not {plural!r}"


def test_the_plural_rule_catches_the_old_names():
    for singular in ["ledger entry", "receiving address", "webhook delivery", "order access"]:
        assert NOT_PLUS_S.search(singular)
    for singular in ["ledger key", "deposit", "journal entry run"]:
        assert not NOT_PLUS_S.search(singular)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_customer_app_model_name_is_translated(language):
    missing = []
    for model in CUSTOMER_APP_MODELS:
        for name in (model._meta.verbose_name, model._meta.verbose_name_plural):
            with translation.override("en"):
                english = str(name)
            with translation.override(language):
                if str(name) == english:
                    missing.append(english)
    assert not missing, f"untranslated in {language}: {missing}"

"""HTML forms refuse a NUL character by one rule: Django's `ProhibitNullCharactersValidator` on every text field.

PostgreSQL cannot store a NUL in a text column; a form that let one through would answer with a 500.
"""

import importlib
import pkgutil

import pytest
from django import forms
from django.core.validators import ProhibitNullCharactersValidator

import gpurent


def _all_form_classes() -> list[type[forms.BaseForm]]:
    for module in pkgutil.walk_packages(gpurent.__path__, "gpurent."):
        if module.name.endswith(".forms"):
            importlib.import_module(module.name)
    found, pending = [], [forms.BaseForm]
    while pending:
        cls = pending.pop()
        for sub in cls.__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith("gpurent."):
                found.append(sub)
    return found


def test_every_text_field_of_every_form_refuses_a_nul_character():
    classes = _all_form_classes()
    assert len(classes) >= 10
    open_fields = [
        f"{cls.__module__}.{cls.__name__}.{name}"
        for cls in classes
        for name, field in cls.base_fields.items()  # type: ignore[attr-defined]
        if isinstance(field, forms.CharField)
        and not any(isinstance(v, ProhibitNullCharactersValidator) for v in field.validators)
    ]
    assert open_fields == []


@pytest.mark.django_db
def test_register_page_with_a_nul_character_shows_a_field_error(client):
    response = client.post(
        "/account/register/",
        {
            "first_name": "In\x00es",
            "last_name": "Duarte",
            "email": "ines@example.com",
            "password": "correct horse battery staple",
        },
    )
    assert response.status_code == 422
    assert "Null characters are not allowed." in response.content.decode()

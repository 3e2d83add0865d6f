"""People's names in the order the reader's language writes them (decision 0541).

The shop stores a given name (`first_name`) and a family name (`last_name`). Vietnamese writes and asks for the
family name first ("Nguyễn Văn An": Họ, then Tên); the shop's other languages write the given name first. Forms
ask for the two in that order and pages join them in it; greetings use the given name in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar, cast

from django import forms
from django.conf import settings
from django.forms import BoundField
from django.utils import translation

__all__ = ["NameFields", "family_name_first", "full_name", "in_writing_order"]

T = TypeVar("T")

FAMILY_NAME_FIRST = frozenset({"vi"})


def family_name_first(language: str | None = None) -> bool:
    """Whether `language` (default: the active one) writes the family name before the given name."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    return language.split("-")[0] in FAMILY_NAME_FIRST


def in_writing_order(given: T, family: T) -> Sequence[T]:
    """The two parts of a name (values, fields, anything) in the order the active language writes them."""
    return (family, given) if family_name_first() else (given, family)


def full_name(given: str, family: str) -> str:
    """A whole name as the active language writes it; either part may be empty."""
    return " ".join(part for part in in_writing_order(given, family) if part)


class NameFields:
    """A form mixin: `name_fields`, the form's given and family name fields in the active language's writing order,
    for a template to show them (`{% for field in form.name_fields %}`)."""

    name_field_names: tuple[str, str] = ("first_name", "last_name")

    @property
    def name_fields(self) -> Sequence[BoundField]:
        form = cast(forms.Form, self)
        given, family = self.name_field_names
        return in_writing_order(form[given], form[family])

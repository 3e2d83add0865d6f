"""The one base of every API input schema: what any request body may not be, whatever its fields.

`InputSchema` refuses, with a 422 `invalid_request` that names the field:

- **unknown fields** (`extra="forbid"`): a misspelt optional field is an error, not silently ignored;
- **coerced values** (`strict=True`): `"1"` and `true` are not integers, `1` is not a string; a JSON number
  is accepted where a float is asked for;
- **a NUL character** in any string, nested ones and dictionary keys included: PostgreSQL cannot store it
  in a text or JSON column (the insert fails, a 500), and no honest input contains one.

HTML forms get the same NUL rule from Django itself: every `forms.CharField` carries
`ProhibitNullCharactersValidator`.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from ninja import Schema
from pydantic import ConfigDict, field_validator

__all__ = ["InputSchema", "contains_nul"]

NUL = "\x00"


def contains_nul(value: object) -> bool:
    """Whether `value` (a string, or lists and dicts of them, keys included) contains a NUL character.

    Iterative, so that a document nested as deep as `json.loads` allows cannot overflow the stack here.
    """
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if NUL in item:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return False


class InputSchema(Schema):
    """Base of every request body and query filter of the API (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="before")
    @classmethod
    def _refuse_nul(cls, value: Any) -> Any:
        if contains_nul(value):
            raise ValueError(_("must not contain a NUL character"))
        return value

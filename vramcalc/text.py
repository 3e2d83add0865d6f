"""English texts built from values, kept as records so a presentation layer can translate them.

A :class:`Text` *is* the English string (a ``str`` subclass, so every reader of the engine's strings keeps
working) and also carries a stable ``key`` into :data:`TEMPLATES` and the values it was built from.
A translation layer renders ``TRANSLATED[key] % params`` instead of the English; the engine itself never
translates (standard library only). Values are ints (shown with thousands separators), plain strings
(names and numbers that read the same in every language: ``GQA``, ``adamw``, ``q4_k_m``) or nested texts.
:func:`joined` strings several texts together (sentences, or a list's parts) and keeps them apart.
"""

from __future__ import annotations

import string
from typing import Any, Union

from .texts_en import TEMPLATES

__all__ = ["TEMPLATES", "Text", "joined", "placeholders", "text"]

Param = Union[int, str, "Text"]


def _english(value: Param) -> str:
    if isinstance(value, bool):  # pragma: no cover - a programming error, not an input
        raise TypeError("a text parameter is an int, a str or a Text")
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


class Text(str):
    """An English string with its template key and values (``key == ""``: a join of ``parts`` with ``sep``)."""

    key: str
    params: dict[str, Param]
    parts: tuple[Text, ...]
    sep: str

    def __new__(cls, english: str, key: str, params: dict[str, Param], parts: tuple[Text, ...], sep: str) -> Text:
        """Use :func:`text` or :func:`joined`."""
        obj = super().__new__(cls, english)
        obj.key, obj.params, obj.parts, obj.sep = key, params, parts, sep
        return obj

    def __getnewargs__(self) -> tuple[str, str, dict[str, Param], tuple[Text, ...], str]:  # type: ignore[override]
        """Pickle (Django's cache stores guide reports holding texts) rebuilds the record, not a bare ``str``."""
        return (str(self), self.key, self.params, self.parts, self.sep)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form: ``{"key", "params"}`` or ``{"parts", "sep"}``."""
        if not self.key:
            return {"parts": [p.to_dict() for p in self.parts], "sep": self.sep}
        return {
            "key": self.key,
            "params": {k: v.to_dict() if isinstance(v, Text) else v for k, v in self.params.items()},
        }


def text(key: str, **params: Param) -> Text:
    """The text of template ``key`` filled with ``params``."""
    english = TEMPLATES[key].format(**{name: _english(value) for name, value in params.items()})
    return Text(english, key, dict(params), (), "")


def joined(*parts: Text, sep: str = " ") -> Text:
    """``parts`` one after the other (sentences by default; ``sep=", "`` for a list's items)."""
    return Text(sep.join(parts), "", {}, tuple(parts), sep)


def placeholders(template: str) -> set[str]:
    """The ``{name}`` placeholders of an English template."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name}

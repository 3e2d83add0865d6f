"""Generic conversion between frozen dataclasses and plain JSON dicts.

Unknown keys and wrongly typed values raise :class:`~vramcalc.errors.InvalidInput` naming the dotted field.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from .errors import InvalidInput

__all__ = ["convert", "from_dict", "to_dict", "type_hints"]

T = TypeVar("T")


_HINTS: dict[type, tuple[dict[str, Any], frozenset[str]]] = {}


def type_hints(cls: type) -> dict[str, Any]:
    """``typing.get_type_hints(cls)``, resolved once per class (issue 16: it ran on every conversion)."""
    return _resolved(cls)[0]


def _resolved(cls: type) -> tuple[dict[str, Any], frozenset[str]]:
    found = _HINTS.get(cls)
    if found is None:
        names = frozenset(f.name for f in dataclasses.fields(cls))
        found = _HINTS[cls] = (typing.get_type_hints(cls), names)
    return found


def to_dict(obj: object) -> dict[str, Any]:
    """A frozen input dataclass as plain JSON types (enums as values, tuples as lists)."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("to_dict expects a dataclass instance")
    return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}


def _plain(value: object) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_dict(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def convert(hint: Any, value: Any, path: str) -> Any:
    """Convert JSON ``value`` to the type ``hint`` (enums, nested dataclasses, tuples, optionals)."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None:
            return None
        return convert(args[0], value, path)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise InvalidInput(path, "must be a list")
        item = typing.get_args(hint)[0]
        return tuple(convert(item, v, f"{path}[{i}]") for i, v in enumerate(value))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            choices = ", ".join(str(m.value) for m in hint)
            raise InvalidInput(path, f"must be one of: {choices}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, Mapping):
            raise InvalidInput(path, "must be an object")
        return from_dict(hint, value, path)
    return _scalar(hint, value, path)


def _scalar(hint: Any, value: Any, path: str) -> Any:
    if hint is bool:
        if not isinstance(value, bool):
            raise InvalidInput(path, "must be true or false")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(path, "must be an integer")
        return value
    if not isinstance(value, str):
        raise InvalidInput(path, "must be a string")
    return value


def from_dict(cls: type[T], data: Mapping[str, Any], path: str = "") -> T:
    """Build dataclass ``cls`` from ``data``; missing keys take their defaults.

    Raises:
        InvalidInput: unknown key, wrong type, or a value the dataclass rejects.
    """
    hints, names = _resolved(cls)
    prefix = f"{path}." if path else ""
    for key in data:
        if key not in names:
            raise InvalidInput(prefix + str(key), "unknown field")
    kwargs = {key: convert(hints[key], value, prefix + key) for key, value in data.items()}
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise InvalidInput(path or "input", f"missing required field ({exc})") from None

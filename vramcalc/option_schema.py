"""The one option schema: every engine option as a dotted path, read from :class:`EstimateInput` itself.

The CLI generates its flags from it, and the web form and the API are tested against it, so a new field of
an option dataclass is reachable everywhere or a test fails. Each numeric option carries the range its field
declares (:mod:`vramcalc.ranges`): the CLI's help, the web form's bounds and the API schema read it here.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass
from typing import Any

from .dictconv import type_hints
from .inputs import EstimateInput
from .ranges import Range, field_range

__all__ = ["Option", "input_ranges", "option_range", "options"]


@dataclass(frozen=True)
class Option:
    """One leaf option: ``path`` (``parallel.cards``), its type hint, its default and its range (numbers only)."""

    path: str
    hint: Any
    default: Any
    range: Range | None = None

    @property
    def flag(self) -> str:
        """The CLI flag: ``--parallel-cards``; a boolean that defaults to true is ``--no-…``."""
        name = self.path.replace(".", "-").replace("_", "-")
        return f"--no-{name}" if self.hint is bool and self.default is True else f"--{name}"


def _leaves(cls: Any, prefix: str) -> list[Option]:
    hints = type_hints(cls)
    found: list[Option] = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if dataclasses.is_dataclass(hint):
            found += _leaves(hint, f"{prefix}{f.name}.")
            continue
        default = f.default if f.default is not dataclasses.MISSING else None
        found.append(Option(prefix + f.name, hint, default, field_range(cls, f.name)))
    return found


@functools.cache
def options() -> tuple[Option, ...]:
    """Every option of :class:`EstimateInput` except the model."""
    return tuple(o for o in _leaves(EstimateInput, "") if not o.path.startswith("model."))


def option_range(path: str) -> Range:
    """The range of the numeric option ``path`` (``parallel.cards``).

    Raises:
        KeyError: ``path`` is not a numeric option.
    """
    found = {option.path: option.range for option in options()}.get(path)
    if found is None:
        raise KeyError(path)
    return found


def _nested(hint: Any) -> type | None:
    """The dataclass inside ``hint`` (``MoESpec | None`` -> ``MoESpec``), if any."""
    candidates = typing.get_args(hint) or (hint,)
    return next((c for c in candidates if isinstance(c, type) and dataclasses.is_dataclass(c)), None)


def _ranges(cls: type, prefix: str) -> list[tuple[str, Range]]:
    hints = type_hints(cls)
    found: list[tuple[str, Range]] = []
    for f in dataclasses.fields(cls):
        nested = _nested(hints[f.name])
        if nested is not None:
            found += _ranges(nested, f"{prefix}{f.name}.")
            continue
        bounds = field_range(cls, f.name)
        if bounds is not None:
            each = "[i]" if typing.get_origin(hints[f.name]) is tuple else ""
            found.append((f"{prefix}{f.name}{each}", bounds))
    return found


@functools.cache
def input_ranges() -> tuple[tuple[str, Range], ...]:
    """Every numeric input's path and range, the model's fields included (``model.moe.num_experts``; a list's items
    as ``model.diffusion.vae_channels[i]``): what README's table and the API schema list."""
    return tuple(_ranges(EstimateInput, ""))

"""The one option schema: every engine option as a dotted path, read from :class:`EstimateInput` itself.

The CLI generates its flags from it, and the web form and the API are tested against it, so a new field of
an option dataclass is reachable everywhere or a test fails.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

from .dictconv import type_hints
from .inputs import EstimateInput

__all__ = ["Option", "options"]


@dataclass(frozen=True)
class Option:
    """One leaf option: ``path`` (``parallel.cards``), its type hint and its default."""

    path: str
    hint: Any
    default: Any

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
        found.append(Option(prefix + f.name, hint, default))
    return found


@functools.cache
def options() -> tuple[Option, ...]:
    """Every option of :class:`EstimateInput` except the model."""
    return tuple(o for o in _leaves(EstimateInput, "") if not o.path.startswith("model."))

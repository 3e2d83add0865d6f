"""The preset library: real architectures stored as data (``data/presets.json``), loaded once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .dictconv import from_dict
from .errors import InvalidInput
from .model import ModelSpec

__all__ = ["Preset", "get_preset", "list_presets"]


@dataclass(frozen=True)
class Preset:
    """A named architecture.

    Attributes:
        id: stable identifier (``llama-3.1-8b``).
        source: where the numbers come from.
        workloads: workloads the preset is meant for.
        model: the architecture.
    """

    id: str
    source: str
    workloads: tuple[str, ...]
    model: ModelSpec


@cache
def _load() -> dict[str, Preset]:
    # A plain path: importlib.resources costs more to import than the file takes to read (issue 16).
    raw = json.loads((Path(__file__).parent / "data" / "presets.json").read_text(encoding="utf-8"))
    presets: dict[str, Preset] = {}
    for entry in raw["presets"]:
        model = from_dict(ModelSpec, entry["model"], f"presets[{entry['id']}]")
        presets[entry["id"]] = Preset(entry["id"], entry["source"], tuple(entry["workloads"]), model)
    return presets


def list_presets() -> tuple[Preset, ...]:
    """All presets, in file order."""
    return tuple(_load().values())


def get_preset(preset_id: str) -> ModelSpec:
    """The architecture of preset ``preset_id`` (case-insensitive).

    Raises:
        InvalidInput: unknown preset (field ``model``).
    """
    preset = _load().get(preset_id.strip().lower())
    if preset is None:
        raise InvalidInput("model", f"unknown preset {preset_id!r}")
    return preset.model

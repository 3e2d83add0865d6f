"""Plain-dict round trip of :class:`~vramcalc.inputs.EstimateInput` for the web form, API and storage."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .dictconv import convert, from_dict, to_dict, type_hints
from .errors import InvalidInput
from .inputs import EstimateInput
from .model import ModelSpec
from .presets import get_preset

__all__ = ["inputs_from_dict", "inputs_to_dict"]


def inputs_to_dict(inp: EstimateInput) -> dict[str, Any]:
    """``EstimateInput`` as plain JSON types (the model fully spelled out)."""
    return to_dict(inp)


def inputs_from_dict(data: Mapping[str, Any]) -> EstimateInput:
    """Build inputs from a plain dict; ``"model"`` is a preset name, a model dict or a ``ModelSpec``.

    Raises:
        InvalidInput: any invalid field (the ``field`` attribute names it).
    """
    if not isinstance(data, Mapping):
        raise InvalidInput("input", "must be an object")
    model = data.get("model")
    if isinstance(model, ModelSpec):
        spec = model
    elif isinstance(model, str):
        spec = get_preset(model)
    elif isinstance(model, Mapping):
        spec = from_dict(ModelSpec, model, "model")
    else:
        raise InvalidInput("model", "give a preset name or a model object")
    hints = type_hints(EstimateInput)
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        if key == "model":
            continue
        if key not in hints:
            raise InvalidInput(str(key), "unknown field")
        kwargs[key] = convert(hints[key], value, key)
    return EstimateInput(model=spec, **kwargs)

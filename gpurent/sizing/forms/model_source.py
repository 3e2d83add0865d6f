"""The estimator's model source: a preset, a pasted Hugging Face config.json, and an optional safetensors
header (or index) that gives the exact weight bytes, turned into the engine's `ModelSpec`.

The estimate form (`estimate.py`) keeps its fields; `EstimateForm.clean` calls
`model_from_source`, and an `InvalidInput` raised here is shown next to the field it names there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from vramcalc import InvalidInput, ModelSpec
from vramcalc.hf_config import model_from_hf_config, parse_hf_config, quantization_from_hf_config
from vramcalc.presets import get_preset
from vramcalc.safetensors_header import apply_header, summarize_header, summarize_index

__all__ = ["header_summary", "model_from_source"]


def model_from_source(cleaned: Mapping[str, Any]) -> tuple[ModelSpec, dict[str, Any]]:
    """The model of the form's cleaned fields, and the quantization its config.json declares (or `{}`).

    Raises:
        InvalidInput: neither a preset nor a config, or a config or header the engine cannot read.
    """
    quantization: dict[str, Any] = {}
    if cleaned.get("hf_config"):
        config = parse_hf_config(cleaned["hf_config"])
        model = model_from_hf_config(config)
        declared = quantization_from_hf_config(config)
        if declared.method.value != "none":
            quantization = {"method": declared.method.value, "bits": declared.bits}
            quantization |= {"group_size": declared.group_size, "double_quant": declared.double_quant}
    elif cleaned.get("preset"):
        model = get_preset(cleaned["preset"])
    else:
        raise InvalidInput("model", gettext("choose a preset or paste a config.json"))
    if cleaned.get("header"):
        model = apply_header(model, header_summary(cleaned["header"]))
    return model, quantization


def header_summary(text: str) -> Any:
    """A safetensors header or a `model.safetensors.index.json`, summarised for `apply_header`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        detail = gettext("%(error)s at line %(line)d") % {"error": exc.msg, "line": exc.lineno}
        raise InvalidInput("safetensors", gettext("not valid JSON (%(detail)s)") % {"detail": detail}) from None
    if not isinstance(data, dict):
        raise InvalidInput("safetensors", gettext("must be a JSON object"))
    if "weight_map" in data or ("metadata" in data and "__metadata__" not in data):
        return summarize_index(data)
    return summarize_header(data)

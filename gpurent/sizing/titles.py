"""A saved estimate's title: the one the customer typed, else one built from its inputs in the reader's language.

The shop's own title ("llama-3.1-70b · serving · 4 cards") is not stored: it is made when shown, so an estimate
saved on a Spanish page reads in Vietnamese on a Vietnamese one (decision 0536).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext

from .workloads import WORKLOAD_KINDS

__all__ = ["TITLE_MAX_LENGTH", "generated_title"]

TITLE_MAX_LENGTH = 200


def generated_title(inputs: Mapping[str, Any]) -> str:
    """ "llama-3.1-70b · serving · 4 cards" in the active language, from an estimate's engine inputs (as stored)."""
    model = inputs.get("model")
    name = str(model.get("name", "")) if isinstance(model, Mapping) else str(model or "")
    parallel = inputs.get("parallel")
    cards = int(parallel.get("cards", 1)) if isinstance(parallel, Mapping) else 1
    workload = str(inputs.get("workload", ""))
    kind = WORKLOAD_KINDS.get(workload)
    label = str(kind.short_label) if kind is not None else workload
    count = (gettext("%(n)d card") if cards == 1 else gettext("%(n)d cards")) % {"n": cards}
    return f"{name} · {label} · {count}"[:TITLE_MAX_LENGTH]

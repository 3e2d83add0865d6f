"""Idempotency fingerprints of support submissions, computed on the redacted text.

The idempotency table keeps a hash of each request's parameters. A hash of a form holding a short password
could be brute-forced by whoever reads that table, knowing the rest of the (stored) text; hashing the redacted
text instead keeps even that trace of a secret out of the database (decision 0062).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.views.decorators.debug import sensitive_variables

from gpurent.core.idempotency import request_fingerprint

from .redaction import redact_text

__all__ = ["redacted_fingerprint", "redacted_params"]


@sensitive_variables()
def redacted_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """`params` with every string (and every string in a list) redacted."""

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            return redact_text(value, field="").text
        if isinstance(value, list | tuple):
            return [clean(item) for item in value]
        return value

    return {name: clean(value) for name, value in params.items()}


@sensitive_variables()
def redacted_fingerprint(method: str, path: str, params: Mapping[str, Any]) -> str:
    return request_fingerprint(method, path, redacted_params(params))

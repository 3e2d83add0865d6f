"""Secret redaction: remove credentials from a customer's text before anything stores or logs it (DESIGN §8).

`redact_text` replaces each secret with a marker such as `[REDACTED: AWS access key]` and says where it was
(`Finding`: field, line, kind), so the customer can be told what was removed without the secret itself being
kept anywhere. The detection is in `detectors.py` (detect-secrets plus our own patterns) and `seed_phrases.py`.
Recall and false positives are measured on a corpus kept with the tests (`tests/data/redaction_corpus/`) by
`bench/redaction_recall.py` and `bench/redaction_corpus.py` (docs/redaction.md).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.utils import translation
from django.views.decorators.debug import sensitive_variables

from .detectors import find_spans
from .kinds import Kind

__all__ = ["Finding", "Kind", "Redacted", "marker", "marker_shown", "redact_fields", "redact_text", "redacted_params"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One removed secret: which field, which line of it (from 1), and what kind. Never the secret."""

    field: str
    line: int
    kind: Kind

    def as_json(self) -> dict[str, Any]:
        return {"field": self.field, "line": self.line, "kind": self.kind.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Finding:
        return cls(field=str(data["field"]), line=int(data["line"]), kind=Kind(data["kind"]))


@dataclass(frozen=True, slots=True)
class Redacted:
    """A text with its secrets replaced by markers, and what was removed."""

    text: str
    findings: tuple[Finding, ...]


def marker(kind: Kind) -> str:
    """The text that stands where a secret was. Always English: it is stored, and read by operators too."""
    with translation.override("en"):
        return f"[REDACTED: {kind.label}]"


_STORED_MARKER = re.compile(r"\[REDACTED: ([A-Za-z0-9 .,-]{1,60})\]")


@lru_cache(maxsize=1)
def _kinds_by_label() -> dict[str, Kind]:
    with translation.override("en"):
        return {str(kind.label): kind for kind in Kind}


def marker_shown(stored: str) -> str:
    """A stored marker as a customer reads it, in the active language: "[REDACTED: AWS access key]" is
    "[ELIMINADO: clave de acceso de AWS]" in Spanish (decision 0444). The stored text never changes; a marker
    whose kind this version does not know is shown as stored."""
    found = _STORED_MARKER.fullmatch(stored)
    kind = _kinds_by_label().get(found.group(1)) if found else None
    if kind is None:
        return stored
    # Translators: stands where a secret was removed from a customer's text: "[REDACTED: AWS access key]".
    return translation.gettext("[REDACTED: %(kind)s]") % {"kind": kind.label}


@sensitive_variables()
def redact_text(text: str, *, field: str) -> Redacted:
    """`text` with every secret found replaced by its marker; `field` names the field in the findings."""
    if not text:
        # Nothing to find, and the detectors' scan costs the same on an empty text as on a short one (~0.25 ms
        # of CPU): an order's optional fields are fingerprinted on every placement (decision 0300).
        return Redacted(text, ())
    spans = find_spans(text)
    if not spans:
        return Redacted(text, ())
    parts: list[str] = []
    findings: list[Finding] = []
    position = 0
    for span in spans:
        parts.append(text[position : span.start])
        parts.append(marker(span.kind))
        findings.append(Finding(field=field, line=text.count("\n", 0, span.start) + 1, kind=span.kind))
        position = span.end
    parts.append(text[position:])
    return Redacted("".join(parts), tuple(findings))


@sensitive_variables()
def redact_fields(fields: Mapping[str, str]) -> tuple[dict[str, str], list[Finding]]:
    """Each field of `fields` redacted, and all findings in field order."""
    cleaned: dict[str, str] = {}
    findings: list[Finding] = []
    for name, value in fields.items():
        redacted = redact_text(value, field=name)
        cleaned[name] = redacted.text
        findings.extend(redacted.findings)
    return cleaned, findings


@sensitive_variables()
def redacted_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """`params` with every string (in lists and nested objects too) redacted: what an idempotency fingerprint hashes.

    A hash of a form holding a short password could be brute-forced by whoever reads the idempotency table,
    knowing the rest of the (stored) text (decision 0062).
    """

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            return _clean_param(value)
        if isinstance(value, list | tuple):
            return [clean(item) for item in value]
        if isinstance(value, Mapping):
            return {name: clean(item) for name, item in value.items()}
        return value

    return {name: clean(value) for name, value in params.items()}


# Short parameter values already found to hold no secret ("pytorch", a GPU's slug, "bf16"): most requests repeat
# them, and scanning one costs ~0.1 ms. The set holds keyed digests, not the values (a key made at start, never
# stored), and only of values without a finding: a secret the detectors miss leaves no readable trace here either.
# It is emptied when full rather than ordered (a `clear` is safe between threads).
_KNOWN_CLEAN: set[bytes] = set()
_KNOWN_CLEAN_KEY = secrets.token_bytes(32)
_KNOWN_CLEAN_MAX = 4096
_KNOWN_CLEAN_LENGTH = 200


@sensitive_variables()
def _clean_param(value: str) -> str:
    if len(value) > _KNOWN_CLEAN_LENGTH:
        return redact_text(value, field="").text
    digest = hashlib.blake2b(value.encode(), key=_KNOWN_CLEAN_KEY, digest_size=16).digest()
    if digest in _KNOWN_CLEAN:
        return value
    text = redact_text(value, field="").text
    if text == value:
        if len(_KNOWN_CLEAN) >= _KNOWN_CLEAN_MAX:
            _KNOWN_CLEAN.clear()
        _KNOWN_CLEAN.add(digest)
    return text

"""The self-check every corpus builder runs before its part is committed, and the writing of the part.

`check_and_write` is the one place that says what a well-formed part is: every text with secrets lists at least
one secret, each at least 8 characters (the scoring window, `scoring._WINDOW`) and verbatim in its text; no text
appears twice (unless a part written before this rule says so); ids are unique; and the written files parse back
to exactly the samples. Builders call it instead of `writer.write_part` so that a part that breaks a rule is
never written silently.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from .writer import write_part

__all__ = ["check_and_write", "check_samples"]

MIN_SECRET = 8


def check_samples(
    positives: Sequence[tuple[str, list[str]]], negatives: Sequence[str], *, distinct: bool = True
) -> None:
    """Raise if a sample breaks a rule of the corpus format (before anything is written).

    Raises:
        ValueError: a text with secrets lists none, a secret is shorter than 8 characters or not verbatim in its
            text, or (with `distinct`) a text appears twice.
    """
    for number, (text, secrets) in enumerate(positives):
        if not secrets:
            raise ValueError(f"sample {number} lists no secret: {text[:60]!r}")
        for secret in secrets:
            if len(secret) < MIN_SECRET or secret not in text:
                raise ValueError(f"sample {number}: secret {secret[:6]}… too short or not verbatim in its text")
    texts = [text for text, _ in positives] + list(negatives)
    if distinct and len(set(texts)) != len(texts):
        repeated = next(text for text in texts if texts.count(text) > 1)
        raise ValueError(f"a text appears twice: {repeated[:60]!r}")


def check_and_write(
    out: Path,
    prefix: str,
    positives: Sequence[tuple[str, list[str]]],
    negatives: Sequence[str],
    *,
    distinct: bool = True,
) -> None:
    """Check the samples, write them under `out` with ids `{prefix}-pos-N`/`{prefix}-neg-N`, check they read back.

    `distinct=False` is only for the parts written before texts had to be unique: their committed files must
    stay as they are, and repeated texts in them are harmless (scored twice, alike).

    Raises:
        ValueError: see `check_samples`; or the written files do not parse back to the samples, or an id repeats.
    """
    check_samples(positives, negatives, distinct=distinct)
    write_part(out, prefix, positives, negatives)
    back = [json.loads(line) for line in (out / "secrets.jsonl").read_text().splitlines()]
    clean = [json.loads(line) for line in (out / "clean.jsonl").read_text().splitlines()]
    if [(d["text"], d["secrets"]) for d in back] != [(t, list(s)) for t, s in positives]:
        raise ValueError("secrets.jsonl does not parse back to the samples")
    if [d["text"] for d in clean] != list(negatives):
        raise ValueError("clean.jsonl does not parse back to the clean texts")
    ids = [d["id"] for d in back + clean]
    if len(set(ids)) != len(ids):
        raise ValueError("an id repeats")
    print(f"{out.name}: {len(positives)} texts with secrets, {len(negatives)} clean texts")

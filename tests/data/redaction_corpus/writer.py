"""Writing a corpus part: `secrets.jsonl` (texts with the secrets that must disappear) and `clean.jsonl`."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["Sample", "one", "repeat", "write_part"]

Sample = Callable[[], tuple[str, list[str]]]


def one(template: str, make: Callable[[], str]) -> Sample:
    """A sample with one secret: `template` with `{s}` replaced by a fresh value from `make`."""

    def build() -> tuple[str, list[str]]:
        value = make()
        return template.replace("{s}", value), [value]

    return build


def repeat(times: int, into: list, build: Callable[[], object]) -> None:
    """Append `times` samples from `build` (each call draws fresh fake values) to `into`."""
    into.extend(build() for _ in range(times))


def write_part(out: Path, prefix: str, positives: Iterable[tuple[str, list[str]]], negatives: Iterable[str]) -> None:
    """Write one part of the corpus under `out`, with ids `{prefix}-pos-N` and `{prefix}-neg-N`.

    It checks nothing: builders call `checks.check_and_write`, which checks the samples first and the files after.
    """
    out.mkdir(exist_ok=True)
    with (out / "secrets.jsonl").open("w") as file:
        for number, (text, secrets) in enumerate(positives):
            file.write(json.dumps({"id": f"{prefix}-pos-{number}", "text": text, "secrets": secrets}) + "\n")
    with (out / "clean.jsonl").open("w") as file:
        for number, text in enumerate(negatives):
            file.write(json.dumps({"id": f"{prefix}-neg-{number}", "text": text}) + "\n")

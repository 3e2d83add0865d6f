"""Measurement: recall and false-positive rate of the secret redactor on both parts of its corpus.

    .venv/bin/python bench/redaction_recall.py [--part NAME|all] [--show-misses]   (NAME: one of scoring.PARTS)
    .venv/bin/python bench/redaction_recall.py --stress

The corpus is `tests/data/redaction_corpus/` (see its `scoring.py`): the *tuning* part is what the
patterns were changed against; the *held-out* part was written and committed before any change and is never
tuned on. Recall: texts with secrets from which no part of any secret survives. False-positive rate: clean
texts (hashes, ids, addresses, logs) that the redactor changes at all. Baseline, measured in the same run:
detect-secrets' regex plugins alone (the ones the redactor calls). `--show-misses` prints the ids of missed and
flagged texts (use it on the tuning part only). `ms/text`: the redactor's mean time per text of the part (scoring
included), on this machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_RECALL, TARGET_FP = 0.98, 0.01


def parse_arguments(argv: list[str] | None = None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The parser and the arguments. `--part` is checked by `chosen_parts` once Django is set up: the names of the
    parts are `scoring.PARTS`, which cannot be imported before `django.setup()` (no copy of them is kept here)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="all", metavar="NAME", help="a part of the corpus (scoring.PARTS), or all")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--stress", action="store_true", help="time three large inputs instead")
    return parser, parser.parse_args(argv)


def chosen_parts(parser: argparse.ArgumentParser, name: str, known: Sequence[str]) -> tuple[str, ...]:
    """The parts `--part NAME` names: every part of `known` for "all", else the one named. An unknown name ends
    the run with argparse's usage error (exit status 2) listing the parts there are."""
    if name == "all":
        return tuple(known)
    if name not in known:
        parser.error(f"argument --part: unknown part {name!r} (choose from {', '.join(known)}, all)")
    return (name,)


def main() -> None:
    parser, args = parse_arguments()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from gpurent.core.redaction import redact_text
    from gpurent.core.redaction.detectors import _library_spans, _merged
    from tests.data.redaction_corpus.scoring import PARTS, load_part, score

    def ours(text: str) -> str:
        return redact_text(text, field="x").text

    def library_only(text: str) -> str:
        for span in reversed(_merged(list(_library_spans(text)))):
            text = text[: span.start] + "[X]" + text[span.end :]
        return text

    parts = chosen_parts(parser, args.part, PARTS)
    if args.stress:
        _stress(ours)
        return
    print(
        f"{'part':8} {'texts w/ secrets':>16} {'recall':>8} {'clean texts':>11} {'FP rate':>8} {'ms/text':>8}"
        "   detect-secrets alone"
    )
    for name in parts:
        part = load_part(name)
        started = time.perf_counter()
        mine = score(part, ours)
        per_text_ms = (time.perf_counter() - started) * 1000 / (mine.positives + mine.negatives)
        base = score(part, library_only)
        print(
            f"{name:8} {mine.positives:16d} {mine.recall:8.1%} {mine.negatives:11d} {mine.false_positive_rate:8.1%}"
            f" {per_text_ms:8.2f}"
            f"   recall {base.recall:.1%}, FP {base.false_positive_rate:.1%}"
        )
        if args.show_misses:
            print(f"  missed: {' '.join(mine.missed) or '-'}")
            print(f"  flagged: {' '.join(mine.flagged) or '-'}")
        if name.startswith("heldout"):
            met = mine.recall >= TARGET_RECALL and mine.false_positive_rate <= TARGET_FP
            print(f"target on {name}: recall >= 98% at <= 1% FP -> {'met' if met else 'NOT met'}")


def _stress(redact: Callable[[str], str]) -> None:
    """Time the redactor on inputs that expose a pattern that backtracks: long logs, keyword soup, one long token."""
    import random

    from tests.data.redaction_corpus import clean_texts

    rng = random.Random(1)  # noqa: S311 (test input)
    texts = list(clean_texts().values())
    words = ["password", "key", "token:", "secret", "contraseña", "cookie:", "session=", "a" * 30, "x:1:2:3:4"]
    inputs = {
        "ordinary logs": "\n".join(rng.choice(texts) for _ in range(120)),
        "keyword soup": " ".join(rng.choice(words) for _ in range(20000)),
        "one long token": "k" * 200_000,
    }
    for name, text in inputs.items():
        started, cpu_started = time.perf_counter(), time.process_time()
        redact(text)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        # CPU time too: on a shared machine the wall time also counts other processes' turns
        print(f"{name:15} {len(text) / 1000:6.0f} kB {wall:7.2f} s  (CPU {cpu:.2f} s)")


if __name__ == "__main__":
    main()

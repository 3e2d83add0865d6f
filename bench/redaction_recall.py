"""Measurement: recall and false-positive rate of the secret redactor on both parts of its corpus.

    .venv/bin/python bench/redaction_recall.py [--part tuning|heldout|both] [--show-misses]

The corpus is `gpurent/core/tests/redaction_corpus/` (see its `scoring.py`): the *tuning* part is what the
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_RECALL, TARGET_FP = 0.98, 0.01


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part", choices=["tuning", "tuning3", "heldout", "heldout2", "heldout3", "all"], default="all"
    )
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from gpurent.core.redaction import redact_text
    from gpurent.core.redaction.detectors import _library_spans, _merged
    from gpurent.core.tests.redaction_corpus.scoring import PARTS, load_part, score

    def ours(text: str) -> str:
        return redact_text(text, field="x").text

    def library_only(text: str) -> str:
        for span in reversed(_merged(list(_library_spans(text)))):
            text = text[: span.start] + "[X]" + text[span.end :]
        return text

    parts = PARTS if args.part == "all" else (args.part,)
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


if __name__ == "__main__":
    main()

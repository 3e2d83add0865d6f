"""Measurement: recall and false positives of support's secret redaction on its corpus, against detect-secrets alone.

    .venv/bin/python bench/redaction_corpus.py [--rounds N] [--seed S]

The corpus is `tests/data/redaction_corpus/`: fake secrets of every kind in context (generated from their
formats with a seeded generator, `--rounds` samples per format) and ordinary support texts that must not be
touched. A secret counts as caught when no part of it is left in the redacted text (for a PEM key: none of
its body lines, not only the header); its kind as right when a
finding names the expected kind. A false positive is a finding in an ordinary text. The baseline, measured in
the same run, is detect-secrets' regex plugins alone (the ones the redactor calls), without our patterns.
Also timed: redacting 100 kB of ordinary logs, as a ratio to one `str.splitlines()` pass over the same text.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="samples generated per secret format")
    parser.add_argument("--seed", type=int, default=20260401)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from gpurent.core.redaction import redact_text
    from gpurent.core.redaction.detectors import _library_spans, _merged
    from tests.data.redaction_corpus import clean_texts, secret_samples

    def library_only(text: str) -> tuple[str, int]:
        spans = _merged(list(_library_spans(text)))
        for span in reversed(spans):
            text = text[: span.start] + "[X]" + text[span.end :]
        return text, len(spans)

    def gone(secret: str, text: str) -> bool:
        # A multi-line secret (a PEM key) is caught only if no long line of it is left, not just its header.
        parts = [secret, *(line for line in secret.replace("\\n", "\n").splitlines() if len(line) >= 16)]
        return not any(part in text for part in parts)

    samples = secret_samples(rounds=args.rounds, seed=args.seed)
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # n, caught, kind right, baseline caught
    for sample in samples:
        row = per_kind[sample.kind.value]
        result = redact_text(sample.text, field="logs")
        row[0] += 1
        row[1] += gone(sample.secret, result.text)
        row[2] += sample.kind in {finding.kind for finding in result.findings}
        row[3] += gone(sample.secret, library_only(sample.text)[0])

    print(f"{'kind':22} {'n':>4} {'recall':>8} {'kind ok':>8} {'detect-secrets alone':>21}")
    totals = [0, 0, 0, 0]
    for kind, (n, caught, right, baseline) in sorted(per_kind.items()):
        print(f"{kind:22} {n:4d} {caught / n:8.0%} {right / n:8.0%} {baseline / n:21.0%}")
        totals = [a + b for a, b in zip(totals, (n, caught, right, baseline), strict=True)]
    n, caught, right, baseline = totals
    print(f"{'all':22} {n:4d} {caught / n:8.1%} {right / n:8.1%} {baseline / n:21.1%}")

    texts = clean_texts()
    lines = sum(text.count("\n") + 1 for text in texts.values())
    size = sum(len(text.encode()) for text in texts.values())
    ours = sum(len(redact_text(text, field="logs").findings) for text in texts.values())
    theirs = sum(library_only(text)[1] for text in texts.values())
    print()
    print(f"ordinary texts: {len(texts)} files, {lines} lines, {size / 1000:.1f} kB")
    print(f"false positives: redactor {ours} ({ours / lines:.2%} of lines), detect-secrets alone {theirs}")

    log = "\n".join(texts.values())
    log = (log * (100_000 // len(log.encode()) + 1))[:100_000]

    def median_time(function: object, repeat: int = 7) -> float:
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            function()  # type: ignore[operator]
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    redact = median_time(lambda: redact_text(log, field="logs"))
    split = median_time(lambda: log.splitlines())
    print(f"redact 100 kB of logs: {redact * 1000:.0f} ms median ({redact / split:.0f}x one splitlines pass)")
    if caught != n or ours:
        raise SystemExit("target missed: every corpus secret caught and no finding in the ordinary texts")
    print("target: recall 100% on the corpus, 0 false positives on the ordinary texts -> met")


if __name__ == "__main__":
    main()

"""Start-up and conversion cost of vramcalc (issue 16).

Prints (1) the import time of ``vramcalc.cli`` (what ``python -m vramcalc`` pays before parsing), as the
minimum over fresh interpreters of ``import`` wall time measured inside the process, and (2) the time of one
``inputs_from_dict`` conversion and one ``inputs_to_dict`` round trip, as the minimum over repeated batches.
Minimums, because the host is shared: the minimum is the least disturbed run.

Usage: ``python bench/vramcalc_startup.py [--runs N]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_IMPORT = "import time; t = time.perf_counter(); import vramcalc.cli; print(time.perf_counter() - t)"
_CASE = {
    "model": "llama-3.1-8b",
    "workload": "lora",
    "batch_size": 2,
    "seq_len": 2048,
    "training": {"activation_checkpointing": True},
    "parallel": {"strategy": "fsdp", "cards": 2},
}


def import_seconds(runs: int) -> float:
    """Minimum wall time of ``import vramcalc.cli`` in a fresh interpreter."""
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _IMPORT], capture_output=True, text=True, check=True, cwd=ROOT)
        times.append(float(out.stdout.strip()))
    return min(times)


def conversion_seconds(runs: int) -> tuple[float, float]:
    """Minimum seconds per ``inputs_from_dict`` and per ``inputs_to_dict`` call."""
    from vramcalc.serialize import inputs_from_dict, inputs_to_dict

    inp = inputs_from_dict(_CASE)
    n = 200
    parse = min(timeit.repeat(lambda: inputs_from_dict(_CASE), number=n, repeat=runs)) / n
    dump = min(timeit.repeat(lambda: inputs_to_dict(inp), number=n, repeat=runs)) / n
    return parse, dump


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    print(f"import vramcalc.cli: {import_seconds(args.runs) * 1000:.1f} ms (min of {args.runs} interpreters)")
    parse, dump = conversion_seconds(args.runs)
    print(f"inputs_from_dict: {parse * 1e6:.0f} us per call; inputs_to_dict: {dump * 1e6:.0f} us per call")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Post a run to your experiment journal from the rented machine.

One file, Python 3.8+ standard library only: copy it to the machine and run it. It posts one run to one entry
of your journal through the shop's API with a personal API token (create one on your account page), and
prints the run's web address.

    python gpurent_journal.py --url https://shop.example --token gpr_... --entry ENTRY_ID \\
        --name "bf16 b16" --param batch=16 --param dtype=bf16 --peak auto --throughput 1830 \\
        --conclusion "fits with 9 GiB to spare"

The token may come from the GPURENT_TOKEN environment variable instead of --token (it then stays out of the
shell history and the process list).

--peak auto reads the peak memory per GPU:
  1. from torch.cuda.max_memory_allocated() when PyTorch with CUDA is importable and reports a peak. Note that
     this counts the memory of the *calling process* only: from a separate command it is 0, so call
     `post_run(...)` from your training script (``import gpurent_journal``) to record torch's true peak;
  2. else from `nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits` (memory in use on each
     GPU now, by every process: run it while the job still holds its memory);
  3. else it stops with a message and posts nothing.

Each call makes one Idempotency-Key (a uuid4) and reuses it when it retries after a network error, so a run
is recorded once even when the connection drops after the shop received it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Sequence
from typing import Any

__all__ = ["JournalClientError", "PeakUnavailable", "main", "post_run", "read_peak", "read_peak_auto"]
__version__ = "1"

MIB = 1024**2
GIB = 1024**3
_RETRIES = 3
_TIMEOUT_S = 30


class JournalClientError(Exception):
    """The run could not be posted; the message says why (and what the shop answered)."""


class PeakUnavailable(JournalClientError):
    """--peak auto found neither PyTorch with CUDA nor nvidia-smi."""


def _torch_peaks() -> list[int] | None:
    """Peak bytes allocated by this process on each visible GPU, or None without torch/CUDA or a peak."""
    try:
        import torch  # type: ignore[import-not-found]
    except Exception:  # noqa: BLE001 - a broken torch install is the same as none here
        return None
    try:
        if not torch.cuda.is_available():
            return None
        peaks = [int(torch.cuda.max_memory_allocated(i)) for i in range(torch.cuda.device_count())]
    except Exception:  # noqa: BLE001 - CUDA errors mean "no reading", not a crash
        return None
    return peaks if any(peaks) else None


def _nvidia_smi_peaks() -> list[int] | None:
    """Memory used on each GPU now, in bytes, as nvidia-smi reports it (MiB), or None without nvidia-smi."""
    command = shutil.which("nvidia-smi")
    if command is None:
        return None
    try:
        result = subprocess.run(  # noqa: S603 - a fixed command found on PATH, no shell
            [command, "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if result.returncode != 0:
        return None
    peaks = []
    for line in result.stdout.splitlines():
        if not line.strip():
            continue
        try:
            peaks.append(int(float(line.strip())) * MIB)
        except ValueError:
            return None  # "[N/A]" or an unexpected format: no reliable reading
    return peaks or None


def read_peak_auto() -> tuple[list[int], str]:
    """The peak memory per GPU in bytes and where it was read.

    Raises:
        PeakUnavailable: neither torch with CUDA (and a non-zero peak) nor nvidia-smi gave a reading.
    """
    peaks = _torch_peaks()
    if peaks is not None:
        return peaks, "torch.cuda.max_memory_allocated"
    peaks = _nvidia_smi_peaks()
    if peaks is not None:
        return peaks, "nvidia-smi"
    raise PeakUnavailable(
        "--peak auto: no reading. PyTorch with CUDA is not importable (or reported no peak in this process) "
        "and nvidia-smi was not found or failed. Pass the peak in bytes instead, e.g. --peak 22548578304."
    )


def _size(text: str) -> int:
    text = text.strip()
    factor = 1
    for suffix, unit in (("GIB", GIB), ("MIB", MIB), ("B", 1)):
        if text.upper().endswith(suffix):
            text, factor = text[: -len(suffix)].strip(), unit
            break
    try:
        value = float(text) * factor
    except ValueError:
        raise JournalClientError(f"--peak: {text!r} is not a size (bytes, or a number with GiB/MiB)") from None
    if not 0 < value < 2**50:
        raise JournalClientError("--peak: a peak is above zero and below 1 PiB")
    return int(value)


def read_peak(spec: str) -> tuple[list[int], str]:
    """`auto`, bytes (`22548578304`), a size (`21GiB`), or one per GPU separated by commas."""
    if spec.strip().lower() == "auto":
        return read_peak_auto()
    return [_size(part) for part in spec.split(",") if part.strip()], "manual"


def _pairs(option: str, items: Sequence[str]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise JournalClientError(f"{option} {item!r}: write name=value, e.g. {option} batch=16")
        pairs[name.strip()] = value.strip()
    return pairs


def _request(url: str, token: str, body: dict[str, Any], key: str) -> dict[str, Any]:
    data = json.dumps(body).encode()
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Idempotency-Key": key,
        "User-Agent": f"gpurent-journal/{__version__}",
    }
    last_error = ""
    for attempt in range(_RETRIES):
        if attempt:
            time.sleep(2**attempt)
        request = urllib.request.Request(url, data=data, headers=headers, method="POST")  # noqa: S310 - user's URL
        try:
            with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as response:  # noqa: S310
                return dict(json.loads(response.read().decode()))
        except urllib.error.HTTPError as error:
            text = error.read().decode(errors="replace")
            code = ""
            try:
                detail = json.loads(text)["error"]
                code = str(detail["code"])
                message = f"{error.code} {code}: {detail['message']}"
            except (ValueError, KeyError, TypeError):
                message = f"{error.code}: {text[:200]}"
            # "Still running" (409 idempotency_key_in_use) and 5xx are worth a retry with the same key; anything else,
            # another 409 included (the entry is full: too_many_runs), will not change.
            if code == "idempotency_key_in_use" or error.code >= 500:
                last_error = message
                continue
            if error.code in (401, 403):
                message += " (check the token: create a personal API token on your account page)"
            raise JournalClientError(message) from None
        except (urllib.error.URLError, OSError) as error:
            last_error = f"cannot reach {url}: {getattr(error, 'reason', error)}"
    raise JournalClientError(last_error)


def post_run(
    *,
    url: str,
    token: str,
    entry: str,
    run: dict[str, Any],
    peak: str | None = None,
    phase: str = "steady",
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """Post `run` (the API's run fields) to `entry`; `peak` ("auto", bytes...) fills the phase's peaks.

    Returns the run as the shop recorded it, with `web_url` made absolute.

    Raises:
        JournalClientError: the peak could not be read, or the shop refused the run (the message says why).
    """
    body = json.loads(json.dumps(run))
    if peak is not None:
        peaks, source = read_peak(peak)
        measurement = body.setdefault(phase, {}) or {}
        measurement.update(peak_bytes_per_gpu=peaks, peak_source=source)
        body[phase] = measurement
    base = url.rstrip("/")
    endpoint = f"{base}/api/v1/journal/entries/{entry}/runs"
    created = _request(endpoint, token, body, idempotency_key or str(uuid.uuid4()))
    created["web_url"] = base + str(created.get("web_url", ""))
    return created


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpurent_journal.py", description="Post a run to your experiment journal (see the module docstring)."
    )
    add = parser.add_argument
    add("--url", required=True, help="the shop, e.g. https://shop.example")
    add("--token", default=os.environ.get("GPURENT_TOKEN"), help="personal API token (or GPURENT_TOKEN)")
    add("--entry", required=True, help="the entry id (shown on the entry page)")
    add("--name", required=True, help='the run, e.g. "bf16 b16"')
    add("--param", action="append", default=[], metavar="NAME=VALUE", help="a parameter (repeatable)")
    add("--version", action="append", default=[], metavar="LIB=VERSION", help="a library version (repeatable)")
    add("--seed", action="append", default=[], metavar="NAME=VALUE", help="a seed (repeatable)")
    add("--determinism", action="append", default=[], metavar="NAME=VALUE", help="a determinism setting")
    add("--code-version", default="", help="commit, tag or package version")
    add("--environment", default="", help="image, OS, CUDA and driver")
    add("--reproducibility", choices=["exact", "tolerance", "not_stated"], default="not_stated")
    add("--tolerance", default="", help='with --reproducibility tolerance, e.g. "eval loss within 0.002"')
    add("--phase", choices=["first", "steady"], default="steady", help="which phase the measurements are of")
    add("--peak", help="auto, bytes, a size (21.5GiB), or one per GPU separated by commas")
    add("--throughput", type=float)
    add("--throughput-unit", default="tokens/s")
    add("--latency-ms", type=float)
    add("--quality-metric", default="")
    add("--quality-value", type=float)
    add("--outcome", choices=["completed", "oom", "failed"], default="completed")
    add("--failure", default="", help="what failed, e.g. the out-of-memory message")
    add("--checkpoint", choices=["none", "saved_not_reloaded", "reloaded", "reload_failed"], default="none")
    add("--conclusion", default="")
    add("--idempotency-key", help="reuse a key to make a retry of an earlier call safe (default: a new uuid4)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status (0 posted, 1 refused or unreachable, 2 bad arguments)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("a token is required: --token gpr_... or the GPURENT_TOKEN environment variable")
    try:
        measurement: dict[str, Any] = {}
        if args.throughput is not None:
            measurement.update(throughput=args.throughput, throughput_unit=args.throughput_unit)
        if args.latency_ms is not None:
            measurement["latency_ms"] = args.latency_ms
        if args.quality_value is not None:
            measurement.update(quality_metric=args.quality_metric, quality_value=args.quality_value)
        run: dict[str, Any] = {
            "name": args.name,
            "code_version": args.code_version,
            "environment": args.environment,
            "parameters": _pairs("--param", args.param),
            "versions": _pairs("--version", args.version),
            "seeds": _pairs("--seed", args.seed),
            "determinism": _pairs("--determinism", args.determinism),
            "reproducibility": args.reproducibility,
            "tolerance": args.tolerance,
            "outcome": args.outcome,
            "failure": args.failure,
            "checkpoint": args.checkpoint,
            "conclusion": args.conclusion,
        }
        if measurement:
            run[args.phase] = measurement
        created = post_run(
            url=args.url,
            token=args.token,
            entry=args.entry,
            run=run,
            peak=args.peak,
            phase=args.phase,
            idempotency_key=args.idempotency_key,
        )
    except JournalClientError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"Run {created.get('number')} recorded: {created['web_url']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

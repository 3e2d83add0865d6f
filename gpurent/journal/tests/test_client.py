"""The standalone journal client (tools/gpurent_journal.py) against the live test server.

It runs in a subprocess, as on a rented machine, with a PATH we control: a fake `nvidia-smi` script stands in
for the real one, and neither torch nor nvidia-smi is needed.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.journal.models import Run

from .conftest import GIB

pytestmark = pytest.mark.django_db(transaction=True)

CLIENT = Path(__file__).resolve().parents[3] / "tools" / "gpurent_journal.py"


def run_client(args, *, path_dir, token=None, extra_env=None):
    env = {"PATH": str(path_dir), "PYTHONNOUSERSITE": "1", **(extra_env or {})}
    if token:
        env["GPURENT_TOKEN"] = token
    # -S: no site-packages, so a torch installed on this machine cannot change what --peak auto reads.
    return subprocess.run(
        [sys.executable, "-S", str(CLIENT), *args], capture_output=True, text=True, timeout=60, env=env, check=False
    )


def fake_nvidia_smi(directory: Path, output: str, status: int = 0) -> None:
    script = directory / "nvidia-smi"
    script.write_text(f"#!/bin/sh\nprintf '{output}'\nexit {status}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)


@pytest.fixture
def secret(user):
    return api_token_create(user=user, name="rented machine")[1]


def base_args(live_server, entry, *extra):
    return ["--url", live_server.url, "--entry", str(entry.public_id), "--name", "bf16 b16", *extra]


def test_client_posts_a_run_with_the_peak_from_nvidia_smi(live_server, entry, secret, tmp_path):
    fake_nvidia_smi(tmp_path, "21504\\n22000\\n")
    extra = ["--param", "batch=16", "--param", "dtype=bf16", "--peak", "auto", "--throughput", "1830"]
    extra += ["--conclusion", "fits"]
    result = run_client(base_args(live_server, entry, *extra), path_dir=tmp_path, token=secret)
    assert result.returncode == 0, result.stderr
    run = Run.objects.get()
    assert result.stdout.strip() == f"Run 1 recorded: {live_server.url}/journal/{entry.public_id}/runs/{run.public_id}/"
    measurement = run.measurements.get()
    assert measurement.peak_bytes_per_gpu == [21504 * 1024**2, 22000 * 1024**2]
    assert (measurement.peak_source, measurement.throughput) == ("nvidia-smi", 1830.0)
    assert (run.parameters, run.conclusion) == ({"batch": "16", "dtype": "bf16"}, "fits")


def test_client_without_torch_or_nvidia_smi_fails_clearly_and_posts_nothing(live_server, entry, secret, tmp_path):
    result = run_client(base_args(live_server, entry, "--peak", "auto"), path_dir=tmp_path, token=secret)
    assert result.returncode == 1
    assert "--peak auto: no reading" in result.stderr
    assert "nvidia-smi was not found or failed" in result.stderr
    assert not Run.objects.exists()


def test_client_failing_nvidia_smi_counts_as_no_reading(live_server, entry, secret, tmp_path):
    fake_nvidia_smi(tmp_path, "[N/A]\\n")
    result = run_client(base_args(live_server, entry, "--peak", "auto"), path_dir=tmp_path, token=secret)
    assert result.returncode == 1
    assert "no reading" in result.stderr


def test_client_records_a_given_peak_and_an_out_of_memory(live_server, entry, secret, tmp_path):
    extra = ["--peak", "79.5GiB", "--outcome", "oom", "--failure", "CUDA out of memory", "--phase", "first"]
    result = run_client(base_args(live_server, entry, *extra), path_dir=tmp_path, token=secret)
    assert result.returncode == 0, result.stderr
    run = Run.objects.get()
    assert run.outcome == "oom"
    assert run.measurements.get(phase="first").peak_bytes_per_gpu == [int(79.5 * GIB)]


def test_client_reports_the_shops_error(live_server, entry, tmp_path):
    result = run_client(base_args(live_server, entry, "--peak", "1000"), path_dir=tmp_path, token="gpr_wrong")
    assert result.returncode == 1
    # A token the shop does not know falls back to cookie authentication, which answers 403 without CSRF.
    assert "check the token" in result.stderr


def test_client_with_someone_elses_entry_is_not_found(live_server, entry, other_user, tmp_path):
    token = api_token_create(user=other_user, name="t")[1]
    result = run_client(base_args(live_server, entry), path_dir=tmp_path, token=token)
    assert result.returncode == 1
    assert "404 not_found" in result.stderr


def test_client_same_idempotency_key_records_once(live_server, entry, secret, tmp_path):
    args = base_args(live_server, entry, "--peak", "1000", "--idempotency-key", "retry-1")
    first = run_client(args, path_dir=tmp_path, token=secret)
    second = run_client(args, path_dir=tmp_path, token=secret)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    assert Run.objects.count() == 1


def test_client_bad_param_is_refused_before_posting(live_server, entry, secret, tmp_path):
    result = run_client(base_args(live_server, entry, "--param", "batch16"), path_dir=tmp_path, token=secret)
    assert result.returncode == 1
    assert "write name=value" in result.stderr
    assert os.environ.get("GPURENT_TOKEN") is None  # the test's own environment is untouched


def _load_client():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gpurent_journal_client", CLIENT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("code", "attempts"), [("too_many_runs", 1), ("idempotency_key_in_use", 3)])
def test_client_retries_only_a_request_still_running(monkeypatch, code, attempts):
    """A 409 is retried only when the shop says the same key is still running; a full entry is final at once."""
    import io
    import urllib.error

    client = _load_client()
    calls = []

    def refuse(request, timeout):
        calls.append(request)
        body = io.BytesIO(b'{"error": {"code": "%s", "message": "no"}}' % code.encode())
        raise urllib.error.HTTPError(request.full_url, 409, "Conflict", {}, body)  # type: ignore[arg-type]

    monkeypatch.setattr(client.urllib.request, "urlopen", refuse)
    monkeypatch.setattr(client.time, "sleep", lambda seconds: None)
    with pytest.raises(client.JournalClientError, match=f"409 {code}: no"):
        client._request("http://127.0.0.1:9/api", "gpr_x", {}, "key-1")
    assert len(calls) == attempts == (client._RETRIES if code == "idempotency_key_in_use" else 1)

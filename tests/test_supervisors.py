"""What starts the long-running processes again when they die (issue 32, decision 0387): `make run` runs the
worker and the sweep loop under scripts/respawn.sh, and deploy/systemd/ has a unit with `Restart=always` for the
worker, the sweep and the chain watcher. Before, a sweep loop that died stayed dead until a person noticed."""

from __future__ import annotations

import configparser
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESPAWN = ROOT / "scripts" / "respawn.sh"


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.05)


def test_respawn_starts_the_command_again_whenever_it_exits(tmp_path):
    runs = tmp_path / "runs"
    loop = subprocess.Popen([str(RESPAWN), "sh", "-c", f"echo run >> {runs}; exit 3"], stderr=subprocess.PIPE)
    try:
        wait_for(lambda: runs.exists() and len(runs.read_text().split()) >= 3, "three runs")
    finally:
        loop.send_signal(signal.SIGTERM)
        errors = loop.communicate(timeout=60)[1].decode()
    assert loop.returncode == 0
    assert "exited with status 3; starting it again" in errors


def test_respawn_stops_its_command_with_it(tmp_path):
    pid_file = tmp_path / "pid"
    loop = subprocess.Popen([str(RESPAWN), "sh", "-c", f"echo $$ > {pid_file}; exec sleep 300"])
    try:
        wait_for(lambda: pid_file.exists() and pid_file.read_text().strip(), "the command started")
    except BaseException:
        loop.kill()  # the loop only: its `sleep 300` ends by itself
        raise
    command = Path(f"/proc/{pid_file.read_text().strip()}")
    loop.send_signal(signal.SIGTERM)
    assert loop.wait(timeout=60) == 0
    wait_for(lambda: not command.exists() or " Z " in (command / "stat").read_text(), "the command ended")


def test_make_run_starts_its_background_processes_under_respawn():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    background = [line.strip() for line in recipe.splitlines() if line.rstrip(" \\").endswith("&")]
    assert len(background) == 2, recipe
    for line in background:
        assert line.startswith("bash scripts/respawn.sh $(PY) manage.py "), line


@pytest.mark.parametrize(
    ("unit", "command"),
    [
        ("gpurent-worker.service", "manage.py worker"),
        ("gpurent-sweep.service", "manage.py sweep --loop 60"),
        ("gpurent-watcher.service", "manage.py watch_chains"),
    ],
)
def test_each_long_running_process_has_a_systemd_unit_that_restarts_it(unit, command):
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read_string((ROOT / "deploy" / "systemd" / unit).read_text())
    service = parser["Service"]
    assert re.fullmatch(rf"\S+/python {re.escape(command)}", service["ExecStart"]), service["ExecStart"]
    assert service["Restart"] == "always"
    assert service["Environment"] == "DJANGO_SETTINGS_MODULE=config.settings.production"
    assert parser["Install"]["WantedBy"] == "multi-user.target"

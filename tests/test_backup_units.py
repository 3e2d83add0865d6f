"""The nightly backup's systemd units run scripts/backup.sh as the shop's user, from the timer (deploy/backup.md)."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "deploy" / "systemd"


def _unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    parser.read_string((UNITS / name).read_text())
    return parser


def test_backup_service_runs_the_backup_script_once_as_the_shop_user():
    service = _unit("gpurent-backup.service")["Service"]
    assert service["Type"] == "oneshot"
    assert service["User"] == "gpurent"
    assert service["ExecStart"] == "/usr/bin/bash /srv/gpurent/scripts/backup.sh"
    assert (ROOT / "scripts" / "backup.sh").is_file()
    assert service["EnvironmentFile"] == "/etc/gpurent/backup.env"


def test_backup_timer_starts_the_service_every_night_and_after_a_missed_night():
    parser = _unit("gpurent-backup.timer")
    timer = parser["Timer"]
    assert timer["Unit"] == "gpurent-backup.service"
    assert timer["OnCalendar"] == "*-*-* 03:15:00"
    assert timer["Persistent"] == "true"
    assert parser["Install"]["WantedBy"] == "timers.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_backup_timer_calendar_is_valid_for_systemd():
    calendar = _unit("gpurent-backup.timer")["Timer"]["OnCalendar"]
    result = subprocess.run(["systemd-analyze", "calendar", calendar], capture_output=True, text=True, timeout=60)  # noqa: S607
    assert result.returncode == 0, result.stderr
    assert "Normalized form: *-*-* 03:15:00" in result.stdout

"""A clock for django-otp's TOTP checks, and the code an authenticator app would show at that clock.

django-otp refuses a code of a time step it has already accepted (replay protection), so tests that use
several codes move the clock on by one 30-second step between them, as a person would wait for the next code.
"""

from __future__ import annotations

import pytest
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp import models as totp_models
from django_otp.plugins.otp_totp.models import TOTPDevice


class OtpClock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now

    def next_step(self) -> None:
        self.now += 30

    def code(self, device: TOTPDevice) -> str:
        """The 6 digits the app shows now for `device`."""
        device.refresh_from_db()
        totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
        totp.time = self.now
        return f"{totp.token():0{device.digits}d}"


def install_otp_clock(monkeypatch: pytest.MonkeyPatch) -> OtpClock:
    """Make django-otp's TOTP checks read `OtpClock` (a fixture's body: `otp_clock` in accounts' conftest)."""
    clock = OtpClock()
    monkeypatch.setattr(totp_models, "time", clock)
    return clock


def wrong_code(right: str) -> str:
    return f"{(int(right) + 1) % 1_000_000:06d}"

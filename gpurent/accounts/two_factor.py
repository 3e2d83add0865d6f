"""Customers' two-factor login: TOTP with django-otp, as staff use, and single-use recovery codes
(docs/decisions/0175-...).

A customer turns it on from the account page: `totp_enrol_start` makes an unconfirmed TOTP device (shown as
a QR code), `totp_enrol_confirm` confirms it with a code from the app and makes ten recovery codes
(django-otp's static device: each code is deleted when used). From then on the password is only the first
step of a login (`login_begin`), and `two_factor_disable` needs a code.

Codes are checked against the account's own devices, under their row locks, with django-otp's throttling
(each failure doubles the wait before the device answers again) and django-axes counting every wrong code
as a failed login for the (email, IP) pair, like a wrong password.
"""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from gpurent.core.errors import ApplicationError, InvalidRequest

from .models import User
from .sessions import user_sessions_end

__all__ = [
    "RECOVERY_CODE_COUNT",
    "TwoFactorCodeRequired",
    "recovery_codes_left",
    "totp_enrol_confirm",
    "totp_enrol_pending",
    "totp_enrol_start",
    "two_factor_disable",
    "two_factor_enabled",
    "two_factor_verify",
]

logger = logging.getLogger(__name__)

RECOVERY_CODE_COUNT = 10
_TOTP_NAME = "Authenticator app"
_RECOVERY_NAME = "Recovery codes"
_SEPARATORS = re.compile(r"[\s-]+")


class TwoFactorCodeRequired(ApplicationError):
    """The password was right, and the account also needs a code (the API's token request without one)."""

    code = "otp_required"
    status = 401
    default_message = gettext_lazy(
        "This account uses two-factor login: send a code from the authenticator app, or a recovery code, as `otp_code`."
    )


def two_factor_enabled(user: User) -> bool:
    """Whether `user` logs in with a code after the password (a confirmed TOTP device exists)."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def totp_enrol_pending(user: User) -> TOTPDevice | None:
    """The unconfirmed device being set up, if any."""
    return TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()


@transaction.atomic
def totp_enrol_start(*, user: User) -> TOTPDevice:
    """A new secret for the authenticator app (unconfirmed until a code from it is given).

    Raises:
        InvalidRequest: two-factor login is already on.
    """
    if two_factor_enabled(user):
        raise InvalidRequest(_("Two-factor login is already on."))
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name=_TOTP_NAME, confirmed=False)


def _normalise(code: str) -> str:
    return _SEPARATORS.sub("", code or "").lower()[:32]


def _recovery_codes_make(user: User) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=_RECOVERY_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODE_COUNT)]
    StaticToken.objects.bulk_create([StaticToken(device=device, token=code) for code in codes])
    return codes


def totp_enrol_confirm(*, user: User, code: str) -> tuple[TOTPDevice, list[str]]:
    """Confirm the pending device with a code from the app; returns it and the new recovery codes (shown once).
    Every session of the account is signed out (`user_sessions_end`): the caller keeps its own.

    A wrong code is committed to the device's throttling before the error is raised (never rolled back).

    Raises:
        InvalidRequest: no setup in progress, or the code is not the app's current one.
    """
    codes: list[str] = []
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).order_by("-pk").first()
        verified = device is not None and device.verify_token(_normalise(code))
        if verified and device is not None:
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
            codes = _recovery_codes_make(user)
            # A session opened before, by someone who knew only the password, must not outlive the second factor.
            user_sessions_end(user=user)
    if device is None:
        raise InvalidRequest(_("Start the setup again: scan the new QR code first."))
    if not verified:
        raise InvalidRequest(_("That code is not correct. Enter the 6-digit code your app shows now."))
    logger.info("user %s turned two-factor login on", user.pk)
    return device, codes


def two_factor_verify(*, user: User, code: str, request: HttpRequest | None = None) -> Device | None:
    """The device of `user`'s that accepts `code` (a 6-digit app code, or an unused recovery code), or None.

    A recovery code is deleted when it is used. A wrong code is counted by the device's throttling and, with
    a `request`, by django-axes as a failed login of this email from this address.
    """
    normalised = _normalise(code)
    model: type[Device] = TOTPDevice if normalised.isdigit() else StaticDevice
    matched: Device | None = None
    if normalised:
        with transaction.atomic():
            for device in model.objects.select_for_update().filter(user=user, confirmed=True).order_by("pk"):
                if device.verify_token(normalised):
                    matched = device
                    break
    if matched is None and request is not None:
        user_login_failed.send(
            sender=__name__, credentials={settings.AXES_USERNAME_FORM_FIELD: user.email}, request=request
        )
    return matched


def recovery_codes_left(user: User) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def recovery_codes_renew(*, user: User, code: str, request: HttpRequest | None = None) -> list[str]:
    """Replace the recovery codes (the old ones stop working); needs a current code. Not atomic around the
    check, so a wrong code's throttling and axes failure are kept when the error is raised.

    Raises:
        InvalidRequest: two-factor login is off, or the code is wrong.
    """
    if not two_factor_enabled(user):
        raise InvalidRequest(_("Two-factor login is off."))
    if two_factor_verify(user=user, code=code, request=request) is None:
        raise InvalidRequest(_("That code is not correct."))
    with transaction.atomic():
        codes = _recovery_codes_make(user)
    logger.info("user %s made new recovery codes", user.pk)
    return codes


def two_factor_disable(*, user: User, code: str, request: HttpRequest | None = None) -> None:
    """Turn two-factor login off: every TOTP device and recovery code of the account goes. Needs a code (its
    check commits on its own, as in `recovery_codes_renew`).

    Raises:
        InvalidRequest: two-factor login is off, or the code is wrong.
    """
    if not two_factor_enabled(user):
        raise InvalidRequest(_("Two-factor login is off."))
    if two_factor_verify(user=user, code=code, request=request) is None:
        raise InvalidRequest(_("That code is not correct."))
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
    logger.info("user %s turned two-factor login off", user.pk)

"""The back office's admin site: its home page and, with `STAFF_REQUIRE_2FA`, its two-factor login.

`config/urls.py` gives Django's `admin.site` one of these classes (as it gave it django-otp's `OTPAdminSite`):

- **The home page** (where the login lands) starts with "Waiting for an operator", the queues of the desks its
  reader may open (`dashboard.page.work_context`, the dashboard's own lines), then the sections: the desks first,
  the technical apps last, each under a name an operator reads ("Login lockouts", not "AXES"; "Two-factor:
  authenticator apps", not "OTP_TOTP"). Django listed them alphabetically under their packages' names, the
  desks fourth (QA walk of the back office, defect 22).
- **The two-factor login** says what to do without an authenticator: ask an administrator (the user's page in the
  back office links to adding one), or turn on two-factor login on the account page. An operator whose password is
  right but who has no device is told exactly that, instead of django-otp's "Please enter your OTP token." (defect
  10). The code field takes a code of any of the operator's devices (an authenticator app or a recovery code), so
  django-otp's device select and "Get OTP Challenge" button (for devices that send a code, which the shop has
  none of) are left out.

The back office is English (decision 0418): these texts are not marked for translation.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin import AdminSite
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django_otp import devices_for_user
from django_otp.admin import OTPAdminAuthenticationForm, OTPAdminSite
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from .dashboard.page import work_context

__all__ = ["APP_NAMES", "APP_ORDER", "BackOfficeSite", "OperatorLoginForm", "TwoFactorBackOfficeSite"]

# The sections of the home page, in this order: the desks and the work first; then what operators read and
# configure; the technical apps last. An app not listed comes after the listed business ones.
APP_ORDER = [
    "backoffice",
    "support",
    "orders",
    "payments",
    "ledger",
    "catalog",
    "hosts",
    "guides",
    "accounts",
    "auth",
    "core",
]
TECHNICAL_APPS = ["otp_totp", "otp_static", "axes", "django_tasks_database"]
# Names for the sections whose own name says nothing to an operator (or only its package's).
APP_NAMES = {
    "backoffice": "Desks",
    "auth": "Operators' roles",
    "core": "Audit log and notices",
    "otp_totp": "Two-factor: authenticator apps",
    "otp_static": "Two-factor: recovery codes",
    "axes": "Login lockouts",
    "django_tasks_database": "Background tasks",
}
# Rows whose model name is not what the page is: the support requests' list is the support inbox, listed first in
# its section (before the list of every message).
MODEL_NAMES = {("support", "supportrequest"): "Support inbox"}

NO_DEVICE = (
    "Your account has no authenticator yet, so it cannot log in to the back office. Ask an administrator to add a "
    "TOTP device for you and show you its QR code to scan with an authenticator app, or turn on two-factor login on "
    "your account page at %(url)s. Then log in here with a code from the app."
)


def _rank(app: dict[str, Any]) -> tuple[int, int]:
    label = app["app_label"]
    if label in APP_ORDER:
        return (0, APP_ORDER.index(label))
    if label in TECHNICAL_APPS:
        return (2, TECHNICAL_APPS.index(label))
    return (1, 0)


class BackOfficeSite(AdminSite):
    """Django's admin site with the back office's home page (this module's docstring)."""

    index_template = "admin/backoffice/index.html"
    index_title = "Home"

    def get_app_list(self, request: HttpRequest, app_label: str | None = None) -> list[Any]:
        apps = super().get_app_list(request, app_label)
        for app in apps:
            app["name"] = APP_NAMES.get(app["app_label"], app["name"])
            for model in app["models"]:
                key = (app["app_label"], model["object_name"].lower())
                model["name"] = MODEL_NAMES.get(key, model["name"])
            app["models"].sort(key=lambda model: model["name"] not in MODEL_NAMES.values())  # stable: renamed first
        # A stable sort: within a rank, Django's alphabetical order.
        return sorted(apps, key=_rank)

    def index(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> TemplateResponse:
        return super().index(request, {**work_context(request.user), **(extra_context or {})})


class OperatorLoginForm(OTPAdminAuthenticationForm):
    """django-otp's admin login form, for an operator: one code field for any of their devices, and a clear refusal
    when the password is right but the account has no device at all."""

    otp_token = forms.CharField(
        required=False,
        label="Code from your authenticator app (or a recovery code)",
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code"}),
    )

    def _chosen_device(self, user: Any) -> Device | None:
        chosen: Device | None = super()._chosen_device(user)  # the select's, when the page showed it
        if chosen is not None:
            return chosen
        token = str(self.cleaned_data.get("otp_token") or "").strip()
        kind = TOTPDevice if token.isdigit() else StaticDevice
        of_kind = [device for device in devices_for_user(user, confirmed=True) if isinstance(device, kind)]
        return of_kind[0] if len(of_kind) == 1 else None

    def clean_otp(self, user: Any) -> None:
        if user is not None and not any(devices_for_user(user, confirmed=True)):
            url = reverse("accounts:two_factor_setup")
            raise ValidationError(NO_DEVICE % {"url": url}, code="no_device")
        super().clean_otp(user)


class TwoFactorBackOfficeSite(BackOfficeSite, OTPAdminSite):
    """The back office with `STAFF_REQUIRE_2FA`: django-otp's site (a verified device for every page) with the
    back office's home page and login form."""

    login_form = OperatorLoginForm
    login_template = "admin/backoffice/login_two_factor.html"

"""Two-factor login pages: the code step of a login, and turning it on (QR code, confirm, recovery codes) or
off from the account page. Secrets and recovery codes must not stay in a cache: every answer to a signed-in
visitor (or one half-way through a login) is sent with `never_cache` headers by
`core.middleware.PrivateResponseMiddleware`.
"""

from __future__ import annotations

import io
from base64 import b32encode

import segno
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_otp import login as otp_login

from gpurent.core.errors import ApplicationError
from gpurent.core.form_targets import post_or_back

from .forms import TwoFactorCodeForm, TwoFactorSetupForm
from .login_flow import login_code_failed, login_finish, login_pending_user
from .sessions import OTHER_SESSIONS_ENDED
from .two_factor import (
    recovery_codes_renew,
    totp_enrol_confirm,
    totp_enrol_pending,
    totp_enrol_start,
    two_factor_disable,
    two_factor_verify,
)
from .views import _account_page, _account_user, _safe_next

_ACCOUNT_SECTION = "#two-factor"


def _qr_svg(payload: str, title: str) -> str:
    """An inline SVG QR code (no style attribute, so the CSP allows it; sized by CSS through its viewBox)."""
    out = io.BytesIO()
    segno.make(payload, error="m", micro=False).save(
        out, kind="svg", xmldecl=False, svgns=True, omitsize=True, border=4, title=title, svgclass="totp-qr", nl=False
    )
    return out.getvalue().decode("utf-8")


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    """The second step of a login: a code from the app or a recovery code, after the right password."""
    user = login_pending_user(request)
    if user is None:
        messages.info(request, _("Log in again: the code step lasts a few minutes, then the password is asked again."))
        return redirect("accounts:login")
    form = TwoFactorCodeForm(request.POST or None)
    form.fields["code"].widget.attrs["autofocus"] = True
    if request.method == "POST" and form.is_valid():
        credentials = {settings.AXES_USERNAME_FORM_FIELD: user.email}
        # A locked-out (email, IP) pair gets the wrong-code answer without its code being checked.
        allowed = AxesProxyHandler.is_allowed(request, credentials)
        device = two_factor_verify(user=user, code=form.cleaned_data["code"], request=request) if allowed else None
        if device is not None:
            login_finish(request, user, device)
            return redirect(_safe_next(request) or settings.LOGIN_REDIRECT_URL)
        login_code_failed(request)
        if login_pending_user(request) is None:
            messages.error(request, _("Too many wrong codes. Log in again."))
            return redirect("accounts:login")
        form.add_error("code", _("That code is not correct."))
    return render(request, "accounts/login_code.html", {"form": form, "next": _safe_next(request) or ""})


@login_required
@require_http_methods(["GET", "POST"])
def two_factor_setup(request: HttpRequest) -> HttpResponse:
    """POST: a new secret; GET: its QR code and the form that confirms it with a code."""
    user = _account_user(request)
    if request.method == "POST":
        try:
            totp_enrol_start(user=user)
        except ApplicationError as error:
            messages.info(request, error.message)
            return redirect(reverse("accounts:account") + _ACCOUNT_SECTION)
        return redirect("accounts:two_factor_setup")
    return _setup_page(request, TwoFactorSetupForm())


def _setup_page(request: HttpRequest, form: TwoFactorCodeForm, status: int = 200) -> HttpResponse:
    device = totp_enrol_pending(_account_user(request))
    if device is None:
        return redirect(reverse("accounts:account") + _ACCOUNT_SECTION)
    secret = b32encode(device.bin_key).decode()
    context = {
        "form": form,
        "qr": _qr_svg(device.config_url, title=_("QR code for your authenticator app")),
        "secret_groups": [secret[i : i + 4] for i in range(0, len(secret), 4)],
    }
    return render(request, "accounts/two_factor_setup.html", context, status=status)


@login_required
@post_or_back(lambda request: reverse("accounts:two_factor_setup"))
def two_factor_confirm(request: HttpRequest) -> HttpResponse:
    """A right code turns two-factor login on and shows the recovery codes, in this response only."""
    user = _account_user(request)
    form = TwoFactorSetupForm(request.POST)
    if form.is_valid():
        try:
            device, codes = totp_enrol_confirm(user=user, code=form.cleaned_data["code"])
        except ApplicationError as error:
            form.add_error("code", error.message)
        else:
            update_session_auth_hash(request, user)  # this session stays signed in, the others are ended
            otp_login(request, device)  # this session has just shown a code: it counts as verified
            messages.success(request, _("Two-factor login is on. You will be asked for a code after your password."))
            messages.info(request, OTHER_SESSIONS_ENDED)
            return render(request, "accounts/recovery_codes.html", {"codes": codes})
    return _setup_page(request, form, status=422)


@login_required
@post_or_back(lambda request: reverse("accounts:account") + _ACCOUNT_SECTION)
def two_factor_disable_view(request: HttpRequest) -> HttpResponse:
    form = TwoFactorCodeForm(request.POST, auto_id="id_disable_%s")
    if form.is_valid():
        try:
            two_factor_disable(user=_account_user(request), code=form.cleaned_data["code"], request=request)
        except ApplicationError as error:
            form.add_error("code", error.message)
        else:
            messages.success(request, _("Two-factor login is off. You log in with your password alone."))
            return redirect(reverse("accounts:account") + _ACCOUNT_SECTION)
    return _account_page(request, two_factor_disable_form=form, status=422)


@login_required
@post_or_back(lambda request: reverse("accounts:account") + _ACCOUNT_SECTION)
def recovery_codes_renew_view(request: HttpRequest) -> HttpResponse:
    form = TwoFactorCodeForm(request.POST, auto_id="id_renew_%s")
    if form.is_valid():
        try:
            codes = recovery_codes_renew(user=_account_user(request), code=form.cleaned_data["code"], request=request)
        except ApplicationError as error:
            form.add_error("code", error.message)
        else:
            return render(request, "accounts/recovery_codes.html", {"codes": codes})
    return _account_page(request, two_factor_renew_form=form, status=422)

"""Account pages: register, log in and out, passwords, the account page with profile and API tokens.

Login, password change and password reset are Django's views with this app's forms and templates. Every
page that shows account data is sent with Django's `never_cache` headers (ASVS 14.3.2: no copy in a shared or
back-button cache): `core.middleware.PrivateResponseMiddleware` marks every answer to a signed-in visitor, and
the registration form, shown before there is a session, is `never_cache` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from gpurent.core.errors import ApplicationError, NotFound
from gpurent.core.form_targets import post_or_back
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action

from .errors import RegistrationRateLimited, TooManySshKeys
from .forms import (
    EmailChangeForm,
    LoginForm,
    NewPasswordForm,
    PasswordChangeForm,
    ProfileForm,
    RegistrationForm,
    SshKeyForm,
    TokenCreateForm,
    TwoFactorCodeForm,
)
from .login_flow import login_begin
from .models import User
from .selectors import api_token_list, ssh_key_list
from .services import (
    api_token_create,
    api_token_revoke,
    profile_update,
    ssh_key_add,
    ssh_key_remove,
    user_language_set,
    user_register,
)
from .throttling import registration_throttle
from .two_factor import recovery_codes_left, two_factor_enabled

LOGIN_TEMPLATE = "accounts/login.html"


def _account_user(request: HttpRequest) -> User:
    # `login_required` has run: the user is a real account, which the type checker cannot know.
    assert isinstance(request.user, User)  # noqa: S101
    return request.user


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return None


@never_cache
@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:account")
    form = RegistrationForm(request.POST or None)
    if request.method == "POST":
        try:
            registration_throttle(request)  # before the form looks the email up (decision 0111)
        except RegistrationRateLimited as error:
            form = RegistrationForm.refused(request.POST, error)
            context = {"form": form, "next": _safe_next(request) or ""}
            return render(request, "accounts/register.html", context, status=error.status)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_register(request=request, **form.cleaned_data)
        except ApplicationError as error:
            form.apply_error(error)
        else:
            messages.success(request, _("Welcome, %(name)s. Your account is ready.") % {"name": user.first_name})
            return redirect(_safe_next(request) or "accounts:account")
    status = 422 if request.method == "POST" else 200  # a POST that reaches here was refused
    return render(request, "accounts/register.html", {"form": form, "next": _safe_next(request) or ""}, status=status)


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    template_name = LOGIN_TEMPLATE
    redirect_authenticated_user = True

    def form_valid(self, form: LoginForm) -> HttpResponse:  # type: ignore[override]
        # With two-factor login on, the password only leads to the code step (`login_flow`).
        return HttpResponseRedirect(login_begin(self.request, form.get_user(), next_url=self.get_success_url()))


# The back office's login page says that a login is locked (QA walk of the back office, defect 30): an operator read
# the generic refusal as a forgotten password and kept trying, each try restarting the hour
# (`AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT`, axes' default). English, as the back office (decision 0418).
BACK_OFFICE_LOCKED = (
    "This e-mail address is locked out after too many failed logins from your network: even the right password is "
    "refused until an hour has passed since the last try, and each try meanwhile starts the hour again. Wait, or ask "
    "an administrator to lift the lock (Login lockouts, then Access attempts)."
)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """What a locked-out (email, IP) pair gets (`AXES_LOCKOUT_CALLABLE`): exactly what a failed login gets, but on
    the back office's login page.

    axes refuses a locked-out pair inside `authenticate()`, so the view has already answered as for a wrong
    password (the login page with the generic error, the admin's login page, or the API's 401); that answer
    is returned unchanged, so locked, wrong-password and unknown-account responses cannot be told apart
    (ASVS 6.1.1, OWASP enumeration advice) and nobody learns that an account is being throttled. Without one
    (a caller that passes none), the login page is rendered with the same error and status 200.

    The back office's login page (`admin:login`) says that the login is locked instead, for every locked pair: axes
    locks an unknown address as it locks an account, so the message tells no more about an account than the
    customers' pages do, only that the lock exists and for how long. Customers' pages and the API are unchanged
    (decision 0021).
    """
    if isinstance(original_response, TemplateResponse) and request.path == reverse("admin:login"):
        return _back_office_locked(request, original_response)
    if isinstance(original_response, HttpResponse):
        return original_response
    # Bound without a password, so validating it never calls `authenticate()` (which axes would count).
    form = LoginForm(request, data={"username": request.POST.get("username", ""), "password": ""})
    form.is_valid()
    form.errors.clear()
    form.add_error(None, form.error_messages["invalid_login"])
    return render(request, LOGIN_TEMPLATE, {"form": form})


def _back_office_locked(request: HttpRequest, refused: TemplateResponse) -> TemplateResponse:
    """The back office's login page as the admin rendered it for the refused login, its error replaced by
    `BACK_OFFICE_LOCKED` (same template, form and status)."""
    context = dict(refused.context_data or {})
    form = context.get("form")
    if isinstance(form, forms.Form):
        form.errors.clear()  # bound and validated by the admin's login view: its "enter the correct email" error
        form.add_error(None, BACK_OFFICE_LOCKED)
    response = TemplateResponse(request, refused.template_name or [], context, status=refused.status_code)
    response.render()
    return response


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    # Logging out ends this browser session and nothing else (DESIGN §3): Django's logout() flushes the
    # server-side session, so the old cookie is dead even if someone kept a copy. It deliberately cancels
    # no order, releases no reserved stock, revokes no API token and touches no other session: those are
    # explicit actions of their own, and a logout is something people do by habit or by accident.
    # POST only, with CSRF, so another site cannot log a customer out with an image or a link.
    logout(request)
    messages.info(request, _("You are logged out."))
    return redirect(settings.LOGOUT_REDIRECT_URL)


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The language switcher's target: Django's `set_language` (cookie, safe redirect to `next`), and for a
    signed-in customer the account's language too, so emails go out in it (docs/decisions/0160-...)."""
    response = django_set_language(request)
    if request.user.is_authenticated:
        user_language_set(user=_account_user(request), language=request.POST.get("language", ""))
    return response


def _account_page(request: HttpRequest, *, status: int = 200, **context: Any) -> HttpResponse:
    user = _account_user(request)
    context.setdefault("profile_form", ProfileForm(instance=user))
    context.setdefault("email_form", EmailChangeForm())
    context.setdefault("token_form", TokenCreateForm())
    context.setdefault("ssh_key_form", SshKeyForm())
    context.setdefault("two_factor_disable_form", TwoFactorCodeForm(auto_id="id_disable_%s"))
    context.setdefault("two_factor_renew_form", TwoFactorCodeForm(auto_id="id_renew_%s"))
    context["two_factor_on"] = two_factor_enabled(user)
    context["recovery_codes_left"] = recovery_codes_left(user) if context["two_factor_on"] else 0
    context["tokens"] = api_token_list(user=user)
    context["ssh_keys"] = ssh_key_list(user=user)
    return render(request, "accounts/account.html", context, status=status)


@login_required
@require_http_methods(["GET"])
def account(request: HttpRequest) -> HttpResponse:
    return _account_page(request)


@login_required
@post_or_back(lambda request: reverse("accounts:account") + "#profile-heading")
def profile_edit(request: HttpRequest) -> HttpResponse:
    user = _account_user(request)
    form = ProfileForm(request.POST, instance=User.objects.get(pk=user.pk))
    if not form.is_valid():
        return _account_page(request, profile_form=form, status=422)
    profile_update(user=user, **form.cleaned_data)
    messages.success(request, _("Your name is saved."))
    return redirect("accounts:account")


@login_required
@post_or_back(lambda request: reverse("accounts:account") + "#tokens")
def token_create(request: HttpRequest) -> HttpResponse:
    """Create a token and show it once, in this response; a resubmitted form (same key) creates nothing.

    The idempotency record stores only the token's id: the secret exists in this response and nowhere else,
    so a replay cannot show it again and says so instead.
    """
    user = _account_user(request)
    form = TokenCreateForm(request.POST)
    if not form.is_valid():
        return _account_page(request, token_form=form, status=422)
    created: dict[str, str] = {}

    def create() -> Outcome:
        row, secret = api_token_create(user=user, name=form.cleaned_data["name"])
        created.update(name=row.name, secret=secret)
        return Outcome(201, {"token_id": row.pk})

    def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
        form.add_error(None, message)
        return _account_page(request, token_form=form, status=status)

    def shown_once(outcome: Outcome) -> HttpResponse:
        if not outcome.replayed:
            return _account_page(request, new_token=created)
        messages.info(
            request,
            _(
                "This token was already created; it was shown once, when it was made. If you did not copy it, "
                "revoke it and create a new one."
            ),
        )
        return redirect("accounts:account")

    return form_action(request, create, back=request.path, on_error=failed, respond=shown_once)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke a token, once per the form's idempotency key (a resubmitted form answers as the first did)."""
    user = _account_user(request)

    def revoke() -> Outcome:
        token = api_token_revoke(user=user, token_id=token_id)
        return Outcome(
            200, {"message": _("The token “%(name)s” is revoked and no longer works.") % {"name": token.name}}
        )

    return _own_row_action(request, revoke, back=reverse("accounts:account"))


def _own_row_action(request: HttpRequest, action: Callable[[], Outcome], *, back: str) -> HttpResponse:
    """`form_action` for an action on one of the customer's own rows: another user's row (or one already
    removed) stays a 404 page, as every owner-scoped object is, instead of a message."""

    def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
        if isinstance(error, NotFound):
            raise error
        messages.error(request, message)
        return redirect(back)

    return form_action(request, action, back=back, on_error=failed)


@login_required
@post_or_back(lambda request: reverse("accounts:account") + "#ssh-keys")
def ssh_key_create(request: HttpRequest) -> HttpResponse:
    """Add a public key, once per the form's idempotency key. A private key pasted by mistake is refused and
    not echoed back into the form."""
    user = _account_user(request)
    form = SshKeyForm(request.POST)
    back = reverse("accounts:account") + "#ssh-keys"

    def form_again() -> HttpResponse:
        # The form comes back with the name but never the pasted text: it may be a private key.
        data = request.POST.copy()
        data["public_key"] = ""
        form.data = data
        return _account_page(request, ssh_key_form=form, status=422)

    if not form.is_valid():
        return form_again()

    def add() -> Outcome:
        key = ssh_key_add(user=user, **form.cleaned_data)
        message = _("SSH key “%(name)s” added (%(fingerprint)s).") % {"name": key.name, "fingerprint": key.fingerprint}
        return Outcome(201, {"message": message, "redirect": back})

    def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
        # A full account is no fault of the pasted key: the message goes above the form, not under the field.
        form.add_error(None if isinstance(error, TooManySshKeys) else "public_key", message)
        return form_again()

    return form_action(request, add, back=back, on_error=failed)


@login_required
@require_POST
def ssh_key_delete(request: HttpRequest, key_id: int) -> HttpResponse:
    """Remove a key, once per the form's idempotency key (a resubmitted form answers as the first did)."""
    user = _account_user(request)
    back = reverse("accounts:account") + "#ssh-keys"

    def remove() -> Outcome:
        key = ssh_key_remove(user=user, key_id=key_id)
        return Outcome(200, {"message": _("SSH key “%(name)s” removed.") % {"name": key.name}, "redirect": back})

    return _own_row_action(request, remove, back=back)


class PasswordChangeView(auth_views.PasswordChangeView):
    """The current password and a new one; this session stays logged in, every other session is logged out
    (Django checks a hash of the password on each request of a session)."""

    form_class = PasswordChangeForm
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:account")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, _("Your password is changed. Other devices have been logged out."))
        return response


class EmailPasswordResetForm(PasswordResetForm):
    email = forms.EmailField(
        label=gettext_lazy("Email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )


class PasswordResetView(auth_views.PasswordResetView):
    """Always the same answer, whether or not an account uses the address (no account enumeration)."""

    form_class = EmailPasswordResetForm
    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/emails/password_reset.txt"
    html_email_template_name = "accounts/emails/password_reset.html"  # the shop's e-mail layout, as every other
    subject_template_name = "accounts/emails/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")
    # The email names the shop, not the host name Django would use without the sites framework.
    extra_email_context = {"site_name": settings.BRAND_NAME, "brand_name": settings.BRAND_NAME}


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = NewPasswordForm
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"

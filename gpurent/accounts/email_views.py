"""Changing the account's email: ask on the account page, confirm from the link sent to the new address.

The confirmation link opens a page with a button: only the POST changes anything, so a mail scanner that
follows links cannot confirm a change by itself.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from gpurent.core.errors import ApplicationError
from gpurent.core.form_targets import post_or_back

from .email_change import email_change_confirm, email_change_request, email_change_target
from .forms import EmailChangeForm
from .sessions import OTHER_SESSIONS_ENDED
from .views import _account_page, _account_user


@login_required
@post_or_back(lambda request: reverse("accounts:account") + "#email")
def email_change(request: HttpRequest) -> HttpResponse:
    """Send the link. The answer is the same whether or not another account uses the address."""
    form = EmailChangeForm(request.POST)
    if form.is_valid():
        try:
            email_change_request(
                user=_account_user(request),
                new_email=form.cleaned_data["new_email"],
                password=form.cleaned_data["password"],
            )
        except ApplicationError as error:
            form.add_error(None, error.message)
    if not form.is_valid():
        return _account_page(request, email_form=form, status=422)
    messages.success(
        request,
        _(
            "We sent a link to %(email)s. Open it while logged in to confirm the change; until then you keep "
            "logging in with your current address."
        )
        % {"email": form.cleaned_data["new_email"].strip().lower()},
    )
    return redirect(reverse("accounts:account") + "#email")


@login_required
@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    user = _account_user(request)
    try:
        if request.method == "POST":
            email_change_confirm(user=user, token=token)
            update_session_auth_hash(request, user)  # this session stays signed in, the others are ended
            messages.success(
                request, _("Your email is now %(email)s. You log in with it from now on.") % {"email": user.email}
            )
            messages.info(request, OTHER_SESSIONS_ENDED)
            return redirect(reverse("accounts:account") + "#email")
        new_email = email_change_target(user=user, token=token)
    except ApplicationError as error:
        return render(request, "accounts/email_confirm.html", {"error": error.message}, status=error.status)
    return render(request, "accounts/email_confirm.html", {"new_email": new_email})

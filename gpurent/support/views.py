"""Support pages: my requests, the request form, a request's thread with its message form, closing, and the
whole text of a long message or field.

Every view is for the logged-in owner only: a request of someone else is a 404 (the selectors are scoped).
POST data is marked sensitive so Django's error reports never show what a customer pasted.

A request's page shows its thread a page at a time (`MESSAGES_PER_PAGE` newest, "Earlier messages" for the
rest) and long texts shortened, with a link to the whole text as `text/plain`: decision 0352.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from gpurent.accounts.models import User
from gpurent.core.errors import ApplicationError
from gpurent.core.form_targets import post_or_back
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.pagination import page_from_request

from .enums import Author
from .forms import MessageForm, SupportRequestForm
from .models import SupportRequest
from .selectors import (
    LIST_ORDER,
    THREAD_ORDER,
    chronological,
    support_message_get_for,
    support_messages,
    support_request_get_for,
    support_request_list_for,
)
from .services import LONG_TEXT_FIELDS, support_message_post, support_request_close, support_request_create

# Messages on a request's page. 20 is about a week of a busy thread (an operator answers once or twice a day),
# enough to read the conversation without paging; and with each text's HTML at most 4 kB it keeps the page under
# 150 KB (decision 0352). The earlier ones are pages of 20 behind the "Earlier messages" link.
MESSAGES_PER_PAGE = 20
# The thread's cursor parameter, apart from any other list's `cursor`.
THREAD_CURSOR = "earlier"


def _user(request: HttpRequest) -> User:
    # login_required guarantees it; this narrows the type for the services.
    return cast(User, request.user)


@login_required
@require_GET
def request_list(request: HttpRequest) -> HttpResponse:
    """My support requests, most recent activity first."""
    page = page_from_request(request, support_request_list_for(_user(request)), key=LIST_ORDER)
    return render(request, "support/list.html", {"support_requests": page.items, "page": page})


@sensitive_post_parameters()
@sensitive_variables()
@login_required
@require_http_methods(["GET", "POST"])
def request_create(request: HttpRequest) -> HttpResponse:
    """The request form. On success, the new request's page lists what was removed from the text."""
    user = _user(request)
    if request.method != "POST":
        initial = {"order": request.GET.get("order", "")}
        return render(request, "support/create.html", {"form": SupportRequestForm(owner=user, initial=initial)})
    form = SupportRequestForm(request.POST, owner=user)
    if form.is_valid():

        def create() -> Outcome:
            created = support_request_create(owner=user, data=form.to_input())
            detail = reverse("support:detail", args=[created.ref])
            return Outcome(303, {"ref": created.ref, "removed": len(created.redactions), "redirect": detail})

        def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
            form.add_error(None, message)
            return render(request, "support/create.html", {"form": form}, status=status)

        def sent(body: dict[str, Any]) -> str:
            return _("Your request %(ref)s was sent.") % {"ref": body["ref"]}

        return form_action(request, create, back=request.path, success=sent, on_error=failed)
    return render(request, "support/create.html", {"form": form}, status=422 if request.method == "POST" else 200)


@login_required
@require_GET
def request_detail(request: HttpRequest, ref: str) -> HttpResponse:
    """A request, what was removed from it, its thread, and the message form."""
    support_request = support_request_get_for(_user(request), ref)
    return _render_detail(request, support_request, MessageForm())


def _render_detail(
    request: HttpRequest, support_request: SupportRequest, form: MessageForm, status: int = 200
) -> HttpResponse:
    messages = support_messages(support_request)
    page = page_from_request(request, messages, size=MESSAGES_PER_PAGE, key=THREAD_ORDER, param=THREAD_CURSOR)
    page = chronological(page)
    context = {
        "support_request": support_request,
        "thread": page.items,
        "page": page,
        "thread_cursor": THREAD_CURSOR,
        "form": form,
    }
    return render(request, "support/detail.html", context, status=status)


def _whole_text(text: str, filename: str) -> HttpResponse:
    """A stored (already redacted) text, whole, as plain text the browser shows: never run as HTML (the type is
    sent with `nosniff`, `SECURE_CONTENT_TYPE_NOSNIFF`)."""
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@require_GET
def message_text(request: HttpRequest, ref: str, message_id: int) -> HttpResponse:
    """One message of the owner's request, whole, as text (the page shows a long one shortened)."""
    support_request = support_request_get_for(_user(request), ref)
    message = support_message_get_for(support_request, message_id)
    return _whole_text(message.body, f"{support_request.ref}-message-{message.pk}.txt")


@login_required
@require_GET
def field_text(request: HttpRequest, ref: str, name: str) -> HttpResponse:
    """One long text field of the owner's request (logs, observed…), whole, as text."""
    if name not in LONG_TEXT_FIELDS:
        raise Http404
    support_request = support_request_get_for(_user(request), ref)
    return _whole_text(getattr(support_request, name), f"{support_request.ref}-{name}.txt")


@sensitive_post_parameters()
@sensitive_variables()
@login_required
@post_or_back(lambda request, ref: reverse("support:detail", args=[ref]) + "#message-form")
def message_create(request: HttpRequest, ref: str) -> HttpResponse:
    """Add the customer's message to the thread (once per form key)."""
    user = _user(request)
    support_request = support_request_get_for(user, ref)
    form = MessageForm(request.POST)
    if form.is_valid():

        def post() -> Outcome:
            message, findings = support_message_post(
                request=support_request, author=user, role=Author.CUSTOMER, body=form.cleaned_data["body"]
            )
            anchor = reverse("support:detail", args=[support_request.ref]) + f"#message-{message.pk}"
            return Outcome(303, {"message_id": message.pk, "removed": len(findings), "redirect": anchor})

        def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
            form.add_error(None, message)
            return _render_detail(request, support_request, form, status=status)

        back = reverse("support:detail", args=[support_request.ref])
        return form_action(request, post, back=back, success=_("Your message was sent."), on_error=failed)
    return _render_detail(request, support_request, form, status=422)


@login_required
@require_POST
def request_close(request: HttpRequest, ref: str) -> HttpResponse:
    """Close the request, once per the form's idempotency key; writing to it again reopens it."""
    support_request = support_request_get_for(_user(request), ref)

    def close() -> Outcome:
        support_request_close(request=support_request, actor=_user(request))
        message = _("Request %(ref)s is closed. Write to it again if you need more help.") % {
            "ref": support_request.ref
        }
        return Outcome(200, {"message": message})

    return form_action(request, close, back=reverse("support:detail", args=[support_request.ref]))

"""Idempotent requests: where a key comes from (the `Idempotency-Key` header of an API call, the hidden field
of an HTML form rendered by `{% idempotency_key_field %}`), whose it is, the fingerprint of what the request
asks for, and the helpers views call to run a request once per key: `api_idempotent`, `api_idempotent_known`
and `form_action`. The keys themselves (claim, store, replay) are `gpurent.core.idempotency.keys`'s.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_variables
from ninja import Header

from ..errors import ApplicationError, IdempotencyKeyInUse, InvalidRequest
from ..notices import notify_operators
from ..redaction import redacted_params
from .keys import Outcome, Write, run_idempotent, run_idempotent_known, run_idempotent_unclaimed

__all__ = [
    "FORM_FIELD",
    "HEADER",
    "KEY_REQUIRED_MESSAGE",
    "IdempotencyKeyHeader",
    "api_idempotent",
    "api_idempotent_known",
    "form_action",
    "form_key",
    "form_params",
    "owner_of",
    "request_fingerprint",
]

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
# Printable ASCII without spaces, as Stripe accepts (UUIDs, ULIDs, and similar client-made keys). The message says
# exactly that (issue 32: "printable characters" read as if a space were allowed).
_KEY_PATTERN = re.compile(r"[!-~]{1,255}")
KEY_REQUIRED_MESSAGE = gettext_lazy(
    "An idempotency key is required: 1 to 255 characters, each one of the ASCII letters, digits or punctuation "
    "marks (no spaces, no other characters), e.g. a UUID."
)
# A form sent again while its first submission still runs (a double click, decision 0295): the API's 409 message
# speaks of idempotency keys, which a customer never sees.
FORM_IN_USE_MESSAGE = gettext_lazy(
    "This form was already sent and is still being processed. Wait a moment, then check the result before sending"
    " it again."
)
# The header as an API view's parameter: the OpenAPI document then declares it (required, with its pattern),
# and django-ninja answers a missing or malformed one with the usual 422 `invalid_request`.
IdempotencyKeyHeader = Annotated[
    str,
    Header(
        alias=HEADER,
        min_length=1,
        max_length=255,
        pattern=r"^[!-~]+$",
        description=(
            "A key you choose per request (e.g. a UUID): 1 to 255 ASCII letters, digits or punctuation marks "
            "(`!` to `~`; no spaces, no other characters). A retry with the same key and body replays the first "
            "answer; the same key with another body is refused (422 `idempotency_key_reused`); while the first "
            "request with the key is still running, a retry gets 409 `idempotency_key_in_use` (retry shortly)."
        ),
    ),
]
# Fields of an HTML form that differ between two submissions of the same request.
_VOLATILE_FORM_FIELDS = frozenset({"csrfmiddlewaretoken", FORM_FIELD})


def owner_of(request: HttpRequest) -> str:
    """The scope of a request's keys: the user when logged in, else the guest's session (created if needed)."""
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    if request.session.session_key is None:
        request.session.save()
    return f"session:{request.session.session_key}"


@sensitive_variables()
def request_fingerprint(method: str, path: str, params: Mapping[str, Any]) -> str:
    """A stable hash of what a request asks for: method, path, and its parameters in canonical JSON.

    String parameters are hashed with their secrets redacted (`redacted_params`), so no form or API body that
    held a pasted key leaves a brute-forceable trace of it in the idempotency table (decision 0062).
    """
    canonical = json.dumps(
        {"method": method.upper(), "path": path, "params": redacted_params(params)},
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _validated_key(key: str | None) -> str:
    if key is None or not _KEY_PATTERN.fullmatch(key):
        raise InvalidRequest(KEY_REQUIRED_MESSAGE)
    return key


def form_key(request: HttpRequest) -> str:
    """The hidden idempotency key of a submitted HTML form.

    Raises:
        InvalidRequest: the field is missing or malformed (a page rendered without `{% idempotency_key_field %}`).
    """
    return _validated_key(request.POST.get(FORM_FIELD))


def form_params(request: HttpRequest) -> dict[str, list[str]]:
    """The submitted form fields that identify the request (CSRF token and key excluded)."""
    return {name: request.POST.getlist(name) for name in request.POST if name not in _VOLATILE_FORM_FIELDS}


def api_idempotent_known(
    request: HttpRequest, key: str, params: Mapping[str, Any], outcome: Outcome, write: Write, *, durable: bool = True
) -> Outcome:
    """`run_idempotent_known` for an API request (owner and fingerprint as in `api_idempotent`)."""
    return run_idempotent_known(
        owner=owner_of(request),
        key=_validated_key(key),
        fingerprint=request_fingerprint(request.method or "POST", request.path, params),
        outcome=outcome,
        write=write,
        durable=durable,
    )


def api_idempotent(
    request: HttpRequest, key: str, params: Mapping[str, Any], action: Callable[[], Outcome], *, claim: bool = True
) -> Outcome:
    """`run_idempotent` for an API request: `key` is the view's `IdempotencyKeyHeader` parameter, the owner
    comes from the request, the fingerprint from the method, the path and `params` (the parsed body).
    `claim=False`: `run_idempotent_unclaimed` (the action calls `finish_early` in its transaction).

    Raises:
        InvalidRequest: the header is missing or malformed.
        IdempotencyKeyReused, IdempotencyKeyInUse: as `run_idempotent`.
    """
    key = _validated_key(key)
    return (run_idempotent if claim else run_idempotent_unclaimed)(
        owner=owner_of(request),
        key=key,
        fingerprint=request_fingerprint(request.method or "POST", request.path, params),
        action=action,
    )


def _form_idempotent(request: HttpRequest, action: Callable[[], Outcome], *, claim: bool = True) -> Outcome:
    """`run_idempotent` for an HTML form: the key from its hidden field, the owner from the request, and a
    fingerprint of the path and the submitted fields (CSRF token and key excluded; secrets in them redacted by
    `request_fingerprint`).

    Raises:
        InvalidRequest: the form carries no valid key.
        IdempotencyKeyReused, IdempotencyKeyInUse: as `run_idempotent`.
    """
    return (run_idempotent if claim else run_idempotent_unclaimed)(
        owner=owner_of(request),
        key=form_key(request),
        fingerprint=request_fingerprint("POST", request.path, form_params(request)),
        action=action,
    )


# What a form page answers to a failed action instead of a flash message and a redirect: usually the form again,
# with the message on it. `error` is the raised error, or None for a stored failure that was replayed.
FormError = Callable[[str, int, "ApplicationError | None"], HttpResponse]


def form_action(
    request: HttpRequest,
    action: Callable[[], Outcome],
    *,
    back: str,
    success: str | Callable[[dict[str, Any]], str] | None = None,
    on_error: FormError | None = None,
    respond: Callable[[Outcome], HttpResponse] | None = None,
    failure_back: str | None = None,
    first_success: Callable[[Outcome], None] | None = None,
    claim: bool = True,
) -> HttpResponse:
    """An HTML form's action, once per idempotency key: the one way every HTML POST runs an idempotent action.

    An error (raised, or stored and replayed) becomes `on_error(message, status, error)` when given (a form page
    shows the form again with the message), else an error message and a redirect to `back`, the page the form
    was on, or to `failure_back` for a business failure the action returned or stored (checkout: out of stock
    goes back to the choice, which says how many lots are left); an error meant for operators is recorded for
    them (`notify_operators`). Otherwise the success message (`success`, a text or made from the outcome's
    body, else the body's `message`) is shown and `first_success(outcome)` runs (checkout clears its draft), the
    first time only, not on a replay; the redirect goes to the outcome's `redirect`, else to `back` — or the
    response is `respond(outcome)`, for a page that shows what the action made once (a new API token's secret).
    `claim=False`: the key is not claimed first but written by the action's `finish_early` (`run_idempotent_unclaimed`).

    This is the only caller of `_form_idempotent`: `gpurent/core/tests/test_one_form_helper.py` fails when any
    other module runs an idempotent form action by itself.
    """
    try:
        outcome = _form_idempotent(request, action, claim=claim)
    except ApplicationError as error:
        notify_operators(error)
        shown = str(FORM_IN_USE_MESSAGE) if isinstance(error, IdempotencyKeyInUse) else error.message
        if on_error is not None:
            return on_error(shown, error.status, error)
        messages.error(request, shown)
        return redirect(back)
    if outcome.is_error:
        if on_error is not None:
            return on_error(outcome.body["error"]["message"], outcome.status, None)
        messages.error(request, outcome.body["error"]["message"])
        return redirect(failure_back or back)
    message = success(outcome.body) if callable(success) else success or outcome.body.get("message")
    if not outcome.replayed:
        if message:
            messages.success(request, message)
        if first_success is not None:
            first_success(outcome)
    if respond is not None:
        return respond(outcome)
    return redirect(outcome.body.get("redirect", back))

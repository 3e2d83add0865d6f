"""The request side of idempotency keys: where a key comes from (the `Idempotency-Key` header of an API call or
the hidden field of an HTML form), whose it is, and the fingerprint of what the request asks for.
`gpurent.core.idempotency` runs a request once per key with these."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Annotated, Any

from django.http import HttpRequest
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_variables
from ninja import Header

from .errors import InvalidRequest
from .redaction import redacted_params

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
# Printable ASCII without spaces, as Stripe accepts (UUIDs, ULIDs, and similar client-made keys).
_KEY_PATTERN = re.compile(r"[!-~]{1,255}")
KEY_REQUIRED_MESSAGE = gettext_lazy("An idempotency key of 1 to 255 printable characters is required.")
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
            "A key you choose per request (e.g. a UUID): a retry with the same key and body replays the first "
            "answer; the same key with another body is refused (422 `idempotency_key_reused`)."
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


def validated_key(key: str | None) -> str:
    if key is None or not _KEY_PATTERN.fullmatch(key):
        raise InvalidRequest(KEY_REQUIRED_MESSAGE)
    return key


def form_key(request: HttpRequest) -> str:
    """The hidden idempotency key of a submitted HTML form.

    Raises:
        InvalidRequest: the field is missing or malformed (a page rendered without `{% idempotency_key_field %}`).
    """
    return validated_key(request.POST.get(FORM_FIELD))


def form_params(request: HttpRequest) -> dict[str, list[str]]:
    """The submitted form fields that identify the request (CSRF token and key excluded)."""
    return {name: request.POST.getlist(name) for name in request.POST if name not in _VOLATILE_FORM_FIELDS}

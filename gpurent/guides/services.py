"""Writes of the guides app: create a quote request (rate-limited, acknowledged by email), change its status."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, replace
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_variables

from gpurent.accounts.owners import Owner
from gpurent.catalog.selectors import gpu_get
from gpurent.core.audit import audit_record, snapshot
from gpurent.core.emails import email_queue
from gpurent.core.errors import InvalidRequest, NotFound
from gpurent.core.invisible import label_clean
from gpurent.core.redaction import redact_fields

from .enums import Endpoint, GuideWorkload, QuoteStatus, Scope, SupportLevel
from .errors import QuoteRateLimited
from .models import SAMPLE_DATA_MAX_CHARS, QuoteRequest

__all__ = ["QuoteDetails", "client_ip_hash", "quote_request_create", "quote_request_set_status"]


@dataclass(frozen=True)
class QuoteDetails:
    """What the customer asks a quote for (the form's or the API's fields, already shape-checked)."""

    gpu_slug: str
    guide_workload: str
    guide_scope: str
    model_name: str
    endpoint: str
    support_level: str
    delivery_scope: str
    expected_load: str
    contact_email: str
    sample_data: str = ""


def client_ip_hash(address: str) -> str:
    """An HMAC of a client address under the secret key: rate limits per address without storing it."""
    if not address:
        return ""
    return hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256).hexdigest()


def _validated(details: QuoteDetails) -> QuoteDetails:
    choices = [
        (details.guide_workload, GuideWorkload.values),
        (details.guide_scope, Scope.values),
        (details.delivery_scope, Scope.values),
        (details.endpoint, Endpoint.values),
        (details.support_level, SupportLevel.values),
    ]
    if any(value not in allowed for value, allowed in choices):
        raise InvalidRequest(_("Choose a workload, scope, endpoint and support level from the lists."))
    model_name, load = label_clean(details.model_name), details.expected_load.strip()  # the quote's label
    if not model_name or len(model_name) > 200:
        raise InvalidRequest(_("Name the model, in at most 200 characters."))
    if not load or len(load) > 500:
        raise InvalidRequest(_("Describe the expected request load, in at most 500 characters."))
    if len(details.sample_data) > SAMPLE_DATA_MAX_CHARS:
        raise InvalidRequest(
            _("Keep the sample data under %(n)d characters; we ask for the rest later.") % {"n": SAMPLE_DATA_MAX_CHARS}
        )
    email = details.contact_email.strip()
    try:
        validate_email(email)
    except ValidationError:
        raise InvalidRequest(_("Enter a valid contact email.")) from None
    return QuoteDetails(
        gpu_slug=details.gpu_slug,
        guide_workload=details.guide_workload,
        guide_scope=details.guide_scope,
        model_name=model_name,
        endpoint=details.endpoint,
        support_level=details.support_level,
        delivery_scope=details.delivery_scope,
        expected_load=load,
        contact_email=email,
        sample_data=details.sample_data.strip(),
    )


# The customer's own words: the same secret redaction as support runs on them before anything is stored or
# e-mailed (decision 0101).
_FREE_TEXT = ("model_name", "expected_load", "sample_data")


@sensitive_variables()
def _redacted(details: QuoteDetails) -> QuoteDetails:
    cleaned, _findings = redact_fields({name: getattr(details, name) for name in _FREE_TEXT})
    return replace(details, **cleaned)


def _check_rate(owner: Owner, ip_hash: str) -> None:
    limit = getattr(settings, "GUIDES_QUOTE_RATE_LIMIT", 5)
    window = timedelta(minutes=getattr(settings, "GUIDES_QUOTE_RATE_WINDOW_MINUTES", 60))
    same_sender = Q(user=owner.user) if owner.user is not None else Q(guest=owner.guest)
    if ip_hash:
        same_sender |= Q(client_ip_hash=ip_hash)
    recent = QuoteRequest.objects.filter(same_sender, created_at__gte=timezone.now() - window).count()
    if recent >= limit:
        raise QuoteRateLimited()


@sensitive_variables()
@transaction.atomic
def quote_request_create(*, owner: Owner, details: QuoteDetails, client_ip: str = "") -> QuoteRequest:
    """Store a quote request for operators and queue its acknowledgement email (sent after commit, once).

    At most `GUIDES_QUOTE_RATE_LIMIT` requests per `GUIDES_QUOTE_RATE_WINDOW_MINUTES` come from one owner or
    one client address; the count reads stored rows, so it holds across app servers. Secrets in the free text
    (model, expected load, sample data) are replaced by `[REDACTED: …]` markers first, by the same redaction as
    support's, so neither the row nor the acknowledgement e-mail holds them; the length limits apply to that text.

    Raises:
        InvalidRequest: a field is missing, too long or not one of its choices; or the owner is not exactly
            one of a user and a guest session.
        QuoteRateLimited: too many recent requests from this owner or address.
    """
    if (owner.user is None) == (owner.guest is None):
        raise InvalidRequest(_("A quote request belongs to exactly one account or guest session."))
    clean = _validated(_redacted(details))
    try:
        gpu = gpu_get(clean.gpu_slug)
    except NotFound:
        raise InvalidRequest(_("This GPU model is not on sale.")) from None
    ip_hash = client_ip_hash(client_ip)
    _check_rate(owner, ip_hash)
    quote = QuoteRequest.objects.create(
        user=owner.user,
        guest=owner.guest,
        gpu=gpu,
        guide_workload=clean.guide_workload,
        guide_scope=clean.guide_scope,
        model_name=clean.model_name,
        endpoint=clean.endpoint,
        support_level=clean.support_level,
        delivery_scope=clean.delivery_scope,
        sample_data=clean.sample_data,
        expected_load=clean.expected_load,
        contact_email=clean.contact_email,
        client_ip_hash=ip_hash,
    )
    email_queue(
        key=f"quote-ack:{quote.public_id}",
        to=quote.contact_email,
        template="guides_quote_ack",
        context={
            "ref": quote.short_id,
            "model": quote.model_name,
            "gpu": gpu.name,
            "workload": GuideWorkload(quote.guide_workload).label,
            "scope": Scope(quote.delivery_scope).label,
            "endpoint": Endpoint(quote.endpoint).label,
            "support": SupportLevel(quote.support_level).label,
            "load": quote.expected_load,
        },
    )
    return quote


@transaction.atomic
def quote_request_set_status(*, quote: QuoteRequest, status: str, note: str, actor: AbstractBaseUser) -> QuoteRequest:
    """An operator moves a quote request to `status` (any of the four) with a note; audited with before/after.

    Raises:
        InvalidRequest: unknown status.
    """
    if status not in QuoteStatus.values:
        raise InvalidRequest(_("Unknown status."))
    before = snapshot(QuoteRequest.objects.select_for_update().get(pk=quote.pk))
    quote.status, quote.operator_note = status, note
    quote.save(update_fields=["status", "operator_note", "updated_at"])
    audit_record(actor=actor, action="quote_request.status", target=quote, before=before, after=snapshot(quote))
    return quote

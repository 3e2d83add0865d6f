"""Every write to support requests: opening one, posting to its thread, closing it (DESIGN §8).

The customer's text is redacted here, before any row is built, so no caller can store a secret by forgetting
to: the raw text lives only in this request's memory (and `sensitive_variables` keeps it out of error
reports). Size caps are checked on the raw text; rate limits on the rows already written, under a lock on the
customer's row so two concurrent submissions cannot both slip under the limit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Min, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.debug import sensitive_variables

from gpurent.accounts.services import account_lock
from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_get
from gpurent.core.audit import audit_record, snapshot
from gpurent.core.emails import email_operators, email_queue
from gpurent.core.errors import InvalidRequest, NotFound
from gpurent.core.invisible import label_clean
from gpurent.core.redaction import Finding, redact_fields, redact_text
from gpurent.core.references import new_reference
from gpurent.orders.models import Order
from gpurent.orders.selectors import order_get_for

from .enums import Author, RequestStatus
from .errors import RateLimited
from .limits import field_max_bytes, message_rate_limits, request_rate_limits
from .models import SupportMessage, SupportRequest

__all__ = [
    "LONG_TEXT_FIELDS",
    "SUBJECT_MAX_CHARS",
    "RequestInput",
    "support_message_post",
    "support_request_close",
    "support_request_create",
]

SUBJECT_MAX_CHARS = 200
# Where the text fields of a request are named in findings and messages ("removed: … in 'Logs', line 12").
TEXT_FIELDS = ("subject", "library_versions", "reproduction_steps", "expected", "observed", "logs")
# The ones that may hold 100 kB: the request's page shows them in sections, shortened when long, each also served
# whole as text (`views.field_text`).
LONG_TEXT_FIELDS = TEXT_FIELDS[1:]


@dataclass(frozen=True, slots=True)
class RequestInput:
    """What a customer submits to open a request: references by their public keys, and free text."""

    subject: str
    observed: str
    order_ref: str = ""
    gpu_slug: str = ""
    library_versions: str = ""
    reproduction_steps: str = ""
    expected: str = ""
    logs: str = ""

    def texts(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in TEXT_FIELDS}


def check_size(name: str, value: str) -> None:
    """Raises InvalidRequest when `value` is over the per-field cap (counted in UTF-8 bytes)."""
    limit = field_max_bytes()
    if len(value.encode()) > limit:
        raise InvalidRequest(
            _("%(field)s is too long: at most %(limit)d kB per field. Keep the relevant part of the log.")
            % {"field": field_label(name), "limit": limit // 1000}
        )


def field_label(name: str) -> str:
    """The field's name as the form shows it."""
    if name == "body":
        return _("Message")
    field = SupportRequest._meta.get_field(name)
    return str(getattr(field, "verbose_name", name)).capitalize()


def _support_requests(count: int) -> str:
    return ngettext("%(count)d support request", "%(count)d support requests", count) % {"count": count}


def _messages(count: int) -> str:
    return ngettext("%(count)d message", "%(count)d messages", count) % {"count": count}


def _check_rate(
    submissions: QuerySet[SupportRequest] | QuerySet[SupportMessage],
    limits: tuple[tuple[int, int], ...],
    counted: Callable[[int], str],
) -> None:
    """Refuse one more submission when a window of `limits` (seconds, allowed) is full; `counted(n)` names n of
    them ("1 support request", "3 messages": the noun agrees with its number in every language)."""
    now = timezone.now()
    for seconds, allowed in limits:
        window = submissions.filter(created_at__gt=now - timedelta(seconds=seconds))
        if window.count() >= allowed:
            oldest = window.aggregate(first=Min("created_at"))["first"] or now
            minutes = max(1, int((oldest + timedelta(seconds=seconds) - now).total_seconds() // 60) + 1)
            raise RateLimited(
                ngettext(
                    "You can send at most %(what)s in %(window)s. Please try again in %(minutes)d minute.",
                    "You can send at most %(what)s in %(window)s. Please try again in %(minutes)d minutes.",
                    minutes,
                )
                % {"what": counted(allowed), "window": _window_label(seconds), "minutes": minutes}
            )


def _window_label(seconds: int) -> str:
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("a day", "%(days)d days", days) % {"days": days}
    hours = max(1, seconds // 3600)
    return ngettext("an hour", "%(hours)d hours", hours) % {"hours": hours}


def _resolve(owner: AbstractBaseUser, order_ref: str, gpu_slug: str) -> tuple[Order | None, GpuModel | None]:
    order = gpu = None
    if order_ref.strip():
        try:
            order = order_get_for(owner, order_ref.strip())
        except NotFound:
            raise InvalidRequest(_("Choose one of your own orders, or none.")) from None
    if gpu_slug.strip():
        try:
            gpu = gpu_get(gpu_slug.strip(), include_off_sale=True)
        except NotFound:
            raise InvalidRequest(_("Choose a GPU model from the catalog, or none.")) from None
    elif order is not None:
        gpu = order.gpu
    return order, gpu


@sensitive_variables()
def support_request_create(*, owner: AbstractBaseUser, data: RequestInput) -> SupportRequest:
    """Open a support request with its text redacted; `redactions` on the row lists what was removed. The support
    operators are e-mailed that it waits for them (after commit, once per request).

    Raises:
        InvalidRequest: no subject or observed result, a field over the size cap, an order that is not the
            owner's, or an unknown GPU model.
        RateLimited: the owner opened too many requests recently.
    """
    texts = {name: value.strip() for name, value in data.texts().items()}
    texts["subject"] = label_clean(texts["subject"])  # a label the back office lists (decision 0377)
    if not texts["subject"]:
        raise InvalidRequest(_("Give your request a short subject."))
    if len(texts["subject"]) > SUBJECT_MAX_CHARS:
        raise InvalidRequest(_("Keep the subject under %(limit)d characters.") % {"limit": SUBJECT_MAX_CHARS})
    if not texts["observed"]:
        raise InvalidRequest(_("Describe what you observed."))
    for name, value in texts.items():
        check_size(name, value)
    order, gpu = _resolve(owner, data.order_ref, data.gpu_slug)
    cleaned, findings = redact_fields(texts)
    cleaned["subject"] = cleaned["subject"][: SupportRequest._meta.get_field("subject").max_length]
    with transaction.atomic():
        account_lock(owner)  # the rate-limit count and the insert cannot interleave
        _check_rate(SupportRequest.objects.filter(owner_id=owner.pk), request_rate_limits(), _support_requests)
        created = _create_with_unique_ref(
            owner=owner,
            order=order,
            gpu=gpu,
            status=RequestStatus.OPEN,
            redactions=[finding.as_json() for finding in findings],
            last_message_at=timezone.now(),
            **cleaned,
        )
        _tell_operators(created, key=f"support-request:{created.pk}", follow_up=False)
        return created


def _create_with_unique_ref(**fields: object) -> SupportRequest:
    # 40 random bits make a clash very unlikely; the unique index makes it impossible, and we retry.
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return SupportRequest.objects.create(ref=new_reference("S"), **fields)
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free support request reference")


@sensitive_variables()
def support_message_post(
    *, request: SupportRequest, author: AbstractBaseUser, role: Author, body: str
) -> tuple[SupportMessage, list[Finding]]:
    """Add a message to the thread, redacted, and move the request's status.

    A customer's message reopens the request (`open`: waiting for us), counts against the message rate limit and
    e-mails the support operators (once per message, after commit). An operator's
    reply marks it `answered`, writes an audit row, and queues an email to the customer (sent after commit,
    once per message). The caller has checked who may write: the owner, or a staff user.

    Raises:
        InvalidRequest: an empty body or one over the size cap.
        RateLimited: the customer sent too many messages recently.
    """
    body = body.strip()
    if not body:
        raise InvalidRequest(_("Write a message."))
    check_size("body", body)
    redacted = redact_text(body, field="body")
    with transaction.atomic():
        locked = SupportRequest.objects.select_for_update().get(pk=request.pk)
        before = snapshot(locked)
        if role == Author.CUSTOMER:
            account_lock(author)
            _check_rate(
                SupportMessage.objects.filter(author_id=author.pk, author_role=Author.CUSTOMER),
                message_rate_limits(),
                _messages,
            )
        message = SupportMessage.objects.create(
            request=locked,
            author_role=role,
            author_id=author.pk,
            body=redacted.text,
            redactions=[finding.as_json() for finding in redacted.findings],
        )
        locked.status = RequestStatus.ANSWERED if role == Author.OPERATOR else RequestStatus.OPEN
        locked.last_message_at = message.created_at
        locked.save(update_fields=["status", "last_message_at", "updated_at"])
        if role == Author.OPERATOR:
            audit_record(
                actor=author,
                action="support.reply",
                target=locked,
                before={"status": before["status"]},
                after={"status": locked.status, "message_id": message.pk},
            )
            _notify_customer(locked, message)
        else:
            _tell_operators(locked, key=f"support-message:{message.pk}", follow_up=True)
    request.status, request.last_message_at = locked.status, locked.last_message_at
    return message, list(redacted.findings)


def _tell_operators(request: SupportRequest, *, key: str, follow_up: bool) -> None:
    """E-mail the `support` role's operators that a request waits for them: a new one, or a customer's follow-up
    (once per request or message and operator, after commit). Like the customer's e-mail it names the request and
    links to it, never what the customer wrote: the thread stays behind the back office's login."""
    site = settings.SITE_URL.rstrip("/")
    email_operators(
        "support",
        key=key,
        template="backoffice/support_request",
        context={
            "ref": request.ref,
            "customer": request.owner.email,
            "follow_up": follow_up,
            "url": site + reverse("admin:support_supportrequest_change", args=[request.pk]),
            "inbox_url": site + reverse("admin:support_supportrequest_changelist"),
        },
    )


def _notify_customer(request: SupportRequest, message: SupportMessage) -> None:
    # The email says that there is an answer, not what it says: the thread stays behind the login.
    owner = request.owner
    email_queue(
        key=f"support-reply:{message.pk}",
        to=owner.email,
        template="support_reply",
        language=owner.email_language(),
        context={
            "first_name": owner.first_name,
            "ref": request.ref,
            "url": settings.SITE_URL.rstrip("/") + reverse("support:detail", args=[request.ref]),
        },
    )


def support_request_close(*, request: SupportRequest, actor: AbstractBaseUser) -> SupportRequest:
    """Close a request (the owner's choice, or an operator's; an operator's close is audited). Idempotent."""
    with transaction.atomic():
        locked = SupportRequest.objects.select_for_update().get(pk=request.pk)
        if locked.status == RequestStatus.CLOSED:
            return locked
        before = locked.status
        locked.status = RequestStatus.CLOSED
        locked.save(update_fields=["status", "updated_at"])
        if getattr(actor, "is_staff", False) and locked.owner_id != actor.pk:
            audit_record(
                actor=actor,
                action="support.close",
                target=locked,
                before={"status": before},
                after={"status": locked.status},
            )
    request.status = locked.status
    return locked

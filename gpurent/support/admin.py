"""Support threads in the back office: operators read requests and reply (redacted, audited, emailed).

A request's change page lists its `THREAD_SHOWN` newest messages (each body shortened as on the customer's page),
with the thread's count and a link to all its messages: the list of support messages filtered by the request, a
bounded change list newest first (decision 0352).

The list is the support inbox: by default the requests waiting for us (`open`: new, or the customer wrote last),
oldest waiting first; the other queues (waiting for the customer, closed, all) newest activity first.

Everything a customer wrote is read-only. The change page has one writable field, "Reply to the customer", and two
buttons. "Send reply" posts an operator message through `support_message_post`, which redacts it too (an operator
may paste a customer's config back), writes the audit row in the same transaction and queues the email to the
customer; an empty reply is refused with the form shown again (nothing sent, nothing said to have changed).
"Close the request" closes it through `support_request_close` (audited). Both run through `form_action` once per
the page's hidden idempotency key (`change_form.html`): a double submit posts and e-mails once.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.defaultfilters import linebreaks_filter
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from gpurent.accounts.models import User
from gpurent.core.admin import (
    ONCE_PER_KEY_CHANGE_LIST,
    BoundedListAdmin,
    QueueFilter,
    ReadOnlyModelAdmin,
    customer_language_html,
    with_zone,
)
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.redaction import Finding

from .enums import Author, RequestStatus
from .models import SupportMessage, SupportRequest
from .selectors import THREAD_ORDER
from .services import support_message_post, support_request_close
from .shortening import shown

# The messages a request's change page lists: the newest, as on the customer's page.
THREAD_SHOWN = 20
# The characters of a message the list of messages shows.
EXCERPT_CHARS = 200


def _findings_html(stored: list[dict[str, Any]]) -> SafeString | str:
    findings = [Finding.from_json(data) for data in stored]
    if not findings:
        return "—"
    return format_html_join(
        "", "<div>{} · {} · {}</div>", ((f.kind.label, f.field, _("line %d") % f.line) for f in findings)
    )


def _messages_link(support_request: SupportRequest) -> str:
    return reverse("admin:support_supportmessage_changelist") + f"?request__id__exact={support_request.pk}"


def _body_html(message: SupportMessage) -> SafeString:
    """The body as the customer's page shows it: shortened when long, with a link to the whole message."""
    body = shown(message.body)
    if not body.cut:
        return linebreaks_filter(body.text)
    whole = reverse("admin:support_supportmessage_change", args=[message.pk])
    note = _("Shortened: %(size)d kB in all.") % {"size": body.total_kb}
    return format_html(
        '{}<p>{} <a href="{}">{}</a></p>', linebreaks_filter(body.text + "…"), note, whole, _("Whole message")
    )


class NewestMessagesFormSet(BaseInlineFormSet[SupportMessage, SupportRequest, Any]):
    """The thread's `THREAD_SHOWN` newest messages, oldest first. The inline's queryset is filtered by the request
    after `get_queryset`, so it cannot be cut there; here it is, by an `id IN (newest ids)` subquery."""

    def get_queryset(self) -> QuerySet[SupportMessage]:
        if not hasattr(self, "_queryset"):
            thread = cast(QuerySet[SupportMessage], self.queryset)
            newest = thread.order_by(*THREAD_ORDER).values("pk")[:THREAD_SHOWN]
            messages = SupportMessage.objects.filter(pk__in=newest).select_related("author")
            self._queryset = messages.order_by("id")
        return self._queryset


class SupportMessageInline(admin.TabularInline[SupportMessage, SupportRequest]):
    model = SupportMessage
    formset = NewestMessagesFormSet
    extra = 0
    can_delete = False
    verbose_name_plural = _("latest messages")
    fields = readonly_fields = ("sent", "author_role", "author", "message", "removed")

    class Media:
        css = {"all": ["support/admin.css"]}  # no caption above each message (QA walk 2)

    @admin.display(description=_("sent at"))
    def sent(self, obj: SupportMessage) -> str:
        return with_zone(obj.created_at)

    @admin.display(description=_("message"))
    def message(self, obj: SupportMessage) -> SafeString:
        return _body_html(obj)

    @admin.display(description=_("removed secrets"))
    def removed(self, obj: SupportMessage) -> SafeString | str:
        return _findings_html(obj.redactions)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReplyForm(forms.ModelForm[SupportRequest]):
    # Required: "Send reply" with nothing typed is refused, and the page says that nothing was sent (it said "The
    # support request … was changed successfully." while nothing was: QA walk of the back office, defect 17).
    reply = forms.CharField(
        label=_("Reply to the customer"),
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
        help_text=_("Sent to the customer's thread; they are emailed a link. Secrets are redacted here too."),
        error_messages={"required": _("Write a reply before sending it: nothing was sent.")},
    )

    class Meta:
        model = SupportRequest
        fields: list[str] = []


class InboxFilter(QueueFilter):
    """The inbox's queues: the requests waiting for us by default, as the desks' "Needs action"."""

    title = _("queue")
    parameter_name = "queue"
    WAITING = default = "waiting"
    STATUSES = {WAITING: RequestStatus.OPEN, "customer": RequestStatus.ANSWERED, "closed": RequestStatus.CLOSED}

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            (self.WAITING, _("Waiting for us")),
            ("customer", _("Waiting for the customer")),
            ("closed", _("Closed")),
            ("all", _("All")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        status = self.STATUSES.get(self.value())
        return queryset if status is None else queryset.filter(status=status)


class GpuModelFilter(admin.RelatedFieldListFilter):
    """The GPU filter titled as the shop names it ("By GPU model", not the field's name "By gpu")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.title = str(_("GPU model"))


@admin.register(SupportRequest)
class SupportRequestAdmin(BoundedListAdmin):
    form = ReplyForm
    list_display = ["ref", "subject", "owner", "order", "gpu_model", "status", "last_activity"]
    list_filter = [InboxFilter, ("gpu", GpuModelFilter)]
    search_fields = ["ref", "subject", "owner__email", "order__ref"]
    list_select_related = ["owner", "order", "gpu"]
    date_hierarchy = "created_at"
    inlines = [SupportMessageInline]
    actions = ["close_requests"]
    change_list_template = ONCE_PER_KEY_CHANGE_LIST
    readonly_fields = [
        "ref",
        "owner",
        "order",
        "gpu_model",
        "status",
        "subject",
        "library_versions",
        "reproduction_steps",
        "expected",
        "observed",
        "logs",
        "removed",
        "created",
        "last_activity",
        "thread",
        "customer_language",
    ]
    fieldsets = [
        (None, {"fields": ["ref", "owner", "order", "gpu_model", "status", "created", "last_activity", "thread"]}),
        (
            _("Request"),
            {
                "fields": [
                    "subject",
                    "library_versions",
                    "reproduction_steps",
                    "expected",
                    "observed",
                    "logs",
                    "removed",
                ]
            },
        ),
        # The reply reaches the customer as typed: the operator writes it in the customer's language.
        (_("Answer"), {"fields": ["customer_language", "reply"]}),
    ]

    @admin.display(description=_("removed secrets"))
    def removed(self, obj: SupportRequest) -> SafeString | str:
        return _findings_html(obj.redactions)

    @admin.display(description=_("GPU model"), ordering="gpu__name")
    def gpu_model(self, obj: SupportRequest) -> str:
        return obj.gpu.name if obj.gpu is not None else "—"

    def get_ordering(self, request: HttpRequest) -> list[str]:
        # The inbox: the request waiting longest first (an open request's last message is the customer's). The
        # other queues: the latest activity first.
        if request.GET.get(InboxFilter.parameter_name, InboxFilter.WAITING) == InboxFilter.WAITING:
            return ["last_message_at", "id"]
        return ["-last_message_at", "-id"]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # Not Django's "Select support request to change".
        return super().changelist_view(request, {"title": _("Support inbox"), **(extra_context or {})})

    def get_inline_instances(self, request: HttpRequest, obj: SupportRequest | None = None) -> list[Any]:
        # No empty table of headers: the conversation's line says "No messages yet." (`thread`).
        if obj is None or not obj.messages.exists():
            return []
        return super().get_inline_instances(request, obj)

    # Moments as the desks write them ("06 Dec 2026, 10:53 UTC"), not the admin's "Dec. 6, 2026, 10:53 a.m.".
    @admin.display(description=_("created at"), ordering="created_at")
    def created(self, obj: SupportRequest) -> str:
        return with_zone(obj.created_at)

    @admin.display(description=_("last activity"), ordering="last_message_at")
    def last_activity(self, obj: SupportRequest) -> str:
        return with_zone(obj.last_message_at)

    @admin.display(description=_("customer's language"))
    def customer_language(self, obj: SupportRequest) -> SafeString:
        return customer_language_html(obj.owner)

    @admin.display(description=_("conversation"))
    def thread(self, obj: SupportRequest) -> SafeString | str:
        count = obj.messages.count()
        if count == 0:
            return str(_("No messages yet."))
        summary = ngettext("%(count)d message", "%(count)d messages", count) % {"count": count}
        if count > THREAD_SHOWN:
            summary += " · " + _("the newest %(shown)d are listed below") % {"shown": THREAD_SHOWN}
        return format_html('{} · <a href="{}">{}</a>', summary, _messages_link(obj), _("All messages"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        closing = request.method == "POST" and "_close" in request.POST
        reply = request.POST.get("reply", "").strip() if request.method == "POST" else ""
        if not reply and not closing:
            # A page, or "Send reply" with nothing typed: the form shown again with its error (`ReplyForm`).
            context = {"title": _("Answer a support request"), **(extra_context or {})}
            return super().change_view(request, object_id, form_url, context)
        # Nothing of the request itself is editable: the only changes an operator makes are a reply and closing
        # it, each once per idempotency key (a double click or a resubmitted page posts and e-mails it once).
        support_request = self.get_object(request, object_id)
        if support_request is None:
            raise Http404
        if not self.has_change_permission(request, support_request):
            raise PermissionDenied
        operator = cast(User, request.user)  # the admin site lets only logged-in staff in
        inbox = reverse("admin:support_supportrequest_changelist")
        if closing:
            return self._close(request, support_request, operator, reply, inbox)
        done = request.path if "_continue" in request.POST else inbox

        def act() -> Outcome:
            _message, findings = support_message_post(
                request=support_request, author=operator, role=Author.OPERATOR, body=reply
            )
            body = {"message": str(_("Reply posted; the customer is e-mailed a link.")), "redirect": done}
            return Outcome(200, {**body, "removed": len(findings)})

        def warn_removed(outcome: Outcome) -> None:
            if count := outcome.body["removed"]:
                messages.warning(
                    request,
                    ngettext(
                        "%(count)d secret was removed from your reply.",
                        "%(count)d secrets were removed from your reply.",
                        count,
                    )
                    % {"count": count},
                )

        return form_action(request, act, back=request.path, first_success=warn_removed)

    def _close(
        self, request: HttpRequest, support_request: SupportRequest, operator: User, reply: str, inbox: str
    ) -> HttpResponse:
        """The page's "Close the request" button: a reply typed above is sent first (in the same transaction), then
        the request is closed (audited), once per the page's key; back to the inbox."""

        def act() -> Outcome:
            text = _("%(ref)s closed. The customer can reopen it by writing again.")
            if reply:
                support_message_post(request=support_request, author=operator, role=Author.OPERATOR, body=reply)
                text = _("Reply posted and %(ref)s closed; the customer is e-mailed a link.")
            support_request_close(request=support_request, actor=operator)
            return Outcome(200, {"message": str(text % {"ref": support_request.ref}), "redirect": inbox})

        return form_action(request, act, back=request.path)

    def save_model(self, request: HttpRequest, obj: SupportRequest, form: forms.Form, change: bool) -> None:
        # A save without a reply changes nothing (a reply goes through `change_view`, once per key).
        return None

    @admin.action(description=_("Close selected requests"), permissions=["change"])
    def close_requests(self, request: HttpRequest, queryset: QuerySet[SupportRequest]) -> HttpResponse:
        """Close the selected requests, once per the list page's idempotency key (`change_list.html`)."""

        def act() -> Outcome:
            count = 0
            for item in queryset:
                support_request_close(request=item, actor=cast(User, request.user))
                count += 1
            return Outcome(200, {"message": ngettext("%d request closed.", "%d requests closed.", count) % count})

        return form_action(request, act, back=request.get_full_path())


@admin.register(SupportMessage)
class SupportMessageAdmin(ReadOnlyModelAdmin):
    """Every message, newest first, read-only: a request's whole thread is this list filtered by the request (the
    link on its change page). Operators reply on the request's change page."""

    list_display = ["sent", "request", "author_role", "author", "excerpt"]
    list_filter = ["author_role"]
    search_fields = ["request__ref"]
    list_select_related = ["request", "author"]
    ordering = ["-id"]
    fields = readonly_fields = ("request", "author_role", "author", "sent", "body", "removed")

    @admin.display(description=_("sent at"), ordering="created_at")
    def sent(self, obj: SupportMessage) -> str:
        return with_zone(obj.created_at)

    @admin.display(description=_("message"))
    def excerpt(self, obj: SupportMessage) -> str:
        return obj.body[:EXCERPT_CHARS] + ("…" if len(obj.body) > EXCERPT_CHARS else "")

    @admin.display(description=_("removed secrets"))
    def removed(self, obj: SupportMessage) -> SafeString | str:
        return _findings_html(obj.redactions)

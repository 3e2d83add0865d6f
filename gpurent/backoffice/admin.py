"""The operators' desks in the Django admin: what they share, and the payments desk (payments to verify).

The provisioning desk (orders to provision, machine requests) is in `provisioning_admin.py`, the payouts desk
(withdrawals to send) in `payouts_admin.py`; both are imported at the end of this module.

Rows are never edited here: each action calls the service that owns it (verification, provisioning), which
checks the rules, writes the audit row and queues the emails in one transaction.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Exists, IntegerField, OuterRef, Q, QuerySet, Value, When, prefetch_related_objects
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from gpurent.accounts.models import User
from gpurent.core.admin import (
    OwnerEmailColumn,
    ReadOnlyModelAdmin,
    address_ends_html,
    customer_language_html,
    email_html,
)
from gpurent.core.admin import with_zone as _with_zone
from gpurent.core.errors import ApplicationError
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.money import Usd
from gpurent.core.notices import recent_notices
from gpurent.payments.assets import Pair, format_units, pair_get, parse_units, required_confirmations
from gpurent.payments.intents.state import IntentState, intent_state
from gpurent.payments.models import IntentStatus, Payment, PaymentSource, PaymentState
from gpurent.payments.networks import network_get
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.received.verification import ManualVerifier, review_resolve

from .models import PaymentsDesk

# How far back the payments desk shows notices meant for operators.
NOTICE_WINDOW = timedelta(hours=1)


def _operator(request: HttpRequest) -> User:
    # The admin only serves logged-in staff; this narrows the type for the services.
    return cast(User, request.user)


class NeedsActionFilter(admin.SimpleListFilter):
    """Rows that still need an operator, by default; "All" shows the history too. The changelist's count
    then counts only rows that need action."""

    title = _("queue")
    parameter_name = "queue"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("action", _("Needs action")), ("all", _("All"))]

    def value(self) -> str:
        return super().value() or "action"

    def choices(self, changelist: Any) -> Any:
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "all":
            return queryset
        return queryset.filter(desk_rank__lt=queryset.model.DESK_RANK_NEEDS_ACTION_BELOW)


# The intent states whose sentence already says their label ("Payment reported. Awaiting verification.",
# "Seen on chain, 1 of 2 confirmations", "Payment confirmed on …"): the verify page shows the sentence alone.
STATES_SAID_BY_THEIR_MESSAGE = frozenset({"payment_reported", "seen_on_chain", "confirmed"})


def state_text(state: IntentState) -> str:
    """The intent's state in one phrase for the verify page, its label said once: "Payment reported. Awaiting
    verification.", "Rejected (No valid payment was found for these instructions.)", "Awaiting payment"."""
    if state.message and state.code in STATES_SAID_BY_THEIR_MESSAGE:
        return str(state.message)
    return f"{state.label} ({state.message})" if state.message else str(state.label)


class DeskAdmin(OwnerEmailColumn, ReadOnlyModelAdmin):
    """A desk lists rows and acts through a form (calling services); nothing is edited directly.

    `get_ordering` returns the desk's own order: without it the changelist applies the model's default
    ordering (newest first) over the queryset's, and the rows that need action sink.
    """

    action_permission = ""
    desk_ordering: tuple[str, ...] = ()
    # What the count under the list says: the model's verbose_name_plural names the desk ("payments desk"), so
    # Django's own count would read "0 payments desk" (admin/backoffice/pagination.html shows `desk_count`).
    # `rows_noun` names the rows of the "Needs action" queue, `all_rows_noun` those of "All" (the history too:
    # "7 payments", not "7 payments to verify"), `queue_nouns` those of any other queue the desk's filter has.
    rows_noun: tuple[str, str] = ("row", "rows")
    all_rows_noun: tuple[str, str] = ("row", "rows")
    queue_nouns: dict[str, tuple[str, str]] = {}

    class Media:
        css = {"all": ["backoffice/desk.css"]}
        js = ["backoffice/desk_cards.js"]  # each cell's heading, for the cards on a phone

    def get_ordering(self, request: HttpRequest) -> list[str]:
        return list(self.desk_ordering)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # The desk's name, not Django's "Select payment to verify to view".
        title = capfirst(self.model._meta.verbose_name_plural)
        return super().changelist_view(request, {"title": title, **(extra_context or {})})

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        changelist: Any = super().get_changelist_instance(request)  # gets one attribute of ours, `desk_count`
        count = changelist.result_count
        one, many = self.count_noun(changelist)
        changelist.desk_count = f"{count} {one if count == 1 else many}"
        return changelist

    def count_noun(self, changelist: Any) -> tuple[str, str]:
        """The noun of the rows the list shows, by the queue its filter shows (what the filter itself applied,
        so a queue the filter does not know counts as the "Needs action" rows it then shows)."""
        queue = next((spec.value() for spec in changelist.filter_specs if isinstance(spec, NeedsActionFilter)), "")
        if queue == "all":
            return self.all_rows_noun
        return self.queue_nouns.get(queue, self.rows_noun)

    def base_queryset(self) -> QuerySet[Any]:
        # Not super().get_queryset(): that orders by `desk_ordering` before the desk has annotated its rank.
        return self.model._default_manager.get_queryset()

    def may_act(self, request: HttpRequest) -> bool:
        return request.user.has_perm(self.action_permission)


class VerifyForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Decision"),
        choices=[
            ("confirm", _("Confirm: this transaction paid it")),
            ("reject", _("Reject: no valid payment")),
            ("resolve_locked", _("Review: credit at the intent's locked rate")),
            ("resolve_current", _("Review: credit at the current rate")),
        ],
    )
    txid = forms.CharField(label=_("Transaction id"), required=False, max_length=128)
    output_index = forms.IntegerField(
        label=_("Output or log index"), required=False, initial=0, min_value=0, max_value=2**31 - 1
    )
    received = forms.CharField(label=_("Amount received (in the asset)"), required=False, max_length=40)
    reason = forms.CharField(label=_("Reason (for a rejection, told to the customer)"), required=False, max_length=180)

    def __init__(self, *args: Any, pair: Pair, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pair = pair

    def clean(self) -> dict[str, Any]:
        """A confirmation needs the transaction id and the amount received, as an exact amount of the asset;
        the parsed quote units are kept in `received_units`."""
        cleaned = super().clean() or {}
        if cleaned.get("action") == "reject" and not cleaned.get("reason", "").strip():
            self.add_error("reason", _("Say why: the customer reads it."))
        if cleaned.get("action") != "confirm":
            return cleaned
        if not cleaned.get("txid", "").strip():
            self.add_error("txid", _("Enter the transaction id that paid this intent."))
        received = cleaned.get("received", "").strip()
        if not received:
            self.add_error("received", _("Enter the amount received, in %(asset)s.") % {"asset": self.pair.asset})
            return cleaned
        try:
            cleaned["received_units"] = parse_units(received, self.pair)
        except ValueError:
            self.add_error(
                "received",
                _("Enter a plain amount of %(asset)s with at most %(decimals)d decimals, e.g. 12.5.")
                % {"asset": self.pair.asset, "decimals": self.pair.quote_decimals},
            )
        return cleaned


@admin.register(PaymentsDesk)
class PaymentsDeskAdmin(DeskAdmin):
    action_permission = "backoffice.verify_payment"
    rows_noun = ("payment to verify", "payments to verify")
    all_rows_noun = ("payment", "payments")
    list_display = [
        "queue",
        "target",
        "owner_email",
        "pair",
        "expected",
        "short_address",
        "reported",
        "expires",
        "state",
        "confirmed_by",
    ]
    list_filter = [NeedsActionFilter, "status", "asset", "network"]
    desk_ordering = ("desk_rank", "-reported_at", "-created_at")
    search_fields = ["id", "address", "payments__txid", "owner__email", "order__ref", "deposit__ref"]
    list_select_related = ["owner", "order", "deposit", "verified_by"]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # What customers were refused in the last hour and why (a rate source's HTTP status, a stale rate).
        for notice in recent_notices(since=timezone.now() - NOTICE_WINDOW):
            messages.warning(
                request,
                _("For operators: %(detail)s (%(count)s times, last at %(when)s)")
                % {"detail": notice.detail, "count": notice.count, "when": _with_zone(notice.last_seen)},
            )
        return super().changelist_view(request, extra_context)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        # Reported and still open first, then the late-payment review queue, then open, then expired.
        return (
            self.base_queryset()
            .annotate(
                confirmed_by_chain=Exists(Payment.objects.filter(intent_id=OuterRef("pk"), source=PaymentSource.CHAIN)),
                desk_rank=Case(
                    When(
                        reported_at__isnull=False,
                        status__in=[IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED],
                        then=Value(0),
                    ),
                    When(
                        Q(status=IntentStatus.REVIEW)
                        | Exists(Payment.objects.filter(intent_id=OuterRef("pk"), state=PaymentState.REVIEW)),
                        then=Value(1),
                    ),
                    When(status=IntentStatus.AWAITING_PAYMENT, then=Value(2)),
                    When(status=IntentStatus.EXPIRED, then=Value(3)),
                    default=Value(4),
                    output_field=IntegerField(),
                ),
            )
            .order_by(*self.desk_ordering)
            # For `state`: the one state the detail, the customer's pages and the API show (`intent_state`).
            .prefetch_related("payments", "chain_observations")
        )

    @admin.display(description=_("status"), ordering="status")
    def state(self, intent: Any) -> str:
        """The intent's state as its detail page says it ("Payment reported", "Seen on chain"), not the bare
        status field ("Awaiting payment")."""
        return str(intent_state(intent).label)

    @admin.display(description=_("reported"), ordering="reported_at")
    def reported(self, intent: Any) -> str:
        return _with_zone(intent.reported_at)

    @admin.display(description=_("expires"), ordering="expires_at")
    def expires(self, intent: Any) -> str:
        return _with_zone(intent.expires_at)

    @admin.display(description=_("queue"), ordering="desk_rank")
    def queue(self, intent: Any) -> str:
        return [str(_("reported")), str(_("review")), str(_("open")), str(_("expired")), "—"][intent.desk_rank]

    @admin.display(description=_("for"))
    def target(self, intent: Any) -> str:
        kind, ref = ("order", intent.order.ref) if intent.order else ("top-up", intent.deposit.ref)
        return format_html('{} <span class="ref">{}</span>', kind, ref)  # the reference is never cut at a hyphen

    @admin.display(description=_("pair"))
    def pair(self, intent: Any) -> str:
        return pair_get(intent.asset, intent.network).label

    @admin.display(description=_("address"), ordering="address")
    def short_address(self, intent: Any) -> str:
        """The address's two ends (the whole one on hover, on the detail page and in the search): at full length it
        took a quarter of the table's width."""
        return address_ends_html(intent.address)

    @admin.display(description=_("expected"))
    def expected(self, intent: Any) -> str:
        pair = pair_get(intent.asset, intent.network)
        return f"{format_units(intent.amount_units, pair)} {pair.asset} ({Usd(intent.usd_cents).display()})"

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        intent = get_object_or_404(self.get_queryset(request), pk=object_id)
        if not self.has_view_permission(request, intent):
            raise PermissionDenied
        pair = pair_get(intent.asset, intent.network)
        form = VerifyForm(request.POST or None, pair=pair)
        # A rejection's reason reaches the customer as typed: the operator writes it in the customer's language.
        language = customer_language_html(intent.owner)
        form.fields["reason"].help_text = format_html("{} {}", _("Customer's language:"), language)
        if request.method == "POST":
            if not self.may_act(request):
                messages.error(request, _("Your role cannot verify payments."))
            elif form.is_valid():
                return self._act(request, intent, form.cleaned_data)
        prefetch_related_objects([intent], "payments", "chain_observations")
        state = intent_state(intent)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Verify payment"),
            "intent": intent,
            "pair": pair,
            "confirmations": required_confirmations(pair),
            "expected": self.expected(intent),
            "form": form,
            "may_act": self.may_act(request),
            "opts": self.model._meta,
            "payments": self._payments(intent),
            "state": state,
            "state_text": state_text(state),
            "customer_language": language,
            "chain": self.chain_evidence(intent, state),
            "watched": intent.network in settings.CHAIN_WATCH_URLS,
        }
        return TemplateResponse(request, "backoffice/verify_payment.html", context)

    @staticmethod
    def _payments(intent: Any) -> list[Payment]:
        pair = pair_get(intent.asset, intent.network)
        payments = list(Payment.objects.filter(intent_id=intent.pk).select_related("deposit"))
        for payment in payments:
            payment.amount_display = f"{format_units(payment.amount_units, pair)} {pair.asset}"  # type: ignore[attr-defined]
        return payments

    @staticmethod
    def chain_evidence(intent: Any, state: IntentState) -> list[dict[str, Any]]:
        """What the chain watcher saw for the intent, each with its state as the customer is told it (`transfer`:
        credited, in review…, from `intent_state`), and the network's explorer link where the operator set one
        (`Network.explorer_tx_url`)."""
        network = network_get(intent.network)
        pair = pair_get(intent.asset, intent.network)
        # The rows `state` was made from (prefetched by the caller): oldest first, one transfer per row.
        rows = intent.chain_observations.all()
        return [
            {
                "row": row,
                "transfer": transfer,
                "amount": format_units(row.amount_units, pair),
                "explorer": network.explorer_tx_url(row.txid),
            }
            for row, transfer in zip(rows, state.transfers, strict=True)
        ]

    @admin.display(description=_("confirmed by"))
    def confirmed_by(self, intent: Any) -> str:
        if intent.status != IntentStatus.CONFIRMED:
            return "—"
        if intent.confirmed_by_chain:
            return "chain watcher (automatic)"
        return email_html(intent.verified_by.email) if intent.verified_by else "processor"

    def _act(self, request: HttpRequest, intent: Any, data: dict[str, Any]) -> HttpResponse:
        """Confirm, reject or resolve, once per the page's idempotency key (a double submit acts once)."""
        verifier = ManualVerifier()
        done = reverse("admin:backoffice_paymentsdesk_changelist")

        def act() -> Outcome:
            try:
                if data["action"] == "confirm":
                    payment = payment_receive(
                        intent_id=intent.pk,
                        txid=data["txid"],
                        output_index=data["output_index"] or 0,
                        amount_units=data["received_units"],
                        source=PaymentSource.OPERATOR,
                        actor=_operator(request),
                    )
                    message = str(_("Payment %(state)s.")) % {"state": payment.get_state_display().lower()}
                elif data["action"] == "reject":
                    verifier.reject(intent_id=intent.pk, actor=_operator(request), reason=data["reason"])
                    message = str(_("Payment rejected."))
                else:
                    credited = review_resolve(
                        intent_id=intent.pk,
                        actor=_operator(request),
                        use_current_rate=data["action"] == "resolve_current",
                    )
                    refs = ", ".join(p.deposit.ref for p in credited if p.deposit)
                    message = str(_("Credited as deposit %(ref)s.")) % {"ref": refs or "—"}
            except ValueError as error:
                return Outcome(422, {"error": {"code": "invalid_request", "message": str(error)}})
            return Outcome(200, {"message": message, "redirect": done})

        def on_error(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
            # Operators read the detail too (form_action has recorded it for the desk already).
            messages.error(request, f"{message} ({error.detail})" if error is not None and error.detail else message)
            return HttpResponseRedirect(request.path)

        return form_action(request, act, back=request.path, on_error=on_error)


# The provisioning and payouts desks, the records outside the desks (the audit trail, task results) and the dashboard
# live in their own modules (each registers itself when imported).
from . import payouts_admin, provisioning_admin, records_admin  # noqa: E402, F401
from .dashboard import page as dashboard_page  # noqa: E402, F401

"""The operators' desks in the Django admin: what they share, and the payments desk (payments to verify).

The provisioning desk (orders to provision, machine requests) is in `provisioning_admin.py`, the payouts desk
(withdrawals to send) in `payouts_admin.py`; both are imported at the end of this module.

Rows are never edited here: each action calls the service that owns it (verification, provisioning), which
checks the rules, writes the audit row and queues the emails in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Exists, IntegerField, OuterRef, Q, QuerySet, Value, When, prefetch_related_objects
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from gpurent.accounts.models import User
from gpurent.backoffice.dashboard.numbers import duration_text
from gpurent.core.admin import (
    OwnerEmailColumn,
    QueueFilter,
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
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.models import Order
from gpurent.payments.assets import Pair, format_units, pair_get, parse_units, required_confirmations
from gpurent.payments.balance.figures import spendable_for_order
from gpurent.payments.errors import PaymentAlreadyCredited
from gpurent.payments.intents.state import IntentState, intent_state
from gpurent.payments.models import IntentStatus, Payment, PaymentIntent, PaymentSource, PaymentState
from gpurent.payments.networks import network_get, txid_refusal
from gpurent.payments.received.receive import normalise_txid, payment_receive, payment_where
from gpurent.payments.received.verification import ManualVerifier, review_resolve
from gpurent.payments.selectors import intents_partly_paid, intents_to_verify

from .models import PaymentsDesk

# How far back the payments desk shows notices meant for operators.
NOTICE_WINDOW = timedelta(hours=1)


def _operator(request: HttpRequest) -> User:
    # The admin only serves logged-in staff; this narrows the type for the services.
    return cast(User, request.user)


class NeedsActionFilter(QueueFilter):
    """Rows that still need an operator, by default; "All" shows the history too. The changelist's count
    then counts only rows that need action."""

    title = _("queue")
    parameter_name = "queue"
    default = "action"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("action", _("Needs action")), ("all", _("All"))]

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


# The decisions the verify page may offer, each only where it applies (`VerifyForm.decisions`).
CONFIRM = ("confirm", _("Confirm: this transaction paid it"))
CONFIRM_ADDITIONAL = ("confirm_additional", _("Another transaction to this payment (credited to the balance)"))
REJECT = ("reject", _("Reject: no valid payment"))
RESOLVE_LOCKED = ("resolve_locked", _("Review: credit at the intent's locked rate"))
RESOLVE_CURRENT = ("resolve_current", _("Review: credit at the current rate"))
CONFIRMING = frozenset({CONFIRM[0], CONFIRM_ADDITIONAL[0]})
# What a POST may carry: every decision. The page offers only those that apply (a form sent twice must reach its
# idempotency key and replay its first answer, whatever the intent became since); the services refuse the rest
# under their locks (`refuse_if_settled`, "not waiting for review", "cannot be rejected").
DECISIONS = [CONFIRM, CONFIRM_ADDITIONAL, REJECT, RESOLVE_LOCKED, RESOLVE_CURRENT]


def intent_settled(intent: Any) -> bool:
    """Confirmed (all of it arrived) or closed (its order was paid otherwise or cancelled): a transaction recorded
    on it now is a second one, credited to the balance, and is recorded only when the operator says so."""
    return intent.status in (IntentStatus.CONFIRMED, IntentStatus.CLOSED)


def intent_in_review(intent: Any) -> bool:
    """In review: the intent's status says so, or one of its payments waits for an operator's credit."""
    return intent.status == IntentStatus.REVIEW or any(p.state == PaymentState.REVIEW for p in intent.payments.all())


def _amount(units: int, pair: Pair) -> str:
    """ "62 USDT", "0.003 BTC": the amount as operators say it (no trailing zeros)."""
    text = format_units(units, pair)
    return f"{text.rstrip('0').rstrip('.') if '.' in text else text} {pair.asset}"


@dataclass(frozen=True)
class MoneySoFar:
    """What an intent received and what it credited, and what its order still needs, for the verify page and the
    decision's message."""

    received_units: int
    credited: Usd
    deposits: list[str]
    rest_units: int  # what the instructions still wait for, in quote units (0 when all arrived)
    order_needs: Usd | None  # an order awaiting payment: what the balance lacks to pay it; else None


def money_so_far(intent: Any) -> MoneySoFar:
    payments = list(Payment.objects.filter(intent_id=intent.pk).select_related("deposit"))
    credited = [p for p in payments if p.state == PaymentState.CREDITED]
    locked_units = sum(p.amount_units for p in credited if p.at_locked_rate)
    order_needs = None
    order = Order.objects.filter(pk=intent.order_id).select_related("owner").first()
    if order is not None and order.payment_status == PaymentStatus.AWAITING_PAYMENT:
        order_needs = Usd(max(0, order.total.cents - spendable_for_order(order).cents))
    return MoneySoFar(
        received_units=sum(p.amount_units for p in payments),
        credited=Usd(sum(p.credited_cents or 0 for p in credited)),
        deposits=[p.deposit.ref for p in credited if p.deposit],
        rest_units=max(0, intent.amount_units - locked_units),
        order_needs=order_needs,
    )


def money_so_far_text(intent: Any, pair: Pair) -> str:
    """ "$291.00 credited from 0.003 BTC (D-ZHM9-S7M8); order R-EXXF-ST42 still needs $49.00 (0.00050516 BTC to
    these instructions)", or "" when nothing was received."""
    so_far = money_so_far(intent)
    if not so_far.received_units:
        return ""
    refs = f" ({', '.join(so_far.deposits)})" if so_far.deposits else ""
    text = f"{so_far.credited.display()} credited from {_amount(so_far.received_units, pair)}{refs}"
    if intent.order_id is None:
        return text
    order = Order.objects.get(pk=intent.order_id)
    if so_far.order_needs is None:
        return f"{text}; order {order.ref} is {order.get_payment_status_display().lower()}"
    rest = f" ({_amount(so_far.rest_units, pair)} to these instructions)" if so_far.rest_units else ""
    return f"{text}; order {order.ref} still needs {so_far.order_needs.display()}{rest}"


def decision_message(intent_id: Any, recorded: list[Payment], *, since: Any) -> str:
    """What a confirmation or a review credit did, in one sentence: "R-6853-2JZ2 is paid ($62.00 from 62 USDT,
    D-9KQ5-YNYQ).", "Credited $291.00 (0.003 BTC, D-ZHM9-S7M8) to bao@example.com's balance; order R-EXXF-ST42
    still needs $49.00 (0.00050516 BTC).", or that the payment waits in review."""
    intent = PaymentIntent.objects.select_related("owner", "order", "deposit").get(pk=intent_id)
    pair = pair_get(intent.asset, intent.network)
    amount = _amount(sum(p.amount_units for p in recorded), pair)
    if any(p.state == PaymentState.REVIEW for p in recorded):
        return (
            f"Recorded {amount}: it arrived too late for the instructions' locked rate, so nothing is credited yet. "
            "It waits in review: credit it or reject it on its page."
        )
    credited = [p for p in recorded if p.state == PaymentState.CREDITED]
    cents = Usd(sum(p.credited_cents or 0 for p in credited))
    if not cents.cents:
        return f"Recorded {amount}: worth less than a cent, nothing credited yet (it counts with the next payment)."
    refs = ", ".join(p.deposit.ref for p in credited if p.deposit)
    order = intent.order
    if order is not None and order.payment_status == PaymentStatus.PAID and order.paid_at and order.paid_at >= since:
        return f"{order.ref} is paid ({cents.display()} from {amount}, {refs})."
    credit = f"Credited {cents.display()} ({amount}, {refs}) to {intent.owner.email}'s balance"
    if order is None:
        return f"{credit} (top-up {intent.deposit.ref if intent.deposit else '—'})."
    if order.payment_status != PaymentStatus.AWAITING_PAYMENT:
        return f"{credit}; order {order.ref} was already {order.get_payment_status_display().lower()}: it stays there."
    so_far = money_so_far(intent)
    rest = f" ({_amount(so_far.rest_units, pair)})" if so_far.rest_units else ""
    needs = so_far.order_needs or Usd(0)
    return f"{credit}; order {order.ref} still needs {needs.display()}{rest}."


def already_recorded_html(payment: Payment) -> str:
    """The duplicate-txid refusal, for the desk: where the transaction was recorded, with a link to that payment's
    page ("…already recorded for order R-6853-2JZ2 (deposit D-9KQ5-YNYQ) on 06 Dec 2026, 17:05 UTC: open it.")."""
    url = reverse("admin:backoffice_paymentsdesk_change", args=[payment.intent_id])
    return format_html(
        'This transaction (output {}) was already {}: <a href="{}">open it</a>.',
        payment.output_index,
        payment_where(payment),
        url,
    )


class VerifyForm(forms.Form):
    """The verify page's decision. Only the decisions that apply to the intent are offered (`decisions`); on an
    intent already confirmed or closed nothing is preselected, and recording a transaction needs the explicit
    "Another transaction to this payment". The txid must be one of the intent's network (`txid_refusal`) and not
    one recorded elsewhere."""

    action = forms.ChoiceField(label=_("Decision"))
    txid = forms.CharField(label=_("Transaction id"), required=False, max_length=128)
    output_index = forms.IntegerField(
        label=_("Output or log index"), required=False, initial=0, min_value=0, max_value=2**31 - 1
    )
    received = forms.CharField(label=_("Amount received (in the asset)"), required=False, max_length=40)
    reason = forms.CharField(label=_("Reason (for a rejection, told to the customer)"), required=False, max_length=180)

    def __init__(self, *args: Any, pair: Pair, intent: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pair = pair
        self.intent = intent
        action = cast(forms.ChoiceField, self.fields["action"])
        action.choices = DECISIONS
        action.widget.choices = self.decisions(intent)
        if intent_settled(intent):
            self.fields["action"].error_messages["required"] = _(
                "Choose what happened: this payment was already credited, so nothing is chosen for you."
            )
        network = network_get(pair.network)
        self.fields["txid"].help_text = f"On {network.label}: {network.txid_format.form}."

    @staticmethod
    def decisions(intent: Any) -> list[tuple[str, Any]]:
        """Confirm (open, expired, rejected), or, once confirmed or closed, an empty first choice and "Another
        transaction"; Reject while nothing was credited; the Review choices only for an intent in review."""
        credited = any(p.state == PaymentState.CREDITED for p in intent.payments.all())
        if intent_settled(intent):
            choices: list[tuple[str, Any]] = [("", _("— Choose: this payment was already credited —"))]
            choices.append(CONFIRM_ADDITIONAL)
        else:
            choices = [CONFIRM]
            if not credited:
                choices.append(REJECT)
        if intent_in_review(intent):
            choices += [RESOLVE_LOCKED, RESOLVE_CURRENT]
        return choices

    def clean(self) -> dict[str, Any]:
        """A confirmation needs the transaction id (of the network's form, not recorded elsewhere) and the amount
        received, as an exact amount of the asset; the parsed quote units are kept in `received_units`."""
        cleaned = super().clean() or {}
        if cleaned.get("action") == "reject" and not cleaned.get("reason", "").strip():
            self.add_error("reason", _("Say why: the customer reads it."))
        if cleaned.get("action") not in CONFIRMING:
            return cleaned
        txid = cleaned.get("txid", "").strip()
        if not txid:
            self.add_error("txid", _("Enter the transaction id that paid this intent."))
        elif (refusal := txid_refusal(self.pair.network, txid)) is not None:
            self.add_error("txid", refusal)
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
        if "txid" not in self.errors:
            existing = (
                Payment.objects.filter(
                    network=self.pair.network, txid=normalise_txid(txid), output_index=cleaned.get("output_index") or 0
                )
                .exclude(intent_id=self.intent.pk, amount_units=cleaned["received_units"])
                .first()
            )
            if existing is not None:
                self.add_error("txid", already_recorded_html(existing))
        return cleaned


class PaymentsQueueFilter(NeedsActionFilter):
    """Needs action (the default), the intents partly paid and waiting for the customer, or all."""

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("action", _("Needs action")),
            ("partly", _("Partly paid, waiting for the customer")),
            ("all", _("All")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "partly":
            return queryset.filter(desk_rank=PaymentsDesk.DESK_RANK_PARTLY_PAID)
        return super().queryset(request, queryset)


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
        "waiting",
        "state",
        "confirmed_by",
    ]
    list_filter = [PaymentsQueueFilter, "status", "asset", "network"]
    # Within each queue, the one waiting longest first (since its report, else since its instructions).
    desk_ordering = ("desk_rank", "waiting_since", "created_at")
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
        # Reported and still to verify first, then the late-payment review queue, then open; then (no longer
        # needing an operator) partly paid and waiting for the customer, expired, done.
        return (
            self.base_queryset()
            .annotate(
                confirmed_by_chain=Exists(Payment.objects.filter(intent_id=OuterRef("pk"), source=PaymentSource.CHAIN)),
                desk_rank=Case(
                    When(intents_to_verify(), then=Value(0)),
                    When(
                        Q(status=IntentStatus.REVIEW)
                        | Exists(Payment.objects.filter(intent_id=OuterRef("pk"), state=PaymentState.REVIEW)),
                        then=Value(1),
                    ),
                    When(intents_partly_paid(), then=Value(PaymentsDesk.DESK_RANK_PARTLY_PAID)),
                    When(status=IntentStatus.AWAITING_PAYMENT, then=Value(2)),
                    When(status=IntentStatus.EXPIRED, then=Value(4)),
                    default=Value(5),
                    output_field=IntegerField(),
                ),
                waiting_since=Coalesce("reported_at", "created_at"),
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

    @admin.display(description=_("waiting"), ordering="waiting_since")
    def waiting(self, intent: Any) -> str:
        """How long a row that needs an operator has waited (since its report, else its instructions), and for an
        unpaid order how long its lots are still held: not the instructions' 30-minute validity, which a reported
        payment outlives."""
        if intent.desk_rank >= PaymentsDesk.DESK_RANK_NEEDS_ACTION_BELOW:
            return "—"
        now = timezone.now()
        age = format_html('<span class="waited">{}</span>', duration_text(now - intent.waiting_since))
        order = intent.order
        if order is None or order.payment_status != PaymentStatus.AWAITING_PAYMENT:
            return age
        until = order.reserved_until
        held = f"lots held {duration_text(until - now)} more" if until > now else "lots no longer held"
        return format_html(
            '{}<br><span class="held" title="lots held until {}">{}</span>', age, _with_zone(until), held
        )

    @admin.display(description=_("queue"), ordering="desk_rank")
    def queue(self, intent: Any) -> str:
        words = [_("reported"), _("review"), _("open"), _("partly paid"), _("expired"), "—"]
        return str(words[intent.desk_rank])

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
        form = self._form(intent, request.POST or None)
        if request.method == "POST":
            if not self.may_act(request):
                messages.error(request, _("Your role cannot verify payments."))
            elif form.is_valid():
                return self._act(request, intent, form)
        return self._page(request, intent, form)

    @staticmethod
    def _form(intent: Any, data: Any) -> VerifyForm:
        form = VerifyForm(data, pair=pair_get(intent.asset, intent.network), intent=intent)
        # A rejection's reason reaches the customer as typed: the operator writes it in the customer's language.
        form.fields["reason"].help_text = format_html(
            "{} {}", _("Customer's language:"), customer_language_html(intent.owner)
        )
        return form

    def _page(self, request: HttpRequest, intent: Any, form: VerifyForm) -> HttpResponse:
        pair = pair_get(intent.asset, intent.network)
        prefetch_related_objects([intent], "payments", "chain_observations")
        state = intent_state(intent)
        order = intent.order
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
            "customer_language": customer_language_html(intent.owner),
            "chain": self.chain_evidence(intent, state),
            "watched": intent.network in settings.CHAIN_WATCH_URLS,
            "money_so_far": money_so_far_text(intent, pair),
            "settled": intent_settled(intent),
            "lots_held_until": (
                order.reserved_until
                if order is not None and order.payment_status == PaymentStatus.AWAITING_PAYMENT
                else None
            ),
            "waiting": duration_text(timezone.now() - intent.reported_at) if intent.reported_at else "",
            "reference": order.ref if order is not None else intent.deposit.ref,
        }
        return TemplateResponse(request, "backoffice/verify_payment.html", context)

    @staticmethod
    def _payments(intent: Any) -> list[Payment]:
        pair = pair_get(intent.asset, intent.network)
        payments = list(Payment.objects.filter(intent_id=intent.pk).select_related("deposit"))
        for payment in payments:
            payment.amount_display = f"{format_units(payment.amount_units, pair)} {pair.asset}"  # type: ignore[attr-defined]
            credited = Usd(payment.credited_cents or 0).display() if payment.state == PaymentState.CREDITED else ""
            payment.credited_display = credited  # type: ignore[attr-defined]
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

    def _act(self, request: HttpRequest, intent: Any, form: VerifyForm) -> HttpResponse:
        """Confirm, reject or resolve, once per the page's idempotency key (a double submit acts once). A refusal
        shows the page again with what was typed; the duplicate-txid one says where the transaction was
        recorded."""
        data = form.cleaned_data
        verifier = ManualVerifier()
        done = reverse("admin:backoffice_paymentsdesk_changelist")
        target = f"order {intent.order.ref}" if intent.order else f"top-up {intent.deposit.ref}"

        def act() -> Outcome:
            since = timezone.now()
            try:
                if data["action"] in CONFIRMING:
                    payment = payment_receive(
                        intent_id=intent.pk,
                        txid=data["txid"],
                        output_index=data["output_index"] or 0,
                        amount_units=data["received_units"],
                        source=PaymentSource.OPERATOR,
                        actor=_operator(request),
                        # Only "Another transaction to this payment" records one on a confirmed or closed intent.
                        refuse_if_settled=data["action"] != CONFIRM_ADDITIONAL[0],
                    )
                    if payment.received_at < since:
                        message = f"This transaction was already recorded on this payment ({target}): nothing changed."
                    else:
                        message = decision_message(intent.pk, [payment], since=since)
                elif data["action"] == "reject":
                    rejected = verifier.reject(intent_id=intent.pk, actor=_operator(request), reason=data["reason"])
                    told = "; the customer is told why" if rejected.reported_at else ""
                    message = f"Payment of {target} rejected{told}."
                else:
                    credited = review_resolve(
                        intent_id=intent.pk,
                        actor=_operator(request),
                        use_current_rate=data["action"] == "resolve_current",
                    )
                    message = decision_message(intent.pk, credited, since=since)
            except ValueError as error:
                return Outcome(422, {"error": {"code": "invalid_request", "message": str(error)}})
            return Outcome(200, {"message": message, "redirect": done})

        def on_error(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
            # The page again, with what the operator typed and the refusal on it (form_action has recorded it for
            # the desk already); the intent is read again, as it is now.
            fresh = get_object_or_404(self.get_queryset(request), pk=intent.pk)
            again = self._form(fresh, request.POST)
            again.is_valid()  # the choices and checks of the intent as it is now; a duplicate txid says where
            if not (isinstance(error, PaymentAlreadyCredited) and "txid" in again.errors):
                detail = f" ({error.detail})" if error is not None and error.detail else ""
                again.add_error(None, f"{message}{detail}")
            return self._page(request, fresh, again)

        return form_action(request, act, back=request.path, on_error=on_error)


# The provisioning and payouts desks, the records outside the desks (the audit trail, task results) and the dashboard
# live in their own modules (each registers itself when imported).
from . import payouts_admin, provisioning_admin, records_admin  # noqa: E402, F401
from .dashboard import page as dashboard_page  # noqa: E402, F401

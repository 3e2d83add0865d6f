"""The payouts desk: withdrawals to send (role `payouts`, permission `backoffice.send_payout`; decision 0121).

Mark a withdrawal sent with its transaction id and the amount sent, or reject it (the amount returns to the
customer's balance). Each action goes through `gpurent.payments.payouts`, once per form idempotency key. The page
shows what to send in the asset at the shop's rate, and an amount sent far from it is recorded only once the operator
confirms it (`gpurent.payments.payout_amounts`; outside QA walk of the back office, defect 3).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from gpurent.backoffice.dashboard.numbers import duration_text
from gpurent.core.admin import address_ends_html, customer_language_html, email_html
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.money import Usd
from gpurent.payments.assets import Pair, format_units, pair_get, parse_units
from gpurent.payments.models import PayoutStatus
from gpurent.payments.networks import txid_refusal
from gpurent.payments.payout_amounts import SENT_TOLERANCE_PERCENT, PayoutQuote, SentCheck, payout_quote
from gpurent.payments.payouts import payout_mark_sent, payout_reject

from .admin import DeskAdmin, NeedsActionFilter, _operator, _with_zone
from .models import PayoutsDesk


class AmountConfirmation(forms.CheckboxInput):
    """A checkbox that confirms one amount: its value is that amount (`amount`, set by the form when it asks for
    the confirmation), so a tick given for another amount confirms nothing, and it is never shown ticked."""

    def __init__(self) -> None:
        super().__init__(check_test=lambda value: False)
        self.amount = ""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        return data.get(name, "")

    def get_context(self, name: str, value: Any, attrs: Any) -> dict[str, Any]:
        return super().get_context(name, self.amount, attrs)


class PayoutForm(forms.Form):
    """Sent needs the transaction id and the amount sent, an exact amount of the asset (kept in `sent_units`),
    within `SENT_TOLERANCE_PERCENT` of the quote unless the operator ticks the confirmation of that very amount
    (`confirm_sent`, shown only when the check asks for it). A rejection needs a reason."""

    action = forms.ChoiceField(
        label=_("Decision"),
        choices=[("sent", _("Sent: record the transaction")), ("reject", _("Reject: return it to the balance"))],
    )
    txid = forms.CharField(label=_("Transaction id"), required=False, max_length=128)
    sent = forms.CharField(label=_("Amount sent (in the asset)"), required=False, max_length=40)
    confirm_sent = forms.CharField(label="Confirm the amount", required=False, widget=AmountConfirmation)
    reason = forms.CharField(label=_("Reason (for a rejection, told to the customer)"), required=False, max_length=200)

    def __init__(self, *args: Any, pair: Pair, quote: PayoutQuote | None, to_send: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pair = pair
        self.quote = quote
        # A withdrawal already decided is not checked: a double submit replays its first answer (`form_action`),
        # any other decision is refused by the service.
        self.to_send = to_send
        # Set by `clean` when the amount needs a confirmation the operator has not given (the page offers it).
        self.unconfirmed: SentCheck | None = None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("action") == "reject":
            if not cleaned.get("reason", "").strip():
                self.add_error("reason", _("Say why: the customer reads it."))
            return cleaned
        if not cleaned.get("txid", "").strip():
            self.add_error("txid", _("Enter the transaction id of the withdrawal."))
        elif (refusal := txid_refusal(self.pair.network, cleaned["txid"])) is not None:
            self.add_error("txid", refusal)  # the form of the network's ids (the payments desk checks the same)
        try:
            sent_units = parse_units(cleaned.get("sent", "").strip(), self.pair)
        except ValueError:
            self.add_error("sent", _("Enter the amount sent, in %(asset)s.") % {"asset": self.pair.asset})
            return cleaned
        if sent_units == 0:
            self.add_error("sent", _("Enter the amount sent, in %(asset)s.") % {"asset": self.pair.asset})
            return cleaned
        check = SentCheck(self.pair, sent_units, self.quote)
        amount = format_units(sent_units, self.pair)
        confirmed = not check.within_tolerance and cleaned.get("confirm_sent") == amount
        if self.to_send and not check.within_tolerance and not confirmed:
            self.unconfirmed = check
            self.add_error("sent", sent_refusal(check))
            cast(AmountConfirmation, self.fields["confirm_sent"].widget).amount = amount
            # On the bound field: it took the field's help text when the form was cleaned.
            self["confirm_sent"].help_text = confirmation_text(check)
        cleaned["sent_units"], cleaned["sent_check"], cleaned["difference_confirmed"] = sent_units, check, confirmed
        return cleaned


def asset_amount(units: int, pair: Pair) -> str:
    return f"{format_units(units, pair)} {pair.asset}"


def owed_text(payout: Any) -> str:
    """ "$299.00 ($300.00 − fee)": what the customer receives in USD, and what left their balance."""
    return f"{Usd(payout.net_cents).display()} ({Usd(payout.amount_cents).display()} − fee)"


def rate_text(quote: PayoutQuote, pair: Pair) -> str:
    """ "97,000 USD/BTC (rate of 06 Dec 2026, 17:00 UTC, demo data)": the rate whole, grouped, no trailing zeros."""
    price = f"{quote.rate.usd_per_unit.normalize():,f}"
    return f"{price} USD/{pair.asset} (rate of {_with_zone(quote.rate.as_of)}, {quote.rate.source})"


def difference_text(check: SentCheck) -> str:
    """How the amount sent compares with the quote: "97.3 times the expected 0.00308247 BTC", "23.4 % more than
    the expected …", "90.3 % less than the expected …", or that there is no rate to compare with."""
    quote, percent = check.quote, check.percent_off
    if quote is None or percent is None:
        return f"not checked: the shop has no {check.pair.asset} rate"
    expected = asset_amount(quote.units, check.pair)
    if check.sent_units >= 2 * quote.units:
        times = (Decimal(check.sent_units) / Decimal(quote.units)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        return f"{times:,f} times the expected {expected}"
    if percent >= 0:
        return f"{percent:,f} % more than the expected {expected}"
    return f"{-percent:,f} % less than the expected {expected}"


def sent_refusal(check: SentCheck) -> str:
    sent = asset_amount(check.sent_units, check.pair)
    again = "Check the amount; if it is what you sent, tick the confirmation below and record the decision again."
    if check.quote is None or check.sent_usd is None:
        return f"{sent} cannot be checked against what is owed: the shop has no {check.pair.asset} rate. {again}"
    return (
        f"{sent} is {difference_text(check)}: worth {check.sent_usd.display()} at "
        f"{rate_text(check.quote, check.pair)}, for {check.quote.usd.display()} owed. {again}"
    )


def confirmation_text(check: SentCheck) -> str:
    """The confirmation's words, naming the difference: "Yes, I sent 0.00500000 BTC: 9.9 times the expected
    0.00050516 BTC, $436.00 more than the $49.00 owed." """
    sent = asset_amount(check.sent_units, check.pair)
    if check.quote is None or check.sent_usd is None:
        return f"Yes, I sent {sent}, unchecked: the shop has no {check.pair.asset} rate."
    gap = check.sent_usd.cents - check.quote.usd.cents
    money = f"{Usd(abs(gap)).display()} {'more' if gap >= 0 else 'less'} than the {check.quote.usd.display()} owed"
    return f"Yes, I sent {sent}: {difference_text(check)}, {money}."


@admin.register(PayoutsDesk)
class PayoutsDeskAdmin(DeskAdmin):
    action_permission = "backoffice.send_payout"
    rows_noun = ("withdrawal to send", "withdrawals to send")
    all_rows_noun = ("withdrawal", "withdrawals")
    list_display = ["ref", "owner_email", "pair", "to_send", "short_address", "requested", "status", "decider"]
    list_filter = [NeedsActionFilter, "status", "asset", "network"]
    desk_ordering = ("desk_rank", "created_at", "id")
    search_fields = ["ref", "address", "txid", "owner__email"]
    list_select_related = ["owner", "decided_by"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rank = Case(When(status=PayoutStatus.REQUESTED, then=Value(0)), default=Value(1), output_field=IntegerField())
        return self.base_queryset().annotate(desk_rank=rank).order_by(*self.desk_ordering)

    @admin.display(description=_("requested"), ordering="created_at")
    def requested(self, payout: Any) -> str:
        """When it was asked for, and while it waits, for how long (what an operator on a phone looks for)."""
        if payout.status != PayoutStatus.REQUESTED:
            return _with_zone(payout.created_at)
        waiting = duration_text(timezone.now() - payout.created_at)
        return format_html('{} <span class="age">waiting {}</span>', _with_zone(payout.created_at), waiting)

    @admin.display(description=_("address"), ordering="address")
    def short_address(self, payout: Any) -> str:
        return address_ends_html(payout.address)

    @admin.display(description=_("decided by"), ordering="decided_by__email")
    def decider(self, payout: Any) -> str:
        return email_html(payout.decided_by.email) if payout.decided_by else "—"

    @admin.display(description=_("pair"))
    def pair(self, payout: Any) -> str:
        return pair_get(payout.asset, payout.network).label

    @admin.display(description=_("to send"))
    def to_send(self, payout: Any) -> str:
        """What the customer receives in USD (and before the fee), and once sent, the amount sent in the asset:
        an amount far from what was owed shows in the list, not only on the withdrawal's page."""
        owed = owed_text(payout)
        if not payout.sent_units:
            return owed
        return format_html(
            '{} <span class="sent">sent {}</span>', owed, asset_amount(payout.sent_units, self._pair(payout))
        )

    @staticmethod
    def _pair(payout: Any) -> Pair:
        return pair_get(payout.asset, payout.network)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        payout = get_object_or_404(self.get_queryset(request), pk=object_id)
        if not self.has_view_permission(request, payout):
            raise PermissionDenied
        pair = self._pair(payout)
        # Read before any lock (the rate source may be an HTTP call); the quote is for a withdrawal still to send.
        to_send = payout.status == PayoutStatus.REQUESTED
        quote = payout_quote(payout, pair) if to_send else None
        form = PayoutForm(request.POST or None, pair=pair, quote=quote, to_send=to_send)
        # A rejection's reason reaches the customer as typed: the operator writes it in the customer's language.
        language = customer_language_html(payout.owner)
        form.fields["reason"].help_text = format_html("{} {}", _("Customer's language:"), language)
        if quote is not None:
            form.fields["sent"].help_text = (
                f"About {asset_amount(quote.units, pair)}; an amount more than {SENT_TOLERANCE_PERCENT} % away "
                "from it is recorded only once you confirm it."
            )
        if request.method == "POST":
            if not self.may_act(request):
                messages.error(request, _("Your role cannot send or reject withdrawals."))
            elif form.is_valid():
                return self._act(request, payout, pair, form.cleaned_data)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Withdrawal %(ref)s") % {"ref": payout.ref},
            "payout": payout,
            "pair": pair,
            "to_send": owed_text(payout),
            "quote": quote,
            "quote_amount": asset_amount(quote.units, pair) if quote else "",
            "quote_rate": rate_text(quote, pair) if quote else "",
            "tolerance": SENT_TOLERANCE_PERCENT,
            "customer_language": language,
            "sent": asset_amount(payout.sent_units, pair) if payout.sent_units else "",
            "form": form,
            "may_act": self.may_act(request) and payout.status == PayoutStatus.REQUESTED,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "backoffice/send_payout.html", context)

    def _act(self, request: HttpRequest, payout: Any, pair: Pair, data: dict[str, Any]) -> HttpResponse:
        done = reverse("admin:backoffice_payoutsdesk_changelist")
        customer = payout.owner.email

        def act() -> Outcome:
            if data["action"] == "sent":
                check: SentCheck = data["sent_check"]
                confirmed = data["difference_confirmed"]
                payout_mark_sent(
                    payout_id=payout.pk,
                    txid=data["txid"],
                    sent_units=data["sent_units"],
                    actor=_operator(request),
                    amount_check=check.record(confirmed=confirmed),
                )
                message = (
                    f"{payout.ref} marked sent: {asset_amount(data['sent_units'], pair)} to {customer} "
                    f"({Usd(payout.net_cents).display()} after the fee); the customer is e-mailed the transaction id."
                )
                if confirmed:
                    message += f" You confirmed the amount: {difference_text(check)}."
                return Outcome(200, {"message": message, "redirect": done})
            payout_reject(payout_id=payout.pk, reason=data["reason"], actor=_operator(request))
            message = (
                f"{payout.ref} rejected: the amount, {Usd(payout.amount_cents).display()}, is back on {customer}'s "
                "balance; the customer is e-mailed your reason."
            )
            return Outcome(200, {"message": message, "redirect": done})

        # An error (a withdrawal already decided) goes back to this page; a decision, to the list.
        return form_action(request, act, back=request.path)

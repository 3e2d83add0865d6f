"""The payouts desk: withdrawals to send (role `payouts`, permission `backoffice.send_payout`; decision 0121).

Mark a withdrawal sent with its transaction id and the amount sent, or reject it (the amount returns to the
customer's balance). Each action goes through `gpurent.payments.payouts`, once per form idempotency key.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.money import Usd
from gpurent.payments.assets import Pair, format_units, pair_get, parse_units
from gpurent.payments.models import PayoutStatus
from gpurent.payments.networks import txid_refusal
from gpurent.payments.payouts import payout_mark_sent, payout_reject

from .admin import DeskAdmin, NeedsActionFilter, _operator, _with_zone
from .models import PayoutsDesk


class PayoutForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Decision"),
        choices=[("sent", _("Sent: record the transaction")), ("reject", _("Reject: return it to the balance"))],
    )
    txid = forms.CharField(label=_("Transaction id"), required=False, max_length=128)
    sent = forms.CharField(label=_("Amount sent (in the asset)"), required=False, max_length=40)
    reason = forms.CharField(label=_("Reason (for a rejection, told to the customer)"), required=False, max_length=200)

    def __init__(self, *args: Any, pair: Pair, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pair = pair

    def clean(self) -> dict[str, Any]:
        """Sent needs the transaction id and the amount sent, an exact amount of the asset (kept in
        `sent_units`); a rejection needs a reason."""
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
            cleaned["sent_units"] = parse_units(cleaned.get("sent", "").strip(), self.pair)
        except ValueError:
            self.add_error("sent", _("Enter the amount sent, in %(asset)s.") % {"asset": self.pair.asset})
        return cleaned


@admin.register(PayoutsDesk)
class PayoutsDeskAdmin(DeskAdmin):
    action_permission = "backoffice.send_payout"
    rows_noun = ("withdrawal to send", "withdrawals to send")
    list_display = ["ref", "owner_email", "pair", "to_send", "address", "requested", "status", "decided_by"]
    list_filter = [NeedsActionFilter, "status", "asset", "network"]
    desk_ordering = ("desk_rank", "created_at", "id")
    search_fields = ["ref", "address", "txid", "owner__email"]
    list_select_related = ["owner", "decided_by"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        rank = Case(When(status=PayoutStatus.REQUESTED, then=Value(0)), default=Value(1), output_field=IntegerField())
        return self.base_queryset().annotate(desk_rank=rank).order_by(*self.desk_ordering)

    @admin.display(description=_("requested"), ordering="created_at")
    def requested(self, payout: Any) -> str:
        return _with_zone(payout.created_at)

    @admin.display(description=_("pair"))
    def pair(self, payout: Any) -> str:
        return pair_get(payout.asset, payout.network).label

    @admin.display(description=_("to send"))
    def to_send(self, payout: Any) -> str:
        return f"{Usd(payout.net_cents).display()} ({Usd(payout.amount_cents).display()} − fee)"

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        payout = get_object_or_404(self.get_queryset(request), pk=object_id)
        if not self.has_view_permission(request, payout):
            raise PermissionDenied
        pair = pair_get(payout.asset, payout.network)
        form = PayoutForm(request.POST or None, pair=pair)
        if request.method == "POST":
            if not self.may_act(request):
                messages.error(request, _("Your role cannot send or reject withdrawals."))
            elif form.is_valid():
                return self._act(request, payout, form.cleaned_data)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Withdrawal %(ref)s") % {"ref": payout.ref},
            "payout": payout,
            "pair": pair,
            "to_send": self.to_send(payout),
            "sent": format_units(payout.sent_units, pair) if payout.sent_units else "",
            "form": form,
            "may_act": self.may_act(request) and payout.status == PayoutStatus.REQUESTED,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "backoffice/send_payout.html", context)

    def _act(self, request: HttpRequest, payout: Any, data: dict[str, Any]) -> HttpResponse:
        done = reverse("admin:backoffice_payoutsdesk_changelist")

        def act() -> Outcome:
            if data["action"] == "sent":
                payout_mark_sent(
                    payout_id=payout.pk, txid=data["txid"], sent_units=data["sent_units"], actor=_operator(request)
                )
                return Outcome(
                    200, {"message": str(_("Withdrawal marked sent; the customer is e-mailed.")), "redirect": done}
                )
            payout_reject(payout_id=payout.pk, reason=data["reason"], actor=_operator(request))
            return Outcome(
                200, {"message": str(_("Withdrawal rejected; the amount is back on the balance.")), "redirect": done}
            )

        # An error (a withdrawal already decided) goes back to this page; a decision, to the list.
        return form_action(request, act, back=request.path)

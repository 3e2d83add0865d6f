"""Payment pages and actions: instructions for an order or a top-up, reports, paying from the balance."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from gpurent.accounts.models import User
from gpurent.core.errors import ApplicationError, InvalidRequest
from gpurent.core.form_targets import post_or_back
from gpurent.core.formats import usd_text
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.money import Usd
from gpurent.core.notices import notify_operators
from gpurent.core.pagination import page_from_request
from gpurent.ledger.errors import InsufficientBalance
from gpurent.orders.selectors import order_get_for

from .assets import format_units, pair_from_key, pair_get, usd_value
from .balance.figures import balance_available, balance_page_figures
from .balance.page import form_fields, ledger_rows
from .balance.statement import balance_csv_whole
from .btcpay.invoices import intent_prepare
from .demo import address_origin
from .errors import InvalidAddress, PayoutBelowMinimum
from .forms import PairForm, PayoutForm, TopUpForm
from .intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order, intent_report
from .intents.refusals import top_up_refusal, top_ups_refusal_at
from .intents.state import intent_state
from .models import DepositStatus, PaymentIntent, PaymentState
from .payouts import payout_fee, payout_minimum, payout_request
from .qr import payment_uri, qr_svg
from .selectors import deposit_get_for, deposit_list_for, intent_get_for, payout_list_for
from .services import deposit_create, order_pay_from_balance

logger = logging.getLogger(__name__)


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)


def intent_display(intent: PaymentIntent) -> dict[str, Any]:
    """What a person needs to pay an intent: the pair spelled out, the exact amount, the address, a QR code."""
    pair = pair_get(intent.asset, intent.network)
    # Derived from the payment rows: what arrived in time counts towards the amount; the rest is still due.
    received = sum(
        payment.amount_units
        for payment in intent.payments.all()
        if payment.state == PaymentState.CREDITED and payment.at_locked_rate
    )
    due = max(intent.amount_units - received, 0) or intent.amount_units
    # "Worth" is the USD value of the amount shown as due: the whole intent until a part arrives, then the rest
    # at the intent's locked rate (rounded down to the cent, as usd_value does everywhere).
    due_usd = usd_value(due, intent.rate_usd, pair) if received and due < intent.amount_units else Usd(intent.usd_cents)
    try:
        uri = payment_uri(pair, intent.address, due, intent.memo) if intent.address else ""
    except InvalidAddress:
        # The address was valid when loaded; a page must still show the instructions if checks change later.
        logger.warning("intent %s: stored address no longer validates; QR code shows the bare address", intent.pk)
        uri = intent.address
    return {
        "intent": intent,
        "pair": pair,
        "amount": format_units(due, pair),
        "total_amount": format_units(intent.amount_units, pair),
        "received": format_units(received, pair) if received else "",
        "usd": Usd(intent.usd_cents),
        "due_usd": due_usd,
        "share": Usd(intent.balance_share_cents),
        "order_total": Usd(intent.usd_cents + intent.balance_share_cents),
        "qr": qr_svg(uri) if uri else "",
        # The demo shop says how the address was made: a placeholder nobody can spend from, or a real one.
        "demo_notice": address_origin(intent) if settings.PAYMENTS_DEMO_NOTICE else "",
        # The one state every page, the API and the desk show for it (its badge, its sentence, its transfers).
        "state": intent_state(intent),
        **intent_chain(intent),
    }


def intent_chain(intent: PaymentIntent) -> dict[str, Any]:
    """What the chain watcher saw for this intent, and whether the page should keep asking (a watcher is
    configured for its network and the intent is open or has a transfer on chain below its depth; one that
    left the chain, replaced or double-spent, keeps no page asking). Reads `intent.chain_observations.all()`, so a
    list's prefetch serves it; the transfers themselves are shown from `intent_state`."""
    # BTCPay's addresses are not the shop's: its webhooks report them, not a watcher.
    watched = intent.network in settings.CHAIN_WATCH_URLS and not intent.processor
    pending = any(seen.state == "seen" for seen in intent.chain_observations.all())
    return {
        "chain_live": watched and (pending or intent.status == "awaiting_payment"),
        "chain_poll_seconds": settings.CHAIN_PAGE_POLL_SECONDS,
    }


@login_required
@require_GET
def intent_chain_status(request: HttpRequest, intent_id: str) -> HttpResponse:
    """The chain part of an intent, polled by htmx while the watcher may still report something new: the
    confirmations change in place. Once the intent's state (`intent_state`) differs from the one the page was
    drawn with (`?status=`: a transfer was seen, the watcher confirmed it, it went to review), htmx reloads the
    whole page, so that its badge and every other part say the same."""
    intent = intent_get_for(_user(request), intent_id)
    state = intent_state(intent)
    shown = request.GET.get("status")
    if shown and shown != state.code:
        return HttpResponseClientRefresh()
    item = {"intent": intent, "state": state, **intent_chain(intent)}
    return render(request, "payments/partials/intent_chain.html", {"item": item})


def _pair_from(request: HttpRequest) -> tuple[str, str] | None:
    form = PairForm(request.POST)
    if not form.is_valid():
        return None
    pair = pair_from_key(form.cleaned_data["pair"])
    return pair.asset, pair.network


@login_required
@require_POST
def order_intent_create(request: HttpRequest, ref: str) -> HttpResponse:
    user = _user(request)
    order = order_get_for(user, ref)
    back = reverse("orders:rental", args=[order.ref]) + "#payment"
    chosen = _pair_from(request)
    if chosen is None:
        messages.error(request, _("Choose what to pay with."))
        return redirect(back)

    def issue() -> Outcome:
        intent = intent_issue_for_order(order=order, owner=user, asset=chosen[0], network=chosen[1])
        return Outcome(303, {"redirect": back, "intent": str(intent.pk)})

    return _issue_then_prepare(request, issue, back=back)


@login_required
@require_POST
def order_pay(request: HttpRequest, ref: str) -> HttpResponse:
    user = _user(request)
    order = order_get_for(user, ref)
    back = reverse("orders:rental", args=[order.ref])

    def pay() -> Outcome:
        order_pay_from_balance(order=order, owner=user)
        return Outcome(303, {"redirect": back, "message": _("Paid from your balance. Thank you!")})

    return form_action(request, pay, back=back)


@login_required
@require_POST
def intent_report_view(request: HttpRequest, intent_id: str) -> HttpResponse:
    intent = intent_get_for(_user(request), intent_id)
    intent_report(intent=intent)
    if intent.order is not None:
        back = reverse("orders:rental", args=[intent.order.ref])
    else:
        back = reverse("payments:deposit", args=[intent.deposit.ref if intent.deposit else ""])
    # No flash message: the intent's card says "Payment reported. Awaiting verification." on this and every later
    # visit, and the redirect lands on it; a flash said it a second time on the same screen (QA).
    return redirect(f"{back}#intent-{intent.pk}")


@login_required
@require_GET
def balance(request: HttpRequest) -> HttpResponse:
    return _balance_page(request)


def _balance_page(
    request: HttpRequest, *, top_up: TopUpForm | None = None, payout: PayoutForm | None = None, status: int = 200
) -> HttpResponse:
    """The balance page; after a refused top-up or withdrawal, with that form as it was sent and its errors
    next to its fields (422), never emptied or reset to its default behind a message."""
    user = _user(request)
    # The API's and the withdrawal check's figures (decision 0373), with what else the page shows live, in one
    # statement (decision 0499).
    live = balance_page_figures(user, now=timezone.now())
    figures = live.figures
    lines, rows = ledger_rows(request, live.account_id)  # rendered once per page of entries (decision 0428)
    context = {
        "lines": lines,
        "ledger_rows": rows,
        "fields": form_fields(top_up=top_up, payout=payout),
        "balance": figures.balance,
        "held": figures.held,
        "deposits": page_from_request(
            request,
            deposit_list_for(user).prefetch_related("intents__payments", "intents__chain_observations"),
            size=20,
            param="deposits",
        ),
        # The form is replaced by why a new top-up would be refused (the service's own rule, decision 0320).
        "top_up_refusal": top_ups_refusal_at(live.pending_top_ups),
        "available": figures.spendable,
        "payout_minimum": payout_minimum(),
        "payout_fee": payout_fee(),
        "payouts": page_from_request(request, payout_list_for(user), size=20, param="payouts"),
    }
    return render(request, "payments/balance.html", context, status=status)


# Which field a service's refusal of a withdrawal is about; any other is the form's own error. A stored failure
# replayed (`error` None) is the one replayable refusal of `payout_request`: `InsufficientBalance`.
_PAYOUT_ERROR_FIELDS: dict[type[ApplicationError] | None, str] = {
    InvalidAddress: "address",
    InsufficientBalance: "amount_usd",
    PayoutBelowMinimum: "amount_usd",
    None: "amount_usd",
}


@login_required
@post_or_back(lambda request: reverse("payments:balance") + "#topup-heading")
def top_up(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    form = TopUpForm(request.POST)
    if not form.is_valid():
        return _balance_page(request, top_up=form, status=422)
    amount: Usd = form.cleaned_data["amount_usd"]

    def create() -> Outcome:
        deposit = deposit_create(owner=user, amount=amount)
        return Outcome(303, {"redirect": reverse("payments:deposit", args=[deposit.ref])})

    def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
        form.add_error("amount_usd" if type(error) is InvalidRequest else None, message)
        return _balance_page(request, top_up=form, status=status)

    return form_action(request, create, back=reverse("payments:balance"), on_error=failed)


@login_required
@require_GET
def balance_csv_download(request: HttpRequest) -> HttpResponse:
    """Every line of the balance with its reference (and the withdrawals' transactions), as CSV: at once for a
    short history; a longer one is prepared by the background worker, on the page it redirects to (decision 0430)."""
    return balance_csv_whole(_user(request)) or redirect("exports:new", kind="balance.csv")


@login_required
@post_or_back(lambda request: reverse("payments:balance") + "#withdraw-heading")
def withdraw(request: HttpRequest) -> HttpResponse:
    """Ask for a withdrawal (once per idempotency key); the amount leaves the balance at once."""
    user = _user(request)
    back = reverse("payments:balance") + "#withdraw-heading"
    form = PayoutForm(request.POST, auto_id="payout_%s", available=balance_available(user))
    if not form.is_valid():
        return _balance_page(request, payout=form, status=422)
    pair = pair_from_key(form.cleaned_data["pair"])
    amount: Usd = form.cleaned_data["amount_usd"]

    def request_payout() -> Outcome:
        payout = payout_request(
            owner=user, asset=pair.asset, network=pair.network, address=form.cleaned_data["address"], amount=amount
        )
        message = _(
            "Withdrawal %(ref)s requested: %(amount)s left your balance; %(net)s (after the fee of %(fee)s) will be "
            "sent to you soon."
        ) % {
            "ref": payout.ref,
            "amount": usd_text(amount),
            "net": usd_text(Usd(payout.amount_cents - payout.fee_cents)),
            "fee": usd_text(Usd(payout.fee_cents)),
        }
        return Outcome(303, {"redirect": reverse("payments:balance") + "#payouts-heading", "message": message})

    def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
        form.add_error(_PAYOUT_ERROR_FIELDS.get(None if error is None else type(error)), message)
        return _balance_page(request, payout=form, status=status)

    return form_action(request, request_payout, back=back, on_error=failed)


@login_required
@require_GET
def deposit_detail(request: HttpRequest, ref: str) -> HttpResponse:
    deposit = deposit_get_for(_user(request), ref)
    # Read once, for the list and for the badge (`deposit_badge` reads `deposit.intents.all()`).
    newest_first = PaymentIntent.objects.prefetch_related("payments", "chain_observations").order_by("-created_at")
    prefetch_related_objects([deposit], Prefetch("intents", queryset=newest_first))
    intents = [intent_display(intent) for intent in deposit.intents.all()]
    newest = {"pair": intents[0]["pair"].key} if intents else None
    # No "Get new instructions" button when the request would be refused: the service's own rule says why.
    refusal = top_up_refusal(deposit, now=timezone.now()) if deposit.status == DepositStatus.PENDING else None
    context = {
        "deposit": deposit,
        "intents": intents,
        "pair_form": PairForm(auto_id="pair_%s", initial=newest),
        "refusal": refusal,
    }
    return render(request, "payments/deposit.html", context)


@login_required
@require_POST
def deposit_intent_create(request: HttpRequest, ref: str) -> HttpResponse:
    user = _user(request)
    deposit = deposit_get_for(user, ref)
    back = reverse("payments:deposit", args=[deposit.ref])
    chosen = _pair_from(request)
    if chosen is None:
        messages.error(request, _("Choose what to pay with."))
        return redirect(back)

    def issue() -> Outcome:
        intent = intent_issue_for_deposit(deposit=deposit, owner=user, asset=chosen[0], network=chosen[1])
        return Outcome(303, {"redirect": back, "intent": str(intent.pk)})

    return _issue_then_prepare(request, issue, back=back)


def _issue_then_prepare(request: HttpRequest, issue: Callable[[], Outcome], *, back: str) -> HttpResponse:
    """Issue the intent once per idempotency key (its transaction commits), then, with no transaction open,
    let BTCPay Server create its invoice where the network goes through it (a replay finishes an interrupted
    one). An error of either step is a message on the page the form was on."""

    def prepared(outcome: Outcome) -> HttpResponse:
        if outcome.body.get("intent"):
            try:
                intent_prepare(outcome.body["intent"])
            except ApplicationError as error:
                notify_operators(error)
                messages.error(request, error.message)
                return redirect(back)
        return redirect(outcome.body.get("redirect", back))

    return form_action(request, issue, back=back, respond=prepared)

"""How intents, deposits and ledger lines look in the API and on pages (shared by both)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.money import Usd
from gpurent.core.pagination import DEFAULT_PAGE_SIZE, keyset_page
from gpurent.ledger.selectors import ledger_lines_for
from gpurent.orders.models import Order

from .assets import format_units, pair_get
from .balance.figures import balance_figures
from .intents.refusals import top_up_lapsed
from .intents.state import intent_state, order_payment_badge, payment_badge
from .models import Deposit, DepositStatus, PaymentIntent, Payout
from .selectors import deposit_list_for, payment_reported

REPORTED_MESSAGE = "Payment reported. Awaiting verification."


def intent_out(intent: PaymentIntent) -> dict[str, Any]:
    """An intent in the API's shape (DESIGN §11.1): amounts as decimal strings, times with a timezone; `state`
    and what the chain watcher saw from `intent_state`, as the intent's page shows them. Reads the intent's
    payments and chain observations: prefetch both for lists."""
    pair = pair_get(intent.asset, intent.network)
    state = intent_state(intent)
    return {
        "id": str(intent.pk),
        "asset": intent.asset,
        "network": intent.network,
        "network_label": pair.network_label,
        "address": intent.address,
        "memo": intent.memo,
        "amount": format_units(intent.amount_units, pair),
        "rate_usd": format(intent.rate_usd.normalize(), "f"),
        "usd_amount": Usd(intent.usd_cents).to_api(),
        "balance_share_usd": Usd(intent.balance_share_cents).to_api(),
        "created_at": intent.created_at,
        "expires_at": intent.expires_at,
        "status": intent.status,
        "reported_at": intent.reported_at,
        "order": intent.order.ref if intent.order_id and intent.order else None,
        "deposit": intent.deposit.ref if intent.deposit_id and intent.deposit else None,
        "checkout_link": intent.checkout_link or None,
        "state": state.code,
        "state_label": state.label,
        "state_message": state.message,
        "confirmations": state.confirmations,
        "required_confirmations": state.required_confirmations,
        "transfers": [
            {
                "txid": transfer.txid,
                "output_index": transfer.output_index,
                "amount": transfer.amount,
                "confirmations": transfer.confirmations,
                "required_confirmations": transfer.required_confirmations,
                "state": transfer.state,
                "message": transfer.message,
                "first_seen_at": transfer.first_seen_at,
            }
            for transfer in state.transfers
        ],
    }


def order_payment_fields(order: Order) -> dict[str, Any]:
    """The order's payment fields the orders API leaves to payments: its intents, the reported flag and the
    state its badge shows (`payment_state`)."""
    # order.intents.all() uses the list's prefetch when there is one (GET /api/v1/orders), one query otherwise.
    intents = sorted(order.intents.all(), key=lambda intent: intent.created_at, reverse=True)
    return {
        "intents": [intent_out(intent) for intent in intents],
        "payment_reported": payment_reported(intents),
        "payment_state": order_payment_badge(order, intents)["value"],
    }


def deposits_with_intents_for(owner: AbstractBaseUser) -> QuerySet[Deposit]:
    """The owner's top-ups with their intents, their payments and what the watchers saw, in three more queries
    per page (for `deposit_out`)."""
    intents = PaymentIntent.objects.select_related("order", "deposit").prefetch_related(
        "payments", "chain_observations"
    )
    return deposit_list_for(owner).prefetch_related(Prefetch("intents", queryset=intents))


def deposit_badge(deposit: Deposit, *, now: datetime) -> dict[str, str]:
    """A top-up's badge on the pages: `value` (its CSS class) and `label`, with `hint` where the label alone
    would mislead. While it is pending, the state of its intents where one says more (`payment_badge`: "In
    review", "Seen on chain", "Payment reported": someone or something is on it); "Lapsed" for a
    pending top-up that takes no new instructions (decision 0335: `refusals.top_up_lapsed`, the refusal's own
    test); otherwise its status. Uses `deposit.intents.all()` with their payments and chain observations
    (prefetch them for lists)."""
    if deposit.status == DepositStatus.PENDING and (badge := payment_badge(deposit.intents.all())):
        return badge
    if top_up_lapsed(deposit, now=now):
        return {
            "value": "lapsed",
            "label": _("Lapsed"),
            "hint": _("takes no new payment instructions; payments sent to its instructions are still credited"),
        }
    return {"value": deposit.status, "label": deposit.get_status_display()}


def deposit_out(deposit: Deposit, *, now: datetime | None = None) -> dict[str, Any]:
    """A top-up in the API's shape. `status` keeps its values (DESIGN §11.1); `lapsed` (decision 0335) says that
    a `pending` one takes no new instructions, from the same test as the refusal (`refusals.top_up_lapsed`)."""
    # deposit.intents.all() uses the list's prefetch when there is one (GET /api/v1/deposits), one query otherwise.
    intents = sorted(deposit.intents.all(), key=lambda intent: intent.created_at, reverse=True)
    return {
        "ref": deposit.ref,
        "kind": deposit.kind,
        "amount_usd": Usd(deposit.requested_cents).to_api() if deposit.requested_cents is not None else None,
        "credited_usd": Usd(deposit.credited_cents).to_api() if deposit.credited_cents is not None else None,
        "status": deposit.status,
        "lapsed": top_up_lapsed(deposit, now=now or timezone.now()),
        "created_at": deposit.created_at,
        "intents": [intent_out(intent) for intent in intents],
    }


def balance_out(owner: AbstractBaseUser, cursor: str | None = None, limit: int = DEFAULT_PAGE_SIZE) -> dict[str, Any]:
    """The balance's figures and one page of its ledger lines, newest first; `next` is the cursor of the older lines.
    `available_usd` keeps its first meaning, the whole balance, for existing clients (decision 0373)."""
    page = keyset_page(ledger_lines_for(owner), cursor, size=limit)
    figures = balance_figures(owner)
    return {
        "balance_usd": figures.balance.to_api(),
        "held_usd": figures.held.to_api(),
        "spendable_usd": figures.spendable.to_api(),
        "available_usd": figures.balance.to_api(),
        "next": page.next,
        "entries": [
            {
                "at": entry.created_at,
                "reference": entry.transfer.reference,
                "direction": entry.direction,
                "amount_usd": Usd(entry.amount_cents).to_api(),
                "balance_after_usd": Usd(entry.balance_after_cents or 0).to_api(),  # customer lines always have it
                "memo": entry.transfer.memo,
            }
            for entry in page.items
        ],
    }


def payout_out(payout: Payout) -> dict[str, Any]:
    """A withdrawal in the API's shape: USD amounts as decimal strings, what was sent in the asset's units."""
    pair = pair_get(payout.asset, payout.network)
    return {
        "ref": payout.ref,
        "reference": f"payout:{payout.ref}",
        "asset": payout.asset,
        "network": payout.network,
        "network_label": pair.network_label,
        "address": payout.address,
        "amount_usd": Usd(payout.amount_cents).to_api(),
        "fee_usd": Usd(payout.fee_cents).to_api(),
        "net_usd": Usd(payout.net_cents).to_api(),
        "status": payout.status,
        "txid": payout.txid or None,
        "sent_amount": format_units(payout.sent_units, pair) if payout.sent_units else None,
        "reason": payout.reason or None,
        "created_at": payout.created_at,
        "decided_at": payout.decided_at,
    }

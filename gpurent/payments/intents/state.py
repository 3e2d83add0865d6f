"""The one state an intent is shown in, derived from its rows, for every place that shows it.

The intent's page, the order page and My rentals (the order's payment badge), a top-up, the receipt, the API
(`presenters.intent_out`) and the payments desk all read `intent_state`, so no two of them can disagree: a
late payment waiting for an operator's review reads "In review" everywhere, never "confirmed on chain" on one
page and "Awaiting payment" on the next (issue 32, decision 0382).

States (`IntentState.code`, also the API's `state`), the first that applies:
- `confirmed`, `rejected`, `closed`, `review`: the intent's status says it (`review`: a payment arrived after
  the instructions expired and waits for an operator).
- `seen_on_chain`: open or expired, and a chain watcher sees a transfer to it below its confirmation depth.
- `payment_reported`: the customer reported paying it and nothing was recorded or decided yet
  (`selectors.intent_awaits_verification`).
- `expired`, `awaiting_payment`: its status.

Each transfer a watcher saw (`IntentState.transfers`) has its own state: `seen` or `dropped` (the
observation's), or, once the transfer was recorded as a payment, the payment's: `credited`, `review` or
`rejected`. Reads `intent.payments.all()` and `intent.chain_observations.all()`: prefetch both for lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from gpurent.core.formats import date_text
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.models import Order

from ..assets import format_units, pair_get
from ..models import IntentStatus, ObservationState, PaymentIntent, PaymentState
from ..received.receive import normalise_txid
from ..selectors import intent_awaits_verification

__all__ = ["IntentState", "TransferState", "intent_state", "order_payment_badge", "payment_badge"]

# A transfer's state in a word: the payment's once it was recorded, else the observation's.
_STATE_LABELS = {**dict(ObservationState.choices), **dict(PaymentState.choices)}

# An order or top-up that still waits for its payment shows the most telling state of its intents.
_BADGE_ORDER = ("review", "seen_on_chain", "payment_reported")


@dataclass(frozen=True, slots=True)
class TransferState:
    """One transfer a chain watcher saw for the intent, as the customer and the desk are told about it."""

    txid: str
    output_index: int
    amount: str
    confirmations: int
    required_confirmations: int
    state: str
    label: str
    message: str
    first_seen_at: datetime
    recorded_at: datetime | None


@dataclass(frozen=True, slots=True)
class IntentState:
    """`code` (see the module), `label` (its badge), `message` (its sentence; empty where the instructions
    themselves are the message), the watcher's transfers, and the confirmations of the transfer the state is
    about (the first one still below its depth, else the latest one; None when a watcher saw none)."""

    code: str
    label: str
    message: str
    transfers: list[TransferState]
    confirmations: int | None
    required_confirmations: int | None


def _transfer_message(state: str, confirmations: int, required: int) -> str:
    if state == PaymentState.CREDITED:
        return _("Payment confirmed on chain (%(n)s confirmations).") % {"n": confirmations}
    if state == PaymentState.REVIEW:
        return _("Payment on chain (%(n)s confirmations): in review.") % {"n": confirmations}
    if state == PaymentState.REJECTED:
        return _("Payment on chain (%(n)s confirmations): not credited after review.") % {"n": confirmations}
    if state == ObservationState.DROPPED:
        return _(
            "A transaction seen on chain left it before it was confirmed. If you sent it again, it will show here."
        )
    return _("Seen on chain, %(n)s of %(m)s confirmations") % {"n": confirmations, "m": required}


def _transfers(intent: PaymentIntent) -> list[TransferState]:
    pair = pair_get(intent.asset, intent.network)
    payments = {(p.network, p.txid, p.output_index): p for p in intent.payments.all()}
    transfers = []
    for seen in intent.chain_observations.all():  # oldest first (the model's ordering)
        payment = payments.get((seen.network, normalise_txid(seen.txid), seen.output_index))
        # Once recorded, the payment row says what became of it (credited, in review, declined).
        state = payment.state if payment is not None else seen.state
        transfers.append(
            TransferState(
                txid=seen.txid,
                output_index=seen.output_index,
                amount=format_units(seen.amount_units, pair),
                confirmations=seen.confirmations,
                required_confirmations=seen.required_confirmations,
                state=state,
                label=str(_STATE_LABELS[state]),
                message=_transfer_message(state, seen.confirmations, seen.required_confirmations),
                first_seen_at=seen.first_seen_at,
                recorded_at=seen.credited_at,
            )
        )
    return transfers


def _confirmed_message(intent: PaymentIntent) -> str:
    credited = [p.credited_at for p in intent.payments.all() if p.credited_at is not None]
    when = intent.verified_at or (max(credited) if credited else None)
    # Written as every page writes a date (decision 0401): "6 dic 2026, 01:55", "06/12/2026 01:55".
    return _("Payment confirmed on %(when)s UTC.") % {"when": date_text(when, time=True)} if when else ""


def _closed_message(intent: PaymentIntent) -> str:
    if intent.processor and not intent.processor_invoice_id:
        return _(
            "These payment instructions could not be prepared because the payment processor did not answer. "
            "Nothing can be paid to them: choose what to pay with again for new instructions."
        )
    return _(
        "These instructions are closed: the order no longer waits for a payment. Anything still sent to these "
        "instructions is credited to your balance."
    )


def intent_state(intent: PaymentIntent) -> IntentState:
    """The state `intent` is shown in (the module says which applies)."""
    transfers = _transfers(intent)
    below_depth = [t for t in transfers if t.state == ObservationState.SEEN]
    about = below_depth[0] if below_depth else (transfers[-1] if transfers else None)
    status = intent.status
    if status == IntentStatus.CONFIRMED:
        code, label, message = "confirmed", _("Confirmed"), _confirmed_message(intent)
    elif status == IntentStatus.REJECTED:
        code, label, message = "rejected", _("Rejected"), _("No valid payment was found for these instructions.")
    elif status == IntentStatus.CLOSED:
        code, label, message = "closed", _("Closed"), _closed_message(intent)
    elif status == IntentStatus.REVIEW:
        code, label = "review", _("In review")
        message = _(
            "A payment arrived after these instructions expired. An operator will credit it to your balance; "
            "you will get an e-mail."
        )
    elif below_depth:
        code, label, message = "seen_on_chain", _("Seen on chain"), below_depth[0].message
    elif intent_awaits_verification(intent):
        code, label, message = "payment_reported", _("Payment reported"), _("Payment reported. Awaiting verification.")
    elif status == IntentStatus.EXPIRED:
        code, label, message = "expired", _("Expired"), ""
    else:
        code, label, message = "awaiting_payment", _("Awaiting payment"), ""
    return IntentState(
        code=code,
        label=label,
        message=message,
        transfers=transfers,
        confirmations=about.confirmations if about else None,
        required_confirmations=about.required_confirmations if about else None,
    )


def payment_badge(intents: Iterable[PaymentIntent]) -> dict[str, str] | None:
    """The badge of an order or top-up still waiting for its payment, from its intents' states: "In review",
    "Seen on chain" or "Payment reported" (the first that one of them is in); None when none is (the order's or
    top-up's own status is the badge then)."""
    states = {state.code: state.label for state in map(intent_state, intents)}
    for code in _BADGE_ORDER:
        if code in states:
            return {"value": code, "label": states[code]}
    return None


def order_payment_badge(order: Order, intents: Iterable[PaymentIntent]) -> dict[str, str]:
    """The order's payment badge (`value`, `label`): while it awaits its payment, the state of its intents
    where one says more (`payment_badge`), else its payment status. Pages, the receipt and the API's
    `payment_state` all read this one."""
    if order.payment_status == PaymentStatus.AWAITING_PAYMENT and (badge := payment_badge(intents)):
        return badge
    return {"value": order.payment_status, "label": order.get_payment_status_display()}

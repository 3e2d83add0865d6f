"""Withdrawals (payouts): the customer's available balance paid out in crypto (docs/money.md, decision 0120).

- `payout_request`: the amount leaves the balance at once, `payout:<P-ref>` from the customer's account to
  `suspense:payouts`, so it can be spent nowhere else while it waits for an operator.
- `payout_mark_sent`: the operator sent it; `payout-sent:<ref>` moves the amount minus the fee to
  `external:crypto` and `payout-fee:<ref>` the fee to `revenue:payout_fees`. The customer is e-mailed.
- `payout_reject`: the operator declines it; `payout-returned:<ref>` moves the whole amount back to the balance.

Each locks the payout (if any) and then the customer's account through `lock_rows`, in the money lock order,
writes an audit row and queues its e-mails in the same transaction. Nothing here reads a rate or calls out.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.audit import audit_record, snapshot
from gpurent.core.emails import email_operators
from gpurent.core.errors import ApplicationError, InvalidRequest, NotFound
from gpurent.core.formats import decimal_text, usd_text
from gpurent.core.locks import lock_rows
from gpurent.core.money import Usd
from gpurent.core.references import new_reference
from gpurent.ledger.errors import InsufficientBalance
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.references import reference_text
from gpurent.ledger.services import (
    EXTERNAL_CRYPTO,
    REVENUE_PAYOUT_FEES,
    SUSPENSE_PAYOUTS,
    customer_account,
    system_account,
    transfer_post,
)

from .addresses import validate_address
from .assets import format_units, pair_get
from .balance.figures import balance_available
from .errors import PayoutBelowMinimum, PayoutNotPending
from .models import Payout, PayoutStatus
from .notify import customer_money_email
from .received.receive import normalise_txid

__all__ = [
    "payout_amount_refusal",
    "payout_fee",
    "payout_mark_sent",
    "payout_minimum",
    "payout_reject",
    "payout_request",
]


def payout_fee() -> Usd:
    """The fee taken from a withdrawal (`PAYOUTS_FEE_CENTS`): the one place that reads the setting."""
    return Usd(settings.PAYOUTS_FEE_CENTS)


def payout_minimum() -> Usd:
    """The smallest withdrawal: the setting, and always more than the fee."""
    return Usd(max(settings.PAYOUTS_MIN_CENTS, payout_fee().cents + 1))


def payout_amount_refusal(amount: Usd, *, available: Usd | None = None) -> ApplicationError | None:
    """Why `amount` cannot be withdrawn, or None: below `payout_minimum()` (`PayoutBelowMinimum`), else more than
    `available` (`InsufficientBalance`; not checked when `available` is None). The withdrawal form asks it beside
    the address check, so that it shows every error at once; `payout_request` asks it again, under the lock."""
    minimum = payout_minimum()
    if amount < minimum:
        return PayoutBelowMinimum(
            _("The smallest withdrawal is %(minimum)s (the fee of %(fee)s is taken from it).")
            % {"minimum": usd_text(minimum), "fee": usd_text(payout_fee())}
        )
    if available is not None and available < amount:
        return InsufficientBalance(_("Your available balance does not cover this withdrawal."))
    return None


def payout_request(*, owner: AbstractBaseUser, asset: str, network: str, address: str, amount: Usd) -> Payout:
    """Withdraw `amount` of the available balance to `address` on the pair's network.

    Raises:
        UnsupportedPair, InvalidAddress: nothing is written.
        PayoutBelowMinimum: the amount is below `payout_minimum()`.
        InsufficientBalance: the balance minus what open payment instructions hold does not cover it.
    """
    pair = pair_get(asset, network)
    canonical = validate_address(pair.network, address)
    if below := payout_amount_refusal(amount):
        raise below
    account = customer_account(owner)
    with transaction.atomic():
        lock_rows((LedgerAccount, [account.pk]))
        # Read under the account's lock: orders paid from the balance and new holds take the same lock.
        if refusal := payout_amount_refusal(amount, available=balance_available(owner)):
            raise refusal
        payout = _create(
            owner_id=owner.pk,
            asset=pair.asset,
            network=pair.network,
            address=canonical,
            amount_cents=amount.cents,
            fee_cents=payout_fee().cents,
        )
        transfer_post(
            reference=f"payout:{payout.ref}",
            debit=account,
            credit=system_account(SUSPENSE_PAYOUTS),
            amount=amount,
            memo=f"withdrawal to {pair.label} {canonical}"[:200],
        )
        audit_record(actor=owner, action="payout.requested", target=payout, after=snapshot(payout))
        _tell_operators(payout)
        _tell_customer(payout, "payout_requested")  # the customer's record of what left the balance (QA2 #12)
    return payout


def _create(**fields: object) -> Payout:
    """A new payout with a fresh `P-…` reference (retried on the rare clash)."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return Payout.objects.create(ref=new_reference("P"), **fields)
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free payout reference")


def _locked(payout_id: int) -> Payout:
    """Lock the payout, then its owner's account (the money lock order), and read the payout under the lock."""
    owner_id = Payout.objects.filter(pk=payout_id).values_list("owner_id", flat=True).first()
    if owner_id is None:
        raise NotFound()
    lock_rows((Payout, [payout_id]), (LedgerAccount, [customer_account(owner_id).pk]))
    return Payout.objects.select_related("owner").get(pk=payout_id)


def payout_mark_sent(
    *,
    payout_id: int,
    txid: str,
    sent_units: int,
    actor: AbstractBaseUser | None,
    amount_check: dict[str, Any] | None = None,
) -> Payout:
    """The operator sent the withdrawal: record the transaction, move the money out, e-mail the customer.

    `amount_check` is what the desk compared the amount with (`payout_amounts.SentCheck.record`: the quote, its
    rate, how far off, whether the operator confirmed the difference); the audit row keeps it beside the payout.
    Marking it sent again with the same transaction id returns it unchanged (a double submit).

    Raises:
        InvalidRequest: no transaction id, or nothing sent.
        PayoutNotPending: it was rejected, or sent with another transaction id.
    """
    txid = normalise_txid(txid or "")
    if not txid or len(txid) > 128:
        raise InvalidRequest(_("Enter the transaction id of the withdrawal."))
    if sent_units <= 0:
        raise InvalidRequest(_("Enter the amount sent."))
    with transaction.atomic():
        payout = _locked(payout_id)
        if payout.status == PayoutStatus.SENT and payout.txid == txid:
            return payout
        if payout.status != PayoutStatus.REQUESTED:
            raise PayoutNotPending()
        before = snapshot(payout)
        pending = system_account(SUSPENSE_PAYOUTS)
        transfer_post(
            reference=f"payout-sent:{payout.ref}",
            debit=pending,
            credit=system_account(EXTERNAL_CRYPTO),
            amount=Usd(payout.net_cents),
            memo=f"sent {txid}"[:200],
        )
        if payout.fee_cents:
            transfer_post(
                reference=f"payout-fee:{payout.ref}",
                debit=pending,
                credit=system_account(REVENUE_PAYOUT_FEES),
                amount=Usd(payout.fee_cents),
                memo="withdrawal fee",
            )
        payout.status, payout.txid, payout.sent_units = PayoutStatus.SENT, txid, sent_units
        payout.decided_at, payout.decided_by = timezone.now(), actor  # type: ignore[assignment]
        payout.save(update_fields=["status", "txid", "sent_units", "decided_at", "decided_by"])
        after = snapshot(payout) | ({"amount_check": amount_check} if amount_check is not None else {})
        audit_record(actor=actor, action="payout.sent", target=payout, before=before, after=after)
        _tell_customer(payout, "payout_sent")
    return payout


def payout_reject(*, payout_id: int, reason: str, actor: AbstractBaseUser | None) -> Payout:
    """The operator declines the withdrawal: the whole amount (fee included) returns to the balance.

    Rejecting it again returns it unchanged (a double submit).

    Raises:
        PayoutNotPending: it was sent already.
    """
    with transaction.atomic():
        payout = _locked(payout_id)
        if payout.status == PayoutStatus.REJECTED:
            return payout
        if payout.status != PayoutStatus.REQUESTED:
            raise PayoutNotPending()
        before = snapshot(payout)
        transfer_post(
            reference=f"payout-returned:{payout.ref}",
            debit=system_account(SUSPENSE_PAYOUTS),
            credit=customer_account(payout.owner_id),
            amount=Usd(payout.amount_cents),
            memo=f"withdrawal declined: {reason}"[:200],
        )
        payout.status, payout.reason = PayoutStatus.REJECTED, reason.strip()[:200]
        payout.decided_at, payout.decided_by = timezone.now(), actor  # type: ignore[assignment]
        payout.save(update_fields=["status", "reason", "decided_at", "decided_by"])
        audit_record(actor=actor, action="payout.rejected", target=payout, before=before, after=snapshot(payout))
        _tell_customer(payout, "payout_rejected")
    return payout


def _tell_customer(payout: Payout, event: str) -> None:
    """E-mail the customer, in their language, that the withdrawal was requested (what left the balance, where it
    goes), sent (with its reference) or declined."""
    key = f"{event}:{payout.pk}"
    customer_money_email(user=payout.owner, key=key, texts=lambda: _payout_texts(payout, event))


def _payout_texts(payout: Payout, event: str) -> tuple[str, list[str]]:
    pair = pair_get(payout.asset, payout.network)
    values = {
        "ref": reference_text(f"payout:{payout.ref}"),
        "amount": usd_text(Usd(payout.amount_cents)),
        "net": usd_text(Usd(payout.net_cents)),
        "address": payout.address,
        "pair": pair.display_label,
        "sent": f"{decimal_text(format_units(payout.sent_units or 0, pair))} {pair.asset}",
        "txid": payout.txid,
        "reason": payout.reason or "—",
    }
    if event == "payout_requested":
        return _("Withdrawal requested: %(amount)s") % values, [
            _(
                "We received your request to withdraw %(amount)s to %(address)s on %(pair)s. It has left your "
                "balance; %(net)s (after the fee) will be sent."
            )
            % values,
            # The shop's address, not "reply": e-mails go out from DEFAULT_FROM_EMAIL, which may read no reply.
            _(
                "You will get another e-mail with the transaction id once it is sent. Reference: %(ref)s. If you did "
                "not ask for this withdrawal, change your password at once and write to us at %(contact)s."
            )
            % (values | {"contact": settings.SHOP_CONTACT_EMAIL}),
        ]
    if event == "payout_sent":
        return _("Withdrawal sent: %(net)s") % values, [
            _("We sent %(sent)s (%(net)s: your withdrawal of %(amount)s minus the fee) to %(address)s on %(pair)s.")
            % values,
            _("Transaction id: %(txid)s. Reference: %(ref)s.") % values,
        ]
    return _("Withdrawal declined: %(amount)s back on your balance") % values, [
        _("We could not send your withdrawal %(ref)s to %(address)s. Reason: %(reason)s.") % values,
        _("The whole amount, %(amount)s, is back on your balance.") % values,
    ]


def _tell_operators(payout: Payout) -> None:
    """E-mail the members of the `payouts` role (or OPERATOR_EMAILS) that a withdrawal waits for them."""
    pair = pair_get(payout.asset, payout.network)
    url = settings.SITE_URL.rstrip("/") + reverse("admin:backoffice_payoutsdesk_change", args=[payout.pk])
    context = {
        "payout": payout,
        "pair": {"label": pair.label, "asset": pair.asset},  # stored as JSON with the e-mail
        "customer": getattr(payout.owner, "email", ""),
        "amount": Usd(payout.amount_cents).display(),
        "fee": Usd(payout.fee_cents).display(),
        "net": Usd(payout.net_cents).display(),
        "url": url,
    }
    email_operators(
        "payouts", key=f"payout-requested:{payout.pk}", template="backoffice/payout_requested", context=context
    )

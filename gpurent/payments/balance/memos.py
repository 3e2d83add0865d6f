"""A ledger transfer's memo in the reader's language, for the balance statement (CSV, prepared or at once).

Memos are stored in English and never change (the ledger is append-only, decision 0008): "2 × RTX 4090 24GB, 7
days", "BTC on bitcoin, bitcoin:<txid>:0", "withdrawal to USDT on Tron (TRC-20) T…". As the order history's notes
(decision 0404), the shop's own memos are read back into their parts when the statement is written and written
again in the reader's language, a network by its display name; a memo the shop did not write in one of these
shapes (an operator's text) is shown as stored. No query: the parts are all in the memo, so a statement of 10^6
lines reads nothing more; `MemoTexts` keeps each distinct memo's text for one statement.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext, ngettext

from gpurent.orders.history_notes import note_text

from ..assets import PAIRS, Pair, format_units
from ..models import Payout

__all__ = ["MemoTexts", "memo_text", "payout_detail_text"]

_BY_KEY: dict[tuple[str, str], Pair] = {(pair.asset, pair.network): pair for pair in PAIRS}
_BY_LABEL: dict[str, Pair] = {pair.label: pair for pair in PAIRS}

# payments.services: an order paid from the balance.
_ORDER = re.compile(r"(?P<lots>\d+) × (?P<gpu>.+), (?P<days>\d+) days")
# payments.received.receive: a payment credited ("<asset> on <network>, <network>:<txid>:<index>").
_RECEIVED = re.compile(r"(?P<asset>\S+) on (?P<network>\S+), (?P=network):(?P<txid>.+):(?P<index>\d+)")
# payments.payouts: a withdrawal, its sending, its fee, its return.
_WITHDRAWAL = re.compile(r"withdrawal to (?P<label>.+) (?P<address>\S+)")
_SENT = re.compile(r"sent (?P<txid>\S+)")
_DECLINED = re.compile(r"withdrawal declined: (?P<reason>.*)", re.S)
# orders.provisioning: a refund; ledger.services: a reversal.
_REFUND = re.compile(r"refund: (?P<reason>.*)", re.S)
_REVERSAL = re.compile(r"reversal of (?P<reference>\S+)")


def _txid(txid: str, index: str) -> str:
    return gettext("transaction %(txid)s") % {"txid": txid if index == "0" else f"{txid}:{index}"}


def _received(match: re.Match[str]) -> str | None:
    pair = _BY_KEY.get((match["asset"], match["network"]))
    return f"{pair.display_label}, {_txid(match['txid'], match['index'])}" if pair else None


def _withdrawal(match: re.Match[str]) -> str | None:
    pair = _BY_LABEL.get(match["label"])
    if pair is None:
        return None
    return gettext("withdrawal to %(pair)s %(address)s") % {"pair": pair.display_label, "address": match["address"]}


def _order(match: re.Match[str]) -> str:
    days = int(match["days"])
    term = ngettext("%(days)d day", "%(days)d days", days) % {"days": days}
    return f"{match['lots']} × {match['gpu']}, {term}"


_SHAPES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str | None]], ...] = (
    (_ORDER, _order),
    (_RECEIVED, _received),
    (_WITHDRAWAL, _withdrawal),
    (_SENT, lambda match: gettext("withdrawal sent, %(transaction)s") % {"transaction": _txid(match["txid"], "0")}),
    (_DECLINED, lambda match: gettext("withdrawal declined: %(reason)s") % {"reason": match["reason"]}),
    (_REFUND, lambda match: gettext("refund: %(reason)s") % {"reason": note_text(match["reason"])}),
    (_REVERSAL, lambda match: gettext("reversal of %(reference)s") % {"reference": match["reference"]}),
)


def memo_text(memo: str) -> str:
    """`memo` in the active language (the shop's own memos), or as stored."""
    if not memo:
        return ""
    if memo == "withdrawal fee":
        return gettext("withdrawal fee")
    for pattern, write in _SHAPES:
        if (match := pattern.fullmatch(memo)) and (text := write(match)) is not None:
            return text
    return memo


class MemoTexts(dict[str, str]):
    """Each distinct memo's text, made once per statement (in the language active while it is written)."""

    def __missing__(self, memo: str) -> str:
        text = memo_text(memo)
        if len(self) < 10_000:  # bounded: most memos of a long statement repeat, the rest are made each time
            self[memo] = text
        return text


def payout_detail_text(payout: Payout) -> str:
    """A withdrawal's lines' detail in the active language: its status, address and pair and, once sent, what was
    sent and the transaction id."""
    pair = _BY_KEY[(payout.asset, payout.network)]
    detail = gettext("%(status)s to %(address)s (%(pair)s)") % {
        "status": payout.get_status_display(),
        "address": payout.address,
        "pair": pair.display_label,
    }
    if payout.txid:
        detail += "; " + gettext("sent %(amount)s %(asset)s, %(transaction)s") % {
            "amount": format_units(payout.sent_units or 0, pair),
            "asset": pair.asset,
            "transaction": _txid(payout.txid, "0"),
        }
    return detail

"""The notes the shop itself writes into an order's history, stored in English and read in the reader's language.

A status change keeps its `reason` as written (the back office, the audit and the API read one language; a
stored row never changes when a translation does). The order page shows it through `note_text`, which knows
the shop's own notes: the fixed ones are gettext_noop strings, translated as they are shown; the two with a
value ("payment reported: 370.000000 USDT on Tron (TRC-20)", "extends R-ABC123") are read back into their parts
and written again in the reader's language, the amount with the language's decimal mark. A note an operator
typed is shown as typed. (docs/decisions/0404-history-notes-translated-when-shown.md)
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from gpurent.core.formats import decimal_text

__all__ = [
    "CANCELLED_BY_CUSTOMER",
    "COULD_NOT_BE_PROVIDED",
    "DEADLINE_PASSED",
    "HOST_FAILED",
    "TERM_ENDED",
    "extends_note",
    "note_text",
    "payment_rejected_note",
    "payment_reported_note",
]

CANCELLED_BY_CUSTOMER = gettext_noop("cancelled by customer")
DEADLINE_PASSED = gettext_noop("payment deadline passed")
TERM_ENDED = gettext_noop("term ended")
HOST_FAILED = gettext_noop("the GPU host could not prepare the machine")
COULD_NOT_BE_PROVIDED = gettext_noop("could not be provided")
_FIXED = frozenset({CANCELLED_BY_CUSTOMER, DEADLINE_PASSED, TERM_ENDED, HOST_FAILED, COULD_NOT_BE_PROVIDED})

# "payment reported: 370.000000 USDT on Tron (TRC-20)": the exact amount, the asset, the network's label.
_REPORTED = re.compile(r"payment reported: (?P<amount>[0-9]+(?:\.[0-9]+)?) (?P<asset>\S+) on (?P<network>.+)")
_EXTENDS = re.compile(r"extends (?P<ref>\S+)")
# "payment rejected: <the operator's reason>": the reason as the operator typed it.
_REJECTED = re.compile(r"payment rejected: (?P<reason>.+)", re.S)


def payment_reported_note(amount: str, pair_label: str) -> str:
    """The stored (English) note of a payment the customer reports: `amount` the exact decimal string,
    `pair_label` the pair's English label ("USDT on Tron (TRC-20)")."""
    return f"payment reported: {amount} {pair_label}"[:200]


def payment_rejected_note(reason: str) -> str:
    """The stored (English) note of a reported payment an operator rejected, with the operator's reason."""
    return f"payment rejected: {reason}"[:200]


def extends_note(ref: str) -> str:
    """The stored (English) note of an extension's first change: the rental it extends."""
    return f"extends {ref}"


def note_text(reason: str) -> str:
    """`reason` in the active language: the shop's own notes translated, an operator's text as typed."""
    if reason in _FIXED:
        return gettext(reason)
    if match := _REPORTED.fullmatch(reason):
        return gettext("payment reported: %(amount)s %(asset)s on %(network)s") % {
            "amount": decimal_text(match["amount"]),
            "asset": match["asset"],
            "network": match["network"],
        }
    if match := _REJECTED.fullmatch(reason):
        return gettext("payment not accepted: %(reason)s") % {"reason": match["reason"]}
    if match := _EXTENDS.fullmatch(reason):
        return gettext("extends %(rental)s") % {"rental": match["ref"]}
    return reason

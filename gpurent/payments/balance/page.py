"""The parts of the balance page that do not change from one view to the next, rendered once (decision 0428).

- The ledger's rows: entries and their transfers are append-only (decision 0008; refused by a trigger on
  PostgreSQL), so a page of them renders the same every time, for a language and code version. The page reads
  only its entries' ids (`id_page_from_request`, one column, no model instances), by the account's id that the
  page's figures already read (`figures.balance_page_figures`); its rows are rendered once per set of ids and
  language (two amounts, a date and a reference per line, 50 lines) and read from the cache after. Keyed by the
  ids themselves: only the owner's query can name them.
- The forms' fields: the top-up and withdrawal widgets and their labels, the same for every customer, once per
  language.

What changes stays live: the balance, what is held and available, the refusal, the top-ups and withdrawals
(their status moves), the CSRF token and each form's idempotency key.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from gpurent.core.caching.fragments import cached, fragment_key
from gpurent.core.pagination import Page, id_page_from_request
from gpurent.ledger.models import LedgerEntry

from ..forms import PayoutForm, TopUpForm

__all__ = ["form_fields", "ledger_rows"]


def ledger_rows(request: HttpRequest, account_id: int | None) -> tuple[Page[int], SafeString]:
    """The page of the customer's ledger account `account_id` (None: none yet, no lines) the request names
    (newest first: ids only) and its rows' HTML."""
    if account_id is None:
        return Page(items=[], next=None, cursor=None), mark_safe("")
    page = id_page_from_request(request, LedgerEntry.objects.filter(account_id=account_id))
    if not page.items:
        return page, mark_safe("")
    key = fragment_key("ledger-rows", ",".join(map(str, page.items)))

    def render() -> str:
        lines = LedgerEntry.objects.filter(id__in=page.items).select_related("transfer").order_by("-id")
        return render_to_string("payments/partials/ledger_rows.html", {"lines": lines})

    return page, mark_safe(cached(key, render))  # noqa: S308 (rendered by our own template with autoescape)


def form_fields(*, top_up: TopUpForm | None = None, payout: PayoutForm | None = None) -> dict[str, SafeString]:
    """The labels and widgets of the top-up and withdrawal forms (unbound: the same for everyone), by name: the
    page builds no form of its own. A refused submission passes its bound form (`top_up`, `payout`, the latter
    made with `auto_id="payout_%s"`): its fields are rendered with what was typed and their errors
    (`<name>_errors`, and the form's own as `top_up_errors`/`payout_errors`), never cached."""
    if top_up is not None or payout is not None:
        return {
            name: mark_safe(html)  # noqa: S308 (Django's widgets and error lists, escaped)
            for name, html in _rendered(top_up or TopUpForm(), payout or PayoutForm(auto_id="payout_%s")).items()
        }
    fields = cached(
        fragment_key("balance-form-fields"), lambda: _rendered(TopUpForm(), PayoutForm(auto_id="payout_%s"))
    )
    return {name: mark_safe(html) for name, html in fields.items()}  # noqa: S308 (Django's widgets, escaped)


def _rendered(top_up: TopUpForm, payout: PayoutForm) -> dict[str, str]:
    fields = {"top_up_amount": top_up["amount_usd"]}
    fields |= {"payout_pair": payout["pair"], "payout_address": payout["address"]}
    fields |= {"payout_amount": payout["amount_usd"]}
    html = {name: str(field) for name, field in fields.items()}
    labels = {
        f"{name}_label": format_html('<label for="{}">{}</label>', field.id_for_label, field.label)
        for name, field in fields.items()
    }
    errors = {f"{name}_errors": str(field.errors) for name, field in fields.items() if field.errors}
    alerts = {
        f"{name}_errors": format_html(
            '<div class="form-alert" role="alert">{}</div>',
            format_html_join("", "<p>{}</p>", ((error,) for error in form.non_field_errors())),
        )
        for name, form in (("top_up", top_up), ("payout", payout))
        if form.non_field_errors()
    }
    return html | labels | errors | alerts

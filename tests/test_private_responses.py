"""Every page, download and API answer that shows a customer's own data is sent with `Cache-Control: no-store,
private`, so a shared browser or a proxy keeps no copy of a statement after the customer leaves (issue 32,
decision 0376). One middleware decides it (`gpurent.core.middleware.PrivateResponseMiddleware`), not a
decorator per view.

The routes are read from the URL configuration: each one is classified below, as a customer's route (asked here
as its owner, with a real object, and checked) or a public one (the same answer for every visitor, asked
anonymously here, and left cacheable). A new route that is in neither list fails
`test_every_route_is_classified`: decide which it is before it ships.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from conftest import make_running_rental
from gpurent.accounts.email_change import email_change_token
from gpurent.accounts.models import User
from gpurent.accounts.owners import Owner
from gpurent.accounts.services import api_token_create, ssh_key_add
from gpurent.core.money import Usd
from gpurent.core.testing import public_key
from gpurent.guides.services import QuoteDetails, quote_request_create
from gpurent.journal.records import EntryDraft, RunDraft
from gpurent.journal.services import entry_create, run_create
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import ExchangeRate, ReceivingAddress
from gpurent.payments.payouts import payout_request
from gpurent.payments.services import deposit_create
from gpurent.sizing.calculation import inputs_from_payload, size_workload
from gpurent.sizing.services import estimate_save
from gpurent.support.enums import Author
from gpurent.support.services import RequestInput, support_message_post, support_request_create
from tests.conftest import fund

pytestmark = pytest.mark.django_db

PASSWORD = "a long private passphrase"
ETH_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"  # the EIP-55 example


@dataclass
class World:
    """One customer with one of everything a route can show."""

    user: User
    token: str
    token_id: int
    key_id: int
    order_ref: str
    intent_id: str
    deposit_ref: str
    payout_ref: str
    support_ref: str
    message_id: int
    estimate_id: str
    entry_id: str
    run_id: str
    quote_id: str
    export_id: str
    email_token: str
    reset_uid: str
    reset_token: str


Args = Callable[[World], dict[str, Any]]
NONE: Args = lambda w: {}  # noqa: E731
ORDER: Args = lambda w: {"ref": w.order_ref}  # noqa: E731
SUPPORT: Args = lambda w: {"ref": w.support_ref}  # noqa: E731
ENTRY: Args = lambda w: {"entry_id": w.entry_id}  # noqa: E731
EXPORT: Args = lambda w: {"export_id": w.export_id}  # noqa: E731

# Route name -> (method, its arguments). A POST is sent with an empty form or body: the answer (the form again
# with its errors, a 4xx, a redirect) is what a customer's browser would keep, and it must not be kept either.
CUSTOMER: dict[str, tuple[str, Args]] = {
    # The account and its plumbing.
    "accounts:account": ("GET", NONE),
    "accounts:logout": ("POST", NONE),
    "accounts:profile": ("POST", NONE),
    "accounts:email_change": ("POST", NONE),
    "accounts:email_confirm": ("GET", lambda w: {"token": w.email_token}),
    "accounts:token_create": ("POST", NONE),
    "accounts:token_revoke": ("POST", lambda w: {"token_id": w.token_id}),
    "accounts:ssh_key_create": ("POST", NONE),
    "accounts:ssh_key_remove": ("POST", lambda w: {"key_id": w.key_id}),
    "accounts:password_change": ("GET", NONE),
    "accounts:password_reset_confirm": ("GET", lambda w: {"uidb64": w.reset_uid, "token": w.reset_token}),
    "accounts:two_factor_setup": ("POST", NONE),
    "accounts:two_factor_confirm": ("POST", NONE),
    "accounts:two_factor_disable": ("POST", NONE),
    "accounts:recovery_codes_renew": ("POST", NONE),
    # Rentals, checkout, receipts and statements.
    "orders:checkout_start": ("GET", NONE),
    "orders:checkout_quote": ("GET", NONE),
    "orders:checkout_account": ("GET", NONE),
    "orders:checkout_summary": ("GET", NONE),
    "orders:checkout_place": ("POST", NONE),
    "orders:rentals": ("GET", NONE),
    "orders:rentals_csv": ("GET", NONE),
    "orders:rentals_printable": ("GET", NONE),
    "orders:rental": ("GET", ORDER),
    "orders:rental_extend": ("POST", ORDER),
    "orders:rental_cancel": ("POST", ORDER),
    "orders:rental_reveal_secret": ("POST", ORDER),
    "orders:rental_machine_request": ("POST", ORDER),
    "payments:balance": ("GET", NONE),
    "payments:top_up": ("POST", NONE),
    "payments:withdraw": ("POST", NONE),
    "payments:balance_csv": ("GET", NONE),
    "payments:deposit": ("GET", lambda w: {"ref": w.deposit_ref}),
    "payments:deposit_intent": ("POST", lambda w: {"ref": w.deposit_ref}),
    "payments:order_intent": ("POST", ORDER),
    "payments:order_pay": ("POST", ORDER),
    "payments:receipt": ("GET", ORDER),
    "payments:receipt_pdf": ("GET", ORDER),
    "payments:intent_report": ("POST", lambda w: {"intent_id": w.intent_id}),
    "payments:intent_chain": ("GET", lambda w: {"intent_id": w.intent_id}),
    # Saved estimates, the journal, support and quote requests (a guest's too: they carry a session).
    "sizing:save": ("POST", NONE),
    "sizing:saved": ("GET", NONE),
    "sizing:detail": ("GET", lambda w: {"public_id": w.estimate_id}),
    "sizing:measure": ("POST", lambda w: {"public_id": w.estimate_id}),
    "journal:index": ("GET", NONE),
    "journal:export_md": ("GET", NONE),
    "journal:export_json": ("GET", NONE),
    "journal:entry_create": ("GET", NONE),
    "journal:entry": ("GET", ENTRY),
    "journal:entry_export_md": ("GET", ENTRY),
    "journal:entry_export_json": ("GET", ENTRY),
    "journal:run_create": ("GET", ENTRY),
    "journal:run": ("GET", lambda w: {"entry_id": w.entry_id, "run_id": w.run_id}),
    "journal:compare": ("GET", ENTRY),
    "exports:new": ("GET", lambda w: {"kind": "balance.csv"}),
    "exports:detail": ("GET", EXPORT),
    "exports:file": ("GET", EXPORT),
    "support:list": ("GET", NONE),
    "support:create": ("GET", NONE),
    "support:detail": ("GET", SUPPORT),
    "support:message_create": ("POST", SUPPORT),
    "support:message_text": ("GET", lambda w: {"ref": w.support_ref, "message_id": w.message_id}),
    "support:field_text": ("GET", lambda w: {"ref": w.support_ref, "name": "observed"}),
    "support:close": ("POST", SUPPORT),
    "guides:quote_list": ("GET", NONE),
    "guides:quote_detail": ("GET", lambda w: {"public_id": w.quote_id}),
    "guides:quote_create": (
        "POST",
        lambda w: {"gpu": "a100-80gb", "workload": "vision-finetuning", "scope": "proof-of-concept"},
    ),
    # The API, asked with the customer's token.
    "api:create_token": ("POST", NONE),
    "api:list_keys": ("GET", NONE),
    "api:add_key": ("POST", NONE),
    "api:remove_key": ("DELETE", lambda w: {"key_id": w.key_id}),
    "api:create_order": ("POST", NONE),
    "api:list_orders": ("GET", NONE),
    "api:orders_summary_csv": ("GET", NONE),
    "api:extend_order": ("POST", ORDER),
    "api:get_order": ("GET", ORDER),
    "api:create_estimate": ("POST", NONE),
    "api:get_estimate": ("GET", lambda w: {"estimate_id": w.estimate_id}),
    "api:list_estimate_catalog_fit": ("GET", lambda w: {"estimate_id": w.estimate_id}),
    "api:order_intent_create": ("POST", ORDER),
    "api:order_pay": ("POST", ORDER),
    "api:order_receipt_pdf": ("GET", ORDER),
    "api:report": ("POST", lambda w: {"intent_id": w.intent_id}),
    "api:deposit_new": ("POST", NONE),
    "api:deposit_list": ("GET", NONE),
    "api:deposit_read": ("GET", lambda w: {"ref": w.deposit_ref}),
    "api:deposit_intent_create": ("POST", lambda w: {"ref": w.deposit_ref}),
    "api:balance": ("GET", NONE),
    "api:balance_summary_csv": ("GET", NONE),
    "api:payout_new": ("POST", NONE),
    "api:payout_list": ("GET", NONE),
    "api:payout_read": ("GET", lambda w: {"ref": w.payout_ref}),
    "api:list_entries": ("GET", NONE),
    "api:create_entry": ("POST", NONE),
    "api:get_entry": ("GET", lambda w: {"entry_id": w.entry_id}),
    "api:create_run": ("POST", lambda w: {"entry_id": w.entry_id}),
    "api:get_run": ("GET", lambda w: {"entry_id": w.entry_id, "run_id": w.run_id}),
    "api:export_journal_json": ("GET", NONE),
    "api:export_journal_md": ("GET", NONE),
    "api:export_create": ("POST", NONE),
    "api:export_read": ("GET", EXPORT),
    "api:export_download": ("GET", EXPORT),
    "api:export_entry_json": ("GET", lambda w: {"entry_id": w.entry_id}),
    "api:export_entry_md": ("GET", lambda w: {"entry_id": w.entry_id}),
    "api:list_requests": ("GET", NONE),
    "api:create_request": ("POST", NONE),
    "api:get_request": ("GET", SUPPORT),
    "api:list_messages": ("GET", SUPPORT),
    "api:create_message": ("POST", SUPPORT),
    "api:create_quote": ("POST", NONE),
    "api:list_quotes": ("GET", NONE),
    "api:get_quote": ("GET", lambda w: {"quote_id": w.quote_id}),
}

# Route name -> its arguments: the same answer for every visitor (a signed-in customer's copy still carries
# their header, so it is private too; the anonymous one may be kept by a browser or a proxy).
PUBLIC: dict[str, Args] = {
    "catalog:index": NONE,
    "catalog:detail": lambda w: {"slug": "a100-80gb"},
    "catalog:quote": lambda w: {"slug": "a100-80gb"},
    "glossary:index": NONE,
    "sizing:estimate": NONE,
    "sizing:result": NONE,
    "journal:client": NONE,
    "guides:index": NONE,
    "guides:detail": lambda w: {"gpu": "a100-80gb", "workload": "vision-finetuning", "scope": "proof-of-concept"},
    "pages:help": NONE,
    "pages:privacy": NONE,
    "pages:terms": NONE,
    # Forms for someone who is not signed in yet: the same empty form for everyone.
    "accounts:register": NONE,
    "accounts:login": NONE,
    "accounts:login_code": NONE,
    "accounts:password_reset": NONE,
    "accounts:password_reset_done": NONE,
    "accounts:password_reset_complete": NONE,
    # Plumbing: the language switch (a POST), the CSRF token and the health check (never cached: live answers).
    "set_language": NONE,
    "csrf_token": NONE,
    "healthz": NONE,
    # Prometheus's scrape: 404 to a visitor unless a token or an allow-list is set (decision 0411), never stored.
    "metrics": NONE,
    "favicon.ico": NONE,
    # The public API: its documents, the catalog, the guides, account creation and BTCPay's webhook.
    "api:api-root": NONE,
    "api:openapi-json": NONE,
    "api:openapi-view": NONE,
    "api:register": NONE,
    "api:catalog": NONE,
    "api:list_guides": NONE,
    "api:btcpay": NONE,
    # Any other path under /api/: the API's JSON 404.
    "api_not_found": NONE,
}

# Public forms and plumbing that are never stored on purpose (`never_cache`: a CSRF token, a live answer).
NEVER_STORED = {"accounts:register", "accounts:login", "accounts:login_code", "csrf_token", "healthz", "metrics"}

# The back office: every page is the operator's (Django's admin sends `never_cache` itself, and a staff member is
# signed in, so the middleware marks them too): checked on a few pages below.
OPERATOR_NAMESPACE = "admin"


def _routes(patterns: list[Any], namespace: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(part for part in (namespace, pattern.namespace or "") if part)
            yield from _routes(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern):
            name = pattern.name or str(pattern.pattern)  # an unnamed route by its path
            yield f"{namespace}:{name}" if namespace else name


def test_every_route_is_classified():
    routes = {name for name in _routes(get_resolver().url_patterns) if not name.startswith(f"{OPERATOR_NAMESPACE}:")}
    assert not set(CUSTOMER) & set(PUBLIC)
    assert routes - set(CUSTOMER) - set(PUBLIC) == set(), "classify these routes in this file"
    assert set(CUSTOMER) | set(PUBLIC) <= routes, "these classified routes no longer exist"


@pytest.fixture
def world(gpu) -> World:
    now = timezone.now()
    for asset, rate in {"USDT": "1", "ETH": "3500"}.items():
        ExchangeRate.objects.create(asset=asset, usd_per_unit=Decimal(rate), source="test", as_of=now)
    ReceivingAddress.objects.create(network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", mode="shared")
    user = User.objects.create_user("private@example.com", PASSWORD, first_name="Pri", last_name="Vate")
    fund(user, 9_500 + 5_000)  # the rental, then the withdrawal: nothing is left to cover the unpaid order
    rental = make_running_rental(user, gpu)  # paid and ready: it has access details and a receipt
    payout = payout_request(
        owner=user,
        asset="ETH",
        network="ethereum",
        address="0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        amount=Usd(5_000),
    )
    intent = intent_issue_for_order(order=_unpaid_order(user, gpu), owner=user, asset="USDT", network="tron")
    token, secret = api_token_create(user=user, name="laptop")
    key = ssh_key_add(user=user, name="laptop", public_key=public_key("laptop"))
    support = support_request_create(
        owner=user, data=RequestInput(subject="NCCL", observed="hangs", order_ref=rental.ref)
    )
    message, _ = support_message_post(request=support, author=user, role=Author.CUSTOMER, body="still hangs")
    inputs = {"model": "llama-3.1-8b", "workload": "inference", "seq_len": 4096, "concurrent_sequences": 1}
    estimate = estimate_save(owner=Owner(user=user), sizing=size_workload(inputs_from_payload(inputs)))
    entry = entry_create(owner=Owner(user=user), draft=EntryDraft(question="bf16 vs fp8"))
    run = run_create(entry=entry, draft=RunDraft(name="bf16"))
    quote = quote_request_create(
        owner=Owner(user=user),
        details=QuoteDetails(
            gpu_slug="a100-80gb",
            guide_workload="vision-finetuning",
            guide_scope="proof-of-concept",
            model_name="vit",
            endpoint="ssh",
            support_level="assisted",
            delivery_scope="proof-of-concept",
            expected_load="weekly",
            contact_email=user.email,
        ),
    )
    return World(
        user=user,
        token=secret,
        token_id=token.pk,
        key_id=key.pk,
        order_ref=rental.ref,
        intent_id=str(intent.pk),
        deposit_ref=deposit_create(owner=user, amount=Usd(5_000)).ref,
        payout_ref=payout.ref,
        support_ref=support.ref,
        message_id=message.pk,
        estimate_id=str(estimate.public_id),
        entry_id=str(entry.public_id),
        run_id=str(run.public_id),
        quote_id=str(quote.public_id),
        export_id=str(_ready_export(user).public_id),
        email_token=email_change_token(user, "new-private@example.com"),
        reset_uid=urlsafe_base64_encode(force_bytes(user.pk)),
        reset_token=default_token_generator.make_token(user),
    )


def _ready_export(user: User) -> Any:
    from gpurent.exports.services import export_request
    from gpurent.exports.writing import export_write

    export = export_request(owner=Owner(user=user), kind="balance.csv", language="en")
    export_write(export.pk, writer="test")
    return export


def _unpaid_order(user: User, gpu: Any) -> Any:
    from gpurent.orders.services import Contact, order_place

    contact = Contact(user.first_name, user.last_name, user.email)
    return order_place(owner=user, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=contact)


def _private(response: Any) -> bool:
    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    return {"no-store", "private"} <= directives


@pytest.mark.parametrize("name", sorted(CUSTOMER))
def test_a_customer_route_is_never_stored(name, world, client):
    method, args = CUSTOMER[name]
    url = reverse(name, kwargs=args(world))
    if name.startswith("api:"):
        headers = {"Authorization": f"Bearer {world.token}", "Idempotency-Key": "private-1"}
        response = client.generic(method, url, "{}", content_type="application/json", headers=headers)
    else:
        client.force_login(world.user)
        response = client.generic(method, url, "", content_type="application/x-www-form-urlencoded")
    # A 404 or 405 would prove nothing about the page itself: the route is asked as its owner, as it is used.
    assert response.status_code not in {404, 405, 500}, (name, response.status_code)
    assert _private(response), (name, response.status_code, response.get("Cache-Control"))


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_a_public_route_stays_cacheable_for_an_anonymous_visitor(name, world, client):
    url = f"/{name}" if name.endswith(".ico") else reverse(name, kwargs=PUBLIC[name](world))
    response = client.get(url)
    assert response.status_code != 500, name
    if response.status_code == 200 and name not in NEVER_STORED:
        assert not _private(response), (name, response.get("Cache-Control"))


def test_the_same_public_page_is_private_for_a_signed_in_customer(world, client):
    client.force_login(world.user)
    assert _private(client.get(reverse("catalog:index")))
    assert _private(client.get(reverse("api:catalog"), headers={"Authorization": f"Bearer {world.token}"}))


def test_a_response_that_starts_a_session_is_private(client, gpu):
    response = client.post(reverse("accounts:login"), {"username": "nobody@example.com", "password": "wrong one"})
    assert response.status_code == 200
    User.objects.create_user("in@example.com", PASSWORD, first_name="I", last_name="N")
    signed_in = client.post(reverse("accounts:login"), {"username": "in@example.com", "password": PASSWORD})
    assert signed_in.status_code == 302
    assert _private(signed_in)


def test_back_office_pages_are_never_stored(client, db):
    operator = User.objects.create_superuser("op@example.com", PASSWORD, first_name="O", last_name="P")
    client.force_login(operator)
    for url in [reverse("admin:index"), reverse("admin:support_supportrequest_changelist")]:
        response = client.get(url)
        assert response.status_code == 200
        assert _private(response), url

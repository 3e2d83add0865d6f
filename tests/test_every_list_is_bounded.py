"""Every list a customer grows is one keyset page: the API answers `limit` rows (50 by default) and a `next` cursor
that leads to the rest, each row once; the HTML page shows a page and an "Older" link to the rest (issue 16).
An order's and a top-up's payment instructions are capped instead (decision 0310).
Ledger lines, orders, top-ups and withdrawals have their own tests (gpurent/core/tests/test_pagination.py,
test_bounded_printable.py, gpurent/payments/tests/test_deposit_pages.py); the catalog and guides theirs; a support
request's thread (pages of 20, newest first) in gpurent/support/tests/test_thread_pages.py and test_api_thread.py.
The account's SSH keys and live API tokens are shown whole: they are bounded by a per-account maximum instead
(decision 0291), refused past it on the page and in the API."""

import html
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.models import ApiToken
from gpurent.accounts.services import api_token_create, ssh_key_add
from gpurent.core.money import Usd
from gpurent.core.testing import public_key
from gpurent.guides.models import QuoteRequest
from gpurent.journal.models import JournalEntry, Run
from gpurent.orders.services import Contact, order_place
from gpurent.payments.errors import IntentLimitReached
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order
from gpurent.payments.models import ExchangeRate, PaymentIntent, ReceivingAddress
from gpurent.payments.services import deposit_create
from gpurent.sizing.models import SavedEstimate
from gpurent.support.models import SupportRequest

pytestmark = pytest.mark.django_db
ROWS = 57


def journal_entries(user, gpu):
    JournalEntry.objects.bulk_create(JournalEntry(user=user, question=f"Question {n:03d}") for n in range(ROWS))
    return "/api/v1/journal/entries", "/journal/", [f"Question {n:03d}" for n in range(ROWS)]


def journal_runs(user, gpu):
    """An entry's runs (at most `JOURNAL_MAX_RUNS_PER_ENTRY`, decision 0315) are pages on the entry's page; the API
    answers them with the entry, and its list of entries carries only each entry's newest runs."""
    entry = JournalEntry.objects.create(user=user, question="A sweep")
    Run.objects.bulk_create(
        Run(entry=entry, number=n + 1, name=f"run {n}", parameters={"step": f"s{n:03d}"}) for n in range(ROWS)
    )
    return None, f"/journal/{entry.public_id}/", [f"step=s{n:03d}" for n in range(ROWS)]


def support_requests(user, gpu):
    SupportRequest.objects.bulk_create(
        SupportRequest(ref=f"S-T{n:03d}", owner=user, subject=f"Subject {n:03d}", last_message_at=timezone.now())
        for n in range(ROWS)
    )
    return "/api/v1/support/requests", "/support/", [f"Subject {n:03d}" for n in range(ROWS)]


def quote_requests(user, gpu):
    QuoteRequest.objects.bulk_create(
        QuoteRequest(
            user=user,
            gpu=gpu,
            guide_workload="llm-serving",
            guide_scope="pilot",
            model_name=f"model-{n:03d}",
            endpoint="ssh",
            support_level="assisted",
            delivery_scope="pilot",
            expected_load="some",
            contact_email="q@example.com",
        )
        for n in range(ROWS)
    )
    return "/api/v1/guides/quotes", "/guides/quotes/", [f"model-{n:03d}" for n in range(ROWS)]


def saved_estimates(user, gpu):
    SavedEstimate.objects.bulk_create(
        SavedEstimate(
            user=user, title=f"Estimate {n:03d}", inputs={}, result={}, engine_version="t", peak_bytes=1, usable_pct=90
        )
        for n in range(ROWS)
    )
    # The API reads one saved estimate by its id; it has no list of them.
    return None, "/estimate/saved/", [f"Estimate {n:03d}" for n in range(ROWS)]


@pytest.mark.parametrize("make", [journal_entries, journal_runs, support_requests, quote_requests, saved_estimates])
def test_the_list_is_a_page_and_older_links_lead_to_the_rest_once(client, django_user_model, gpu, make):
    user = django_user_model.objects.create_user("l@example.com", "passphrase 12", first_name="L", last_name="B")
    api, page, texts = make(user, gpu)
    if api is not None:
        auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t')[1]}"}
        first = client.get(api, **auth).json()
        assert len(first["items"]) == 50
        rest = client.get(api, {"cursor": first["next"]}, **auth).json()
        assert rest["next"] is None
        ids = [str(item.get("id") or item.get("ref")) for item in first["items"] + rest["items"]]
        assert len(ids) == len(set(ids)) == ROWS
    client.force_login(user)
    first_page = client.get(page).content.decode()
    shown = [text for text in texts if text in first_page]
    assert len(shown) == 50
    found = re.search(r'<a href="(\?cursor=[^"]+)" rel="next"', first_page)
    assert found is not None
    older = client.get(page + html.unescape(found.group(1)).split("#")[0]).content.decode()
    rest_shown = [text for text in texts if text in older]
    assert len(rest_shown) == ROWS - 50
    assert set(shown).isdisjoint(rest_shown)


LIMIT = 4
PASSWORD = "passphrase 12"


def ssh_keys_full(client, user, auth):
    """Fill the account's SSH keys to the limit, then ask for one more in the API and on the page."""
    for n in range(LIMIT):
        ssh_key_add(user=user, name=f"key {n}", public_key=public_key(f"k{n}"))
    one_more = {"name": "one more", "public_key": public_key("more")}
    api = client.post("/api/v1/ssh-keys", one_more, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k", **auth)
    assert len(client.get("/api/v1/ssh-keys", **auth).json()) == LIMIT
    return api, client.post(reverse("accounts:ssh_key_create"), {**one_more, "idempotency_key": "p"})


def api_tokens_full(client, user, auth):
    """Fill the account's live API tokens to the limit (the one in `auth` is one of them; a revoked one does not
    count), then ask for one more in the API (email and password) and on the page."""
    revoked = api_token_create(user=user, name="old")[0]
    ApiToken.objects.filter(pk=revoked.pk).update(revoked_at=timezone.now())
    for n in range(LIMIT - 1):
        api_token_create(user=user, name=f"token {n}")
    credentials = {"email": user.email, "password": PASSWORD, "name": "one more"}
    api = client.post("/api/v1/auth/tokens", credentials, content_type="application/json")
    return api, client.post(reverse("accounts:token_create"), {"name": "one more", "idempotency_key": "p"})


@pytest.mark.parametrize(
    ("fill", "setting", "listed", "code", "message"),
    [
        (
            ssh_keys_full,
            "ACCOUNTS_MAX_SSH_KEYS",
            "ssh_keys",
            "too_many_ssh_keys",
            "Your account has 4 SSH keys, the most it can keep. Remove one you no longer use first.",
        ),
        (
            api_tokens_full,
            "ACCOUNTS_MAX_LIVE_API_TOKENS",
            "tokens",
            "too_many_api_tokens",
            "Your account has 4 API tokens, the most it can have. Revoke one you no longer use first.",
        ),
    ],
)
def test_the_lists_shown_whole_stop_at_the_accounts_maximum(
    client, django_user_model, settings, fill, setting, listed, code, message
):
    setattr(settings, setting, LIMIT)
    user = django_user_model.objects.create_user("k@example.com", PASSWORD, first_name="K", last_name="B")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='api')[1]}"}
    client.force_login(user)
    api, page = fill(client, user, auth)
    assert (api.status_code, api.json()["error"]) == (409, {"code": code, "message": message})
    assert message in html.unescape(page.content.decode())
    assert len(client.get(reverse("accounts:account")).context[listed]) == LIMIT


def test_an_orders_and_a_top_ups_payment_instructions_stay_few_however_often_asked(client, django_user_model, gpu):
    """Not a page but a cap (decision 0310): an order or a top-up has at most `PAYMENTS_MAX_INTENTS` intents,
    so its `intents` list, in the API and on its page, stays that short whatever the customer asks. (Intents the
    payment processor never prepared are capped with the others at `PAYMENTS_MAX_INTENT_ROWS`, decision 0336,
    tested in `gpurent/payments/tests/test_intents_never_prepared.py`.)"""
    ExchangeRate.objects.create(asset="USDT", usd_per_unit=Decimal("1"), source="test", as_of=timezone.now())
    ReceivingAddress.objects.create(network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", mode="shared")
    user = django_user_model.objects.create_user("i@example.com", "passphrase 12", first_name="I", last_name="N")
    order = order_place(
        owner=user, gpu_slug=gpu.slug, term_days=7, lots=1, environment="ubuntu", contact=Contact("I", "N", "i@x.co")
    )
    deposit = deposit_create(owner=user, amount=Usd(2_500))
    issues = [
        lambda: intent_issue_for_order(order=order, owner=user, asset="USDT", network="tron"),
        lambda: intent_issue_for_deposit(deposit=deposit, owner=user, asset="USDT", network="tron"),
    ]
    refused = 0
    for _ in range(ROWS):
        for issue in issues:
            try:
                issue()
            except IntentLimitReached:
                refused += 1
            # Time passes: the quotes shown so far have expired, so only the cap in all refuses.
            PaymentIntent.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert refused == 2 * (ROWS - 10)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t')[1]}"}
    assert len(client.get(f"/api/v1/orders/{order.ref}", **auth).json()["intents"]) == 10
    assert [len(item["intents"]) for item in client.get("/api/v1/orders", **auth).json()["items"]] == [10]
    assert len(client.get(f"/api/v1/deposits/{deposit.ref}", **auth).json()["intents"]) == 10
    assert [len(item["intents"]) for item in client.get("/api/v1/deposits", **auth).json()["items"]] == [10]
    client.force_login(user)
    for page in (reverse("orders:rental", args=[order.ref]), reverse("payments:deposit", args=[deposit.ref])):
        assert client.get(page).content.decode().count('data-testid="intent"') == 10

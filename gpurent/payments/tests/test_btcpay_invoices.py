"""BTCPay Server as the route for LTC/BTC: a Greenfield invoice per intent, created with no lock held, attributed
by its invoice id; tested against a local server answering in the documented formats (btcpay_fake.py)."""

import json
import logging

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.core.models import OperatorNotice
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.ledger.services import customer_account
from gpurent.orders.models import Order
from gpurent.payments.balance.figures import balance_held
from gpurent.payments.btcpay.invoices import intent_prepare
from gpurent.payments.btcpay.webhooks import btcpay_signature
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import Deposit, Payment, PaymentIntent

from .btcpay_fake import API_KEY, STORE_ID, FakeGreenfield, recorded

# Each request commits for real: the point is what is committed, and what is locked, during the HTTP call.
pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "webhook-secret-for-tests"
INVOICE = recorded("invoice_created.json")["id"]
ADDRESS = recorded("payment_methods.json")[0]["destination"]


@pytest.fixture
def greenfield(settings):
    fake = FakeGreenfield().start()
    settings.BTCPAY_URL = fake.url + "/"
    settings.BTCPAY_STORE_ID = STORE_ID
    settings.BTCPAY_API_KEY = API_KEY
    settings.BTCPAY_NETWORKS = ["litecoin"]
    settings.BTCPAY_WEBHOOK_SECRET = SECRET
    yield fake
    fake.stop()


@pytest.fixture
def auth(customer):
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}


def issue_via_api(client, order, auth, key="k-1"):
    return client.post(
        f"/api/v1/orders/{order.ref}/intents",
        {"asset": "LTC", "network": "litecoin"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        **auth,
    )


def test_issuing_creates_an_invoice_in_the_documented_format_and_shows_its_address(client, greenfield, order):
    client.force_login(order.owner)
    client.post(reverse("payments:order_intent", args=[order.ref]), {"pair": "LTC/litecoin", "idempotency_key": "k1"})
    intent = PaymentIntent.objects.get(order=order)
    create, methods = greenfield.requests
    assert (create.method, create.path) == ("POST", f"/api/v1/stores/{STORE_ID}/invoices")
    assert create.headers["Authorization"] == f"token {API_KEY}"
    assert create.body["amount"] == "5.12500000"  # $410.00 at $80 per LTC, the intent's exact amount
    assert create.body["currency"] == "LTC"
    assert create.body["metadata"]["orderId"] == str(intent.pk)
    assert create.body["checkout"]["expirationMinutes"] == 30  # PAYMENTS_INTENT_TTL_MINUTES
    assert create.body["checkout"]["paymentMethods"] == ["LTC-CHAIN"]
    assert create.body["checkout"]["lazyPaymentMethods"] is False
    assert create.body["checkout"]["redirectURL"].endswith(reverse("orders:rental", args=[order.ref]))
    assert (methods.method, methods.path) == ("GET", f"/api/v1/stores/{STORE_ID}/invoices/{INVOICE}/payment-methods")
    assert (intent.processor, intent.processor_invoice_id, intent.address) == ("btcpay", INVOICE, ADDRESS)
    assert intent.checkout_link == f"https://btcpay.example.com/i/{INVOICE}"
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert ADDRESS in page
    assert f'href="https://btcpay.example.com/i/{INVOICE}"' in page


def test_the_invoice_expires_with_the_intent(client, greenfield, order, auth, settings):
    settings.PAYMENTS_INTENT_TTL_MINUTES = 45
    assert issue_via_api(client, order, auth).status_code == 201
    assert greenfield.requests[0].body["checkout"]["expirationMinutes"] == 45


def test_the_call_is_made_after_the_intent_committed_and_with_no_row_locked(client, greenfield, order, auth):
    seen_during_call = []
    account = customer_account(order.owner)

    def probe(request):
        if request.method != "POST":
            return
        # Another connection (this server thread's): the intent must already be committed, and the order and the
        # customer's account free (PostgreSQL: FOR UPDATE NOWAIT fails at once on a row someone else locked).
        try:
            with transaction.atomic():
                rows = list(PaymentIntent.objects.filter(order_id=order.pk).values("processor", "address"))
                list(Order.objects.select_for_update(nowait=True).filter(pk=order.pk))  # SQLite ignores these
                list(LedgerAccount.objects.select_for_update(nowait=True).filter(pk=account.pk))
            seen_during_call.append(rows)
        finally:
            connection.close()

    greenfield.probe = probe
    assert issue_via_api(client, order, auth).status_code == 201
    assert greenfield.probe_errors == []
    assert seen_during_call == [[{"processor": "btcpay", "address": ""}]]


def test_the_api_answers_the_prepared_intent_and_a_replay_does_not_create_a_second_invoice(
    client, greenfield, order, auth
):
    first = issue_via_api(client, order, auth)
    assert first.status_code == 201
    assert (first.json()["address"], first.json()["checkout_link"]) == (
        ADDRESS,
        recorded("invoice_created.json")["checkoutLink"],
    )
    replay = issue_via_api(client, order, auth)
    assert replay.json() == first.json()
    assert [request.method for request in greenfield.requests] == ["POST", "GET"]


def test_btcpay_down_is_a_clear_error_and_the_intent_holds_nothing(client, greenfield, order, auth, caplog):
    greenfield.invoice_status = 503
    with caplog.at_level(logging.WARNING):
        response = issue_via_api(client, order, auth)
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "payments_unavailable"
    intent = PaymentIntent.objects.get(order=order)
    assert (intent.status, intent.address, intent.processor_invoice_id) == ("closed", "", "")
    assert balance_held(order.owner_id).cents == 0
    assert "HTTP 503" in caplog.text
    assert API_KEY not in caplog.text


def test_btcpay_unreachable_on_the_page_says_so_and_shows_the_closed_instructions(client, greenfield, order, settings):
    settings.BTCPAY_URL = "http://127.0.0.1:9"  # discard port: connection refused
    client.force_login(order.owner)
    response = client.post(
        reverse("payments:order_intent", args=[order.ref]),
        {"pair": "LTC/litecoin", "idempotency_key": "k1"},
        follow=True,
    )
    page = response.content.decode()
    assert "payment processor is not answering right now" in page
    assert 'data-testid="intent-not-prepared"' in page
    assert PaymentIntent.objects.get(order=order).status == "closed"
    notice = OperatorNotice.objects.get()  # the reason is for the back office, not the customer's page
    assert (notice.code, notice.detail) == ("payments_unavailable", "127.0.0.1 unreachable: URLError")
    assert "URLError" not in page


@pytest.mark.parametrize(
    ("invoice_status", "invoice_answer", "methods_answer", "logged"),
    [
        (400, recorded("validation_error.json"), None, "HTTP 400 (checkout.paymentMethods)"),
        (200, {"checkoutLink": "https://btcpay.example.com/i/x"}, None, "has no id"),
        (200, None, [], "no activated LTC address"),
        (
            200,
            None,
            [{"paymentMethodId": "LTC-CHAIN", "destination": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"}],
            "not a litecoin address",
        ),
    ],
)
def test_an_answer_that_gives_no_usable_invoice_closes_the_intent(
    client, greenfield, order, auth, caplog, invoice_status, invoice_answer, methods_answer, logged
):
    greenfield.invoice_status, greenfield.invoice_answer = invoice_status, invoice_answer
    greenfield.methods_answer = methods_answer
    with caplog.at_level(logging.WARNING):
        assert issue_via_api(client, order, auth).status_code == 503
    assert logged in caplog.text
    assert PaymentIntent.objects.get(order=order).status == "closed"


def test_an_interrupted_preparation_is_finished_by_calling_again_and_never_inside_a_transaction(greenfield, order):
    intent = intent_issue_for_order(order=order, owner=order.owner, asset="LTC", network="litecoin")
    assert (intent.processor, intent.address) == ("btcpay", "")
    with pytest.raises(TransactionManagementError), transaction.atomic():
        intent_prepare(intent.pk)
    assert greenfield.requests == []
    assert intent_prepare(intent.pk).address == ADDRESS
    assert intent_prepare(intent.pk).processor_invoice_id == INVOICE  # already prepared: no second invoice
    assert len([r for r in greenfield.requests if r.method == "POST"]) == 1


def test_networks_not_routed_through_btcpay_are_unchanged(client, greenfield, order, auth):
    response = client.post(
        f"/api/v1/orders/{order.ref}/intents",
        {"asset": "BTC", "network": "bitcoin"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k-btc",
        **auth,
    )
    assert response.status_code == 201
    assert response.json()["checkout_link"] is None
    assert greenfield.requests == []


def webhook(client, kind, delivery, intent, payment=None, invoice=INVOICE, metadata=None):
    body = {
        "deliveryId": delivery,
        "webhookId": "Hj4nbYUpcyqqBVDEj5nBMR",
        "originalDeliveryId": delivery,
        "isRedelivery": False,
        "type": kind,
        "timestamp": 1796283700,
        "storeId": STORE_ID,
        "invoiceId": invoice,
        "metadata": metadata if metadata is not None else {"orderId": str(intent.pk)},
    }
    if payment is not None:
        body.update({"afterExpiration": False, "paymentMethodId": "LTC-CHAIN", "payment": payment})
    raw = json.dumps(body).encode()
    response = client.post(
        "/api/v1/webhooks/btcpay", raw, content_type="application/json", HTTP_BTCPAY_SIG=btcpay_signature(raw, SECRET)
    )
    assert response.status_code == 200
    return response.json()["status"]


def ltc_payment(txid_digit, vout, value):
    return {
        "id": f"{txid_digit * 64}-{vout}",
        "receivedDate": 1796283650,
        "value": value,
        "fee": "0.00000141",
        "status": "Settled",
        "destination": ADDRESS,
    }


def test_invoice_with_two_settled_payments_then_settled_pays_the_order_and_credits_once(
    client, greenfield, order, auth
):
    intent_id = issue_via_api(client, order, auth).json()["id"]
    intent = PaymentIntent.objects.get(pk=intent_id)
    first, second = ltc_payment("a", 0, "2.00000000"), ltc_payment("b", 1, "3.12500000")
    assert webhook(client, "InvoiceReceivedPayment", "d-0", intent, first) == "InvoiceReceivedPayment: recorded"
    assert webhook(client, "InvoicePaymentSettled", "d-1", intent, first) == "payment credited"
    order.refresh_from_db()
    assert order.payment_status == "awaiting_payment"
    assert webhook(client, "InvoicePaymentSettled", "d-2", intent, second) == "payment credited"
    # The same payment under a new delivery id (BTCPay resends it): the existing row, nothing credited again.
    assert webhook(client, "InvoicePaymentSettled", "d-3", intent, first) == "payment credited"
    assert webhook(client, "InvoiceSettled", "d-4", intent) == "InvoiceSettled: recorded"
    order.refresh_from_db()
    intent.refresh_from_db()
    assert order.payment_status == "paid"
    assert intent.status == "confirmed"
    payments = Payment.objects.filter(intent=intent).order_by("output_index")
    assert [(p.txid, p.output_index, p.amount_units, p.state) for p in payments] == [
        ("a" * 64, 0, 200_000_000, "credited"),
        ("b" * 64, 1, 312_500_000, "credited"),
    ]
    deposits = Deposit.objects.filter(owner=order.owner)
    assert sum(d.credited_cents or 0 for d in deposits) == 41_000  # $410.00 credited once, then spent
    assert balance_for(order.owner).cents == 0
    assert ledger_check() == []


def test_webhooks_are_attributed_by_the_invoice_the_shop_created(client, greenfield, order, auth):
    intent = PaymentIntent.objects.get(pk=issue_via_api(client, order, auth).json()["id"])
    whole = ltc_payment("c", 0, "5.12500000")
    # Another invoice naming our intent in its metadata is not ours to credit...
    assert webhook(client, "InvoicePaymentSettled", "d-1", intent, whole, invoice="OtherInvoice1") == (
        "unknown invoice: nothing changed"
    )
    # ...and our invoice is found by its id, whatever its metadata says.
    assert webhook(client, "InvoicePaymentSettled", "d-2", intent, whole, metadata={}) == "payment credited"
    order.refresh_from_db()
    assert order.payment_status == "paid"


def test_the_payments_desk_shows_the_invoice(client, greenfield, order, auth, django_user_model):
    intent_id = issue_via_api(client, order, auth).json()["id"]
    operator = django_user_model.objects.create_user(
        "desk@shop.example", "passphrase 12", first_name="D", last_name="K", is_staff=True, is_superuser=True
    )
    client.force_login(operator)
    detail = client.get(f"/backoffice/backoffice/paymentsdesk/{intent_id}/change/").content.decode()
    assert f"<code>{INVOICE}</code>" in detail

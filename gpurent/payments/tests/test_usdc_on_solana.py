"""USDC on Solana, the ninth pair (issue 27), where a customer and the API meet it: offered at checkout and at
top-up, issued on a Solana receiving address, its instructions and QR code naming the token (Solana Pay's
`spl-token`), priced at the USDC rate, and shown on the receipt. The watcher that credits it is tested with the
other Solana scenarios (gpurent/chains/tests/test_solana_watcher.py)."""

import pytest
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import PaymentIntent
from gpurent.payments.qr import qr_svg
from gpurent.payments.received.verification import intent_confirm
from gpurent.payments.views import intent_display

from .conftest import SHARED_ADDRESSES

pytestmark = pytest.mark.django_db

MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"


def test_the_order_page_offers_usdc_on_solana_and_gives_its_instructions(client, customer, order):
    client.force_login(customer)
    page = reverse("orders:rental", args=[order.ref])
    assert '<option value="USDC/solana">USDC on Solana (SPL)</option>' in client.get(page).content.decode()
    client.post(reverse("payments:order_intent", args=[order.ref]), {"pair": "USDC/solana", "idempotency_key": "k1"})
    intent = PaymentIntent.objects.get()
    # $410.00 at the test rate of $1 per USDC, on the shop's Solana address (no pool here: the shared one).
    assert (intent.asset, intent.network, intent.amount_units) == ("USDC", "solana", 410_000_000)
    assert intent.address == SHARED_ADDRESSES["solana"]
    html = client.get(page).content.decode()
    for text in ["410.000000", intent.address, "Send only USDC on the Solana network", "<strong>USDC on Solana (SPL)"]:
        assert text in html, text
    # The QR code asks the wallet for the token, to the owner's address: without spl-token it would send SOL.
    uri = f"solana:{intent.address}?amount=410&spl-token={MINT}"
    assert intent_display(intent)["qr"] == qr_svg(uri)
    assert qr_svg(uri) in html


def test_a_top_up_can_be_paid_in_usdc_on_solana(client, customer, payment_setup):
    client.force_login(customer)
    response = client.post(reverse("payments:top_up"), {"amount_usd": "120.00", "idempotency_key": "t1"})
    deposit_page = response["Location"]
    assert '<option value="USDC/solana">USDC on Solana (SPL)</option>' in client.get(deposit_page).content.decode()
    client.post(deposit_page + "intents/", {"pair": "USDC/solana", "idempotency_key": "t2"})
    intent = PaymentIntent.objects.get()
    assert (intent.deposit is not None, intent.network, intent.amount_units) == (True, "solana", 120_000_000)
    assert "120.000000" in client.get(deposit_page).content.decode()


def test_the_api_issues_usdc_on_solana_and_names_both_networks_of_usdc_on_another(client, customer, order):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}
    url = f"/api/v1/orders/{order.ref}/intents"

    def post(body, key):
        return client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)

    created = post({"asset": "USDC", "network": "solana"}, "k-1")
    assert created.status_code == 201
    intent = created.json()
    assert (intent["asset"], intent["network"], intent["amount"], intent["usd_amount"]) == (
        "USDC",
        "solana",
        "410.000000",
        "410.00",
    )
    refused = post({"asset": "USDC", "network": "tron"}, "k-2")
    assert refused.status_code == 422
    assert refused.json()["error"] == {
        "code": "unsupported_pair",
        "message": "USDC is not accepted on Tron. Use Ethereum (ERC-20) (network “ethereum”) or Solana (SPL) "
        "(network “solana”).",
    }


def test_the_receipt_shows_a_usdc_on_solana_payment(client, customer, order):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDC", network="solana")
    signature = "5h6xBEauJ3PK6SWCZ1PGjBvj8vDdWG3KpwATGy1ARAXFSDwt8GFXM7W5Ncn16wmqokgpiKRLuS83KUxyZyv2sUYv"
    intent_confirm(intent_id=intent.pk, txid=signature, received_units=intent.amount_units)
    client.force_login(customer)
    page = client.get(reverse("payments:receipt", args=[order.ref])).content.decode()
    for text in [signature, "410 USDC", "Solana", "1 USDC = 1 USD", "$410.00"]:
        assert text in page, text

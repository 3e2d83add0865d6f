"""An LTC payment watched on a real Litecoin Core regtest node: the order page shows "Seen on chain, N of M
confirmations" and its count changing without a reload (htmx polling), then Paid once the watcher confirms it.

The watcher runs here, in the test (`BitcoinFamilyWatcher.scan`, the service `watch_chains` runs), against the
node; the page is the live server's."""

import os

import pytest
from bip_utils import Bip32Secp256k1
from playwright.sync_api import expect

from gpurent.chains.bitcoin import BitcoinFamilyWatcher
from gpurent.chains.tests.nodes import RPC_PASSWORD, RPC_USER, LitecoinRegtest
from gpurent.chains.tests.test_litecoin_node import TPUB, ltc_amount
from gpurent.payments.intents.allocation import extended_key_register
from gpurent.payments.models import PaymentIntent
from gpurent.payments.tests.conftest import payment_setup  # noqa: F401 (rates and addresses)
from tests.browser.journeys import customer_on_an_unpaid_order, payment_instructions

pytestmark = [pytest.mark.browser, pytest.mark.chain_node, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def litecoin():
    node = LitecoinRegtest()
    yield node
    node.stop()


def test_confirmations_update_live_then_the_order_shows_paid(
    live_server,
    page,
    demo_catalog,
    payment_setup,  # noqa: F811 (the imported fixture)
    litecoin,
    settings,
    django_user_model,
    screenshot,
    console_errors,
):
    settings.PAYMENTS_SEGWIT_HRP = {"litecoin": "rltc"}
    settings.PAYMENTS_CONFIRMATIONS = {"litecoin": 3}
    settings.CHAIN_WATCH_URLS = {
        "litecoin": f"http://{RPC_USER}:{RPC_PASSWORD}@127.0.0.1:{litecoin.rpc_port}/wallet/watch"
    }
    settings.CHAIN_PAGE_POLL_SECONDS = 1
    account = Bip32Secp256k1.FromSeed(os.urandom(32), TPUB).DerivePath("m/84'/1'/0'")
    extended_key_register(network="litecoin", key=account.PublicKey().ToExtended())
    watcher = BitcoinFamilyWatcher("litecoin", litecoin.client("watch"))

    _customer, order = customer_on_an_unpaid_order(page, live_server.url, django_user_model)
    payment_instructions(page, "LTC on Litecoin")
    intent = PaymentIntent.objects.get(order=order)
    expect(page.get_by_test_id("intent-address")).to_have_text(intent.address)

    watcher.scan()  # the node starts watching the new address
    litecoin.send(intent.address, ltc_amount(intent.amount_units))
    litecoin.mine(1)
    watcher.scan()
    # The intent's state changed (seen on chain): the next poll reloads the page once, so that the badges of the
    # intent and of the order say it too (decision 0382).
    chain = page.get_by_test_id("intent-chain")
    expect(chain).to_have_text("Seen on chain, 1 of 3 confirmations")
    expect(page.get_by_test_id("intent-state")).to_have_text("Seen on chain")
    # From here on, while only the count changes, the page is never reloaded; a reload would drop this marker.
    page.evaluate("window.gpurentNotReloaded = true")
    litecoin.mine(1)
    watcher.scan()
    expect(chain).to_have_text("Seen on chain, 2 of 3 confirmations")
    assert page.evaluate("window.gpurentNotReloaded") is True
    screenshot("chain-live-2-of-3")

    litecoin.mine(1)
    assert watcher.scan().credited == 1
    # The intent is confirmed: the next poll has htmx reload the page, which shows the order paid.
    expect(page.locator(".status-paid").first).to_have_text("Paid")
    expect(page.get_by_test_id("intent-chain")).to_have_text("Payment confirmed on chain (3 confirmations).")
    screenshot("chain-live-paid")
    assert console_errors == []

"""The desks and the lists an operator works from fit the screen (outside QA walk of the back office, defects 25
and 26): at 1280 and 1366 px no table is wider than its box beside the filters (the payouts desk was 1040 px in 930,
the GPU models 982, the payments desk's "All" 943, the payment intents 1034); on a phone (390 px) each desk shows
one card per row, in which the amount, the pair and the age are on screen, under their headings, with nothing to
scroll sideways. As decision 0541's check of the payments desk, with long addresses and e-mails in the rows.
Screenshots: artifacts/desks-fit/."""

import pytest
from playwright.sync_api import expect

from gpurent.accounts.models import User
from gpurent.catalog.demo import DEMO_OPERATOR_EMAIL, DEMO_OPERATOR_PASSWORD
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report
from gpurent.payments.payouts import payout_mark_sent, payout_reject, payout_request
from gpurent.payments.received.verification import intent_confirm
from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKS = "/backoffice/backoffice/"
WIDE = {
    "payouts": DESKS + "payoutsdesk/",
    "payouts-all": DESKS + "payoutsdesk/?queue=all",
    "payments": DESKS + "paymentsdesk/",
    "payments-all": DESKS + "paymentsdesk/?queue=all",
    "provisioning-all": DESKS + "provisioningdesk/?queue=all",
    "gpu-models": "/backoffice/catalog/gpumodel/",
    "payment-intents": "/backoffice/payments/paymentintent/",
}
# On a phone: each desk's first card, and the cells an operator looks for in it (the amount, the pair, the age).
PHONE = {
    "payouts": (DESKS + "payoutsdesk/", ["to_send", "pair", "requested"]),
    "payments-all": (DESKS + "paymentsdesk/?queue=all", ["expected", "pair", "reported"]),
    "provisioning-all": (DESKS + "provisioningdesk/?queue=all", ["gpu", "lots", "paid"]),
}
ADDRESSES = {
    "ethereum": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "bitcoin": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    "solana": "vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg",
    "tron": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
}


def rows_of_every_kind(django_user_model) -> None:
    """Withdrawals to send on four networks, one sent and one rejected; payments reported on three pairs, one of
    them confirmed by the operator; a rental paid from the balance for the provisioning desk. The customer's
    e-mail is as long as the QA walks' ("qa-es-1796554416@example.com")."""
    operator = User.objects.get(email=DEMO_OPERATOR_EMAIL)
    customer = django_user_model.objects.create_user(
        "qa-es-1796554416@example.com", "passphrase 12", first_name="Q", last_name="A"
    )
    transfer_post(
        reference="deposit:D-FIT",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(900_000),
    )
    pairs = [("ETH", "ethereum"), ("BTC", "bitcoin"), ("USDC", "solana"), ("USDT", "tron"), ("BTC", "bitcoin")]
    payouts = [
        payout_request(owner=customer, asset=asset, network=network, address=ADDRESSES[network], amount=Usd(123_456))
        for asset, network in pairs
    ]
    txid = "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b"
    payout_mark_sent(payout_id=payouts[-1].pk, txid=txid, sent_units=30_000_000, actor=operator)
    payout_reject(payout_id=payouts[-2].pk, reason="Wrong network", actor=operator)
    payer = django_user_model.objects.create_user(
        "qa-vi-1796554417@example.com", "passphrase 12", first_name="B", last_name="N"
    )  # no balance: each order is paid in crypto
    contact = Contact("B", "N", payer.email)
    for index, (asset, network) in enumerate([("ETH", "ethereum"), ("USDT", "tron"), ("USDC", "solana")]):
        order = order_place(
            owner=payer, gpu_slug="h100-80gb", term_days=7, lots=1, environment="pytorch", contact=contact
        )
        intent = intent_report(intent=intent_issue_for_order(order=order, owner=payer, asset=asset, network=network))
        if index == 0:
            intent_confirm(
                intent_id=intent.pk, txid="0x" + "ab" * 32, received_units=intent.amount_units, actor=operator
            )


def operator_logs_in(page, base: str) -> None:
    page.goto(base + "/backoffice/")
    page.get_by_label("Email address").fill(DEMO_OPERATOR_EMAIL)
    page.get_by_label("Password").fill(DEMO_OPERATOR_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Payouts desk").first).to_be_visible()


def test_the_desks_and_lists_fit_1280_and_1366_px_and_show_cards_on_a_phone(
    live_server, page, demo_catalog, django_user_model, console_errors
):
    rows_of_every_kind(django_user_model)
    operator_logs_in(page, live_server.url)
    shots = ARTIFACTS / "desks-fit"
    shots.mkdir(parents=True, exist_ok=True)
    for width, height in [(1280, 800), (1366, 768)]:
        page.set_viewport_size({"width": width, "height": height})
        for name, path in WIDE.items():
            page.goto(live_server.url + path)
            table = page.locator("#result_list")
            expect(table).to_be_visible()
            page.screenshot(path=str(shots / f"{name}-{width}.png"))
            sizes = table.evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
            assert sizes[0] <= sizes[1], f"{name} at {width} px: {sizes[0]} px of table in {sizes[1]}"
            assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name} scrolls at {width} px"

    page.set_viewport_size({"width": 390, "height": 844})
    for name, (path, wanted) in PHONE.items():
        page.goto(live_server.url + path)
        page.screenshot(path=str(shots / f"{name}-390.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{name} scrolls sideways on a phone"
        table = page.locator("#result_list")
        assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth"), f"{name}: the cards are too wide"
        expect(table.locator("thead")).to_be_hidden()  # the headings are on the cards
        card = table.locator("tbody tr").first
        for field in wanted:
            cell = card.locator(f"td.field-{field}")
            box = cell.bounding_box()
            assert box is not None
            assert box["x"] >= 0, f"{name}: {field} starts off the screen"
            assert box["x"] + box["width"] <= 390, f"{name}: {field} ends off the screen"
            assert box["y"] + box["height"] <= 844, f"{name}: {field} is below the first screen"
            heading = cell.evaluate("td => getComputedStyle(td, '::before').content")
            label = cell.get_attribute("data-label")
            assert label, f"{name}: {field} has no heading"
            assert heading == f'"{label}"', (name, field, heading)
    assert console_errors == []

"""The payments desk after the outside QA walk (defects 1, 2, 12, 13, 14, 15, 29 of docs' QA report): a confirmed
payment is not confirmed again by default, a txid must have its network's form (here and on the payouts desk),
a duplicate txid says where it was recorded and keeps what was typed, the Review choices only for an intent in
review, the message after a decision says what happened, a part-paid intent waits for the customer (desk and
dashboard agree), and the queue lists the payment waiting longest first."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from gpurent.backoffice.dashboard.figures import open_work
from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report
from gpurent.payments.models import Deposit, IntentStatus, Payment, PaymentIntent, Payout
from gpurent.payments.payouts import payout_request
from gpurent.payments.received.receive import payment_receive

pytestmark = pytest.mark.django_db

DESK = "/backoffice/backoffice/paymentsdesk/"
TRON_TX = "ab" * 32
TRON_TX_2 = "cd" * 32
ETH_TX = "0x" + "ef" * 32


@pytest.fixture
def operator(django_user_model):
    user = django_user_model.objects.create_user(
        "op@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name__in=["payments", "payouts"]))
    return user


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("ana@example.com", "passphrase 12", first_name="A", last_name="N")


def place(customer, gpu, lots=1):
    return order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=lots,
        environment="ubuntu",
        contact=Contact("A", "N", "a@x"),
    )


def reported(customer, gpu, asset="USDT", network="tron"):
    intent = intent_issue_for_order(order=place(customer, gpu), owner=customer, asset=asset, network=network)
    return intent_report(intent=intent)


def post(client, intent, key, **fields):
    body = {"action": "confirm", "txid": "", "received": "", "reason": "", "idempotency_key": key, **fields}
    return client.post(f"{DESK}{intent.pk}/change/", body)


def messages_of(response):
    return [str(m) for m in response.wsgi_request._messages]


# --- 1: a confirmed payment is not confirmed again by default ---------------------------------------------------


def test_a_confirmed_payment_shows_what_was_credited_and_preselects_nothing(
    client, operator, customer, gpu, payment_setup
):
    intent = reported(customer, gpu)
    client.force_login(operator)
    post(client, intent, "k-1", txid=TRON_TX, received="205")
    assert PaymentIntent.objects.get(pk=intent.pk).status == "confirmed"
    page = client.get(f"{DESK}{intent.pk}/change/").content.decode()
    deposit = Deposit.objects.get(payment__txid=TRON_TX)
    assert 'data-testid="already-credited"' in page
    assert f"$205.00 credited from 205 USDT ({deposit.ref})" in page
    assert '<option value="confirm"' not in page  # "Confirm: this transaction paid it" is not offered again
    assert '<option value="" selected>' in page
    assert "Another transaction to this payment (credited to the balance)" in page


def test_confirming_a_confirmed_payment_again_is_refused_unless_marked_additional(
    client, operator, customer, gpu, payment_setup
):
    intent = reported(customer, gpu)
    client.force_login(operator)
    post(client, intent, "k-1", txid=TRON_TX, received="205")
    transfers = LedgerTransfer.objects.count()
    # The old form's default ("confirm") and an empty choice are both refused, with what was typed kept.
    for key, action, said in (
        ("k-2", "confirm", "This payment is already confirmed ($205.00 credited as D-"),
        ("k-3", "", "Choose what happened: this payment was already credited"),
    ):
        page = post(client, intent, key, action=action, txid=TRON_TX_2, received="205")
        assert page.status_code == 200
        assert TRON_TX_2 in page.content.decode()
        assert said in page.content.decode()
        assert '<option value="confirm"' not in page.content.decode()
    assert LedgerTransfer.objects.count() == transfers
    # Said explicitly: a second transaction is credited to the balance, once.
    done = post(client, intent, "k-4", action="confirm_additional", txid=TRON_TX_2, received="205")
    assert done.status_code == 302
    assert Payment.objects.filter(intent=intent).count() == 2
    second = Deposit.objects.get(payment__txid=TRON_TX_2)
    assert messages_of(done) == [
        f"Credited $205.00 (205 USDT, {second.ref}) to ana@example.com's balance; order "
        f"{intent.order.ref} was already paid: it stays there."
    ]


def test_the_service_refuses_a_settled_intent_under_its_lock(customer, gpu, payment_setup):
    from gpurent.payments.errors import IntentAlreadySettled

    intent = reported(customer, gpu)
    payment_receive(intent_id=intent.pk, txid=TRON_TX, amount_units=205_000_000, source="operator")
    with pytest.raises(IntentAlreadySettled, match=r"already confirmed \(\$205.00 credited as D-"):
        payment_receive(
            intent_id=intent.pk, txid=TRON_TX_2, amount_units=205_000_000, source="operator", refuse_if_settled=True
        )
    # The same payment again still answers its row (a replay), and other sources are unchanged.
    again = payment_receive(
        intent_id=intent.pk, txid=TRON_TX, amount_units=205_000_000, source="operator", refuse_if_settled=True
    )
    assert again.txid == TRON_TX
    assert Payment.objects.count() == 1


# --- 2: the txid has the network's form --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asset", "network", "bad", "good", "form"),
    [
        ("USDT", "tron", "hello", TRON_TX, "64 hexadecimal characters (0-9, a-f), no 0x"),
        ("ETH", "ethereum", "ab" * 32, ETH_TX, "0x followed by 64 hexadecimal characters"),
        ("BTC", "bitcoin", "0x" + "ab" * 32, "AB" * 32, "64 hexadecimal characters"),
        ("LTC", "litecoin", "ab" * 31, "ab" * 32, "64 hexadecimal characters"),
        (
            "SOL",
            "solana",
            "0" * 88,
            "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
            "a Base58 transaction signature of 64 to 88 characters",
        ),
    ],
)
def test_the_desk_refuses_a_txid_not_of_the_network_and_names_the_form(
    client, operator, customer, gpu, payment_setup, asset, network, bad, good, form
):
    intent = reported(customer, gpu, asset, network)
    client.force_login(operator)
    page = post(client, intent, "k-1", txid=bad, received="0.001")
    assert page.status_code == 200
    assert form in page.content.decode()
    assert not Payment.objects.exists()
    assert post(client, intent, "k-2", txid=good, received="0.001").status_code == 302
    assert Payment.objects.count() == 1


def test_the_payouts_desk_refuses_a_txid_not_of_the_network(client, operator, customer, payment_setup, settings):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-T",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    payout = payout_request(
        owner=customer, asset="USDT", network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", amount=Usd(5_000)
    )
    client.force_login(operator)
    url = f"/backoffice/backoffice/payoutsdesk/{payout.pk}/change/"
    body = {"action": "sent", "txid": "hello", "sent": "49", "reason": "", "idempotency_key": "p-1"}
    page = client.post(url, body)
    assert page.status_code == 200
    assert "This is not a transaction id on Tron: one is 64 hexadecimal characters" in page.content.decode()
    assert Payout.objects.get(pk=payout.pk).status == "requested"
    assert client.post(url, {**body, "txid": TRON_TX, "idempotency_key": "p-2"}).status_code == 302
    assert Payout.objects.get(pk=payout.pk).txid == TRON_TX


# --- 15: the duplicate-txid refusal says where, and keeps what was typed --------------------------------------------


def test_a_duplicate_txid_names_where_it_was_recorded_and_keeps_the_fields(
    client, operator, customer, gpu, payment_setup
):
    first = reported(customer, gpu)
    second = reported(customer, gpu)
    client.force_login(operator)
    post(client, first, "k-1", txid=TRON_TX, received="205")
    deposit = Deposit.objects.get(payment__txid=TRON_TX)
    page = post(client, second, "k-2", txid=TRON_TX.upper(), received="204.5", output_index="0")
    text = page.content.decode()
    assert page.status_code == 200
    assert f"was already recorded for order {first.order.ref} (deposit {deposit.ref}) on " in text
    assert f'href="{DESK}{first.pk}/change/"' in text
    assert f'value="{TRON_TX.upper()}"' in text
    assert 'value="204.5"' in text
    assert Payment.objects.count() == 1


# --- 29: the Review choices only for an intent in review ------------------------------------------------------


def test_review_choices_only_for_an_intent_in_review(client, operator, customer, gpu, payment_setup):
    intent = reported(customer, gpu)
    client.force_login(operator)
    page = client.get(f"{DESK}{intent.pk}/change/").content.decode()
    assert "resolve_locked" not in page
    assert "resolve_current" not in page
    assert '<option value="confirm"' in page
    assert '<option value="reject"' in page
    refused = post(client, intent, "k-1", action="resolve_locked")  # a page of before: the service says why
    assert refused.status_code == 200
    assert "This payment is not waiting for review." in refused.content.decode()
    PaymentIntent.objects.filter(pk=intent.pk).update(status=IntentStatus.REVIEW)
    page = client.get(f"{DESK}{intent.pk}/change/").content.decode()
    assert "Review: credit at the intent&#x27;s locked rate" in page
    assert "resolve_current" in page


# --- 13 and 14: what a decision did; a part-paid intent waits for the customer ------------------------------------


def test_a_full_payment_says_the_order_is_paid(client, operator, customer, gpu, payment_setup):
    intent = reported(customer, gpu)
    client.force_login(operator)
    done = post(client, intent, "k-1", txid=TRON_TX, received="205")
    deposit = Deposit.objects.get(payment__txid=TRON_TX)
    assert messages_of(done) == [f"{intent.order.ref} is paid ($205.00 from 205 USDT, {deposit.ref})."]


def test_an_underpayment_says_what_the_order_still_needs_and_leaves_the_queue(
    client, operator, customer, gpu, payment_setup
):
    intent = reported(customer, gpu, "BTC", "bitcoin")
    assert open_work().reported == 1
    client.force_login(operator)
    # $205.00 at 97,000 USD/BTC is 0.00211341 BTC; 0.002 BTC is worth $194.00.
    done = post(client, intent, "k-1", txid=TRON_TX, received="0.002")
    deposit = Deposit.objects.get(payment__txid=TRON_TX)
    assert messages_of(done) == [
        f"Credited $194.00 (0.002 BTC, {deposit.ref}) to ana@example.com's balance; order {intent.order.ref} still "
        f"needs $11.00 (0.00011341 BTC)."
    ]
    assert PaymentIntent.objects.get(pk=intent.pk).status == "awaiting_payment"
    # Not to verify any more: out of the desk's default queue, and the dashboard agrees.
    client.get(DESK)  # shows (and so uses up) the message above, which names the order
    listing = client.get(DESK).content.decode()
    assert intent.order.ref not in listing
    assert "0 payments to verify" in listing
    assert open_work().reported == 0
    partly = client.get(DESK, {"queue": "partly"}).content.decode()
    assert intent.order.ref in partly
    assert "partly paid" in partly
    page = client.get(f"{DESK}{intent.pk}/change/").content.decode()
    assert f"$194.00 credited from 0.002 BTC ({deposit.ref}); order {intent.order.ref} still needs $11.00" in page
    assert '<option value="reject"' not in page  # a credit is not rejected (the command says the same)


# --- 12: the one waiting longest first; its age and the lots' hold, not the instructions' expiry ---------------


def test_the_desk_lists_the_payment_waiting_longest_first_with_its_age_and_hold(
    client, operator, customer, gpu, payment_setup
):
    older, newer = reported(customer, gpu), reported(customer, gpu)
    PaymentIntent.objects.filter(pk=older.pk).update(reported_at=timezone.now() - timedelta(hours=2, minutes=5))
    client.force_login(operator)
    page = client.get(DESK).content.decode()
    assert page.index(older.order.ref) < page.index(newer.order.ref)
    assert "2 h 05 min" in page
    held = Order.objects.get(pk=older.order_id).reserved_until
    assert f'title="lots held until {timezone.localtime(held):%d %b %Y, %H:%M} UTC">lots held 23 h' in page
    assert "column-expires" not in page


def test_the_verify_page_shows_the_intent_id_for_the_command(client, operator, customer, gpu, payment_setup):
    intent = reported(customer, gpu)
    client.force_login(operator)
    page = client.get(f"{DESK}{intent.pk}/change/").content.decode()
    assert f'data-testid="intent-id"><label>Intent id</label> <code>{intent.pk}</code>' in page
    assert f"manage.py confirm_payment {intent.order.ref}" in page
    assert Deposit.objects.count() == 0

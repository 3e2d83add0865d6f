"""Renewals: an extension order moves the term end when paid during the term, and only then; no lot returns
to stock in between; replays and second payments change nothing."""

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from conftest import make_running_rental
from gpurent.catalog.models import GpuModel
from gpurent.core.errors import NotFound
from gpurent.core.formats import date_text
from gpurent.core.models import OutboundEmail
from gpurent.core.money import Usd
from gpurent.ledger.selectors import balance_for
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.extensions import ExtensionPending, RentalNotRunning, order_extension_place
from gpurent.orders.models import Order
from gpurent.orders.rental import orders_end_terms, orders_remind_term_end
from gpurent.orders.services import orders_expire_due
from gpurent.payments.errors import NothingToPay
from gpurent.payments.services import order_pay_from_balance

pytestmark = pytest.mark.django_db
# The `customer` (with $5,000 on the balance) and `rental` fixtures are in this package's conftest.py.


def stock(gpu) -> int:
    return GpuModel.objects.get(pk=gpu.pk).stock_lots


def end_in(rental, seconds: int) -> Order:
    Order.objects.filter(pk=rental.pk).update(term_ends_at=timezone.now() + timedelta(seconds=seconds))
    return Order.objects.get(pk=rental.pk)


def test_extension_is_priced_now_reserves_nothing_and_is_due_by_the_term_end(rental, customer, gpu):
    GpuModel.objects.filter(pk=gpu.pk).update(price_7d_cents=21_000)  # the price changed since the rental
    extension = order_extension_place(rental=rental, owner=customer, term_days=7)
    assert (extension.extends_id, extension.lots, extension.cards, extension.term_days) == (rental.pk, 2, 2, 7)
    assert (extension.lot_price_cents, extension.total_cents) == (21_000, 42_000)
    assert extension.reserved_until <= rental.term_ends_at
    assert stock(gpu) == 6


def test_extension_paid_one_second_before_the_end_moves_the_term_and_keeps_the_lots(rental, customer, gpu):
    rental = end_in(rental, 1)
    old_end = rental.term_ends_at
    extension = order_extension_place(rental=rental, owner=customer, term_days=7)
    order_pay_from_balance(order=extension, owner=customer)
    rental.refresh_from_db()
    assert rental.term_ends_at == old_end + timedelta(days=7)
    # The sweep at the old end (and a day later) neither ends the rental nor releases its lots.
    assert orders_end_terms(now=old_end + timedelta(days=1)) == 0
    assert orders_expire_due(now=old_end + timedelta(days=1)) == 0
    assert stock(gpu) == 6
    assert Order.objects.get(pk=rental.pk).provisioning_status == "ready"
    assert balance_for(customer) == Usd(500_000 - 2 * 9_500 - 2 * 20_500)


def test_extension_paid_after_the_end_is_refused_and_the_term_ends_as_planned(rental, customer, gpu):
    rental = end_in(rental, 60)
    extension = order_extension_place(rental=rental, owner=customer, term_days=7)
    rental = end_in(rental, -1)  # the end passed; the sweep has not run yet
    before = balance_for(customer)
    with pytest.raises(TransitionNotAllowed, match="ended before this extension was paid"):
        order_pay_from_balance(order=extension, owner=customer)
    assert balance_for(customer) == before  # nothing debited
    assert orders_end_terms() == 1
    # The extension was due by the term end as it stood when it was placed; then it lapses.
    assert orders_expire_due(now=extension.reserved_until) == 1
    assert Order.objects.get(pk=extension.pk).payment_status == "expired"
    assert stock(gpu) == 8  # the rental's 2 lots came back once; the extension released none


def test_extension_paid_twice_moves_the_term_once(rental, customer):
    extension = order_extension_place(rental=rental, owner=customer, term_days=3)
    order_pay_from_balance(order=extension, owner=customer)
    end = Order.objects.get(pk=rental.pk).term_ends_at
    with pytest.raises(NothingToPay):
        order_pay_from_balance(order=extension, owner=customer)
    assert Order.objects.get(pk=rental.pk).term_ends_at == end
    assert end == rental.term_ends_at + timedelta(days=3)


def test_unpaid_extension_at_term_end_changes_nothing(rental, customer, gpu):
    order_extension_place(rental=rental, owner=customer, term_days=30)
    after_end = rental.term_ends_at + timedelta(seconds=1)
    assert orders_end_terms(now=after_end) == 1
    assert orders_expire_due(now=after_end) == 1
    assert stock(gpu) == 8


def test_one_unpaid_extension_at_a_time_and_only_during_the_term(rental, customer, django_user_model):
    order_extension_place(rental=rental, owner=customer, term_days=7)
    with pytest.raises(ExtensionPending):
        order_extension_place(rental=rental, owner=customer, term_days=3)
    stranger = django_user_model.objects.create_user("s@example.com", "plum orbit ferry", first_name="S", last_name="T")
    with pytest.raises(NotFound):
        order_extension_place(rental=rental, owner=stranger, term_days=7)
    ended = end_in(rental, -1)
    Order.objects.filter(extends=rental).update(payment_status="cancelled")
    with pytest.raises(RentalNotRunning, match="term has ended, so it can no longer be extended"):
        order_extension_place(rental=ended, owner=customer, term_days=7)


def test_extend_api_refuses_an_ended_rental_with_409_rental_not_running(client, rental, customer):
    # QA2 #15: it was a generic 422 `invalid_request`, as for a malformed body.
    client.force_login(customer)
    ended = end_in(rental, -1)
    response = client.post(
        f"/api/v1/orders/{ended.ref}/extend",
        {"term_days": 7},
        content_type="application/json",
        headers={"Idempotency-Key": "late"},
    )
    assert response.status_code == 409
    assert response.json()["error"] == {
        "code": "rental_not_running",
        "message": "This rental's term has ended, so it can no longer be extended. To rent again, place a new order.",
    }


def test_extend_api_refuses_an_extension_and_a_rental_not_started_with_rental_not_running(client, rental, customer):
    client.force_login(customer)
    extension = order_extension_place(rental=rental, owner=customer, term_days=3)
    Order.objects.filter(pk=rental.pk).update(provisioning_status="preparing")
    answers = {}
    for order in (extension, rental):
        response = client.post(
            f"/api/v1/orders/{order.ref}/extend",
            {"term_days": 7},
            content_type="application/json",
            headers={"Idempotency-Key": f"k-{order.ref}"},
        )
        assert (response.status_code, response.json()["error"]["code"]) == (409, "rental_not_running")
        answers[order] = response.json()["error"]["message"]
    assert answers == {
        extension: "This order is an extension: extend the rental it belongs to instead.",
        rental: "A rental can be extended only while its term runs.",
    }


def test_extend_form_is_idempotent_and_leads_to_the_extension_page(client, rental, customer):
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[rental.ref])).content.decode()
    assert 'id="extend"' in page
    assert "$410.00" in page  # 7 days × 2 lots at today's price
    data = {"term": "7", "idempotency_key": "ext-1"}
    first = client.post(reverse("orders:rental_extend", args=[rental.ref]), data)
    second = client.post(reverse("orders:rental_extend", args=[rental.ref]), data)
    extension = Order.objects.get(extends=rental)
    assert first["Location"] == second["Location"] == reverse("orders:rental", args=[extension.ref])
    page = client.get(first["Location"]).content.decode()
    # Said once, on the first submit: an order was placed, and paying it before the term ends extends the term.
    assert (
        page.count(f"Extension order {extension.ref} placed. Pay it before your current term ends to extend the term.")
        == 1
    )
    assert f'This order extends rental <a href="{reverse("orders:rental", args=[rental.ref])}">{rental.ref}</a>' in page


def test_extend_api_is_idempotent_and_answers_409_for_a_second_unpaid_one(client, rental, customer):
    client.force_login(customer)
    url = f"/api/v1/orders/{rental.ref}/extend"
    first = client.post(url, {"term_days": 7}, content_type="application/json", headers={"Idempotency-Key": "a"})
    again = client.post(url, {"term_days": 7}, content_type="application/json", headers={"Idempotency-Key": "a"})
    assert first.status_code == again.status_code == 201
    assert first.json()["ref"] == again.json()["ref"]
    assert first.json()["extends"] == rental.ref
    other = client.post(url, {"term_days": 3}, content_type="application/json", headers={"Idempotency-Key": "b"})
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "extension_pending"
    assert client.get(f"/api/v1/orders/{rental.ref}").json()["extensions"] == [first.json()["ref"]]


def test_reminder_links_to_the_extend_form(rental, django_capture_on_commit_callbacks):
    end_in(rental, 3600)
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_remind_term_end() == 1
    reminder = next(message for message in mail.outbox if "ends in 24 hours" in message.subject)
    assert f"/rentals/{rental.ref}/#extend" in reminder.body


def test_an_extended_rental_is_reminded_again_before_its_new_end(rental, customer, django_capture_on_commit_callbacks):
    first_end = rental.term_ends_at
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_remind_term_end(now=first_end - timedelta(hours=23)) == 1
        assert orders_remind_term_end(now=first_end - timedelta(hours=22)) == 0
        order_pay_from_balance(order=order_extension_place(rental=rental, owner=customer, term_days=3), owner=customer)
    rental.refresh_from_db()
    assert rental.term_ends_at == first_end + timedelta(days=3)
    with django_capture_on_commit_callbacks(execute=True):
        # Not yet: the new end is more than 24 hours away.
        assert orders_remind_term_end(now=first_end - timedelta(hours=1)) == 0
        assert orders_remind_term_end(now=rental.term_ends_at - timedelta(hours=23)) == 1
        assert orders_remind_term_end(now=rental.term_ends_at - timedelta(hours=2)) == 0
    reminders = [message for message in mail.outbox if "ends in 24 hours" in message.subject]
    assert len(reminders) == 2
    assert date_text(rental.term_ends_at, time=True, zone=True) in reminders[1].body


def test_extension_is_not_on_the_provisioning_desk(admin_client, rental, customer):
    extension = order_pay_from_balance(
        order=order_extension_place(rental=rental, owner=customer, term_days=3), owner=customer
    )
    page = admin_client.get("/backoffice/backoffice/provisioningdesk/", {"queue": "all"}).content.decode()
    assert rental.ref in page
    assert extension.ref not in page


def rentals_rows(client) -> list[str]:
    html = client.get(reverse("orders:rentals")).content.decode()
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [row.split("</tr>", 1)[0] for row in body.split("<tr")[1:]]


def test_my_rentals_shows_an_extension_with_its_rental_and_the_paid_term_end(client, rental, customer):
    # QA: an extension was listed as a rental of its own ("2 lots of A100 80GB, 1 week"), beside the rental.
    old_end = rental.term_ends_at
    paid = order_pay_from_balance(
        order=order_extension_place(rental=rental, owner=customer, term_days=7), owner=customer
    )
    unpaid = order_extension_place(rental=rental, owner=customer, term_days=3)
    client.force_login(customer)
    rows = rentals_rows(client)
    assert len(rows) == 3  # the rental, then its two extensions under it
    first, *extensions = rows
    assert rental.ref in first
    assert 'class="extension-row"' not in first
    # The rental's end is the extended one (the unpaid 3 days are not counted).
    assert f"Term end: {date_text(old_end + timedelta(days=7), time=True)} UTC" in first
    assert date_text(old_end, time=True) not in first
    for row, extension, days, payment in (
        (extensions[0], unpaid, 3, "Awaiting payment"),
        (extensions[1], paid, 7, "Paid"),
    ):
        assert 'class="extension-row"' in row
        assert f'href="/rentals/{extension.ref}/"' in row
        assert f"Extension of {rental.ref}: {days} more days" in row
        assert payment in row
        assert "lots of" not in row  # not listed as a rental of its own


def test_my_rentals_reads_extensions_in_one_query_and_only_the_owners(
    client, rental, customer, gpu, django_user_model, django_assert_max_num_queries
):
    other = django_user_model.objects.create_user("o@example.com", "plum orbit ferry", first_name="O", last_name="T")
    transfer_post(
        reference="deposit:T2",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(other),
        amount=Usd(90_000),
    )
    theirs = make_running_rental(other, gpu)
    their_extension = order_extension_place(rental=theirs, owner=other, term_days=3)
    for term_days in (7, 3):
        extension = order_extension_place(rental=rental, owner=customer, term_days=term_days)
        order_pay_from_balance(order=extension, owner=customer)
    client.force_login(customer)
    # session, user, the rentals, their extensions, and for the payment badges of both the intents, their payments
    # and what the chain watchers saw: not one query per rental or per extension.
    with django_assert_max_num_queries(7):
        rows = rentals_rows(client)
    assert len(rows) == 3
    assert not any(theirs.ref in row or their_extension.ref in row for row in rows)


def test_a_paid_extension_reads_added_to_the_term_on_the_printable_summary_never_queued(client, rental, customer):
    # Review: an extension is never provisioned, so once paid its machine track would have read "Queued" for good.
    extension = order_pay_from_balance(
        order=order_extension_place(rental=rental, owner=customer, term_days=7), owner=customer
    )
    assert extension.provisioning_status == "not_started"
    assert extension.machine_state == "not_started"
    client.force_login(customer)
    printed = client.get(reverse("orders:rentals_printable")).content.decode()
    row = next(part for part in printed.split("<tr>") if extension.ref in part)
    assert 'data-label="Machine">Added to the term</td>' in row
    assert "Queued" not in printed


def test_placing_an_extension_emails_its_pay_by_deadline(rental, customer, django_capture_on_commit_callbacks):
    # QA2 #12: no e-mail said that an unpaid extension lapses at its deadline.
    with django_capture_on_commit_callbacks(execute=True):
        extension = order_extension_place(rental=rental, owner=customer, term_days=7)
    deadline = date_text(extension.reserved_until, time=True, zone=True)
    (message,) = [sent for sent in mail.outbox if extension.ref in sent.subject]
    assert message.subject == f"Extension {extension.ref} of rental {rental.ref}: pay by {deadline}"
    assert message.to == [customer.email]
    body = " ".join(message.body.split())
    assert f"You asked to extend rental {rental.ref} by 7 days, on the same machine. Total: $410.00." in body
    assert (
        f"Pay it by {deadline}. Once it is paid, the term runs 7 days longer than its current end, "
        f"{date_text(rental.term_ends_at, time=True, zone=True)}. Unpaid by then, the extension lapses" in body
    )
    assert f"/rentals/{extension.ref}/" in body


def test_the_extension_email_is_in_the_accounts_language(rental, customer):
    customer.language = "tr"
    customer.save(update_fields=["language"])
    extension = order_extension_place(rental=rental, owner=customer, term_days=3)
    assert OutboundEmail.objects.get(key=f"order-extension_placed:{extension.ref}").language == "tr"

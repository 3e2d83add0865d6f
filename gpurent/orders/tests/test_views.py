"""Checkout steps, placing once, My rentals, the summary downloads, and owner scoping in HTML."""

import csv
import io
import re

import pytest
from django.urls import reverse

from gpurent.accounts.models import User
from gpurent.catalog.models import GpuModel
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.services import order_pay_from_balance

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
# EmailTaken's message, as the page writes it.
TAKEN = "An account with this email already exists."
CHOICE = {"gpu": "b200-2x180gb", "term": "7", "lots": "2", "environment": "pytorch", "environment_note": ""}


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("ada@example.com", PASSWORD, first_name="Ada", last_name="Lovelace")


def summary_post_data(client, key="key-1", **overrides):
    page = client.get(reverse("orders:checkout_summary"))
    assert page.status_code == 200
    form = page.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data.update({"idempotency_key": key, **overrides})
    return data


def test_checkout_start_prefills_the_choice_from_the_catalog_card(client, b200):
    page = client.get(reverse("orders:checkout_start"), {"gpu": "b200-2x180gb", "term": "30", "lots": "2"})
    form = page.context["form"]
    assert (form["gpu"].value(), str(form["term"].value()), str(form["lots"].value())) == ("b200-2x180gb", "30", "2")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"lots": "3"}, "Only 2 lots of B200 (2 × 180GB) are in stock."),
        ({"lots": "11"}, "An order holds at most 10 lots."),
        ({"environment": "other"}, "Describe the environment you need."),
        ({"gpu": "tpu"}, "This GPU model is not on sale."),
        ({"term": "14"}, "Select a valid choice."),
    ],
)
def test_checkout_start_bad_choice_gets_a_clear_message(client, b200, change, message):
    response = client.post(reverse("orders:checkout_start"), {**CHOICE, **change})
    assert response.status_code == 200
    assert message in response.content.decode()


def test_checkout_guest_goes_from_choice_to_account_step(client, b200):
    response = client.post(reverse("orders:checkout_start"), CHOICE)
    assert response["Location"] == reverse("orders:checkout_account")
    page = client.get(response["Location"]).content.decode()
    assert "Create account" in page
    assert "I already have an account" in page


def test_checkout_logged_in_customer_goes_straight_to_the_summary(client, customer, b200):
    client.force_login(customer)
    response = client.post(reverse("orders:checkout_start"), CHOICE)
    assert response["Location"] == reverse("orders:checkout_summary")
    html = client.get(response["Location"]).content.decode()
    for text in [
        "B200 (2 × 180GB)",
        "$1,700.00",
        "4 GPUs",
        "$3,400.00",
        "Stopping the machine does not pause or extend the term",
    ]:
        assert text in html
    assert 'value="Ada"' in html
    assert 'value="ada@example.com"' in html
    assert "reserved for 24 hours" in html


def test_checkout_steps_cannot_be_skipped(client, customer, b200):
    assert client.get(reverse("orders:checkout_account"))["Location"] == reverse("orders:checkout_start")
    assert client.get(reverse("orders:checkout_summary"))["Location"] == reverse("orders:checkout_start")
    client.post(reverse("orders:checkout_start"), CHOICE)
    # A guest with a choice must pass the account step first.
    assert client.get(reverse("orders:checkout_summary"))["Location"] == reverse("orders:checkout_account")
    response = client.post(reverse("orders:checkout_place"), {"idempotency_key": "k"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert not Order.objects.exists()


def test_checkout_register_at_the_account_step_keeps_the_choice(client, b200):
    client.post(reverse("orders:checkout_start"), CHOICE)
    response = client.post(
        reverse("orders:checkout_account"),
        {
            "step_action": "register",
            "first_name": "Grace",
            "last_name": "Hopper",
            "email": "grace@example.com",
            "password": PASSWORD,
        },
    )
    assert response["Location"] == reverse("orders:checkout_summary")
    html = client.get(response["Location"]).content.decode()
    assert "$3,400.00" in html
    assert 'value="grace@example.com"' in html


def test_checkout_login_at_the_account_step_keeps_the_choice(client, customer, b200):
    client.post(reverse("orders:checkout_start"), CHOICE)
    guest_key = client.session.session_key
    response = client.post(
        reverse("orders:checkout_account"),
        {"step_action": "login", "username": "ada@example.com", "password": PASSWORD},
    )
    assert response["Location"] == reverse("orders:checkout_summary")
    assert client.session.session_key != guest_key  # rotated at login
    assert "$3,400.00" in client.get(reverse("orders:checkout_summary")).content.decode()


def test_checkout_wrong_password_at_the_account_step_shows_the_form_again(client, customer, b200):
    client.post(reverse("orders:checkout_start"), CHOICE)
    response = client.post(
        reverse("orders:checkout_account"), {"step_action": "login", "username": "ada@example.com", "password": "nope"}
    )
    assert response.status_code == 200
    assert "I already have an account" in response.content.decode()


def _focus_ids(html: str) -> list[str]:
    """The ids of the inputs that take the focus when the page opens."""
    focused = [tag for tag in re.findall(r"<input[^>]*>", html) if re.search(r"\sautofocus\b", tag)]
    return [re.findall(r'\bid="([^"]+)"', tag)[0] for tag in focused]


def test_checkout_account_step_focuses_the_field_that_failed(client, customer, b200):
    """The login form's own autofocus (on its email) took the focus, and at 390 px scrolled past the sign-up
    form whose password had just been refused: the field with the error takes it, in whichever form was sent."""
    client.post(reverse("orders:checkout_start"), CHOICE)
    url = reverse("orders:checkout_account")
    assert _focus_ids(client.get(url).content.decode()) == []  # two choices: neither is pushed on the visitor
    data = {"step_action": "register", "first_name": "Grace", "last_name": "Hopper", "email": "g@example.com"}
    refused = client.post(url, {**data, "password": "short"}).content.decode()
    assert _focus_ids(refused) == ["register_password"]
    unnamed = client.post(url, {**data, "first_name": "", "password": "short"}).content.decode()
    assert _focus_ids(unnamed) == ["register_first_name"]
    wrong = client.post(url, {"step_action": "login", "username": "ada@example.com", "password": "nope"})
    assert _focus_ids(wrong.content.decode()) == ["login_username"]  # a non-field error: the form's first field


def test_checkout_place_double_submit_places_one_order(client, customer, b200):
    client.force_login(customer)
    client.post(reverse("orders:checkout_start"), CHOICE)
    data = summary_post_data(client)
    first = client.post(reverse("orders:checkout_place"), data)
    second = client.post(reverse("orders:checkout_place"), data)
    order = Order.objects.get()
    assert first["Location"] == second["Location"] == reverse("orders:rental", args=[order.ref])
    assert (order.lots, order.cards, order.total_cents) == (2, 4, 340_000)
    assert GpuModel.objects.get(slug="b200-2x180gb").stock_lots == 0
    # The draft is gone: the summary cannot be replayed into a second order.
    assert client.get(reverse("orders:checkout_summary"))["Location"] == reverse("orders:checkout_start")


def test_checkout_place_with_a_choice_changed_in_another_tab_is_refused(client, customer, b200):
    client.force_login(customer)
    client.post(reverse("orders:checkout_start"), CHOICE)
    data = summary_post_data(client)
    client.post(reverse("orders:checkout_start"), {**CHOICE, "lots": "1"})  # the other tab
    response = client.post(reverse("orders:checkout_place"), data, follow=True)
    assert "Your choice changed in another tab" in response.content.decode()
    assert not Order.objects.exists()


def test_checkout_place_when_stock_ran_out_says_so_and_keeps_the_choice(client, customer, b200):
    client.force_login(customer)
    client.post(reverse("orders:checkout_start"), CHOICE)
    data = summary_post_data(client)
    GpuModel.objects.filter(pk=b200.pk).update(stock_lots=1)  # someone else bought a lot meanwhile
    response = client.post(reverse("orders:checkout_place"), data, follow=True)
    assert "not enough lots of this GPU in stock" in response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("orders:checkout_start")
    assert not Order.objects.exists()


def place_for(user, gpu_slug="a100-80gb", lots=1):
    return order_place(
        owner=user,
        gpu_slug=gpu_slug,
        term_days=7,
        lots=lots,
        environment="ubuntu",
        contact=Contact(user.first_name, user.last_name, user.email),
    )


def test_rentals_lists_orders_with_the_tracks_apart(client, customer, gpu, django_assert_max_num_queries):
    for _ in range(3):
        place_for(customer)
    client.force_login(customer)
    with django_assert_max_num_queries(6):  # session, user, orders with their GPU: not one query per order
        html = client.get(reverse("orders:rentals")).content.decode()
    assert html.count("Awaiting payment") == 3
    assert html.count("Not started") == 3


def test_rentals_empty_state_reads_well(client, customer):
    client.force_login(customer)
    assert "No rentals yet" in client.get(reverse("orders:rentals")).content.decode()


def test_rental_detail_shows_amount_payment_and_machine_separately(client, customer, gpu):
    order = place_for(customer, lots=2)
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    for text in [
        "Amount",
        "Payment",
        "Machine",
        "$410.00",
        "Awaiting payment",
        "Not started",
        "reserved until",
        "Ledger references",
        "Get payment instructions",
    ]:
        assert text in html


def test_a_paid_order_whose_machine_is_not_started_reads_queued_everywhere(client, customer, gpu):
    # QA: once paid, the badge said "Not started" while the text under it said the machine was being prepared.
    order = place_for(customer)
    credit = customer_account(customer)
    transfer_post(reference="deposit:Q1", debit=system_account(EXTERNAL_CRYPTO), credit=credit, amount=order.total)
    order = order_pay_from_balance(order=order, owner=customer)
    assert order.provisioning_status == "not_started"  # stored state unchanged: "queued" is derived from the rows
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert '<span class="status status-queued">Queued</span>' in html
    assert "Your order is paid and your machine is in the queue to be prepared." in html
    assert "status-not_started" not in html  # (the history still says where the track started: "Not started")
    assert "Your machine is being prepared." not in html
    listed = client.get(reverse("orders:rentals")).content.decode()
    assert '<span class="status status-queued">Queued</span>' in listed
    assert "Not started" not in listed
    printed = client.get(reverse("orders:rentals_printable")).content.decode()
    assert "Queued" in printed
    assert "Not started" not in printed
    # The API keeps its machine-readable state.
    assert client.get(f"/api/v1/orders/{order.ref}").json()["provisioning_status"] == "not_started"


def test_rental_cancel_releases_the_lots_once(client, customer, gpu):
    order = place_for(customer, lots=3)
    client.force_login(customer)
    data = {"idempotency_key": "cancel-1", "confirm": "yes"}
    client.post(reverse("orders:rental_cancel", args=[order.ref]), data)
    client.post(reverse("orders:rental_cancel", args=[order.ref]), data)
    assert Order.objects.get().payment_status == "cancelled"
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 8
    # The page no longer promises a machine "as soon as the order is paid", and says why: it was cancelled.
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "This order was cancelled, so no machine will be prepared for it." in html
    assert "This order was not paid" not in html
    assert "We start preparing your machine" not in html
    assert "Stopping the machine" not in html
    listed = client.get(reverse("orders:rentals")).content.decode()
    assert "Not started" not in listed  # its machine column says "—"


def test_rental_cancel_asks_to_confirm_first_without_javascript(client, customer, gpu):
    """One tap on "Cancel this order" ends nothing: the form has a required checkbox, and a post without it (a
    browser that ignores `required`) is refused with a message; ticked, the same form's key cancels."""
    order = place_for(customer, lots=3)
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert 'name="confirm" value="yes" required> Yes, cancel this order and release its lots.' in page
    url = reverse("orders:rental_cancel", args=[order.ref])
    refused = client.post(url, {"idempotency_key": "cancel-1"}, follow=True)
    assert Order.objects.get().payment_status == "awaiting_payment"
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 5
    assert "Tick the box to confirm that you want to cancel this order." in refused.content.decode()
    client.post(url, {"idempotency_key": "cancel-1", "confirm": "yes"})
    assert Order.objects.get().payment_status == "cancelled"


def test_an_expired_order_says_it_was_not_paid(client, customer, gpu):
    order = place_for(customer)
    Order.objects.filter(pk=order.pk).update(payment_status="expired")
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "This order was not paid, so no machine will be prepared for it." in html


def test_another_customers_order_is_a_404_in_every_html_route(client, customer, gpu, django_user_model):
    order = place_for(customer)
    stranger = django_user_model.objects.create_user("eve@example.com", PASSWORD, first_name="Eve", last_name="X")
    client.force_login(stranger)
    assert client.get(reverse("orders:rental", args=[order.ref])).status_code == 404
    assert client.post(reverse("orders:rental_cancel", args=[order.ref]), {"idempotency_key": "k"}).status_code == 404
    assert order.ref not in client.get(reverse("orders:rentals_csv")).content.decode()
    assert order.ref not in client.get(reverse("orders:rentals_printable")).content.decode()
    assert Order.objects.get().payment_status == "awaiting_payment"


def test_rentals_csv_has_the_references_and_escapes_formulas(client, customer, gpu):
    order = order_place(
        owner=customer,
        gpu_slug="a100-80gb",
        term_days=30,
        lots=2,
        environment="other",
        environment_note='=HYPERLINK("http://evil")',
        contact=Contact("Ada", "Lovelace", "ada@example.com"),
    )
    client.force_login(customer)
    response = client.get(reverse("orders:rentals_csv"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert rows[0]["reference"] == order.ref
    assert rows[0]["total_usd"] == "1580.00"
    assert rows[0]["cards"] == "2"
    assert rows[0]["environment"] == 'Other (describe it): =HYPERLINK("http://evil")'
    assert client.get(reverse("orders:rentals_printable")).status_code == 200


def test_spreadsheet_safe_escapes_every_formula_start():
    from gpurent.orders.export import spreadsheet_safe

    for text in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]:
        assert spreadsheet_safe(text) == "'" + text
    assert spreadsheet_safe("R-7KQ3-M9XA") == "R-7KQ3-M9XA"


def test_checkout_register_step_counts_against_the_registration_limit_whatever_the_email(
    client, customer, b200, settings
):
    # The checkout's register form is registration too: past the limit it is no account-lookup oracle (0111).
    settings.REGISTRATION_RATE_LIMITS = [(3600, 2)]
    client.post(reverse("orders:checkout_start"), CHOICE)
    taken = {"step_action": "register", "first_name": "A", "last_name": "L", "email": "ada@example.com"}
    for _ in range(2):
        page = client.post(
            reverse("orders:checkout_account"), {**taken, "password": PASSWORD}, REMOTE_ADDR="203.0.113.5"
        )
        assert TAKEN in page.content.decode()
    for email in ["ada@example.com", "new.one@example.com"]:
        page = client.post(
            reverse("orders:checkout_account"),
            {**taken, "email": email, "password": PASSWORD},
            REMOTE_ADDR="203.0.113.5",
        )
        assert page.status_code == 429
        html = page.content.decode()
        assert "Too many registration attempts" in html
        assert TAKEN not in html
        assert f'value="{email}"' in html  # what was typed comes back, never the password
        assert PASSWORD not in html
    assert not User.objects.filter(email="new.one@example.com").exists()

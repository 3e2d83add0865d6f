"""What a customer does around an order without a browser: the checkout's live price box, steps reached out of
order, and a rental page's one-time password, stop/restart requests and an extension with a bad term."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from gpurent.catalog.models import GpuModel
from gpurent.orders.models import MachineRequest, OrderAccess
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db

CHOICE = {"gpu": "b200-2x180gb", "term": "7", "lots": "2", "environment": "pytorch", "environment_note": ""}


def shown(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- the checkout's price box (htmx) and its steps ------------------------------------------------------------


def test_checkout_quote_prices_the_choice_in_progress(client, b200):
    page = client.get(reverse("orders:checkout_quote"), {"gpu": "b200-2x180gb", "term": "7", "lots": "2"})
    html = page.content.decode()
    assert page.status_code == 200
    # $1,700 per lot for 7 days, two lots.
    assert '<dd data-testid="checkout-lot-price">$1,700.00</dd>' in html
    assert '<dd data-testid="checkout-total">$3,400.00</dd>' in html


@pytest.mark.parametrize(
    "query",
    [
        {"gpu": "no-such-gpu", "term": "7", "lots": "2"},
        {"gpu": "b200\x00", "term": "7", "lots": "2"},
        {"gpu": "b200-2x180gb", "term": "7", "lots": "two"},
        {"gpu": "b200-2x180gb", "term": "14", "lots": "2"},
        {"gpu": "b200-2x180gb"},
    ],
)
def test_checkout_quote_without_a_priceable_choice_asks_for_one(client, b200, query):
    page = client.get(reverse("orders:checkout_quote"), query)
    assert page.status_code == 200
    assert "Choose a GPU, a term and 1 to 10 lots to see the price." in page.content.decode()
    assert "checkout-total" not in page.content.decode()


@pytest.mark.parametrize("step", ["orders:checkout_account", "orders:checkout_summary"])
def test_checkout_steps_without_a_choice_go_back_to_the_first(client, step):
    response = client.get(reverse(step))
    assert response["Location"] == reverse("orders:checkout_start")
    assert shown(response) == ["Choose a GPU, a term and a number of lots first."]


def test_checkout_summary_for_a_guest_goes_to_the_account_step(client, b200):
    client.post(reverse("orders:checkout_start"), CHOICE)
    assert client.get(reverse("orders:checkout_summary"))["Location"] == reverse("orders:checkout_account")


def test_checkout_account_for_a_signed_in_customer_goes_to_the_summary(client, b200, customer):
    client.force_login(customer)
    client.post(reverse("orders:checkout_start"), CHOICE)
    assert client.get(reverse("orders:checkout_account"))["Location"] == reverse("orders:checkout_summary")


def test_checkout_summary_of_a_gpu_taken_off_sale_asks_to_choose_again(client, b200, customer):
    client.force_login(customer)
    client.post(reverse("orders:checkout_start"), CHOICE)
    GpuModel.objects.filter(pk=b200.pk).update(on_sale=False)
    response = client.get(reverse("orders:checkout_summary"))
    assert response["Location"] == reverse("orders:checkout_start")
    assert shown(response) == ["That GPU is no longer on sale. Please choose again."]
    # The draft is gone: the next step asks for a choice again.
    assert client.get(reverse("orders:checkout_summary"))["Location"] == reverse("orders:checkout_start")


# --- a rental's page: one-time password, machine requests, extension ----------------------------------------


def test_one_time_password_is_shown_once_then_erased(client, customer, rental):
    client.force_login(customer)
    url = reverse("orders:rental_reveal_secret", args=[rental.ref])
    first = client.post(url)
    assert first.status_code == 200
    assert first.context["revealed_secret"] == "pw"
    assert OrderAccess.objects.get(order=rental).one_time_secret == ""
    again = client.post(url)
    assert again["Location"] == reverse("orders:rental", args=[rental.ref])
    assert shown(again) == ["The one-time password was already shown. Ask support if you lost it."]


def test_one_time_password_of_a_rental_not_ready_is_not_found(client, customer, gpu):
    client.force_login(customer)
    contact = Contact("R", "E", "r@example.com")
    unpaid = order_place(owner=customer, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=contact)
    assert client.post(reverse("orders:rental_reveal_secret", args=[unpaid.ref])).status_code == 404


def test_machine_request_is_recorded_for_operators(client, customer, rental):
    client.force_login(customer)
    url = reverse("orders:rental_machine_request", args=[rental.ref])
    response = client.post(url, {"kind": "restart", "note": "  CUDA hangs  ", "idempotency_key": "mr-1"})
    assert response["Location"] == reverse("orders:rental", args=[rental.ref])
    assert shown(response) == ["Request sent. Your term is not paused or extended."]
    assert list(MachineRequest.objects.values_list("order_id", "kind", "note")) == [
        (rental.pk, "restart", "CUDA hangs")
    ]


def test_machine_request_of_an_unknown_kind_is_refused(client, customer, rental):
    client.force_login(customer)
    url = reverse("orders:rental_machine_request", args=[rental.ref])
    response = client.post(url, {"kind": "reboot-everything", "idempotency_key": "mr-2"})
    assert response["Location"] == reverse("orders:rental", args=[rental.ref])
    assert shown(response) == ["Ask for a stop or a restart."]
    assert not MachineRequest.objects.exists()


@pytest.mark.parametrize("term", ["", "three", "14"])
def test_extension_with_a_term_that_is_not_offered_is_refused(client, customer, rental, term):
    client.force_login(customer)
    response = client.post(reverse("orders:rental_extend", args=[rental.ref]), {"term": term, "idempotency_key": "x"})
    assert response["Location"] == reverse("orders:rental", args=[rental.ref]) + "#extend"
    assert shown(response) == ["Extend by 3, 7 or 30 days."]
    assert rental.extensions.count() == 0


def test_one_time_password_address_opened_again_goes_to_the_rental_and_shows_nothing(client, customer, rental):
    """The revealing answer is the POST's alone (never cached); a GET of its address, e.g. a reload after leaving
    the page or a new tab, goes to the rental page and neither shows nor erases the password."""
    client.force_login(customer)
    url = reverse("orders:rental_reveal_secret", args=[rental.ref])
    response = client.get(url)
    assert response["Location"] == reverse("orders:rental", args=[rental.ref]) + "#machine-heading"
    assert OrderAccess.objects.get(order=rental).one_time_secret == "pw"  # still there to be shown once
    shown_once = client.post(url)
    assert shown_once.context["revealed_secret"] == "pw"
    assert "no-store" in shown_once["Cache-Control"]
    page = client.get(url, follow=True)
    assert page.status_code == 200
    assert "pw</code>" not in page.content.decode()

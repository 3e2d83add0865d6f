"""The countdowns in the reader's language in real Chromium (decision 0442): the script writes the server's words
("2 días y 23 horas"), not "2d 23h left"; the payment instructions' one stands under "Time left", and the clock time
under "Valid until" stays (QA: the script had replaced it, "Válidas hasta: quedan 29:59")."""

import re
from datetime import UTC

import pytest
from django.utils import translation
from playwright.sync_api import expect

from conftest import make_running_rental
from gpurent.catalog.models import GpuModel
from gpurent.core.formats import duration_text
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from tests.browser.journeys import customer_on_an_unpaid_order

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VALID_UNTIL = {"es": "Válidas hasta", "vi": "Hiệu lực đến", "tr": "Geçerlilik sonu"}


@pytest.mark.parametrize("language", ["es", "vi", "tr"])
def test_the_countdowns_write_the_servers_words(live_server, page, demo_catalog, django_user_model, language):
    customer, order = customer_on_an_unpaid_order(page, live_server.url, django_user_model)
    customer.language = language  # the account's language: every page from now on is in it
    customer.save(update_fields=["language"])

    # Payment instructions: the clock time under "Valid until", minutes and seconds under "Time left".
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    page.goto(f"{live_server.url}/rentals/{order.ref}/")
    shown = page.get_by_test_id("intent")
    countdown = shown.locator("time.countdown")
    expect(countdown).to_have_text(re.compile(r"^(29|30):\d\d$"))
    page.wait_for_timeout(1_100)  # a tick of the script later
    clock = intent.expires_at.astimezone(UTC).strftime("%H:%M")
    expect(shown.locator(f"dt:text-is('{VALID_UNTIL[language]}') + dd")).to_have_text(f"{clock} UTC")

    # A running rental: the script's text is the server's (days and hours in words), after "Time left:".
    transfer_post(
        reference="deposit:B-COUNT",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(100_000),
    )
    rental: Order = make_running_rental(customer, GpuModel.objects.get(slug="h100-80gb"))
    assert rental.term_ends_at is not None
    page.goto(f"{live_server.url}/rentals/{rental.ref}/")
    with translation.override(language):
        # The term is 3 days from now: 2 days and 23 hours are left for the next hour.
        shown = duration_text(3 * 86_400 - 60)
    term = page.get_by_test_id("term-left").locator("time.countdown")
    expect(term).to_have_text(shown)
    page.wait_for_timeout(1_100)  # a tick of the script later, still the same words
    expect(term).to_have_text(shown)
    assert not re.search(r"\d+[dh]\b", term.inner_text())

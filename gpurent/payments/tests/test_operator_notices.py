"""Errors meant for operators reach the back office (issue 15): when the rate source fails, the customer gets the
plain message and the code, and the payments desk shows the detail (the HTTP status, the rate's age)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.core.errors import ApplicationError
from gpurent.core.models import OperatorNotice
from gpurent.core.notices import notify_operators
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report
from gpurent.payments.models import PaymentIntent
from gpurent.payments.tests.test_rates import rate_server  # noqa: F401 (a shared fixture)

pytestmark = pytest.mark.django_db

PAYMENTS_DESK = "/backoffice/backoffice/paymentsdesk/"
NOTICES = "/backoffice/core/operatornotice/"


@pytest.fixture
def failing_rates(rate_server, settings):  # noqa: F811 (the fixture imported above)
    settings.PAYMENTS_RATE_SOURCE = "http"
    settings.PAYMENTS_RATE_URL = rate_server.url
    rate_server.answer({"USDT": {"usd": "1.0", "as_of": "2026-12-02T10:00:00Z"}}, 503)
    return rate_server


@pytest.fixture
def operator(django_user_model):
    user = django_user_model.objects.create_user(
        "ops@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="payments"))
    return user


def test_a_failing_rate_source_tells_the_customer_the_code_and_the_desk_the_http_status(
    client, customer, order, operator, failing_rates
):
    client.force_login(customer)
    page = reverse("orders:rental", args=[order.ref])
    response = client.post(
        reverse("payments:order_intent", args=[order.ref]), {"pair": "USDT/tron", "idempotency_key": "k1"}, follow=True
    )
    html = response.content.decode()
    assert response.redirect_chain[-1][0].startswith(page)
    assert "No current exchange rate is available for this asset." in html
    assert "HTTP 503" not in html
    assert not PaymentIntent.objects.exists()

    notice = OperatorNotice.objects.get()
    assert (notice.code, notice.detail, notice.count) == ("rate_unavailable", "The rate service answered HTTP 503.", 1)

    client.force_login(operator)
    desk = client.get(PAYMENTS_DESK).content.decode()
    assert "For operators: The rate service answered HTTP 503." in desk
    assert client.get(NOTICES).status_code == 200


def test_the_api_answers_the_plain_message_and_counts_the_notice(client, customer, order, failing_rates):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}
    for key in ("k-1", "k-2"):
        response = client.post(
            f"/api/v1/orders/{order.ref}/intents",
            {"asset": "USDT", "network": "tron"},
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=key,
            **auth,
        )
        assert response.status_code == 503
        assert response.json() == {
            "error": {
                "code": "rate_unavailable",
                "message": "No current exchange rate is available for this asset. Try again later.",
            }
        }
    assert OperatorNotice.objects.get().count == 2


def test_a_stale_rate_says_its_age_on_the_desk_and_old_notices_leave_the_banner(client, operator):
    now = timezone.now()
    notify_operators(ApplicationError("plain", detail="The latest USDT exchange rate is 20 minutes old."), now=now)
    notify_operators(ApplicationError("plain", detail="An old failure."), now=now - timedelta(hours=2))
    notify_operators(ApplicationError("no detail"))
    assert OperatorNotice.objects.count() == 2
    client.force_login(operator)
    desk = client.get(PAYMENTS_DESK).content.decode()
    assert "20 minutes old" in desk
    assert "An old failure." not in desk


def test_a_reported_payment_emails_the_operators_a_link_to_its_own_desk_page(
    client, customer, order, operator, django_capture_on_commit_callbacks
):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    with django_capture_on_commit_callbacks(execute=True):
        intent_report(intent=intent)
    email = next(m for m in mail.outbox if m.to == [operator.email])
    link = next(line for line in email.body.splitlines() if "payments desk" in line).split()[-1]
    assert link.endswith(f"{PAYMENTS_DESK}{intent.pk}/change/")

    client.force_login(operator)
    page = client.get(link.removeprefix(settings.SITE_URL.rstrip("/")))
    assert page.status_code == 200
    assert intent.address in page.content.decode()

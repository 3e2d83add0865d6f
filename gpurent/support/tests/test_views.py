"""Support pages: the form, what the customer is told was removed, escaping, idempotency, and owner scoping."""

import pytest
from django.urls import reverse

from gpurent.core.idempotency.request import request_fingerprint
from gpurent.core.models import IdempotencyKey
from gpurent.support.enums import RequestStatus
from gpurent.support.models import SupportMessage, SupportRequest
from gpurent.support.tests.conftest import FAKE_AWS_KEY, FAKE_SEED

pytestmark = pytest.mark.django_db


def form_data(order=None, key="key-1", **overrides):
    data = {
        "subject": "Training hangs",
        "order": order.ref if order else "",
        "gpu": "",
        "library_versions": "torch 2.4.1",
        "reproduction_steps": "accelerate launch train.py",
        "expected": "it trains",
        "observed": "NCCL timeout",
        "logs": "",
        "idempotency_key": key,
    }
    data.update(overrides)
    return data


def test_support_pages_require_login(client, support_request):
    for url in [
        reverse("support:list"),
        reverse("support:create"),
        reverse("support:detail", args=[support_request.ref]),
    ]:
        response = client.get(url)
        assert response.status_code == 302
        assert "/account/login" in response["Location"] or "login" in response["Location"]


def test_request_create_form_offers_only_the_customers_orders(client, customer, order, other_customer, gpu):
    client.force_login(customer)
    page = client.get(reverse("support:create"), {"order": order.ref})
    assert page.status_code == 200
    assert [choice.ref for choice in page.context["form"].fields["order"].queryset] == [order.ref]
    assert page.context["form"]["order"].value() == order.ref
    assert 'name="idempotency_key"' in page.content.decode()


def test_request_create_redacts_and_shows_what_was_removed_and_where(client, customer, order):
    client.force_login(customer)
    logs = f"start\nexport AWS_ACCESS_KEY_ID={FAKE_AWS_KEY}\n{FAKE_SEED}"
    response = client.post(reverse("support:create"), form_data(order, logs=logs), follow=True)
    page = response.content.decode()
    created = SupportRequest.objects.get()
    assert response.redirect_chain == [(reverse("support:detail", args=[created.ref]), 302)]
    assert FAKE_AWS_KEY not in page
    assert "sausage" not in page
    assert "We removed 2 secrets before saving:" in page
    assert "AWS access key in ‘Messages and logs’, line 2" in page
    assert "Wallet seed phrase in ‘Messages and logs’, line 3" in page
    assert '<mark class="redacted">[REDACTED: AWS access key]</mark>' in page


def test_request_create_twice_with_one_key_creates_one_request(client, customer):
    client.force_login(customer)
    first = client.post(reverse("support:create"), form_data())
    second = client.post(reverse("support:create"), form_data())
    assert first["Location"] == second["Location"]
    assert SupportRequest.objects.count() == 1


def test_request_create_fingerprint_is_made_from_redacted_text(client, customer):
    client.force_login(customer)
    client.post(reverse("support:create"), form_data(logs="password=abc123!"))
    stored = IdempotencyKey.objects.get(key="key-1")
    params = {name: [value] for name, value in form_data(logs="password=[REDACTED: Password]").items()}
    del params["idempotency_key"]
    assert stored.fingerprint == request_fingerprint("POST", reverse("support:create"), params)


def test_request_create_shows_form_errors_and_saves_nothing(client, customer, other_customer, order, settings):
    settings.SUPPORT_FIELD_MAX_BYTES = 1000
    client.force_login(other_customer)
    response = client.post(reverse("support:create"), form_data(order, observed="", logs="x" * 1001))
    page = response.content.decode()
    assert response.status_code == 422
    assert "Choose one of your own orders, or none." in page
    assert "This field is too long: at most 1 kB." in page
    assert "This field is required." in page
    assert not SupportRequest.objects.exists()


def test_request_create_rate_limited_shows_a_clear_message(client, customer, settings):
    settings.SUPPORT_REQUEST_RATE_LIMITS = [(3600, 1)]
    client.force_login(customer)
    client.post(reverse("support:create"), form_data(key="a"))
    response = client.post(reverse("support:create"), form_data(key="b", subject="again"))
    assert response.status_code == 429
    assert "You can send at most 1 support request in an hour." in response.content.decode()
    assert SupportRequest.objects.count() == 1


def test_request_pages_escape_everything_the_customer_wrote(client, customer, support_request):
    client.force_login(customer)
    attack = "<script>alert('x')</script>"
    client.post(reverse("support:create"), form_data(subject=attack, logs=attack, key="xss"))
    created = SupportRequest.objects.get(subject=attack)
    client.post(reverse("support:message_create", args=[created.ref]), {"body": attack, "idempotency_key": "m"})
    for url in [reverse("support:list"), reverse("support:detail", args=[created.ref])]:
        page = client.get(url).content.decode()
        assert "<script>alert" not in page
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page


def test_message_create_adds_to_the_thread_once(client, customer, support_request):
    client.force_login(customer)
    url = reverse("support:message_create", args=[support_request.ref])
    first = client.post(url, {"body": "any news? token=abcd1234efgh", "idempotency_key": "m1"})
    client.post(url, {"body": "any news? token=abcd1234efgh", "idempotency_key": "m1"})
    message = SupportMessage.objects.get()
    assert first["Location"].endswith(f"#message-{message.pk}")
    assert message.body == "any news? token=[REDACTED: API key or secret]"
    page = client.get(reverse("support:detail", args=[support_request.ref])).content.decode()
    assert "API key or secret on line 1" in page


def test_message_create_empty_body_shows_an_error(client, customer, support_request):
    client.force_login(customer)
    response = client.post(
        reverse("support:message_create", args=[support_request.ref]), {"body": " ", "idempotency_key": "m1"}
    )
    assert response.status_code == 422
    assert "This field is required." in response.content.decode()


def test_request_close_closes_and_a_message_reopens(client, customer, support_request):
    client.force_login(customer)
    client.post(reverse("support:close", args=[support_request.ref]), {"idempotency_key": "k-close"})
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.CLOSED
    client.post(reverse("support:message_create", args=[support_request.ref]), {"body": "hi", "idempotency_key": "k"})
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.OPEN


def test_request_close_without_the_pages_key_is_refused_and_closes_nothing(client, customer, support_request):
    client.force_login(customer)
    page = client.get(reverse("support:detail", args=[support_request.ref])).content.decode()
    assert page.count('name="idempotency_key"') == 2  # the close button's form and the message form
    client.post(reverse("support:close", args=[support_request.ref]))
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.OPEN


def test_support_list_shows_only_my_requests(client, other_customer, support_request):
    client.force_login(other_customer)
    page = client.get(reverse("support:list")).content.decode()
    assert support_request.ref not in page
    assert "No support requests yet" in page


@pytest.mark.parametrize(
    ("name", "method", "data"),
    [
        ("support:detail", "get", None),
        ("support:message_create", "post", {"body": "hello", "idempotency_key": "idor"}),
        ("support:close", "post", {}),
    ],
)
def test_another_customers_request_is_not_found(client, other_customer, support_request, name, method, data):
    client.force_login(other_customer)
    url = reverse(name, args=[support_request.ref])
    response = client.get(url) if method == "get" else client.post(url, data)
    assert response.status_code == 404
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.OPEN
    assert not SupportMessage.objects.exists()


@pytest.mark.parametrize(("language", "label"), [("es", "Modelo de GPU"), ("vi", "Mẫu GPU"), ("tr", "GPU modeli")])
def test_the_gpu_field_label_starts_with_a_capital_in_every_language(client, customer, language, label):
    """The model's verbose name "modelo de GPU" is lower case; the form label has a msgid of its own."""
    client.force_login(customer)
    page = client.get(reverse("support:create"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f">{label}</label>" in page

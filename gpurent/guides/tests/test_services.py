"""Quote request services: stored once with an acknowledgement email, validated, rate-limited, audited."""

from dataclasses import replace

import pytest
from django.core import mail

from gpurent.accounts.models import GuestSession
from gpurent.accounts.owners import Owner
from gpurent.core.errors import InvalidRequest
from gpurent.core.models import AuditLogEntry, OutboundEmail
from gpurent.guides.errors import QuoteRateLimited
from gpurent.guides.models import QuoteRequest
from gpurent.guides.services import QuoteDetails, client_ip_hash, quote_request_create, quote_request_set_status

pytestmark = pytest.mark.django_db

DETAILS = QuoteDetails(
    gpu_slug="a100-80gb",
    guide_workload="vision-finetuning",
    guide_scope="proof-of-concept",
    model_name="vit-base-patch16-224",
    endpoint="ssh",
    support_level="assisted",
    delivery_scope="proof-of-concept",
    expected_load="One run a week.",
    contact_email="ada@example.com",
    sample_data="a,b",
)


def test_quote_request_create_stores_it_and_emails_an_acknowledgement_once(
    gpu, customer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        quote = quote_request_create(owner=Owner(user=customer), details=DETAILS, client_ip="203.0.113.9")
    assert quote.user == customer
    assert quote.guest is None
    assert quote.status == "new"
    assert quote.client_ip_hash == client_ip_hash("203.0.113.9")
    assert "203.0.113.9" not in quote.client_ip_hash
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ada@example.com"]
    assert message.subject == f"We received your quote request {quote.short_id}"
    assert "vit-base-patch16-224" in str(message.body)
    assert "A100 80GB" in str(message.body)
    assert OutboundEmail.objects.filter(key=f"quote-ack:{quote.public_id}").count() == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"gpu_slug": "tpu-v5"}, "This GPU model is not on sale."),
        ({"endpoint": "fax"}, "Choose a workload, scope, endpoint and support level from the lists."),
        ({"model_name": "  "}, "Name the model, in at most 200 characters."),
        ({"expected_load": ""}, "Describe the expected request load, in at most 500 characters."),
        ({"sample_data": "x" * 20_001}, "Keep the sample data under 20000 characters; we ask for the rest later."),
        ({"contact_email": "not-an-email"}, "Enter a valid contact email."),
    ],
)
def test_quote_request_create_bad_input_writes_nothing(gpu, customer, change, message):
    details = QuoteDetails(**{**DETAILS.__dict__, **change})
    with pytest.raises(InvalidRequest, match=message):
        quote_request_create(owner=Owner(user=customer), details=details)
    assert QuoteRequest.objects.count() == 0
    assert OutboundEmail.objects.count() == 0


def test_quote_request_create_needs_exactly_one_owner(gpu):
    with pytest.raises(InvalidRequest):
        quote_request_create(owner=Owner(), details=DETAILS)


def test_quote_request_create_rate_limited_per_owner(gpu, settings):
    settings.GUIDES_QUOTE_RATE_LIMIT = 2
    guest = GuestSession.objects.create()
    for _ in range(2):
        quote_request_create(owner=Owner(guest=guest), details=DETAILS)
    with pytest.raises(QuoteRateLimited):
        quote_request_create(owner=Owner(guest=guest), details=DETAILS)
    assert QuoteRequest.objects.count() == 2


def test_quote_request_create_rate_limited_per_address_across_sessions(gpu, settings):
    settings.GUIDES_QUOTE_RATE_LIMIT = 2
    for _ in range(2):
        quote_request_create(
            owner=Owner(guest=GuestSession.objects.create()), details=DETAILS, client_ip="198.51.100.7"
        )
    with pytest.raises(QuoteRateLimited) as raised:
        quote_request_create(
            owner=Owner(guest=GuestSession.objects.create()), details=DETAILS, client_ip="198.51.100.7"
        )
    assert (raised.value.status, raised.value.code) == (429, "rate_limited")
    quote_request_create(owner=Owner(guest=GuestSession.objects.create()), details=DETAILS, client_ip="198.51.100.8")


def test_quote_request_set_status_writes_an_audit_row(gpu, customer, django_user_model):
    operator = django_user_model.objects.create_user("op@example.com", "x" * 16, is_staff=True)
    quote = quote_request_create(owner=Owner(user=customer), details=DETAILS)
    quote_request_set_status(quote=quote, status="answered", note="Sent an offer.", actor=operator)
    entry = AuditLogEntry.objects.get(action="quote_request.status")
    assert entry.actor == operator
    assert entry.target_id == str(quote.pk)
    before, after = entry.before or {}, entry.after or {}
    assert (before["status"], after["status"], after["operator_note"]) == (
        "new",
        "answered",
        "Sent an offer.",
    )
    with pytest.raises(InvalidRequest):
        quote_request_set_status(quote=quote, status="won", note="", actor=operator)


def test_quote_request_create_redacts_secrets_before_saving_and_emailing(
    gpu, customer, django_capture_on_commit_callbacks
):
    """Issue 12: a key pasted into the free text is removed before the row is written and is never e-mailed."""
    token = "hf_" + "Zq8" * 11 + "x"
    password = "Tr0ub4dor&3x"
    details = replace(
        DETAILS,
        model_name=f"meta-llama/Llama-3-8B with HF_TOKEN={token}",
        expected_load=f"10 rps; db at postgres://app:{password}@db.internal:5432/app",
        sample_data=f"curl -H 'Authorization: Bearer {token}' https://api.example.com/v1",
    )
    with django_capture_on_commit_callbacks(execute=True):
        quote = quote_request_create(owner=Owner(user=customer), details=details)
    quote.refresh_from_db()
    assert quote.model_name == "meta-llama/Llama-3-8B with HF_TOKEN=[REDACTED: Hugging Face token]"
    assert quote.expected_load == "10 rps; db at postgres://app:[REDACTED: Password in a URL]@db.internal:5432/app"
    assert (
        quote.sample_data == "curl -H 'Authorization: Bearer [REDACTED: Hugging Face token]' https://api.example.com/v1"
    )
    sent = [str(message.body) + str(getattr(message, "alternatives", "")) for message in mail.outbox]
    stored = [str(row.__dict__) for row in OutboundEmail.objects.all()]
    assert sent
    assert stored
    for text in (*sent, *stored):
        assert token not in text
        assert password not in text
    assert "[REDACTED: Hugging Face token]" in sent[0]

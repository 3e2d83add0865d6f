"""Every single-line label a customer types (a name, a subject, a question) is stored without bidirectional
controls or zero-width characters, through the page and the API alike, and one of nothing else is refused as
empty (issue 32, decision 0377: `core.invisible.label_clean`, called by each service)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gpurent.accounts.models import ApiToken, SshKey, User
from gpurent.accounts.owners import Owner
from gpurent.accounts.services import api_token_create, profile_update, user_register
from gpurent.core.errors import InvalidRequest
from gpurent.core.testing import public_key
from gpurent.guides.services import QuoteDetails, quote_request_create
from gpurent.journal.errors import JournalInputInvalid
from gpurent.journal.models import JournalEntry
from gpurent.journal.records import EntryDraft, RunDraft
from gpurent.journal.services import entry_create, run_create
from gpurent.orders.services import Contact, order_place
from gpurent.support.models import SupportRequest
from gpurent.support.services import RequestInput, support_request_create

pytestmark = pytest.mark.django_db

PASSWORD = "a long labelled passphrase"
RLO, PDF, ZWSP, LRI, PDI = "\u202e", "\u202c", "\u200b", "\u2066", "\u2069"
# "bank.com" written backwards behind a right-to-left override reads "bank.com" on screen: one customer's text
# disguised as a reference to another.
DISGUISED = f"Refund {RLO}moc.knab{PDF} {ZWSP}ada"
SHOWN = "Refund moc.knab ada"
NOTHING = f"{RLO}{ZWSP}{LRI}{PDI}"


def _has_invisible(text: str) -> bool:
    return any(char in text for char in (RLO, PDF, ZWSP, LRI, PDI))


@pytest.fixture
def customer(db) -> User:
    return User.objects.create_user("ada@example.com", PASSWORD, first_name="Ada", last_name="Lovelace")


@pytest.fixture
def bearer(customer) -> dict[str, str]:
    _, secret = api_token_create(user=customer, name="laptop")
    return {"Authorization": f"Bearer {secret}"}


def test_an_ssh_key_name_from_the_api_and_the_account_page_is_clean(customer, bearer, client):
    answer = client.post(
        "/api/v1/ssh-keys",
        {"name": DISGUISED, "public_key": public_key("a")},
        content_type="application/json",
        headers={**bearer, "Idempotency-Key": "k1"},
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["name"] == SHOWN
    client.force_login(customer)
    page = client.post(
        reverse("accounts:ssh_key_create"),
        {"name": f"{LRI}desk{PDI}", "public_key": public_key("b"), "idempotency_key": "k2"},
    )
    assert page.status_code == 302
    assert sorted(SshKey.objects.values_list("name", flat=True)) == [SHOWN, "desk"]
    refused = client.post(
        "/api/v1/ssh-keys",
        {"name": NOTHING, "public_key": public_key("c")},
        content_type="application/json",
        headers={**bearer, "Idempotency-Key": "k3"},
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["message"] == "Give the key a name."


def test_a_support_subject_from_the_api_and_the_page_is_clean(customer, bearer, client):
    answer = client.post(
        "/api/v1/support/requests",
        {"subject": DISGUISED, "observed": f"hangs {RLO}here"},
        content_type="application/json",
        headers={**bearer, "Idempotency-Key": "s1"},
    )
    assert answer.status_code == 201, answer.content
    client.force_login(customer)
    page = client.post(
        reverse("support:create"), {"subject": f"{ZWSP}NCCL{ZWSP}", "observed": "hangs", "idempotency_key": "s2"}
    )
    assert page.status_code == 302
    assert sorted(SupportRequest.objects.values_list("subject", flat=True)) == ["NCCL", SHOWN]
    # Free text keeps what the customer sent: it is shown escaped to operators instead.
    assert SupportRequest.objects.get(subject=SHOWN).observed == f"hangs {RLO}here"
    with pytest.raises(InvalidRequest, match="short subject"):
        support_request_create(owner=customer, data=RequestInput(subject=NOTHING, observed="hangs"))


def test_a_journal_question_and_a_run_name_are_clean(customer, bearer, client):
    answer = client.post(
        "/api/v1/journal/entries",
        {"question": DISGUISED},
        content_type="application/json",
        headers={**bearer, "Idempotency-Key": "j1"},
    )
    assert answer.status_code == 201, answer.content
    entry = JournalEntry.objects.get()
    assert entry.question == SHOWN
    assert run_create(entry=entry, draft=RunDraft(name=f"bf16{ZWSP} b16")).name == "bf16 b16"
    with pytest.raises(JournalInputInvalid):
        entry_create(owner=Owner(user=customer), draft=EntryDraft(question=NOTHING))


def test_account_names_and_token_names_are_clean(customer, client):
    registered = user_register(
        request=None, first_name=f"{RLO}Eve", last_name=f"Lind{ZWSP}", email="eve@example.com", password=PASSWORD
    )
    assert (registered.first_name, registered.last_name) == ("Eve", "Lind")
    profile_update(user=customer, first_name=DISGUISED, last_name="Lovelace")
    assert User.objects.get(pk=customer.pk).first_name == SHOWN
    token, _ = api_token_create(user=customer, name=f"ci{LRI} runner{PDI}")
    assert ApiToken.objects.get(pk=token.pk).name == "ci runner"
    with pytest.raises(InvalidRequest, match="first name"):
        profile_update(user=customer, first_name=NOTHING, last_name="Lovelace")


def test_an_order_contact_and_a_quote_model_name_are_clean(customer, gpu):
    contact = Contact(f"{RLO}Ada", f"Love{ZWSP}lace", "ada@example.com")
    order = order_place(owner=customer, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=contact)
    assert (order.contact_first_name, order.contact_last_name) == ("Ada", "Lovelace")
    with pytest.raises(InvalidRequest):
        order_place(
            owner=customer,
            gpu_slug=gpu.slug,
            term_days=3,
            lots=1,
            environment="ubuntu",
            contact=Contact(NOTHING, "Lovelace", "ada@example.com"),
        )
    quote = quote_request_create(
        owner=Owner(user=customer),
        details=QuoteDetails(
            gpu_slug=gpu.slug,
            guide_workload="vision-finetuning",
            guide_scope="proof-of-concept",
            model_name=f"vit{RLO}-base",
            endpoint="ssh",
            support_level="assisted",
            delivery_scope="proof-of-concept",
            expected_load="weekly",
            contact_email=customer.email,
        ),
    )
    assert quote.model_name == "vit-base"
    assert not _has_invisible(quote.model_name)

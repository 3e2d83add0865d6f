"""A form target that answers with a page rendered from its POST (the form again with its errors), in every app:
a GET of its address (a reload after leaving, Back, a new tab) goes to the page and section holding the form,
and the footer's language switch on the page rendered from the POST leads there too, never to the POST-only
address, which answered a bare 405 (QA walk 2, defect 1)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from gpurent.accounts.models import User
from gpurent.support.services import RequestInput, support_request_create

pytestmark = pytest.mark.django_db

REF = "R-AAAA-BBBB"
ESTIMATE = uuid.UUID(int=7)
GUIDE = ("a100-80gb", "fine-tuning", "poc")
NEXT = re.compile(r'<input type="hidden" name="next" value="([^"]*)">')


@pytest.mark.parametrize(
    ("target", "args", "back"),
    [
        ("payments:top_up", [], reverse("payments:balance") + "#topup-heading"),
        ("payments:withdraw", [], reverse("payments:balance") + "#withdraw-heading"),
        ("orders:rental_extend", [REF], reverse("orders:rental", args=[REF]) + "#extend"),
        ("support:message_create", ["S-AAAA-BBBB"], reverse("support:detail", args=["S-AAAA-BBBB"]) + "#message-form"),
        ("sizing:result", [], reverse("sizing:estimate")),
        ("sizing:save", [], reverse("sizing:estimate")),
        ("sizing:measure", [ESTIMATE], reverse("sizing:detail", args=[ESTIMATE]) + "#measure-heading"),
        ("guides:quote_create", list(GUIDE), reverse("guides:detail", args=GUIDE) + "#quote"),
    ],
)
def test_get_of_a_form_target_goes_to_its_form(client, django_user_model, target, args, back):
    client.force_login(django_user_model.objects.create_user("ana@example.com", "a long private passphrase"))
    response = client.get(reverse(target, args=args))
    assert (response.status_code, response["Location"]) == (302, back)
    assert client.head(reverse(target, args=args))["Location"] == back
    assert client.put(reverse(target, args=args)).status_code == 405


def _switch_language_from(client, page) -> str:
    """Press "Español" in the footer of `page`; returns where the browser lands (following redirects)."""
    [following] = NEXT.findall(page.content.decode())
    switched = client.post(reverse("set_language"), {"language": "es", "next": following}, follow=True)
    assert switched.status_code == 200
    return switched.redirect_chain[-1][0]


def test_language_switch_after_a_refused_withdrawal_goes_to_the_withdrawal_form(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("ana@example.com", "a long private passphrase"))
    refused = client.post(
        reverse("payments:withdraw"),
        {"pair": "USDT/tron", "address": "bad", "amount_usd": "25", "idempotency_key": "k-1"},
    )
    assert refused.status_code == 422
    assert _switch_language_from(client, refused) == reverse("payments:balance") + "#withdraw-heading"


def test_language_switch_after_a_refused_support_message_goes_to_the_message_form(client, django_user_model):
    customer: User = django_user_model.objects.create_user("ana@example.com", "a long private passphrase")
    created = support_request_create(
        owner=customer,
        data=RequestInput(subject="Out of memory", observed="CUDA out of memory at batch 16"),
    )
    client.force_login(customer)
    refused = client.post(reverse("support:message_create", args=[created.ref]), {"body": "", "idempotency_key": "k-1"})
    assert refused.status_code == 422
    landed = _switch_language_from(client, refused)
    assert landed == reverse("support:detail", args=[created.ref]) + "#message-form"


def test_language_switch_on_a_get_page_stays_on_it(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("ana@example.com", "a long private passphrase"))
    page = client.get(reverse("payments:balance") + "?deposits=x")
    assert _switch_language_from(client, page) == reverse("payments:balance") + "?deposits=x"


def test_the_language_page_asked_again_without_a_token_leads_on_to_the_page_not_to_the_switch(db):
    browser = Client(enforce_csrf_checks=True)
    again = browser.post(reverse("set_language"), {"language": "es", "next": reverse("payments:balance")})
    assert again.status_code == 403
    assert NEXT.findall(again.content.decode()) == [reverse("payments:balance")] * 2

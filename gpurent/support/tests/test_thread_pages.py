"""A request's page shows its thread in pages and long texts shortened, so it stays under 150 KB whatever the
customer wrote; the whole texts are served as text to their owner only (decision 0352)."""

import html
import re

import pytest
from django.urls import reverse

from gpurent.support.enums import Author
from gpurent.support.models import SupportMessage, SupportRequest
from gpurent.support.tests.conftest import FAKE_AWS_KEY
from gpurent.support.views import MESSAGES_PER_PAGE

pytestmark = pytest.mark.django_db
ROWS = 57
PAGE_LIMIT = 150_000  # issue 16: every page <= 150 KB


def add_messages(support_request, count, body=lambda n: f"Message {n:03d}", redactions=()):
    SupportMessage.objects.bulk_create(
        SupportMessage(
            request=support_request,
            author_role=Author.CUSTOMER if n % 2 else Author.OPERATOR,
            body=body(n),
            redactions=list(redactions),
        )
        for n in range(count)
    )


def shown_messages(page):
    return re.findall(r"Message (\d{3})", page)


def earlier_link(page):
    found = re.search(r'<a href="(\?[^"]*earlier=[^"]+)" rel="next">', page)
    return html.unescape(found.group(1)).split("#")[0] if found else None


def test_the_thread_is_shown_newest_page_first_oldest_first_within_and_earlier_pages_lead_to_the_rest(
    client, customer, support_request
):
    add_messages(support_request, ROWS)
    client.force_login(customer)
    url = reverse("support:detail", args=[support_request.ref])
    pages = []
    query = ""
    while True:
        page = client.get(url + (query or "?q=kept")).content.decode()
        pages.append([int(n) for n in shown_messages(page)])
        assert 'name="body"' in page  # the message form is on every page
        if (query := earlier_link(page)) is None:
            break
    assert pages == [list(range(37, 57)), list(range(17, 37)), list(range(17))]
    assert len(pages[0]) == MESSAGES_PER_PAGE
    first = client.get(url + "?q=kept").content.decode()
    assert "q=kept" in earlier_link(first)  # the page's other parameters are kept


def test_a_bad_thread_cursor_shows_the_latest_messages(client, customer, support_request):
    add_messages(support_request, 25)
    client.force_login(customer)
    page = client.get(reverse("support:detail", args=[support_request.ref]), {"earlier": "not-a-cursor"})
    assert page.status_code == 200
    assert [int(n) for n in shown_messages(page.content.decode())] == list(range(5, 25))


def test_after_posting_the_customer_lands_on_the_latest_page_at_their_message(client, customer, support_request):
    add_messages(support_request, ROWS)
    client.force_login(customer)
    url = reverse("support:message_create", args=[support_request.ref])
    response = client.post(url, {"body": "Message 999", "idempotency_key": "k-1"})
    posted = SupportMessage.objects.get(body="Message 999")
    assert response.status_code == 302
    assert response["Location"] == reverse("support:detail", args=[support_request.ref]) + f"#message-{posted.pk}"
    page = client.get(response["Location"].split("#")[0]).content.decode()
    assert shown_messages(page)[-1] == "999"
    assert f'id="message-{posted.pk}"' in page


def test_long_texts_are_shortened_with_a_link_to_the_whole_text(client, customer, support_request):
    long_text = "".join(f"line {n}: value\n" for n in range(6000))
    SupportRequest.objects.filter(pk=support_request.pk).update(logs=long_text)
    add_messages(support_request, 1, body=lambda n: long_text)
    message = SupportMessage.objects.get()
    client.force_login(customer)
    page = client.get(reverse("support:detail", args=[support_request.ref])).content.decode()
    size = -(-len(long_text.encode()) // 1000)
    assert page.count(f"Shortened: {size} kB in all.") == 2
    assert reverse("support:message_text", args=[support_request.ref, message.pk]) in page
    assert reverse("support:field_text", args=[support_request.ref, "logs"]) in page
    assert "line 5999" not in page
    assert "line 100: value" in page


def test_the_whole_text_is_served_as_plain_text_to_its_owner(client, customer, support_request):
    client.force_login(customer)
    url = reverse("support:message_create", args=[support_request.ref])
    body = f"<script>alert(1)</script>\nkey={FAKE_AWS_KEY}\n" + "ü" * 40_000
    client.post(url, {"body": body, "idempotency_key": "k-1"})
    message = SupportMessage.objects.get()
    response = client.get(reverse("support:message_text", args=[support_request.ref, message.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'inline; filename="{support_request.ref}-message-{message.pk}.txt"'
    assert response["X-Content-Type-Options"] == "nosniff"
    text = response.content.decode()
    assert text == message.body
    assert text.startswith("<script>alert(1)</script>\nkey=[REDACTED: AWS access key]\n")  # stored redacted
    assert FAKE_AWS_KEY not in text
    assert text.endswith("ü" * 40_000)
    field = client.get(reverse("support:field_text", args=[support_request.ref, "observed"]))
    assert field.status_code == 200
    assert field["Content-Type"] == "text/plain; charset=utf-8"
    assert field.content.decode() == "hangs at step 1420"


def test_whole_texts_are_the_owners_only(client, customer, other_customer, support_request):
    add_messages(support_request, 1)
    message = SupportMessage.objects.get()
    message_url = reverse("support:message_text", args=[support_request.ref, message.pk])
    field_url = reverse("support:field_text", args=[support_request.ref, "observed"])
    assert client.get(message_url).status_code == 302  # to the log-in page
    client.force_login(other_customer)
    assert client.get(message_url).status_code == 404
    assert client.get(field_url).status_code == 404
    client.force_login(customer)
    assert client.get(reverse("support:field_text", args=[support_request.ref, "subject"])).status_code == 404
    assert client.get(reverse("support:field_text", args=[support_request.ref, "redactions"])).status_code == 404
    assert client.get(reverse("support:message_text", args=[support_request.ref, message.pk + 1])).status_code == 404
    # A message of another request, under the owner's own reference: not in this thread.
    theirs = SupportRequest.objects.create(
        ref="S-OTHER1", owner=other_customer, subject="x", last_message_at=message.created_at
    )
    add_messages(theirs, 1)
    other_message = SupportMessage.objects.get(request=theirs)
    assert client.get(reverse("support:message_text", args=[support_request.ref, other_message.pk])).status_code == 404


WORST_TEXTS = {
    "quotes": '"' * 100_000,
    "apostrophes and line ends": "'\n" * 50_000,
    "angle brackets": "<" * 100_000,
    "vietnamese": "Việt ngữ " * 8_000,
    "emoji": "😀" * 25_000,
    "markers": "[REDACTED: npm token]'" * 4_000,
}


@pytest.mark.parametrize("language", ["en", "vi"])
@pytest.mark.parametrize("kind", list(WORST_TEXTS))
def test_the_largest_request_page_stays_under_150_kb(client, customer, support_request, kind, language):
    """20 messages and 5 fields of 100 kB each, of the characters whose HTML is longest, each with thousands of
    findings; the subject at its 400 characters of quotes."""
    text = WORST_TEXTS[kind]
    findings = [{"field": "body", "line": n, "kind": "aws_access_key"} for n in range(1, 3001)]
    field_findings = [{**finding, "field": "logs"} for finding in findings]
    fields = dict.fromkeys(("library_versions", "reproduction_steps", "expected", "observed", "logs"), text)
    SupportRequest.objects.filter(pk=support_request.pk).update(subject='"' * 400, redactions=field_findings, **fields)
    add_messages(support_request, MESSAGES_PER_PAGE + 1, body=lambda n: text, redactions=findings)
    client.force_login(customer)
    response = client.get(reverse("support:detail", args=[support_request.ref]), HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.count('data-testid="shortened"') == MESSAGES_PER_PAGE + 5
    assert earlier_link(page) is not None
    assert len(response.content) <= PAGE_LIMIT

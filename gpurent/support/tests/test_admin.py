"""The back office: operators read a request and reply from its change page; customers' text stays read-only."""

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.contrib import admin
from django.core import mail
from django.urls import reverse

from gpurent.core.models import AuditLogEntry
from gpurent.support.admin import THREAD_SHOWN, SupportMessageInline
from gpurent.support.enums import Author, RequestStatus
from gpurent.support.models import SupportMessage, SupportRequest
from gpurent.support.tests.test_thread_pages import ROWS, add_messages

pytestmark = pytest.mark.django_db


def test_admin_reply_posts_a_redacted_operator_message(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert "NCCL timeout" in page.content.decode()
    key = _form_key(page.content.decode())
    reply = {"reply": "Set NCCL_P2P_DISABLE=1; api_key=abc123def456", "idempotency_key": key}
    response = client.post(url, {**reply, **_inline_management()})
    assert response.status_code == 302, response.content.decode()[:2000]
    message = SupportMessage.objects.get()
    assert (message.author_role, message.author) == (Author.OPERATOR, operator)
    assert message.body == "Set NCCL_P2P_DISABLE=1; api_key=[REDACTED: API key or secret]"
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.ANSWERED
    assert AuditLogEntry.objects.filter(action="support.reply").count() == 1


def test_a_double_submitted_reply_is_posted_and_emailed_once(
    client, operator, support_request, django_capture_on_commit_callbacks
):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    form = {"reply": "Try the 550 driver.", "idempotency_key": _form_key(client.get(url).content.decode())}
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url, {**form, **_inline_management()})
        second = client.post(url, {**form, **_inline_management()})  # a double click: the same page's key
    assert (first.status_code, second.status_code) == (302, 302)
    assert SupportMessage.objects.filter(author_role=Author.OPERATOR).count() == 1
    assert AuditLogEntry.objects.filter(action="support.reply").count() == 1
    assert len(mail.outbox) == 1
    assert support_request.ref in mail.outbox[0].body


def test_a_reply_without_an_idempotency_key_is_refused(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    response = client.post(url, {"reply": "Try the 550 driver.", **_inline_management()})
    assert response.status_code == 302
    assert not SupportMessage.objects.exists()


def test_admin_save_without_reply_changes_nothing(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    client.post(url, {"reply": "", **_inline_management()})
    assert not SupportMessage.objects.exists()
    assert not AuditLogEntry.objects.exists()


def test_admin_close_action_closes_and_audits_once_per_the_lists_key(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_changelist")
    key = _form_key(client.get(url).content.decode())
    posted = {"action": "close_requests", "_selected_action": [support_request.pk], "idempotency_key": key}
    first = client.post(url, posted, follow=True)
    again = client.post(url, posted, follow=True)
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.CLOSED
    assert AuditLogEntry.objects.filter(action="support.close").count() == 1
    assert first.redirect_chain == again.redirect_chain == [(url, 302)]
    assert "1 request closed." in first.content.decode()
    assert "1 request closed." not in again.content.decode()  # a replay says nothing new


def test_admin_close_action_without_the_lists_key_is_refused(client, operator, support_request):
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_changelist")
    client.post(url, {"action": "close_requests", "_selected_action": [support_request.pk]})
    support_request.refresh_from_db()
    assert support_request.status != RequestStatus.CLOSED
    assert not AuditLogEntry.objects.filter(action="support.close").exists()


def test_admin_is_closed_to_customers(client, customer, support_request):
    client.force_login(customer)
    response = client.get(reverse("admin:support_supportrequest_change", args=[support_request.pk]))
    assert response.status_code == 302


def test_the_change_page_lists_the_newest_messages_with_the_count_and_a_link_to_all(client, operator, support_request):
    add_messages(support_request, ROWS)
    client.force_login(operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    page = client.get(url).content.decode()
    shown = [int(n) for n in re.findall(r"Message (\d{3})", page)]
    assert shown == list(range(ROWS - THREAD_SHOWN, ROWS))
    assert f"{ROWS} messages · the newest {THREAD_SHOWN} are listed below" in page
    everything = reverse("admin:support_supportmessage_changelist") + f"?request__id__exact={support_request.pk}"
    assert everything.replace("&", "&amp;") in page
    listed = client.get(everything)
    assert listed.status_code == 200
    assert len(re.findall(r"Message (\d{3})", listed.content.decode())) == ROWS
    # The operator still replies from the same page, and the reply is among the newest.
    reply = {"reply": "Try NCCL_P2P_DISABLE=1", "idempotency_key": _form_key(page), "_continue": "1"}
    response = client.post(url, {**reply, **_inline_management()}, follow=True)
    assert SupportMessage.objects.filter(author_role=Author.OPERATOR, body=reply["reply"]).exists()
    assert "Try NCCL_P2P_DISABLE=1" in response.content.decode()


def test_a_long_message_is_shortened_on_the_change_page_and_whole_on_its_own(client, operator, support_request):
    long_text = "".join(f"line {n}: value\n" for n in range(6000))
    add_messages(support_request, 1, body=lambda n: long_text)
    message = SupportMessage.objects.get()
    client.force_login(operator)
    page = client.get(reverse("admin:support_supportrequest_change", args=[support_request.pk])).content.decode()
    assert "line 100: value" in page
    assert "line 5999" not in page
    whole = reverse("admin:support_supportmessage_change", args=[message.pk])
    assert whole in page
    assert "line 5999: value" in client.get(whole).content.decode()


def test_the_inline_reads_only_the_newest_messages(operator, support_request, rf):
    add_messages(support_request, ROWS)
    request = rf.get("/")
    request.user = operator
    inline = SupportMessageInline(SupportRequest, admin.site)
    formset = inline.get_formset(request, support_request)(
        instance=support_request, queryset=inline.get_queryset(request)
    )
    assert [message.body for message in formset.get_queryset()] == [f"Message {n:03d}" for n in range(37, ROWS)]
    assert len(formset.forms) == THREAD_SHOWN


def _form_key(page: str) -> str:
    found = re.search(r'name="idempotency_key" value="([^"]+)"', page)
    assert found, "the change page carries no idempotency key"
    return found.group(1)


def _inline_management():
    prefix = "messages"
    return {
        f"{prefix}-TOTAL_FORMS": "0",
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def test_the_reply_field_says_the_customers_language(client, operator, customer, support_request):
    customer.language = "vi"
    customer.save(update_fields=["language"])
    client.force_login(operator)
    page = client.get(reverse("admin:support_supportrequest_change", args=[support_request.pk])).content.decode()
    answer = page.split(">Answer</h2>", 1)[1]
    shown = r"Customer&#x27;s language:</label>\s*<div class=\"readonly\"><strong>Tiếng Việt \(vi\)</strong>"
    assert re.search(shown + " — write in it.", answer)
    assert answer.index("Customer&#x27;s language") < answer.index('name="reply"')


def test_a_customer_without_a_language_is_written_to_in_the_shops_default(client, operator, support_request):
    client.force_login(operator)
    page = client.get(reverse("admin:support_supportrequest_change", args=[support_request.pk])).content.decode()
    assert "<strong>English (en)</strong> — not chosen, the shop&#x27;s default: write in it." in page


def test_the_request_pages_write_moments_as_the_desks_do(client, operator, support_request):
    """ "06 Dec 2026, 10:53 UTC", as the desks and the order page write them, not "Dec. 6, 2026, 10:53 a.m."."""
    when = datetime(2026, 12, 6, 10, 53, tzinfo=UTC)
    SupportRequest.objects.filter(pk=support_request.pk).update(created_at=when, last_message_at=when)
    add_messages(support_request, 2)
    support_request.messages.update(created_at=when)
    client.force_login(operator)
    pages = [
        reverse("admin:support_supportrequest_change", args=[support_request.pk]),
        reverse("admin:support_supportrequest_changelist"),
        reverse("admin:support_supportmessage_changelist"),
        reverse("admin:support_supportmessage_change", args=[support_request.messages.first().pk]),
    ]
    for url in pages:
        page = client.get(url).content.decode()
        assert "06 Dec 2026, 10:53 UTC" in page, url
        assert "a.m." not in page, url
        assert "Dec. 6" not in page, url
    change = client.get(pages[0]).content.decode()
    assert re.search(r"Created at:</label>\s*<div[^>]*>06 Dec 2026, 10:53 UTC", change)
    assert re.search(r"Last activity:</label>\s*<div[^>]*>06 Dec 2026, 10:53 UTC", change)


def test_the_thread_has_no_caption_above_each_message(client, operator, support_request):
    """QA walk 2, defect 23: Django's tabular inline put each message's name ("1 operator 2026-12-06 14:03") above
    its row; the page's stylesheet hides that caption in the thread, whose columns say the same."""
    add_messages(support_request, 1)
    client.force_login(operator)
    page = client.get(reverse("admin:support_supportrequest_change", args=[support_request.pk])).content.decode()
    assert 'id="messages-group"' in page
    assert 'href="/static/support/admin.css"' in page
    css = (settings.BASE_DIR / "gpurent/support/static/support/admin.css").read_text()
    assert "#messages-group .tabular td.original p { display: none; }" in css

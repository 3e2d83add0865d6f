"""The support inbox as an operator works it (QA walk of the back office, defects 6 and 17): the support role is
e-mailed when a request waits for it, the list is an inbox of the requests waiting for us, oldest first, and the
request's page answers with "Send reply" (refusing an empty one) and "Close the request"."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from gpurent.core.models import AuditLogEntry, OutboundEmail
from gpurent.support.enums import Author, RequestStatus
from gpurent.support.models import SupportMessage, SupportRequest
from gpurent.support.services import RequestInput, support_message_post, support_request_create
from gpurent.support.tests.test_admin import _form_key, _inline_management

pytestmark = pytest.mark.django_db

INBOX = "/backoffice/support/supportrequest/"


@pytest.fixture
def support_operator(django_user_model):
    user = django_user_model.objects.create_user(
        "sam@shop.example", "passphrase 12", first_name="Sam", last_name="S", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="support"))
    return user


@pytest.fixture
def payments_operator(django_user_model):
    user = django_user_model.objects.create_user(
        "pia@shop.example", "passphrase 12", first_name="Pia", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="payments"))
    return user


def _open(owner, subject="CUDA OOM on A100"):
    return support_request_create(owner=owner, data=RequestInput(subject=subject, observed="out of memory"))


def _operator_mail(to):
    return [m for m in mail.outbox if m.to == [to]]


# --- Defect 6: who is told, and the inbox -----------------------------------------------------------------------


def test_the_support_role_exists_and_sees_the_inbox_only(client, support_operator):
    codenames = set(Group.objects.get(name="support").permissions.values_list("codename", flat=True))
    assert codenames == {"view_supportrequest", "change_supportrequest", "view_supportmessage"}
    client.force_login(support_operator)
    assert client.get(INBOX).status_code == 200
    assert client.get("/backoffice/backoffice/paymentsdesk/").status_code == 403
    assert client.get("/backoffice/orders/order/").status_code == 403


def test_a_new_request_and_each_follow_up_email_the_support_operators_once(
    customer, support_operator, payments_operator, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        request = _open(customer)
    [opened] = _operator_mail(support_operator.email)
    assert opened.subject == f"New support request {request.ref}"
    assert "ada@example.com opened support request" in opened.body
    assert reverse("admin:support_supportrequest_change", args=[request.pk]) in opened.body
    assert "out of memory" not in opened.body  # what the customer wrote stays behind the login
    assert not _operator_mail(payments_operator.email)  # only the support role

    with django_capture_on_commit_callbacks(execute=True):
        first, _ = support_message_post(request=request, author=customer, role=Author.CUSTOMER, body="Any news?")
        second, _ = support_message_post(request=request, author=customer, role=Author.CUSTOMER, body="Still there?")
    follow_ups = _operator_mail(support_operator.email)[1:]
    assert [m.subject for m in follow_ups] == [f"Support request {request.ref}: the customer wrote again"] * 2
    keys = set(OutboundEmail.objects.filter(template="backoffice/support_request").values_list("key", flat=True))
    assert keys == {
        f"support-request:{request.pk}:{support_operator.email}",
        f"support-message:{first.pk}:{support_operator.email}",
        f"support-message:{second.pk}:{support_operator.email}",
    }


def test_an_operators_reply_emails_the_customer_not_the_operators(
    customer, support_operator, django_capture_on_commit_callbacks
):
    request = _open(customer)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        support_message_post(request=request, author=support_operator, role=Author.OPERATOR, body="Use bf16.")
    assert [m.to for m in mail.outbox] == [[customer.email]]


def test_the_inbox_lists_the_requests_waiting_for_us_oldest_first(client, customer, support_operator):
    oldest, newer, answered, closed = (_open(customer, f"Request {n}") for n in range(4))
    now = timezone.now()
    for request, minutes in [(oldest, 50), (newer, 10), (answered, 60), (closed, 70)]:
        SupportRequest.objects.filter(pk=request.pk).update(last_message_at=now - timedelta(minutes=minutes))
    support_message_post(request=answered, author=support_operator, role=Author.OPERATOR, body="Try bf16.")
    SupportRequest.objects.filter(pk=closed.pk).update(status=RequestStatus.CLOSED)
    # A follow-up on the oldest makes it wait from its customer's last message: it moves after `newer`.
    support_message_post(request=oldest, author=customer, role=Author.CUSTOMER, body="Any news?")

    client.force_login(support_operator)
    page = client.get(INBOX).content.decode()
    assert "<h1>Support inbox</h1>" in page
    assert _subjects(page) == ["Request 1", "Request 0"]  # waiting for us, the one waiting longest first
    everything = client.get(INBOX + "?queue=all").content.decode()
    assert _subjects(everything) == ["Request 0", "Request 2", "Request 1", "Request 3"]  # latest activity first
    assert _subjects(client.get(INBOX + "?queue=customer").content.decode()) == ["Request 2"]
    assert _subjects(client.get(INBOX + "?queue=closed").content.decode()) == ["Request 3"]


def _subjects(page: str) -> list[str]:
    return re.findall(r'<td class="field-subject">([^<]*)</td>', page)


def test_the_dashboard_counts_the_requests_to_answer(client, customer, operator):
    waiting, answered = _open(customer, "Request 0"), _open(customer, "Request 1")
    support_message_post(request=answered, author=operator, role=Author.OPERATOR, body="Try bf16.")
    client.force_login(operator)
    page = client.get("/backoffice/backoffice/dashboard/").content.decode()
    work = page.split('data-testid="open-work"', 1)[1].split("</ul>", 1)[0]
    line = " ".join(re.sub(r"<[^>]+>", "", work.split("Support requests to answer", 1)[1]).split())
    assert line.startswith(": 1 · oldest ")
    assert f'href="{INBOX}"' in work
    assert waiting.status == RequestStatus.OPEN


# --- Defect 17: the answer form ---------------------------------------------------------------------------------


def test_the_answer_form_sends_a_reply_and_closes(client, support_operator, support_request):
    client.force_login(support_operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    page = client.get(url).content.decode()
    assert "<h1>Answer a support request</h1>" in page  # not "Change support request"
    assert 'value="Send reply"' in page
    assert 'value="Close the request"' in page
    assert 'name="_save"' not in page  # not Django's "Save" / "Save and continue editing"
    assert "Save and continue editing" not in page


def test_an_empty_reply_is_refused_and_nothing_is_said_to_have_changed(client, support_operator, support_request):
    client.force_login(support_operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    key = _form_key(client.get(url).content.decode())
    response = client.post(url, {"reply": "  ", "_send": "Send reply", "idempotency_key": key, **_inline_management()})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Write a reply before sending it: nothing was sent." in page
    assert "changed successfully" not in page
    assert not SupportMessage.objects.exists()
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.OPEN


def test_close_the_request_closes_it_once_and_audits(client, support_operator, support_request):
    client.force_login(support_operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    key = _form_key(client.get(url).content.decode())
    posted = {"reply": "", "_close": "Close the request", "idempotency_key": key, **_inline_management()}
    first = client.post(url, posted, follow=True)
    again = client.post(url, posted, follow=True)
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.CLOSED
    assert first.redirect_chain == [(INBOX, 302)]
    assert f"{support_request.ref} closed." in first.content.decode()
    assert again.redirect_chain == [(INBOX, 302)]
    assert AuditLogEntry.objects.filter(action="support.close").count() == 1
    assert not SupportMessage.objects.exists()
    assert 'value="Close the request"' not in client.get(url).content.decode()  # closed already


def test_close_with_a_reply_typed_sends_it_first(client, support_operator, support_request):
    client.force_login(support_operator)
    url = reverse("admin:support_supportrequest_change", args=[support_request.pk])
    key = _form_key(client.get(url).content.decode())
    posted = {"reply": "Fixed in driver 550.", "_close": "1", "idempotency_key": key, **_inline_management()}
    client.post(url, posted)
    support_request.refresh_from_db()
    assert support_request.status == RequestStatus.CLOSED
    assert SupportMessage.objects.get().body == "Fixed in driver 550."
    assert AuditLogEntry.objects.filter(action__in=["support.reply", "support.close"]).count() == 2


def test_an_empty_thread_says_so_and_the_gpu_has_a_proper_label(client, support_operator, support_request):
    client.force_login(support_operator)
    page = client.get(reverse("admin:support_supportrequest_change", args=[support_request.pk])).content.decode()
    assert "No messages yet." in page
    assert "Latest messages" not in page  # no table of headers without rows
    assert "Gpu:" not in page
    assert re.search(r"GPU model:</label>\s*<div class=\"readonly\">A100 80GB</div>", page)
    listed = client.get(INBOX).content.decode()
    assert "GPU model" in listed
    assert ">Gpu<" not in listed

"""The desks and the roles: who can see and do what, and that actions go through the services."""

import io
import re
import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection, connections

from gpurent.core.models import AuditLogEntry
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report
from gpurent.payments.models import Payment, PaymentIntent
from gpurent.payments.received.verification import intent_confirm

pytestmark = pytest.mark.django_db

PAYMENTS_DESK = "/backoffice/backoffice/paymentsdesk/"
PROVISIONING_DESK = "/backoffice/backoffice/provisioningdesk/"


@pytest.fixture
def staff(django_user_model):
    def make(*groups):
        user = django_user_model.objects.create_user(
            f"{'-'.join(groups) or 'none'}@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
        )
        user.groups.set(Group.objects.filter(name__in=groups))
        return user

    return make


@pytest.fixture
def reported_intent(django_user_model, gpu, payment_setup):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    order = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=1,
        environment="ubuntu",
        contact=Contact("C", "U", "c@x.io"),
    )
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    return intent_report(intent=intent)


def test_staff_roles_exist_with_their_permissions():
    payments = set(Group.objects.get(name="payments").permissions.values_list("codename", flat=True))
    provisioning = set(Group.objects.get(name="provisioning").permissions.values_list("codename", flat=True))
    catalog = set(Group.objects.get(name="catalog").permissions.values_list("codename", flat=True))
    assert {"verify_payment", "view_paymentsdesk"} <= payments
    assert "provision_order" not in payments
    assert {"provision_order", "view_provisioningdesk"} <= provisioning
    assert "verify_payment" not in provisioning
    assert {"change_gpumodel", "add_receivingaddress"} <= catalog
    assert not {"verify_payment", "provision_order"} & catalog


@pytest.mark.parametrize(
    ("groups", "payments_desk", "provisioning_desk", "catalog"),
    [
        (("payments",), 200, 403, 403),
        (("provisioning",), 403, 200, 403),
        (("catalog",), 403, 403, 200),
        ((), 403, 403, 403),
    ],
)
def test_each_role_sees_only_its_desks(client, staff, groups, payments_desk, provisioning_desk, catalog):
    client.force_login(staff(*groups))
    assert client.get(PAYMENTS_DESK).status_code == payments_desk
    assert client.get(PROVISIONING_DESK).status_code == provisioning_desk
    assert client.get("/backoffice/catalog/gpumodel/").status_code == catalog


def test_non_staff_customers_cannot_enter_the_back_office(client, django_user_model):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    client.force_login(customer)
    for url in (PAYMENTS_DESK, PROVISIONING_DESK, "/backoffice/"):
        response = client.get(url)
        assert response.status_code == 302
        assert "/backoffice/login/" in response["Location"]


def test_payments_desk_lists_reported_first_and_confirms_through_the_service(
    client, staff, reported_intent, payment_setup
):
    other = intent_issue_for_order(
        order=reported_intent.order, owner=reported_intent.owner, asset="BTC", network="bitcoin"
    )
    operator = staff("payments")
    client.force_login(operator)
    page = client.get(PAYMENTS_DESK).content.decode()
    assert page.index(str(reported_intent.order.ref)) < page.index("BTC on Bitcoin")
    url = f"{PAYMENTS_DESK}{reported_intent.pk}/change/"
    assert "205.000000 USDT" in client.get(url).content.decode()
    form = {"action": "confirm", "txid": "d4" * 32, "received": "205", "reason": "", "idempotency_key": "desk-1"}
    response = client.post(url, form)
    assert response.status_code == 302
    again = client.post(url, form)  # a double submit of the same page: acts once, replays the first answer
    assert (again.status_code, again["Location"]) == (302, response["Location"])
    assert AuditLogEntry.objects.filter(action="payment.credited").count() == 1
    assert Payment.objects.filter(intent=reported_intent).count() == 1
    reported_intent.refresh_from_db()
    assert reported_intent.status == "confirmed"
    assert Order.objects.get(pk=reported_intent.order_id).payment_status == "paid"
    entry = AuditLogEntry.objects.get(action="payment.credited")
    assert entry.actor_label == operator.email
    assert PaymentIntent.objects.get(pk=other.pk).status == "closed"  # the order is paid: no new payments there


def test_each_desk_is_titled_and_counted_by_what_it_lists(client, staff, reported_intent):
    client.force_login(staff("payments", "provisioning"))
    payments = client.get(PAYMENTS_DESK).content.decode()
    assert "<h1>Payments desk</h1>" in payments
    assert "Select payment to verify" not in payments
    assert "1 payment to verify" in payments
    assert "0 payments to verify" in client.get(PAYMENTS_DESK, {"q": "nothing-matches"}).content.decode()
    provisioning = client.get(PROVISIONING_DESK).content.decode()
    assert "<h1>Provisioning desk</h1>" in provisioning
    assert "0 orders to provision" in provisioning  # the order is not paid yet


def test_the_provisioning_page_counts_one_gpu_in_the_singular(client, staff, reported_intent):
    intent_confirm(intent_id=reported_intent.pk, txid="tx", received_units=reported_intent.amount_units)
    client.force_login(staff("provisioning"))
    assert "1 order to provision" in client.get(PROVISIONING_DESK).content.decode()
    page = client.get(f"{PROVISIONING_DESK}{reported_intent.order.pk}/change/").content.decode()
    assert "= 1 GPU, 7 days" in page


def test_a_role_that_may_view_but_not_act_changes_nothing(client, staff, reported_intent):
    viewer = staff("payments")
    viewer.groups.get(name="payments").permissions.remove(
        *viewer.groups.get(name="payments").permissions.filter(codename="verify_payment")
    )
    client.force_login(viewer)
    client.post(
        f"{PAYMENTS_DESK}{reported_intent.pk}/change/", {"action": "reject", "txid": "", "received": "", "reason": "x"}
    )
    assert PaymentIntent.objects.get(pk=reported_intent.pk).status == "awaiting_payment"


def test_a_double_submitted_rejection_acts_once_and_answers_the_same(client, staff, reported_intent):
    client.force_login(staff("payments"))
    url = f"{PAYMENTS_DESK}{reported_intent.pk}/change/"
    assert 'name="idempotency_key"' in client.get(url).content.decode()
    form = {"action": "reject", "txid": "", "received": "", "reason": "no such payment", "idempotency_key": "desk-2"}
    first = client.post(url, form, follow=True)
    second = client.post(url, form, follow=True)  # the same page submitted twice: the first answer again
    assert first.redirect_chain == second.redirect_chain
    # The services are idempotent already (no second audit row); the desk now replays the first answer
    # instead of running the action again and saying "Payment rejected." twice.
    assert [str(m) for m in second.context["messages"]] == []
    assert PaymentIntent.objects.get(pk=reported_intent.pk).status == "rejected"


def test_a_double_submitted_provisioning_decision_acts_once(client, staff, reported_intent):
    intent_confirm(intent_id=reported_intent.pk, txid="tx", received_units=reported_intent.amount_units)
    order = Order.objects.get(pk=reported_intent.order_id)
    client.force_login(staff("provisioning"))
    url = f"{PROVISIONING_DESK}{order.pk}/change/"
    assert 'name="idempotency_key"' in client.get(url).content.decode()
    form = {"action": "preparing", "reason": "", "port": "22", "idempotency_key": "desk-3"}
    first = client.post(url, form, follow=True)
    second = client.post(url, form, follow=True)  # the same page submitted twice: the first answer again
    assert first.redirect_chain == second.redirect_chain == [("/backoffice/backoffice/provisioningdesk/", 302)]
    assert [str(m) for m in second.context["messages"]] == []  # no error, no second "updated"
    assert Order.objects.get(pk=order.pk).provisioning_status == "preparing"


def test_ready_without_a_user_is_refused_on_the_form_with_what_was_typed(client, staff, reported_intent):
    intent_confirm(intent_id=reported_intent.pk, txid="tx", received_units=reported_intent.amount_units)
    order = Order.objects.get(pk=reported_intent.order_id)
    client.force_login(staff("provisioning"))
    form = {"action": "ready", "host": "h100-3.example.net", "port": "2222", "username": "", "reason": ""}
    response = client.post(f"{PROVISIONING_DESK}{order.pk}/change/", {**form, "idempotency_key": "desk-4"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "An SSH host and user are required, without spaces." in html
    assert '<option value="ready" selected>' in html
    assert 'value="h100-3.example.net"' in html
    assert Order.objects.get(pk=order.pk).provisioning_status == "not_started"


def test_provision_command_ready_and_failed(reported_intent, django_capture_on_commit_callbacks):
    intent_confirm(intent_id=reported_intent.pk, txid="tx", received_units=reported_intent.amount_units)
    ref = reported_intent.order.ref
    out = io.StringIO()
    call_command(
        "provision",
        ref,
        "--ready",
        "--host",
        "gpu-1.example",
        "--port",
        "2200",
        "--user",
        "ubuntu",
        "--public-key",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo x",
        stdout=out,
    )
    assert f"order {ref}: ready" in out.getvalue()
    assert Order.objects.get(ref=ref).access.port == 2200


def test_sweep_command_runs_every_step(django_user_model):
    out = io.StringIO()
    call_command("sweep", stdout=out)
    assert out.getvalue().startswith(
        "sweep: 0 intents expired, 0 unpaid orders expired, 0 terms ended, 0 reminders, 0 tasks reclaimed, "
        "0 provisioning runs reclaimed, 0 emails requeued, 0 support requests past retention deleted, "
        "0 log-in records past retention deleted, 0 prepared downloads deleted."
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL")
def test_sweep_on_two_machines_at_once_gives_the_same_result_as_once(django_user_model, gpu):
    from gpurent.backoffice.management.commands.sweep import sweep_once

    owner = django_user_model.objects.create_user("s@example.com", "passphrase 12", first_name="S", last_name="W")
    for _ in range(6):
        order_place(
            owner=owner,
            gpu_slug=gpu.slug,
            term_days=3,
            lots=1,
            environment="ubuntu",
            contact=Contact("S", "W", "s@x.io"),
        )
    Order.objects.update(reserved_until=Order.objects.earliest("id").reserved_until - timedelta(days=2))
    results: list[int] = []

    def run() -> None:
        results.append(sweep_once()["unpaid orders expired"])
        connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(results) == 6
    assert Order.objects.filter(payment_status="expired").count() == 6
    gpu.refresh_from_db()
    assert gpu.stock_lots == 8


def test_desk_emails_break_only_before_the_at_sign(client, staff, reported_intent):
    client.force_login(staff("payments"))
    page = client.get(PAYMENTS_DESK).content.decode()
    owner = '<td class="field-owner_email"><span class="email-part">c</span><wbr><span class="email-part">@example.com'
    assert owner in page
    css = (settings.BASE_DIR / "gpurent/backoffice/static/backoffice/desk.css").read_text()
    assert "overflow-wrap: anywhere" not in css  # which cut "qa-es-1796554416@examp / le.com"
    assert "#result_list .email-part { white-space: nowrap; }" in css


def test_the_verify_page_says_a_reported_payment_once(client, staff, reported_intent):
    client.force_login(staff("payments"))
    page = client.get(f"{PAYMENTS_DESK}{reported_intent.pk}/change/").content.decode()
    status = page.split('data-testid="intent-state">', 1)[1].split("</div>", 1)[0]
    assert "</label> Payment reported. Awaiting verification. · reported " in status
    assert status.count("Payment reported") == 1


def test_the_rejection_reason_says_the_customers_language(client, staff, reported_intent):
    reported_intent.owner.language = "tr"
    reported_intent.owner.save(update_fields=["language"])
    client.force_login(staff("payments"))
    page = client.get(f"{PAYMENTS_DESK}{reported_intent.pk}/change/").content.decode()
    reason = page.split('name="reason"', 1)[1].split("</div></div>", 1)[0]  # to the end of its help
    assert "Customer&#x27;s language: <strong>Türkçe (tr)</strong> — write in it." in reason
    assert "c@example.com · Customer's language: <strong>Türkçe (tr)</strong>" in page


def test_the_failure_reason_says_the_customer_reads_it_and_in_which_language(client, staff, reported_intent):
    """QA walk 2, defects 5 and 23: the reason is shown to the customer as typed, so the desk says so and names the
    customer's language, as the payments desk does for a rejection; the customer line gives the name once."""
    intent_confirm(intent_id=reported_intent.pk, txid="tx", received_units=reported_intent.amount_units)
    reported_intent.owner.language = "vi"
    reported_intent.owner.save(update_fields=["language"])
    client.force_login(staff("provisioning"))
    page = client.get(f"{PROVISIONING_DESK}{reported_intent.order_id}/change/").content.decode()
    reason = page.split('for="id_reason"', 1)[1].split("</div></div>", 1)[0]
    assert "Reason (for a failure, told to the customer):" in reason
    assert "Customer&#x27;s language: <strong>Tiếng Việt (vi)</strong> — write in it." in reason
    assert "Left empty, the customer reads “could not be provided” in their language." in reason
    customer = page.split('data-testid="desk-customer">', 1)[1].split("</div>", 1)[0]
    language = "Customer's language: <strong>Tiếng Việt (vi)</strong> — write in it."
    assert customer == f"<label>Customer</label> C U · c@example.com · contact c@x.io · {language}"


@pytest.mark.parametrize("field", ["public_key", "reason"])
def test_a_desk_fields_help_sits_under_the_field_beside_its_label(client, staff, reported_intent, field):
    """QA walk 2, defect 23: the label and its field in Django's flex container, else the label stood above the
    field and the help, placed for a label beside it, 170 px right of the field."""
    intent_confirm(intent_id=reported_intent.pk, txid="tx", received_units=reported_intent.amount_units)
    client.force_login(staff("provisioning"))
    page = client.get(f"{PROVISIONING_DESK}{reported_intent.order_id}/change/").content.decode()
    row = re.search(
        rf'<div class="flex-container"><label for="id_{field}">.*?</div>(<div class="help".*?)</div>', page, re.S
    )
    assert row, f"{field}: its label and field are not in a flex container"
    assert row.group(1).startswith(f'<div class="help" id="id_{field}_helptext"><div>')
    assert f'aria-describedby="id_{field}_helptext"' in page

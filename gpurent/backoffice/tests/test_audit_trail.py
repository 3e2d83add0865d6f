"""The audit trail in the back office (QA walk of the back office, defect 18): read and searched by the references
operators use, dates as the desks write them, and an entry's before/after as the fields it changed, money as money."""

import html
import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult, get_date_max

from gpurent.core.audit import audit_record
from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.provisioning import provision_start
from gpurent.orders.services import Contact, order_place
from gpurent.payments.assets import format_units, pair_get
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report
from gpurent.payments.models import Payment, Payout
from gpurent.payments.payouts import payout_mark_sent, payout_request
from gpurent.payments.received.verification import intent_confirm

pytestmark = pytest.mark.django_db

TRAIL = "/backoffice/core/auditlogentry/"
TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
TXID = "ab" * 32
SENT_AT = datetime(2026, 12, 6, 17, 10, tzinfo=UTC)


@pytest.fixture
def operator(django_user_model):
    return django_user_model.objects.create_superuser("op@shop.example", "long enough passphrase", is_staff=True)


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("ana@example.com", "passphrase 12", first_name="A", last_name="N")


def fund(customer, cents, settings):
    """`cents` on the customer's balance, with a $20.00 minimum withdrawal and a $1.00 fee."""
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-TEST",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(cents),
    )


@pytest.fixture
def sent_payout(customer, operator, payment_setup, settings):
    """A $150.00 withdrawal of USDT on Tron, requested by the customer and sent by the operator (149 USDT)."""
    fund(customer, 20_000, settings)
    payout = payout_request(owner=customer, asset="USDT", network="tron", address=TRON, amount=Usd(15_000))
    sent = payout_mark_sent(payout_id=payout.pk, txid=TXID, sent_units=149_000_000, actor=operator)
    AuditLogEntry.objects.filter(target_type="payments.payout").update(created_at=SENT_AT)
    return sent


@pytest.fixture
def paid_order(customer, operator, gpu, payment_setup):
    """An order paid by a USDT payment the operator confirmed, then being prepared: entries on its intent and on it."""
    order = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=1,
        environment="ubuntu",
        contact=Contact("A", "N", "ana@example.com"),
    )
    intent = intent_report(intent=intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron"))
    intent_confirm(intent_id=intent.pk, txid=TXID, received_units=intent.amount_units, actor=operator)
    order.refresh_from_db()
    return provision_start(order=order, actor=operator)


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_trail_writes_dates_in_utc_as_the_desks_do(client, operator, sent_payout):
    client.force_login(operator)
    listed = page(client, TRAIL)
    assert "06 Dec 2026, 17:10 UTC" in listed
    assert "Dec. 6, 2026" not in listed
    assert "p.m." not in listed


def test_the_trail_names_each_object_by_its_reference_linked_to_its_desk(client, operator, sent_payout, paid_order):
    client.force_login(operator)
    listed = page(client, TRAIL)
    assert f'<a href="/backoffice/backoffice/payoutsdesk/{sent_payout.pk}/change/">{sent_payout.ref}</a>' in listed
    assert f'<a href="/backoffice/backoffice/provisioningdesk/{paid_order.pk}/change/">{paid_order.ref}</a>' in listed
    intent = paid_order.intents.get()
    assert f'<a href="/backoffice/backoffice/paymentsdesk/{intent.pk}/change/">{paid_order.ref}</a>' in listed
    table = listed.split('id="result_list"', 1)[1].split("</table>", 1)[0]
    assert "payments.payout" not in table
    assert str(intent.pk) not in re.sub(r'href="[^"]*"', "", table)
    # The filter names the kinds of object too.
    assert '?target_type=payments.payout">withdrawals</a>' in listed


def test_an_object_with_no_reference_is_named_and_linked_to_its_admin_page(client, operator, gpu):
    with transaction.atomic():
        audit_record(actor=operator, action="admin.change", target=gpu, before={"stock_lots": 8}, after={})
    client.force_login(operator)
    listed = page(client, TRAIL)
    assert f'<a href="/backoffice/catalog/gpumodel/{gpu.pk}/change/">{gpu}</a>' in listed


def test_an_object_since_deleted_is_named_by_its_kind_and_id_without_a_link(client, operator, gpu):
    with transaction.atomic():
        entry = audit_record(actor=operator, action="admin.delete", target=gpu, before={"name": gpu.name})
    AuditLogEntry.objects.filter(pk=entry.pk).update(target_id="99999")
    with transaction.atomic():
        audit_record(actor=operator, action="admin.delete", target=gpu)
    AuditLogEntry.objects.filter(target_id=str(gpu.pk)).update(target_id="not-a-number")
    client.force_login(operator)
    listed = page(client, TRAIL)
    assert "GPU model #99999" in listed
    assert "GPU model #not-a-number" in listed


def test_the_trail_is_searched_by_reference(client, operator, sent_payout, paid_order):
    client.force_login(operator)
    by_payout = client.get(TRAIL, {"q": sent_payout.ref.lower()}).context["cl"].result_list
    assert {entry.action for entry in by_payout} == {"payout.requested", "payout.sent"}

    by_order = client.get(TRAIL, {"q": paid_order.ref}).context["cl"].result_list
    assert {entry.action for entry in by_order} >= {"payment.credited", "provisioning.preparing"}
    assert all(entry.target_type in {"orders.order", "payments.paymentintent"} for entry in by_order)

    deposit = Payment.objects.get(intent__order=paid_order).deposit
    assert deposit is not None
    by_deposit = client.get(TRAIL, {"q": deposit.ref}).context["cl"].result_list
    assert {entry.action for entry in by_deposit} >= {"payment.credited"}

    assert list(client.get(TRAIL, {"q": "P-0000-0000"}).context["cl"].result_list) == []
    # What the search found before still is: the action and who acted.
    assert client.get(TRAIL, {"q": "payout.sent"}).context["cl"].result_count == 1


def test_the_list_costs_the_same_queries_for_one_entry_or_many(client, operator, customer, payment_setup, settings):
    fund(customer, 100_000, settings)
    client.force_login(operator)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            page(client, TRAIL)
        return len(captured.captured_queries)

    payout_request(owner=customer, asset="USDT", network="tron", address=TRON, amount=Usd(5_000))
    one = queries()
    for _ in range(4):
        payout_request(owner=customer, asset="USDT", network="tron", address=TRON, amount=Usd(5_000))
    assert queries() == one


def test_an_entry_says_who_once_and_its_changed_fields_with_money_as_money(client, operator, sent_payout):
    entry = AuditLogEntry.objects.get(action="payout.sent")
    client.force_login(operator)
    shown = page(client, f"{TRAIL}{entry.pk}/change/")
    assert "06 Dec 2026, 17:10 UTC" in shown
    assert "2026-12-06 17:10 op" not in shown  # the title and breadcrumb have the zone too
    assert "Actor:" not in shown
    assert shown.count("Who:") == 1
    changes = shown.split('class="audit-changes"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th>(.*?)</th><td>(.*?)</td><td>(.*?)</td></tr>", changes)
    assert ("status", "Requested", "Sent") in rows
    assert ("decided by", "—", "op@shop.example") in rows
    assert ("sent", "—", "149.000000 USDT") in rows
    assert ("transaction id", "—", TXID) in rows
    # Only what changed: the amount and the fee were the same before and after.
    assert not [row for row in rows if row[0] in {"amount", "fee", "address"}]
    assert any(row[0] == "decided at" and row[1] == "—" and row[2].endswith(" UTC") for row in rows)
    # The raw record stays below, exactly as stored.
    assert '"sent_units": 149000000' in shown
    assert '"amount_cents": 15000' in shown


def test_an_entry_with_only_an_after_shows_each_field_with_money_as_money(client, operator, sent_payout):
    entry = AuditLogEntry.objects.get(action="payout.requested")
    client.force_login(operator)
    shown = page(client, f"{TRAIL}{entry.pk}/change/")
    changes = shown.split('class="audit-changes"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th>(.*?)</th><td>(.*?)</td><td>(.*?)</td></tr>", changes)
    assert ("amount", "", "$150.00") in rows
    assert ("fee", "", "$1.00") in rows
    assert ("reference", "", sent_payout.ref) in rows


def test_a_payment_entry_writes_the_units_in_the_intents_asset(client, operator, paid_order):
    entry = AuditLogEntry.objects.get(action="payment.credited")
    intent = paid_order.intents.get()
    client.force_login(operator)
    shown = page(client, f"{TRAIL}{entry.pk}/change/")
    changes = shown.split('class="audit-changes"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th>(.*?)</th><td>(.*?)</td><td>(.*?)</td></tr>", changes)
    assert ("amount", "", f"{format_units(intent.amount_units, pair_get('USDT', 'tron'))} USDT") in rows
    assert ("credited", "", Usd(intent.usd_cents).display()) in rows


def test_a_payments_operator_reads_the_trail_links_only_where_they_may_go(client, django_user_model, sent_payout):
    """The payments role may read the trail (as before) but not the payouts desk: the withdrawal is named, unlinked."""
    viewer = django_user_model.objects.create_user(
        "pay-op@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    viewer.groups.set(Group.objects.filter(name="payments"))
    viewer.user_permissions.add(Permission.objects.get(content_type__app_label="core", codename="view_auditlogentry"))
    client.force_login(viewer)
    listed = page(client, TRAIL)
    assert sent_payout.ref in listed
    assert f"/backoffice/backoffice/payoutsdesk/{sent_payout.pk}/change/" not in listed
    assert Payout.objects.count() == 1


def test_task_results_write_their_moments_as_the_desks_do(client, operator):
    result = DBTaskResult.objects.create(
        task_path="gpurent.orders.provisioning.provision_paid_order",
        args_kwargs={"args": [], "kwargs": {}},
        backend_name="default",
        run_after=get_date_max(),
        status="SUCCESSFUL",
        started_at=datetime(2026, 12, 6, 17, 5, tzinfo=UTC),
        finished_at=datetime(2026, 12, 6, 17, 6, tzinfo=UTC),
    )
    DBTaskResult.objects.filter(pk=result.pk).update(enqueued_at=datetime(2026, 12, 6, 17, 4, tzinfo=UTC))
    client.force_login(operator)
    listed = page(client, "/backoffice/django_tasks_database/dbtaskresult/")
    for moment in ("17:04", "17:05", "17:06"):
        assert f"06 Dec 2026, {moment} UTC" in listed
    assert "p.m." not in listed
    shown = page(client, f"/backoffice/django_tasks_database/dbtaskresult/{result.pk}/change/")
    for moment in ("17:04", "17:05", "17:06"):
        assert f"06 Dec 2026, {moment} UTC" in shown
    assert "p.m." not in shown

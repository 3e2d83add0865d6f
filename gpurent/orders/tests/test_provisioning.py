"""Provisioning, the term, refunds, reminders and the customer's emails (one each)."""

import stat
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from gpurent.catalog.models import GpuModel
from gpurent.core.errors import InvalidRequest
from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.models import MachineRequest, Order, OrderAccess, ProvisioningRun
from gpurent.orders.provisioning import (
    AccessDetails,
    CommandProvisioner,
    provision_fail,
    provision_ready,
    provision_start,
)
from gpurent.orders.rental import access_reveal_secret, machine_request_create, orders_end_terms, orders_remind_term_end
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo test"
ACCESS = AccessDetails("gpu-7.example.net", 2222, "ubuntu", public_key=KEY)


@pytest.fixture
def paid_order(django_user_model, gpu, django_capture_on_commit_callbacks):
    from gpurent.payments.services import order_pay_from_balance

    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    transfer_post(
        reference="deposit:T",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(100_000),
    )
    with django_capture_on_commit_callbacks(execute=True):
        order = order_place(
            owner=customer,
            gpu_slug=gpu.slug,
            term_days=7,
            lots=2,
            environment="ubuntu",
            contact=Contact("C", "U", "c@example.com"),
        )
        order = order_pay_from_balance(order=order, owner=customer)
    return order


def subjects():
    return [message.subject for message in mail.outbox]


def test_placing_and_paying_send_one_email_each(paid_order):
    assert subjects() == [f"Order {paid_order.ref} placed: your lots are reserved", f"Order {paid_order.ref} is paid"]


@pytest.mark.parametrize("term_days", [3, 7, 30])
def test_ready_starts_a_term_of_exactly_days_times_24_hours(paid_order, term_days, django_capture_on_commit_callbacks):
    Order.objects.filter(pk=paid_order.pk).update(term_days=term_days, lot_price_cents=paid_order.lot_price_cents)
    order = provision_start(order=paid_order, actor=None)
    ready_at = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        order = provision_ready(order=order, actor=None, access=ACCESS, now=ready_at)
    assert order.term_ends_at == ready_at + timedelta(hours=24 * term_days)
    assert OrderAccess.objects.get(order=order).host == "gpu-7.example.net"
    assert subjects()[-1] == f"Order {order.ref}: your machine is ready"


def test_ready_needs_complete_access_and_a_preparing_order(paid_order):
    with pytest.raises(TransitionNotAllowed):
        provision_ready(order=paid_order, actor=None, access=ACCESS)
    order = provision_start(order=paid_order, actor=None)
    for bad in [AccessDetails("", 22, "u", "k"), AccessDetails("h", 0, "u", "k"), AccessDetails("h", 22, "u")]:
        with pytest.raises(InvalidRequest):
            provision_ready(order=order, actor=None, access=bad)


def test_fail_refunds_to_the_balance_releases_the_lots_and_emails_once(paid_order, django_capture_on_commit_callbacks):
    order = provision_start(order=paid_order, actor=None)
    assert balance_for(order.owner) == Usd(100_000 - 41_000)
    with django_capture_on_commit_callbacks(execute=True):
        order = provision_fail(order=order, actor=None, reason="no capacity")
    assert order.provisioning_status == "failed"
    assert balance_for(order.owner) == Usd(100_000)
    assert GpuModel.objects.get(pk=order.gpu_id).stock_lots == 8
    assert subjects().count(f"Order {order.ref} could not be provided: refunded") == 1
    with pytest.raises(TransitionNotAllowed):
        provision_fail(order=order, actor=None, reason="again")
    assert ledger_check() == []


def test_audit_rows_never_contain_the_one_time_password(paid_order):
    order = provision_start(order=paid_order, actor=None)
    provision_ready(
        order=order, actor=None, access=AccessDetails("h.example", 22, "root", one_time_secret="s3cret-pass-123")
    )
    assert "s3cret-pass-123" not in str(list(AuditLogEntry.objects.values_list("before", "after")))


def test_one_time_password_is_shown_once(paid_order):
    order = provision_ready(
        order=provision_start(order=paid_order, actor=None),
        actor=None,
        access=AccessDetails("h.example", 22, "root", one_time_secret="pw-once-123"),
    )
    assert access_reveal_secret(order=order) == "pw-once-123"
    assert access_reveal_secret(order=order) is None
    assert OrderAccess.objects.get(order=order).one_time_secret == ""


def test_term_end_ends_the_order_returns_lots_and_is_idempotent(paid_order, django_capture_on_commit_callbacks):
    order = provision_ready(order=provision_start(order=paid_order, actor=None), actor=None, access=ACCESS)
    ends = order.term_ends_at
    assert ends is not None
    after = ends + timedelta(seconds=1)
    assert orders_end_terms(now=ends - timedelta(seconds=1)) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_end_terms(now=after) == 1
        assert orders_end_terms(now=after) == 0
    assert Order.objects.get(pk=order.pk).provisioning_status == "ended"
    assert GpuModel.objects.get(pk=order.gpu_id).stock_lots == 8
    assert subjects().count(f"Order {order.ref} has ended") == 1


def test_reminder_24_hours_before_the_end_is_sent_once(paid_order, django_capture_on_commit_callbacks):
    order = provision_ready(order=provision_start(order=paid_order, actor=None), actor=None, access=ACCESS)
    ends = order.term_ends_at
    assert ends is not None
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_remind_term_end(now=ends - timedelta(hours=25)) == 0
        assert orders_remind_term_end(now=ends - timedelta(hours=23)) == 1
        # Later sweeps find the reminder queued and neither render nor queue it again.
        assert orders_remind_term_end(now=ends - timedelta(hours=2)) == 0
    assert subjects().count(f"Order {order.ref} ends in 24 hours") == 1


def test_a_sweep_after_the_reminder_renders_and_queues_nothing_in_two_queries(
    paid_order, django_capture_on_commit_callbacks, django_assert_num_queries
):
    # Issue 15: the term-end reminder re-rendered every minute. The orders in the window, then which of their
    # reminders exist: nothing else is read, written, rendered or queued for an order already reminded.
    order = provision_ready(order=provision_start(order=paid_order, actor=None), actor=None, access=ACCESS)
    ends = order.term_ends_at
    assert ends is not None
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_remind_term_end(now=ends - timedelta(hours=23)) == 1
    with django_capture_on_commit_callbacks() as callbacks, django_assert_num_queries(2):
        assert orders_remind_term_end(now=ends - timedelta(hours=22)) == 0
    assert callbacks == []


def test_stop_or_restart_request_is_recorded_and_changes_nothing_about_the_term(paid_order):
    with pytest.raises(InvalidRequest):
        machine_request_create(order=paid_order, kind="stop")  # not running yet
    order = provision_ready(order=provision_start(order=paid_order, actor=None), actor=None, access=ACCESS)
    ends = order.term_ends_at
    machine_request_create(order=order, kind="stop", note="pause please")
    assert MachineRequest.objects.get().kind == "stop"
    assert Order.objects.get(pk=order.pk).term_ends_at == ends
    with pytest.raises(InvalidRequest):
        machine_request_create(order=order, kind="pause")


def test_command_provisioner_records_output_and_gives_access(paid_order, tmp_path):
    script = tmp_path / "provision.sh"
    access = '{"host": "10.0.0.5", "port": 22, "user": "ubuntu", "password": "pw-xyz-123"}'
    script.write_text(f"#!/bin/sh\necho \"booting $ORDER_REF with $LOTS lots\"\necho '{access}'\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    CommandProvisioner(str(script)).start(paid_order)
    order = Order.objects.get(pk=paid_order.pk)
    run = ProvisioningRun.objects.get()
    assert order.provisioning_status == "ready"
    assert run.exit_code == 0
    assert f"booting {order.ref} with 2 lots" in run.output
    assert "pw-xyz-123" not in run.output  # the JSON line with the password is not kept


def test_command_provisioner_failure_leaves_the_order_at_the_desk(paid_order, tmp_path):
    script = tmp_path / "broken.sh"
    script.write_text("#!/bin/sh\necho 'no machine free' >&2\nexit 3\n")
    script.chmod(0o700)
    CommandProvisioner(str(script)).start(paid_order)
    assert Order.objects.get(pk=paid_order.pk).provisioning_status == "preparing"
    assert ProvisioningRun.objects.get().exit_code == 3

"""The command provisioner when the operator's command cannot run, hangs, or prints no usable access; a run
that died with its worker, run again once; and a refund refused for an order that was never paid."""

import pytest

from gpurent.core.money import Usd
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.models import Order, ProvisioningRun
from gpurent.orders.provisioning import (
    DIED_NOTE,
    CommandProvisioner,
    provision_fail,
    provision_paid_order,
    provision_start,
)
from gpurent.orders.services import Contact, order_place
from gpurent.payments.services import order_pay_from_balance

pytestmark = pytest.mark.django_db

ACCESS_LINE = '{"host": "10.0.0.5", "port": 22, "user": "ubuntu", "password": "pw-xyz-123"}'


@pytest.fixture
def customer(django_user_model):
    user = django_user_model.objects.create_user("p@example.com", "passphrase 12", first_name="P", last_name="R")
    transfer_post(
        reference="deposit:P1",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(user),
        amount=Usd(100_000),
    )
    return user


@pytest.fixture
def placed(customer, gpu):
    contact = Contact("P", "R", "p@example.com")
    return order_place(owner=customer, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=contact)


@pytest.fixture
def paid(placed, customer):
    # The payment's on-commit task never runs inside the test's transaction: the order waits, not started.
    return order_pay_from_balance(order=placed, owner=customer)


def script(tmp_path, body: str) -> str:
    path = tmp_path / "provision.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o700)
    return str(path)


def test_refund_of_an_order_never_paid_is_refused(placed, customer):
    with pytest.raises(TransitionNotAllowed, match=r"^Only a paid order can be refunded\.$"):
        provision_fail(order=placed, actor=None, reason="no machine")
    assert balance_for(customer) == Usd(100_000)
    assert ledger_check() == []


def test_a_command_that_cannot_run_leaves_the_order_at_the_desk(paid, tmp_path):
    CommandProvisioner(str(tmp_path / "missing-provisioner")).start(paid)
    run = ProvisioningRun.objects.get()
    assert run.exit_code == -1
    assert run.output.startswith("could not run: [Errno 2] No such file or directory")
    assert Order.objects.get(pk=paid.pk).provisioning_status == "preparing"


def test_a_command_past_its_timeout_leaves_the_order_at_the_desk(paid, tmp_path):
    CommandProvisioner(script(tmp_path, "sleep 30\n"), timeout_seconds=1).start(paid)
    run = ProvisioningRun.objects.get()
    assert run.exit_code == -1
    assert run.output.startswith("could not run: Command ")
    assert "timed out after 1 seconds" in run.output
    assert Order.objects.get(pk=paid.pk).provisioning_status == "preparing"


@pytest.mark.parametrize(
    "last_line",
    [
        "machine booted",  # not JSON
        '{"port": 22, "user": "ubuntu"}',  # no host
        '{"host": "10.0.0.5", "port": "ssh", "user": "ubuntu"}',  # a port that is no number
    ],
)
def test_exit_0_without_usable_access_keeps_the_whole_output_for_the_desk(paid, tmp_path, last_line):
    CommandProvisioner(script(tmp_path, f"echo 'step 1'\necho '{last_line}'\n")).start(paid)
    run = ProvisioningRun.objects.get()
    assert (run.exit_code, run.output) == (0, f"step 1\n{last_line}\n")
    assert Order.objects.get(pk=paid.pk).provisioning_status == "preparing"


def test_a_run_that_died_with_its_worker_is_run_again_once(paid, tmp_path, settings):
    settings.PROVISIONER = "command"
    settings.PROVISIONER_COMMAND = script(tmp_path, f"echo '{ACCESS_LINE}'\n")
    preparing = provision_start(order=paid, actor=None)
    died = ProvisioningRun.objects.create(order=preparing, command=settings.PROVISIONER_COMMAND)
    # The sweep requeued the paid order's task: the order is preparing, so its provisioner resumes.
    provision_paid_order.call(paid.pk)
    died.refresh_from_db()
    assert (died.exit_code, died.output) == (None, DIED_NOTE)
    assert list(ProvisioningRun.objects.exclude(pk=died.pk).values_list("exit_code", flat=True)) == [0]
    assert Order.objects.get(pk=paid.pk).provisioning_status == "ready"


def test_resume_leaves_an_order_whose_run_finished_or_was_rerun_alone(paid, tmp_path):
    provisioner = CommandProvisioner(script(tmp_path, "echo 'no machine free'\nexit 3\n"))
    provisioner.start(paid)
    order = Order.objects.get(pk=paid.pk)
    provisioner.resume(order)  # its one run finished (exit 3): nothing to redo
    assert ProvisioningRun.objects.count() == 1
    ProvisioningRun.objects.create(order=order, command="again")
    provisioner.resume(order)  # two runs already: never a third by itself
    assert ProvisioningRun.objects.count() == 2

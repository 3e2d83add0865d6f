"""A rental's whole life on a real SSH host (tools/host-agent/test-host): paid → ready with no operator, the
customer's own key and only their GPUs, an extension, the term's end, failures, a changed host key."""

import json
import subprocess
from datetime import timedelta

import pytest
from django.utils import timezone

from conftest import place_with_keys as place
from gpurent.catalog.models import GpuModel
from gpurent.core.models import AuditLogEntry, OperatorNotice
from gpurent.core.money import Usd
from gpurent.hosts.enums import HostHealth, RentalState
from gpurent.hosts.models import GpuAllocation, GpuHost, HostOperation, HostRental
from gpurent.hosts.placement import rental_username
from gpurent.hosts.work import hosts_work
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.orders.enums import ProvisioningStatus
from gpurent.orders.models import MachineRequest, Order
from gpurent.orders.rental import machine_request_create, orders_end_terms
from gpurent.payments.services import order_pay_from_balance

pytestmark = pytest.mark.django_db


def pay(order, owner, capture):
    with capture(execute=True):
        order_pay_from_balance(order=order, owner=owner)
    return Order.objects.get(pk=order.pk)


def sweep_once(now):
    """What the sweep does for rentals at `now`: end the terms that are over, then the hosts' work (the sweep
    queues it; `tests/test_host_rental_end_to_end.py` runs the sweep command itself)."""
    orders_end_terms(now=now)
    hosts_work(now=now)


def stock(gpu) -> int:
    return GpuModel.objects.get(pk=gpu.pk).stock_lots


def visible_gpus(test_host, username, customer_key) -> list[str]:
    """The GPU indices the customer's `nvidia-smi` lists, run over the customer's own SSH session."""
    done = test_host.ssh(username, customer_key, f"{test_host.nvidia_smi} --query-gpu=index --format=csv,noheader")
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_registering_pins_the_key_reads_the_inventory_and_sets_the_stock(test_host, gpu, gpu_host):
    assert gpu_host.host_key_fingerprint == test_host.fingerprint
    assert gpu_host.host_key == test_host.host_key
    assert [card["index"] for card in gpu_host.inventory["gpus"]] == list(range(8))
    assert gpu_host.health == HostHealth.HEALTHY
    assert stock(gpu) == 4  # the four GPUs offered, not the 8 lots typed in the catalog
    assert AuditLogEntry.objects.filter(action="hosts.added").count() == 1


def test_a_paid_order_becomes_ready_and_the_customer_logs_in_to_only_their_gpus(
    test_host, gpu, gpu_host, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    order = place(host_buyer, gpu, lots=2)
    assert stock(gpu) == 2
    order = pay(order, host_buyer, django_capture_on_commit_callbacks)

    assert order.provisioning_status == ProvisioningStatus.READY  # no operator touched it
    rental = HostRental.objects.get(order=order)
    assert rental.state == RentalState.ACTIVE
    assert rental.host == gpu_host
    assert rental.gpu_indices == [0, 1]
    assert order.access.ssh_command == f"ssh -p {test_host.port} {rental.username}@{test_host.address}"
    assert order.term_ends_at == order.term_starts_at + timedelta(days=3)
    assert stock(gpu) == 2
    assert visible_gpus(test_host, rental.username, customer_key) == ["0", "1"]
    shown = test_host.ssh(rental.username, customer_key, "echo $CUDA_VISIBLE_DEVICES").stdout.strip()
    uuids = {card["index"]: card["uuid"] for card in gpu_host.inventory["gpus"]}
    assert shown == f"{uuids[0]},{uuids[1]}"
    assert test_host.ssh(rental.username, customer_key, f"test -w {test_host.dir}/dev/nvidia2").returncode != 0
    ready = order.status_changes.get(track="provisioning", to_status=ProvisioningStatus.READY)
    assert ready.actor_id is None  # the shop did it, not an operator


def test_two_paid_orders_get_disjoint_gpus_and_a_third_waits_for_none(
    test_host, gpu, gpu_host, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    first = pay(place(host_buyer, gpu, lots=2), host_buyer, django_capture_on_commit_callbacks)
    second = pay(place(host_buyer, gpu, lots=2), host_buyer, django_capture_on_commit_callbacks)
    assert {first.provisioning_status, second.provisioning_status} == {ProvisioningStatus.READY}
    one, two = (HostRental.objects.get(order=order) for order in (first, second))
    assert set(one.gpu_indices).isdisjoint(two.gpu_indices)
    assert visible_gpus(test_host, two.username, customer_key) == [str(index) for index in two.gpu_indices]
    assert stock(gpu) == 0
    assert GpuAllocation.objects.count() == 4


def test_repeating_the_provisioning_creates_nothing_twice(
    test_host, shop_key, gpu, gpu_host, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    from gpurent.orders.provisioning import provision_paid_order

    order = pay(place(host_buyer, gpu, lots=1), host_buyer, django_capture_on_commit_callbacks)
    rental = HostRental.objects.get(order=order)
    provision_paid_order.call(order.pk)  # the task run again (a requeue): the order is ready, nothing to do
    assert HostOperation.objects.filter(operation="create").count() == 1
    # The agent's own create, repeated with the same parameters, changes nothing on the gpu_host.
    again = test_host.agent(
        shop_key,
        "create",
        rental.username,
        "--gpus",
        "0",
        "--expires",
        str(rental.host_expires_on),
        "--environment",
        "ubuntu",
        stdin=customer_key.with_suffix(".pub").read_text(),
    )
    assert again["changed"] is False
    assert GpuAllocation.objects.count() == 1


def test_the_shops_private_key_never_reaches_the_logs_or_the_records(caplog, shop_key, test_host, gpu, gpu_host):
    from gpurent.hosts.registry import host_check

    host_check(gpu_host)
    secret = shop_key.read_text().splitlines()[1]  # a line of the private key's body
    assert secret not in caplog.text
    assert all(secret not in json.dumps([op.arguments, op.result, op.error]) for op in HostOperation.objects.all())


def test_a_changed_host_key_stops_all_work_and_tells_operators(
    test_host, gpu, gpu_host, host_buyer, django_capture_on_commit_callbacks, tmp_path
):
    # The gpu_host now shows a key other than the pinned one (as after a reinstall, or a machine in its place).
    other = tmp_path / "other"
    subprocess.run(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)], check=True)
    GpuHost.objects.filter(pk=gpu_host.pk).update(host_key=" ".join(other.with_suffix(".pub").read_text().split()[:2]))
    order = pay(place(host_buyer, gpu, lots=1), host_buyer, django_capture_on_commit_callbacks)

    gpu_host.refresh_from_db()
    assert gpu_host.health == HostHealth.KEY_CHANGED
    assert stock(gpu) == 0  # the gpu_host left stock at once
    assert Order.objects.get(pk=order.pk).provisioning_status == ProvisioningStatus.PREPARING
    assert OperatorNotice.objects.filter(code="host_key_changed").exists()
    assert not HostOperation.objects.filter(ok=True, operation="create").exists()
    # Nothing is sent to it any more, not even a check, until an operator pins the new key.
    last = HostOperation.objects.latest("pk").pk
    sweep_once(now=timezone.now() + timedelta(hours=1))  # the rental's retry is due
    retries = list(HostOperation.objects.filter(pk__gt=last))
    assert retries
    assert all(not op.ok and "repin" in op.error for op in retries)


def test_an_unreachable_host_leaves_stock_and_its_rentals_are_flagged(
    test_host, gpu, gpu_host, host_buyer, django_capture_on_commit_callbacks
):
    from gpurent.hosts.registry import host_check

    order = pay(place(host_buyer, gpu, lots=1), host_buyer, django_capture_on_commit_callbacks)
    assert stock(gpu) == 3
    test_host.stop()
    host_check(GpuHost.objects.get(pk=gpu_host.pk))
    gpu_host.refresh_from_db()
    assert gpu_host.health == HostHealth.UNREACHABLE
    assert stock(gpu) == 0
    assert OperatorNotice.objects.filter(code="host_unreachable").exists()
    assert HostRental.objects.get(order=order).host_or_error().health == HostHealth.UNREACHABLE  # the desk shows it


def test_an_extension_moves_the_expiry_on_the_host(
    test_host, shop_key, gpu, gpu_host, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    from gpurent.orders.extensions import order_extension_place

    order = pay(place(host_buyer, gpu, lots=1, term_days=3), host_buyer, django_capture_on_commit_callbacks)
    rental = HostRental.objects.get(order=order)
    before = rental.host_expires_on
    extension = order_extension_place(rental=order, owner=host_buyer, term_days=7)
    pay(extension, host_buyer, django_capture_on_commit_callbacks)

    rental.refresh_from_db()
    order.refresh_from_db()
    assert before is not None
    assert order.term_ends_at is not None
    assert rental.host_expires_on == before + timedelta(days=7)
    assert rental.host_expires_on == (order.term_ends_at + timedelta(days=1)).date()
    status = test_host.agent(shop_key, "status", rental.username)
    assert status["expires"] == rental.host_expires_on.isoformat()


def test_at_term_end_the_key_is_refused_processes_are_gone_and_only_then_gpus_return(
    test_host, shop_key, gpu, gpu_host, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    order = pay(place(host_buyer, gpu, lots=2), host_buyer, django_capture_on_commit_callbacks)
    rental = HostRental.objects.get(order=order)
    test_host.ssh(rental.username, customer_key, "nohup sleep 600 >/dev/null 2>&1 &")
    assert test_host.agent(shop_key, "status", rental.username)["processes"] >= 1
    assert stock(gpu) == 2

    sweep_once(now=order.term_ends_at + timedelta(minutes=1))

    order.refresh_from_db()
    rental.refresh_from_db()
    assert order.provisioning_status == ProvisioningStatus.ENDED
    assert rental.state == RentalState.REVOKED
    assert test_host.ssh(rental.username, customer_key, "true").returncode == 255
    status = test_host.agent(shop_key, "status", rental.username)
    assert status["processes"] == 0
    assert status["gpus"] == []
    assert status["keys"] == 0
    assert stock(gpu) == 4  # back only after the revoke succeeded
    assert not GpuAllocation.objects.exists()

    # After the retention period the home directory is wiped.
    sweep_once(now=order.term_ends_at + timedelta(days=8))
    rental.refresh_from_db()
    assert rental.state == RentalState.WIPED
    assert test_host.agent(shop_key, "status", rental.username)["exists"] is False


def test_gpus_stay_out_of_stock_while_the_revoke_fails(
    test_host, gpu, gpu_host, host_buyer, django_capture_on_commit_callbacks
):
    order = pay(place(host_buyer, gpu, lots=1), host_buyer, django_capture_on_commit_callbacks)
    test_host.stop()
    sweep_once(now=order.term_ends_at + timedelta(minutes=1))
    order.refresh_from_db()
    assert order.provisioning_status == ProvisioningStatus.ENDED  # the customer's term is over, on time
    assert HostRental.objects.get(order=order).state == RentalState.REVOKING
    assert GpuAllocation.objects.count() == 1
    assert stock(gpu) == 0  # the gpu_host is down, and its GPU is still held


def test_a_stop_request_runs_on_the_host(
    test_host, shop_key, gpu, gpu_host, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    order = pay(place(host_buyer, gpu, lots=1), host_buyer, django_capture_on_commit_callbacks)
    rental = HostRental.objects.get(order=order)
    test_host.ssh(rental.username, customer_key, "nohup sleep 600 >/dev/null 2>&1 &")
    with django_capture_on_commit_callbacks(execute=True):
        machine_request_create(order=order, kind="stop")
    assert MachineRequest.objects.get(order=order).handled_at is not None
    assert test_host.agent(shop_key, "status", rental.username)["processes"] == 0


def test_a_provisioning_that_fails_three_times_ends_refunded(
    test_host, gpu, gpu_host, host_buyer, django_capture_on_commit_callbacks
):
    # The host answers and reports its GPUs, but cannot make accounts (its useradd is not on the agent's PATH).
    config = json.loads((test_host.dir / "agent.json").read_text())
    (test_host.dir / "agent.json").write_text(json.dumps({**config, "path": "/nonexistent"}))
    before = balance_for(host_buyer)
    order = pay(place(host_buyer, gpu, lots=1), host_buyer, django_capture_on_commit_callbacks)
    assert balance_for(host_buyer) == before - order.total
    rental = HostRental.objects.get(order=order)
    assert (rental.state, rental.attempts) == (RentalState.PENDING, 1)

    sweep_once(now=timezone.now() + timedelta(seconds=61))
    assert HostRental.objects.get(order=order).attempts == 2
    sweep_once(now=timezone.now() + timedelta(seconds=61 + 301))

    order.refresh_from_db()
    assert order.provisioning_status == ProvisioningStatus.FAILED
    assert balance_for(host_buyer) == before
    assert HostRental.objects.get(order=order).state == RentalState.REVOKED
    assert HostOperation.objects.filter(operation="create", ok=False).count() == 3
    assert stock(gpu) == 4
    assert OperatorNotice.objects.filter(code="host_error").exists()
    assert ledger_check() == []
    assert Usd(0) <= balance_for(host_buyer)


def test_a_refusal_that_cannot_change_is_refunded_at_once(
    test_host, shop_key, gpu, gpu_host, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    # The account name is taken on the host by a revoked rental (revoking is final): asking again is pointless.
    order = place(host_buyer, gpu, lots=1)
    username = rental_username(order)
    stdin = customer_key.with_suffix(".pub").read_text()
    test_host.agent(shop_key, "create", username, "--gpus", "3", "--expires", "2099-01-01", stdin=stdin)
    test_host.agent(shop_key, "revoke", username)

    order = pay(order, host_buyer, django_capture_on_commit_callbacks)

    assert order.provisioning_status == ProvisioningStatus.FAILED
    assert HostOperation.objects.filter(operation="create").count() == 1  # no retry of a conflict (exit 3)
    assert HostRental.objects.get(order=order).state == RentalState.REVOKED
    assert stock(gpu) == 4
    assert ledger_check() == []


def test_a_host_that_booted_again_gives_running_rentals_their_gpus_again(
    test_host, shop_key, gpu, gpu_host, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    from gpurent.hosts.registry import host_check

    order = pay(place(host_buyer, gpu, lots=1), host_buyer, django_capture_on_commit_callbacks)
    rental = HostRental.objects.get(order=order)
    assert visible_gpus(test_host, rental.username, customer_key) == ["0"]
    # A reboot: the device files are made anew, without the rental's ACL, and the boot id changes.
    subprocess.run(["/usr/bin/setfacl", "-b", str(test_host.dir / "dev" / "nvidia0")], check=True)
    assert visible_gpus(test_host, rental.username, customer_key) == []
    GpuHost.objects.filter(pk=gpu_host.pk).update(inventory={**gpu_host.inventory, "boot_id": "the-previous-boot"})

    host_check(GpuHost.objects.get(pk=gpu_host.pk))
    hosts_work(now=timezone.now())

    assert visible_gpus(test_host, rental.username, customer_key) == ["0"]
    assert HostRental.objects.get(pk=rental.pk).next_attempt_at is None


def test_an_offered_gpu_the_host_stops_reporting_leaves_stock(test_host, gpu, gpu_host):
    from gpurent.hosts.registry import host_check

    inventory = json.loads((test_host.dir / "gpus.json").read_text())
    inventory["gpus"] = [card for card in inventory["gpus"] if card["index"] != 3]  # GPU 3 fell off the bus
    (test_host.dir / "gpus.json").write_text(json.dumps(inventory))

    host_check(GpuHost.objects.get(pk=gpu_host.pk))

    assert stock(gpu) == 3
    assert OperatorNotice.objects.filter(code="host_error", detail__contains="no longer reports GPU [3]").exists()

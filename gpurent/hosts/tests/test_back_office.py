"""GPU hosts in the back office, without SSH (hosts and rentals as rows): the provisioning role sees the hosts,
the desk shows each rental's host, GPUs and a flag when the host is down, and a host-managed model's stock is
no longer typed in the catalog."""

import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from conftest import make_running_rental
from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.hosts.enums import HostHealth, RentalState
from gpurent.hosts.models import GpuAllocation, GpuHost, HostRental
from gpurent.hosts.stock import stock_sync
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(django_user_model):
    user = django_user_model.objects.create_user(
        "prov@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="provisioning"))
    return user


@pytest.fixture
def node(gpu):
    return GpuHost.objects.create(
        name="node-1",
        address="127.0.0.1",
        port=9,  # nothing listens there: no SSH call of these tests can reach anything
        gpu=gpu,
        gpu_indices=[0, 1, 2, 3],
        inventory={"gpus": [{"index": index, "name": "A100", "memory_mib": 81_920} for index in range(4)]},
        host_key="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo",
        host_key_fingerprint="SHA256:xCEx7JbDd3x2dkFBo6frjzFkHBhSZZMGlIXTf6NN5OA",
    )


def test_the_provisioning_role_lists_hosts_with_their_free_gpus(client, operator, node):
    client.force_login(operator)
    page = client.get(reverse("admin:hosts_gpuhost_changelist")).content.decode()
    assert "node-1" in page
    assert "4 / 4" in page
    assert client.get(reverse("admin:hosts_gpuhost_add")).status_code == 200
    assert client.get(reverse("admin:hosts_hostoperation_changelist")).status_code == 200


def test_the_desk_shows_the_rentals_host_and_flags_it_when_down(client, operator, node, gpu, django_user_model):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    transfer_post(
        reference="deposit:D",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(100_000),
    )
    order = make_running_rental(customer, gpu)
    rental = HostRental.objects.create(
        order=order, host=node, username="rabcd1234", gpu_indices=[2], state=RentalState.ACTIVE
    )
    GpuAllocation.objects.create(host=node, index=2, rental=rental)
    client.force_login(operator)
    desk = reverse("admin:backoffice_provisioningdesk_changelist") + "?queue=all"

    assert "node-1 [2] Active" in client.get(desk).content.decode()
    GpuHost.objects.filter(pk=node.pk).update(health=HostHealth.UNREACHABLE)
    assert "node-1 [2] Active ⚠ Unreachable" in client.get(desk).content.decode()
    detail = client.get(reverse("admin:backoffice_provisioningdesk_change", args=[order.pk])).content.decode()
    assert "rabcd1234" in detail
    assert 'data-testid="desk-host"' in detail


def test_a_host_managed_models_stock_is_not_typed_in_the_catalog(admin_client, gpu, node):
    assert stock_sync(gpu.pk) == 4
    form = admin_client.get(reverse("admin:catalog_gpumodel_change", args=[gpu.pk])).content.decode()
    assert 'name="stock_lots"' not in form
    assert 'name="stock_change"' not in form
    GpuHost.objects.all().delete()
    form = admin_client.get(reverse("admin:catalog_gpumodel_change", args=[gpu.pk])).content.decode()
    assert 'name="stock_change"' in form  # lots to add or remove (the stock itself is never typed over)


def test_saving_a_host_managed_model_leaves_its_stock_to_the_hosts(admin_client, gpu, node):
    assert stock_sync(gpu.pk) == 4
    form = admin_client.get(reverse("admin:catalog_gpumodel_change", args=[gpu.pk])).content.decode()
    assert 'name="price_3d" value="95.00"' in form
    data = {
        "name": gpu.name,
        "slug": gpu.slug,
        "vendor": gpu.vendor,
        "stack": gpu.stack,
        "on_sale": "on",
        "position": "0",
        "memory_mib_per_card": str(gpu.memory_mib_per_card),
        "cards_per_lot": "1",
        "price_3d": "96",
        "price_7d": "205",
        "price_30d": "790",
        "summary": gpu.summary,
        "glossary_terms": "[]",
        "stock_lots": "40",
        "stock_change": "5",  # neither field is on this form: both are ignored
    }
    assert admin_client.post(reverse("admin:catalog_gpumodel_change", args=[gpu.pk]), data).status_code == 302
    gpu.refresh_from_db()
    assert (gpu.price_3d_cents, gpu.stock_lots) == (9_600, 4)


def _list_key(client, url: str) -> str:
    found = re.search(r'name="idempotency_key" value="([^"]+)"', client.get(url).content.decode())
    assert found, "the list page carries no idempotency key"
    return found.group(1)


def test_drain_and_check_now_act_once_per_the_lists_key(
    client, operator, node, gpu, django_capture_on_commit_callbacks
):
    client.force_login(operator)
    url = reverse("admin:hosts_gpuhost_changelist")
    posted = {"action": "drain", "_selected_action": [node.pk], "idempotency_key": _list_key(client, url)}
    client.post(url, posted, follow=True)
    client.post(url, posted, follow=True)
    assert GpuHost.objects.get(pk=node.pk).drained
    assert AuditLogEntry.objects.filter(action="hosts.drained").count() == 1

    # The check runs after the answer, in the worker; this host cannot be reached (no shop key here).
    posted = {"action": "check_now", "_selected_action": [node.pk], "idempotency_key": _list_key(client, url)}
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(url, posted, follow=True).content.decode()
    assert "1 hosts will be checked" in page
    assert GpuHost.objects.get(pk=node.pk).health == HostHealth.UNREACHABLE


def test_a_changed_key_stays_until_repinned_whatever_an_older_copy_of_the_host_says(node):
    from gpurent.hosts.agent import agent_run
    from gpurent.hosts.errors import HostKeyChanged

    stale = GpuHost.objects.get(pk=node.pk)  # loaded before another worker found the key changed
    GpuHost.objects.filter(pk=node.pk).update(health=HostHealth.KEY_CHANGED)
    with pytest.raises(HostKeyChanged):
        agent_run(stale, "inventory")  # refused without connecting: the health is read again first
    assert GpuHost.objects.get(pk=node.pk).health == HostHealth.KEY_CHANGED


def test_an_order_given_access_by_hand_keeps_its_lots_out_of_a_host_models_stock(node, gpu, django_user_model):
    customer = django_user_model.objects.create_user("m@example.com", "passphrase 12", first_name="M", last_name="U")
    transfer_post(
        reference="deposit:M",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(100_000),
    )
    make_running_rental(customer, gpu, lots=2)  # ready by hand (the manual desk), no GPUs of a host
    assert stock_sync(gpu.pk) == 2  # 4 free GPUs, 2 lots out with the running rental


def test_the_hosts_list_costs_the_same_queries_for_one_host_or_five(client, operator, node, gpu):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(operator)
    url = reverse("admin:hosts_gpuhost_changelist")
    client.get(url)  # warm (sessions, permissions)
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for number in range(2, 6):
        GpuHost.objects.create(
            name=f"node-{number}",
            address="127.0.0.1",
            port=9,
            gpu=gpu,
            gpu_indices=[0],
            host_key="x",
            host_key_fingerprint="x",
        )
    with CaptureQueriesContext(connection) as five:
        page = client.get(url).content.decode()
    assert "node-5" in page
    assert len(five.captured_queries) == len(one.captured_queries)

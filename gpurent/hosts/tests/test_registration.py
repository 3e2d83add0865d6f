"""Registering a real test host (`manage.py hosts add`), checking, draining and re-pinning it."""

import io

import pytest
from django.core.management import CommandError, call_command

from conftest import register_test_host
from gpurent.catalog.models import GpuModel
from gpurent.core.models import AuditLogEntry
from gpurent.hosts.enums import HostHealth
from gpurent.hosts.models import GpuHost, HostOperation

pytestmark = pytest.mark.django_db


def hosts(*arguments: str) -> str:
    out = io.StringIO()
    call_command("hosts", *arguments, stdout=out)
    return out.getvalue()


def add(test_host, gpu, *extra: str) -> str:
    address = f"{test_host.address}:{test_host.port}"
    return hosts("add", "node-1", "--address", address, "--user", "root", "--model", gpu.slug, *extra)


def test_the_fingerprint_read_on_the_host_is_required_when_given(test_host, gpu):
    with pytest.raises(CommandError, match="showed the key"):
        add(test_host, gpu, "--gpus", "0,1", "--fingerprint", "SHA256:" + "A" * 43)
    assert not GpuHost.objects.exists()
    assert test_host.fingerprint in add(test_host, gpu, "--gpus", "0,1", "--fingerprint", test_host.fingerprint)
    assert HostOperation.objects.get().operation == "inventory"  # one connection: the key, then the inventory


def test_gpus_the_host_lacks_or_of_another_model_are_refused(test_host, gpu):
    with pytest.raises(CommandError, match="has no GPU 8"):
        add(test_host, gpu, "--gpus", "0,8")
    h100 = GpuModel.objects.create(
        **{
            field: getattr(gpu, field)
            for field in ("vendor", "stack", "summary", "price_3d_cents", "price_7d_cents", "price_30d_cents")
        },
        slug="h200-141gb",
        name="H200",
        memory_mib_per_card=143_771,
    )
    with pytest.raises(CommandError, match="Is it another model"):
        add(test_host, h100, "--gpus", "0")
    assert not GpuHost.objects.exists()


def test_list_check_and_drain(test_host, gpu):
    register_test_host(test_host, gpu)
    assert "node-1" in hosts("list")
    assert "4/4" in hosts("list")
    checked = hosts("check").splitlines()
    assert checked[0].startswith("checking 1 host: reading its inventory through the agent over SSH")
    assert checked[1:] == [
        f"node-1 ({test_host.user}@{test_host.address}:{test_host.port}): healthy; 4/4 GPUs free to rent",
        "all 1 healthy",
    ]
    hosts("drain", "node-1")
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 0
    hosts("drain", "node-1", "--undo")
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 4
    assert AuditLogEntry.objects.filter(action__in=["hosts.drained", "hosts.undrained"]).count() == 2
    test_host.stop()
    with pytest.raises(CommandError, match="1 of 1 hosts are not healthy"):
        hosts("check")
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 0


def test_a_changed_key_is_pinned_again_only_with_the_fingerprint_the_host_shows(test_host, gpu, tmp_path):
    host = register_test_host(test_host, gpu)
    GpuHost.objects.filter(pk=host.pk).update(
        host_key="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo"
    )
    with pytest.raises(CommandError):
        hosts("check", "node-1")
    assert GpuHost.objects.get(pk=host.pk).health == HostHealth.KEY_CHANGED
    with pytest.raises(CommandError, match="showed the key"):
        hosts("repin", "node-1", "--fingerprint", "SHA256:" + "B" * 43)
    assert GpuHost.objects.get(pk=host.pk).health == HostHealth.KEY_CHANGED
    assert "healthy" in hosts("repin", "node-1", "--fingerprint", test_host.fingerprint)
    host.refresh_from_db()
    assert (host.health, host.host_key) == (HostHealth.HEALTHY, test_host.host_key)
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 4

"""A real GPU test host for the provisioning tests: `sshd` on a free local port in its own mount namespace, the
host agent behind a forced command, eight fake A100 device files and a fake `nvidia-smi`
(tools/host-agent/test-host). The shop connects to it with paramiko; customers log in with the real `ssh`."""

import io
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command

from gpurent.accounts.services import ssh_key_add
from gpurent.core.money import Usd
from gpurent.hosts.models import GpuHost
from gpurent.hosts.testing import TestHost, sshd_available
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place

A100_NAME, A100_MIB = "NVIDIA A100-SXM4-80GB", 81_920


def _key_pair(directory: Path, name: str) -> Path:
    key = directory / name
    subprocess.run(
        ["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)], check=True, timeout=30
    )
    return key


@pytest.fixture(scope="session")
def ssh_keys_dir(tmp_path_factory) -> Path:
    reason = sshd_available()
    if reason:
        if os.environ.get("HOST_AGENT_REQUIRED") == "1":
            pytest.fail(f"HOST_AGENT_REQUIRED=1 but {reason}")
        pytest.skip(reason)
    return tmp_path_factory.mktemp("ssh-keys")


@pytest.fixture(scope="session")
def shop_key(ssh_keys_dir) -> Path:
    return _key_pair(ssh_keys_dir, "gpurent-shop")


@pytest.fixture(scope="session")
def customer_key(ssh_keys_dir) -> Path:
    return _key_pair(ssh_keys_dir, "customer")


@pytest.fixture
def test_host(shop_key, tmp_path, settings) -> Iterator[TestHost]:
    """A fresh test host per test (its accounts start empty); the shop's key is the setting's file."""
    settings.HOSTS_SSH_KEY_FILE = str(shop_key)
    settings.HOSTS_SSH_TIMEOUT_SECONDS = 10
    host = TestHost.start(
        tmp_path / "host",
        TestHost.free_port(),
        shop_key.with_suffix(".pub"),
        gpus=8,
        gpu_name=A100_NAME,
        memory_mib=A100_MIB,
    )
    yield host
    host.stop()


def register(test_host: TestHost, gpu, *, name: str = "node-1", gpus: str = "0,1,2,3") -> GpuHost:
    """`manage.py hosts add` as an operator types it."""
    address = f"{test_host.address}:{test_host.port}"
    arguments = ["add", name, "--address", address, "--user", test_host.user, "--model", gpu.slug, "--gpus", gpus]
    call_command("hosts", *arguments, stdout=io.StringIO())
    return GpuHost.objects.get(name=name)


@pytest.fixture
def host(test_host, gpu) -> GpuHost:
    return register(test_host, gpu)


@pytest.fixture
def buyer(django_user_model, customer_key):
    """A customer with $5,000 on the balance and their SSH public key on the account."""
    user = django_user_model.objects.create_user("buyer@example.com", "passphrase 12", first_name="B", last_name="U")
    transfer_post(
        reference="deposit:H", debit=system_account(EXTERNAL_CRYPTO), credit=customer_account(user), amount=Usd(500_000)
    )
    ssh_key_add(user=user, name="laptop", public_key=customer_key.with_suffix(".pub").read_text())
    return user


def place(owner, gpu, *, lots: int = 2, term_days: int = 3) -> Order:
    return order_place(
        owner=owner,
        gpu_slug=gpu.slug,
        term_days=term_days,
        lots=lots,
        environment="ubuntu",
        contact=Contact("B", "U", "buyer@example.com"),
        ssh_keys=list(owner.ssh_keys.all()),
    )

"""Fixtures shared by every test package (apps' tests/ and the cross-app tests/)."""

import io
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.core.management import call_command
from django.utils import translation
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from gpurent.accounts.services import ssh_key_add
from gpurent.catalog.models import GpuModel
from gpurent.core.money import Usd
from gpurent.hosts.models import GpuHost
from gpurent.hosts.testing import TestHost, sshd_available
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.provisioning import AccessDetails, provision_ready, provision_start
from gpurent.orders.services import Contact, order_place
from gpurent.payments.services import order_pay_from_balance

# No wall-clock limit in a test: Hypothesis's 200 ms deadline per example and its too-slow health check failed a
# property of the estimator once on a loaded machine. Every property test inherits this profile.
hypothesis_settings.register_profile("no_wall_clock", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("no_wall_clock")


def pytest_configure(config: pytest.Config) -> None:
    """Compile the translation catalogs the tests read, as `make test` does (the .mo files are not in git).

    Only a catalog whose .mo is missing or older than its .po is compiled, so a plain `pytest` run in a fresh
    checkout reads the same translations as `make test`.
    """
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        return
    for po in (Path(__file__).resolve().parent / "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run([msgfmt, "--check-format", "-o", str(mo), str(po)], check=True, timeout=120)  # noqa: S603


BROWSER_TESTS = Path(__file__).resolve().parent / "tests" / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`make test` runs the browser tests from tests/browser/ only, collected in under a second instead of the whole
    suite's 10 to 19 s a process: a browser test anywhere else would run in no step, so it stops the run here."""
    browser = [item for item in items if item.get_closest_marker("browser")]
    strays = [item.nodeid for item in browser if BROWSER_TESTS not in item.path.parents]
    if strays:
        raise pytest.UsageError(f"browser tests live in tests/browser/ (make test runs them from there): {strays}")


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Every test starts in the default language: a request with Accept-Language leaves its language active in
    the thread (LocaleMiddleware does not reset it), which would leak into the next test's service calls."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Every test starts with an empty cache: a fragment cached by one test must not answer in the next."""
    cache.clear()


def make_gpu(**overrides: object) -> GpuModel:
    fields: dict[str, object] = {
        "slug": "a100-80gb",
        "name": "A100 80GB",
        "vendor": "NVIDIA",
        "stack": "CUDA",
        "memory_mib_per_card": 81_920,
        "cards_per_lot": 1,
        "stock_lots": 8,
        "price_3d_cents": 9_500,
        "price_7d_cents": 20_500,
        "price_30d_cents": 79_000,
        "summary": "Ampere training card.",
        "glossary_terms": ["vram", "fsdp"],
    }
    fields.update(overrides)
    return GpuModel.objects.create(**fields)


@pytest.fixture
def gpu(db) -> GpuModel:
    """An A100 80GB: one card per lot, 8 lots in stock, $95 / $205 / $790."""
    return make_gpu()


@pytest.fixture
def b200(db) -> GpuModel:
    """A B200: two cards per lot, 2 lots in stock, $780 / $1,700 / $6,600 per lot."""
    return make_gpu(
        slug="b200-2x180gb",
        name="B200 (2 × 180GB)",
        memory_mib_per_card=183_359,
        cards_per_lot=2,
        stock_lots=2,
        price_3d_cents=78_000,
        price_7d_cents=170_000,
        price_30d_cents=660_000,
        position=5,
    )


@pytest.fixture
def demo_catalog(db) -> None:
    call_command("load_demo", stdout=io.StringIO())


def make_running_rental(owner: AbstractBaseUser, gpu: GpuModel, *, lots: int = 1) -> Order:
    """A rental of `lots` lots of `gpu` for 3 days, paid from the owner's balance (which must cover it) and ready:
    its term runs, so it can be extended."""
    contact = Contact("R", "E", "r@example.com")
    order = order_place(owner=owner, gpu_slug=gpu.slug, term_days=3, lots=lots, environment="ubuntu", contact=contact)
    order = order_pay_from_balance(order=order, owner=owner)
    order = provision_start(order=order, actor=None)
    return provision_ready(
        order=order,
        actor=None,
        access=AccessDetails("h.example", 22, "ubuntu", one_time_secret="pw"),  # noqa: S106
    )


# --- GPU hosts: a real test host (tools/host-agent/test-host) for the provisioning tests --------------------------
# `sshd` on a free local port in its own mount namespace, the host agent behind a forced command, eight fake A100
# device files and a fake `nvidia-smi`. The shop connects with paramiko; customers log in with the real `ssh`.

A100_NAME, A100_MIB = "NVIDIA A100-SXM4-80GB", 81_920


def _key_pair(directory: Path, name: str) -> Path:
    key = directory / name
    argv = ["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)]
    subprocess.run(argv, check=True, timeout=30)  # noqa: S603 (a fixed program, no shell)
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


def register_test_host(test_host: TestHost, gpu, *, name: str = "node-1", gpus: str = "0,1,2,3") -> GpuHost:
    """`manage.py hosts add` as an operator types it."""
    address = f"{test_host.address}:{test_host.port}"
    arguments = ["add", name, "--address", address, "--user", test_host.user, "--model", gpu.slug, "--gpus", gpus]
    call_command("hosts", *arguments, stdout=io.StringIO())
    return GpuHost.objects.get(name=name)


@pytest.fixture
def gpu_host(test_host, gpu) -> GpuHost:
    return register_test_host(test_host, gpu)


@pytest.fixture
def host_buyer(django_user_model, customer_key):
    """A customer with $5,000 on the balance and their SSH public key on the account."""
    user = django_user_model.objects.create_user("buyer@example.com", "passphrase 12", first_name="B", last_name="U")
    transfer_post(
        reference="deposit:H", debit=system_account(EXTERNAL_CRYPTO), credit=customer_account(user), amount=Usd(500_000)
    )
    ssh_key_add(user=user, name="laptop", public_key=customer_key.with_suffix(".pub").read_text())
    return user


def place_with_keys(owner, gpu, *, lots: int = 2, term_days: int = 3) -> Order:
    return order_place(
        owner=owner,
        gpu_slug=gpu.slug,
        term_days=term_days,
        lots=lots,
        environment="ubuntu",
        contact=Contact("B", "U", "buyer@example.com"),
        ssh_keys=list(owner.ssh_keys.all()),
    )

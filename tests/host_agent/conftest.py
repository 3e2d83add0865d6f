"""Fixtures of the host agent's tests: one isolated test host per session (tools/host-agent/test-host), the shop's
key pair and customers' key pairs, all made with ssh-keygen. No database."""

import os
import shutil
import subprocess
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gpurent.hosts.testing import TestHost, free_port, sshd_available


def make_key(path: Path, comment: str) -> Path:
    """An ed25519 key pair at PATH (private) and PATH.pub; returns the private key's path."""
    keygen = shutil.which("ssh-keygen") or "/usr/bin/ssh-keygen"
    subprocess.run([keygen, "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)], check=True)
    return path


@pytest.fixture(scope="session")
def shop_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_key(tmp_path_factory.mktemp("shop-key") / "shop", "gpurent-shop")


@pytest.fixture(scope="session")
def test_host(shop_key: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestHost]:
    reason = sshd_available()
    if reason is not None:
        if os.environ.get("HOST_AGENT_REQUIRED") == "1":
            pytest.fail(f"HOST_AGENT_REQUIRED=1 but {reason}")
        pytest.skip(reason)
    directory = tmp_path_factory.mktemp("test-host")  # below pytest's 0700 base: the host makes it reachable
    host = TestHost.start(directory, free_port(), shop_key.with_suffix(".pub"))
    yield host
    host.stop()


@pytest.fixture
def customer_key(tmp_path: Path) -> Callable[[str], Path]:
    """Makes a customer's key pair: customer_key("alice") is the private key; its .pub is beside it."""
    return lambda name: make_key(tmp_path / name, f"{name}@example.test")


@pytest.fixture
def rental_user() -> str:
    """A rental account name of the shop's form ("r" + an order reference), unique to the test."""
    return "r" + uuid.uuid4().hex[:12]

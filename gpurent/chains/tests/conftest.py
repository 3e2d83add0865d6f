import pytest

from gpurent.payments.tests.conftest import customer, order, payment_setup  # noqa: F401 (shared fixtures)

from .nodes import Ganache, LitecoinRegtest


@pytest.fixture(scope="session")
def litecoin_node():
    node = LitecoinRegtest()
    yield node
    node.stop()


@pytest.fixture(scope="session")
def ganache_node():
    node = Ganache()
    yield node
    node.stop()

"""Fixtures of the support tests: two customers, an order of the first, an operator, and fake secrets."""

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.orders.services import Contact, order_place
from gpurent.support.services import RequestInput, support_request_create

# Built from parts so no literal in the repository looks like a real credential to a secret scanner.
FAKE_AWS_KEY = "AKIA" + "FAKE" + "Q3EGUWZKX7YH"
FAKE_SEED = "legal winner thank year wave sausage worth useful legal winner thank yellow"  # the BIP-39 test vector


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("ada@example.com", "long enough passphrase", first_name="Ada")


@pytest.fixture
def other_customer(django_user_model):
    return django_user_model.objects.create_user("eve@example.com", "long enough passphrase", first_name="Eve")


@pytest.fixture
def operator(django_user_model):
    return django_user_model.objects.create_superuser("op@example.com", "long enough passphrase", is_staff=True)


@pytest.fixture
def order(customer, gpu):
    return order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=1,
        environment="pytorch",
        contact=Contact("Ada", "Lovelace", "ada@example.com"),
    )


@pytest.fixture
def support_request(customer, order):
    return support_request_create(
        owner=customer,
        data=RequestInput(subject="NCCL timeout", observed="hangs at step 1420", order_ref=order.ref),
    )


@pytest.fixture
def auth(customer):
    _, secret = api_token_create(user=customer, name="laptop")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


@pytest.fixture
def other_auth(other_customer):
    _, secret = api_token_create(user=other_customer, name="laptop")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}

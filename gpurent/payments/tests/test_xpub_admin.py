"""The back office registers watch-only keys, refuses private ones without echoing them, and shows each
network's address mode on the receiving-address page."""

import pytest
from django.contrib.auth.models import Group

from gpurent.payments.models import ExtendedPublicKey

from .test_derivation import BIP84_ZPUB

pytestmark = pytest.mark.django_db

ADD = "/backoffice/payments/extendedpublickey/add/"
RECEIVING = "/backoffice/payments/receivingaddress/"
XPRV = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"


@pytest.fixture
def catalog_operator(client, django_user_model):
    user = django_user_model.objects.create_user(
        "catalog@shop.example", "passphrase 12", first_name="C", last_name="O", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="catalog"))
    client.force_login(user)
    return user


def test_operator_registers_a_zpub_and_sees_the_mode(client, catalog_operator):
    response = client.post(ADD, {"network": "bitcoin", "key": BIP84_ZPUB, "label": "cold"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert ExtendedPublicKey.objects.get().key == BIP84_ZPUB
    page = client.get(RECEIVING).content.decode()
    assert "xpub: a fresh address per intent from the registered key" in page
    assert "this network cannot derive addresses from a public key" in page  # Solana's row


def test_a_private_key_is_refused_and_never_shown_back(client, catalog_operator):
    response = client.post(ADD, {"network": "bitcoin", "key": XPRV, "label": ""})
    body = response.content.decode()
    assert response.status_code == 200
    assert "This is a private key or a recovery phrase" in body
    assert XPRV not in body
    assert not ExtendedPublicKey.objects.exists()

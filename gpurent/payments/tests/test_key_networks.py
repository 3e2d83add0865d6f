"""Each network and test network takes its own kind of account key, and the back office says which and refuses
the others (issue 32): the prefixes and paths are checked against bip-utils, which derives the addresses."""

import pytest
from bip_utils import Bip32KeyNetVersions, Bip32Secp256k1, Bip39SeedGenerator
from django.contrib.auth.models import Group

from gpurent.payments.errors_crypto import InvalidAddress
from gpurent.payments.intents.derivation import KEY_VERSIONS, account_key_parse, address_derive
from gpurent.payments.models import ExtendedPublicKey
from gpurent.payments.networks.codecs import b58check_encode

SEED = Bip39SeedGenerator(" ".join(["abandon"] * 11 + ["about"])).Generate()


def account_key(prefix, path):
    """The account key at `path` of the "abandon … about" seed, spelled with `prefix`'s version bytes."""
    versions = Bip32KeyNetVersions(KEY_VERSIONS[prefix], b"\0\0\0\0")
    return Bip32Secp256k1.FromSeed(SEED, versions).DerivePath(path).PublicKey().ToExtended()


def refusal(network, text):
    with pytest.raises(InvalidAddress) as caught:
        account_key_parse(network, text)
    return caught.value.message


@pytest.mark.parametrize("prefix", sorted(KEY_VERSIONS))
def test_every_prefix_is_what_its_version_bytes_spell(prefix):
    assert b58check_encode(KEY_VERSIONS[prefix] + bytes(74)).startswith(prefix)


@pytest.mark.parametrize(
    ("hrp", "network", "prefix", "path", "address_start"),
    [
        ("tb", "bitcoin", "vpub", "m/84'/1'/0'", "tb1q"),
        ("bcrt", "bitcoin", "tpub", "m/84'/1'/0'", "bcrt1q"),
        ("rltc", "litecoin", "ttub", "m/84'/1'/0'", "rltc1q"),  # the key the outside run used
        ("rltc", "litecoin", "tpub", "m/84'/1'/0'", "rltc1q"),  # what Litecoin Core prints on regtest
        ("tltc", "litecoin", "vpub", "m/84'/1'/0'", "tltc1q"),
        ("ltc", "litecoin", "Ltub", "m/84'/2'/0'", "ltc1q"),
        ("bc", "bitcoin", "zpub", "m/84'/0'/0'", "bc1q"),
    ],
)
def test_a_test_network_key_is_taken_where_the_shop_runs_that_network(
    settings, hrp, network, prefix, path, address_start
):
    settings.PAYMENTS_SEGWIT_HRP = {network: hrp}
    key = account_key_parse(network, account_key(prefix, path))
    assert key.prefix == prefix
    assert address_derive(key, 0).startswith(address_start)


@pytest.mark.parametrize(
    ("hrp", "network", "prefix", "path", "expected"),
    [
        (
            None,
            "bitcoin",
            "tpub",
            "m/84'/1'/0'",
            "This is a test network key (tpub…), but the shop runs Bitcoin (PAYMENTS_SEGWIT_HRP_BITCOIN “bc”). "
            "Bitcoin takes the BIP84 account key of m/84'/0'/0', starting with zpub or xpub.",
        ),
        (
            None,
            "litecoin",
            "ttub",
            "m/84'/1'/0'",
            "This is a test network key (ttub…), but the shop runs Litecoin (PAYMENTS_SEGWIT_HRP_LITECOIN “ltc”). "
            "Litecoin takes the BIP84 account key of m/84'/2'/0', starting with zpub, Ltub or xpub.",
        ),
        (
            "rltc",
            "litecoin",
            "zpub",
            "m/84'/2'/0'",
            "This is a mainnet key (zpub…), but the shop runs Litecoin regtest (PAYMENTS_SEGWIT_HRP_LITECOIN "
            "“rltc”). Litecoin regtest takes the BIP84 account key of m/84'/1'/0', starting with ttub, tpub or vpub.",
        ),
        (
            "bcrt",
            "bitcoin",
            "xpub",
            "m/84'/0'/0'",
            "This is a mainnet key (xpub…), but the shop runs Bitcoin regtest (PAYMENTS_SEGWIT_HRP_BITCOIN "
            "“bcrt”). Bitcoin regtest takes the BIP84 account key of m/84'/1'/0', starting with vpub or tpub.",
        ),
        (
            None,
            "ethereum",
            "zpub",
            "m/84'/0'/0'",
            "This key (zpub…) is not one Ethereum takes. Ethereum takes the BIP44 account key of m/44'/60'/0', "
            "starting with xpub.",
        ),
        (
            None,
            "tron",
            "tpub",
            "m/44'/195'/0'",
            "This key (tpub…) is not one Tron takes. Tron takes the BIP44 account key of m/44'/195'/0', "
            "starting with xpub.",
        ),
    ],
)
def test_a_key_of_the_wrong_network_or_kind_is_refused_naming_what_is_expected(
    settings, hrp, network, prefix, path, expected
):
    if hrp:
        settings.PAYMENTS_SEGWIT_HRP = {network: hrp}
    assert refusal(network, account_key(prefix, path)) == expected


def test_a_depth_3_key_whose_last_step_is_not_hardened_is_not_an_account_key():
    assert refusal("bitcoin", account_key("zpub", "m/84'/0'/0")) == (
        "This key's last step is not hardened, so it is not an account key: register the key of m/84'/0'/0'."
    )


@pytest.fixture
def catalog_operator(client, django_user_model):
    user = django_user_model.objects.create_user(
        "catalog@shop.example", "passphrase 12", first_name="C", last_name="O", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="catalog"))
    client.force_login(user)
    return user


ADD = "/backoffice/payments/extendedpublickey/add/"


@pytest.mark.django_db
def test_the_back_office_refuses_a_test_network_key_on_mainnet_and_says_which_to_paste(client, catalog_operator):
    response = client.post(ADD, {"network": "bitcoin", "key": account_key("vpub", "m/84'/1'/0'"), "label": ""})
    body = response.content.decode()
    assert response.status_code == 200
    assert "This is a test network key (vpub…), but the shop runs Bitcoin" in body
    assert "m/84&#x27;/0&#x27;/0&#x27;, starting with zpub or xpub" in body
    assert not ExtendedPublicKey.objects.exists()


@pytest.mark.django_db
def test_the_back_office_hint_names_the_key_and_path_of_each_network_as_configured(client, catalog_operator, settings):
    settings.PAYMENTS_SEGWIT_HRP = {"litecoin": "rltc"}
    page = client.get(ADD).content.decode().replace("&#x27;", "'")
    assert "Bitcoin: BIP84 m/84'/0'/0' (zpub, xpub)" in page
    assert "Litecoin regtest: BIP84 m/84'/1'/0' (ttub, tpub, vpub)" in page
    assert "Ethereum: BIP44 m/44'/60'/0' (xpub)" in page
    assert "Tron: BIP44 m/44'/195'/0' (xpub)" in page

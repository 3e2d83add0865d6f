"""Fresh addresses from watch-only keys: published BIP32/BIP44/BIP84 vectors, private keys refused, indexes
persisted and unique, the fallbacks kept."""

import pytest
from django.db import IntegrityError, transaction

from gpurent.core.errors import InvalidRequest
from gpurent.payments.errors_crypto import InvalidAddress
from gpurent.payments.intents.allocation import address_mode, extended_key_register, gap_report
from gpurent.payments.intents.derivation import AccountKey, account_key_parse, address_derive, looks_like_private_key
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import DerivedAddress, ExtendedPublicKey

# BIP32 test vector 1: the public key of m/0H/1/2H/2 and of its child 1000000000 (a public, non-hardened step).
BIP32_V1_M_0H_1_2H_2 = (
    "xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV"
)
BIP32_V1_CHILD = (
    "xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy"
)
# BIP84's test vector (mnemonic "abandon … about"): the account zpub m/84'/0'/0' and its first receiving address.
BIP84_ZPUB = (
    "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
)
BIP84_FIRST = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
BIP84_SECOND = "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g"
# BIP44 m/44'/60'/0' of the same mnemonic; its first address is the one every Ethereum wallet shows for it.
ETH_ACCOUNT_XPUB = (
    "xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt"
)
ETH_FIRST = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
# BIP44 m/44'/195'/0' of the same mnemonic (TronLink's default path).
TRON_ACCOUNT_XPUB = (
    "xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd"
)
TRON_FIRST = "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"


def test_bip32_vector_public_child_derivation():
    from bip_utils import Bip32Secp256k1

    node = Bip32Secp256k1.FromExtendedKey(BIP32_V1_M_0H_1_2H_2)
    assert node.ChildKey(1_000_000_000).PublicKey().ToExtended() == BIP32_V1_CHILD


def test_bip84_vector_first_addresses():
    key = account_key_parse("bitcoin", BIP84_ZPUB)
    assert key.prefix == "zpub"
    assert address_derive(key, 0) == BIP84_FIRST
    assert address_derive(key, 1) == BIP84_SECOND


def test_bip44_ethereum_and_tron_first_addresses():
    assert address_derive(account_key_parse("ethereum", ETH_ACCOUNT_XPUB), 0) == ETH_FIRST
    assert address_derive(account_key_parse("tron", TRON_ACCOUNT_XPUB), 0) == TRON_FIRST


def test_litecoin_regtest_hrp_from_settings(settings):
    settings.PAYMENTS_SEGWIT_HRP = {"litecoin": "rltc"}
    key = AccountKey("litecoin", BIP84_ZPUB, "zpub")
    assert address_derive(key, 0).startswith("rltc1q")


@pytest.mark.parametrize(
    "secret",
    [
        # BIP32 vector 1 master private key
        "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi",
        "zprvAWgYBBk7JR8Gjrh4UJQ2uJdG1r3WNRRfURiABBE3RvMXYSrRJL62XuezvGdPvG6GFBZduosCc1YP5wixPox7zhZLfiUm8aunE96BBa4Kei5",
        "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",  # WIF, the Bitcoin wiki's example
        "0C28FCA386C7A227600B2FE50B7CAE11EC86D3BF1FBE471BE89827E19D72AA1D",  # its hex form
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
        "xprv-that-does-not-even-decode",
    ],
)
def test_private_keys_are_refused_and_not_echoed(secret):
    assert looks_like_private_key(secret)
    with pytest.raises(InvalidAddress) as refused:
        account_key_parse("bitcoin", secret)
    assert secret not in refused.value.message
    assert "private key" in refused.value.message


@pytest.mark.parametrize(
    ("network", "text", "reason"),
    [
        ("solana", BIP84_ZPUB, "cannot be derived"),
        ("ethereum", BIP84_ZPUB, "xpub"),  # zpub is a Bitcoin-family prefix
        ("bitcoin", BIP32_V1_M_0H_1_2H_2, "depth 4"),  # not an account key
        ("bitcoin", BIP84_ZPUB[:-1] + "t", "checksum"),
    ],
)
def test_wrong_keys_are_refused_with_a_reason(network, text, reason):
    with pytest.raises(InvalidAddress) as refused:
        account_key_parse(network, text)
    assert reason in refused.value.message


def test_address_mode_defaults_and_solana_stays_on_the_pool(settings):
    assert address_mode("bitcoin") == "xpub"
    assert address_mode("solana") == "pool"
    settings.PAYMENTS_ADDRESS_MODES = {"solana": "xpub", "ethereum": "pool"}
    assert address_mode("solana") == "pool"
    assert address_mode("ethereum") == "pool"


def test_each_intent_gets_the_next_index(db, order, customer):
    key = extended_key_register(network="ethereum", key=ETH_ACCOUNT_XPUB, label="cold wallet")
    first = intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")
    second = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="ethereum")
    assert first.address == ETH_FIRST
    assert second.address != first.address
    assert list(DerivedAddress.objects.filter(key=key).values_list("index", "address")) == [
        (0, first.address),
        (1, second.address),
    ]
    key.refresh_from_db()
    assert key.next_index == 2
    report = gap_report("ethereum")
    assert (report["given"], report["unused_tail"], report["warn"]) == (2, 2, False)


def test_without_a_key_the_pool_and_shared_fallbacks_stay(db, order, customer):
    intent = intent_issue_for_order(order=order, owner=customer, asset="BTC", network="bitcoin")
    assert intent.address == "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"  # the shared address of the fixture
    assert not DerivedAddress.objects.exists()


def test_a_new_key_retires_the_old_and_a_key_is_never_registered_twice(db):
    from bip_utils import Bip39SeedGenerator, Bip84, Bip84Coins

    seed = Bip39SeedGenerator(" ".join(["abandon"] * 11 + ["about"])).Generate()
    account_1 = Bip84.FromSeed(seed, Bip84Coins.BITCOIN).Purpose().Coin().Account(1).PublicKey().ToExtended()
    first = extended_key_register(network="bitcoin", key=BIP84_ZPUB)
    second = extended_key_register(network="bitcoin", key=account_1)
    first.refresh_from_db()
    assert not first.active
    assert second.active
    with pytest.raises(InvalidRequest):
        extended_key_register(network="bitcoin", key=BIP84_ZPUB)


def test_index_and_address_are_unique_in_the_database(db):
    key = extended_key_register(network="bitcoin", key=BIP84_ZPUB)
    DerivedAddress.objects.create(key=key, network="bitcoin", index=0, address=BIP84_FIRST)
    with pytest.raises(IntegrityError), transaction.atomic():
        DerivedAddress.objects.create(key=key, network="bitcoin", index=0, address=BIP84_SECOND)
    with pytest.raises(IntegrityError), transaction.atomic():
        ExtendedPublicKey.objects.create(network="bitcoin", key="another", active=True)

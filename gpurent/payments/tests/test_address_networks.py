"""Addresses of another network, of a test network, and addresses nobody can spend from are refused with a
reason, by the service and by both ways a customer withdraws (the API and the balance page); issue 32."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.urls import reverse
from django.utils.html import escape

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.addresses import validate_address
from gpurent.payments.errors_crypto import InvalidAddress
from gpurent.payments.models import Payout
from gpurent.payments.networks import all_networks
from gpurent.payments.networks.codecs import b58check_encode

UNSPENDABLE_MESSAGE = (
    "Nobody can spend from this address: it is a burn or system address, and anything sent to it is lost. "
    "Use an address from your own wallet."
)
LITECOIN_3_MESSAGE = (
    "Litecoin addresses starting with 3 are refused: they are spelled exactly like Bitcoin addresses, so a "
    "Bitcoin address would pass for one and the coins would be lost. Use your wallet's address starting with "
    "M, L or ltc1."
)
BITCOIN_P2SH = "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"
SOLANA_SYSTEM_PROGRAM = "11111111111111111111111111111111"


def refusal(network, address):
    with pytest.raises(InvalidAddress) as caught:
        validate_address(network, address)
    return caught.value.message


# --- another network where the spellings overlap -----------------------------------------------------------------


def test_litecoin_refuses_the_bitcoin_spelled_3_address_and_says_which_to_use():
    assert refusal("litecoin", BITCOIN_P2SH) == LITECOIN_3_MESSAGE
    assert refusal("litecoin", "3NJZLcZEEYBpxYEUGewU4knsQRn1WM5Fkt") == LITECOIN_3_MESSAGE
    assert validate_address("bitcoin", BITCOIN_P2SH) == BITCOIN_P2SH  # on Bitcoin it is Bitcoin's own


@pytest.mark.parametrize(
    ("network", "address", "found", "expected"),
    [
        ("bitcoin", "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9", "Litecoin", "Bitcoin"),
        ("bitcoin", "ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea", "Litecoin", "Bitcoin"),
        ("litecoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "Bitcoin", "Litecoin"),
        ("litecoin", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "Bitcoin", "Litecoin"),
        ("bitcoin", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "Bitcoin testnet", "Bitcoin"),
        ("bitcoin", "mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef", "a test network", "Bitcoin"),
        ("litecoin", "tltc1qw508d6qejxtdg4y5r3zarvary0c5xw7klfsuq0", "Litecoin testnet", "Litecoin"),
        ("tron", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "Ethereum", "Tron"),
        ("ethereum", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "Tron", "Ethereum"),
        ("solana", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "Tron", "Solana"),
        ("tron", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "Solana", "Tron"),
        ("ethereum", "41a614f803b6fd780986a42c78ec9c7f77e6ded13c", "Tron", "Ethereum"),
    ],
)
def test_an_address_of_another_network_is_refused_naming_both(network, address, found, expected):
    assert refusal(network, address) == (
        f"This is an address on {found}, not on {expected}. Coins sent to the wrong network are lost."
    )


def test_tron_hex_form_is_refused_with_the_form_to_use():
    assert refusal("tron", "41a614f803b6fd780986a42c78ec9c7f77e6ded13c") == (
        "This is a Tron address in hex (41…), which carries no checksum: paste the address starting with T that "
        "your wallet shows."
    )


def test_what_is_not_an_address_anywhere_keeps_the_plain_message():
    assert refusal("litecoin", "nope") == "This is not a valid Litecoin address."
    assert refusal("litecoin", "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8") == "This is not a valid Litecoin address."


# --- the shop's test network, from PAYMENTS_SEGWIT_HRP ------------------------------------------------------------


def test_a_litecoin_regtest_shop_takes_regtest_addresses_only(settings):
    settings.PAYMENTS_SEGWIT_HRP = {"litecoin": "rltc"}
    regtest = "rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3"  # BIP-173's first program, spelled for rltc
    assert validate_address("litecoin", regtest.upper()) == regtest
    q_address = b58check_encode(b"\x3a" + bytes(range(1, 21)))
    assert validate_address("litecoin", q_address) == q_address
    assert refusal("litecoin", "ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea") == (
        "This is an address on Litecoin, not on Litecoin regtest. Coins sent to the wrong network are lost."
    )
    assert refusal("litecoin", "mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef") == (
        "On Litecoin test networks, addresses spelled like Bitcoin testnet ones (m…, n…, 2…) are refused: use an "
        "address starting with Q or rltc1."
    )
    assert refusal("litecoin", "nope") == "This is not a valid Litecoin regtest address."
    assert validate_address("bitcoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")  # Bitcoin stays on mainnet


def test_a_bitcoin_testnet_shop_takes_testnet_addresses(settings):
    settings.PAYMENTS_SEGWIT_HRP = {"bitcoin": "tb"}
    assert validate_address("bitcoin", "mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef") == "mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef"
    assert validate_address("bitcoin", "2MxKEf2su6FGAUfCEAHreGFQvEYrfYNHvL7")
    assert validate_address("bitcoin", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx")
    assert "not on Bitcoin testnet" in refusal("bitcoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")


def test_an_unknown_segwit_prefix_is_a_configuration_error_that_stops_manage_check(settings):
    settings.PAYMENTS_SEGWIT_HRP = {"litecoin": "xltc"}
    with pytest.raises(ImproperlyConfigured, match="PAYMENTS_SEGWIT_HRP_LITECOIN"):
        validate_address("litecoin", "ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea")
    with pytest.raises(SystemCheckError, match="use one of ltc \\(mainnet\\), tltc \\(testnet\\), rltc"):
        call_command("check")


# --- nobody can spend from it ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("network", "address"),
    [
        ("solana", SOLANA_SYSTEM_PROGRAM),
        ("solana", "1nc1nerator11111111111111111111111111111111"),
        ("solana", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
        ("solana", "So11111111111111111111111111111111111111112"),
        ("solana", "SysvarRent111111111111111111111111111111111"),
        ("ethereum", "0x0000000000000000000000000000000000000000"),
        ("ethereum", "0x000000000000000000000000000000000000dEaD"),
        ("ethereum", "0x000000000000000000000000000000000000dead"),
        ("ethereum", "0x0000000000000000000000000000000000000001"),  # the ecrecover precompile
        ("ethereum", "0xdEAD000000000000000042069420694206942069"),
        ("ethereum", "0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02"),  # EIP-4788 system contract
        ("tron", "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"),  # the black hole
        ("tron", b58check_encode(b"\x41" + bytes(19) + b"\x01")),
        ("bitcoin", "1BitcoinEaterAddressDontSendf59kuE"),
        ("bitcoin", "1CounterpartyXXXXXXXXXXXXXXXUWLpVr"),
        ("bitcoin", "1111111111111111111114oLvT2"),  # the hash of nothing known: 20 zero bytes
        ("bitcoin", "31h1vYVSYuKP6AhS86fbRdMw9XHieotbST"),
        ("bitcoin", "bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq9e75rs"),
        ("litecoin", "LKDxGDJq5fF4FohAB8zJH24mDDNHDNtqsE"),
        ("litecoin", "M7uAERuQW2AotfyLDyewFGcLUDtAYu9v5V"),
        ("litecoin", "ltc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqp9ysmq"),
    ],
)
def test_burn_and_system_addresses_are_refused_on_every_network_with_one_message(network, address):
    assert refusal(network, address) == UNSPENDABLE_MESSAGE


@pytest.mark.parametrize(("network", "address"), [(n.id, a) for n in all_networks() for a in sorted(n.unspendable)])
def test_every_listed_unspendable_address_is_well_formed_and_refused(network, address):
    assert refusal(network, address) == UNSPENDABLE_MESSAGE  # a misspelt entry would get the format's message


# --- the two ways a customer withdraws ----------------------------------------------------------------------------


@pytest.fixture
def funded(customer, payment_setup, settings):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-NET",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    return customer


CASES = [
    ("LTC", "litecoin", BITCOIN_P2SH, LITECOIN_3_MESSAGE),
    ("SOL", "solana", SOLANA_SYSTEM_PROGRAM, UNSPENDABLE_MESSAGE),
    ("ETH", "ethereum", "0x000000000000000000000000000000000000dEaD", UNSPENDABLE_MESSAGE),
]


@pytest.mark.parametrize(("asset", "network", "address", "message"), CASES)
def test_the_api_refuses_the_withdrawal_with_a_422_and_the_reason(client, funded, asset, network, address, message):
    token = api_token_create(user=funded, name="t")[1]
    response = client.post(
        "/api/v1/payouts",
        {"asset": asset, "network": network, "address": address, "amount_usd": "25.00"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=f"net-{asset}",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 422
    assert response.json() == {"error": {"code": "invalid_address", "message": message}}
    assert not Payout.objects.exists()


@pytest.mark.parametrize(("asset", "network", "address", "message"), CASES)
def test_the_balance_page_refuses_the_withdrawal_and_shows_the_reason(client, funded, asset, network, address, message):
    client.force_login(funded)
    body = {"pair": f"{asset}/{network}", "address": address, "amount_usd": "25.00", "idempotency_key": "w-net"}
    response = client.post(reverse("payments:withdraw"), body)
    assert response.status_code == 422  # the balance page again, the reason on the address field
    assert list(response.context["messages"]) == []
    assert (
        str(response.context["fields"]["payout_address_errors"])
        == f'<ul class="errorlist" id="payout_address_error"><li>{escape(message)}</li></ul>'
    )
    assert not Payout.objects.exists()

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpurent.payments.addresses import validate_address
from gpurent.payments.errors_crypto import InvalidAddress
from gpurent.payments.networks.codecs import (
    Encoding,
    b58check_decode,
    b58check_encode,
    b58decode,
    b58encode,
    bech32_decode,
    eip55_checksum,
    keccak256,
    segwit_decode,
)

VECTORS = json.loads((Path(__file__).parent / "vectors" / "bip173_bip350.json").read_text())


def refused(network, address):
    with pytest.raises(InvalidAddress) as caught:
        validate_address(network, address)
    return caught.value


# --- Bech32 / Bech32m checksums (BIP-173, BIP-350) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "encoding"),
    [(t, Encoding.BECH32) for t in VECTORS["valid_bech32"]] + [(t, Encoding.BECH32M) for t in VECTORS["valid_bech32m"]],
)
def test_bech32_decode_published_valid_strings_and_a_flipped_character_breaks_them(text, encoding):
    decoded = bech32_decode(text)
    assert decoded is not None
    assert decoded[2] is encoding
    pos = text.rfind("1")
    flipped = text[: pos + 1] + chr(ord(text[pos + 1]) ^ 1) + text[pos + 2 :]
    assert bech32_decode(flipped) is None


@pytest.mark.parametrize(
    ("text", "encoding"),
    [(t, Encoding.BECH32) for t in VECTORS["invalid_bech32"]]
    + [(t, Encoding.BECH32M) for t in VECTORS["invalid_bech32m"]],
)
def test_bech32_decode_published_invalid_strings(text, encoding):
    decoded = bech32_decode(text)
    assert decoded is None or decoded[2] is not encoding


# --- Bitcoin ----------------------------------------------------------------------------------------------------


def _script(version, program):
    return bytes([version + 0x50 if version else 0, len(program)]) + program


@pytest.mark.parametrize(("address", "script"), VECTORS["valid_segwit_addresses"])
def test_segwit_published_valid_addresses_decode_to_their_script(address, script):
    hrp = "bc" if address.lower().startswith("bc1") else "tb"
    decoded = segwit_decode(hrp, address)
    assert decoded is not None
    assert _script(*decoded).hex() == script


@pytest.mark.parametrize(("address", "script"), [v for v in VECTORS["valid_segwit_addresses"] if v[0][:2] in "bcBC"])
def test_validate_address_bitcoin_segwit_mainnet_vectors_are_canonical_lower_case(address, script):
    assert validate_address("bitcoin", address) == address.lower()


@pytest.mark.parametrize(("address", "script"), [v for v in VECTORS["valid_segwit_addresses"] if v[0][:2] == "tb"])
def test_validate_address_bitcoin_refuses_testnet_segwit(address, script):
    refused("bitcoin", address)


@pytest.mark.parametrize(("address", "why"), VECTORS["invalid_segwit_addresses"])
def test_validate_address_bitcoin_refuses_published_invalid_segwit(address, why):
    refused("bitcoin", address)
    refused("litecoin", address)


def test_validate_address_bitcoin_refuses_mixed_case_bech32():
    refused("bitcoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8F3T4")


@pytest.mark.parametrize(
    "address",
    [
        "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",  # genesis block coinbase, P2PKH
        "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",  # P2SH (BIP-13 era example)
        "12KYrjTdVGjFMtaxERSk3gphreJ5US8aUP",
        "3NJZLcZEEYBpxYEUGewU4knsQRn1WM5Fkt",
    ],
)
def test_validate_address_bitcoin_accepts_mainnet_base58check(address):
    assert validate_address("bitcoin", address) == address


@pytest.mark.parametrize(
    ("address", "found"),
    [
        ("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb", None),  # checksum
        ("mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef", "a test network"),  # version 0x6f
        ("2MxKEf2su6FGAUfCEAHreGFQvEYrfYNHvL7", "a test network"),  # P2SH version 0xc4
        ("LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9", "Litecoin"),
        ("1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf0a", None),  # 0 is not Base58
        ("11A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", None),  # an extra leading zero byte
        ("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "Ethereum"),
        ("ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea", "Litecoin"),  # a Litecoin hrp
    ],
)
def test_validate_address_bitcoin_refuses_wrong_checksum_version_or_network(address, found):
    message = refused("bitcoin", address).message
    if found is None:
        assert message == "This is not a valid Bitcoin address."
    else:
        assert message.startswith(f"This is an address on {found}, not on Bitcoin.")


# --- Litecoin ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9",
        "LTpYZG19YmfvY2bBDYtCKpunVRw7nVgRHW",
        "Lb6wDP2kHGyWC7vrZuZAgV7V4ECyDdH7a6",
        "MUWheVyCBf3Fm3WNNXvotQ3Gj8NTSZCBVe",
        "ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea",
        "ltc1qhxka8d59lylj76rpsflhagp76nvckggd8x0tt7jtnphpkmfv3snsk6suq0",
    ],
)
def test_validate_address_litecoin_accepts_mainnet_addresses(address):
    assert validate_address("litecoin", address) == address


def test_validate_address_litecoin_segwit_is_canonical_lower_case():
    upper = "LTC1QG42TKWUUXEFUTZXEZDKDEL39GFSTUAP288MFEA"
    assert validate_address("litecoin", upper) == upper.lower()


@pytest.mark.parametrize(
    ("address", "found"),
    [
        ("LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8", None),  # checksum
        ("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "Bitcoin"),  # Bitcoin P2PKH version
        ("mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef", "a test network"),
        ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "Bitcoin"),  # Bitcoin hrp
        ("ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfeb", None),  # checksum
    ],
)
def test_validate_address_litecoin_refuses_other_networks_and_bad_checksums(address, found):
    message = refused("litecoin", address).message
    if found is None:
        assert message == "This is not a valid Litecoin address."
    else:
        assert message.startswith(f"This is an address on {found}, not on Litecoin.")


# --- Ethereum (EIP-55) ------------------------------------------------------------------------------------------

# The examples of EIP-55 itself: all caps, all lower, and mixed ("normal") spellings that are their own checksum.
EIP55_EXAMPLES = [
    "0x52908400098527886E0F7030069857D2E4169EE7",
    "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
    "0xde709f2102306220921060314715629080e2fb77",
    "0x27b1fdb04752bbc536007a920d24acb045561c26",
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
]


@pytest.mark.parametrize("address", EIP55_EXAMPLES)
def test_eip55_checksum_reproduces_the_eip_examples(address):
    assert eip55_checksum(address.lower()) == address
    assert eip55_checksum(address.upper().replace("0X", "0x")) == address
    assert validate_address("ethereum", address) == address


def test_keccak256_is_ethereum_keccak_not_fips_sha3():
    assert keccak256(b"").hex() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    assert keccak256(b"") != hashlib.sha3_256(b"").digest()


def test_validate_address_ethereum_canonicalizes_single_case_to_checksummed():
    checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    assert validate_address("ethereum", checksummed.lower()) == checksummed
    assert validate_address("ethereum", "0x" + checksummed[2:].upper()) == checksummed


@pytest.mark.parametrize(
    "address",
    [
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeaEd",  # two letters' case swapped: checksum fails
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",  # 39 hex digits
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd",  # 41
        "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",  # no 0x
        "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",  # 0X
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg",  # not hex
    ],
)
def test_validate_address_ethereum_refuses_bad_checksum_length_and_prefix(address):
    assert refused("ethereum", address).message == "This is not a valid Ethereum address."


# --- Tron -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        "TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r",
        "TFEkshkSXo8yMe8vcA6P77XmiLfstNWHyT",
        "TUBBzKNM9gr687ucwj8fvVS2Sf2e4WseVa",
    ],
)
def test_validate_address_tron_accepts_base58check_with_version_0x41(address):
    assert validate_address("tron", address) == address


@pytest.mark.parametrize(
    "address",
    [
        "TR7NHqjeKQxGTCi8q8ZY4pL8otSzg5uV7p",  # right payload, wrong checksum (payments_security §4.1)
        "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxM",  # one character short
        "tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t",  # Base58 is case-sensitive
    ],
)
def test_validate_address_tron_refuses_bad_checksum_and_case(address):
    assert refused("tron", address).message == "This is not a valid Tron address."


@pytest.mark.parametrize(
    ("address", "found"),
    [
        ("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "Bitcoin"),  # Base58Check, but Bitcoin's version byte
        ("0xdAC17F958D2ee523a2206206994597C13D831ec7", "Ethereum"),  # the same kind of 20 bytes, for Ethereum
    ],
)
def test_validate_address_tron_refuses_other_networks_naming_them(address, found):
    assert refused("tron", address).message.startswith(f"This is an address on {found}, not on Tron.")


def test_tron_black_hole_is_well_formed_but_refused_as_unspendable():
    assert b58check_decode("T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb") == b"\x41" + bytes(20)
    assert refused("tron", "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb").message.startswith("Nobody can spend from")


# --- Solana -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg",  # the Solana docs' example account
        "1thX6LZfHDZZKUs92febYZhYRcXddmzfzF2NvTkPNE",  # one leading zero byte, spelled with one "1"
    ],
)
def test_validate_address_solana_accepts_base58_of_32_bytes(address):
    assert validate_address("solana", address) == address


@pytest.mark.parametrize(
    "address",
    [
        "111111111111111111111111111111111",  # 33 zero bytes
        "1111111111111111111111111111111",  # 31
        "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D",  # 31 bytes once decoded
        "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0",  # 0 is not Base58
        "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5Dl",  # neither is l
    ],
)
def test_validate_address_solana_refuses_other_lengths_and_alphabets(address):
    assert refused("solana", address).message == "This is not a valid Solana address."


# --- shared behaviour -------------------------------------------------------------------------------------------


def test_validate_address_ignores_surrounding_whitespace_only():
    assert validate_address("tron", "  TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t\n") == "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
    refused("tron", "TR7NHqjeKQxGTCi8q8ZY4pL8 otSzgjLj6t")


@pytest.mark.parametrize(
    "address", ["", "   ", "T" * 101, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6\u0442", "a\x00b", None, 42]
)
def test_validate_address_refuses_empty_long_non_ascii_and_non_strings(address):
    refused("tron", address)


def test_validate_address_error_is_a_422_naming_the_network():
    error = refused("solana", "nope")
    assert (error.code, error.status, error.replayable) == ("invalid_address", 422, False)
    assert error.as_body() == {"error": {"code": "invalid_address", "message": "This is not a valid Solana address."}}


def test_validate_address_unknown_network_is_refused():
    assert (
        refused("dogecoin", "DFundmtrigzA6E25Swr2pRe4Eb79bGP8G1").message == "Addresses on “dogecoin” are not accepted."
    )


@given(st.binary(min_size=1, max_size=40))
def test_base58_round_trips_any_bytes(data):
    assert b58decode(b58encode(data)) == data
    assert b58check_decode(b58check_encode(data)) == data


def test_base58check_refuses_short_input():
    with pytest.raises(ValueError, match="too short"):
        b58check_decode("1111")

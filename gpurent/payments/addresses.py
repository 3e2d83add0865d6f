"""Address validation per network, with checksums where the network has them.

`validate_address(network, address)` returns the address in its canonical form or raises `InvalidAddress`.
Validation is per network on purpose: the same 20 bytes can be spelled as an Ethereum or a Tron address, and
Litecoin's legacy `3…` P2SH collides with Bitcoin's, so "it parses" never means "it belongs to this network"
(payments_security §4.1). Bitcoin and Litecoin follow the variant the shop runs (`networks.variant`: mainnet
unless `PAYMENTS_SEGWIT_HRP` names a test network's prefix):

| network  | accepted (mainnet; test networks in `networks.py`)                              | canonical form    |
|----------|---------------------------------------------------------------------------------|-------------------|
| bitcoin  | Base58Check P2PKH (0x00) / P2SH (0x05); segwit hrp `bc`: v0 Bech32, v1+ Bech32m | bech32 lower case |
| litecoin | Base58Check 0x30 `L…`, 0x32 `M…`; segwit hrp `ltc`                              | bech32 lower case |
| ethereum | `0x` + 40 hex; mixed case must pass EIP-55; all-lower/all-upper accepted        | EIP-55 checksummed|
| tron     | Base58Check of 21 bytes starting 0x41 (`T…`, 34 characters)                     | as given          |
| solana   | Base58 of exactly 32 bytes (no checksum exists)                                 | as given          |

A refusal says why when it can (docs/decisions/0370): an address of another network or test network is named
("This is an address on Bitcoin, not on Litecoin"); Litecoin's `3…` (and `m…`/`n…`/`2…` on its test networks)
is refused because a Bitcoin address spelled the same would pass for it; Tron's checksum-less hex form asks
for the `T…` form. A valid address nobody can spend from (burn, system and program addresses, the zero
address of every network) is refused with one message (`unspendable.py`, docs/decisions/0371).

Ethereum: an all-lower or all-upper address carries no checksum, and wallets and explorers print them; we
accept them and return the checksummed spelling, so what we store and show from then on is protected. A
mixed-case address is a claim that it is checksummed, and a wrong one is a typo: refused.

The codecs are the published algorithms, not a dependency: Base58 is a dozen lines, and Bech32/Bech32m below
follow the BIP-350 reference implementation (Pieter Wuille, MIT) line for line; both are tested on the BIPs'
own vectors. Keccak-256 for EIP-55 comes from pycryptodome, since `hashlib.sha3_256` is the FIPS padding and
gives different digests (docs/decisions/0040).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from enum import Enum

from Crypto.Hash import keccak
from django.utils.translation import gettext as _

from .errors_crypto import InvalidAddress
from .networks import SEGWIT_HRPS, Variant, network_label, variant
from .unspendable import is_unspendable

__all__ = [
    "Encoding",
    "b58check_decode",
    "b58check_encode",
    "b58decode",
    "b58encode",
    "bech32_decode",
    "eip55_checksum",
    "keccak256",
    "segwit_decode",
    "validate_address",
]

# No address on our networks is longer than a segwit v0 P2WSH (62/63 characters); refusing long input before
# decoding keeps Base58's quadratic big-integer loop bounded.
MAX_ADDRESS_LENGTH = 100

# A valid address in its canonical form, and what it encodes (the hash, witness program or key), for
# `is_unspendable`.
Decoded = tuple[str, bytes]


def validate_address(network: str, address: str) -> str:
    """The canonical form of `address` on `network`, after checking its format, version and checksum.

    Surrounding whitespace (a careless paste) is ignored; anything else that is not exactly an address is
    refused.

    Raises:
        InvalidAddress: the address is not valid on that network as the shop runs it, or nobody can spend from
            it; the message says why. An unknown network is refused the same way.
        ImproperlyConfigured: `PAYMENTS_SEGWIT_HRP` names no known Bitcoin or Litecoin network.
    """
    validator = _VALIDATORS.get(network)
    if validator is None:
        raise InvalidAddress(f"Addresses on “{network}” are not accepted.")
    text = address.strip() if isinstance(address, str) else ""
    if not text or len(text) > MAX_ADDRESS_LENGTH or not text.isascii() or not text.isprintable():
        raise InvalidAddress(_not_valid(network))
    decoded = validator(text)
    if decoded is None:
        raise InvalidAddress(_refusal(network, text))
    canonical, payload = decoded
    if is_unspendable(network, canonical, payload):
        raise InvalidAddress(
            _(
                "Nobody can spend from this address: it is a burn or system address, and anything sent to it is "
                "lost. Use an address from your own wallet."
            )
        )
    return canonical


def _not_valid(network: str) -> str:
    return _("This is not a valid %(network)s address.") % {"network": network_label(network)}


def _refusal(network: str, text: str) -> str:
    """Why `text` is not an address on `network`: the network it belongs to where that can be told."""
    shop = variant(network) if network in ("bitcoin", "litecoin") else None
    if shop is not None and _base58_version(text) in shop.shared_versions:
        if shop.name == "mainnet":
            return _(
                "Litecoin addresses starting with 3 are refused: they are spelled exactly like Bitcoin addresses, "
                "so a Bitcoin address would pass for one and the coins would be lost. Use your wallet's address "
                "starting with M, L or ltc1."
            )
        return _(
            "On Litecoin test networks, addresses spelled like Bitcoin testnet ones (m…, n…, 2…) are refused: use "
            "an address starting with Q or %(hrp)s1."
        ) % {"hrp": shop.hrp}
    if _TRON_HEX.fullmatch(text) and network == "tron":
        return _(
            "This is a Tron address in hex (41…), which carries no checksum: paste the address starting with T "
            "that your wallet shows."
        )
    found = _network_of(text)
    if found is None or found == network_label(network):
        return _not_valid(network)
    return _("This is an address on %(found)s, not on %(expected)s. Coins sent to the wrong network are lost.") % {
        "found": found,
        "expected": network_label(network),
    }


_TRON_HEX = re.compile(r"41[0-9a-fA-F]{40}", re.ASCII)
_BASE58_NETWORKS = {0x00: "Bitcoin", 0x05: "Bitcoin", 0x30: "Litecoin", 0x32: "Litecoin", 0x41: "Tron"}
_TEST_VERSIONS = {0x6F, 0xC4, 0x3A}  # Bitcoin and Litecoin test networks (0x3a: Litecoin's own P2SH)


def _network_of(text: str) -> str | None:
    """The network (and variant) `text` is a valid address of, as people call it, or None.

    Base58Check versions 0x6f and 0xc4 are shared by every Bitcoin and Litecoin test network: "a test network".
    """
    hrp = text[: text.rfind("1")].lower()
    if hrp in SEGWIT_HRPS and segwit_decode(hrp, text) is not None:
        return SEGWIT_HRPS[hrp].label
    version = _base58_version(text)
    if version in _BASE58_NETWORKS:
        return _BASE58_NETWORKS[version]
    if version in _TEST_VERSIONS:
        return "Litecoin testnet" if version == 0x3A else _("a test network")
    if _HEX40.fullmatch(text):
        return "Ethereum"
    if _TRON_HEX.fullmatch(text):
        return "Tron"
    return "Solana" if _solana(text) is not None else None


def _base58_version(text: str) -> int | None:
    """The version byte of a Base58Check string of 21 bytes (every Base58Check address here), or None."""
    try:
        payload = b58check_decode(text)
    except ValueError:
        return None
    return payload[0] if len(payload) == 21 else None


# --- Base58 / Base58Check ----------------------------------------------------------------------------------------

_B58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX = {char: index for index, char in enumerate(_B58_ALPHABET)}


def b58encode(data: bytes) -> str:
    """Base58 (Bitcoin alphabet); each leading zero byte becomes a leading "1"."""
    number = int.from_bytes(data, "big")
    digits = []
    while number:
        number, rest = divmod(number, 58)
        digits.append(_B58_ALPHABET[rest])
    zeros = len(data) - len(data.lstrip(b"\0"))
    return "1" * zeros + "".join(reversed(digits))


def b58decode(text: str) -> bytes:
    """Decode Base58. Raises ValueError on a character outside the alphabet (0, O, I, l, spaces, …)."""
    number = 0
    for char in text:
        index = _B58_INDEX.get(char)
        if index is None:
            raise ValueError(f"not a Base58 character: {char!r}")
        number = number * 58 + index
    zeros = len(text) - len(text.lstrip("1"))
    return b"\0" * zeros + number.to_bytes((number.bit_length() + 7) // 8, "big")


def _sha256d(data: bytes) -> bytes:
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def b58check_encode(payload: bytes) -> str:
    """Base58Check: Base58 of the payload followed by the first 4 bytes of its double SHA-256."""
    return b58encode(payload + _sha256d(payload)[:4])


def b58check_decode(text: str) -> bytes:
    """The payload of a Base58Check string (version byte included).

    Raises:
        ValueError: not Base58, too short to hold a checksum, or the checksum does not match.
    """
    raw = b58decode(text)
    if len(raw) < 5:
        raise ValueError("too short for Base58Check")
    payload, check = raw[:-4], raw[-4:]
    if _sha256d(payload)[:4] != check:
        raise ValueError("Base58Check checksum mismatch")
    return payload


def _base58check_version(text: str, versions: frozenset[int], payload_length: int) -> Decoded | None:
    """(`text`, the payload after the version) if `text` is Base58Check of `payload_length` bytes starting with
    one of `versions`, else None."""
    try:
        payload = b58check_decode(text)
    except ValueError:
        return None
    if len(payload) != payload_length or payload[0] not in versions:
        return None
    return text, payload[1:]


# --- Bech32 / Bech32m (BIP-173, BIP-350 reference implementation) ------------------------------------------------


class Encoding(Enum):
    """Which checksum constant a Bech32 string uses."""

    BECH32 = 1
    BECH32M = 2


_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_BECH32M_CONST = 0x2BC830A3


def _polymod(values: Iterable[int]) -> int:
    generator = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    checksum = 1
    for value in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            checksum ^= generator[i] if ((top >> i) & 1) else 0
    return checksum


def _hrp_expand(hrp: str) -> list[int]:
    return [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]


def bech32_decode(text: str) -> tuple[str, list[int], Encoding] | None:
    """Split a Bech32/Bech32m string into (hrp, data without checksum, encoding), or None if invalid.

    Mixed case is invalid (BIP-173); the hrp is returned in lower case.
    """
    if any(ord(x) < 33 or ord(x) > 126 for x in text) or (text.lower() != text and text.upper() != text):
        return None
    text = text.lower()
    pos = text.rfind("1")
    if pos < 1 or pos + 7 > len(text) or len(text) > 90:
        return None
    if not all(x in _CHARSET for x in text[pos + 1 :]):
        return None
    hrp = text[:pos]
    data = [_CHARSET.find(x) for x in text[pos + 1 :]]
    constant = _polymod(_hrp_expand(hrp) + data)
    if constant == 1:
        encoding = Encoding.BECH32
    elif constant == _BECH32M_CONST:
        encoding = Encoding.BECH32M
    else:
        return None
    return hrp, data[:-6], encoding


def _convertbits(data: Iterable[int], frombits: int, tobits: int, pad: bool = True) -> list[int] | None:
    acc = 0
    bits = 0
    result = []
    maxv = (1 << tobits) - 1
    max_acc = (1 << (frombits + tobits - 1)) - 1
    for value in data:
        if value < 0 or (value >> frombits):
            return None
        acc = ((acc << frombits) | value) & max_acc
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            result.append((acc >> bits) & maxv)
    if pad:
        if bits:
            result.append((acc << (tobits - bits)) & maxv)
    elif bits >= frombits or ((acc << (tobits - bits)) & maxv):
        return None
    return result


def segwit_decode(hrp: str, address: str) -> tuple[int, bytes] | None:
    """(witness version, witness program) of a segwit address for `hrp`, or None if it is not one.

    Enforces BIP-350: v0 uses Bech32 with a 20- or 32-byte program; v1..16 use Bech32m; programs are
    2..40 bytes.
    """
    decoded = bech32_decode(address)
    if decoded is None:
        return None
    hrp_got, data, encoding = decoded
    if hrp_got != hrp or not data:
        return None
    program = _convertbits(data[1:], 5, 8, False)
    if program is None or len(program) < 2 or len(program) > 40:
        return None
    version = data[0]
    if version > 16:
        return None
    if version == 0 and len(program) not in (20, 32):
        return None
    if (version == 0) != (encoding is Encoding.BECH32):
        return None
    return version, bytes(program)


# --- Keccak-256 and EIP-55 ---------------------------------------------------------------------------------------


def keccak256(data: bytes) -> bytes:
    """Ethereum's Keccak-256 (the original Keccak padding, not FIPS SHA3-256)."""
    digest = keccak.new(digest_bits=256)
    digest.update(data)
    return digest.digest()


_HEX40 = re.compile(r"0x([0-9a-fA-F]{40})", re.ASCII)


def eip55_checksum(address: str) -> str:
    """The EIP-55 spelling of a `0x` + 40 hex address: hex letters upper-cased where the Keccak-256 of the
    lower-case hex string has a nibble ≥ 8.

    Raises:
        ValueError: not `0x` followed by 40 hex digits.
    """
    match = _HEX40.fullmatch(address)
    if match is None:
        raise ValueError("not 0x followed by 40 hex digits")
    lower = match[1].lower()
    digest = keccak256(lower.encode("ascii")).hex()
    return "0x" + "".join(c.upper() if int(digest[i], 16) >= 8 else c for i, c in enumerate(lower))


# --- per-network validators: the canonical address, or None ------------------------------------------------------


def _bitcoin_family(network: str) -> Callable[[str], Decoded | None]:
    def validate(text: str) -> Decoded | None:
        shop: Variant = variant(network)
        if text[: len(shop.hrp) + 1].lower() == shop.hrp + "1":
            decoded = segwit_decode(shop.hrp, text)
            return (text.lower(), decoded[1]) if decoded is not None else None
        return _base58check_version(text, shop.versions, 21)

    return validate


def _ethereum(text: str) -> Decoded | None:
    match = _HEX40.fullmatch(text)
    if match is None:
        return None
    checksummed = eip55_checksum(text)
    hex_part = match[1]
    is_single_case = hex_part == hex_part.lower() or hex_part == hex_part.upper()
    if not is_single_case and text != checksummed:
        return None
    return checksummed, bytes.fromhex(hex_part)


def _tron(text: str) -> Decoded | None:
    return _base58check_version(text, frozenset({0x41}), 21)


def _solana(text: str) -> Decoded | None:
    try:
        raw = b58decode(text)
    except ValueError:
        return None
    # Re-encoding catches a spelling with extra leading "1"s that decodes to the same 32 bytes.
    return (text, raw) if len(raw) == 32 and b58encode(raw) == text else None


_VALIDATORS: dict[str, Callable[[str], Decoded | None]] = {
    "bitcoin": _bitcoin_family("bitcoin"),
    "litecoin": _bitcoin_family("litecoin"),
    "ethereum": _ethereum,
    "tron": _tron,
    "solana": _solana,
}

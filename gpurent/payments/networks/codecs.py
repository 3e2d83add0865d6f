"""The address codecs every network module uses: Base58 and Base58Check, Bech32/Bech32m (segwit), Keccak-256
and EIP-55.

They are the published algorithms, not a dependency: Base58 is a dozen lines, and Bech32/Bech32m below follow the
BIP-350 reference implementation (Pieter Wuille, MIT) line for line; both are tested on the BIPs' own vectors.
Keccak-256 for EIP-55 comes from pycryptodome, since `hashlib.sha3_256` is the FIPS padding and gives different
digests (docs/decisions/0040). `gpurent.payments.addresses` re-exports the public names.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from enum import Enum

from Crypto.Hash import keccak

__all__ = [
    "HEX40",
    "Decoded",
    "Encoding",
    "b58check_decode",
    "b58check_encode",
    "b58decode",
    "b58encode",
    "base58_version",
    "base58check_version",
    "bech32_decode",
    "eip55_checksum",
    "keccak256",
    "segwit_decode",
]

# A valid address in its canonical form, and what it encodes (the hash, witness program or key), for a network's
# unspendable check.
Decoded = tuple[str, bytes]

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


def base58check_version(text: str, versions: frozenset[int], payload_length: int) -> Decoded | None:
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


HEX40 = re.compile(r"0x([0-9a-fA-F]{40})", re.ASCII)


def eip55_checksum(address: str) -> str:
    """The EIP-55 spelling of a `0x` + 40 hex address: hex letters upper-cased where the Keccak-256 of the
    lower-case hex string has a nibble ≥ 8.

    Raises:
        ValueError: not `0x` followed by 40 hex digits.
    """
    match = HEX40.fullmatch(address)
    if match is None:
        raise ValueError("not 0x followed by 40 hex digits")
    lower = match[1].lower()
    digest = keccak256(lower.encode("ascii")).hex()
    return "0x" + "".join(c.upper() if int(digest[i], 16) >= 8 else c for i, c in enumerate(lower))


def base58_version(text: str) -> int | None:
    """The version byte of a Base58Check string of 21 bytes (every Base58Check address here), or None."""
    try:
        payload = b58check_decode(text)
    except ValueError:
        return None
    return payload[0] if len(payload) == 21 else None

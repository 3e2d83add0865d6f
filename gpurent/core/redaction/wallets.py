"""Wallet private keys recognised by their structure, without any word around them.

- **WIF** (Bitcoin, Litecoin… "wallet import format"): base58check, so a random 51-character word almost never
  passes the checksum.
- **Solana keypairs**, as `solana-keygen` and Phantom export them: 64 bytes, an ed25519 seed followed by its
  public key, written in base58 (87–88 characters) or as a JSON array of 64 numbers (`id.json`). A transaction
  signature has the same length, so the test is structural: the second half must be the public key derived
  from the first (pycryptodome's Ed25519, decision 0040). Signatures, addresses and hashes never pass it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterator

from Crypto.PublicKey import ECC

__all__ = ["JSON_KEYPAIR", "SOLANA_BASE58", "SOLANA_BASE64", "SOLANA_HEX", "WIF", "solana_keypair_spans", "wif_spans"]

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
WIF = re.compile(r"(?<![A-Za-z0-9])[5KLc9][1-9A-HJ-NP-Za-km-z]{50,51}(?![A-Za-z0-9])")
SOLANA_BASE58 = re.compile(r"(?<![A-Za-z0-9])[1-9A-HJ-NP-Za-km-z]{85,90}(?![A-Za-z0-9])")
# `[12,34,…]` as in `id.json`, or the 64 numbers without their brackets.
JSON_KEYPAIR = re.compile(r"(?<![\d,])\[?\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]?(?![\d,])")


def _base58_decode(value: str) -> bytes:
    number = 0
    for char in value:
        number = number * 58 + _BASE58.index(char)
    body = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return b"\0" * (len(value) - len(value.lstrip("1"))) + body


def _base58check_ok(value: str) -> bool:
    raw = _base58_decode(value)
    payload, checksum = raw[:-4], raw[-4:]
    return len(payload) > 1 and hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == checksum


def is_solana_keypair(raw: bytes) -> bool:
    """Whether 64 bytes are an ed25519 seed followed by its own public key."""
    if len(raw) != 64:
        return False
    public = ECC.construct(curve="Ed25519", seed=raw[:32]).public_key()  # type: ignore[arg-type]
    return bool(public.export_key(format="raw") == raw[32:])


def wif_spans(text: str) -> Iterator[tuple[int, int]]:
    for match in WIF.finditer(text):
        if _base58check_ok(match.group()):
            yield match.span()


# The same 64 bytes in hex (128 digits) or in base64 (88 characters): a signature or a hash of that length fails
# the same ed25519 test.
SOLANA_HEX = re.compile(r"(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{128}(?![0-9A-Za-z])")
SOLANA_BASE64 = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])")


def solana_keypair_spans(text: str) -> Iterator[tuple[int, int]]:
    for match in SOLANA_BASE58.finditer(text):
        if is_solana_keypair(_base58_decode(match.group())):
            yield match.span()
    for match in JSON_KEYPAIR.finditer(text):
        numbers = json.loads("[" + match.group().strip().strip("[]") + "]")
        if all(number < 256 for number in numbers) and is_solana_keypair(bytes(numbers)):
            yield match.span()
    for match in SOLANA_HEX.finditer(text):
        if is_solana_keypair(bytes.fromhex(match.group().removeprefix("0x"))):
            yield match.span()
    for match in SOLANA_BASE64.finditer(text):
        if is_solana_keypair(base64.b64decode(match.group())):
            yield match.span()

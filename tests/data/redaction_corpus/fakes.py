"""Fake credentials in the published shapes, for building the redaction corpus (never real secrets).

Every value comes from a seeded generator: random characters in the alphabet and length a provider's format
(as published in the gitleaks, trufflehog and detect-secrets rule sets) uses, wallet keys from random bytes.
None of them is, or ever was, a credential anyone issued.
"""

from __future__ import annotations

import hashlib
import json
import random
import string
import uuid

from Crypto.PublicKey import ECC

from gpurent.core.redaction.seed_phrases import mnemonic_from_entropy

ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
LOWER = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


class Fakes:
    """A seeded source of fake secrets and of look-alike non-secrets."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)  # noqa: S311 (fake test data, not cryptography)

    def pick(self, alphabet: str, length: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(length))

    def raw(self, length: int) -> bytes:
        return bytes(self.rng.randrange(256) for _ in range(length))

    def choice(self, items):
        return self.rng.choice(items)

    def password(self) -> str:
        """A password as people choose them: words, digits, a symbol, sometimes random."""
        words = ["summer", "dragon", "Monkey", "Sunshine", "qwerty", "Liverpool", "trustno", "Welcome", "gpuRig"]
        style = self.rng.randrange(4)
        if style == 0:
            return self.choice(words) + str(self.rng.randint(1, 9999)) + self.choice("!@#$%&*")
        if style == 1:
            return self.pick(ALNUM, self.rng.randint(10, 20))
        if style == 2:
            return self.pick(ALNUM + "!@#%^*_-", self.rng.randint(12, 24))
        return self.choice(words).capitalize() + self.choice("._-") + self.pick(string.digits, 4)

    def hex(self, length: int) -> str:
        return self.pick(HEX, length)

    def b58(self, data: bytes) -> str:
        number = int.from_bytes(data, "big")
        encoded = ""
        while number:
            number, remainder = divmod(number, 58)
            encoded = BASE58[remainder] + encoded
        return "1" * (len(data) - len(data.lstrip(b"\0"))) + encoded

    def b58check(self, payload: bytes) -> str:
        return self.b58(payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4])

    def solana_keypair(self) -> bytes:
        """64 bytes as `solana-keygen` stores them: the ed25519 seed, then its public key."""
        seed = self.raw(32)
        public = ECC.construct(curve="Ed25519", seed=seed).public_key().export_key(format="raw")  # type: ignore[arg-type]
        return seed + public

    def solana_keypair_b58(self) -> str:
        return self.b58(self.solana_keypair())

    def solana_keypair_json(self, spaced: bool = False) -> str:
        return json.dumps(list(self.solana_keypair()), separators=(", ", ": ") if spaced else (",", ":"))

    def solana_address(self) -> str:
        return self.b58(self.solana_keypair()[32:])

    def solana_signature(self) -> str:
        return self.b58(self.raw(64))

    def wif(self) -> str:
        return self.b58check(b"\x80" + self.raw(32) + self.choice([b"\x01", b""]))

    def xprv(self) -> str:
        return self.b58check(bytes.fromhex("0488ade4") + self.raw(74))

    def btc_address(self) -> str:
        return self.b58check(b"\x00" + self.raw(20))

    def eth_key(self) -> str:
        return self.hex(64)

    def seed_phrase(self, words: int = 12) -> str:
        return " ".join(mnemonic_from_entropy(self.raw(words * 4 // 3)))

    def pem(self, label: str, lines: int = 8) -> str:
        body = "\n".join(self.pick(B64, 64) for _ in range(lines)) + "\n" + self.pick(B64, 20) + "="
        return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"

    def uuid(self) -> str:
        return str(uuid.UUID(bytes=self.raw(16), version=4))

    def jwt(self) -> str:
        import base64

        def part(data: dict[str, object]) -> str:
            return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

        claims = {"sub": str(self.rng.randint(1, 10**6)), "iat": 1_760_000_000 + self.rng.randint(0, 10**6)}
        return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}.{self.pick(URLSAFE, 43)}"

"""The seeded fake-value generator of held-out 9 (written for it, independent of `fakes.py` and the redactor).

Every value is random and fake, drawn in the shape the provider publishes; the same seed gives the same part.
Seed phrases are valid BIP-39 mnemonics from random entropy (bip-utils, already a dependency); bip-utils has no
Japanese list, so the Japanese phrases were drawn once with the `mnemonic` package outside the repository and are
kept here as text. Addresses and extended public keys are derived with bip-utils from random seeds, so they look
exactly like what a wallet shows.
"""

from __future__ import annotations

import base64
import json
import random
import unicodedata
import uuid
from collections.abc import Sequence
from typing import TypeVar

from bip_utils import (
    Bip39Languages,
    Bip39MnemonicEncoder,
    Bip39MnemonicValidator,
    Bip44,
    Bip44Changes,
    Bip44Coins,
    Bip84,
    Bip84Coins,
)

UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
ALNUM = UPPER + LOWER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BASE32 = UPPER + "234567"

T = TypeVar("T")

LANGS = {
    "en": Bip39Languages.ENGLISH,
    "es": Bip39Languages.SPANISH,
    "fr": Bip39Languages.FRENCH,
    "it": Bip39Languages.ITALIAN,
    "pt": Bip39Languages.PORTUGUESE,
    "cs": Bip39Languages.CZECH,
    "ko": Bip39Languages.KOREAN,
    "zh": Bip39Languages.CHINESE_SIMPLIFIED,
    "zh_tw": Bip39Languages.CHINESE_TRADITIONAL,
}

# Drawn once with `mnemonic.Mnemonic("japanese").to_mnemonic(random entropy)`; ideographic spaces as wallets show.
JAPANESE = [
    "そっけつ\u3000しはつ\u3000きなが\u3000ないかく\u3000ほうほう\u3000そむりえ\u3000こまる\u3000りくつ\u3000よくせい\u3000ななおし\u3000あんがい\u3000まかい",
    "こくない\u3000きそう\u3000けっこん\u3000とのさま\u3000こっか\u3000うかべる\u3000けつろん\u3000ないす\u3000てつや\u3000てんぷら\u3000おんだん\u3000そっこう\u3000えいぶん\u3000はんかく\u3000てんらんかい",
    "よそく\u3000かかえる\u3000みじかい\u3000ごうまん\u3000あやまる\u3000めいきょく\u3000こうかん\u3000うけつけ\u3000ちぬき\u3000つかれる\u3000げきちん\u3000ひよう\u3000さぎょう\u3000とうむぎ\u3000さんせい\u3000はんのう\u3000ありがとう\u3000けんみん",
    "てすり\u3000ほけん\u3000いくじ\u3000いりぐち\u3000はいそう\u3000いせえび\u3000こあくま\u3000せんぬき\u3000ばしょ\u3000せんれい\u3000にんめい\u3000にんたい\u3000てちがい\u3000せんか\u3000かなざわし\u3000はやし\u3000ねあげ\u3000そもそも\u3000ふみん\u3000そいとげる\u3000とけい\u3000ぬすむ\u3000はけん\u3000ゆうびんきょく",
    "ふんそう\u3000たもつ\u3000つける\u3000ほしつ\u3000まける\u3000ゆたか\u3000そうめん\u3000くげん\u3000げいのうじん\u3000せっきゃく\u3000とうし\u3000うれゆき",
    "いっち\u3000しあさって\u3000ぬぐいとる\u3000やおや\u3000しはい\u3000へいおん\u3000ときどき\u3000きちょう\u3000きせい\u3000けんみん\u3000にんたい\u3000ぷうたろう\u3000がんか\u3000くうぼ\u3000ひさん\u3000なのか\u3000もんだい\u3000きぬごし\u3000ぜんぽう\u3000にんい\u3000のいず\u3000したて\u3000さびしい\u3000にっすう",
]


class Gen:
    """Seeded fake values; one instance per build so the part is reproducible."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)  # noqa: S311  (fake corpus values, reproducible on purpose)

    # --- basics -------------------------------------------------------------------------------------------
    def pick(self, alphabet: str, n: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def choice(self, items: Sequence[T]) -> T:
        return self.rng.choice(items)

    def n(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def hex(self, n: int) -> str:
        return self.pick(HEX, n)

    def raw(self, n: int) -> bytes:
        return bytes(self.rng.getrandbits(8) for _ in range(n))

    def b64(self, nbytes: int) -> str:
        return base64.b64encode(self.raw(nbytes)).decode()

    def uuid(self) -> str:
        return str(uuid.UUID(bytes=self.raw(16), version=4))

    def ip(self) -> str:
        return f"{self.n(11, 223)}.{self.n(0, 255)}.{self.n(0, 255)}.{self.n(2, 254)}"

    def date(self) -> str:
        return f"2027-{self.n(1, 12):02d}-{self.n(1, 28):02d}"

    def time(self) -> str:
        return f"{self.n(0, 23):02d}:{self.n(0, 59):02d}:{self.n(0, 59):02d}"

    def b64lines(self, nbytes: int, width: int = 64) -> list[str]:
        body = self.b64(nbytes)
        return [body[i : i + width] for i in range(0, len(body), width)]

    # --- secrets ------------------------------------------------------------------------------------------
    def aws_id(self, prefix: str = "AKIA") -> str:
        return prefix + self.pick(BASE32, 16)

    def aws_secret(self) -> str:
        while True:
            value = self.pick(B64, 40)
            if "/" in value or "+" in value or self.rng.random() < 0.3:
                return value

    def aws_session(self) -> str:
        return "IQoJb3JpZ2luX2Vj" + self.pick(B64, self.n(280, 360))

    def password(self) -> str:
        style = self.rng.randrange(4)
        if style == 0:
            return self.pick(ALNUM, self.n(12, 20))
        if style == 1:
            word = self.choice(["Kestrel", "anadolu", "Saigon", "Mercurio", "tornado", "Lagarto", "Karadeniz", "Hanoi"])
            return word + self.pick(DIGITS, self.n(3, 5)) + self.choice(["!", "#", "_x", "?", ""])
        if style == 2:
            return self.pick(ALNUM + "-_.", self.n(16, 26))
        return (
            self.pick(ALNUM, 6)
            + self.choice(["-", "."])
            + self.pick(ALNUM, 6)
            + self.choice(["-", "."])
            + self.pick(ALNUM, 6)
        )

    def urlpw(self) -> str:
        return self.choice(
            [self.pick(ALNUM, self.n(14, 22)), self.pick(LOWER, 5) + self.pick(DIGITS, 4) + self.pick(UPPER + LOWER, 6)]
        )

    def hf(self) -> str:
        return "hf_" + self.pick(UPPER + LOWER, 34)

    def openai(self) -> str:
        return "sk-proj-" + self.pick(URLSAFE, 58) + "T3BlbkFJ" + self.pick(URLSAFE, 58)

    def anthropic(self) -> str:
        return "sk-ant-api03-" + self.pick(URLSAFE, 93) + "AA"

    def jwt(self, claims: dict[str, object] | None = None) -> str:
        def enc(data: dict[str, object]) -> str:
            return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")

        body = claims or {"sub": self.uuid(), "iat": 1_800_000_000 + self.n(0, 9_999_999), "role": "user"}
        return enc({"alg": "HS256", "typ": "JWT"}) + "." + enc(body) + "." + self.pick(URLSAFE, 43)

    def pem_body(self, nbytes: int = 1190) -> list[str]:
        lines = self.b64lines(nbytes)
        return ["MII" + lines[0][3:], *lines[1:]]

    # --- seed phrases -------------------------------------------------------------------------------------
    def seed(self, lang: str, words: int = 12) -> str:
        """A valid BIP-39 phrase (single spaces) of `words` words in list `lang` (not Japanese)."""
        entropy = self.raw({12: 16, 15: 20, 18: 24, 21: 28, 24: 32}[words])
        return str(Bip39MnemonicEncoder(LANGS[lang]).Encode(entropy))

    # --- public look-alikes -------------------------------------------------------------------------------
    def btc_address(self) -> str:
        acct = Bip84.FromSeed(self.raw(64), Bip84Coins.BITCOIN).Purpose().Coin().Account(0)
        return acct.Change(Bip44Changes.CHAIN_EXT).AddressIndex(self.n(0, 40)).PublicKey().ToAddress()

    def zpub(self) -> str:
        return Bip84.FromSeed(self.raw(64), Bip84Coins.BITCOIN).Purpose().Coin().Account(0).PublicKey().ToExtended()

    def xpub(self) -> str:
        return Bip44.FromSeed(self.raw(64), Bip44Coins.BITCOIN).Purpose().Coin().Account(0).PublicKey().ToExtended()

    def eth_address(self) -> str:
        acct = Bip44.FromSeed(self.raw(64), Bip44Coins.ETHEREUM).Purpose().Coin().Account(0)
        return acct.Change(Bip44Changes.CHAIN_EXT).AddressIndex(0).PublicKey().ToAddress()

    def sol_address(self) -> str:
        return Bip44.FromSeed(self.raw(64), Bip44Coins.SOLANA).Purpose().Coin().Account(0).PublicKey().ToAddress()

    def tron_address(self) -> str:
        acct = Bip44.FromSeed(self.raw(64), Bip44Coins.TRON).Purpose().Coin().Account(0)
        return acct.Change(Bip44Changes.CHAIN_EXT).AddressIndex(0).PublicKey().ToAddress()

    def sol_signature(self) -> str:
        return self.pick(B58, self.n(86, 88))

    def ssh_ed25519_pub(self) -> str:
        return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + self.pick(B64, 43)

    def sha256(self) -> str:
        return self.hex(64)


def _runs(text: str) -> list[list[str]]:
    """Token runs of a text, split on whitespace, commas and list numbering (the way a phrase is written)."""
    tokens = []
    for raw in text.replace(",", " ").replace("\u3000", " ").split():
        word = raw.strip(".;:()[]\"'`-*|")
        if word and not word.rstrip(".)").isdigit():
            tokens.append(unicodedata.normalize("NFKD", word.lower()))
    return [tokens]


def assert_no_phrase(text: str) -> None:
    """Refuse a clean text in which any run of 12 to 24 words passes a BIP-39 list's checksum."""
    for tokens in _runs(text):
        for size in (12, 15, 18, 21, 24):
            for start in range(len(tokens) - size + 1):
                words = " ".join(tokens[start : start + size])
                for lang in LANGS.values():
                    try:
                        valid = Bip39MnemonicValidator(lang).IsValid(words)
                    except Exception:  # noqa: BLE001  (a word outside the list is simply not a phrase)
                        valid = False
                    if valid:
                        raise ValueError(f"clean text holds a valid phrase: {words[:60]!r}")

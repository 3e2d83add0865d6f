"""The seeded generator of held-out 10 (0396): fake values in the shapes providers publish, BIP-39 phrases and
wallet keys from random entropy (bip-utils), and the check that no clean text holds a valid phrase.

Written for this part without `fakes.py` (which imports the redactor) so that its writer never loads the patterns.
"""

from __future__ import annotations

import base64
import random
import re
import struct
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import bip_utils
from bip_utils import (
    Bip39Languages,
    Bip39MnemonicGenerator,
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
AWS_ID = UPPER + "234567"

LANGS = {
    "english": Bip39Languages.ENGLISH,
    "spanish": Bip39Languages.SPANISH,
    "french": Bip39Languages.FRENCH,
    "italian": Bip39Languages.ITALIAN,
    "portuguese": Bip39Languages.PORTUGUESE,
    "czech": Bip39Languages.CZECH,
    "korean": Bip39Languages.KOREAN,
    "chinese_simplified": Bip39Languages.CHINESE_SIMPLIFIED,
    "chinese_traditional": Bip39Languages.CHINESE_TRADITIONAL,
}
_LISTS = Path(bip_utils.__file__).resolve().parent / "bip" / "bip39" / "wordlist"

# bip-utils has no Japanese list: drawn once with the `mnemonic` package in a throwaway venv outside the repo.
JAPANESE = [
    "かいぞうど\u3000きくらげ\u3000ひんこん\u3000ごうせい\u3000いわゆる\u3000いこつ\u3000あやまる\u3000のこす\u3000しんせいじ\u3000つまらない\u3000ずぶぬれ\u3000めいあん",
    "いらすと\u3000ていこく\u3000ちわわ\u3000そせん\u3000ともだち\u3000かいぜん\u3000こっか\u3000てんすう\u3000たいうん\u3000ねったいぎょ\u3000そらまめ\u3000めまい",
    "がっしょう\u3000ちいさい\u3000むいか\u3000いせい\u3000そふぼ\u3000にきび\u3000てあし\u3000ねくたい\u3000あしあと\u3000さぎょう\u3000いせき\u3000めいかく\u3000れいぞうこ\u3000きさい\u3000いらい",
    "まいにち\u3000てみじか\u3000すっかり\u3000このよ\u3000にげる\u3000すまい\u3000はめつ\u3000しんこう\u3000ごうきゅう\u3000ひこく\u3000ろくが\u3000やせる\u3000ないしょ\u3000ちあん\u3000だっかい\u3000さくひん\u3000とくい\u3000ねぼう\u3000じゃま\u3000せんねん\u3000おうじ\u3000ていき\u3000そうがんきょう\u3000つける",
    "だんねつ\u3000なふだ\u3000つかれる\u3000たいざい\u3000じむしょ\u3000けんこう\u3000しつじ\u3000おおい\u3000うえき\u3000かたち\u3000しなん\u3000かいつう",
    "いない\u3000ねんちゃく\u3000はなび\u3000うねる\u3000やすい\u3000ねわざ\u3000むしあつい\u3000せもたれ\u3000きぬごし\u3000たんご\u3000うこん\u3000あまど\u3000うけつけ\u3000たれんと\u3000すわる\u3000たいおう\u3000ひそむ\u3000じだい",
]


def word_list(lang: str) -> list[str]:
    return (_LISTS / f"{lang}.txt").read_text(encoding="utf-8").split()


class Gen:
    """Every fake value of the part, drawn from one seeded `random.Random` (the build is deterministic)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)  # noqa: S311  (fake values for a test corpus, reproducible)

    def pick(self, alphabet: str, n: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def choice(self, seq: Sequence[str]) -> str:
        return self.rng.choice(list(seq))

    def num(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def hex(self, n: int) -> str:
        return self.pick(HEX, n)

    def raw(self, n: int) -> bytes:
        return bytes(self.rng.randrange(256) for _ in range(n))

    def b64(self, n: int) -> str:
        return base64.b64encode(self.raw(n)).decode()

    def uuid(self) -> str:
        h = self.hex(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{self.choice('89ab')}{h[17:20]}-{h[20:]}"

    # --- AWS ----------------------------------------------------------------------------------------------
    def aws_id(self, prefix: str = "AKIA") -> str:
        return prefix + self.pick(AWS_ID, 16)

    def aws_secret(self) -> str:
        while True:
            value = self.pick(ALNUM + "/+", 40)
            if value[0] not in "/+" and value[-1] not in "/+":
                return value

    def session_token(self) -> str:
        return "IQoJb3JpZ2luX2VjE" + self.pick(B64, 300) + "=="

    # --- provider shapes (fake values) ----------------------------------------------------------------------
    def hf(self) -> str:
        return "hf_" + self.pick(UPPER + LOWER, 34)

    def wandb(self) -> str:
        return self.hex(40)

    def openai(self) -> str:
        if self.rng.random() < 0.3:
            return "sk-" + self.pick(ALNUM, 48)
        return f"sk-proj-{self.pick(URLSAFE, 74)}T3BlbkFJ{self.pick(URLSAFE, 74)}"

    def anthropic(self) -> str:
        return f"sk-ant-api03-{self.pick(URLSAFE, 93)}AA"

    def ghp(self) -> str:
        return self.choice(["ghp_", "gho_", "ghs_"]) + self.pick(ALNUM, 36)

    def github_pat(self) -> str:
        return f"github_pat_11{self.pick(UPPER + DIGITS, 20)}_{self.pick(ALNUM, 59)}"

    def glpat(self) -> str:
        return "glpat-" + self.pick(URLSAFE, 20)

    def replicate(self) -> str:
        return "r8_" + self.pick(ALNUM, 37)

    def groq(self) -> str:
        return "gsk_" + self.pick(ALNUM, 52)

    def openrouter(self) -> str:
        return "sk-or-v1-" + self.hex(64)

    def google_key(self) -> str:
        return "AIza" + self.pick(URLSAFE, 35)

    def ngc(self) -> str:
        return "nvapi-" + self.pick(URLSAFE, 64)

    def dockerhub(self) -> str:
        return "dckr_pat_" + self.pick(URLSAFE, 27)

    def runpod(self) -> str:
        return "rpa_" + self.pick(UPPER + DIGITS, 40) + self.pick(LOWER + DIGITS, 6)

    def lambda_key(self, name: str) -> str:
        return f"secret_{name}_{self.hex(32)}.{self.pick(ALNUM, 32)}"

    def ngrok(self) -> str:
        return f"2{self.pick(ALNUM, 26)}_{self.pick(ALNUM, 21)}"

    def pypi(self) -> str:
        return "pypi-AgEIcHlwaS5vcmc" + self.pick(URLSAFE, 150)

    def npm(self) -> str:
        return "npm_" + self.pick(ALNUM, 36)

    def slack_bot(self) -> str:
        return f"xoxb-{self.num(10**11, 10**12 - 1)}-{self.num(10**12, 10**13 - 1)}-{self.pick(ALNUM, 24)}"

    def telegram(self) -> tuple[str, str]:
        return str(self.num(10**9, 8 * 10**9)), "AA" + self.pick(URLSAFE, 33)

    def tailscale(self) -> str:
        return f"tskey-auth-k{self.pick(ALNUM, 16)}-{self.pick(ALNUM, 33)}"

    def pinecone(self) -> str:
        return f"pcsk_{self.pick(ALNUM, 6)}_{self.pick(ALNUM, 64)}"

    def azure_key(self) -> str:
        return base64.b64encode(self.raw(64)).decode()

    def jwt(self, payload: str) -> str:
        def enc(text: str) -> str:
            return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

        header = enc('{"alg":"HS256","typ":"JWT"}')
        return f"{header}.{enc(payload)}.{self.pick(URLSAFE, 43)}"

    def password(self) -> str:
        style = self.rng.randrange(4)
        if style == 0:
            return self.pick(ALNUM, self.num(12, 20))
        if style == 1:
            word = self.choice(["Estambul", "Saigon", "Malaga", "Kadikoy", "Hanoi", "Tensor", "Pegaso", "Lotus"])
            return word + self.pick(DIGITS, 4) + self.choice(["!", "#", "$", "*"])
        if style == 2:
            return self.pick(LOWER, 5) + self.choice(["-", "_", "."]) + self.pick(ALNUM, 8) + self.pick(DIGITS, 2)
        return self.pick(ALNUM + "!#%*-_", self.num(14, 24))

    def url_password(self) -> str:
        return self.pick(ALNUM, self.num(14, 24))

    def pem_body(self, lines: int) -> list[str]:
        """Body lines of a PEM block (64 base64 characters each, the last shorter)."""
        text = base64.b64encode(self.raw(lines * 48 - 20)).decode()
        return [text[i : i + 64] for i in range(0, len(text), 64)]

    # --- public things (clean look-alikes) ----------------------------------------------------------------
    def ssh_pub(self) -> str:
        blob = struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", 32) + self.raw(32)
        return "ssh-ed25519 " + base64.b64encode(blob).decode()

    def wallet(self) -> tuple[str, str, str, str]:
        """(xpub-like zpub, a bc1 address, an Ethereum address, a Solana address) from a random seed."""
        seed = self.raw(64)
        acct = Bip84.FromSeed(seed, Bip84Coins.BITCOIN).Purpose().Coin().Account(0)
        zpub = acct.PublicKey().ToExtended()
        btc = acct.Change(Bip44Changes.CHAIN_EXT).AddressIndex(self.num(0, 9)).PublicKey().ToAddress()
        eth_ctx = Bip44.FromSeed(seed, Bip44Coins.ETHEREUM).Purpose().Coin().Account(0)
        eth = eth_ctx.Change(Bip44Changes.CHAIN_EXT).AddressIndex(0).PublicKey().ToAddress()
        sol_ctx = Bip44.FromSeed(seed, Bip44Coins.SOLANA).Purpose().Coin().Account(0)
        sol = sol_ctx.Change(Bip44Changes.CHAIN_EXT).PublicKey().ToAddress()
        return zpub, btc, eth, sol

    # --- seed phrases -----------------------------------------------------------------------------------
    def phrase(self, lang: str, words: int = 12) -> str:
        entropy = self.raw(words * 4 // 3)
        return str(Bip39MnemonicGenerator(LANGS[lang]).FromEntropy(entropy))

    def random_words(self, lang: str, n: int) -> list[str]:
        words = word_list(lang)
        return [self.choice(words) for _ in range(n)]


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[^\w]+", unicodedata.normalize("NFC", text).lower()) if t]


def _strip(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")


def assert_no_phrase(texts: Sequence[str]) -> None:
    """Raise if a run of 12–24 words of a clean text passes a BIP-39 list's checksum (accents typed or not)."""
    checks = []
    for lang, code in LANGS.items():
        by_plain = {_strip(w): w for w in word_list(lang)}
        checks.append((lang, by_plain, Bip39MnemonicValidator(code)))
    for text in texts:
        tokens = [_strip(t) for t in _tokens(text)]
        for lang, by_plain, validator in checks:
            for size in (12, 15, 18, 21, 24):
                for start in range(len(tokens) - size + 1):
                    run = tokens[start : start + size]
                    if all(w in by_plain for w in run) and validator.IsValid(" ".join(by_plain[w] for w in run)):
                        raise ValueError(f"clean text holds a valid {lang} phrase: {text[:60]!r}")

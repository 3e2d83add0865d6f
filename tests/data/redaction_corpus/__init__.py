"""The redaction corpus: fake secrets of every kind, in context, and ordinary text that must stay untouched.

Secrets are generated at test time from their formats with a seeded random generator, so no file of the
repository holds anything a secret scanner would take for a real credential, and every run sees the same
samples. None of them is, or ever was, a real credential. The clean texts (`clean/*.txt`) are ordinary GPU
rental support material: tracebacks, `nvidia-smi`, `pip freeze`, model configs, env dumps without secrets,
transaction ids and wallet addresses, prose.

Used by the redactor's tests (`gpurent/core/tests/test_redaction*.py`) and by `bench/redaction_corpus.py` and
`bench/redaction_recall.py`, which print recall and false positives (docs/redaction.md).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gpurent.core.redaction.kinds import Kind
from gpurent.core.redaction.seed_phrases import mnemonic_from_entropy

__all__ = ["CLEAN_DIR", "SecretSample", "base58check", "clean_texts", "secret_samples"]

CLEAN_DIR = Path(__file__).resolve().parent / "clean"
_ALNUM = string.ascii_letters + string.digits
_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class SecretSample:
    """A text holding one fake secret: the kind it should be reported as, the text, and the secret itself."""

    kind: Kind
    text: str
    secret: str


def base58check(payload: bytes) -> str:
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number = int.from_bytes(data, "big")
    encoded = ""
    while number:
        number, remainder = divmod(number, 58)
        encoded = _BASE58[remainder] + encoded
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + encoded


def _b64url(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def _builders(rng: random.Random) -> list[tuple[Kind, Callable[[], tuple[str, str]]]]:
    def pick(alphabet: str, length: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(length))

    def pem(label: str) -> str:
        body = "\n".join(pick(_B64, 64) for _ in range(6))
        return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"

    def jwt() -> str:
        header = _b64url({"alg": "HS256", "typ": "JWT"})
        payload = _b64url({"sub": str(rng.randint(1, 10**6)), "exp": 1_900_000_000})
        return f"{header}.{payload}.{pick(_ALNUM + '-_', 43)}"

    def seed(entropy_bytes: int) -> list[str]:
        return mnemonic_from_entropy(bytes(rng.randrange(256) for _ in range(entropy_bytes)))

    def one(template: str, secret: str) -> tuple[str, str]:
        return template.format(s=secret), secret

    b: list[tuple[Kind, Callable[[], tuple[str, str]]]] = [
        (Kind.AWS_ACCESS_KEY, lambda: one("export AWS_ACCESS_KEY_ID={s}", "AKIA" + pick(_UPPER, 16))),
        (Kind.AWS_ACCESS_KEY, lambda: one("botocore: using credentials {s} from env", "ASIA" + pick(_UPPER, 16))),
        (Kind.AWS_SECRET_KEY, lambda: one("aws_secret_access_key = {s}", pick(_B64, 40))),
        (Kind.AWS_SECRET_KEY, lambda: one('  "SecretAccessKey": "{s}",', pick(_B64, 40))),
        (
            Kind.AZURE_KEY,
            lambda: one(
                "DefaultEndpointsProtocol=https;AccountName=demo;AccountKey={s};EndpointSuffix=core.windows.net",
                pick(_B64, 86) + "==",
            ),
        ),
        (Kind.GOOGLE_API_KEY, lambda: one("GOOGLE_API_KEY={s}", "AIza" + pick(_ALNUM + "-_", 35))),
        (Kind.GOOGLE_OAUTH_TOKEN, lambda: one("token: {s}", "ya29." + pick(_ALNUM + "-_", 60))),
        (
            Kind.GITHUB_TOKEN,
            lambda: one("git clone https://x-access:{s}@github.com/acme/train.git", "ghp_" + pick(_ALNUM, 36)),
        ),
        (Kind.GITHUB_TOKEN, lambda: one("GH_TOKEN={s}", "github_pat_" + pick(_ALNUM, 22) + "_" + pick(_ALNUM, 59))),
        (Kind.GITLAB_TOKEN, lambda: one("CI_JOB_TOKEN {s}", "glpat-" + pick(_ALNUM + "-_", 20))),
        (
            Kind.SLACK_TOKEN,
            lambda: one(
                "SLACK_BOT={s}", f"xoxb-{rng.randint(10**10, 10**11)}-{pick(string.digits, 12)}-{pick(_ALNUM, 24)}"
            ),
        ),
        (
            Kind.SLACK_TOKEN,
            lambda: one(
                "webhook: {s}",
                f"https://hooks.slack.com/services/T{pick(_UPPER, 8)}/B{pick(_UPPER, 10)}/{pick(_ALNUM, 24)}",
            ),
        ),
        (Kind.STRIPE_KEY, lambda: one("stripe.api_key = '{s}'", "sk_live_" + pick(_ALNUM, 24))),
        (Kind.STRIPE_KEY, lambda: one("STRIPE_SECRET={s}", "sk_test_" + pick(_ALNUM, 32))),
        (Kind.OPENAI_KEY, lambda: one('client = OpenAI(api_key="{s}")', "sk-proj-" + pick(_ALNUM + "-_", 48))),
        (Kind.OPENAI_KEY, lambda: one("OPENAI_API_KEY={s}", "sk-" + pick(_ALNUM, 20) + "T3BlbkFJ" + pick(_ALNUM, 20))),
        (Kind.ANTHROPIC_KEY, lambda: one("ANTHROPIC_API_KEY={s}", "sk-ant-api03-" + pick(_ALNUM + "-_", 93))),
        (Kind.HUGGING_FACE_TOKEN, lambda: one("huggingface-cli login --token {s}", "hf_" + pick(_ALNUM, 34))),
        (Kind.HUGGING_FACE_TOKEN, lambda: one("Loading with use_auth_token='{s}'", "hf_" + pick(_ALNUM, 34))),
        (Kind.PYPI_TOKEN, lambda: one("password = {s}", "pypi-AgEIcHlwaS5vcmc" + pick(_ALNUM + "-_", 80))),
        (Kind.NPM_TOKEN, lambda: one("//registry.npmjs.org/:_authToken={s}", "npm_" + pick(_ALNUM, 36))),
        (Kind.SENDGRID_KEY, lambda: one("SENDGRID={s}", f"SG.{pick(_ALNUM + '-_', 22)}.{pick(_ALNUM + '-_', 43)}")),
        (Kind.TWILIO_KEY, lambda: one("twilio key {s}", "SK" + pick(_HEX, 32))),
        (
            Kind.DISCORD_TOKEN,
            lambda: one("bot.run('{s}')", f"M{pick(_ALNUM, 23)}.{pick(_ALNUM, 6)}.{pick(_ALNUM + '-_', 27)}"),
        ),
        (Kind.TELEGRAM_TOKEN, lambda: one("TG_BOT={s}", f"{rng.randint(10**9, 10**10 - 1)}:{pick(_ALNUM + '-_', 35)}")),
        (Kind.MAILCHIMP_KEY, lambda: one("mailchimp {s}", pick(_HEX, 32) + "-us12")),
        (Kind.SQUARE_SECRET, lambda: one("SQUARE={s}", "sq0csp-" + pick(_ALNUM + "-_", 43))),
        (Kind.DIGITALOCEAN_TOKEN, lambda: one("doctl auth init -t {s}", "dop_v1_" + pick(_HEX, 64))),
        (Kind.REPLICATE_TOKEN, lambda: one("REPLICATE_API_TOKEN={s}", "r8_" + pick(_ALNUM, 37))),
        (Kind.JWT, lambda: one("cookie session={s}; Path=/", jwt())),
        (
            Kind.AUTH_HEADER,
            lambda: one("curl -H 'Authorization: Bearer {s}' https://api.example.com", pick(_ALNUM, 40)),
        ),
        (
            Kind.AUTH_HEADER,
            lambda: one("Authorization: Basic {s}", base64.b64encode(pick(_ALNUM, 24).encode()).decode()),
        ),
        (Kind.PRIVATE_KEY, lambda: one("my key:\n{s}\nthanks", pem("RSA PRIVATE KEY"))),
        (Kind.PRIVATE_KEY, lambda: one("{s}", pem("OPENSSH PRIVATE KEY"))),
        (
            Kind.PRIVATE_KEY,
            lambda: one('"private_key": "{s}",', pem("PRIVATE KEY").replace("\n", "\\n")),
        ),
        (Kind.PRIVATE_KEY, lambda: one("cut paste:\n{s}\n", pem("EC PRIVATE KEY").rsplit("\n", 1)[0])),
        (
            Kind.WALLET_PRIVATE_KEY,
            lambda: one(
                "wallet import {s}", base58check(b"\x80" + bytes(rng.randrange(256) for _ in range(32)) + b"\x01")
            ),
        ),
        (
            Kind.WALLET_PRIVATE_KEY,
            lambda: one(
                "xpriv: {s}",
                base58check(bytes.fromhex("0488ade4") + bytes(rng.randrange(256) for _ in range(74))),
            ),
        ),
        (Kind.SEED_PHRASE, lambda: one("my recovery phrase is {s} please help", " ".join(seed(16)))),
        (Kind.SEED_PHRASE, lambda: one("{s}", "\n".join(f"{i}. {w}" for i, w in enumerate(seed(32), 1)))),
        (Kind.SEED_PHRASE, lambda: one("seed: {s}", ", ".join(seed(20)))),
        (Kind.PASSWORD_IN_URL, lambda: one("DATABASE_URL=postgres://app:{s}@db.internal:5432/app", pick(_ALNUM, 14))),
        (Kind.PASSWORD_IN_URL, lambda: one("redis://:{s}@10.0.0.5:6379/0", pick(_ALNUM + "!$*", 12))),
        (
            Kind.SIGNED_URL,
            lambda: one(
                "GET https://bucket.s3.amazonaws.com/ckpt.pt?X-Amz-Expires=3600&X-Amz-Signature={s} 403",
                pick(_HEX, 64),
            ),
        ),
        (Kind.PASSWORD, lambda: one("DB_PASSWORD={s}", pick(_ALNUM, 10) + "!9")),
        (Kind.PASSWORD, lambda: one("mysql --user=root --password='{s}' shop", pick(_ALNUM, 12))),
        (Kind.PASSWORD, lambda: one("  password: {s}", pick(_ALNUM, 9) + "#1")),
        (
            Kind.PASSWORD,
            lambda: one("My password is {s} and it stopped working", pick(string.ascii_lowercase, 6) + "42"),
        ),
        (Kind.SECRET, lambda: one("WANDB_API_KEY={s}", pick(_HEX, 40))),
        (Kind.SECRET, lambda: one('client_secret: "{s}"', pick(_ALNUM, 30) + "7")),
        (Kind.SECRET, lambda: one("https://api.example.com/v1/run?access_token={s}&x=1", pick(_ALNUM, 32) + "5")),
        (Kind.SECRET, lambda: one("python serve.py --api-key {s}", pick(_ALNUM, 28) + "3")),
    ]
    return b


def secret_samples(rounds: int = 3, seed: int = 20260401) -> list[SecretSample]:
    """`rounds` samples of every builder, in a fixed order, each with a freshly generated fake secret."""
    rng = random.Random(seed)  # noqa: S311 (fake test data, not cryptography)
    builders = _builders(rng)
    samples = []
    for _round in range(rounds):
        for kind, build in builders:
            text, secret = build()
            samples.append(SecretSample(kind, text, secret))
    return samples


def clean_texts() -> dict[str, str]:
    """The ordinary texts, by file name: nothing in them may be redacted."""
    return {path.name: path.read_text() for path in sorted(CLEAN_DIR.glob("*.txt"))}

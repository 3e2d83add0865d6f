# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the pattern author's part of round 10 (`tuning10/*.jsonl`): the families of held-out 9's misses and false
positives, in new examples (decisions 0397–0399).

Round 10 declared held-out 9 consumed and fixed what it found by families. Each family has its own texts here,
written by the pattern author (none is a copy of a held-out 9 text), so the fix is measured without held-out 9:

- texts with secrets: an AWS secret access key a few words or lines after its key id (a list, `--output text` with a
  date between, " + ", a sentence); a key of random letters only after its name in a config file; a web UI's
  `--…-auth user:password` flag; a token with a second part after a dot (Lambda Cloud's shape); a password named a
  few words before its verb with a quoted or `code` word between; a session cookie in a cookie string without its
  header; seed phrases that must still count (a valid checksum and no wallet named, a card printed in two columns, a
  phrase with a typo in a text that names it);
- clean texts: placeholders made of one character or of characters counting up (`0000…`, the nil UUID,
  `1234567890abcdef…`); minisign and signify public keys and age recipients under "public key"; a WireGuard peer's
  public key on the line after its name; `kubectl describe secret` sizes and "password: 12 characters"; JSON Web
  Tokens signed with jwt.io's or RFC 7515's published keys; lists of BIP-39 words that are no phrase (class labels,
  spelling and vocabulary lists, word-game boards: no valid checksum, no wallet named); a session id in a URL's query.

Held-out 7's, 9's and 10's texts were not looked at while writing it. Run:
`.venv/bin/python -m tests.data.redaction_corpus.build_tuning10`; the output is committed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json
from collections.abc import Callable
from pathlib import Path

from gpurent.core.redaction.seed_phrases import PHRASE_LENGTHS, is_valid_mnemonic, mnemonic_from_entropy, wordlist

from .build_tuning6b import with_values
from .checks import check_and_write
from .fakes import ALNUM, B64, HEX, LOWER, UPPER, Fakes

OUT = Path(__file__).resolve().parent / "tuning10"

Sample = Callable[[], tuple[str, list[str]]]
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _aws_secret(f: Fakes) -> Callable[[], str]:
    def make() -> str:
        while True:
            value = f.pick(B64, 40)
            if any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value):
                return value

    return make


def _aws_nearby(f: Fakes) -> list[Sample]:
    def key_id() -> str:
        return f.choice(["AKIA", "ASIA"]) + f.pick(UPPER, 16)

    templates = [
        "Credenciales del bucket de checkpoints:\n* {a}\n* {s}\nEl job de entrenamiento da AccessDenied.",
        "$ aws iam create-access-key --user-name ci-runner --output text\nACCESSKEY\t{a}\t2027-01-09T17:40:02+00:00\t{s}\tActive\tci-runner",
        "I pasted both into the rclone wizard ({a} + {s}) and `rclone lsd` still returns 403.",
        "Access key id: {a}. Bir sonraki satırda da IAM'in verdiği gizli anahtar var:\n{s}",
        "key id {a}, and right below it the secret the console showed once:\n\n{s}",
        "Khóa S3: {a} (id), còn phần bí mật IAM đưa cho em là {s}, máy thuê vẫn báo 403.",
    ]
    return [with_values(template, a=key_id, s=_aws_secret(f)) for template in templates]


def _letters_key(f: Fakes) -> list[Sample]:
    def letters() -> str:
        while True:
            value = f.pick(_LETTERS, f.choice([24, 25, 32]))
            upper = sum(c.isupper() for c in value)
            pairs = sum(1 for a, b in itertools.pairwise(value) if a.isupper() and b.isupper())
            if len(value) // 4 <= upper <= len(value) * 3 // 4 and pairs >= 2:
                return value

    templates = [
        "~/.config/tracker.ini\n[default]\napi_key = {s}\nproject = llama-ft",
        "experiment:\n  api_key: {s}\n  workspace: nlp-group",
        "export TRACKING_API_KEY={s}\npython train.py --log-to tracker",
    ]
    return [with_values(template, s=letters) for template in templates]


def _auth_flags(f: Fakes) -> list[Sample]:
    def password() -> str:
        return f.pick(_LETTERS, 6) + f.pick("0123456789", 4)

    templates = [
        "python webui.py --listen --api --api-auth admin:{s} --port 7861\nthe API answers 401 to every call",
        "Lanzo ComfyUI con un proxy delante: `caddy-proxy --basic-auth ops:{s} --to :8188`, y no pide login.",
        "./start.sh --share --gradio-auth=lab:{s}\nLink public không mở được.",
    ]
    return [with_values(template, s=password) for template in templates]


def _dotted(f: Fakes) -> list[Sample]:
    def dotted() -> str:
        return f"secret_{f.choice(['ml-team', 'ci', 'batch01'])}_{f.hex(32)}.{f.pick(ALNUM, 32)}"

    templates = [
        "Our old provider's API key, for comparison: {s} — what is the equivalent here?",
        "LAMBDA_API_KEY={s}\nDoes your CLI read the same variable?",
    ]
    return [with_values(template, s=dotted) for template in templates]


def _quoted_word(f: Fakes) -> list[Sample]:
    def password() -> str:
        return f.pick(_LETTERS, 8) + f.pick("0123456789", 3) + f.pick(_LETTERS, 3)

    templates = [
        'The password for the "jupyter" user on node 3 is {s} but the login page says it is wrong.',
        "La contraseña del usuario `ubuntu` en la máquina nueva es {s} y no me deja entrar por SSH.",
        "Mật khẩu của tài khoản `admin` trên máy thuê là {s}, nhưng đăng nhập bị từ chối.",
    ]
    return [with_values(template, s=password) for template in templates]


def _cookie_string(f: Fakes) -> list[Sample]:
    def session() -> str:
        return f.pick(LOWER, 32)

    templates = [
        "Cookies from the dashboard, copied from devtools: csrftoken=abc; sessionid={s}; theme=dark",
        "Çerezler: PHPSESSID={s}; lang=tr — ödeme sayfası açılmıyor.",
        "document.cookie dice: connect.sid={s}; path=/ y luego se cierra la sesión.",
    ]
    return [with_values(template, s=session) for template in templates]


def _phrases(f: Fakes) -> list[tuple[str, list[str]]]:
    out = []
    words = mnemonic_from_entropy(f.raw(16), "english")
    text = " ".join(words)
    out.append((f"these twelve came with the box, do I keep them?\n{text}", [text]))
    words = mnemonic_from_entropy(f.raw(32), "english")
    rows = [f"{n + 1:>2}. {words[n]:<10} {n + 13:>2}. {words[n + 12]}" for n in range(12)]
    card = "\n".join(rows)
    out.append((f"Photo of the card, typed out:\n{card}", [card]))
    broken = mnemonic_from_entropy(f.raw(16), "spanish")
    spanish = wordlist("spanish")
    while is_valid_mnemonic(broken, "spanish"):
        broken[-1] = f.choice(spanish)
    phrase = " ".join(broken)
    out.append((f"Mi frase semilla (creo que la última palabra está mal): {phrase}", [phrase]))
    return out


def _aws_id_then_hash(f: Fakes) -> list[tuple[str, list[str]]]:
    """An access key id, then a commit hash a line below: scored on the id only (the hash stays)."""
    key_id = "AKIA" + f.pick(UPPER, 16)
    return [(f"key id {key_id} was added in\n{f.hex(40)}\nand removed the next day", [key_id])]


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for family in (_aws_nearby, _letters_key, _auth_flags, _dotted, _quoted_word, _cookie_string):
        for build in family(f):
            out.extend(build() for _ in range(2))
    return out + _phrases(f) + _aws_id_then_hash(f)


def _fillers() -> list[str]:
    return [
        "# .env.sample from the template repo\nWANDB_API_KEY=00000000000000000000000000000000\nWANDB_PROJECT=demo",
        "api_token: 11111111111111111111\nendpoint: https://api.example.invalid",
        "CLIENT_SECRET=00000000-0000-0000-0000-000000000000 # fill in from the portal",
        "HF_TOKEN=1234567890abcdefghijklmnopqrstuv\n(that is the sample value from the README, not mine)",
        'secret_key = "abcdefghijklmnopqrstuvwxyz012345"  # replace before deploying',
    ]


def _public_keys(f: Fakes) -> list[str]:
    def signify() -> str:
        return base64.b64encode(b"Ed" + f.raw(40)).decode()

    def age() -> str:
        return "age1" + f.pick("023456789acdefghjklmnpqrstuvwxyz", 58)

    return [
        f"Verify the checkpoint with our minisign public key:\n{signify()}\nand `minisign -Vm model.safetensors`.",
        f"signify public key for the release tarballs:\n{signify()}",
        f"Clave pública minisign de las descargas: {signify()}",
        f"age public key (recipient) for the encrypted dataset: {age()}",
        f"key = {age()}\n# the recipient the backups are encrypted to",
        f"WireGuard peer public key:\n{f.pick(B64, 43)}=\nEndpoint = 203.0.113.7:51820",
    ]


def _sizes() -> list[str]:
    return [
        "$ kubectl describe secret wandb\nName:  wandb\nType:  Opaque\n\nData\n====\nWANDB_API_KEY:  40 bytes\nPOSTGRES_PASSWORD:  24 bytes",
        "Requisitos: password: 12 caracteres como mínimo, con un número.",
        "mật khẩu: 16 ký tự, token: 64 bytes — đúng như tài liệu yêu cầu chưa?",
        "DB_PASSWORD: 32 characters, generated by the operator",
    ]


def _jwt(claims: dict[str, object], key: bytes, alg: str = "HS256") -> str:
    def part(data: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")

    digest = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}[alg]
    head = f"{part({'alg': alg, 'typ': 'JWT'})}.{part(claims)}"
    signature = base64.urlsafe_b64encode(hmac.new(key, head.encode(), digest).digest()).decode().rstrip("=")
    return f"{head}.{signature}"


def _sample_tokens() -> list[str]:
    rfc_key = base64.urlsafe_b64decode(
        "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow=="
    )
    return [
        "I edited the payload on jwt.io and kept its default secret:\n"
        + _jwt({"sub": "gpu-42", "role": "admin", "iat": 1767225600}, b"your-256-bit-secret"),
        "Authorization: Bearer " + _jwt({"sub": "alice", "admin": True}, b"a-string-secret-at-least-256-bits-long"),
        "El ejemplo HS512 de jwt.io: " + _jwt({"name": "Test", "iat": 1700000000}, b"your-512-bit-secret", "HS512"),
        "RFC 7515 key, my own claims: " + _jwt({"iss": "lab", "exp": 1900000000}, rfc_key),
    ]


def _no_valid_stretch(words: list[str], language: str) -> bool:
    return not any(
        is_valid_mnemonic(words[first : first + length], language)
        for length in PHRASE_LENGTHS
        for first in range(len(words) - length + 1)
    )


def _word_game(f: Fakes, language: str, count: int) -> list[str]:
    words = wordlist(language)
    while True:
        chosen = [f.choice(words) for _ in range(count)]
        if _no_valid_stretch(chosen, language) and chosen != sorted(chosen, key=words.index):
            return chosen


def _word_lists(f: Fakes) -> list[str]:
    labels = _word_game(f, "italian", 12)
    spelling = _word_game(f, "english", 15)
    vocab = _word_game(f, "japanese", 12)
    board = _word_game(f, "english", 16)
    czech = _word_game(f, "czech", 12)
    return [
        "Etichette del mio classificatore (accuratezza ferma al 35 %):\n" + "\n".join(f"- {w}" for w in labels),
        "Spelling bee practice list (TTS voice test):\n" + "\n".join(f"{n}) {w}" for n, w in enumerate(spelling, 1)),
        "日本語の単語帳アプリ用の単語リストです：" + "、".join(vocab),
        "4x4 word grid from our game bot, the model keeps repeating words — random seed issue?\n"
        + "\n".join(" | ".join(board[row * 4 : row * 4 + 4]) for row in range(4)),
        "Slovíčka na test výslovnosti: " + ", ".join(czech),
    ]


def negatives(f: Fakes) -> list[str]:
    return [
        *_fillers(),
        *_public_keys(f),
        *_sizes(),
        *_sample_tokens(),
        *_word_lists(f),
        "Login link from the e-mail: https://panel.example.invalid/login?sid=" + f.pick(HEX, 32) + "&lang=en",
    ]


def main() -> None:
    fakes = Fakes(seed=1020261207)
    check_and_write(OUT, "t10", positives(fakes), negatives(fakes))


if __name__ == "__main__":
    main()

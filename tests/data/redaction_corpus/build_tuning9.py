# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the pattern author's part of round 9 (`tuning9/*.jsonl`): the families of held-out 8's misses and false
positives, in new examples (decision 0393).

Round 9 declared held-out 8 consumed and fixed what it found by families. Each family has its own texts here,
written by the pattern author (none is a copy of a held-out 8 text), so the fix is measured without held-out 8:

- texts with secrets: an AWS secret access key after its key id with a dash between them (`—`, `–`, ` - `); a
  Chinese seed phrase written as one run of characters without separators (valid checksum); a password named at the
  start of a sentence and changed later in it with a pronoun or no object ("la cambié a …", "đã đổi thành …", "set it
  to …", "onu … olarak değiştirdim"); a value followed by a sentence's "..." (still a value);
- clean texts: public key and signature armor blocks (PGP, RSA, SSH2) whose first body line follows a line with
  "KEY"; `.env` files whose placeholder secret is followed by the next setting; the documentation's example
  credentials (`…EXAMPLE`, `…EXAMPLEKEY`); tokens masked with X or cut with "..."; the `pass` password manager's
  entries and messages; BIP-39 word lists printed in list order (head, tail, numbered, in several languages);
  Chinese prose and runs of list characters whose checksum is wrong or whose length is not a phrase's; "la cambié a
  …" with versions, images and words; an AWS key id then a dash and a hash (scored on the id only).

Held-out 7's and 9's texts were not looked at while writing it. Run:
`.venv/bin/python -m tests.data.redaction_corpus.build_tuning9`; the output is committed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gpurent.core.redaction.seed_phrases import is_valid_mnemonic, mnemonic_from_entropy, wordlist

from .build_tuning6b import with_values
from .checks import check_and_write
from .fakes import ALNUM, B64, UPPER, Fakes

OUT = Path(__file__).resolve().parent / "tuning9"

Sample = Callable[[], tuple[str, list[str]]]
_SYMBOLS = "!@#$%^&*"


def _strong(f: Fakes) -> Callable[[], str]:
    """A chosen password with capitals, small letters, a digit and a symbol."""

    def make() -> str:
        return (
            f.pick(UPPER[:26], 2)
            + f.pick("abcdefghijkmnpqrstuvwxyz", 4)
            + f.pick("23456789", 2)
            + f.choice(_SYMBOLS)
            + f.pick(ALNUM, 3)
        )

    return make


def _aws_dash(f: Fakes) -> list[Sample]:
    def key_id() -> str:
        return f.choice(["AKIA", "ASIA"]) + f.pick(UPPER, 16)

    def secret() -> str:
        while True:
            value = f.pick(B64, 40)
            if any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value):
                return value

    templates = [
        "AWS keys for the backup bucket: {a} — {s}",
        "Clave de acceso del bucket: {a} – {s} (la rotaré mañana)",
        "khóa S3 dùng cho checkpoint: {a} - {s}",
        "yedekleme kullanıcısı {a} —{s}",
        "{a}—{s}",
        "id/secret: {a} -- {s}",
    ]
    return [with_values(template, a=key_id, s=secret) for template in templates]


def _glued_chinese(f: Fakes) -> list[Sample]:
    def phrase(language: str, words: int) -> Callable[[], str]:
        return lambda: "".join(mnemonic_from_entropy(f.raw(words * 4 // 3), language))

    return [
        with_values("助记词（抄的时候没加空格）：{s}", s=phrase("chinese_simplified", 12)),
        with_values(
            "My wallet's Chinese recovery phrase, copied as one line: {s} — can you restore the payout address?",
            s=phrase("chinese_simplified", 12),
        ),
        with_values(
            "Frase de recuperación en chino, sin espacios:\n{s}\n¿Sirve para el reembolso?",
            s=phrase("chinese_traditional", 12),
        ),
        with_values("Cụm từ khôi phục (tiếng Trung, 24 chữ liền nhau): {s}", s=phrase("chinese_simplified", 24)),
        with_values("Kurtarma kelimeleri Çince, boşluksuz yazdım: {s}", s=phrase("chinese_traditional", 18)),
        with_values('"mnemonic": "{s}"', s=phrase("chinese_simplified", 15)),
    ]


def _changed_later(f: Fakes) -> list[Sample]:
    strong = _strong(f)
    templates = [
        "La contraseña del panel que me mandasteis no entra, así que la he cambiado a {s} y sigue fallando el login.",
        "Hola, la clave del usuario ubuntu caducó; la cambié por {s} desde la consola web pero ssh la rechaza.",
        "Mật khẩu Jupyter mặc định không vào được, em đã đổi thành {s} mà vẫn báo sai.",
        "Mật khẩu root bị lộ nên mình đổi lại thành {s}, nhờ shop kiểm tra giúp log đăng nhập.",
        "The root password from the welcome e-mail didn't work, so I set it to {s} with passwd and now sudo fails.",
        "Our database password leaked in a notebook; we rotated it to {s}, is the old one still cached anywhere?",
        "Root şifresi kabul edilmiyordu, onu {s} olarak değiştirdim ama ssh hâlâ reddediyor.",
        "password: {s}... and it still says access denied",
    ]
    return [with_values(template, s=strong) for template in templates]


def _aws_id_dash_no_secret(f: Fakes) -> list[tuple[str, list[str]]]:
    """An access key id, a dash and what is not a secret access key: scored on the id only (the rest stays)."""
    out = []
    for template in ("{a} — " + f.hex(40) + " is the commit that added it", "{a} – " + f.pick(UPPER, 40)):
        key_id = "AKIA" + f.pick(UPPER, 16)
        out.append((template.replace("{a}", key_id), [key_id]))
    return out


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for family in (_aws_dash, _glued_chinese, _changed_later):
        for build in family(f):
            out.extend(build() for _ in range(2))
    return out + _aws_id_dash_no_secret(f)


def _armor(f: Fakes) -> list[str]:
    def body(lines: int) -> str:
        return "\n".join(f.pick(B64, 64) for _ in range(lines))

    return [
        "Our release signing key, to check the tarball:\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
        + body(5)
        + "\n="
        + f.pick(B64, 4)
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
        "Clave pública para cifrar el informe:\n-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: ops@acme.dev\n\n"
        + body(4)
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
        "-----BEGIN RSA PUBLIC KEY-----\nMIIBCgKCAQEA"
        + f.pick(B64, 52)
        + "\n"
        + body(3)
        + "\n-----END RSA PUBLIC KEY-----\nis this the right format for the API's webhook verification?",
        "---- BEGIN SSH2 PUBLIC KEY ----\n"
        + body(3)
        + "\n---- END SSH2 PUBLIC KEY ----\nkhóa công khai xuất từ PuTTYgen, em dán vào authorized_keys được không?",
        "-----BEGIN PGP SIGNATURE-----\n\niQIzBAEBCAAdFiEE"
        + f.pick(B64, 48)
        + "\n"
        + body(2)
        + "\n-----END PGP SIGNATURE-----",
        "gpg --armor --export ops@acme.dev\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
        + body(3)
        + "\n-----END PGP PUBLIC KEY BLOCK-----\nimza doğrulaması başarısız oluyor",
    ]


def _next_setting() -> list[str]:
    return [
        "# .env.sample\nHF_TOKEN=your-hf-token\nHF_HOME=/workspace/.cache/hf2\nCUDA_VISIBLE_DEVICES=0,1",
        "WANDB_API_KEY=<your wandb key>\nWANDB_PROJECT=llama3-sft-run7\nWANDB_ENTITY=acme-ml",
        "Copié el ejemplo tal cual:\nOPENAI_API_KEY=your-openai-api-key\nOPENAI_BASE_URL=http://localhost:8000/v1\nMODEL=Qwen2.5-7B-Instruct",
        "the api key\nMODEL_ID=meta-llama/Llama-3.1-8B-Instruct",
        "S3_SECRET_KEY=changeme\nS3_ENDPOINT=https://s3.eu-central-003.backblazeb2.com\nS3_BUCKET=ckpt-2026",
    ]


def _documented_examples() -> list[str]:
    return [
        "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n(copied from the AWS guide, I'll put mine in later)",
        "En la guía de AWS salen AKIAI44QH8DHBEXAMPLE y je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY, ¿tengo que cambiarlas por las mías en el contenedor?",
        "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nexport AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\naws s3 ls  # this is the docs' sample, works with localstack",
        "aws configure\nAWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE\nAWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ]


def _masked() -> list[str]:
    return [
        "docker login -u ada -p dckr_pat_XXXXXXXXXXXXXXXXXXXXXXXX\ndoes the rental allow Docker Hub pulls with a PAT?",
        "HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx (I removed mine)",
        "OPENAI_API_KEY=sk-proj-... (cortada, la real está en mi gestor)",
        "token: ghp_... — I won't paste the rest here",
        "api_key = 'sk-...9f3a'  # last four digits, for reference",
        "mysql -u root -pXXXXXXXX -h 10.0.0.5 returns 1045, should I reset it?",
    ]


def _pass_manager() -> list[str]:
    return [
        "export WANDB_API_KEY=$(pass show ml/wandb-team)\npass: ml/wandb-team is not in the password store.",
        "pass: cloud/runpod/api is not in the password store.\nkhông hiểu sao lệnh này chạy được trên laptop",
        "pass insert -m infra/db-root\npass generate infra/redis 32\nboth work, but the container can't reach gpg-agent",
        "Error: hf/token is not in the password store.\n¿Hay que montar ~/.password-store en la máquina?",
    ]


def _word_lists() -> list[str]:
    out = []
    for language, count, head in (
        ("english", 14, True),
        ("spanish", 12, True),
        ("french", 16, False),
        ("korean", 12, True),
        ("chinese_simplified", 13, True),
    ):
        words = wordlist(language)
        chosen = words[:count] if head else words[-count:]
        joined = " ".join(chosen) if language.startswith("chinese") else "\n".join(chosen)
        out.append(
            f"$ {'head' if head else 'tail'} -{count} bip39/{language}.txt\n{joined}\n(for the wallet-recovery tool's unit tests)"
        )
    italian = wordlist("italian")
    out.append(
        "Le prime parole della lista italiana: " + ", ".join(f"{n}. {w}" for n, w in enumerate(italian[100:113], 101))
    )
    return out


def _chinese(f: Fakes) -> list[str]:
    simplified = wordlist("chinese_simplified")
    # a phrase whose last character is changed so that its checksum fails, and a run one character too long
    broken = mnemonic_from_entropy(f.raw(16), "chinese_simplified")
    while is_valid_mnemonic(broken, "chinese_simplified"):
        broken[-1] = f.choice(simplified)
    longer = [*mnemonic_from_entropy(f.raw(16), "chinese_simplified"), f.choice(simplified)]
    return [
        "你好，我租的机器昨天晚上开始一直无法连接到网络，请帮我看一下是什么问题，谢谢。",
        "训练任务在第三个小时突然停止了，日志里只有内存不足的错误，我已经把批量大小减半，还是一样。",
        "我們公司需要開立發票，抬頭請寫成中文全名，地址和統一編號我會另外寄給你們。",
        "请问退款一般需要几天到账？我的付款方式是银行转账，订单号已经写在标题里了。",
        "Dãy ký tự này không phải cụm từ khôi phục: " + "".join(broken),
        "Bu karakterler bir kurtarma ifadesi değil: " + "".join(longer),
    ]


def _cambie_words() -> list[str]:
    return [
        "La contraseña funcionaba, pero la imagen no arrancaba, así que la cambié a Ubuntu 22.04 y ahora va bien.",
        "La clave SSH está bien; la versión de CUDA la cambié a 12.4 y el driver a 550.",
        "Mật khẩu vẫn đúng, em chỉ đổi thành máy khác vì máy cũ bị đầy ổ đĩa.",
        "The password prompt kept showing up, so I set it to no in sshd_config and restarted the service.",
        "Şifre sorunu yok, bölgeyi değiştirdim: onu eu-west olarak ayarladım.",
    ]


def negatives(f: Fakes) -> list[str]:
    return [
        *_armor(f),
        *_next_setting(),
        *_documented_examples(),
        *_masked(),
        *_pass_manager(),
        *_word_lists(),
        *_chinese(f),
        *_cambie_words(),
    ]


def main() -> None:
    fakes = Fakes(seed=920261206)
    check_and_write(OUT, "t9", positives(fakes), negatives(fakes))


if __name__ == "__main__":
    main()

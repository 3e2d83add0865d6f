# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 10, texts with secrets (0396): AWS key pairs pasted together and wallet seed phrases.

For an AWS pair only the secret access key (and a session token) is listed; the access key id names the key.
A numbered or gridded seed phrase is listed as one block, numbers included.
"""

from __future__ import annotations

import json

from .heldout10_gen import JAPANESE, Gen
from .heldout10_text import date, wrap

Sample = tuple[str, list[str]]


def aws_pairs(g: Gen) -> list[Sample]:
    out: list[Sample] = []

    def pair(prefix: str = "AKIA") -> tuple[str, str]:
        return g.aws_id(prefix), g.aws_secret()

    inline = [
        (
            "en",
            "Hi, I created a new IAM user for the rental, AKIA / SECRET, but `aws s3 ls` on the box says InvalidAccessKeyId. Region eu-west-1.",
        ),
        ("en", "my keys are AKIA / SECRET and the bucket is s3://lora-ckpts, can you check why sync hangs?"),
        (
            "es",
            "Hola, puse las claves AKIA / SECRET en la instancia y el script de descarga sigue dando AccessDenied. ¿Me falta algún permiso?",
        ),
        ("es", "Las credenciales que uso son estas: AKIA  SECRET (las generé ayer en la consola)."),
        (
            "vi",
            "Chào shop, mình dùng key AKIA / SECRET để đồng bộ checkpoint lên S3 nhưng bị lỗi SignatureDoesNotMatch.",
        ),
        ("vi", "key của mình: AKIA - SECRET, bucket ở ap-southeast-1"),
        ("tr", "Merhaba, AKIA / SECRET anahtarlarıyla s3 sync çalışmıyor, 403 dönüyor."),
        ("tr", "Erişim bilgileri AKIA, SECRET — makineye girip kontrol edebilir misiniz?"),
        ("en", "tried both (AKIA SECRET) and the older pair, same SignatureDoesNotMatch"),
    ]
    for _lang, text in inline:
        kid, sec = pair()
        out.append((text.replace("AKIA", kid, 1).replace("SECRET", sec), [sec]))

    layouts = [
        lambda k, s: wrap(g, f"{k}\n{s}", "en"),
        lambda k, s: wrap(g, f"Access key (copied from the console):\n{k}\n{s}\n\nregion: us-east-1", "en", False),
        lambda k, s: wrap(g, f"usuario\tclave\tsecreto\ntrainer-bot\t{k}\t{s}", "es"),
        lambda k, s: wrap(g, f"Access key ID,Secret access key\n{k},{s}\n", g.choice(["en", "tr"])),
        lambda k, s: (
            f"cat ~/Downloads/trainer_accessKeys.csv\nAccess key ID,Secret access key\n{k},{s}\n\n^ this is the file, is it the right format for your import page?"
        ),
        lambda k, s: wrap(
            g,
            f"echo {k}:{s} > ~/.passwd-s3fs\nchmod 600 ~/.passwd-s3fs\ns3fs datasets /mnt/data -o passwd_file=~/.passwd-s3fs -o url=https://s3.eu-central-1.amazonaws.com",
            "vi",
        ),
        lambda k, s: wrap(g, f"| key id | secret |\n|---|---|\n| {k} | {s} |", "en", False),
        lambda k, s: wrap(
            g,
            f'import boto3\nsession = boto3.Session("{k}", "{s}", region_name="eu-west-1")\ns3 = session.client("s3")\ns3.download_file("ckpts", "llama/step_4000.pt", "/workspace/step_4000.pt")',
            "es",
        ),
        lambda k, s: wrap(
            g,
            f'from minio import Minio\nclient = Minio("s3.amazonaws.com", "{k}", "{s}", secure=True)\nprint(list(client.list_buckets()))',
            "tr",
        ),
        lambda k, s: wrap(
            g,
            f"$ mc alias set awsbackup https://s3.amazonaws.com {k} {s}\nmc: Configuration written to `/root/.mc/config.json`.\nAdded `awsbackup` successfully.",
            "en",
        ),
        lambda k, s: wrap(
            g,
            f"aws configure\nAWS Access Key ID [None]: {k}\nAWS Secret Access Key [None]: {s}\nDefault region name [None]: eu-west-1\nDefault output format [None]: json",
            g.choice(["en", "vi"]),
        ),
        lambda k, s: wrap(
            g, f"[default]\naws_access_key_id = {k}\naws_secret_access_key = {s}\nregion = us-west-2", "tr"
        ),
        lambda k, s: wrap(
            g,
            f"  1021  export AWS_ACCESS_KEY_ID={k}\n  1022  export AWS_SECRET_ACCESS_KEY={s}\n  1023  aws s3 cp s3://datasets-raw/laion_subset.tar . \n  1024  nvidia-smi",
            "en",
        ),
        lambda k, s: wrap(
            g,
            f"dvc remote add -d storage s3://exp-cache/dvc\ndvc remote modify --local storage access_key_id {k}\ndvc remote modify --local storage secret_access_key {s}\ndvc pull",
            "es",
        ),
        lambda k, s: f"Nhật ký {date(g)}\n- bucket: s3://vn-asr-data\n- key: {k} | {s}\n- tốc độ sync ~80MB/s, ổn",
        lambda k, s: wrap(g, f'# TODO move to env\nAWS_KEY = "{k}"  # {s}\n', "en"),
        lambda k, s: wrap(g, f's3_uri = "s3://{k}:{s.replace("/", "%2F")}@ckpt-bucket/run7"', "en"),
        lambda k, s: (
            f"Hola, clave de acceso: {k}\nclave secreta: {s}\n¿Por qué me sale «The AWS Access Key Id you provided does not exist in our records»?"
        ),
        lambda k, s: f"Selam, erişim anahtarı {k} gizli anahtar {s} ile bağlanamıyorum, bölge eu-central-1.",
        lambda k, s: wrap(g, f"credentials:\n  - {k}\n  - {s}\nbucket: sd-finetune-out", "vi"),
        lambda k, s: wrap(
            g,
            f"const s3 = new S3Client({{ region: 'us-east-1', credentials: {{ accessKeyId: '{k}', secretAccessKey: '{s}' }} }});",
            "en",
        ),
        lambda k, s: wrap(
            g,
            f"$ aws iam create-access-key --user-name trainer --output text\nACCESSKEY\t{k}\t2027-03-02T09:14:11+00:00\t{s}\tActive\ttrainer",
            "en",
        ),
        lambda k, s: wrap(g, f"{k}  {s}", "tr"),
        lambda k, s: (
            f"notes for tomorrow:\n* aws {k} ({s})\n* retry the shard upload with --multipart-chunk-size-mb 64"
        ),
    ]
    for layout in layouts:
        kid, sec = pair()
        text = layout(kid, sec)
        secret = sec.replace("/", "%2F") if "%2F" in text and sec not in text else sec
        out.append((text, [secret]))

    # a session (ASIA… + secret + token)
    for lang in ("en", "es"):
        kid, sec = pair("ASIA")
        token = g.session_token()
        creds = {
            "Credentials": {
                "AccessKeyId": kid,
                "SecretAccessKey": sec,
                "SessionToken": token,
                "Expiration": "2027-04-11T17:02:44+00:00",
            }
        }
        out.append(
            (
                wrap(
                    g,
                    "$ aws sts assume-role --role-arn arn:aws:iam::"
                    + str(g.num(10**11, 10**12 - 1))
                    + ":role/gpu-trainer --role-session-name run\n"
                    + json.dumps(creds, indent=4),
                    lang,
                ),
                [sec, token],
            )
        )
    kid, sec = pair("ASIA")
    token = g.session_token()
    out.append((wrap(g, f"{kid}\n{sec}\n{token}", "vi"), [sec, token]))

    # two pairs in one text
    (k1, s1), (k2, s2) = pair(), pair()
    out.append(
        (
            f"We have two accounts, prod {k1} / {s1} and staging {k2} / {s2}. Which one should the rental use for the shared bucket?",
            [s1, s2],
        )
    )
    return out


def _numbered(words: list[str]) -> str:
    return "\n".join(f"{i}. {w}" for i, w in enumerate(words, 1))


def _grid(words: list[str]) -> str:
    rows = []
    for r in range(0, len(words), 4):
        rows.append("   ".join(f"{i + 1:>2}) {w:<10}" for i, w in enumerate(words[r : r + 4], r)).rstrip())
    return "\n".join(rows)


def seeds(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    plan = [
        ("english", 12, "en", "plain"),
        ("english", 24, "en", "numbered"),
        ("english", 12, "tr", "env"),
        ("english", 18, "vi", "plain"),
        ("english", 12, "en", "hardhat"),
        ("english", 15, "es", "grid"),
        ("spanish", 12, "es", "plain"),
        ("spanish", 24, "es", "numbered"),
        ("spanish", 12, "es", "comma"),
        ("spanish", 18, "es", "grid"),
        ("spanish", 12, "en", "plain"),
        ("spanish", 12, "es", "noaccent"),
        ("spanish", 15, "es", "lines"),
        ("french", 12, "en", "plain"),
        ("french", 24, "es", "numbered"),
        ("french", 12, "tr", "python"),
        ("french", 18, "en", "upper"),
        ("italian", 12, "en", "plain"),
        ("italian", 12, "es", "inline_num"),
        ("italian", 24, "tr", "grid"),
        ("italian", 15, "vi", "env"),
        ("portuguese", 12, "es", "plain"),
        ("portuguese", 24, "en", "lines"),
        ("portuguese", 12, "vi", "comma"),
        ("portuguese", 18, "en", "solana"),
        ("czech", 12, "en", "plain"),
        ("czech", 24, "tr", "numbered"),
        ("czech", 12, "en", "dash"),
        ("czech", 15, "es", "python"),
        ("korean", 12, "vi", "plain"),
        ("korean", 24, "en", "numbered"),
        ("korean", 12, "en", "lines"),
        ("korean", 18, "tr", "plain"),
        ("chinese_simplified", 12, "vi", "plain"),
        ("chinese_simplified", 12, "en", "numbered"),
        ("chinese_simplified", 24, "es", "grid"),
        ("chinese_simplified", 12, "tr", "comma"),
        ("chinese_traditional", 12, "en", "plain"),
        ("chinese_traditional", 18, "vi", "lines"),
        ("chinese_traditional", 12, "es", "env"),
    ]
    for lang, count, say, layout in plan:
        out.append(_seed_text(g, g.phrase(lang, count), say, layout))
    for number, phrase in enumerate(JAPANESE):
        layout = ["plain", "numbered", "plain", "grid", "spaces", "lines"][number]
        say = ["en", "vi", "es", "en", "tr", "en"][number]
        if layout in ("plain", "spaces"):
            if layout == "spaces":
                phrase = phrase.replace("\u3000", " ")
            out.append(_seed_text(g, phrase, say, "plain"))
        else:
            out.append(_seed_text(g, phrase.replace("\u3000", " "), say, layout))
    return out


def _seed_text(g: Gen, phrase: str, say: str, layout: str) -> Sample:
    words = phrase.split()
    if layout == "noaccent":
        import unicodedata

        phrase = "".join(c for c in unicodedata.normalize("NFD", phrase) if unicodedata.category(c) != "Mn")
        words = phrase.split()
    if layout == "upper":
        phrase = phrase.upper()
        words = phrase.split()
    block = {
        "plain": phrase,
        "noaccent": phrase,
        "upper": phrase,
        "numbered": _numbered(words),
        "grid": _grid(words),
        "comma": ", ".join(words),
        "dash": " - ".join(words),
        "lines": "\n".join(words),
        "inline_num": " ".join(f"{i}) {w}" for i, w in enumerate(words, 1)),
        "env": phrase,
        "hardhat": phrase,
        "python": phrase,
        "solana": phrase,
    }[layout]
    n = len(words)
    if layout == "env":
        text = {
            "tr": f'Merhaba, deploy scripti cüzdanı bulamıyor. .env dosyam:\n\nRPC_URL=https://mainnet.base.org\nDEPLOYER_MNEMONIC="{block}"\nCHAIN_ID=8453',
            "vi": f'Chào shop, script thanh toán báo lỗi ví. File .env của mình:\n\nWALLET_MNEMONIC="{block}"\nNETWORK=polygon',
            "es": f"Hola, el bot de pagos no arranca. Mi .env:\n\nSEED_PHRASE={block}\nRPC=https://polygon-rpc.com",
        }[say]
        return text, [block]
    if layout == "hardhat":
        return wrap(
            g,
            f'networks: {{\n  sepolia: {{\n    url: process.env.SEPOLIA_RPC,\n    accounts: {{ mnemonic: "{block}" }},\n  }},\n}},',
            "en",
        ), [block]
    if layout == "python":
        intro = {
            "tr": "Ödeme için cüzdan adresimi türetmeye çalışıyorum ama yanlış adres çıkıyor:",
            "es": "Intento derivar la dirección de mi monedero para pagar y sale otra distinta:",
        }[say]
        return (
            f'{intro}\n\nfrom bip_utils import Bip39SeedGenerator, Bip44, Bip44Coins\nseed = Bip39SeedGenerator("{block}").Generate()\nacct = Bip44.FromSeed(seed, Bip44Coins.ETHEREUM).DeriveDefaultPath()\nprint(acct.PublicKey().ToAddress())',
            [block],
        )
    if layout == "solana":
        return (
            f"Paid with Solana but the deposit doesn't show. I recovered the wallet on the rental like this:\n\n$ solana-keygen recover 'prompt://?key=0/0' -o ~/pay.json\n[recover] seed phrase: {block}\n[recover] If this seed phrase has an associated passphrase, enter it now. Otherwise, press ENTER to continue:\nRecovered pubkey `{g.wallet()[3]}`. Continue? (y/n): y",
            [block],
        )
    say_text = {
        "en": [
            f"Hi, I paid order {g.num(1200, 98000)} with USDC but the payment page still says pending. My wallet's {n} words are: {block} — can you check if the money left?",
            f"Journal, wallet for the payment bot (recovery phrase, don't lose):\n{block}",
            f"Is this the right recovery phrase format for importing in your checkout? \n\n{block}\n\nthe wallet app says invalid",
            f"backup of the seed before I wipe the rental:\n{block}",
        ],
        "es": [
            f"Hola, pagué el pedido {g.num(1200, 98000)} con USDT y no aparece. Estas son mis {n} palabras de recuperación por si necesitáis comprobar algo:\n{block}",
            f"Mi frase semilla es {block} y la billetera dice que no es válida al importarla en la máquina, ¿qué hago?",
            f"Notas: semilla del monedero de pruebas\n{block}",
        ],
        "vi": [
            f"Chào shop, mình thanh toán bằng USDT mà chưa thấy cộng tiền. Cụm từ khôi phục {n} từ của ví mình là:\n{block}\nnhờ kiểm tra giúp",
            f"Ghi chú: cụm từ bí mật của ví thanh toán\n{block}",
        ],
        "tr": [
            f"Merhaba, {g.num(1200, 98000)} numaralı siparişi USDC ile ödedim ama görünmüyor. Cüzdanımın {n} kurtarma kelimesi: {block}",
            f"Kurtarma ifadem şu, cüzdanı makinede içe aktaramıyorum:\n{block}",
        ],
    }[say]
    if "\n" in block:
        say_text = [t for t in say_text if f"\n{block}" in t]
    return g.choice(say_text), [block]

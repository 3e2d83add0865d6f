# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the EIGHTH held-out part of the redaction corpus (`heldout8/*.jsonl`): support requests, pasted config
files, shell history, notebooks and logs from customers renting GPUs, with the secrets they paste by mistake and
about half again as many clean look-alikes.

Written (issue 32, decision 0388) by an engineer who did not read the patterns (`gpurent/core/redaction/`), the
tuning parts, held-out 6 or 7, nor any test of the redactor, and who never ran the redactor or the bench on these
texts; the pattern author measures it once and never tunes on it. Families: an AWS secret access key pasted right
after its access key id with no label between them, in many layouts (this module); BIP-39 seed phrases of 12 and
24 words in ten word lists (`heldout8_seeds.py`); credentials in the files and commands GPU users keep
(`heldout8_configs.py`, `heldout8_configs2.py`). Clean texts: `heldout8_negatives.py`, `heldout8_negatives2.py`,
`heldout8_negatives3.py` and the word lists of `heldout8_seeds.py`. Texts are in English, Spanish, Vietnamese and Turkish.

Run once: `.venv/bin/python -m tests.data.redaction_corpus.build_heldout8`; the output is committed. The
build checks itself (`checks.check_and_write`): every listed secret is in its text verbatim and at least 8
characters long, ids and texts are unique, the files parse back to the same records; and no clean text holds a
valid BIP-39 phrase (`heldout8_seeds.assert_no_phrase`).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .checks import check_and_write
from .heldout8_configs import config_positives
from .heldout8_configs2 import config_positives2
from .heldout8_negatives import negatives
from .heldout8_negatives2 import negatives2
from .heldout8_negatives3 import negatives3
from .heldout8_seeds import assert_no_phrase, seed_negatives, seed_positives
from .heldout8_shapes import Gen, aws_id, aws_secret, aws_session_token, wrap

OUT = Path(__file__).resolve().parent / "heldout8"
SEED = 388_20270112
Positive = tuple[str, str, list[str]]  # (family, text, secrets)


def _say(g: Gen, texts: dict[str, str]) -> tuple[str, str]:
    lang = g.choice(sorted(texts))
    return lang, texts[lang]


def _aws(g: Gen) -> list[Positive]:
    """An AWS key pair in the layouts people paste it, mostly with nothing but a separator between id and secret.

    Only the secret access key (and a session token) is listed: the access key id names the key, like a user name.
    """
    out: list[Positive] = []

    def add(text: str, *secrets: str) -> None:
        out.append(("aws-pair", text, list(secrets)))

    for _ in range(3):
        i, s = aws_id(g), aws_secret(g)
        lang, text = _say(
            g,
            {
                "en": f"boto3 keeps saying InvalidAccessKeyId. The IAM user I made for the checkpoints bucket is AWS {i} / {s}, region eu-west-1.",
                "es": f"boto3 sigue diciendo InvalidAccessKeyId. El usuario IAM que creé para el bucket de checkpoints es AWS {i} / {s}, región eu-west-1.",
                "vi": f"boto3 vẫn báo InvalidAccessKeyId. User IAM mình tạo cho bucket checkpoint là AWS {i} / {s}, region eu-west-1.",
                "tr": f"boto3 hâlâ InvalidAccessKeyId diyor. Checkpoint bucket'ı için açtığım IAM kullanıcısı AWS {i} / {s}, bölge eu-west-1.",
            },
        )
        add(wrap(g, text, lang), s)
    for _ in range(2):
        i, s = aws_id(g), aws_secret(g)
        lang, text = _say(
            g,
            {
                "en": f"S3 keys for the dataset bucket: {i} {s}\nthe bucket is s3://laion-subset-{g.num(1, 9)} in us-east-1",
                "es": f"Claves de S3 para el bucket del dataset: {i} {s}\nel bucket es s3://corpus-es-{g.num(1, 9)} en eu-south-2",
                "tr": f"Veri seti bucket'ı için S3 anahtarlarım: {i} {s}\nbucket adı s3://turkce-korpus-{g.num(1, 9)}, bölge eu-central-1",
            },
        )
        add(wrap(g, text, lang), s)
    for _ in range(3):
        i, s = aws_id(g), aws_secret(g)
        lang, text = _say(
            g,
            {
                "en": f"Here are the keys I generated in IAM this morning:\n\n{i}\n{s}\n\nThey work from my laptop but not from the rental.",
                "es": f"Estas son las claves que generé esta mañana en IAM:\n\n{i}\n{s}\n\nDesde mi portátil funcionan, desde el alquiler no.",
                "vi": f"Đây là key mình tạo trong IAM sáng nay:\n\n{i}\n{s}\n\nChạy từ laptop thì được, từ máy thuê thì không.",
                "tr": f"Bu sabah IAM'de oluşturduğum anahtarlar:\n\n{i}\n{s}\n\nDizüstünden çalışıyor ama kiraladığım makineden çalışmıyor.",
            },
        )
        add(text, s)
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"$ cat .env\nDATA_BUCKET=s3://ckpt-{g.pick('abcdefgh', 5)}\nS3_CREDS={i}:{s}\nNUM_WORKERS=16"), s)
    for _ in range(2):
        i, s = aws_id(g), aws_secret(g)
        add(
            wrap(
                g,
                f"$ echo {i}:{s} > ~/.passwd-s3fs\n$ chmod 600 ~/.passwd-s3fs\n$ s3fs imagenet-shards /mnt/data -o passwd_file=~/.passwd-s3fs -o url=https://s3.eu-central-1.amazonaws.com\ns3fs: could not determine how to establish security credentials.",
            ),
            s,
        )
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"root@gpu-node:~# cat /etc/passwd-s3fs\n{i}:{s}\nroot@gpu-node:~# mount | grep fuse\n(nothing)"), s)
    i, s = aws_id(g), aws_secret(g)
    add(
        wrap(
            g,
            f"copied from our team sheet:\n\nUser name\tAccess key ID\tSecret access key\tCreated\ntrainer-bot\t{i}\t{s}\t2026-11-02",
            "en",
        ),
        s,
    )
    for name in ("trainer", "ci-upload"):
        i, s = aws_id(g), aws_secret(g)
        add(wrap(g, f"$ cat ~/Downloads/{name}_accessKeys.csv\nAccess key ID,Secret access key\n{i},{s}"), s)
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"| env | key | |\n|---|---|---|\n| dev | (none) | |\n| prod | {i} | {s} |", "es"), s)
    for _ in range(2):
        i, s = aws_id(g), aws_secret(g)
        add(
            wrap(
                g,
                f'import boto3\nsession = boto3.Session("{i}", "{s}", region_name="ap-southeast-1")\ns3 = session.client("s3")\ns3.download_file("vn-speech-data", "train/shard-000.tar", "/workspace/shard-000.tar")',
            ),
            s,
        )
    i, s = aws_id(g), aws_secret(g)
    add(
        wrap(
            g,
            f'from minio import Minio\nclient = Minio("s3.amazonaws.com", "{i}", "{s}", region="us-east-2")\nprint(client.list_buckets())',
        ),
        s,
    )
    i, s = aws_id(g), aws_secret(g)
    add(
        wrap(
            g,
            f"$ mc alias set s3 https://s3.amazonaws.com {i} {s}\nmc: <ERROR> Unable to initialize new alias from the provided credentials. The request signature we calculated does not match the signature you provided.",
        ),
        s,
    )
    i, s = aws_id(g), aws_secret(g, plain=True)
    add(
        wrap(
            g,
            f"--checkpoint-dir s3://{i}:{s}@ckpt-llama-ft/run-{g.num(10, 99)}/  (the trainer accepts keys in the URL)",
        ),
        s,
    )
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"from my password manager note 'aws personal':\naws: {i} | {s}\nmfa on my phone"), s)
    i, s = aws_id(g), aws_secret(g)
    add(
        wrap(g, f'CREDS = ("{i}", "{s}")  # TODO move to env\nfs = s3fs.S3FileSystem(key=CREDS[0], secret=CREDS[1])'), s
    )
    i, s = aws_id(g), aws_secret(g)
    add(
        wrap(
            g,
            f"Yedekleme için kullandığım AWS anahtarı: {i} — {s}\nama aws s3 sync komutu SignatureDoesNotMatch veriyor.",
            "tr",
        ),
        s,
    )
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"AWS {i} {s} us-east-1", "en"), s)
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"I even tried a brand new pair ({i}, {s}) and still get 403 on the bucket.", "en"), s)
    i, s, t = aws_id(g, temporary=True), aws_secret(g), aws_session_token(g)
    add(
        wrap(
            g,
            f"Output of `aws sts get-session-token --query Credentials --output text` that I paste into the job:\n{i}\t{s}\t{t}\t2027-01-12T18:04:11+00:00",
        ),
        s,
        t,
    )
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f'docker run --gpus all -e S3_KEYS="{i} {s}" -v /data:/data ghcr.io/acme/trainer:2.4 --epochs 3'), s)
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"key {i}  {s} nhé, bạn thử mount bucket giúp mình", "vi"), s)
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"Mi clave: {i}, {s}. ¿Por qué aws s3 ls devuelve AccessDenied desde la máquina alquilada?", "es"), s)
    i, s = aws_id(g), aws_secret(g)
    add(wrap(g, f"buckets:\n  - name: raw-video\n    keys: [{i}, {s}]\n  - name: public-eval\n    keys: []"), s)
    # the same pair with its labels, as the CLI and files write it
    i, s = aws_id(g), aws_secret(g)
    add(
        wrap(
            g,
            f"export AWS_ACCESS_KEY_ID={i}\nexport AWS_SECRET_ACCESS_KEY={s}\nexport AWS_DEFAULT_REGION=eu-west-3\npython upload_ckpt.py",
        ),
        s,
    )
    i, s = aws_id(g), aws_secret(g)
    add(
        wrap(
            g,
            f"$ aws configure\nAWS Access Key ID [None]: {i}\nAWS Secret Access Key [None]: {s}\nDefault region name [None]: ap-northeast-1\nDefault output format [None]: json",
        ),
        s,
    )
    i, s, t = aws_id(g, temporary=True), aws_secret(g), aws_session_token(g)
    add(
        wrap(
            g,
            f"~/.aws/credentials\n[sso-train]\naws_access_key_id = {i}\naws_secret_access_key = {s}\naws_session_token = {t}",
        ),
        s,
        t,
    )
    i, s = aws_id(g), aws_secret(g)
    add(
        wrap(
            g,
            f"rclone copy /workspace/ckpt :s3:llm-ckpt --s3-provider AWS --s3-access-key-id {i} --s3-secret-access-key {s} --progress",
        ),
        s,
    )
    return out


def main() -> None:
    g = Gen(SEED)
    positives: list[Positive] = _aws(g) + seed_positives(g) + config_positives(g) + config_positives2(g)
    clean = negatives(g) + negatives2(g) + negatives3(g) + seed_negatives(g)
    assert_no_phrase(clean)
    check_and_write(OUT, "h8", [(text, secrets) for _, text, secrets in positives], clean)
    families = Counter(family for family, _, _ in positives)
    secrets: Counter[str] = Counter()
    for family, _, listed in positives:
        secrets[family] += len(listed)
    for family in sorted(families):
        print(f"  {family}: {families[family]} texts, {secrets[family]} secrets")


if __name__ == "__main__":
    main()

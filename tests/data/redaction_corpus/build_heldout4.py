# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the FOURTH held-out part of the redaction corpus (`heldout4/*.jsonl`): support requests as customers
of a GPU rental write them, with the secrets they paste by mistake.

Written (issue 15, 2026-12-03) by an engineer who did not read the patterns (`gpurent/core/redaction/`), did not
run the redactor on these texts and never saw which of them it misses; the pattern author measures it once per
round and never tunes on it. Shapes follow the published rule sets of gitleaks (config/gitleaks.toml),
trufflehog (pkg/detectors) and detect-secrets, and the command lines and files the tools really print or read:
database clients and URIs, `ssh`/`sshpass`, `wandb`, `huggingface-cli`/`hf`, `docker login`, `aws`/`gcloud`/`az`,
`kubectl`, `terraform`, git remotes, `.env`/YAML/JSON/TOML/INI files, notebooks, CI logs, and wallets (Solana
keypairs in base58 and as JSON byte arrays, Ethereum keys introduced by words, BIP-39 seeds, WIF, xprv). Texts are
mostly English, some Spanish, Vietnamese and Turkish. Negatives (`heldout4_negatives.py`) are the look-alikes the
same pastes hold, which must survive unchanged.

Run once: `.venv/bin/python -m tests.data.redaction_corpus.build_heldout4`; the output is committed.
The build checks itself (`checks.check_and_write`): every listed secret is in its text verbatim and at least 8 characters long,
ids and texts are unique, and the written files parse back to the same records.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, LOWER, UPPER, URLSAFE, Fakes
from .heldout4_negatives import negatives
from .heldout4_negatives import wrap as _wrap

OUT = Path(__file__).resolve().parent / "heldout4"
DIGITS = "0123456789"
SEED = 4_20261203
Sample = tuple[str, list[str]]


def _host(f: Fakes) -> str:
    return f.choice(
        [
            f"10.{f.rng.randint(0, 255)}.{f.rng.randint(0, 255)}.{f.rng.randint(2, 254)}",
            f"gpu-{f.rng.randint(1, 60)}.node.gpurent.example",
            f"db-{f.pick(LOWER, 6)}.internal",
            f"{f.rng.randint(40, 220)}.{f.rng.randint(1, 255)}.{f.rng.randint(1, 255)}.{f.rng.randint(2, 254)}",
        ]
    )


def _user(f: Fakes) -> str:
    return f.choice(["root", "ubuntu", "admin", "trainer", "ml_ops", "app", "postgres", "svc-infer", "deploy"])


def _urlpw(f: Fakes) -> str:
    """A password that can sit in a URL without escaping."""
    style = f.rng.randrange(3)
    if style == 0:
        return f.pick(ALNUM, f.rng.randint(12, 22))
    if style == 1:
        return (
            f.choice(["Tigris", "Osprey", "kernel", "Halcyon", "pamplona", "Bosphorus"])
            + f.pick(DIGITS, 4)
            + f.choice(["", "x", "_z"])
        )
    return f.pick(ALNUM + "-_.", f.rng.randint(14, 28))


# --- provider token shapes (gitleaks / trufflehog rule shapes) ---------------------------------------------------


def openai_key(f: Fakes) -> str:
    if f.rng.random() < 0.25:
        return "sk-" + f.pick(ALNUM, 20) + "T3BlbkFJ" + f.pick(ALNUM, 20)
    return f"sk-{f.choice(['proj', 'svcacct', 'None'])}-{f.pick(URLSAFE, 74)}T3BlbkFJ{f.pick(URLSAFE, 74)}"


def anthropic_key(f: Fakes) -> str:
    return f"sk-ant-{f.choice(['api03', 'admin01'])}-{f.pick(URLSAFE, 93)}AA"


def hf_token(f: Fakes) -> str:
    return "hf_" + f.pick(ALNUM, 34)


def gh_token(f: Fakes) -> str:
    kind = f.rng.randrange(3)
    if kind == 0:
        return f"{f.choice(['ghp', 'gho', 'ghu', 'ghs', 'ghr'])}_{f.pick(ALNUM, 36)}"
    if kind == 1:
        return f"github_pat_11{f.pick(UPPER, 20)}_{f.pick(ALNUM, 59)}"
    return f"ghp_{f.pick(ALNUM, 36)}"


def gitlab_token(f: Fakes) -> str:
    prefix = f.choice(["glpat-", "glpat-", "gldt-", "glrt-", "glptt-"])
    return prefix + (f.hex(40) if prefix == "glptt-" else f.pick(URLSAFE, 20))


def aws_pair(f: Fakes) -> tuple[str, str]:
    return f.choice(["AKIA", "AKIA", "ASIA"]) + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), f.pick(B64, 40)


def wandb_key(f: Fakes) -> str:
    return f.hex(40)


def slack_token(f: Fakes) -> str:
    kind = f.choice(["xoxb", "xoxp", "xapp"])
    if kind == "xapp":
        return f"xapp-1-A{f.pick(UPPER, 10)}-{f.pick(DIGITS, 13)}-{f.hex(64)}"
    return f"{kind}-{f.pick(DIGITS, 12)}-{f.pick(DIGITS, 13)}-{f.pick(ALNUM, 24)}"


def stripe_key(f: Fakes) -> str:
    return f.choice(["sk_live_", "rk_live_", "sk_test_"]) + f.pick(ALNUM, f.choice([24, 99]))


def azure_client_secret(f: Fakes) -> str:
    return f.pick(ALNUM, 3) + f.choice(DIGITS) + "Q~" + f.pick(ALNUM + "_~.-", 34)


def pem_body(f: Fakes, lines: int) -> list[str]:
    return [f.pick(B64, 64) for _ in range(lines)] + [f.pick(B64, f.rng.randint(20, 60)) + f.choice(["=", "==", ""])]


def pem_block(f: Fakes, label: str, lines: int = 10) -> tuple[str, list[str]]:
    body = pem_body(f, lines)
    return f"-----BEGIN {label}-----\n" + "\n".join(body) + f"\n-----END {label}-----", body[:-1]


def openssh_block(f: Fakes) -> tuple[str, list[str]]:
    body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"] + [
        f.pick(B64, 70) for _ in range(4)
    ]
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END OPENSSH PRIVATE KEY-----"
    return text, body[1:]


def _prefixed(f: Fakes) -> tuple[str, str, str]:
    """(service, env var, token) for the provider prefixes in gitleaks' and trufflehog's rules."""
    table: list[tuple[str, str, Callable[[], str]]] = [
        ("Groq", "GROQ_API_KEY", lambda: "gsk_" + f.pick(ALNUM, 52)),
        ("Perplexity", "PPLX_API_KEY", lambda: "pplx-" + f.pick(ALNUM, 48)),
        ("OpenRouter", "OPENROUTER_API_KEY", lambda: "sk-or-v1-" + f.hex(64)),
        ("Replicate", "REPLICATE_API_TOKEN", lambda: "r8_" + f.pick(ALNUM, 37)),
        ("xAI", "XAI_API_KEY", lambda: "xai-" + f.pick(ALNUM, 80)),
        ("LangSmith", "LANGCHAIN_API_KEY", lambda: f"lsv2_{f.choice(['pt', 'sk'])}_{f.hex(32)}_{f.hex(10)}"),
        ("Pinecone", "PINECONE_API_KEY", lambda: "pcsk_" + f.pick(ALNUM, 5) + "_" + f.pick(ALNUM, 63)),
        ("Linear", "LINEAR_API_KEY", lambda: "lin_api_" + f.pick(ALNUM, 40)),
        ("Notion", "NOTION_TOKEN", lambda: "ntn_" + f.pick(DIGITS, 11) + f.pick(ALNUM, 35)),
        ("Databricks", "DATABRICKS_TOKEN", lambda: "dapi" + f.hex(32) + f.choice(["", "-2", "-3"])),
        ("DigitalOcean", "DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + f.hex(64)),
        ("Supabase", "SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + f.hex(40)),
        ("Doppler", "DOPPLER_TOKEN", lambda: "dp.st.prd." + f.pick(ALNUM, 43)),
        ("Tailscale", "TS_AUTHKEY", lambda: f"tskey-auth-k{f.pick(ALNUM, 10)}CNTRL-{f.pick(ALNUM, 33)}"),
        ("Fly.io", "FLY_API_TOKEN", lambda: "fo1_" + f.pick(URLSAFE, 43)),
        ("Postman", "POSTMAN_API_KEY", lambda: f"PMAK-{f.hex(24)}-{f.hex(34)}"),
        ("Pulumi", "PULUMI_ACCESS_TOKEN", lambda: "pul-" + f.hex(40)),
        ("Grafana", "GRAFANA_SA_TOKEN", lambda: f"glsa_{f.pick(ALNUM, 32)}_{f.hex(8)}"),
        ("New Relic", "NEW_RELIC_API_KEY", lambda: "NRAK-" + f.pick(UPPER, 27)),
        ("Shopify", "SHOPIFY_ACCESS_TOKEN", lambda: "shpat_" + f.hex(32)),
        ("SendGrid", "SENDGRID_API_KEY", lambda: f"SG.{f.pick(URLSAFE, 22)}.{f.pick(URLSAFE, 43)}"),
        ("npm", "NPM_TOKEN", lambda: "npm_" + f.pick(ALNUM, 36)),
        ("Docker Hub", "DOCKERHUB_TOKEN", lambda: "dckr_pat_" + f.pick(URLSAFE, 27)),
        ("Atlassian", "JIRA_API_TOKEN", lambda: "ATATT3xFfGF0" + f.pick(URLSAFE, 171) + "=" + f.hex(8).upper()),
        ("Dynatrace", "DT_API_TOKEN", lambda: f"dt0c01.{f.pick(UPPER, 24)}.{f.pick(UPPER, 64)}"),
        ("Twilio", "TWILIO_API_SECRET_SID", lambda: "SK" + f.hex(32)),
        ("Mailgun", "MAILGUN_API_KEY", lambda: "key-" + f.hex(32)),
        ("Age", "SOPS_AGE_KEY", lambda: "AGE-SECRET-KEY-1" + f.pick("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
        ("Google", "GOOGLE_API_KEY", lambda: "AIza" + f.pick(URLSAFE, 35)),
        ("Heroku", "HEROKU_API_KEY", lambda: "HRKU-AA" + f.pick(URLSAFE, 58)),
        ("GitLab", "GITLAB_TOKEN", lambda: gitlab_token(f)),
        ("Slack", "SLACK_BOT_TOKEN", lambda: slack_token(f)),
        ("Stripe", "STRIPE_SECRET_KEY", lambda: stripe_key(f)),
        ("Hugging Face", "HUGGING_FACE_HUB_TOKEN", lambda: hf_token(f)),
        ("Anthropic", "ANTHROPIC_API_KEY", lambda: anthropic_key(f)),
        ("Vault", "VAULT_TOKEN", lambda: "hvs." + f.pick(URLSAFE, 90)),
        ("Terraform Cloud", "TF_TOKEN_app_terraform_io", lambda: f"{f.pick(ALNUM, 14)}.atlasv1.{f.pick(ALNUM, 67)}"),
        ("Clojars", "CLOJARS_DEPLOY_TOKEN", lambda: "CLOJARS_" + f.pick(LOWER, 60)),
        ("Alibaba", "ALIBABA_CLOUD_ACCESS_KEY_ID", lambda: "LTAI" + f.pick(ALNUM, 20)),
    ]
    service, var, make = f.choice(table)
    return service, var, make()


def _keyword_only(f: Fakes) -> tuple[str, str, str]:
    """(service, env var, key) for providers whose keys have no prefix: only the name around says what they are."""
    table = [
        ("Mistral", "MISTRAL_API_KEY", lambda: f.pick(ALNUM, 32)),
        ("Together", "TOGETHER_API_KEY", lambda: f.hex(64)),
        ("Cohere", "CO_API_KEY", lambda: f.pick(ALNUM, 40)),
        ("DeepSeek", "DEEPSEEK_API_KEY", lambda: "sk-" + f.hex(32)),
        ("Datadog", "DD_API_KEY", lambda: f.hex(32)),
        ("Vast.ai", "VAST_API_KEY", lambda: f.hex(64)),
        ("RunPod", "RUNPOD_API_KEY", lambda: f.pick(UPPER, 32)),
        ("Cloudflare", "CLOUDFLARE_API_TOKEN", lambda: f.pick(URLSAFE, 40)),
        ("Comet", "COMET_API_KEY", lambda: f.pick(ALNUM, 25)),
        ("Algolia", "ALGOLIA_ADMIN_KEY", lambda: f.hex(32)),
        ("Kaggle", "KAGGLE_KEY", lambda: f.hex(32)),
        ("Lambda", "LAMBDA_API_KEY", lambda: f"secret_{f.pick(LOWER, 8)}_{f.hex(32)}"),
        ("ElevenLabs", "ELEVENLABS_API_KEY", lambda: f.hex(32)),
        ("Fireworks", "FIREWORKS_API_KEY", lambda: "fw_" + f.pick(ALNUM, 24)),
    ]
    service, var, make = f.choice(table)
    return service, var, make()


# --- the positives ------------------------------------------------------------------------------------------------


def positives(f: Fakes) -> list[Sample]:
    p = f.password
    out: list[Sample] = []

    def add(build: Callable[[], Sample], times: int = 3) -> None:
        for _ in range(times):
            out.append(build())

    # database clients and URIs
    def psql_uri() -> Sample:
        pw, host = _urlpw(f), _host(f)
        db = f.choice(["train", "features", "mlflow", "labels"])
        body = f'$ psql "postgresql://{_user(f)}:{pw}@{host}:5432/{db}?sslmode=require"\npsql: error: connection to server at "{host}", port 5432 failed: Connection timed out\n\tIs the server running on that host and accepting TCP/IP connections?'
        return _wrap(f, f"I can't reach my database from the rented box:\n\n{body}"), [pw]

    def pgdump() -> Sample:
        pw = p()
        cmd = f.choice(
            [
                f"PGPASSWORD='{pw}' pg_dump -h {_host(f)} -U {_user(f)} -Fc shop > /data/shop.dump",
                f"PGPASSWORD=\"{pw}\" psql -h {_host(f)} -U {_user(f)} -d analytics -c '\\dt'",
            ]
        )
        return _wrap(
            f,
            f"the nightly backup script on the instance fails since yesterday, the line is\n    {cmd}\nit prints 'could not translate host name'",
        ), [pw]

    def mysql_flag() -> Sample:
        pw = p()
        cmd = f.choice(
            [
                f"mysql -h {_host(f)} -P 3306 -u {_user(f)} --password={pw} -e 'SHOW DATABASES;'",
                f"mysqldump -u{_user(f)} -p{pw} --single-transaction --routines wiki > wiki.sql",
                f"mysql --host={_host(f)} --user=admin --password='{pw}' labels < schema.sql",
                f"mariadb -u root -p'{pw}' -h 127.0.0.1",
            ]
        )
        return _wrap(f, f"Running `{cmd}` on the GPU node returns ERROR 2002 (HY000): Can't connect to server"), [pw]

    def mongo() -> Sample:
        pw = _urlpw(f)
        cmd = f.choice(
            [
                f'mongosh "mongodb+srv://{_user(f)}:{pw}@cluster0.{f.pick(LOWER, 5)}.mongodb.net/vectors" --eval "db.stats()"',
                f'mongodump --uri="mongodb://admin:{pw}@{_host(f)}:27017/?authSource=admin" --out /mnt/backup',
                f"MONGO_URI=mongodb://{_user(f)}:{pw}@{_host(f)}:27017/rag python ingest.py",
            ]
        )
        return _wrap(f, f"{cmd}\nMongoServerSelectionError: connection <monitor> to {_host(f)}:27017 closed"), [pw]

    def redis() -> Sample:
        pw = f.pick(ALNUM, f.rng.randint(16, 32))
        cmd = f.choice(
            [
                f"redis-cli -h {_host(f)} -p 6380 --tls --pass {pw} ping",
                f"redis-cli -u redis://default:{pw}@{_host(f)}:6379 info memory",
                f"export CELERY_BROKER_URL=rediss://:{pw}@{_host(f)}:6380/0",
                f"redis-cli -a {pw} --no-auth-warning -n 2 keys 'job:*'",
            ]
        )
        return _wrap(
            f, f"my queue workers lost the broker after the migration:\n{cmd}\n(error) NOAUTH Authentication required."
        ), [pw]

    def amqp_other() -> Sample:
        pw = _urlpw(f)
        url = f.choice(
            [
                f"amqp://{_user(f)}:{pw}@{_host(f)}:5672/%2F",
                f"clickhouse://default:{pw}@{_host(f)}:9000/events",
                f"neo4j+s://neo4j:{pw}@{f.pick(LOWER, 8)}.databases.neo4j.io",
                f"postgres://{_user(f)}.{f.pick(LOWER, 20)}:{pw}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres",
                f"jdbc:postgresql://{_host(f)}:5432/dw?user=etl&password={pw}",
                f"Server=tcp:{f.pick(LOWER, 8)}.database.windows.net,1433;Database=sales;User ID=sqladmin;Password={pw};Encrypt=true;",
            ]
        )
        return _wrap(
            f, f"connection string we use in the container env:\n{url}\nit worked on my laptop but not on your instance"
        ), [pw]

    for build in (psql_uri, pgdump, mysql_flag, mongo, redis, amqp_other):
        add(build)
    add(psql_uri, 1)
    add(mysql_flag, 1)

    # ssh
    def sshpass() -> Sample:
        pw = p()
        ip = _host(f)
        cmd = f.choice(
            [
                f"sshpass -p '{pw}' ssh -o StrictHostKeyChecking=no root@{ip} -p {f.rng.randint(20000, 40000)}",
                f"sshpass -p{pw} rsync -avz ./ckpt/ ubuntu@{ip}:/workspace/ckpt/",
                f'sshpass -p "{pw}" scp -P 2222 model.safetensors root@{ip}:/data/',
            ]
        )
        return _wrap(f, f"{cmd}\nPermission denied, please try again."), [pw]

    def ssh_words() -> Sample:
        pw = p()
        port, host = f.rng.randint(20000, 40000), _host(f)
        body = f.choice(
            [
                f"ssh root@{host} -p {port} asks for a password and the one from the dashboard ({pw}) is rejected",
                f"I reset the root password to {pw} from the web console but ssh still says Permission denied (publickey,password).",
                f"$ ssh root@{host} -p {port}\nroot@{host}'s password:\nPermission denied, please try again.\n\n(the password I type is {pw}, copied from the order page)",
            ]
        )
        return _wrap(f, body), [pw]

    def ssh_key_paste() -> Sample:
        if f.rng.random() < 0.5:
            (block, body), name = openssh_block(f), "id_ed25519"
        else:
            (block, body), name = pem_block(f, "RSA PRIVATE KEY", 12), "id_rsa"
        return _wrap(f, f"which key do I upload? this is ~/.ssh/{name} on my laptop:\n\n{block}\n"), body

    add(sshpass, 4)
    add(ssh_words, 4)
    add(ssh_key_paste, 4)

    # ML tools
    def wandb() -> Sample:
        key = wandb_key(f)
        body = f.choice(
            [
                f"$ wandb login --relogin {key}\nwandb: ERROR api_key not configured (no-tty). call wandb.login(key=[your_api_key])",
                f"WANDB_API_KEY={key} accelerate launch train.py --config cfg.yaml\nwandb: Network error (ConnectTimeout), entering retry loop.",
                f'import wandb\nwandb.login(key="{key}")\nrun = wandb.init(project="sd-xl-ft")',
                f"wandb login {key}",
            ]
        )
        return _wrap(f, f"wandb can't connect from the instance:\n{body}"), [key]

    def huggingface() -> Sample:
        tok = hf_token(f)
        body = f.choice(
            [
                f"huggingface-cli login --token {tok} --add-to-git-credential",
                f"hf auth login --token {tok}",
                f"HF_TOKEN={tok} vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 4",
                f'from huggingface_hub import login\nlogin(token="{tok}")',
                f"docker run --gpus all -e HUGGING_FACE_HUB_TOKEN={tok} -p 8080:80 ghcr.io/huggingface/text-generation-inference:2.4",
                f"git clone https://user:{tok}@huggingface.co/meta-llama/Llama-3.1-8B",
            ]
        )
        return _wrap(
            f,
            f"{body}\n401 Client Error: Unauthorized for url: https://huggingface.co/api/whoami-v2\nI accepted the license already, what else?",
        ), [tok]

    def hf_words() -> Sample:
        tok = hf_token(f)
        lang = f.choice(["en", "es", "vi", "tr"])
        body = {
            "en": f"my HF token is {tok}, can you pre-download Llama 3 weights onto the volume?",
            "es": f"mi token de Hugging Face es {tok}, ¿pueden descargar el modelo en el volumen?",
            "vi": f"token huggingface của mình là {tok}, nhờ bên bạn tải sẵn model giúp",
            "tr": f"Hugging Face tokenım {tok}, modeli diske önceden indirebilir misiniz?",
        }[lang]
        return _wrap(f, body, lang), [tok]

    add(wandb, 5)
    add(huggingface, 6)
    add(hf_words, 4)

    # registries
    def docker_login() -> Sample:
        kind = f.rng.randrange(4)
        if kind == 0:
            pw = p()
            cmd = f"docker login -u {f.pick(LOWER, 7)} -p {pw} registry.gitlab.com"
        elif kind == 1:
            pw = gh_token(f)
            cmd = f"echo {pw} | docker login ghcr.io -u {f.pick(LOWER, 8)} --password-stdin"
        elif kind == 2:
            pw = "dckr_pat_" + f.pick(URLSAFE, 27)
            cmd = f"docker login --username {f.pick(LOWER, 6)} --password {pw}"
        else:
            pw = f.pick(ALNUM + "+/", 52)
            cmd = f"helm registry login {f.pick(LOWER, 6)}.azurecr.io --username {f.pick(LOWER, 6)} --password {pw}"
        return _wrap(
            f,
            f'pulling our private image fails:\n{cmd}\nError response from daemon: Get "https://registry/v2/": unauthorized',
        ), [pw]

    def docker_config() -> Sample:
        user, pw = f.pick(LOWER, 8), p()
        auth = base64.b64encode(f"{user}:{pw}".encode()).decode()
        cfg = json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": auth}}, "credsStore": ""}, indent=2)
        return _wrap(f, f"cat ~/.docker/config.json\n{cfg}\n\nstill 'pull access denied'"), [auth]

    add(docker_login, 7)
    add(docker_config, 3)

    # clouds
    def aws_cli() -> Sample:
        kid, sec = aws_pair(f)
        body = f.choice(
            [
                f"aws configure set aws_access_key_id {kid}\naws configure set aws_secret_access_key {sec}\naws s3 ls s3://datasets-eu",
                f"AWS_ACCESS_KEY_ID={kid} AWS_SECRET_ACCESS_KEY={sec} aws s3 sync s3://ckpts/run-12 /workspace/run-12",
                f"[default]\naws_access_key_id = {kid}\naws_secret_access_key = {sec}\nregion = us-east-1",
                f"$ aws configure\nAWS Access Key ID [None]: {kid}\nAWS Secret Access Key [None]: {sec}\nDefault region name [None]: eu-west-1\nDefault output format [None]:",
            ]
        )
        return _wrap(
            f, f"{body}\nAn error occurred (SignatureDoesNotMatch) when calling the ListObjectsV2 operation"
        ), [sec]

    def aws_session() -> Sample:
        kid, sec = aws_pair(f)
        token = "IQoJb3JpZ2luX2VjE" + f.pick(B64, 300)
        out_json = json.dumps(
            {
                "Credentials": {
                    "AccessKeyId": "ASIA" + kid[4:],
                    "SecretAccessKey": sec,
                    "SessionToken": token,
                    "Expiration": "2026-12-03T19:12:44+00:00",
                }
            },
            indent=4,
        )
        return _wrap(
            f,
            f"aws sts get-session-token --duration-seconds 3600 gives me this but boto3 on the box ignores it:\n{out_json}",
        ), [sec, token]

    def gcloud() -> Sample:
        kind = f.rng.randrange(2)
        if kind == 0:
            tok = "ya29.a0" + f.pick(URLSAFE, 150)
            return _wrap(
                f,
                f'$ gcloud auth print-access-token\n{tok}\n$ curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://storage.googleapis.com/...\n403',
            ), [tok]
        block, body = pem_block(f, "PRIVATE KEY", 8)
        sa = json.dumps(
            {
                "type": "service_account",
                "project_id": f"train-{f.pick(DIGITS, 6)}",
                "private_key_id": f.hex(40),
                "private_key": block + "\n",
                "client_email": f"runner@train-{f.pick(DIGITS, 6)}.iam.gserviceaccount.com",
            },
            indent=2,
        )
        return _wrap(f, f"GOOGLE_APPLICATION_CREDENTIALS points to this file:\n{sa}"), body

    def azure() -> Sample:
        kind = f.rng.randrange(3)
        if kind == 0:
            sec = azure_client_secret(f)
            return _wrap(
                f,
                f"az login --service-principal -u {f.uuid()} -p {sec} --tenant {f.uuid()}\nAADSTS7000215: Invalid client secret provided.",
            ), [sec]
        key = f.pick(B64, 86) + "=="
        if kind == 1:
            return _wrap(
                f,
                f"az storage blob upload-batch -d ckpts -s ./out --account-name {f.pick(LOWER, 10)} --account-key {key}",
            ), [key]
        return _wrap(
            f,
            f"AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={f.pick(LOWER, 10)};AccountKey={key};EndpointSuffix=core.windows.net",
        ), [key]

    def azure_sas() -> Sample:
        sig = f.pick(ALNUM, 43) + "%3D"
        url = f"https://{f.pick(LOWER, 9)}.blob.core.windows.net/data/shard-00.tar?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-12-31T00:00:00Z&st=2026-12-01T00:00:00Z&spr=https&sig={sig}"
        return _wrap(f, f"wget on the instance returns 403 for\n{url}"), [sig]

    add(aws_cli, 6)
    add(aws_session, 3)
    add(gcloud, 4)
    add(azure, 5)
    add(azure_sas, 2)

    # kubernetes, terraform, vault
    def kubectl() -> Sample:
        kind = f.rng.randrange(3)
        if kind == 0:
            pw = p()
            return _wrap(
                f,
                f"kubectl create secret docker-registry regcred --docker-server=nvcr.io --docker-username='$oauthtoken' --docker-password={pw} -n inference",
            ), [pw]
        if kind == 1:
            tok = hf_token(f)
            return _wrap(
                f,
                f"kubectl -n llm create secret generic hf-token --from-literal=HF_TOKEN={tok}\nsecret/hf-token created\nbut the pod still 401s",
            ), [tok]
        jwt = f.jwt()
        return _wrap(
            f,
            f"kubeconfig from the cluster you gave me:\nusers:\n- name: rented-admin\n  user:\n    token: {jwt}\ncontexts:\n- context: {{cluster: rented, user: rented-admin}}",
        ), [jwt]

    def terraform() -> Sample:
        kind = f.rng.randrange(3)
        if kind == 0:
            pw = p()
            return _wrap(
                f,
                f"export TF_VAR_db_password='{pw}'\nterraform apply -auto-approve\nError: creating RDS DB Instance: InvalidParameterValue",
            ), [pw]
        tok = f"{f.pick(ALNUM, 14)}.atlasv1.{f.pick(ALNUM, 67)}"
        if kind == 1:
            return _wrap(f, f'~/.terraformrc:\ncredentials "app.terraform.io" {{\n  token = "{tok}"\n}}'), [tok]
        return _wrap(
            f,
            f'terraform login said ok but plan fails. {f.choice(["credentials.tfrc.json", "my token file"])}: {{"credentials": {{"app.terraform.io": {{"token": "{tok}"}}}}}}',
        ), [tok]

    def vault() -> Sample:
        tok = "hvs." + f.pick(URLSAFE, 90)
        body = f.choice(
            [
                f"vault login {tok}",
                f"VAULT_ADDR=https://vault.acme.example:8200 VAULT_TOKEN={tok} vault kv get secret/train",
            ]
        )
        return _wrap(f, f"{body}\nError making API request. Code: 403. Errors: * permission denied"), [tok]

    add(kubectl, 6)
    add(terraform, 4)
    add(vault, 2)

    # git
    def git_remote() -> Sample:
        tok = f.choice([gh_token, gitlab_token])(f)
        org, repo = f.pick(LOWER, 7), f.choice(["trainer", "infer-svc", "datasets", "lora-recipes"])
        body = f.choice(
            [
                f"$ git remote -v\norigin\thttps://{tok}@github.com/{org}/{repo}.git (fetch)\norigin\thttps://{tok}@github.com/{org}/{repo}.git (push)",
                f"git clone https://oauth2:{tok}@gitlab.com/{org}/{repo}.git\nremote: HTTP Basic: Access denied",
                f"git push https://x-access-token:{tok}@github.com/{org}/{repo}.git HEAD:main",
                f"cat ~/.git-credentials\nhttps://{org}:{tok}@github.com",
                f"pip install git+https://{tok}@github.com/{org}/{repo}.git@v0.3.1",
            ]
        )
        return _wrap(f, f"{body}\nfatal: unable to access: Could not resolve host"), [tok]

    def gh_cli() -> Sample:
        tok = gh_token(f)
        body = f.choice(
            [
                f"gh auth login --with-token <<< {tok}",
                f"GH_TOKEN={tok} gh release download v2.1 -R {f.pick(LOWER, 6)}/weights",
                f"echo {tok} | gh auth login --with-token",
            ]
        )
        return _wrap(f, body), [tok]

    add(git_remote, 8)
    add(gh_cli, 3)

    # curl, package managers, other CLIs
    def curl_auth() -> Sample:
        kind = f.rng.randrange(4)
        if kind == 0:
            key = openai_key(f)
            return _wrap(
                f,
                f'curl https://api.openai.com/v1/chat/completions -H "Content-Type: application/json" -H "Authorization: Bearer {key}" -d @req.json\n{{"error": {{"code": "insufficient_quota"}}}}',
            ), [key]
        if kind == 1:
            key = anthropic_key(f)
            return _wrap(
                f,
                f"curl https://api.anthropic.com/v1/messages \\\n  -H 'x-api-key: {key}' \\\n  -H 'anthropic-version: 2023-06-01' \\\n  -H 'content-type: application/json' -d @body.json",
            ), [key]
        if kind == 2:
            pw = p()
            return _wrap(
                f, f"curl -u elastic:{pw} -k https://localhost:9200/_cat/indices?v\ncurl: (7) Failed to connect"
            ), [pw]
        tok = f.pick(DIGITS, 10) + ":AA" + f.pick(URLSAFE, 33)
        return _wrap(
            f,
            f'curl -s "https://api.telegram.org/bot{tok}/sendMessage" -d chat_id=-100{f.pick(DIGITS, 10)} -d text="epoch done"',
        ), [tok]

    def pkg_tokens() -> Sample:
        kind = f.rng.randrange(4)
        if kind == 0:
            tok = "npm_" + f.pick(ALNUM, 36)
            return _wrap(f, f"npm config set //registry.npmjs.org/:_authToken {tok}\nnpm ERR! 403 Forbidden"), [tok]
        if kind == 1:
            tok = "pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 140)
            return _wrap(f, f"twine upload -u __token__ -p {tok} dist/*\nHTTPError: 403 Forbidden"), [tok]
        if kind == 2:
            pw = _urlpw(f)
            return _wrap(
                f,
                f"pip install --extra-index-url https://ci:{pw}@nexus.{f.pick(LOWER, 5)}.example/repository/pypi/simple flash-attn==2.7.0\nERROR: No matching distribution found",
            ), [pw]
        tok = gh_token(f)
        return _wrap(
            f, f".npmrc in the repo:\n@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken={tok}"
        ), [tok]

    def misc_cli() -> Sample:
        kind = f.rng.randrange(9)
        if kind == 0:
            tok = f.pick(DIGITS, 1) + f.pick(ALNUM, 26) + "_" + f.pick(ALNUM, 21)
            return _wrap(f, f"ngrok config add-authtoken {tok}\nngrok http 7860\nERR_NGROK_4018"), [tok]
        if kind == 1:
            tok = "dop_v1_" + f.hex(64)
            return _wrap(f, f"doctl auth init -t {tok} --context gpu"), [tok]
        if kind == 2:
            key = f.pick(UPPER, 32)
            return _wrap(
                f, f"runpodctl config --apiKey {key}\nmigrating from runpod to you, do you have an equivalent CLI?"
            ), [key]
        if kind == 3:
            key = f.hex(64)
            return _wrap(f, f"vastai set api-key {key}\nvastai show instances\nlooking for the same on your side"), [
                key
            ]
        if kind == 4:
            tid, ts = "ak-" + f.pick(ALNUM, 22), "as-" + f.pick(ALNUM, 22)
            return _wrap(f, f"modal token set --token-id {tid} --token-secret {ts} --profile work"), [ts]
        if kind == 5:
            pw = p()
            return _wrap(f, f"7z x dataset_part1.7z -p{pw} -o/data\nERROR: Wrong password : dataset_part1.7z"), [pw]
        if kind == 6:
            pw = p()
            return _wrap(f, f"smbclient //nas.office/share -U backup%{pw} -c 'get weights.tar'"), [pw]
        if kind == 7:
            pw = p()
            return _wrap(f, f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{pw}"), [
                pw
            ]
        pw = p()
        return _wrap(f, f"mosquitto_pub -h {_host(f)} -u sensor -P {pw} -t lab/gpu/temp -m 71"), [pw]

    add(curl_auth, 9)
    add(pkg_tokens, 5)
    add(misc_cli, 12)

    # env files, config files
    def env_file() -> Sample:
        service, var, tok = _prefixed(f)
        s2, v2, t2 = _keyword_only(f)
        pw = _urlpw(f)
        lines = [
            "# production",
            "NODE_ENV=production",
            f"{var}={tok}",
            f"DATABASE_URL=postgres://app:{pw}@{_host(f)}:5432/app",
            f'{v2}="{t2}"',
            "CUDA_VISIBLE_DEVICES=0,1",
        ]
        f.rng.shuffle(lines)
        return _wrap(
            f,
            f"Here is the .env our container loads ({service} and {s2} calls fail):\n```\n"
            + "\n".join(lines)
            + "\n```",
        ), [tok, pw, t2]

    def compose() -> Sample:
        pw, minio = p(), f.pick(ALNUM, 24)
        body = f"""services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: ml
      POSTGRES_PASSWORD: {pw}
  minio:
    image: minio/minio:RELEASE.2024-10-13T13-34-11Z
    environment:
      - MINIO_ROOT_USER=admin
      - MINIO_ROOT_PASSWORD={minio}
    ports: ["9000:9000"]"""
        return _wrap(f, f"docker compose up fails on your instance but works locally:\n{body}"), [pw, minio]

    def yaml_app() -> Sample:
        pw = p()
        tok = f.choice([slack_token, stripe_key, openai_key])(f)
        body = f"""spring:
  datasource:
    url: jdbc:mysql://{_host(f)}:3306/orders
    username: orders
    password: {pw}
notifier:
  token: "{tok}"
server.port: 8080"""
        return _wrap(f, f"application.yml (the jar runs on your CPU box):\n{body}"), [pw, tok]

    def toml_cfg() -> Sample:
        key = f.choice([anthropic_key, openai_key])(f)
        pw = p()
        body = f"""[llm]
provider = "{f.choice(["anthropic", "openai"])}"
api_key = "{key}"
max_tokens = 4096

[database]
host = "{_host(f)}"
password = "{pw}"
"""
        return _wrap(f, f"config.toml:\n{body}"), [key, pw]

    def ini_cfg() -> Sample:
        key, sec = f.pick(UPPER, 20), f.pick(B64, 40)
        body = f.choice(
            [
                f"[remote-s3]\ntype = s3\nprovider = Wasabi\naccess_key_id = {key}\nsecret_access_key = {sec}\nendpoint = s3.eu-central-2.wasabisys.com",
                f"[default]\naccess_key = {key}\nsecret_key = {sec}\nhost_base = fra1.digitaloceanspaces.com",
            ]
        )
        return _wrap(f, f"rclone / s3cmd config on the node:\n{body}"), [sec]

    def netrc_pgpass() -> Sample:
        kind = f.rng.randrange(3)
        if kind == 0:
            key = wandb_key(f)
            return _wrap(f, f"cat ~/.netrc\nmachine api.wandb.ai\n  login user\n  password {key}"), [key]
        if kind == 1:
            pw = p()
            return _wrap(f, f"~/.pgpass:\n{_host(f)}:5432:*:{_user(f)}:{pw}\nchmod is 0600 already"), [pw]
        key = f.hex(32)
        return _wrap(
            f,
            f'~/.kaggle/kaggle.json = {{"username":"{f.pick(LOWER, 9)}","key":"{key}"}}\nkaggle datasets download fails with 401',
        ), [key]

    def json_cfg() -> Sample:
        service, _var, tok = _prefixed(f)
        cfg = json.dumps(
            {"name": "rag-bot", "port": 7860, "providers": {service.lower(): {"apiKey": tok, "timeout": 30}}}, indent=2
        )
        return _wrap(f, f"settings.json:\n{cfg}"), [tok]

    def django_settings() -> Sample:
        key = "django-insecure-" + f.pick(LOWER + DIGITS + "!@#$%^&*(-_=+)", 50)
        pw = p()
        return _wrap(
            f,
            f"settings.py:\nSECRET_KEY = '{key}'\nDATABASES = {{'default': {{'ENGINE': 'django.db.backends.postgresql', 'NAME': 'shop', 'USER': 'shop', 'PASSWORD': '{pw}', 'HOST': 'localhost'}}}}",
        ), [key, pw]

    add(env_file, 10)
    add(compose, 3)
    add(yaml_app, 4)
    add(toml_cfg, 3)
    add(ini_cfg, 3)
    add(netrc_pgpass, 5)
    add(json_cfg, 5)
    add(django_settings, 2)

    # bare provider tokens in prose and in exports
    def export_token() -> Sample:
        service, var, tok = _prefixed(f)
        style = f.rng.randrange(4)
        line = [f"export {var}={tok}", f'$env:{var}="{tok}"', f"setx {var} {tok}", f"{var}='{tok}' python app.py"][
            style
        ]
        return _wrap(f, f"{service} calls from the instance return 401:\n{line}"), [tok]

    def token_prose() -> Sample:
        service, _var, tok = _prefixed(f)
        lang = f.choice(["en", "en", "es", "vi", "tr"])
        body = {
            "en": f.choice(
                [
                    f"the {service} key I use is {tok} - is your network blocking it?",
                    f"{tok}\n^ that's the {service} token, it worked yesterday",
                    f"Using {service} ({tok}) from the notebook, 401 every time.",
                ]
            ),
            "es": f"La clave de {service} es {tok} y desde la instancia siempre da 401.",
            "vi": f"Key {service} của mình: {tok} — gọi từ máy thuê thì bị 401.",
            "tr": f"{service} anahtarım {tok}, sunucudan çağırınca 401 alıyorum.",
        }[lang]
        return _wrap(f, body, lang), [tok]

    def keyword_token() -> Sample:
        service, var, tok = _keyword_only(f)
        line = f.choice(
            [f"export {var}={tok}", f"{var}={tok}", f'os.environ["{var}"] = "{tok}"', f"{var.lower()}: {tok}"]
        )
        return _wrap(f, f"{line}\n{service} requests time out from the GPU box"), [tok]

    add(export_token, 14)
    add(token_prose, 12)
    add(keyword_token, 10)

    # code and notebooks
    def python_code() -> Sample:
        kind = f.rng.randrange(6)
        if kind == 0:
            key = openai_key(f)
            return _wrap(
                f,
                f'from openai import OpenAI\nclient = OpenAI(api_key="{key}")\nresp = client.chat.completions.create(model="gpt-4o-mini", messages=msgs)\nopenai.APIConnectionError: Connection error.',
            ), [key]
        if kind == 1:
            kid, sec = aws_pair(f)
            return _wrap(
                f,
                f's3 = boto3.client("s3", aws_access_key_id="{kid}", aws_secret_access_key="{sec}", region_name="eu-west-1")',
            ), [sec]
        if kind == 2:
            pw = p()
            return _wrap(
                f,
                f'conn = psycopg2.connect(host="{_host(f)}", dbname="feat", user="{_user(f)}", password="{pw}", connect_timeout=5)',
            ), [pw]
        if kind == 3:
            pw = _urlpw(f)
            return _wrap(
                f,
                f'engine = create_engine("mysql+pymysql://{_user(f)}:{pw}@{_host(f)}:3306/labels", pool_pre_ping=True)',
            ), [pw]
        if kind == 4:
            key = stripe_key(f)
            return _wrap(
                f, f"const stripe = require('stripe')('{key}');\n// webhook works locally, not on the instance"
            ), [key]
        tok = f.pick(DIGITS, 10) + ":AA" + f.pick(URLSAFE, 33)
        return _wrap(
            f, f'bot = telebot.TeleBot("{tok}")\nbot.infinity_polling()  # ConnectionResetError after 10 min'
        ), [tok]

    def notebook() -> Sample:
        key = f.choice([openai_key, hf_token, anthropic_key])(f)
        var = (
            "HF_TOKEN"
            if key.startswith("hf_")
            else "ANTHROPIC_API_KEY"
            if key.startswith("sk-ant")
            else "OPENAI_API_KEY"
        )
        cell = {
            "cell_type": "code",
            "execution_count": 3,
            "metadata": {},
            "outputs": [],
            "source": ["import os\n", f'os.environ["{var}"] = "{key}"\n', "from transformers import pipeline\n"],
        }
        return _wrap(f, "this cell from my .ipynb hangs:\n" + json.dumps(cell, indent=1)), [key]

    def ci_trace() -> Sample:
        _service, var, tok = _prefixed(f)
        log = f"""2026-12-02T09:14:07.1123Z ##[group]Run ./scripts/deploy.sh
2026-12-02T09:14:07.1201Z + set -x
2026-12-02T09:14:07.1204Z + export {var}={tok}
2026-12-02T09:14:07.1208Z + python -m deploy --target gpurent
2026-12-02T09:14:09.4410Z Traceback (most recent call last):
2026-12-02T09:14:09.4412Z ConnectionError: HTTPSConnectionPool(host='api.gpurent.example', port=443)"""
        return _wrap(f, f"our CI log (GitHub Actions):\n{log}"), [tok]

    def jupyter_token() -> Sample:
        tok = f.hex(48)
        body = f.choice(
            [
                f"    To access the server, open this file in a browser:\n        file:///root/.local/share/jupyter/runtime/jpserver-41-open.html\n    Or copy and paste one of these URLs:\n        http://{f.pick(LOWER, 12)}:8888/lab?token={tok}\n        http://127.0.0.1:8888/lab?token={tok}",
                f"jupyter lab --ip 0.0.0.0 --IdentityProvider.token={tok} --allow-root",
            ]
        )
        return _wrap(f, f"Jupyter is running but I can't open it from outside:\n{body}"), [tok]

    def webhooks() -> Sample:
        kind = f.rng.randrange(3)
        if kind == 0:
            path = f"T{f.pick(UPPER, 10)}/B{f.pick(UPPER, 10)}/{f.pick(ALNUM, 24)}"
            return _wrap(f, f"alerts go to https://hooks.slack.com/services/{path} but nothing arrives"), [path]
        if kind == 1:
            tok = f.pick(URLSAFE, 68)
            return _wrap(f, f"DISCORD_WEBHOOK=https://discord.com/api/webhooks/{f.pick(DIGITS, 19)}/{tok}"), [tok]
        key = f.hex(32)
        return _wrap(
            f,
            f'sentry_sdk.init(dsn="https://{key}@o{f.pick(DIGITS, 6)}.ingest.us.sentry.io/{f.pick(DIGITS, 7)}", traces_sample_rate=0.1)',
        ), [key]

    add(python_code, 12)
    add(notebook, 4)
    add(ci_trace, 5)
    add(jupyter_token, 3)
    add(webhooks, 6)

    # keys introduced by words, plain passwords by words, four languages
    def password_words() -> Sample:
        pw = p()
        lang = f.choice(["en", "en", "es", "vi", "tr"])
        body = f.choice(
            {
                "en": [
                    f"The admin password for the Grafana you set up is {pw}, can you reset it? we are locked out",
                    f"login: admin / pass: {pw}",
                    f"I changed the VNC password to {pw} but the viewer keeps saying authentication failed",
                    f"user ml, password {pw} - please add it to the shared volume ACL",
                ],
                "es": [f"La contraseña del panel es {pw} y ya no me deja entrar", f"usuario: admin\ncontraseña: {pw}"],
                "vi": [f"Mật khẩu VNC là {pw} mà vẫn không vào được", f"tài khoản root, mật khẩu: {pw}"],
                "tr": [f"Panel şifresi {pw} ama giriş yapamıyorum", f"kullanıcı adı: ubuntu, parola: {pw}"],
            }[lang]
        )
        return _wrap(f, body, lang), [pw]

    def eth_key_words() -> Sample:
        key = f.eth_key()
        shown = f.choice([key, "0x" + key])
        lang = f.choice(["en", "en", "es", "vi", "tr"])
        body = f.choice(
            {
                "en": [
                    f"I paid from a MetaMask account but the order says unpaid. Private key of that account: {shown} so you can check",
                    f"my wallet's private key is {shown}, please refund to it",
                    f"PRIVATE_KEY={shown}\nnpx hardhat run scripts/pay.js --network base",
                    f"cast send 0x{f.hex(40)} --value 0.1ether --private-key {shown} --rpc-url $RPC",
                    f"forge script Deploy.s.sol --broadcast --private-key {shown}",
                ],
                "es": [f"Mi clave privada de la billetera es {shown}, ¿pueden verificar el pago?"],
                "vi": [f"Khóa bí mật ví của mình: {shown}, kiểm tra giúp giao dịch"],
                "tr": [f"Cüzdanımın özel anahtarı {shown}, ödemeyi kontrol eder misiniz?"],
            }[lang]
        )
        return _wrap(f, body, lang), [key]

    def hardhat() -> Sample:
        key = "0x" + f.eth_key()
        return _wrap(
            f,
            f'hardhat.config.js:\nmodule.exports = {{\n  solidity: "0.8.24",\n  networks: {{ base: {{ url: process.env.RPC_URL, accounts: ["{key}"] }} }}\n}};',
        ), [key]

    add(password_words, 12)
    add(eth_key_words, 10)
    add(hardhat, 2)

    # Solana
    def solana_json() -> Sample:
        arr = f.solana_keypair_json(spaced=f.rng.random() < 0.4)
        body = f.choice(
            [
                f"$ cat ~/.config/solana/id.json\n{arr}",
                f"solana-keygen new -o payer.json printed a key, the file is {arr} - which address should receive the USDC?",
                f"keypair = Keypair.from_bytes(bytes({arr}))",
                f"SOLANA_PRIVATE_KEY='{arr}'",
            ]
        )
        return _wrap(f, f"Paying in USDC on Solana fails.\n{body}"), [arr]

    def solana_b58() -> Sample:
        key = f.solana_keypair_b58()
        lang = f.choice(["en", "en", "es", "vi", "tr"])
        body = {
            "en": f.choice(
                [
                    f"Exported private key from Phantom: {key}",
                    f"here's the wallet key {key}, I sent 50 USDC from it and nothing shows",
                    f"SOL_WALLET_SECRET={key}",
                ]
            ),
            "es": f"Mi clave privada de Phantom es {key}, el pago no aparece",
            "vi": f"private key ví Phantom: {key}",
            "tr": f"Phantom cüzdan özel anahtarı: {key}",
        }[lang]
        return _wrap(f, body, lang), [key]

    add(solana_json, 8)
    add(solana_b58, 9)

    # BIP-39 seeds, WIF, xprv
    def seed_words() -> Sample:
        phrase = f.seed_phrase(f.choice([12, 12, 24]))
        lang = f.choice(["en", "en", "es", "vi", "tr"])
        body = {
            "en": f.choice(
                [
                    f"my recovery phrase: {phrase}",
                    f"Seed words are {phrase} - can you restore the wallet I paid with?",
                    f'mnemonic = "{phrase}"',
                ]
            ),
            "es": f"Mis palabras de recuperación: {phrase}",
            "vi": f"cụm từ khôi phục của mình là {phrase}",
            "tr": f"kurtarma kelimelerim: {phrase}",
        }[lang]
        return _wrap(f, body, lang), [phrase]

    def seed_layout() -> Sample:
        words = f.seed_phrase(12).split()
        style = f.rng.randrange(2)
        if style == 0:
            lines = [" ".join(words[i : i + 4]) for i in range(0, 12, 4)]
            text = "seed (written from my paper backup):\n" + "\n".join(lines)
            return _wrap(f, text), lines
        lines = [f"{i + 1}. {w}" for i, w in enumerate(words)]
        block = "\n".join(lines)
        return _wrap(f, f"Ledger recovery sheet:\n{block}"), [block]

    def wif_xprv() -> Sample:
        kind = f.rng.randrange(3)
        if kind == 0:
            key = f.wif()
            return _wrap(f, f"bitcoin-cli dumpprivkey bc1q{f.pick(LOWER, 38)}\n{key}"), [key]
        if kind == 1:
            key = f.wif()
            return _wrap(f, f"I imported this WIF into Electrum: {key} and the BTC payment still pending"), [key]
        key = f.xprv()
        return _wrap(f, f"electrum restore {key}\nmy master key, is the payment from this wallet visible?"), [key]

    add(seed_words, 8)
    add(seed_layout, 4)
    add(wif_xprv, 6)

    # PEM and other key files in pastes
    def pem_paste() -> Sample:
        label = f.choice(
            ["PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]
        )
        block, body = pem_block(f, label, f.rng.randint(6, 12))
        where = f.choice(
            [
                "nginx fails with 'key values mismatch', the key file is:",
                "tls.key from the secret:",
                "the key for the webhook mTLS:",
            ]
        )
        return _wrap(f, f"{where}\n{block}"), body

    def pem_escaped() -> Sample:
        block, body = pem_block(f, "PRIVATE KEY", 6)
        escaped = block.replace("\n", "\\n")
        return _wrap(f, f'FIREBASE_PRIVATE_KEY="{escaped}"\nError: Failed to parse private key'), body

    def client_key_data() -> Sample:
        block, _body = pem_block(f, "RSA PRIVATE KEY", 8)
        data = base64.b64encode((block + "\n").encode()).decode()
        return _wrap(
            f,
            f"users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t{f.pick(B64, 60)}\n    client-key-data: {data}",
        ), [data]

    add(pem_paste, 5)
    add(pem_escaped, 2)
    add(client_key_data, 2)

    # headers and cookies
    def headers() -> Sample:
        kind = f.rng.randrange(3)
        if kind == 0:
            jwt = f.jwt()
            return _wrap(
                f,
                f"Request headers from devtools:\n:authority: console.gpurent.example\nauthorization: Bearer {jwt}\naccept: application/json",
            ), [jwt]
        if kind == 1:
            cookie = f.pick(LOWER + DIGITS, 32)
            return _wrap(
                f, f"Cookie: csrftoken={f.pick(ALNUM, 32)}; sessionid={cookie}\nthe page loops back to login"
            ), [cookie]
        key = f.pick(ALNUM, 40)
        return _wrap(f, f'requests.get(url, headers={{"X-API-Key": "{key}", "Accept": "application/json"}})'), [key]

    add(headers, 5)
    return out


def main() -> None:
    fakes = Fakes(seed=SEED)
    pos = positives(fakes)
    neg = negatives(fakes)
    check_and_write(OUT, "h4", pos, neg)


if __name__ == "__main__":
    main()

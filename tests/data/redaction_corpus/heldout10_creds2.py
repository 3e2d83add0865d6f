# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 10, texts with secrets (0396): cloud CLIs and storage configs, `.netrc`, service-account JSON,
database URLs, passwords after flags or said in words, private keys, Kubernetes, alert bots and whole `.env` files."""

from __future__ import annotations

import base64
import json

from .heldout10_gen import Gen
from .heldout10_text import host, user, wrap

Sample = tuple[str, list[str]]


def clouds_and_storage(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    for lang in ("en", "es"):
        body = g.pem_body(26)
        pem = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END PRIVATE KEY-----\n"
        sa = {
            "type": "service_account",
            "project_id": "vision-train-" + g.pick("0123456789", 4),
            "private_key_id": g.hex(40),
            "private_key": pem,
            "client_email": "trainer@vision-train.iam.gserviceaccount.com",
            "client_id": str(g.num(10**20, 10**21 - 1)),
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": "https://oauth2.googleapis.com/token",
        }
        out.append((wrap(g, json.dumps(sa, indent=2), lang, False), body))
    key = g.azure_key()
    out.append(
        (
            wrap(
                g,
                f'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=ckptstore;AccountKey={key};EndpointSuffix=core.windows.net"',
                "en",
            ),
            [key],
        )
    )
    key = g.azure_key()
    out.append(
        (
            wrap(
                g,
                f"az storage blob upload-batch -d checkpoints -s ./out --account-name lanvustore --account-key {key}",
                "vi",
            ),
            [key],
        )
    )
    sp = (
        g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 3)
        + "8Q~"
        + g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-", 34)
    )
    out.append((wrap(g, f"az login --service-principal -u {g.uuid()} -p '{sp}' --tenant {g.uuid()}", "tr"), [sp]))
    refresh = "1//0" + g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 99)
    out.append(
        (
            wrap(
                g,
                json.dumps(
                    {
                        "client_id": "764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com",
                        "client_secret": "d-FL95Q19q7MQmFpd7hHD0Ty",
                        "refresh_token": refresh,
                        "type": "authorized_user",
                    },
                    indent=1,
                ),
                "en",
            ),
            [refresh],
        )
    )
    for lang in ("en", "es", "tr"):
        r2_id, r2_secret = g.hex(32), g.hex(64)
        conf = f"[r2]\ntype = s3\nprovider = Cloudflare\naccess_key_id = {r2_id}\nsecret_access_key = {r2_secret}\nendpoint = https://{g.hex(32)}.r2.cloudflarestorage.com\nacl = private"
        out.append((wrap(g, conf, lang), [r2_secret]))
    b2 = "K005" + g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+", 27)
    out.append((wrap(g, f"[b2]\ntype = b2\naccount = 005{g.hex(21)}\nkey = {b2}", "vi"), [b2]))
    for lang in ("en", "vi"):
        ak, sk = (
            g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 20),
            g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+", 40),
        )
        out.append(
            (
                wrap(
                    g,
                    f"[default]\naccess_key = {ak}\nsecret_key = {sk}\nhost_base = s3.wasabisys.com\nhost_bucket = %(bucket)s.s3.wasabisys.com\nuse_https = True",
                    lang,
                ),
                [sk],
            )
        )
    return out


def netrc_and_databases(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    for lang in ("en", "tr", "es"):
        pw = g.password()
        machine = g.choice(["gitlab.lab.example", "nexus.internal", "ftp.datasets.example", "git.acme-ml.example"])
        out.append((wrap(g, f"machine {machine} login {user(g)} password {pw}", lang), [pw]))
    db = [
        lambda p: wrap(g, f"DATABASE_URL=postgresql://{user(g)}:{p}@{host(g)}:5432/experiments", "en"),
        lambda p: wrap(g, f'engine = create_engine("postgresql+psycopg2://mlflow:{p}@{host(g)}/mlflow")', "es"),
        lambda p: wrap(
            g,
            f"mlflow server --backend-store-uri mysql+pymysql://mlflow:{p}@{host(g)}:3306/mlflow --default-artifact-root s3://mlflow-art",
            "vi",
        ),
        lambda p: (
            f"Merhaba, sonuçları Mongo'ya yazarken zaman aşımı alıyorum: mongodb+srv://mehmet:{p}@cluster0.ab12c.mongodb.net/results?retryWrites=true"
        ),
        lambda p: wrap(g, f"CELERY_BROKER_URL=redis://:{p}@{host(g)}:6379/0", "en"),
        lambda p: wrap(
            g,
            f"psql \"postgresql://postgres:{p}@{host(g)}:5432/postgres?sslmode=require\" -c 'select 1'\npsql: error: connection to server failed: timeout expired",
            "tr",
        ),
        lambda p: f"Hola, el optuna storage es mysql://optuna:{p}@{host(g)}/optuna y desde la GPU no conecta.",
        lambda p: wrap(
            g, f"  labelstudio:\n    environment:\n      - POSTGRE_PASSWORD={p}\n      - POSTGRE_USER=ls", "vi"
        ),
    ]
    for make in db:
        pw = g.url_password()
        out.append((make(pw), [pw]))
    flags = [
        lambda p: wrap(g, f"mysql -h {host(g)} -u root -p'{p}' results < dump.sql", "en"),
        lambda p: wrap(g, f"sshpass -p '{p}' rsync -avz -e ssh ./ckpts {user(g)}@{host(g)}:/data/ckpts", "es"),
        lambda p: wrap(g, f"PGPASSWORD={p} pg_dump -h {host(g)} -U postgres labels > labels.sql", "vi"),
        lambda p: wrap(
            g,
            f"redis-cli -h {host(g)} -a {p} ping\nWarning: Using a password with '-a' or '-u' option on the command line interface may not be safe.\nPONG",
            "tr",
        ),
        lambda p: wrap(g, f"curl -u admin:{p} http://{host(g)}:9090/api/v1/targets", "en"),
        lambda p: wrap(g, f"smbclient //nas/datasets -U lan%{p} -c 'get coco.zip'", "vi"),
        lambda p: wrap(g, f"label-studio start --username admin@lab.example --password {p}", "es"),
        lambda p: wrap(
            g, f"  312  openvpn --config lab.ovpn\n  313  echo '{p}' | sudo -S nvidia-smi -pm 1\n  314  history", "en"
        ),
    ]
    for make in flags:
        pw = g.password()
        out.append((make(pw), [pw]))
    words = [
        (
            "en",
            "Hi, I can't log in to the rental over ssh anymore. User root, password {p} — did the reimage change it?",
        ),
        ("en", "journal: VM creds for the eval box, password is {p} (change later)"),
        ("es", "Hola, la contraseña que puse para el usuario ubuntu es {p} y ahora me dice Permission denied."),
        ("es", "Para que podáis entrar a revisar: usuario lucia, contraseña: {p}"),
        ("vi", "Chào shop, mật khẩu root của máy là {p}, nhờ vào kiểm tra driver giúp mình."),
        ("vi", "tài khoản: lanvu / mật khẩu {p} — đăng nhập Grafana bị lỗi"),
        ("tr", "Merhaba, sunucuya giremiyorum. Kullanıcı adı root, şifre {p}"),
        ("tr", "Jupyter şifrem {p}, değiştirmemize gerek var mı?"),
    ]
    for _lang, text in words:
        pw = g.password()
        out.append((text.replace("{p}", pw), [pw]))
    return out


def keys_bots_and_env(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    for lang in ("en", "tr", "vi"):
        body = g.pem_body(7)
        block = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END OPENSSH PRIVATE KEY-----"
        text = {
            "en": f"Hi, ssh says 'Load key \"id_ed25519\": invalid format'. This is the key I uploaded:\n\n{block}",
            "tr": f"Merhaba, SSH anahtarım çalışmıyor, dosyanın içeriği:\n{block}\nne yanlış?",
            "vi": f"cat ~/.ssh/id_ed25519\n{block}\n\nshop xem giúp sao key này không vào được máy",
        }[lang]
        out.append((text, body))
    body = g.pem_body(20)
    block = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END RSA PRIVATE KEY-----"
    out.append(
        (
            wrap(
                g,
                "ssl:\n  cert: /etc/ssl/infer.crt\n  key: |\n"
                + "\n".join("    " + line for line in block.splitlines()),
                "es",
                False,
            ),
            body,
        )
    )
    sec = base64.b64encode(g.password().encode()).decode()
    out.append(
        (
            wrap(
                g,
                f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-creds\ntype: Opaque\ndata:\n  username: {base64.b64encode(b'trainer').decode()}\n  password: {sec}",
                "en",
            ),
            [sec],
        )
    )
    sa_token = (
        "eyJhbGciOiJSUzI1NiIsImtpZCI6I"
        + g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 60)
        + "."
        + g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 180)
        + "."
        + g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 342)
    )
    out.append((wrap(g, f"users:\n- name: trainer\n  user:\n    token: {sa_token}", "vi"), [sa_token]))
    slack = g.slack_bot()
    out.append((wrap(g, f"SLACK_BOT_TOKEN={slack}\nSLACK_CHANNEL=#training-alerts", "en"), [slack]))
    bot_id, bot_secret = g.telegram()
    out.append(
        (
            wrap(
                g,
                f'requests.post(f"https://api.telegram.org/bot{bot_id}:{bot_secret}/sendMessage", data={{"chat_id": CHAT, "text": f"epoch {{e}} loss {{l:.3f}}"}})',
                "tr",
            ),
            [bot_secret],
        )
    )
    hook_id, hook_tok = (
        str(g.num(10**17, 10**18)),
        g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 68),
    )
    out.append((wrap(g, f"DISCORD_WEBHOOK=https://discord.com/api/webhooks/{hook_id}/{hook_tok}", "es"), [hook_tok]))
    slack_hook = g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 24)
    out.append(
        (
            f'notify on finish: curl -X POST -d \'{{"text":"run done"}}\' https://hooks.slack.com/services/T0{g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 8)}/B0{g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 9)}/{slack_hook}',
            [slack_hook],
        )
    )
    dj = "django-insecure-" + g.pick("abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)", 50)
    out.append(
        (
            wrap(
                g,
                f"# settings.py of the demo app on the rental\nSECRET_KEY = '{dj}'\nDEBUG = True\nALLOWED_HOSTS = ['*']",
                "en",
            ),
            [dj],
        )
    )
    for lang in ("en", "vi"):
        pk = "0x" + g.hex(64)
        text = {
            "en": f"Hi, I think I sent USDC from the wrong wallet. The private key of the one I used is {pk}, can you refund to that address?",
            "vi": f"Chào shop, khóa riêng tư (private key) ví mình là {pk}, mình chuyển nhầm mạng, có lấy lại được không?",
        }[lang]
        out.append((text, [pk]))
    pk = "0x" + g.hex(64)
    out.append(
        (
            wrap(
                g,
                f'module.exports = {{\n  solidity: "0.8.24",\n  networks: {{ base: {{ url: "https://mainnet.base.org", accounts: ["{pk}"] }} }},\n}};',
                "es",
            ),
            [pk],
        )
    )
    wg = base64.b64encode(g.raw(32)).decode()
    out.append(
        (
            wrap(
                g,
                f"[Interface]\nPrivateKey = {wg}\nAddress = 10.8.0.3/24\n\n[Peer]\nPublicKey = {base64.b64encode(g.raw(32)).decode()}\nEndpoint = {host(g)}:51820\nAllowedIPs = 10.8.0.0/24",
                "tr",
            ),
            [wg],
        )
    )
    # whole .env files with several secrets
    for lang in ("en", "es", "vi", "tr"):
        hf, wb, oa, pw = g.hf(), g.wandb(), g.openai(), g.url_password()
        env = f"# .env\nHF_TOKEN={hf}\nWANDB_API_KEY={wb}\nOPENAI_API_KEY={oa}\nDATABASE_URL=postgres://app:{pw}@{host(g)}:5432/app\nCUDA_VISIBLE_DEVICES=0,1\nLOG_LEVEL=info"
        out.append((wrap(g, env, lang), [hf, wb, oa, pw]))
    oa, pw = g.openai(), g.url_password()
    toml = f'# .streamlit/secrets.toml\nOPENAI_API_KEY = "{oa}"\n\n[connections.postgresql]\ndialect = "postgresql"\nhost = "{host(g)}"\nport = "5432"\ndatabase = "chat"\nusername = "demo"\npassword = "{pw}"'
    out.append((wrap(g, toml, "en"), [oa, pw]))
    hf, pw = g.hf(), g.password()
    out.append(
        (
            wrap(
                g,
                f"In [1]: !huggingface-cli login --token {hf}\nIn [2]: !echo '{pw}' | sudo -S apt-get install -y ffmpeg",
                "vi",
                False,
            ),
            [hf, pw],
        )
    )
    return out

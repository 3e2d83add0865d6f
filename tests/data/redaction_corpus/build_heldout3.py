# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the THIRD held-out part of the redaction corpus (`heldout3/*.jsonl`): secrets in pasted files.

Written and committed (issue 15, 2026-12-03) before the third round of pattern changes, by an engineer who had
not read the patterns; never tuned on. Its texts are what the other parts lack: whole config files (YAML, TOML,
INI, .env, JSON, docker-compose, kubeconfig, ~/.netrc, ~/.pgpass, ~/.git-credentials, kaggle.json, WireGuard),
connection strings for many databases, request headers, Python and notebook code, cloud credential JSON,
PEM blocks inside other files, Solana and Ethereum keys as wallets and libraries print them, seed phrases
introduced in Spanish, Vietnamese and Turkish, and keys wrapped across lines. Shapes follow the published
gitleaks / trufflehog / detect-secrets rules (e.g. `sk-proj-…T3BlbkFJ…`, `sk-ant-api03-…AA`, `r8_`, `rk_live_`,
`whsec_`, `xapp-`, `lsv2_pt_`, `pcsk_`, `NRAK-`, `tskey-auth-`, `pscale_pw_`, `dckr_pat_`). Negatives are what
the same pastes hold that must survive.

Run once: `.venv/bin/python -m tests.data.redaction_corpus.build_heldout3`; the output is committed.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, LOWER, UPPER, URLSAFE, Fakes
from .heldout3_negatives import negatives

OUT = Path(__file__).resolve().parent / "heldout3"
DIGITS = "0123456789"


def _openai(f: Fakes) -> str:
    kind = f.choice(["proj", "svcacct", "admin"])
    return f"sk-{kind}-{f.pick(URLSAFE, 74)}T3BlbkFJ{f.pick(URLSAFE, 74)}"


def _anthropic(f: Fakes) -> str:
    return "sk-ant-api03-" + f.pick(URLSAFE, 93) + "AA"


def _pem_b64(f: Fakes, label: str) -> str:
    return base64.b64encode((f.pem(label) + "\n").encode()).decode()


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    p = f.password
    out: list[tuple[str, list[str]]] = []

    def add(build) -> None:
        for _ in range(3):
            out.append(build())

    # --- whole config files -----------------------------------------------------------------------------------
    def env_file():
        pw, key = p(), _openai(f)
        return (
            f"here is my .env, the app can't reach the db:\n\n# .env\nDEBUG=false\nDATABASE_URL=postgresql://svc_train:{pw}@pg-prod.internal:5432/train\nOPENAI_API_KEY={key}\nLOG_LEVEL=info",
            [pw, key],
        )

    def yaml_training():
        wb, hf = f.hex(40), "hf_" + f.pick(ALNUM, 34)
        return (
            f"config.yaml:\n```yaml\nmodel: meta-llama/Llama-3.1-8B\nwandb:\n  project: llama-ft\n  entity: acme-ml\n  api_key: {wb}\nhub:\n  push_to_hub: true\n  token: {hf}\nlr: 2.0e-5\n```",
            [wb, hf],
        )

    def toml_snowflake():
        pw = p()
        return (
            f'.streamlit/secrets.toml\n\n[connections.snowflake]\naccount = "xy{f.pick(DIGITS, 5)}.eu-west-1"\nuser = "ANALYST"\npassword = "{pw}"\nwarehouse = "COMPUTE_WH"',
            [pw],
        )

    def toml_modal():
        tid, ts = "ak-" + f.pick(ALNUM, 22), "as-" + f.pick(ALNUM, 22)
        return (f'cat ~/.modal.toml\n[default]\ntoken_id = "{tid}"\ntoken_secret = "{ts}"\nactive = true', [ts])

    def ini_pypirc():
        tok = "pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 120)
        return (
            f"twine upload fails with 403, ~/.pypirc:\n[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {tok}",
            [tok],
        )

    def ini_rclone():
        key = "K00" + f.pick(ALNUM, 28)
        return (f"[b2]\ntype = b2\naccount = 00{f.hex(10)}0000000003\nkey = {key}\nhard_delete = true", [key])

    def ini_s3cfg():
        key = f.pick(B64, 40)
        return (
            f"my .s3cfg for the dataset bucket:\n[default]\naccess_key = AKIA{f.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\nsecret_key = {key}\nhost_base = s3.eu-central-1.amazonaws.com",
            [key],
        )

    def json_mcp():
        key = _anthropic(f)
        return (
            'claude_desktop_config.json:\n{\n  "mcpServers": {\n    "gpu": {\n      "command": "uvx",\n      "args": ["gpu-mcp"],\n      "env": {"ANTHROPIC_API_KEY": "'
            + key
            + '"}\n    }\n  }\n}',
            [key],
        )

    def json_kaggle():
        key = f.hex(32)
        return (
            '~/.kaggle/kaggle.json is\n{"username":"ada'
            + f.pick(LOWER, 4)
            + '","key":"'
            + key
            + '"}\nbut kaggle datasets download says 401',
            [key],
        )

    def compose():
        pw, pw2 = p(), f.pick(ALNUM, 24)
        return (
            f"docker-compose.yml\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: {pw}\n  minio:\n    image: minio/minio\n    environment:\n      - MINIO_ROOT_USER=admin\n      - MINIO_ROOT_PASSWORD={pw2}\n    command: server /data",
            [pw, pw2],
        )

    def compose_stripe():
        sk, wh = "sk_live_" + f.pick(ALNUM, 99), "whsec_" + f.pick(ALNUM, 32)
        return (
            f"  web:\n    build: .\n    environment:\n      STRIPE_API_KEY: {sk}\n      STRIPE_WEBHOOK_SECRET: {wh}\n    ports: ['8000:8000']",
            [sk, wh],
        )

    def kubeconfig():
        ck, tok = _pem_b64(f, "RSA PRIVATE KEY"), f.pick(URLSAFE, 40) + "." + f.pick(URLSAFE, 60)
        ca = base64.b64encode(f.pem("CERTIFICATE").encode()).decode()
        return (
            f"apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: {ca}\n    server: https://10.0.0.1:6443\n  name: gpu\nusers:\n- name: admin\n  user:\n    client-certificate-data: {ca}\n    client-key-data: {ck}\n- name: ci\n  user:\n    token: {tok}",
            [ck, tok],
        )

    def netrc():
        key = f.hex(40)
        return (
            f"wandb keeps asking for login even though ~/.netrc has\n\nmachine api.wandb.ai\n  login user\n  password {key}",
            [key],
        )

    def netrc_oneline():
        tok = "ghp_" + f.pick(ALNUM, 36)
        return (f"echo 'machine github.com login ada password {tok}' >> ~/.netrc", [tok])

    def pgpass():
        pw = p()
        return (
            f"~/.pgpass (chmod 600):\ndb.internal:5432:*:postgres:{pw}\n*:*:analytics:reader:{f.pick(ALNUM, 16)}",
            [pw],
        )

    def git_credentials():
        tok = "glpat-" + f.pick(URLSAFE, 20)
        return (f"cat ~/.git-credentials\nhttps://oauth2:{tok}@gitlab.com", [tok])

    def wireguard():
        key = base64.b64encode(f.raw(32)).decode()
        return (
            f"wg0.conf on the box:\n[Interface]\nAddress = 10.8.0.2/24\nPrivateKey = {key}\n\n[Peer]\nPublicKey = {base64.b64encode(f.raw(32)).decode()}\nEndpoint = 203.0.113.4:51820",
            [key],
        )

    def tfvars():
        tok = f.pick(ALNUM, 64)
        return (f'terraform.tfvars:\nhcloud_token = "{tok}"\nserver_type  = "ccx63"', [tok])

    def django_settings():
        key = "django-insecure-" + f.pick(LOWER + "!@#$%^&*(-_=+)", 50)
        return (f"settings.py\nSECRET_KEY = '{key}'\nDEBUG = True\nALLOWED_HOSTS = ['*']", [key])

    def ngrok_yml():
        tok = f.pick(ALNUM, 27) + "_" + f.pick(ALNUM, 21)
        return (
            f'~/.config/ngrok/ngrok.yml\nversion: "2"\nauthtoken: {tok}\ntunnels:\n  jupyter:\n    proto: http\n    addr: 8888',
            [tok],
        )

    def k8s_secret_string_data():
        key = f.hex(40)
        return (
            f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: wandb\ntype: Opaque\nstringData:\n  WANDB_API_KEY: "{key}"',
            [key],
        )

    def litellm_yaml():
        key = "gsk_" + f.pick(ALNUM, 52)
        return (
            f"model_list:\n  - model_name: llama3\n    litellm_params:\n      model: groq/llama3-70b-8192\n      api_key: {key}",
            [key],
        )

    for build in (
        env_file,
        yaml_training,
        toml_snowflake,
        toml_modal,
        ini_pypirc,
        ini_rclone,
        ini_s3cfg,
        json_mcp,
        json_kaggle,
        compose,
        compose_stripe,
        kubeconfig,
        netrc,
        netrc_oneline,
        pgpass,
        git_credentials,
        wireguard,
        tfvars,
        django_settings,
        ngrok_yml,
        k8s_secret_string_data,
        litellm_yaml,
    ):
        add(build)

    # --- connection strings -------------------------------------------------------------------------------------
    add(
        lambda: (
            lambda pw: (
                f'connStr = "Server=tcp:ml-sql.database.windows.net,1433;Initial Catalog=runs;User ID=sqladmin;Password={pw};Encrypt=True;"',
                [pw],
            )
        )(p())
    )
    add(lambda: (lambda pw: (f"sqlplus system/{pw}@//oracle-db:1521/ORCLPDB1", [pw]))(p()))
    add(
        lambda: (
            lambda pw: (
                f'engine = create_engine("snowflake://ANALYST:{pw}@xy12345/ANALYTICS/PUBLIC?warehouse=WH")',
                [pw],
            )
        )(f.pick(ALNUM, 18))
    )
    add(lambda: (lambda pw: (f"CELERY_BROKER_URL=amqp://celery:{pw}@rabbitmq:5672/vhost", [pw]))(p()))
    add(
        lambda: (lambda pw: (f'r = redis.from_url("rediss://default:{pw}@eu1-big-cat-31337.upstash.io:6379")', [pw]))(
            f.pick(ALNUM, 32)
        )
    )
    add(
        lambda: (
            lambda pw: (
                f'conn = pyodbc.connect("DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=10.1.2.3;DATABASE=ml;UID=sa;PWD={pw}")',
                [pw],
            )
        )(p())
    )
    add(lambda: (lambda pw: (f"cqlsh 10.0.4.2 9042 -u cassandra -p {pw}", [pw]))(p()))
    add(lambda: (lambda pw: (f"NEO4J_AUTH=neo4j/{pw}", [pw]))(p()))
    add(
        lambda: (
            lambda pw: (f'psql "host=db.internal port=5432 dbname=app user=app password={pw} sslmode=require"', [pw])
        )(p())
    )
    add(
        lambda: (
            lambda pw: (
                f'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="svc" password="{pw}";',
                [pw],
            )
        )(p())
    )
    add(lambda: (lambda pw: (f"127.0.0.1:6379> AUTH default {pw}\nOK\n127.0.0.1:6379> INFO memory", [pw]))(p()))
    add(lambda: (lambda pw: (f"clickhouse://default:{pw}@ch.internal:9000/default", [pw]))(p()))
    add(lambda: (lambda pw: (f"mc alias set gpu-minio http://10.0.0.8:9000 minioadmin {pw}", [pw]))(f.pick(ALNUM, 40)))

    # --- headers and curl ---------------------------------------------------------------------------------------
    add(
        lambda: (
            lambda k: (
                f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {k}" -H "anthropic-version: 2023-06-01"',
                [k],
            )
        )(_anthropic(f))
    )
    add(
        lambda: (
            lambda k: (
                f'curl -s -X POST https://api.replicate.com/v1/predictions -H "Authorization: Token {k}" -d @req.json',
                [k],
            )
        )("r8_" + f.pick(ALNUM, 37))
    )
    add(
        lambda: (lambda k: (f"curl --header 'PRIVATE-TOKEN: {k}' https://gitlab.example.com/api/v4/projects", [k]))(
            "glpat-" + f.pick(URLSAFE, 20)
        )
    )
    add(
        lambda: (
            lambda k: (
                f'curl "https://acme-oai.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-06-01" -H "api-key: {k}"',
                [k],
            )
        )(f.hex(32))
    )
    add(
        lambda: (lambda k: (f"curl -s --user 'api:{k}' https://api.mailgun.net/v3/mg.example.com/messages", [k]))(
            "key-" + f.hex(32)
        )
    )
    add(
        lambda: (
            lambda k: (f"GET /v1/models HTTP/1.1\nHost: api.together.xyz\nAuthorization: Bearer {k}\nAccept: */*", [k])
        )(f.hex(64))
    )
    add(
        lambda: (lambda k: (f"Proxy-Authorization: Basic {k}", [k]))(
            base64.b64encode(f"proxyuser:{p()}".encode()).decode()
        )
    )
    add(lambda: (lambda k: (f"Cookie: csrftoken={f.pick(ALNUM, 32)}; sessionid={k}", [k]))(f.pick(LOWER, 32)))

    # --- code and notebooks -------------------------------------------------------------------------------------
    add(
        lambda: (lambda k: (f'import anthropic\nclient = anthropic.Anthropic(\n    api_key="{k}",\n)', [k]))(
            _anthropic(f)
        )
    )
    add(
        lambda: (
            lambda k: (
                f'os.environ["HF_TOKEN"] = "{k}"\npipe = pipeline("text-generation", model="meta-llama/Llama-3.2-3B")',
                [k],
            )
        )("hf_" + f.pick(ALNUM, 34))
    )
    add(
        lambda: (
            lambda k: (
                f"import stripe\nstripe.api_key = '{k}'\nstripe.Refund.create(payment_intent='pi_{f.pick(ALNUM, 24)}')",
                [k],
            )
        )("rk_live_" + f.pick(ALNUM, 99))
    )
    add(
        lambda: (
            lambda tok: (
                f"from twilio.rest import Client\naccount_sid = 'AC{f.hex(32)}'\nauth_token = '{tok}'\nclient = Client(account_sid, auth_token)",
                [tok],
            )
        )(f.hex(32))
    )
    add(
        lambda: (lambda k: (f"sg = SendGridAPIClient('{k}')\nresponse = sg.send(message)", [k]))(
            f"SG.{f.pick(URLSAFE, 22)}.{f.pick(URLSAFE, 43)}"
        )
    )
    add(lambda: (lambda k: (f'client = replicate.Client(api_token="{k}")', [k]))("r8_" + f.pick(ALNUM, 37)))
    add(
        lambda: (
            lambda a, s: (
                f"s3 = boto3.client('s3',\n    aws_access_key_id='{a}',\n    aws_secret_access_key='{s}')",
                [a, s],
            )
        )("AKIA" + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), f.pick(B64, 40))
    )
    add(lambda: (lambda k: (f'llm = ChatOpenAI(model="gpt-4o", openai_api_key="{k}")', [k]))(_openai(f)))
    add(
        lambda: (
            lambda k: (
                json.dumps(
                    {
                        "cell_type": "code",
                        "execution_count": 3,
                        "metadata": {},
                        "outputs": [],
                        "source": [
                            "import os\n",
                            f"os.environ['OPENAI_API_KEY'] = '{k}'\n",
                            "from openai import OpenAI\n",
                        ],
                    },
                    indent=1,
                ),
                [k],
            )
        )(_openai(f))
    )
    add(
        lambda: (
            lambda k: (
                json.dumps({"cells": [{"cell_type": "code", "source": ["!huggingface-cli login --token " + k]}]}),
                [k],
            )
        )("hf_" + f.pick(ALNUM, 34))
    )
    add(
        lambda: (lambda k: (f"from langsmith import Client\nos.environ['LANGCHAIN_API_KEY'] = '{k}'", [k]))(
            "lsv2_pt_" + f.hex(32) + "_" + f.hex(10)
        )
    )
    add(
        lambda: (lambda k: (f'pc = Pinecone(api_key="{k}")\nindex = pc.Index("docs")', [k]))(
            "pcsk_" + f.pick(ALNUM, 5) + "_" + f.pick(ALNUM, 63)
        )
    )
    add(lambda: (lambda k: (f'import wandb\nwandb.login(key="{k}", relogin=True)', [k]))(f.hex(40)))

    # --- cloud credential JSON ----------------------------------------------------------------------------------
    def gcp_sa():
        key = f.pem("PRIVATE KEY")
        body = key.split("\n")
        text = json.dumps(
            {
                "type": "service_account",
                "project_id": "gpu-train-" + f.pick(DIGITS, 6),
                "private_key_id": f.hex(40),
                "private_key": key + "\n",
                "client_email": "trainer@gpu-train.iam.gserviceaccount.com",
                "client_id": f.pick(DIGITS, 21),
            },
            indent=2,
        )
        return ("key.json:\n" + text, [body[2], body[5]])

    def azure_sp():
        pw = f.pick(ALNUM + "~.", 3) + "8Q~" + f.pick(ALNUM + "_~.-", 34)
        return (
            json.dumps({"appId": f.uuid(), "displayName": "gpu-ci", "password": pw, "tenant": f.uuid()}, indent=2),
            [pw],
        )

    def aws_sts():
        sk, st = f.pick(B64, 40), "FwoGZXIvYXdzE" + f.pick(B64, 300)
        return (
            json.dumps(
                {
                    "Credentials": {
                        "AccessKeyId": "ASIA" + f.pick(UPPER, 16),
                        "SecretAccessKey": sk,
                        "SessionToken": st,
                        "Expiration": "2026-12-03T12:00:00Z",
                    }
                },
                indent=4,
            ),
            [sk, st],
        )

    for build in (gcp_sa, azure_sp, aws_sts):
        add(build)

    # --- PEM blocks inside other things -------------------------------------------------------------------------
    add(
        lambda: (lambda k: (f"{k}\n\nthat's the key they gave me, openssl asks for a passphrase", [k.split("\n")[3]]))(
            f.pem("ENCRYPTED PRIVATE KEY")
        )
    )
    add(
        lambda: (lambda k: (f"gpg --export-secret-keys -a ada > key.asc\n{k}", [k.split("\n")[4]]))(
            f.pem("PGP PRIVATE KEY BLOCK")
        )
    )
    add(
        lambda: (lambda k: ("  tls.key: |\n" + "\n".join("    " + line for line in k.split("\n")), [k.split("\n")[2]]))(
            f.pem("EC PRIVATE KEY")
        )
    )
    add(
        lambda: (
            lambda k: (
                f'KEY = """{k}"""\nssh.connect(host, pkey=paramiko.RSAKey.from_private_key(io.StringIO(KEY)))',
                [k.split("\n")[6]],
            )
        )(f.pem("RSA PRIVATE KEY"))
    )

    # --- wallets ------------------------------------------------------------------------------------------------
    add(
        lambda: (
            lambda k: (
                f"solana-keygen new -o ~/.config/solana/id.json\nGenerating a new keypair\n\nWrote new keypair to /root/.config/solana/id.json\n==========================================================================\npubkey: {f.solana_address()}\n==========================================================================\nSave this seed phrase and your BIP39 passphrase to recover your new keypair:\n{k}\n==========================================================================",
                [k],
            )
        )(f.seed_phrase(12))
    )
    add(
        lambda: (
            lambda k: (
                "cat ~/.config/solana/id.json\n" + k,
                ["\n".join(k.split("\n")[1:17]), "\n".join(k.split("\n")[17:33])],
            )
        )(json.dumps(json.loads(f.solana_keypair_json()), indent=2))
    )
    add(lambda: (lambda k: (f'kp = Keypair.from_base58_string("{k}")', [k]))(f.solana_keypair_b58()))
    add(lambda: (lambda k: (f"payer = Keypair.from_bytes(bytes({k}))", [k[1:-1]]))(f.solana_keypair_json(spaced=True)))
    add(
        lambda: (
            lambda k: (f"Hola, exporté la clave privada de Phantom: {k} ¿pueden ayudarme a recuperar los fondos?", [k])
        )(f.solana_keypair_b58())
    )
    add(
        lambda: (
            lambda k: (
                f"hardhat .env\nPRIVATE_KEY=0x{k}\nALCHEMY_URL=https://eth-mainnet.g.alchemy.com/v2/{f.pick(URLSAFE, 32)}",
                [k],
            )
        )(f.eth_key())
    )
    add(lambda: (lambda k: (f'const wallet = new ethers.Wallet("0x{k}", provider);', [k]))(f.eth_key()))
    add(lambda: (lambda k: (f"acct = w3.eth.account.from_key('{k}')", [k]))(f.eth_key()))
    add(
        lambda: (lambda k: (f"forge script script/Deploy.s.sol --rpc-url $RPC --private-key 0x{k} --broadcast", [k]))(
            f.eth_key()
        )
    )
    add(
        lambda: (lambda k: (f"Xin chào, khóa riêng tư ví MetaMask của tôi là {k}, tôi không rút được USDT", [k]))(
            f.eth_key()
        )
    )
    add(lambda: (lambda k: (f"Merhaba, cüzdanımın özel anahtarı: 0x{k} — ödeme görünmüyor", [k]))(f.eth_key()))
    add(lambda: (lambda k: (f"Electrum export:\np2wpkh:{k}", [k]))(f.wif()))

    # --- seed phrases introduced in other languages -------------------------------------------------------------
    add(
        lambda: (
            lambda k: (f"Hola, perdí acceso a mi billetera. Mi frase semilla es: {k}. ¿Pueden verificar el pago?", [k])
        )(f.seed_phrase(12))
    )
    add(
        lambda: (lambda k: (f"Cụm từ khôi phục (12 từ) của tôi: {k}\nXin hãy kiểm tra giúp tôi", [k]))(
            f.seed_phrase(12)
        )
    )
    add(
        lambda: (lambda k: (f"Merhaba, gizli kurtarma ifadem şu: {k} — bakiyem sıfır görünüyor", [k]))(
            f.seed_phrase(24)
        )
    )
    add(
        lambda: (
            lambda lines: (
                "mis 24 palabras:\n" + "\n".join(lines),
                ["\n".join(lines[:3]), "\n".join(lines[10:13]), "\n".join(lines[-3:])],
            )
        )([f"{n}) {w}" for n, w in enumerate(f.seed_phrase(24).split(), 1)])
    )
    add(
        lambda: (lambda words: (" - ".join(words), [" - ".join(words[:3]), " - ".join(words[-3:])]))(
            f.seed_phrase(12).split()
        )
    )
    add(
        lambda: (
            lambda words: (
                "\n".join("\t".join(words[i : i + 4]) for i in range(0, 12, 4)),
                ["\t".join(words[:3]), "\t".join(words[8:11])],
            )
        )(f.seed_phrase(12).split())
    )

    # --- keys wrapped or split across lines ---------------------------------------------------------------------
    add(lambda: (lambda k: (f"OPENAI_API_KEY={k[:76]}\n{k[76:]}", [k[20:76], k[76:]]))(_openai(f)))
    add(lambda: (lambda k: (f"export GH_TOKEN={k[:20]}\\\n{k[20:]}", [k[4:20], k[20:]]))("ghp_" + f.pick(ALNUM, 36)))
    add(
        lambda: (
            lambda k: (
                f"the form cut my key so here it is in two parts: {k[:55]}\nand the rest: {k[55:]}",
                [k[13:55], k[55:]],
            )
        )(_anthropic(f))
    )
    add(
        lambda: (lambda k: (f"hf token (the terminal wrapped it)\nhf_{k[:17]}\n{k[17:]}", [k[:17], k[17:]]))(
            f.pick(ALNUM, 34)
        )
    )

    # --- provider tokens in other wordings ----------------------------------------------------------------------
    add(
        lambda: (lambda k: (f"SLACK_APP_TOKEN={k}\nsocket mode keeps disconnecting", [k]))(
            f"xapp-1-A{f.pick(UPPER, 10)}-{f.pick(DIGITS, 13)}-{f.hex(64)}"
        )
    )
    add(
        lambda: (
            lambda k: (
                f"alertmanager.yml\nreceivers:\n- name: gpu-alerts\n  slack_configs:\n  - api_url: '{k}'\n    channel: '#gpus'",
                [k.rsplit("/", 1)[1]],
            )
        )(f"https://hooks.slack.com/services/T{f.pick(UPPER, 8)}/B{f.pick(UPPER, 10)}/{f.pick(ALNUM, 24)}")
    )
    add(
        lambda: (
            lambda k: (
                f"notify via https://discordapp.com/api/webhooks/{f.pick(DIGITS, 19)}/{k} when training ends",
                [k],
            )
        )(f.pick(URLSAFE, 68))
    )
    add(
        lambda: (lambda k: (f'[discord]\nbot_token = "{k}"', [k]))(
            f"M{f.pick(ALNUM, 25)}.{f.pick(URLSAFE, 6)}.{f.pick(URLSAFE, 38)}"
        )
    )
    add(
        lambda: (
            lambda k: (f"MAIL_MAILER=smtp\nMAIL_HOST=smtp.sendgrid.net\nMAIL_USERNAME=apikey\nMAIL_PASSWORD={k}", [k])
        )(f"SG.{f.pick(URLSAFE, 22)}.{f.pick(URLSAFE, 43)}")
    )
    add(lambda: (lambda k: (f"TWILIO_ACCOUNT_SID=AC{f.hex(32)}\nTWILIO_AUTH_TOKEN={k}", [k]))(f.hex(32)))
    add(lambda: (lambda k: (f"RUNPOD_API_KEY={k}", [k]))("rpa_" + f.pick(UPPER, 40)))
    add(lambda: (lambda k: (f"MISTRAL_API_KEY={k}", [k]))(f.pick(ALNUM, 32)))
    add(lambda: (lambda k: (f"export CO_API_KEY={k}", [k]))(f.pick(ALNUM, 40)))
    add(
        lambda: (lambda k: (f"ENV HF_TOKEN={k}\nRUN huggingface-cli download meta-llama/Llama-3.1-8B", [k]))(
            "hf_" + f.pick(ALNUM, 34)
        )
    )
    add(lambda: (lambda k: (f"docker build --build-arg HF_TOKEN={k} -t trainer .", [k]))("hf_" + f.pick(ALNUM, 34)))
    add(lambda: (lambda k: (f"our org token {k} stopped working yesterday", [k]))("api_org_" + f.pick(ALNUM, 34)))
    add(lambda: (lambda k: (f"NEW_RELIC_API_KEY={k}", [k]))("NRAK-" + f.pick(UPPER, 27)))
    add(
        lambda: (lambda k: (f"sudo tailscale up --authkey={k}", [k]))(
            f"tskey-auth-{f.pick(ALNUM, 12)}CNTRL-{f.pick(ALNUM, 33)}"
        )
    )
    add(
        lambda: (
            lambda k: (
                f"DATABASE_URL='mysql://{f.pick(LOWER, 12)}:{k}@aws.connect.psdb.cloud/app?sslaccept=strict'",
                [k],
            )
        )("pscale_pw_" + f.pick(URLSAFE, 43))
    )
    add(
        lambda: (lambda k: (f"echo {k} | docker login -u acme --password-stdin", [k]))(
            "dckr_pat_" + f.pick(URLSAFE, 27)
        )
    )
    add(lambda: (lambda k: (f"CLOUDFLARE_API_TOKEN={k} wrangler deploy", [k]))(f.pick(URLSAFE, 40)))
    add(
        lambda: (
            lambda k: (
                f"jupyter server list\nCurrently running servers:\nhttp://localhost:8888/?token={k} :: /workspace",
                [k],
            )
        )(f.hex(48))
    )

    # --- words, not assignments, in four languages --------------------------------------------------------------
    add(lambda: (lambda pw: (f"Hola, la contraseña de root que me dieron ({pw}) no funciona por SSH", [pw]))(p()))
    add(lambda: (lambda pw: (f"Mật khẩu SSH của tôi là {pw} nhưng bị từ chối", [pw]))(p()))
    add(lambda: (lambda pw: (f"Sunucuya bağlanamıyorum, şifre: {pw}", [pw]))(p()))
    add(lambda: (lambda k: (f"Mi API key de OpenAI es {k} y me da error 429", [k]))(_openai(f)))
    return out


def main() -> None:
    fakes = Fakes(seed=20261203)
    check_and_write(OUT, "h3", positives(fakes), negatives(fakes), distinct=False)  # repeats written before the rule


if __name__ == "__main__":
    main()

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the THIRD TUNING part of the redaction corpus (`tuning3/*.jsonl`): pasted files, code and wallets.

Round 3 of the patterns (issue 15) was changed against this part only. It covers the families the third
held-out part was written for (config files, connection strings, headers, code, notebooks, cloud JSON, PEM
blocks inside files, wallets, seed phrases introduced in other languages, wrapped keys) with other files,
tools, wordings and values; the held-out texts and their misses were not looked at while writing it.

Run: `.venv/bin/python -m tests.data.redaction_corpus.build_tuning3`; the output is committed.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, LOWER, UPPER, URLSAFE, Fakes
from .tuning3_negatives import negatives
from .writer import repeat

OUT = Path(__file__).resolve().parent / "tuning3"
DIGITS = "0123456789"


def _openai(f: Fakes) -> str:
    return f"sk-proj-{f.pick(URLSAFE, 58)}T3BlbkFJ{f.pick(URLSAFE, 58)}"


def _anthropic(f: Fakes) -> str:
    return "sk-ant-api03-" + f.pick(URLSAFE, 93) + "AA"


def _hf(f: Fakes) -> str:
    return "hf_" + f.pick(ALNUM, 34)


def _config_files(f: Fakes, p) -> list:
    return [
        lambda: (
            lambda pw, k: (
                f"# backend/.env.production\nexport NODE_ENV=production\nexport REDIS_PASSWORD={pw}\nexport ANTHROPIC_API_KEY={k}",
                [pw, k],
            )
        )(p(), _anthropic(f)),
        lambda: (
            lambda k: (
                f"axolotl config:\nbase_model: mistralai/Mistral-7B-v0.3\nhub_model_id: acme/mistral-sft\nhub_token: {k}\nwandb_project: sft",
                [k],
            )
        )(_hf(f)),
        lambda: (
            lambda pw: (
                f"MLFLOW_TRACKING_URI: https://mlflow.acme.dev\nMLFLOW_TRACKING_USERNAME: ada\nMLFLOW_TRACKING_PASSWORD: {pw}",
                [pw],
            )
        )(p()),
        lambda: (
            lambda pw: (
                f'~/.config/pypoetry/auth.toml\n[http-basic.private]\nusername = "deploy"\npassword = "{pw}"',
                [pw],
            )
        )(p()),
        lambda: (lambda k: (f'~/.cargo/credentials.toml\n[registry]\ntoken = "{k}"', [k]))("cio" + f.pick(ALNUM, 32)),
        lambda: (lambda k: (f'[openai]\napi_key = "{k}"\nmodel = "gpt-4o-mini"', [k]))(_openai(f)),
        lambda: (lambda pw: (f"~/.my.cnf\n[client]\nuser=root\npassword={pw}\nhost=127.0.0.1", [pw]))(p()),
        lambda: (
            lambda k: (
                f"~/.boto\n[Credentials]\ngs_access_key_id = GOOG{f.pick(UPPER, 20)}\ngs_secret_access_key = {k}",
                [k],
            )
        )(f.pick(B64, 40)),
        lambda: (
            lambda k: (
                f'[remote "storage"]\n    url = s3://dvc-cache\n    access_key_id = AKIA{f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}\n    secret_access_key = {k}',
                [k],
            )
        )(f.pick(B64, 40)),
        lambda: (
            lambda a: (
                '~/.docker/config.json\n{\n\t"auths": {\n\t\t"ghcr.io": {\n\t\t\t"auth": "' + a + '"\n\t\t}\n\t}\n}',
                [a],
            )
        )(base64.b64encode(f"ada:ghp_{f.pick(ALNUM, 36)}".encode()).decode()),
        lambda: (
            lambda pw: (
                'appsettings.json\n{\n  "ConnectionStrings": {\n    "Default": "Host=pg;Database=ml;Username=app;Password='
                + pw
                + '"\n  }\n}',
                [pw],
            )
        )(p()),
        lambda: (
            lambda k: ('.vscode/settings.json\n{\n  "editor.fontSize": 14,\n  "continue.apiKey": "' + k + '"\n}', [k])
        )(_anthropic(f)),
        lambda: (
            lambda pw, tok: (
                f"compose.yaml\n  grafana:\n    environment:\n      - GF_SECURITY_ADMIN_PASSWORD={pw}\n  jupyter:\n    environment:\n      - JUPYTER_TOKEN={tok}",
                [pw, tok],
            )
        )(p(), f.hex(32)),
        lambda: (
            lambda pw: (
                f"  rabbitmq:\n    image: rabbitmq:3-management\n    environment:\n      RABBITMQ_DEFAULT_USER: ml\n      RABBITMQ_DEFAULT_PASS: {pw}",
                [pw],
            )
        )(p()),
        lambda: (lambda pw: (f"      MONGO_INITDB_ROOT_USERNAME: root\n      MONGO_INITDB_ROOT_PASSWORD: {pw}", [pw]))(
            p()
        ),
        lambda: (
            lambda ck: (
                f"users:\n- name: kubernetes-admin\n  user:\n    client-certificate-data: {base64.b64encode(f.pem('CERTIFICATE').encode()).decode()}\n    client-key-data: {ck}",
                [ck],
            )
        )(base64.b64encode(f.pem("EC PRIVATE KEY").encode()).decode()),
        lambda: (
            lambda tok: (
                f"kubeadm join 10.0.0.10:6443 --token {tok} --discovery-token-ca-cert-hash sha256:{f.hex(64)}",
                [tok],
            )
        )(f"{f.pick(LOWER, 6)}.{f.pick(LOWER + DIGITS, 16)}"),
        lambda: (lambda k: (f"~/.netrc\nmachine huggingface.co\nlogin ada\npassword {k}", [k]))(_hf(f)),
        lambda: (lambda pw: (f"default login anonymous password {pw}", [pw]))(p()),
        lambda: (lambda pw: (f"cat ~/.pgpass\n10.0.0.{f.rng.randint(2, 200)}:6432:metrics:grafana:{pw}", [pw]))(p()),
        lambda: (lambda tok: (f"~/.git-credentials:\nhttps://x-access-token:{tok}@github.com", [tok]))(
            "ghs_" + f.pick(ALNUM, 36)
        ),
        lambda: (lambda k: (f"[Interface]\nPrivateKey={k}\nListenPort=51820", [k]))(
            base64.b64encode(f.raw(32)).decode()
        ),
        lambda: (lambda k: (f'do_token = "{k}"\nregion = "ams3"', [k]))("dop_v1_" + f.hex(64)),
        lambda: (lambda k: (f'vultr_api_key = "{k}"', [k]))(f.pick(UPPER, 36)),
        lambda: (lambda k: (f"NEXTAUTH_SECRET={k}\nNEXTAUTH_URL=https://app.acme.dev", [k]))(
            base64.b64encode(f.raw(32)).decode()
        ),
        lambda: (lambda k: (f"app.secret_key = '{k}'", [k]))(f.hex(48)),
        lambda: (lambda k: (f'version: "3"\nagent:\n    authtoken: {k}', [k]))(
            f.pick(ALNUM, 26) + "_" + f.pick(ALNUM, 22)
        ),
        lambda: (
            lambda v: (
                f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  username: YWRtaW4=\n  password: {v}",
                [v],
            )
        )(base64.b64encode(p().encode()).decode()),
        lambda: (lambda k: ('kaggle.json: {"username": "ml' + f.pick(LOWER, 5) + '", "key": "' + k + '"}', [k]))(
            f.hex(32)
        ),
        lambda: (lambda k: (f"[b2-remote]\ntype = b2\naccount = {f.hex(12)}\nkey = {k}", [k]))(
            "K00" + f.pick(ALNUM, 28)
        ),
    ]


def _connections(f: Fakes, p) -> list:
    return [
        lambda: (
            lambda pw: (
                f'engine = create_engine("mssql+pyodbc://sa:{pw}@10.0.0.5/ml?driver=ODBC+Driver+18+for+SQL+Server")',
                [pw],
            )
        )(f.pick(ALNUM, 16)),
        lambda: (lambda pw: (f"jdbc:sqlserver://mssql:1433;databaseName=ml;user=sa;password={pw};encrypt=true", [pw]))(
            p()
        ),
        lambda: (lambda pw: (f"$ sqlplus scott/{pw}@orcl\nERROR: ORA-28000: The account is locked.", [pw]))(p()),
        lambda: (lambda pw: (f"DSN=ml;UID=reporter;PWD={pw};Trusted_Connection=no", [pw]))(p()),
        lambda: (lambda pw: (f"cqlsh -u admin -p {pw} cassandra-0", [pw]))(p()),
        lambda: (lambda pw: (f'ldapsearch -x -H ldap://ldap -D "cn=admin,dc=acme" -w {pw} -b dc=acme', [pw]))(p()),
        lambda: (lambda pw: (f"10.0.0.3:6379> AUTH {pw}\n(error) WRONGPASS invalid username-password pair", [pw]))(p()),
        lambda: (lambda pw: (f"NATS_URL=nats://svc:{pw}@nats:4222", [pw]))(p()),
        lambda: (
            lambda pw: (
                f"mc config host add s3 https://s3.amazonaws.com AKIA{f.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)} {pw}",
                [pw],
            )
        )(f.pick(B64, 40)),
        lambda: (lambda pw: (f"mc alias set local http://127.0.0.1:9000 admin {pw}", [pw]))(f.pick(ALNUM, 20)),
        lambda: (lambda pw: (f"psql 'host=10.1.0.4 user=ro password={pw} dbname=metrics'", [pw]))(p()),
        lambda: (lambda pw: (f"NEO4J_AUTH=neo4j/{pw}", [pw]))(p()),
        lambda: (
            lambda pw: (f"mongosh --host mongo --username admin --password {pw} --authenticationDatabase admin", [pw])
        )(p()),
        lambda: (lambda pw: (f'password="{pw}";\nsasl.mechanism=PLAIN', [pw]))(p()),
    ]


def _headers_and_code(f: Fakes, p) -> list:
    return [
        lambda: (
            lambda k: (f'curl https://generativelanguage.googleapis.com/v1beta/models -H "x-goog-api-key: {k}"', [k])
        )("AIza" + f.pick(URLSAFE, 35)),
        lambda: (
            lambda k: (f"curl -H 'Ocp-Apim-Subscription-Key: {k}' https://westeurope.api.cognitive.microsoft.com/", [k])
        )(f.hex(32)),
        lambda: (lambda k: (f'curl -H "apikey: {k}" https://abc.supabase.co/rest/v1/runs', [k]))(f.jwt()),
        lambda: (lambda k: (f"curl --oauth2-bearer {k} https://api.vast.ai/api/v0/instances/", [k]))(f.hex(64)),
        lambda: (
            lambda k: (
                f'http POST https://api.mistral.ai/v1/chat/completions Authorization:"Bearer {k}" model=mistral-small',
                [k],
            )
        )(f.pick(ALNUM, 32)),
        lambda: (lambda k: (f'wget --header="X-Auth-Token: {k}" https://files.acme.dev/ckpt.pt', [k]))(
            f.pick(ALNUM, 40)
        ),
        lambda: (
            lambda k: (
                f"POST /v1/embed HTTP/2\nhost: api.cohere.com\nx-api-key: {k}\ncontent-type: application/json",
                [k],
            )
        )(f.pick(ALNUM, 40)),
        lambda: (lambda k: (f"Cookie: _ga=GA1.1.{f.pick(DIGITS, 9)}.{f.pick(DIGITS, 10)}; session={k}", [k]))(
            f.pick(URLSAFE, 43)
        ),
        lambda: (lambda k: (f"client = AsyncAnthropic(api_key='{k}')", [k]))(_anthropic(f)),
        lambda: (lambda k: (f'import google.generativeai as genai\ngenai.configure(api_key="{k}")', [k]))(
            "AIza" + f.pick(URLSAFE, 35)
        ),
        lambda: (lambda k: (f'snapshot_download("meta-llama/Llama-3.1-8B", token="{k}")', [k]))(_hf(f)),
        lambda: (
            lambda tok: (
                f'client = Client("AC{f.hex(32)}", "{tok}")\nclient.messages.create(to=to, from_=sender, body=msg)',
                [tok],
            )
        )(f.hex(32)),
        lambda: (
            lambda pw: (f'conn = psycopg2.connect(host="10.0.0.2", dbname="ml", user="ml", password="{pw}")', [pw])
        )(p()),
        lambda: (lambda pw: (f"r = redis.Redis(host='cache', port=6379, password='{pw}')", [pw]))(p()),
        lambda: (lambda k: (f'const openai = new OpenAI({{ apiKey: "{k}" }});', [k]))(_openai(f)),
        lambda: (lambda k: (f'TOKEN = "{k}"\nheaders = {{"Authorization": f"Bearer {{TOKEN}}"}}', [k]))(
            f.pick(ALNUM, 40)
        ),
        lambda: (
            lambda k: (
                json.dumps({"cell_type": "code", "source": [f"%env OPENAI_API_KEY={k}\n", "import openai"]}, indent=1),
                [k],
            )
        )(_openai(f)),
        lambda: (lambda k: (f'Sys.setenv(OPENAI_API_KEY = "{k}")', [k]))(_openai(f)),
        lambda: (lambda k: (f'os.Setenv("REPLICATE_API_TOKEN", "{k}")', [k]))("r8_" + f.pick(ALNUM, 37)),
        lambda: (lambda k: (f'groq_client = Groq(api_key="{k}")', [k]))("gsk_" + f.pick(ALNUM, 52)),
        lambda: (lambda k: (f"sendgrid.SendGridAPIClient(api_key='{k}')", [k]))(
            f"SG.{f.pick(URLSAFE, 22)}.{f.pick(URLSAFE, 43)}"
        ),
        lambda: (
            lambda a, s: (f'session = boto3.Session(aws_access_key_id="{a}", aws_secret_access_key="{s}")', [a, s])
        )("AKIA" + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), f.pick(B64, 40)),
    ]


def _cloud_and_pem(f: Fakes) -> list:
    def gcp() -> tuple[str, list[str]]:
        key = f.pem("PRIVATE KEY", lines=10)
        text = json.dumps(
            {
                "type": "service_account",
                "private_key_id": f.hex(40),
                "private_key": key,
                "client_email": "bq@acme.iam.gserviceaccount.com",
            }
        )
        return (text, [key.split("\n")[3], key.split("\n")[9]])

    return [
        gcp,
        lambda: (
            lambda pw: (
                f'$ az ad sp credential reset --id {f.uuid()}\n{{\n  "appId": "{f.uuid()}",\n  "password": "{pw}",\n  "tenant": "{f.uuid()}"\n}}',
                [pw],
            )
        )(f.pick(ALNUM, 4) + "8Q~" + f.pick(ALNUM + "_~.-", 34)),
        lambda: (
            lambda s: (
                json.dumps(
                    {
                        "AccessKey": {
                            "UserName": "ci",
                            "AccessKeyId": "AKIA" + f.pick(UPPER, 16),
                            "Status": "Active",
                            "SecretAccessKey": s,
                        }
                    },
                    indent=4,
                ),
                [s],
            )
        )(f.pick(B64, 40)),
        lambda: (
            lambda s, t: (
                json.dumps(
                    {"Version": 1, "AccessKeyId": "ASIA" + f.pick(UPPER, 16), "SecretAccessKey": s, "SessionToken": t}
                ),
                [s, t],
            )
        )(f.pick(B64, 40), "IQoJb3JpZ2luX2Vj" + f.pick(B64, 250)),
        lambda: (
            lambda s: (
                json.dumps(
                    {"cloud": "AzurePublicCloud", "tenantId": f.uuid(), "aadClientId": f.uuid(), "aadClientSecret": s}
                ),
                [s],
            )
        )(f.pick(ALNUM, 5) + "8Q~" + f.pick(ALNUM + "_~.-", 34)),
        lambda: (lambda k: ("\n".join("> " + line for line in k.split("\n")), [k.split("\n")[2]]))(
            f.pem("OPENSSH PRIVATE KEY")
        ),
        lambda: (
            lambda k: ("ssl:\n  key: |\n" + "\n".join("    " + line for line in k.split("\n")), [k.split("\n")[4]])
        )(f.pem("PRIVATE KEY")),
        lambda: (
            lambda k: (
                k.replace(
                    "-----\n",
                    "-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,ABCDEF0123456789ABCDEF0123456789\n\n",
                    1,
                ),
                [k.split("\n")[3]],
            )
        )(f.pem("RSA PRIVATE KEY")),
        lambda: (lambda k: (k.replace("\n", "\r\n"), [k.split("\n")[5]]))(f.pem("DSA PRIVATE KEY")),
        lambda: (lambda k: (f"{k}\n", [k.split("\n")[3]]))(f.pem("PGP PRIVATE KEY BLOCK")),
    ]


def _wallets(f: Fakes) -> list:
    return [
        lambda: (lambda k: (f"id.json:\n{k}", ["\n".join(k.split("\n")[2:18]), "\n".join(k.split("\n")[30:50])]))(
            json.dumps(json.loads(f.solana_keypair_json()), indent=4)
        ),
        lambda: (lambda k: (f"const payer = Keypair.fromSecretKey(bs58.decode('{k}'));", [k]))(f.solana_keypair_b58()),
        lambda: (lambda k: (f"Đây là private key ví Phantom của tôi: {k}", [k]))(f.solana_keypair_b58()),
        lambda: (lambda k: (f"Phantom'dan dışa aktardığım anahtar: {k}", [k]))(f.solana_keypair_b58()),
        lambda: (lambda k: (f"WALLET_PRIVATE_KEY={k}", [k]))(f.eth_key()),
        lambda: (lambda k: (f"const signer = new Wallet('0x{k}', provider)", [k]))(f.eth_key()),
        lambda: (lambda k: (f'account = Account.from_key("0x{k}")', [k]))(f.eth_key()),
        lambda: (
            lambda k: (f"cast send 0x{f.hex(40)} 'transfer(address,uint256)' 0x{f.hex(40)} 100 --private-key={k}", [k])
        )(f.eth_key()),
        lambda: (lambda k: (f'{{"address": "0x{f.hex(40)}", "privateKey": "0x{k}"}}', [k]))(f.eth_key()),
        lambda: (lambda k: (f"Esta es mi clave privada de MetaMask: {k}", [k]))(f.eth_key()),
        lambda: (lambda k: (f"Özel anahtar {k} ile cüzdanı içe aktardım", [k]))(f.eth_key()),
        lambda: (lambda k: (f"khóa bí mật: 0x{k}", [k]))(f.eth_key()),
        lambda: (lambda k: (f'bitcoin-cli importprivkey {k} "rescue" false', [k]))(f.wif()),
        lambda: (
            lambda k: (
                f"solana-keygen new --no-bip39-passphrase\n...\nSave this seed phrase to recover your new keypair:\n{k}",
                [k],
            )
        )(f.seed_phrase(24)),
        lambda: (lambda k: (f"Estas son mis 12 palabras de recuperación: {k}", [k]))(f.seed_phrase(12)),
        lambda: (lambda k: (f"Đây là 24 từ bí mật của ví: {k}", [k]))(f.seed_phrase(24)),
        lambda: (lambda k: (f"12 kelimelik kurtarma ifadem: {k}", [k]))(f.seed_phrase(12)),
        lambda: (lambda lines: ("\n".join(lines), ["\n".join(lines[:3]), "\n".join(lines[-3:])]))(
            [f"{n}) {w}" for n, w in enumerate(f.seed_phrase(12).split(), 1)]
        ),
        lambda: (lambda w: (" / ".join(w), [" / ".join(w[:3]), " / ".join(w[-3:])]))(f.seed_phrase(12).split()),
        lambda: (lambda w: (json.dumps(w), [json.dumps(w)[1:30], json.dumps(w)[-30:-1]]))(f.seed_phrase(12).split()),
        lambda: (
            lambda w: (
                "\n".join("  ".join(w[i : i + 3]) for i in range(0, 12, 3)),
                ["  ".join(w[:3]), "  ".join(w[9:])],
            )
        )(f.seed_phrase(12).split()),
    ]


def _wrapped_and_providers(f: Fakes, p) -> list:
    return [
        lambda: (lambda k: (f"ANTHROPIC_API_KEY={k[:70]}\n{k[70:]}", [k[14:70], k[70:]]))(_anthropic(f)),
        lambda: (lambda k: (f"token: {k[:22]}\n{k[22:]}", [k[6:22], k[22:]]))(
            "glpat-" + f.pick(URLSAFE, 20) + f.pick(ALNUM, 10)
        ),
        lambda: (lambda k: (f'key = "{k[:40]}" \\\n      "{k[40:]}"', [k[10:40], k[40:]]))(_openai(f)),
        lambda: (lambda k: (f"my token got split by the chat: {k[:20]}\n{k[20:]}", [k[3:20], k[20:]]))(
            _hf(f) + f.pick(ALNUM, 4)
        ),
        lambda: (lambda k: (f"xoxb token:\n{k}", [k]))(
            f"xoxb-{f.pick(DIGITS, 12)}-{f.pick(DIGITS, 13)}-{f.pick(ALNUM, 24)}"
        ),
        lambda: (lambda k: (f"SLACK_REFRESH_TOKEN={k}", [k]))("xoxe-1-" + f.pick(ALNUM, 140)),
        lambda: (lambda k: (f"app-level token {k}", [k]))(
            f"xapp-1-A{f.pick(UPPER, 10)}-{f.pick(DIGITS, 13)}-{f.hex(64)}"
        ),
        lambda: (lambda k: (f'webhook_url = "https://discord.com/api/webhooks/{f.pick(DIGITS, 18)}/{k}"', [k]))(
            f.pick(URLSAFE, 68)
        ),
        lambda: (lambda k: (f"DISCORD_TOKEN={k}", [k]))(
            f"O{f.pick(ALNUM, 25)}.{f.pick(URLSAFE, 6)}.{f.pick(URLSAFE, 38)}"
        ),
        lambda: (lambda k: (f'runpod.api_key = "{k}"', [k]))("rpa_" + f.pick(UPPER, 40)),
        lambda: (lambda k: (f"LANGSMITH_API_KEY={k}", [k]))("lsv2_sk_" + f.hex(32) + "_" + f.hex(10)),
        lambda: (lambda k: (f"PINECONE_API_KEY={k}", [k]))("pcsk_" + f.pick(ALNUM, 5) + "_" + f.pick(ALNUM, 63)),
        lambda: (lambda k: (f"newrelic key {k}", [k]))("NRAK-" + f.pick(UPPER, 27)),
        lambda: (lambda k: (f"TS_AUTHKEY={k}", [k]))(f"tskey-auth-{f.pick(ALNUM, 12)}CNTRL-{f.pick(ALNUM, 33)}"),
        lambda: (lambda k: (f"tailscale api key: {k}", [k]))(f"tskey-api-{f.pick(ALNUM, 12)}CNTRL-{f.pick(ALNUM, 33)}"),
        lambda: (lambda k: (f"TOGETHER_API_KEY={k}", [k]))(f.hex(64)),
        lambda: (lambda k: (f"COHERE_API_KEY={k}", [k]))(f.pick(ALNUM, 40)),
        lambda: (lambda k: (f"export CF_API_TOKEN={k}", [k]))(f.pick(URLSAFE, 40)),
        lambda: (lambda k: (f"stripe listen --api-key {k}", [k]))("rk_test_" + f.pick(ALNUM, 99)),
        lambda: (lambda k: (f"TWILIO_API_SECRET={k}", [k]))(f.pick(ALNUM, 32)),
        lambda: (lambda k: (f"wandb key for the team: {k}", [k]))(f.hex(40)),
        lambda: (lambda k: (f"http://gpu-7:8888/tree?token={k}", [k]))(f.hex(48)),
        lambda: (lambda pw: (f"Hola, mi contraseña de la máquina es {pw} y no entra", [pw]))(p()),
        lambda: (lambda pw: (f"contraseña: {pw}", [pw]))(p()),
        lambda: (lambda pw: (f"mật khẩu root: {pw}", [pw]))(p()),
        lambda: (lambda pw: (f"Tôi đổi mật khẩu thành {pw} rồi mà vẫn lỗi", [pw]))(p()),
        lambda: (lambda pw: (f"root şifresi {pw} ama giriş yapamıyorum", [pw]))(p()),
        lambda: (lambda pw: (f"parola: {pw}", [pw]))(p()),
    ]


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    p = f.password
    out: list[tuple[str, list[str]]] = []
    for build in (
        *_config_files(f, p),
        *_connections(f, p),
        *_headers_and_code(f, p),
        *_cloud_and_pem(f),
        *_wallets(f),
        *_wrapped_and_providers(f, p),
    ):
        repeat(2, out, build)
    return out


def main() -> None:
    fakes = Fakes(seed=903112026)
    # written before texts had to be unique (it repeats some); its committed files must stay as they are
    check_and_write(OUT, "t3", positives(fakes), negatives(fakes), distinct=False)


if __name__ == "__main__":
    main()

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Texts with secrets of the sixth tuning part, second batch: provider tokens, files, code, logs and chat.

Provider tokens in the shapes of the gitleaks and trufflehog rules, mostly of providers an ML team uses and the
earlier parts do not name (Groq, OpenRouter, Perplexity, Fireworks, xAI, Pinecone, LangSmith, Databricks,
Supabase, PlanetScale, Sentry, Grafana, New Relic, Doppler, 1Password, Pulumi, Heroku, Fly, Netlify, Render,
Shopify, Linear, Notion, Airtable, Postman, Atlassian, Bitbucket, NuGet, Artifactory, Prefect, GitLab runner and
deploy tokens, Slack app tokens, Teams and Discord webhooks, Mailgun, Brevo, Cloudflare R2, Scaleway, Alibaba,
Tencent); passwords in code and DSNs; tokens in URLs and logs; chat-like messages; wallets in other tools.
"""

from __future__ import annotations

from .fakes import ALNUM, LOWER, UPPER, URLSAFE, Fakes
from .writer import Sample, one

DIGITS = "0123456789"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


class Tokens:
    """Provider tokens in the published shapes (gitleaks / trufflehog rules), from the part's seeded fakes."""

    def __init__(self, f: Fakes) -> None:
        self.f = f

    def hf(self) -> str:
        return "hf_" + self.f.pick(ALNUM, 34)

    def ghp(self) -> str:
        return "ghp_" + self.f.pick(ALNUM, 36)

    def glpat(self) -> str:
        return "glpat-" + self.f.pick(URLSAFE, 20)

    def dockerhub(self) -> str:
        return "dckr_pat_" + self.f.pick(URLSAFE, 27)

    def quay_robot(self) -> str:
        return self.f.pick(UPPER, 64)

    def ngc(self) -> str:
        return "nvapi-" + self.f.pick(URLSAFE, 64)

    def wandb(self) -> str:
        return self.f.hex(40)

    def vault(self) -> str:
        return "hvs.CAESI" + self.f.pick(URLSAFE, 86)

    def terraform(self) -> str:
        return f"{self.f.pick(LOWER, 14)}.atlasv1.{self.f.pick(ALNUM + '-_', 67)}"

    def crates(self) -> str:
        return "cio" + self.f.pick(ALNUM, 32)

    def rubygems(self) -> str:
        return "rubygems_" + self.f.hex(48)

    def b2_key(self) -> str:
        return "K005" + self.f.pick(ALNUM + "/+", 27)

    def kubeadm(self) -> str:
        return f"{self.f.pick(LOWER, 6)}.{self.f.pick(LOWER, 16)}"

    def age(self) -> str:
        return "AGE-SECRET-KEY-1" + self.f.pick(BECH32.upper(), 58)

    def modal_secret(self) -> str:
        return "as-" + self.f.pick(ALNUM, 22)

    def oci_auth(self) -> str:
        return self.f.pick(ALNUM + "()[]<>:;.+-_#", 20)

    def google_access(self) -> str:
        return "ya29.a0" + self.f.pick(URLSAFE, 120)

    def vultr(self) -> str:
        return self.f.pick(UPPER, 36)

    def hcloud(self) -> str:
        return self.f.pick(ALNUM, 64)

    def lambda_key(self) -> str:
        return f"secret_{self.f.pick(LOWER, 6)}_{self.f.hex(32)}.{self.f.pick(ALNUM, 32)}"

    def runpod(self) -> str:
        return "rpa_" + self.f.pick(UPPER, 40) + self.f.pick(LOWER, 6)


def _ai_and_data(f: Fakes, t: Tokens) -> list[Sample]:
    return [
        one("# .env on the box\nMODEL=llama-3.3-70b-versatile\nGROQ_API_KEY=gsk_{s}", lambda: f.pick(ALNUM, 52)),
        one('client = OpenAI(base_url="https://openrouter.ai/api/v1", api_key="{s}")', lambda: "sk-or-v1-" + f.hex(64)),
        one(
            'curl https://api.perplexity.ai/chat/completions -H "Authorization: Bearer {s}" -d @req.json',
            lambda: "pplx-" + f.pick(ALNUM, 48),
        ),
        one("export FIREWORKS_API_KEY={s}\npython bench.py --provider fireworks", lambda: "fw_" + f.pick(ALNUM, 24)),
        one(
            "services:\n  chat:\n    image: acme/chat:1.4\n    environment:\n      XAI_API_KEY: {s}\n      PORT: 8080",
            lambda: "xai-" + f.pick(ALNUM, 80),
        ),
        one(
            'pc = Pinecone(api_key="{s}")\nindex = pc.Index("docs-v3")',
            lambda: f"pcsk_{f.pick(ALNUM, 5)}_{f.pick(ALNUM, 63)}",
        ),
        one(
            "LANGCHAIN_TRACING_V2=true\nLANGCHAIN_API_KEY={s}\nLANGCHAIN_PROJECT=rag-eval",
            lambda: f"lsv2_pt_{f.hex(32)}_{f.hex(10)}",
        ),
        one('from together import Together\nclient = Together(api_key="{s}")', lambda: f.hex(64)),
        one("%env MISTRAL_API_KEY={s}\nfrom mistralai import Mistral", lambda: f.pick(ALNUM, 32)),
        one('co = cohere.ClientV2("{s}")  # prod key, trial one is rate limited', lambda: f.pick(ALNUM, 40)),
        one(
            "$ databricks configure --token\nDatabricks Host (should begin with https://): https://adb-4412.7.azuredatabricks.net\nToken: {s}",
            lambda: "dapi" + f.hex(32),
        ),
        one(
            "~/.databrickscfg\n[DEFAULT]\nhost  = https://adb-4412.7.azuredatabricks.net\ntoken = {s}",
            lambda: "dapi" + f.hex(32) + "-2",
        ),
        one("supabase login --token {s}", lambda: "sbp_" + f.hex(40)),
        one(
            "DATABASE_URL=mysql://k3v9x2:{s}@aws.connect.psdb.cloud/ml_meta?sslaccept=strict",
            lambda: "pscale_pw_" + f.pick(URLSAFE, 43),
        ),
        one(
            "export KAGGLE_USERNAME=adalab\nexport KAGGLE_KEY={s}\nkaggle datasets download -d acme/gpu-logs",
            lambda: f.hex(32),
        ),
        one(
            "[r2]\ntype = s3\nprovider = Cloudflare\naccess_key_id = "
            + f.hex(32)
            + "\nsecret_access_key = {s}\nendpoint = https://"
            + f.hex(32)
            + ".r2.cloudflarestorage.com",
            lambda: f.hex(64),
        ),
        one("scw init secret-key={s} organization-id=" + f.uuid() + " send-telemetry=false", f.uuid),
        one(
            "tccli configure set secretId AKID" + f.pick(ALNUM, 32) + " secretKey {s} region ap-singapore",
            lambda: f.pick(ALNUM, 32),
        ),
    ]


def _devops_and_saas(f: Fakes, t: Tokens) -> list[Sample]:
    return [
        one("sentry-cli --auth-token {s} releases new ml-api@1.8.2", lambda: "sntryu_" + f.hex(64)),
        one(
            "grafana-agent.yaml\n  remote_write:\n    - url: https://prometheus-prod-24.grafana.net/api/prom/push\n      basic_auth:\n        username: 1182371\n        password: {s}",
            lambda: f"glsa_{f.pick(ALNUM, 32)}_{f.hex(8)}",
        ),
        one("NEW_RELIC_API_KEY={s} newrelic entity search --name gpu-exporter", lambda: "NRAK-" + f.pick(UPPER, 27)),
        one(
            "docker run -d --name dd-agent -e DD_API_KEY={s} -e DD_SITE=datadoghq.eu gcr.io/datadoghq/agent:7",
            lambda: f.hex(32),
        ),
        one("doppler configure set token {s} --scope /srv/trainer", lambda: "dp.st.prd." + f.pick(ALNUM, 43)),
        one("OP_SERVICE_ACCOUNT_TOKEN={s} op read op://ml/hf/token", lambda: "ops_eyJ" + f.pick(ALNUM + "+/", 260)),
        one(
            "$ pulumi login\nManage your Pulumi stacks by logging in.\nRun `pulumi --help` for alternative login options.\nEnter your access token from https://app.pulumi.com/account/tokens\n    or hit <ENTER> to log in using your browser                   : {s}",
            lambda: "pul-" + f.hex(40),
        ),
        one(
            "$ heroku authorizations:create -d ci\nCreating OAuth Authorization... done\nClient:      <none>\nID:          "
            + f.uuid()
            + "\nDescription: ci\nScope:       global\nToken:       {s}",
            lambda: "HRKU-AA" + f.pick(URLSAFE, 58),
        ),
        one("fly deploy --app gpu-dash --access-token {s}", lambda: "fo1_" + f.pick(URLSAFE, 43)),
        one("netlify deploy --prod --dir dist --auth {s}", lambda: "nfp_" + f.pick(ALNUM, 36)),
        one(
            'curl -H "Authorization: Bearer {s}" https://api.render.com/v1/services?limit=20',
            lambda: "rnd_" + f.pick(ALNUM, 32),
        ),
        one("X-Shopify-Access-Token: {s}\nContent-Type: application/json", lambda: "shpat_" + f.hex(32)),
        one("LINEAR_API_KEY={s} node sync-issues.js", lambda: "lin_api_" + f.pick(ALNUM, 40)),
        one('notion = Client(auth="{s}")', lambda: "ntn_" + f.pick(DIGITS, 11) + f.pick(ALNUM, 35)),
        one(
            "curl https://api.airtable.com/v0/appX1/Runs -H 'Authorization: Bearer {s}'",
            lambda: f"pat{f.pick(ALNUM, 14)}.{f.hex(64)}",
        ),
        one("newman run collection.json --postman-api-key {s}", lambda: f"PMAK-{f.hex(24)}-{f.hex(34)}"),
        one(
            "curl -u ada@acme.dev:{s} https://acme.atlassian.net/rest/api/3/myself",
            lambda: "ATATT3xFfGF0" + f.pick(URLSAFE, 180) + "=" + f.hex(8).upper(),
        ),
        one(
            "git clone https://ada-lab:{s}@bitbucket.org/acme/train.git",
            lambda: "ATBB" + f.pick(ALNUM, 32) + f.hex(8).upper(),
        ),
        one(
            "dotnet nuget push Acme.Gpu.1.2.0.nupkg --api-key {s} --source https://api.nuget.org/v3/index.json",
            lambda: "oy2" + f.pick(LOWER, 43),
        ),
        one(
            'curl -H "X-JFrog-Art-Api: {s}" -T model.tar https://acme.jfrog.io/artifactory/ml-local/model.tar',
            lambda: "AKCp" + f.pick(ALNUM, 69),
        ),
        one("prefect cloud login -k {s} --workspace acme/ml", lambda: "pnu_" + f.pick(ALNUM, 36)),
        one(
            "gitlab-runner register --non-interactive --url https://gitlab.com --token {s} --executor docker",
            lambda: "glrt-" + f.pick(URLSAFE, 20),
        ),
        one("docker login registry.gitlab.com -u gitlab+deploy-token-41 -p {s}", lambda: "gldt-" + f.pick(URLSAFE, 20)),
        one("Run actions/checkout@v4\n  with:\n    token: {s}\n    fetch-depth: 1", lambda: "ghs_" + f.pick(ALNUM, 36)),
        one(
            "SLACK_APP_TOKEN={s}\nSLACK_CHANNEL=#gpu-alerts",
            lambda: f"xapp-1-A0{f.pick(UPPER, 9)}-{f.pick(DIGITS, 13)}-{f.hex(64)}",
        ),
        one(
            "alert webhook (Teams): {s}",
            lambda: (
                f"https://acme.webhook.office.com/webhookb2/{f.uuid()}@{f.uuid()}/IncomingWebhook/{f.hex(32)}/{f.uuid()}"
            ),
        ),
        one(
            "DISCORD_WEBHOOK={s}",
            lambda: f"https://discord.com/api/webhooks/{f.pick(DIGITS, 18)}/{f.pick(URLSAFE, 68)}",
        ),
        one("MAILGUN_API_KEY={s}\nMAILGUN_DOMAIN=mg.acme.dev", lambda: "key-" + f.hex(32)),
        one("brevo api key for the order e-mails: {s}", lambda: f"xkeysib-{f.hex(64)}-{f.pick(ALNUM, 16)}"),
        one(
            "tailscale API key (for the ACL script): {s}",
            lambda: f"tskey-api-{f.pick(ALNUM, 12)}CNTRL-{f.pick(ALNUM, 33)}",
        ),
        one(
            "curl -s https://api.telegram.org/bot{s}/getUpdates | jq .result[-1]",
            lambda: f"{f.rng.randint(10**9, 10**10 - 1)}:AA{f.pick(URLSAFE, 33)}",
        ),
        one(
            "aliyun configure set --mode AK --access-key-id LTAI"
            + f.pick(ALNUM, 20)
            + " --access-key-secret {s} --region cn-hangzhou",
            lambda: f.pick(ALNUM, 30),
        ),
    ]


def _code_logs_and_chat(f: Fakes, t: Tokens) -> list[Sample]:
    p = f.password
    return [
        one('r = requests.get("https://nas.acme.dev/api/ckpt", auth=("ada", "{s}"), timeout=30)', p),
        one('const redis = new Redis({ host: "10.0.0.5", port: 6379, password: "{s}" });', p),
        one('dsn := "trainer:{s}@tcp(10.0.0.5:3306)/ml?parseTime=true"', p),
        one("spring.datasource.url=jdbc:oracle:thin:scott/{s}@db.acme.local:1521/ORCL", p),
        one(
            "[I 2026-12-01 10:00:01.123 ServerApp] Jupyter Server 2.14.2 is running at:\n[I 2026-12-01 10:00:01.123 ServerApp] http://gpu-7:8888/lab?token={s}\n[I 2026-12-01 10:00:01.123 ServerApp]     http://127.0.0.1:8888/lab",
            lambda: f.hex(48),
        ),
        one(
            'DEBUG urllib3.connectionpool: https://api.acme.dev:443 "GET /v2/jobs HTTP/1.1" 200\nDEBUG client: sent header Authorization: Token {s}',
            lambda: f.hex(40),
        ),
        one("hey, can you try logging in with ada@acme.dev and {s}? that's the account pw", p),
        one("ok I changed it, it's now {s} lol", p),
        one(
            "btw the api key in the screenshot is {s}, I'll rotate it after you look",
            lambda: "gsk_" + f.pick(ALNUM, 52),
        ),
        one("here u go: {s}", t.hf),
        one("oye, la clave es {s} (la de la cuenta, no la del ssh)", p),
        one("pass mới: {s}", p),
        one("yeni şifrem {s}, admin paneline hâlâ giremiyorum", p),
        one(
            'networks: {\n    sepolia: {\n      url: process.env.SEPOLIA_RPC,\n      accounts: ["0x{s}"],\n    },\n}',
            f.eth_key,
        ),
        one("SOLANA_PRIVATE_KEY={s}\nRPC_URL=https://api.mainnet-beta.solana.com", f.solana_keypair_b58),
        one(
            "keypair file, 16 numbers a line:\n{s}",
            lambda: ",\n".join(",".join(str(b) for b in row) for row in _rows(f.solana_keypair(), 16)),
        ),
        one(
            "Ledger backup card, please tell me if the words are valid:\n{s}", lambda: _grid(f.seed_phrase(24).split())
        ),
        one("Electrum → Sweep private keys → p2wpkh:{s}", f.wif),
        one("TronLink private key (the wallet that sent the USDT): {s}", f.eth_key),
        one("monero-wallet-cli> spendkey\nsecret: {s}\npublic: " + f.hex(64), f.eth_key),
    ]


def _rows(data: bytes, width: int) -> list[bytes]:
    return [data[i : i + width] for i in range(0, len(data), width)]


def _grid(words: list[str]) -> str:
    """A 24-word backup card in two columns: 1 and 13 on a line, 2 and 14, …"""
    return "\n".join(f"{i + 1:>2}. {words[i]:<10} {i + 13:>2}. {words[i + 12]}" for i in range(12))


def positives_batch2(f: Fakes) -> list[Sample]:
    t = Tokens(f)
    return [*_ai_and_data(f, t), *_devops_and_saas(f, t), *_code_logs_and_chat(f, t)]

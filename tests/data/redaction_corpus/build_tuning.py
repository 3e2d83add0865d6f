# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the TUNING part of the redaction corpus (`tuning/*.jsonl`): the samples patterns were changed against.

Run: `.venv/bin/python -m tests.data.redaction_corpus.build_tuning`; the output is committed. The
held-out part (`build_heldout.py`) uses other wordings and was never tuned on; see `bench/redaction_recall.py`.
"""

from __future__ import annotations

from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, LOWER, UPPER, URLSAFE, Fakes

OUT = Path(__file__).resolve().parent / "tuning"


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    p = f.password
    t: list = []

    def add(build) -> None:
        for _ in range(3):
            text, secrets = build()
            t.append((text, secrets))

    # database clients
    add(lambda: (lambda pw: (f"psql postgres://admin:{pw}@localhost:5432/postgres -c 'select 1'", [pw]))(p()))
    add(lambda: (lambda pw: (f"mysql -uroot -p{pw} -e 'show databases'", [pw]))(p()))
    add(lambda: (lambda pw: (f"mysql --host=10.1.1.4 --user=app --password {pw} app", [pw]))(p()))
    add(lambda: (lambda pw: (f"mongo mongodb://root:{pw}@mongo:27017/admin", [pw]))(p()))
    add(lambda: (lambda pw: (f"export PGPASSWORD='{pw}'\npsql -h db -U app", [pw]))(p()))
    add(lambda: (lambda pw: (f"redis-cli -a '{pw}' --no-auth-warning info", [pw]))(p()))
    add(lambda: (lambda pw: (f"clickhouse-client --password {pw} --query 'SELECT 1'", [pw]))(p()))
    # ssh
    add(lambda: (lambda pw: (f'sshpass -p"{pw}" rsync -av ./ckpt user@gpu:/ckpt', [pw]))(p()))
    add(lambda: (lambda pw: (f"ssh root@10.0.0.9  (pass: {pw})", [pw]))(p()))
    # ML tool logins
    add(lambda: (lambda k: (f"$ wandb login --relogin {k}", [k]))(f.hex(40)))
    add(lambda: (lambda k: (f"WANDB_API_KEY={k} python train.py", [k]))(f.hex(40)))
    add(lambda: (lambda k: (f"huggingface-cli login --token={k}", [k]))("hf_" + f.pick(ALNUM, 34)))
    add(lambda: (lambda k: (f'from huggingface_hub import login; login(token="{k}")', [k]))("hf_" + f.pick(ALNUM, 34)))
    add(lambda: (lambda k: (f"wandb.login(key='{k}')", [k]))(f.hex(40)))
    add(lambda: (lambda k: (f"comet: COMET_API_KEY={k}", [k]))(f.pick(ALNUM, 25)))
    # docker
    add(lambda: (lambda pw: (f"docker login -p {pw} -u ci registry.example.com", [pw]))(p()))
    add(lambda: (lambda pw: (f"docker login --password '{pw}' --username ci", [pw]))(p()))
    add(lambda: (lambda k: (f"docker login -u $oauthtoken -p {k} nvcr.io", [k]))(f.pick(B64, 84)))
    add(lambda: (lambda pw: (f"podman login -u bot -p {pw} quay.io", [pw]))(p()))
    # cloud CLIs
    add(lambda: (lambda k: (f"aws_secret_access_key={k}", [k]))(f.pick(B64, 40)))
    add(
        lambda: (
            lambda k: (
                f"aws configure\nAWS Access Key ID [None]: AKIA{f.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\nAWS Secret Access Key [None]: {k}",
                [k],
            )
        )(f.pick(B64, 40))
    )
    add(
        lambda: (lambda pw: (f"az login --service-principal --username app --password {pw} --tenant t", [pw]))(
            f.pick(ALNUM + "~.", 5) + "8Q~" + f.pick(ALNUM + "_~.-", 31)
        )
    )
    add(
        lambda: (lambda k: (f"AZURE_CLIENT_SECRET={k}", [k]))(
            f.pick(ALNUM + "~.", 5) + "8Q~" + f.pick(ALNUM + "_~.-", 31)
        )
    )
    add(
        lambda: (
            lambda k: (
                f'  "private_key": "{k}",\n  "client_email": "sa@p.iam.gserviceaccount.com"',
                [k.split("\\n")[3]],
            )
        )(f.pem("PRIVATE KEY").replace("\n", "\\n"))
    )
    add(lambda: (lambda k: (f"gcloud config set api_key {k}", [k]))("AIza" + f.pick(URLSAFE, 35)))
    # exports
    add(
        lambda: (lambda k: (f"export OPENAI_API_KEY={k}", [k]))(
            "sk-proj-" + f.pick(URLSAFE, 58) + "T3BlbkFJ" + f.pick(URLSAFE, 58)
        )
    )
    add(lambda: (lambda k: (f"export GROQ_API_KEY='{k}'", [k]))("gsk_" + f.pick(ALNUM, 52)))
    add(lambda: (lambda k: (f"curl https://api.perplexity.ai -H 'x-key: {k}'", [k]))("pplx-" + f.pick(ALNUM, 48)))
    add(lambda: (lambda k: (f"MISTRAL_API_KEY={k}", [k]))(f.pick(ALNUM, 32)))
    add(lambda: (lambda k: (f"export TOGETHER_API_KEY={k}", [k]))(f.hex(64)))
    add(lambda: (lambda k: (f"export CO_API_KEY={k}", [k]))(f.pick(ALNUM, 40)))
    add(lambda: (lambda k: (f"ngrok authtoken {k}", [k]))(f.pick(ALNUM, 27) + "_" + f.pick(ALNUM, 21)))
    add(lambda: (lambda k: (f"twine upload --password {k} dist/*", [k]))("pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 100)))
    # provider shapes
    add(lambda: (lambda k: (f"GITHUB_TOKEN: {k}", [k]))("ghs_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"gitlab token {k}", [k]))("glpat-" + f.pick(URLSAFE, 20)))
    add(lambda: (lambda k: (f"shopify {k}", [k]))("shpss_" + f.hex(32)))
    add(lambda: (lambda k: (f"LINEAR_API_KEY={k}", [k]))("lin_api_" + f.pick(ALNUM, 40)))
    add(lambda: (lambda k: (f"doppler token {k}", [k]))("dp.pt." + f.pick(ALNUM, 43)))
    add(lambda: (lambda k: (f"vault login {k}", [k]))("hvs." + f.pick(URLSAFE, 95)))
    add(lambda: (lambda k: (f"DATABRICKS_TOKEN={k}", [k]))("dapi" + f.hex(32)))
    add(lambda: (lambda k: (f"SENTRY_AUTH_TOKEN={k}", [k]))("sntryu_" + f.hex(64)))
    add(lambda: (lambda k: (f"x-api-key: {k}", [k]))("PMAK-" + f.hex(24) + "-" + f.hex(34)))
    add(lambda: (lambda k: (f"# {k}", [k]))("AGE-SECRET-KEY-1" + f.pick("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)))
    add(lambda: (lambda k: (f"pulumi token {k}", [k]))("pul-" + f.hex(40)))
    add(lambda: (lambda k: (f"GRAFANA_TOKEN={k}", [k]))("glsa_" + f.pick(ALNUM, 32) + "_" + f.hex(8)))
    add(lambda: (lambda k: (f"//npm.pkg.github.com/:_authToken={k}", [k]))("ghp_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"stripe key {k}", [k]))("sk_live_" + f.pick(ALNUM, 99)))
    add(lambda: (lambda k: (f"Authorization: JWT {k}", [k]))(f.jwt()))
    add(lambda: (lambda k: (f"notion {k}", [k]))("ntn_" + f.pick("0123456789", 11) + f.pick(ALNUM, 35)))
    add(lambda: (lambda k: (f"netlify deploy --auth {k}", [k]))("nfp_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"FLY_API_TOKEN={k}", [k]))("fo1_" + f.pick(URLSAFE, 43)))
    add(lambda: (lambda k: (f"supabase login --token {k}", [k]))("sbp_" + f.hex(40)))
    add(lambda: (lambda k: (f"planetscale {k}", [k]))("pscale_tkn_" + f.pick(URLSAFE, 43)))
    add(lambda: (lambda k: (f"rubygems {k}", [k]))("rubygems_" + f.hex(48)))
    add(lambda: (lambda k: (f"alibaba id {k}", [k]))("LTAI" + f.pick(ALNUM, 20)))
    add(lambda: (lambda k: (f"openshift token {k}", [k]))("sha256~" + f.pick(URLSAFE, 43)))
    add(lambda: (lambda k: (f"prefect cloud login -k {k}", [k]))("pnu_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"terraform token {k}", [k]))(f.pick(LOWER, 14) + ".atlasv1." + f.pick(URLSAFE, 67)))
    add(lambda: (lambda k: (f"dynatrace {k}", [k]))("dt0c01." + f.pick(UPPER, 24) + "." + f.pick(UPPER, 64)))
    add(lambda: (lambda k: (f"sendinblue {k}", [k]))("xkeysib-" + f.hex(64) + "-" + f.pick(ALNUM, 16)))
    add(lambda: (lambda k: (f"mailgun api_key=key-{k}", [k]))(f.hex(32)))
    add(lambda: (lambda k: (f"1password {k}", [k]))("ops_eyJ" + f.pick(ALNUM, 260)))
    add(lambda: (lambda k: (f"heroku {k}", [k]))("HRKU-AA" + f.pick(URLSAFE, 58)))
    add(lambda: (lambda k: (f"cloudflare origin key {k}", [k]))("v1.0-" + f.hex(24) + "-" + f.hex(146)))
    # keys introduced by words
    add(lambda: (lambda k: (f"My private key is {k}", [k]))(f.eth_key()))
    add(lambda: (lambda k: (f"private key: 0x{k}", [k]))(f.eth_key()))
    add(lambda: (lambda k: (f"this is my metamask private key {k} i need help", [k]))(f.eth_key()))
    add(lambda: (lambda pw: (f"The password is: {pw}", [pw]))(p()))
    add(lambda: (lambda pw: (f"my password was {pw} yesterday", [pw]))(p()))
    add(lambda: (lambda pw: (f"pw: {pw}", [pw]))(p()))
    add(lambda: (lambda k: (f"my api key is {k}", [k]))(f.pick(ALNUM, 40)))
    add(lambda: (lambda k: (f"the token is {k}", [k]))(f.pick(URLSAFE, 36)))
    add(lambda: (lambda k: (f"Secret: {k}", [k]))(f.pick(ALNUM, 32)))
    add(lambda: (lambda k: (f"access key {k}", [k]))(f.pick(B64, 40)))
    # Solana and other wallets
    add(lambda: (lambda k: (f"{k}", [k[1:-1]]))(f.solana_keypair_json()))
    add(lambda: (lambda k: (f"here is the keypair file content: {k}", [k[1:-1]]))(f.solana_keypair_json(spaced=True)))
    add(lambda: (lambda k: (f"my solana private key is {k}", [k]))(f.solana_keypair_b58()))
    add(lambda: (lambda k: (f'Keypair.fromSecretKey(bs58.decode("{k}"))', [k]))(f.solana_keypair_b58()))
    add(lambda: (lambda k: (f"{k}", [k]))(f.solana_keypair_b58()))
    add(lambda: (lambda k: (f"wif {k}", [k]))(f.wif()))
    add(lambda: (lambda k: (f"{k}", [k]))(f.xprv()))
    # PEM and seeds
    add(lambda: (lambda k: (f"{k}", [k.split("\n")[2]]))(f.pem("RSA PRIVATE KEY")))
    add(lambda: (lambda k: (f"key.pem:\n{k}", [k.split("\n")[4]]))(f.pem("ENCRYPTED PRIVATE KEY")))
    add(lambda: (lambda k: (f"{k}", [k.split("\n")[1]]))(f.pem("PGP PRIVATE KEY BLOCK")))
    add(lambda: (lambda k: (f"seed: {k}", [k]))(f.seed_phrase(24)))
    add(lambda: (lambda k: (f'mnemonic = "{k}"', [k]))(f.seed_phrase(12)))
    add(lambda: (lambda k: (f"{k}", [k]))(", ".join(f.seed_phrase(18).split())))
    # basic auth and signed URLs
    add(lambda: (lambda pw: (f"curl --user deploy:{pw} https://nexus/repo", [pw]))(p()))
    add(lambda: (lambda k: (f"git clone https://user:{k}@github.com/org/repo", [k]))("ghp_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda pw: (f"https://user:{pw}@host.example.com/path", [pw]))(f.pick(ALNUM, 16)))
    add(lambda: (lambda k: (f"kubectl create secret docker-registry regcred --docker-password={k}", [k]))(p()))
    add(lambda: (lambda k: (f"GET /ckpt.pt?X-Amz-Credential=AKIA%2F&X-Amz-Signature={k}", [k]))(f.hex(64)))
    # round 2 (after the first held-out measurements): shapes the first round did not cover
    add(lambda: (lambda k: (f'SENTRY_DSN="https://{k}@o45.ingest.us.sentry.io/77"', [k]))(f.hex(32)))
    add(lambda: (lambda k: (f"dsn: https://{k}@sentry.example.com/3", [k]))(f.hex(32)))
    add(lambda: (lambda pw: (f"jdbc:mysql://db/app?user=root&password={pw}&useSSL=false", [pw]))(p()))
    add(lambda: (lambda pw: (f"Password for user app: {pw}", [pw]))(p()))
    add(lambda: (lambda pw: (f"Enter password: {pw}", [pw]))(p()))
    add(lambda: (lambda k: (f"export AWS_SESSION_TOKEN={k}", [k]))("IQoJb3JpZ2luX2VjE" + f.pick(B64, 180)))
    add(lambda: (lambda k: (f'az storage container list --account-key "{k}"', [k]))(f.pick(B64, 86) + "=="))
    add(
        lambda: (lambda k: (f"{k}\n(that is the output of gcloud auth print-access-token)", [k]))(
            "ya29." + f.pick(URLSAFE, 120)
        )
    )
    add(lambda: (lambda k: (f"helm registry login -u me -p {k} ghcr.io", [k]))("ghp_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"gh auth login --with-token <<< '{k}'", [k]))("gho_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"privkey {k}", [k]))(f.eth_key()))
    add(lambda: (lambda k: (f"it's 0x{k} (the key)", [k]))(f.eth_key()))
    add(lambda: (lambda pw: (f"user: root, pass {pw}", [pw]))(p()))
    add(lambda: (lambda pw: (f"login admin / {pw}", [pw]))(p()))
    add(lambda: (lambda k: (f'$env:HF_TOKEN = "{k}"', [k]))(f.pick(ALNUM, 37)))
    add(lambda: (lambda k: (f"set -gx ANTHROPIC_KEY {k}", [k]))(f.pick(URLSAFE, 40) + "9"))
    add(lambda: (lambda k: (f"setx OPENAI_API_KEY {k}", [k]))(f.pick(ALNUM, 48)))
    add(lambda: (lambda k: (f"-H 'X-Api-Key: {k}'", [k]))(f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"body: grant_type=client_credentials&client_secret={k}", [k]))(f.pick(URLSAFE, 40)))
    add(lambda: (lambda k: (f'{{ "accessToken": "{k}" }}', [k]))(f.pick(ALNUM, 40)))
    add(lambda: (lambda k: (f"runpod api key {k}", [k]))(f.pick(UPPER, 32)))
    add(
        lambda: (lambda k: (f"POST https://discord.com/api/webhooks/{f.pick('0123456789', 19)}/{k}", [k]))(
            f.pick(URLSAFE, 68)
        )
    )
    add(lambda: (lambda k: (f"http://localhost:8888/tree?token={k}", [k]))(f.hex(48)))
    add(lambda: (lambda k: (f"the jupyter token was {k}", [k]))(f.hex(48)))
    add(lambda: (lambda k: (f'export DEEPSEEK_KEY="{k}"', [k]))("sk-" + f.hex(32)))
    add(lambda: (lambda k: (f"DEEPSEEK_API_KEY: {k}", [k]))("sk-" + f.hex(32)))
    add(lambda: (lambda k: (f"solana keypair:\n{k}", [k]))(f.solana_keypair_json()[1:-1]))
    add(lambda: (lambda k: (f"rclone: secret_access_key = {k}", [k]))(f.pick(B64, 40)))
    add(lambda: (lambda k: (f"Token: {k}", [k]))("hf_" + f.pick(ALNUM, 34)))
    return t


def negatives(f: Fakes) -> list[str]:
    t: list[str] = []

    def add(build) -> None:
        for _ in range(3):
            t.append(build())

    add(lambda: f"0x{f.hex(64)}")
    add(lambda: f"txid: {f.hex(64)}")
    add(lambda: f"sha256: {f.hex(64)}")
    add(lambda: f"{f.hex(64)} *weights.bin")
    add(lambda: f"git checkout {f.hex(40)}")
    add(lambda: f"merge {f.hex(12)}..{f.hex(12)}")
    add(lambda: f'revision="{f.hex(40)}"')
    add(
        lambda: (
            f"model: {f.choice(['google/gemma-2-9b-it', 'stabilityai/stable-diffusion-xl-base-1.0', 'openai/whisper-large-v3', 'deepseek-ai/DeepSeek-R1-Distill-Qwen-32B'])}"
        )
    )
    add(lambda: f"uuid={f.uuid()}")
    add(lambda: f"{f.uuid()}")
    add(lambda: f"address: {f.solana_address()}")
    add(lambda: f"Signature: {f.solana_signature()}")
    add(lambda: f"{f.btc_address()}")
    add(lambda: f"0x{f.hex(40)}")
    add(lambda: f"image: ghcr.io/org/app@sha256:{f.hex(64)}")
    add(lambda: f"docker run -p {f.rng.randint(1000, 9999)}:80 nginx")
    add(
        lambda: (
            "CUDA error: device-side assert triggered\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."
        )
    )
    add(lambda: "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system error")
    add(
        lambda: (
            "|  GPU  Name        Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n|  0  NVIDIA A100-SXM4-80GB  On | 00000000:07:00.0 Off | 0 |"
        )
    )
    add(lambda: "ssh -i key.pem ubuntu@host")
    add(lambda: "--key-file ./service-account.json")
    add(
        lambda: (
            '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1532, in _wrapped_call_impl'
        )
    )
    add(lambda: f"tokens: {f.rng.randint(100, 100000)}")
    add(lambda: "password reset e-mail never arrived")
    add(lambda: f"--hash=sha256:{f.hex(64)} \\")
    add(lambda: f"Qm{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)}")
    add(lambda: f"https://wandb.ai/{f.pick(LOWER, 6)}/proj/runs/{f.pick(LOWER, 8)}")
    add(lambda: "password: ${DB_PASSWORD}")
    add(lambda: "token = os.getenv('HF_TOKEN')")
    add(lambda: f"base64: {f.pick(B64, 80)}")
    add(lambda: f"epoch {f.rng.randint(1, 100)} loss=0.{f.rng.randint(100, 999)}")
    add(lambda: "mysql -u root -p\nEnter password: ")
    add(lambda: f"torchrun --nproc_per_node={f.choice([2, 4, 8])} train.py --model meta-llama/Llama-3.2-1B")
    add(lambda: f"Order R-{f.pick(UPPER, 6)}")
    add(lambda: f"the file is {f.pick(LOWER, 10)}.key")
    add(lambda: f"input_ids: tensor([[{', '.join(str(f.rng.randint(1000, 32000)) for _ in range(16))}]])")
    add(lambda: f"[{', '.join(str(f.rng.randint(0, 255)) for _ in range(12))}]")
    add(lambda: f"etag {f.hex(32)}")
    add(lambda: f"X-Request-Id: {f.uuid()}")
    add(lambda: "The recovery phrase is stored offline; I will not send it.")
    add(lambda: f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{f.pick(B64, 300)} me@host")
    add(lambda: f"SHA256:{f.pick(B64, 43)}")
    add(lambda: "We need to rent GPUs for a week to fine-tune a vision model on medical images.")
    add(lambda: f"apt-get install -y cuda-toolkit-12-{f.rng.randint(0, 6)}")
    add(lambda: f"Bearer token expired at {f.rng.randint(10, 23)}:00 UTC, how do I refresh it?")
    add(lambda: "api_key=YOUR_API_KEY")
    add(lambda: "secret_key = get_random_secret_key()")
    add(lambda: "sk-... is how OpenAI keys start; mine is in the vault")
    # round 2 negatives
    add(lambda: "Enter password for new role: (hidden)\nEnter it again:")
    add(lambda: f"login ok / session {f.pick(LOWER, 8)}")
    add(lambda: f"https://{f.pick(LOWER, 6)}.example.com/docs/api-keys#rotate")
    add(lambda: f"ref: https://sentry.io/organizations/acme/issues/{f.rng.randint(10**6, 10**7)}/")
    add(lambda: f"runpod pod id {f.pick(LOWER, 14)}")
    add(lambda: f"setx CUDA_VISIBLE_DEVICES {f.rng.randint(0, 7)}")
    add(lambda: '$env:PYTHONPATH = "C:\\work\\src"')
    add(lambda: "Permission denied, please try again.\nuser@host's password:")
    add(lambda: f"git log --oneline | head\n{f.hex(7)} fix\n{f.hex(7)} add")
    add(lambda: f"[{', '.join(str(f.rng.randint(0, 255)) for _ in range(64))}] pixel row of the test image")
    return t


def main() -> None:
    fakes = Fakes(seed=151)
    # written before texts had to be unique (it repeats some); its committed files must stay as they are
    check_and_write(OUT, "t", positives(fakes), negatives(fakes), distinct=False)


if __name__ == "__main__":
    main()

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the HELD-OUT part of the redaction corpus (`heldout/*.jsonl`). Written and committed before any pattern
was changed for recall; never used to tune patterns. Run once: `.venv/bin/python -m
tests.data.redaction_corpus.build_heldout`; its output is committed, so the corpus does not move.

Positive samples: realistic support text with fake secrets in the shapes of the gitleaks / trufflehog /
detect-secrets rules and of real command lines; each lists the secrets that must disappear. Negative samples:
text that must come back unchanged (hashes, ids, addresses, logs).
"""

from __future__ import annotations

from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, HEX, LOWER, UPPER, URLSAFE, Fakes

OUT = Path(__file__).resolve().parent / "heldout"


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    p = f.password
    t: list = []

    def add(build) -> None:
        for _ in range(4):
            text, secrets = build()
            t.append((text, secrets))

    # database clients and URIs
    add(
        lambda s=None: (
            lambda pw: (
                f'$ psql "postgresql://trainer:{pw}@10.2.0.7:5432/metrics?sslmode=require"\npsql: error: connection refused',
                [pw],
            )
        )(p())
    )
    add(lambda: (lambda pw: (f"mysql -h db.internal -u root -p{pw} experiments < dump.sql", [pw]))(p()))
    add(
        lambda: (lambda pw: (f"I ran `mysqldump --user=admin --password={pw} --all-databases` and it hangs", [pw]))(p())
    )
    add(
        lambda: (
            lambda pw: (
                f"mongosh \"mongodb+srv://ml_user:{pw}@cluster0.ab1cd.mongodb.net/runs\" --eval 'db.stats()'",
                [pw],
            )
        )(p())
    )
    add(lambda: (lambda pw: (f"PGPASSWORD={pw} pg_dump -h 127.0.0.1 -U postgres shop > backup.sql", [pw]))(p()))
    add(
        lambda: (
            lambda pw: (
                f"redis-cli -h 10.0.0.12 -p 6379 -a {pw} ping\nWarning: Using a password with '-a' option",
                [pw],
            )
        )(p())
    )
    # ssh and friends
    add(
        lambda: (
            lambda pw: (f"sshpass -p '{pw}' ssh -o StrictHostKeyChecking=no ubuntu@203.0.113.40 nvidia-smi", [pw])
        )(p())
    )
    add(lambda: (lambda pw: (f"sshpass -p {pw} scp -P 2222 model.safetensors root@gpu-7:/data/", [pw]))(p()))
    # ML tool logins
    add(
        lambda: (lambda k: (f"wandb login {k}\nwandb: Appending key for api.wandb.ai to your netrc file", [k]))(
            f.hex(40)
        )
    )
    add(
        lambda: (lambda k: (f"root@box:~# huggingface-cli login --token {k} --add-to-git-credential", [k]))(
            "hf_" + f.pick(ALNUM, 34)
        )
    )
    add(lambda: (lambda k: (f"!hf auth login --token {k}", [k]))("hf_" + f.pick(ALNUM, 34)))
    add(lambda: (lambda k: (f"os.environ['WANDB_API_KEY'] = '{k}'", [k]))(f.hex(40)))
    # docker / registries
    add(
        lambda: (
            lambda pw: (
                f"docker login -u deploybot -p {pw} registry.gitlab.com\nWARNING! Using --password via the CLI is insecure.",
                [pw],
            )
        )(p())
    )
    add(
        lambda: (lambda k: (f"echo {k} | docker login ghcr.io -u octo --password-stdin", [k]))(
            "ghp_" + f.pick(ALNUM, 36)
        )
    )
    add(lambda: (lambda pw: (f"docker login --username=me --password={pw} nvcr.io", [pw]))(p()))
    add(lambda: (lambda k: (f"docker login nvcr.io -u '$oauthtoken' -p {k}", [k]))(f.pick(B64, 84)))
    # cloud CLIs
    add(lambda: (lambda k: (f"aws configure set aws_secret_access_key {k} --profile train", [k]))(f.pick(B64, 40)))
    add(
        lambda: (
            lambda a, k: (
                f"export AWS_ACCESS_KEY_ID={a}\nexport AWS_SECRET_ACCESS_KEY={k}\naws s3 ls s3://ckpts",
                [a, k],
            )
        )("AKIA" + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), f.pick(B64, 40))
    )
    add(
        lambda: (
            lambda pw: (
                f"az login --service-principal -u 0d3c6f1e-2a4b-4c8d-9e0f-1a2b3c4d5e6f -p {pw} --tenant contoso.onmicrosoft.com",
                [pw],
            )
        )(f.pick(ALNUM + "~.", 5) + "8Q~" + f.pick(ALNUM + "_~.-", 31))
    )
    add(
        lambda: (
            lambda k: (
                f'gcloud auth activate-service-account sa@proj.iam.gserviceaccount.com --key-file=key.json\n{{"type": "service_account", "private_key": "{k}"}}',
                [k.split("\\n")[2]],
            )
        )(f.pem("PRIVATE KEY").replace("\n", "\\n"))
    )
    add(lambda: (lambda k: (f"export GOOGLE_API_KEY={k}", [k]))("AIza" + f.pick(URLSAFE, 35)))
    # exports of provider keys
    add(
        lambda: (lambda k: (f'export OPENAI_API_KEY="{k}"', [k]))(
            "sk-proj-" + f.pick(URLSAFE, 74) + "T3BlbkFJ" + f.pick(URLSAFE, 74)
        )
    )
    add(
        lambda: (lambda k: (f"ANTHROPIC_API_KEY={k} python agent.py", [k]))(
            "sk-ant-api03-" + f.pick(URLSAFE, 93) + "AA"
        )
    )
    add(lambda: (lambda k: (f"export GROQ_API_KEY={k}", [k]))("gsk_" + f.pick(ALNUM, 52)))
    add(lambda: (lambda k: (f"PERPLEXITY_API_KEY={k}", [k]))("pplx-" + f.pick(ALNUM, 48)))
    add(lambda: (lambda k: (f"export REPLICATE_API_TOKEN={k}", [k]))("r8_" + f.pick(ALNUM, 37)))
    add(
        lambda: (lambda k: (f"export SLACK_BOT_TOKEN={k}", [k]))(
            f"xoxb-{f.pick('0123456789', 12)}-{f.pick('0123456789', 13)}-{f.pick(ALNUM, 24)}"
        )
    )
    add(lambda: (lambda k: (f"NGROK_AUTHTOKEN={k} ngrok http 7860", [k]))(f.pick(ALNUM, 27) + "_" + f.pick(ALNUM, 21)))
    add(lambda: (lambda k: (f"ngrok config add-authtoken {k}", [k]))(f.pick(ALNUM, 27) + "_" + f.pick(ALNUM, 21)))
    add(
        lambda: (lambda k: (f"twine upload -u __token__ -p {k} dist/*", [k]))(
            "pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 120)
        )
    )
    # provider shapes from the published rule sets, in logs and configs
    add(
        lambda: (lambda k: (f"remote: Invalid username or token. Used {k}\nfatal: Authentication failed", [k]))(
            "gho_" + f.pick(ALNUM, 36)
        )
    )
    add(lambda: (lambda k: (f"  token: {k}  # gitlab runner", [k]))("glrt-" + f.pick(URLSAFE, 20)))
    add(lambda: (lambda k: (f"SHOPIFY_TOKEN={k}", [k]))("shpat_" + f.hex(32)))
    add(lambda: (lambda k: (f"linear key {k}", [k]))("lin_api_" + f.pick(ALNUM, 40)))
    add(lambda: (lambda k: (f"DOPPLER_TOKEN={k} doppler run -- python train.py", [k]))("dp.pt." + f.pick(ALNUM, 43)))
    add(lambda: (lambda k: (f"VAULT_TOKEN={k} vault kv get secret/train", [k]))("hvs." + f.pick(URLSAFE, 95)))
    add(lambda: (lambda k: (f"databricks configure --token\nToken: {k}", [k]))("dapi" + f.hex(32)))
    add(lambda: (lambda k: (f"sentry-cli --auth-token {k} releases new v1", [k]))("sntryu_" + f.hex(64)))
    add(lambda: (lambda k: (f"postman api key: {k}", [k]))("PMAK-" + f.hex(24) + "-" + f.hex(34)))
    add(lambda: (lambda k: (f"age key {k}", [k]))("AGE-SECRET-KEY-1" + f.pick("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)))
    add(lambda: (lambda k: (f"pulumi login with PULUMI_ACCESS_TOKEN={k}", [k]))("pul-" + f.hex(40)))
    add(lambda: (lambda k: (f"grafana: {k}", [k]))("glsa_" + f.pick(ALNUM, 32) + "_" + f.hex(8)))
    add(lambda: (lambda k: (f"npm config set //registry.npmjs.org/:_authToken {k}", [k]))("npm_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"stripe listen --api-key {k}", [k]))("rk_live_" + f.pick(ALNUM, 99)))
    add(lambda: (lambda k: (f"Cookie: session={k}; csrftoken=abc", [k]))(f.jwt()))
    # keys introduced by words
    add(
        lambda: (lambda k: (f"my private key is 0x{k}, can you check why the deposit did not arrive?", [k]))(
            f.eth_key()
        )
    )
    add(lambda: (lambda k: (f"Here is my wallet private key {k} please refund to it", [k]))(f.eth_key()))
    add(lambda: (lambda pw: (f"the password is {pw} for the jupyter", [pw]))(p()))
    add(lambda: (lambda pw: (f"I set the root password to {pw} but ssh still says permission denied", [pw]))(p()))
    add(lambda: (lambda k: (f"my api key: {k}", [k]))(f.pick(ALNUM, 32)))
    add(
        lambda: (lambda k: (f"use this token {k} to pull the private repo", [k]))(
            "github_pat_" + f.pick(ALNUM, 22) + "_" + f.pick(ALNUM, 59)
        )
    )
    add(lambda: (lambda k: (f"secret key = {k}", [k]))(f.pick(ALNUM, 40)))
    # Solana keypairs and other wallet keys
    add(
        lambda: (lambda k: (f"solana config set --keypair ~/.config/solana/id.json\n$ cat id.json\n{k}", [k[1:-1]]))(
            f.solana_keypair_json()
        )
    )
    add(lambda: (lambda k: (f"my phantom private key {k}", [k]))(f.solana_keypair_b58()))
    add(
        lambda: (lambda k: (f"keypair = Keypair.from_bytes(bytes({k}))", [k[1:-1]]))(f.solana_keypair_json(spaced=True))
    )
    add(
        lambda: (lambda k: (f"PRIVATE_KEY={k}\nRPC_URL=https://api.mainnet-beta.solana.com", [k]))(
            f.solana_keypair_b58()
        )
    )
    add(lambda: (lambda k: (f'bitcoin-cli importprivkey {k} "rig" false', [k]))(f.wif()))
    add(lambda: (lambda k: (f"Electrum exported: {k}", [k]))(f.xprv()))
    # PEM blocks and seed phrases
    add(lambda: (lambda k: (f"cat ~/.ssh/id_ed25519\n{k}", [k.split("\n")[3]]))(f.pem("OPENSSH PRIVATE KEY")))
    add(lambda: (lambda k: (f"the tls key:\n{k}\nnginx -t fails", [k.split("\n")[2]]))(f.pem("EC PRIVATE KEY", 4)))
    add(lambda: (lambda k: (f"my seed phrase is {k}", [k]))(f.seed_phrase(12)))
    add(
        lambda: (lambda k: (f"recovery words:\n{k}", [k]))(
            "\n".join(f"{n}. {w}" for n, w in enumerate(f.seed_phrase(24).split(), 1))
        )
    )
    # basic auth and signed URLs
    add(lambda: (lambda pw: (f"curl -u admin:{pw} https://grafana.internal/api/health", [pw]))(p()))
    add(
        lambda: (lambda k: (f"git remote set-url origin https://oauth2:{k}@gitlab.com/team/llm.git", [k]))(
            "glpat-" + f.pick(URLSAFE, 20)
        )
    )
    add(
        lambda: (lambda pw: (f"pip install --index-url https://__token__:{pw}@pypi.internal/simple/ mypkg", [pw]))(
            f.pick(ALNUM, 24)
        )
    )
    add(lambda: (lambda k: (f"kubectl create secret generic db --from-literal=password={k}", [k]))(p()))
    return t


def negatives(f: Fakes) -> list[str]:
    t: list[str] = []

    def add(build) -> None:
        for _ in range(4):
            t.append(build())

    add(lambda: f"tx 0x{f.hex(64)} is confirmed on Ethereum, 12 confirmations")
    add(lambda: f"bitcoin txid {f.hex(64)} shows 0 confirmations after an hour")
    add(lambda: f"{f.hex(64)}  Llama-3-8B-Instruct.Q4_K_M.gguf")
    add(lambda: f"sha256sum model.safetensors\n{f.hex(64)}  model.safetensors")
    add(lambda: f"commit {f.hex(40)}\nAuthor: Ada <ada@example.com>\n\n    fix loss scaling")
    add(lambda: f"HEAD is now at {f.hex(7)} bump vllm to 0.6.3")
    add(
        lambda: (
            f'model_id = "{f.choice(["meta-llama/Llama-3-8B", "mistralai/Mistral-7B-Instruct-v0.3", "Qwen/Qwen2.5-72B-Instruct", "black-forest-labs/FLUX.1-dev"])}"'
        )
    )
    add(lambda: f"order {f.uuid()} still says preparing")
    add(lambda: f"request id: {f.uuid()}, trace {f.hex(32)}")
    add(lambda: f"I paid to {f.solana_address()} but the page shows unpaid")
    add(lambda: f"solana signature {f.solana_signature()} finalized")
    add(lambda: f"refund address {f.btc_address()}")
    add(lambda: f"from 0x{f.hex(40)} to 0x{f.hex(40)} value 25 USDC")
    add(lambda: f"nvcr.io/nvidia/pytorch@sha256:{f.hex(64)}")
    add(lambda: "docker run --gpus all -p 8888:8888 -v /data:/data pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime")
    add(
        lambda: (
            "RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call"
        )
    )
    add(
        lambda: (
            f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {f.rng.randint(1, 40)}.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.2 GiB is free."
        )
    )
    add(
        lambda: (
            "| NVIDIA-SMI 550.54.15    Driver Version: 550.54.15    CUDA Version: 12.4 |\n|   0  NVIDIA H100 80GB HBM3    On  | 00000000:18:00.0 Off |    0 |"
        )
    )
    add(lambda: f"ssh -i ~/.ssh/id_ed25519 -p {f.rng.randint(2000, 40000)} ubuntu@203.0.113.{f.rng.randint(2, 250)}")
    add(lambda: "gcloud auth activate-service-account --key-file=/secrets/sa.json")
    add(
        lambda: (
            'Traceback (most recent call last):\n  File "train.py", line 88, in <module>\n    tokenizer = AutoTokenizer.from_pretrained(args.model, token=True)\nOSError: You are trying to access a gated repo.'
        )
    )
    add(lambda: f"max_new_tokens={f.rng.randint(64, 4096)}, temperature=0.7, top_p=0.9, pad_token_id=0")
    add(lambda: "Forgot password? The reset link in the e-mail says the token expired.")
    add(lambda: f"--hash=sha256:{f.hex(64)}")
    add(lambda: f"ipfs://Qm{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)}")
    add(lambda: f"wandb: View run at https://wandb.ai/team/llm/runs/{f.pick(LOWER, 8)}")
    add(lambda: f"https://huggingface.co/datasets/HuggingFaceFW/fineweb/resolve/{f.hex(40)}/data/train-00000.parquet")
    add(lambda: "export PASSWORD=$(cat /run/secrets/db_password)")
    add(lambda: 'password: "{{ vault_db_password }}"')
    add(lambda: f"data:image/png;base64,{f.pick(B64, 120)}")
    add(lambda: "NCCL WARN Net : No interface found in the same subnet as remote address 10.0.0.3<45313>")
    add(lambda: f"step {f.rng.randint(1, 9999)} | loss 2.31 | lr 3.0e-04 | grad_norm 0.87 | tokens/s 41233")
    add(lambda: "mysql -h db -P 3306 -u readonly -p experiments\nEnter password:")
    add(
        lambda: (
            f"python -m vllm.entrypoints.openai.api_server --model {f.choice(['meta-llama/Llama-3.1-70B-Instruct', 'Qwen/Qwen2-VL-7B'])} --tensor-parallel-size 4"
        )
    )
    add(
        lambda: (
            f"pip install flash-attn=={f.rng.randint(1, 2)}.{f.rng.randint(0, 7)}.{f.rng.randint(0, 9)} --no-build-isolation"
        )
    )
    add(lambda: f"Your order R-{f.pick(UPPER, 6)} of 2 x H100 for 7 days was paid.")
    add(lambda: "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: ${DB_PASSWORD}")
    add(lambda: f"the key is in /etc/ssl/private/server.key and the cert in /etc/ssl/certs/{f.pick(LOWER, 8)}.pem")
    add(lambda: f"token_type_ids shape torch.Size([{f.rng.randint(1, 64)}, 512])")
    add(lambda: f'ETag: "{f.hex(32)}"')
    add(lambda: f"x-request-id: {f.pick(HEX, 8)}-{f.pick(HEX, 4)}-{f.pick(HEX, 4)}-{f.pick(HEX, 4)}-{f.pick(HEX, 12)}")
    add(lambda: f"md5 {f.hex(32)}  dataset.tar")
    add(
        lambda: (
            f"checkpoint-{f.rng.randint(100, 90000)}/global_step{f.rng.randint(100, 90000)}/mp_rank_00_model_states.pt"
        )
    )
    add(lambda: "The private key never leaves my laptop; I only pasted the public one.")
    add(lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} ada@laptop")
    add(lambda: f"Fingerprint: SHA256:{f.pick(B64, 43)}")
    add(lambda: f"Keypair Path: /home/ada/.config/solana/id.json\nPublic key: {f.solana_address()}")
    add(lambda: "Summary: abandon hope is a phrase, not a seed; our model scored 0.82 on the eval")
    add(lambda: f"The quick brown fox jumps over the lazy dog while the GPU trains for {f.rng.randint(2, 30)} hours.")
    return t


def main() -> None:
    fakes = Fakes(seed=20261203)
    check_and_write(OUT, "h", positives(fakes), negatives(fakes), distinct=False)  # repeats written before the rule


if __name__ == "__main__":
    main()

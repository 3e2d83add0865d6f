# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the SECOND held-out part of the redaction corpus (`heldout2/*.jsonl`).

Written and committed after the first round of pattern changes and before the second, with wordings neither
the tuning part nor the first held-out part uses; never tuned on. Run once: `.venv/bin/python -m
tests.data.redaction_corpus.build_heldout2`; the output is committed.
"""

from __future__ import annotations

from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, HEX, LOWER, UPPER, URLSAFE, Fakes

OUT = Path(__file__).resolve().parent / "heldout2"


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    p = f.password
    t: list = []

    def add(build) -> None:
        for _ in range(3):
            text, secrets = build()
            t.append((text, secrets))

    add(lambda: (lambda pw: (f"jdbc:postgresql://db:5432/app?user=app&password={pw}", [pw]))(p()))
    add(lambda: (lambda pw: (f"DATABASE_URL=mysql://root:{pw}@127.0.0.1:3306/app", [pw]))(p()))
    add(lambda: (lambda pw: (f"psql -h db -U postgres -W\nPassword for user postgres: {pw}", [pw]))(p()))
    add(lambda: (lambda pw: (f'mysql -u admin --password="{pw}" -h 10.0.3.3', [pw]))(p()))
    add(lambda: (lambda pw: (f'mongodump --uri="mongodb://backup:{pw}@mongo-0:27017" --out /tmp/d', [pw]))(p()))
    add(lambda: (lambda pw: (f"rclone config create s3 s3 secret_access_key {pw}", [pw]))(f.pick(B64, 40)))
    add(lambda: (lambda pw: (f"sshpass -p{pw} ssh -p 2200 root@198.51.100.7", [pw]))(p()))
    add(lambda: (lambda k: (f"WANDB_API_KEY: {k}", [k]))(f.hex(40)))
    add(lambda: (lambda k: (f"wandb login {k} --host https://wandb.corp", [k]))(f.hex(40)))
    add(lambda: (lambda k: (f"HUGGING_FACE_HUB_TOKEN={k} python dl.py", [k]))("hf_" + f.pick(ALNUM, 34)))
    add(lambda: (lambda k: (f"huggingface-cli login\nToken: {k}\nLogin successful", [k]))("hf_" + f.pick(ALNUM, 34)))
    add(lambda: (lambda pw: (f"docker login registry.example.com --username ci --password {pw}", [pw]))(p()))
    add(
        lambda: (lambda k: (f'echo "{k}" | helm registry login ghcr.io --username bot --password-stdin', [k]))(
            "ghp_" + f.pick(ALNUM, 36)
        )
    )
    add(
        lambda: (
            lambda k: (
                f"aws_access_key_id = AKIA{f.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\naws_secret_access_key = {k}",
                [k],
            )
        )(f.pick(B64, 40))
    )
    add(lambda: (lambda k: (f"AWS_SESSION_TOKEN={k}", [k]))("IQoJb3JpZ2luX2VjE" + f.pick(B64, 200)))
    add(lambda: (lambda k: (f"az storage blob upload --account-key {k} -f x -c c", [k]))(f.pick(B64, 86) + "=="))
    add(lambda: (lambda k: (f"gcloud auth print-access-token\n{k}", [k]))("ya29." + f.pick(URLSAFE, 150)))
    add(lambda: (lambda k: (f"export ANTHROPIC_API_KEY='{k}'", [k]))("sk-ant-api03-" + f.pick(URLSAFE, 93) + "AA"))
    add(lambda: (lambda k: (f'openai.api_key = "{k}"', [k]))("sk-" + f.pick(ALNUM, 48)))
    add(lambda: (lambda k: (f"export DEEPSEEK_API_KEY={k}", [k]))("sk-" + f.hex(32)))
    add(
        lambda: (lambda k: (f'curl -H "Authorization: Bearer {k}" https://api.groq.com/openai/v1/models', [k]))(
            "gsk_" + f.pick(ALNUM, 52)
        )
    )
    add(lambda: (lambda k: (f"STRIPE_SECRET_KEY={k}", [k]))("sk_test_" + f.pick(ALNUM, 99)))
    add(lambda: (lambda k: (f"GITLAB_TOKEN={k} glab mr list", [k]))("glpat-" + f.pick(URLSAFE, 20)))
    add(lambda: (lambda k: (f"gh auth login --with-token <<< {k}", [k]))("gho_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"DOCKERHUB_TOKEN={k}", [k]))("dckr_pat_" + f.pick(URLSAFE, 27)))
    add(lambda: (lambda k: (f"NGC_API_KEY={k}", [k]))("nvapi-" + f.pick(URLSAFE, 64)))
    add(lambda: (lambda k: (f"vast.ai api key: {k}", [k]))(f.hex(64)))
    add(lambda: (lambda k: (f"runpodctl config --apiKey {k}", [k]))(f.pick(UPPER, 32)))
    add(lambda: (lambda k: (f"SENTRY_DSN=https://{k}@o123.ingest.sentry.io/456", [k]))(f.hex(32)))
    add(lambda: (lambda k: (f"telegram bot token {k}", [k]))(f"{f.pick('0123456789', 10)}:AA{f.pick(URLSAFE, 33)}"))
    add(
        lambda: (lambda k: (f"discord webhook https://discord.com/api/webhooks/{f.pick('0123456789', 18)}/{k}", [k]))(
            f.pick(URLSAFE, 68)
        )
    )
    add(
        lambda: (
            lambda k: (
                f"SLACK_WEBHOOK=https://hooks.slack.com/services/T{f.pick(UPPER, 8)}/B{f.pick(UPPER, 10)}/{k}",
                [k],
            )
        )(f.pick(ALNUM, 24))
    )
    add(lambda: (lambda k: (f"I think my key leaked, it's 0x{k}", [k]))(f.eth_key()))
    add(lambda: (lambda k: (f"privkey: {k}", [k]))(f.eth_key()))
    add(lambda: (lambda pw: (f"login: admin / password: {pw}", [pw]))(p()))
    add(lambda: (lambda pw: (f"user ubuntu, pass {pw}", [pw]))(p()))
    add(lambda: (lambda pw: (f"jupyter token is {pw}", [pw]))(f.hex(48)))
    add(lambda: (lambda k: (f"http://127.0.0.1:8888/lab?token={k}", [k]))(f.hex(48)))
    add(lambda: (lambda k: (f"my secret key is {k}", [k]))(f.pick(ALNUM, 32)))
    add(lambda: (lambda k: (f"solana-keygen recover\n[{k}]", [k]))(f.solana_keypair_json()[1:-1]))
    add(lambda: (lambda k: (f"exported from phantom: {k}", [k]))(f.solana_keypair_b58()))
    add(lambda: (lambda k: (f'SOLANA_PRIVATE_KEY="{k}"', [k[1:-1]]))(f.solana_keypair_json()))
    add(lambda: (lambda k: (f"dumpprivkey output: {k}", [k]))(f.wif()))
    add(lambda: (lambda k: (f"{k}", [k.split("\n")[2]]))(f.pem("OPENSSH PRIVATE KEY")))
    add(lambda: (lambda k: (f"```\n{k}\n```", [k.split("\n")[5]]))(f.pem("RSA PRIVATE KEY")))
    add(lambda: (lambda k: (f"12 words: {k}", [k]))(f.seed_phrase(12)))
    add(lambda: (lambda k: (f"mnemonic:\n{k}", [k]))("\n".join(f.seed_phrase(24).split())))
    add(lambda: (lambda pw: (f"git clone https://ada:{pw}@bitbucket.org/team/repo.git", [pw]))(f.pick(ALNUM, 20)))
    add(lambda: (lambda pw: (f"proxy=http://user:{pw}@proxy.corp:3128", [pw]))(p()))
    add(lambda: (lambda k: (f"https://storage.googleapis.com/b/o?X-Goog-Signature={k}", [k]))(f.hex(256)))
    add(lambda: (lambda k: (f"Authorization: token {k}", [k]))("ghp_" + f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f"X-API-Key: {k}", [k]))(f.pick(ALNUM, 40)))
    add(lambda: (lambda k: (f"client_secret={k}&grant_type=client_credentials", [k]))(f.pick(URLSAFE, 40)))
    add(lambda: (lambda k: (f'{{"apiKey": "{k}"}}', [k]))(f.pick(ALNUM, 32)))
    add(lambda: (lambda k: (f"set -x MY_TOKEN {k}", [k]))(f.pick(ALNUM, 36)))
    add(lambda: (lambda k: (f'$env:OPENAI_API_KEY="{k}"', [k]))("sk-proj-" + f.pick(URLSAFE, 60)))
    return t


def negatives(f: Fakes) -> list[str]:
    t: list[str] = []

    def add(build) -> None:
        for _ in range(3):
            t.append(build())

    add(lambda: f"Transaction hash: 0x{f.hex(64)}")
    add(lambda: f"blockhash {f.hex(64)}")
    add(lambda: f"Verified checksum {f.hex(64)} for cuda_12.4.1_550.54.15_linux.run")
    add(lambda: f"commit {f.hex(40)} (HEAD -> main, origin/main)")
    add(lambda: f"Successfully built {f.hex(12)}")
    add(
        lambda: (
            f'from_pretrained("{f.choice(["microsoft/Phi-3-mini-4k-instruct", "Qwen/Qwen2.5-Coder-7B", "sentence-transformers/all-MiniLM-L6-v2"])}")'
        )
    )
    add(lambda: f"job {f.uuid()} failed with exit code 137")
    add(lambda: f"wallet {f.solana_address()} received 12.5 USDC")
    add(lambda: f"Transaction {f.solana_signature()} confirmed in slot {f.rng.randint(10**8, 10**9)}")
    add(lambda: f"bc1q{f.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)}")
    add(lambda: f"USDT TRC20 to T{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 33)}")
    add(lambda: f"Digest: sha256:{f.hex(64)}\nStatus: Downloaded newer image for vllm/vllm-openai:latest")
    add(lambda: "CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`")
    add(
        lambda: (
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.11 GiB total capacity)"
        )
    )
    add(
        lambda: (
            f"| {f.rng.randint(0, 7)}  NVIDIA H200   On | 00000000:{f.pick(HEX, 2).upper()}:00.0 Off | 0 |\n| N/A   34C    P0   120W / 700W |  80512MiB / 143771MiB |  98%  Default |"
        )
    )
    add(lambda: "scp -P 2222 -i ~/.ssh/rent_ed25519 results.tar ubuntu@gpu:/tmp/")
    add(lambda: "Enter passphrase for key '/home/ada/.ssh/id_ed25519':")
    add(lambda: "Permission denied (publickey,password).")
    add(lambda: f"generation_config: max_length={f.rng.randint(128, 8192)} num_beams=4")
    add(lambda: "I forgot the password for the Jupyter and the token changed after restart")
    add(lambda: f"sha512-{f.pick(B64, 86)}==")
    add(lambda: f'integrity "sha512-{f.pick(B64, 86)}=="')
    add(lambda: f"https://github.com/huggingface/transformers/commit/{f.hex(40)}")
    add(lambda: "password_hash = make_password(raw)")
    add(lambda: "api_key: <your key here>")
    add(lambda: "HF_TOKEN=${{ secrets.HF_TOKEN }}")
    add(lambda: f"loss: {f.rng.random():.4f} - val_loss: {f.rng.random():.4f}")
    add(lambda: f"Run {f.pick(LOWER, 8)} finished in 3h 12m")
    add(lambda: f"invoice INV-{f.rng.randint(10000, 99999)} for 7 days of 8x H100")
    add(lambda: f"[{', '.join(str(f.rng.randint(0, 255)) for _ in range(32))}]")
    add(lambda: f"attention_mask: [{', '.join('1' for _ in range(64))}]")
    add(lambda: f"cuda:{f.rng.randint(0, 7)} memory allocated {f.rng.randint(1, 80)} GiB")
    add(lambda: "sk-... placeholder; set OPENAI_API_KEY in your shell")
    add(lambda: "openssl rand -hex 32 > /etc/app/secret.key")
    add(lambda: f"Your session expired, please log in again (ref {f.pick(UPPER, 10)})")
    add(lambda: f"Seed: {f.rng.randint(0, 2**31)}")
    add(lambda: f"torch.manual_seed({f.rng.randint(0, 9999)}); np.random.seed({f.rng.randint(0, 9999)})")
    add(lambda: f"ed25519 public key: {f.solana_address()}")
    add(lambda: f"Etherscan: https://etherscan.io/tx/0x{f.hex(64)}")
    add(lambda: f"key_padding_mask shape [{f.rng.randint(1, 16)}, 2048]")
    return t


def main() -> None:
    fakes = Fakes(seed=3122026)
    check_and_write(OUT, "h2", positives(fakes), negatives(fakes), distinct=False)  # repeats written before the rule


if __name__ == "__main__":
    main()

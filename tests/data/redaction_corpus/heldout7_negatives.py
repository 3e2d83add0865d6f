# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the seventh held-out part (see `build_heldout7.py`): support requests of GPU-rental customers full
of look-alikes that hold no secret — transaction hashes, signatures and addresses, checksums and digests, model
ids, UUIDs and request ids, stack traces, masked keys, placeholders and environment references, public keys and
certificates, prose about passwords and tokens, `-p` ports, key-file paths, token counts, and configs whose secret
fields are empty or templated. Each must come back from the redactor unchanged. Written with the positives by an
engineer who did not read the patterns.
"""

from __future__ import annotations

import base64
from collections.abc import Callable

from .fakes import ALNUM, B64, LOWER, Fakes
from .heldout5_negatives import wrap


def _chain(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: f"Paid 40 USDC on Base, tx hash 0x{f.hex(64)}, still no credit on my account after an hour",
        lambda: (
            f"Deposit sent from 0x{f.hex(40)} to your address 0x{f.hex(40)}, block {f.rng.randint(18_000_000, 21_000_000)}. Where is it?"
        ),
        lambda: f"Solana payment signature: {f.solana_signature()}\nfrom wallet {f.solana_address()}",
        lambda: f"El pago ya salió, hash de la transacción: 0x{f.hex(64)}. ¿Cuándo se acredita?",
        lambda: (
            f"Em đã chuyển USDT (TRC20), mã giao dịch {f.hex(64)}, ví nhận T{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 33)}"
        ),
        lambda: f"Ödeme yaptım, işlem hash'i 0x{f.hex(64)} — bakiye hâlâ sıfır.",
        lambda: f"refund please to my BTC address {f.btc_address()} (txid of the payment: {f.hex(64)})",
        lambda: (
            f"explorer shows status Success\nFrom: 0x{f.hex(40)}\nTo: 0x{f.hex(40)}\nInput data: 0xa9059cbb000000000000000000000000{f.hex(40)}{'0' * 54}{f.hex(10)}"
        ),
        lambda: f"Stripe receipt pi_{f.pick(ALNUM, 24)} charged twice, second is ch_{f.pick(ALNUM, 24)}",
        lambda: f"My Solana public key (address) is {f.solana_address()}, can you whitelist it for payouts?",
    ]


def _digests(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: (
            f"sha256sum llama-3-70b.Q4_K_M.gguf\n{f.hex(64)}  llama-3-70b.Q4_K_M.gguf\nthe checksum doesn't match HF's, is your disk corrupting files?"
        ),
        lambda: (
            f"docker pull pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel\nDigest: sha256:{f.hex(64)}\nStatus: Downloaded newer image"
        ),
        lambda: f"md5 of the shard: {f.hex(32)} on my laptop vs {f.hex(32)} on the instance",
        lambda: f"git log -1\ncommit {f.hex(40)}\nAuthor: Mai <mai@lab.example>\n\n    fix fp8 cast",
        lambda: (
            f"version https://git-lfs.github.com/spec/v1\noid sha256:{f.hex(64)}\nsize {f.rng.randint(10**8, 10**10)}\n(that's all I get instead of the weights)"
        ),
        lambda: (
            f"torch==2.5.1 --hash=sha256:{f.hex(64)}\nERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE."
        ),
        lambda: f'revision="{f.hex(40)}" pinned in from_pretrained, download still redownloads everything',
        lambda: f'ETag: "{f.hex(32)}-{f.rng.randint(2, 90)}" on the multipart upload, is that normal?',
        lambda: (
            f"ollama pull qwen2.5:32b\npulling {f.hex(12)}... 100% 19 GB\nverifying sha256 digest\nError: digest mismatch, expected sha256:{f.hex(64)}"
        ),
        lambda: f"integrity sha512-{f.pick(B64, 86)}== in package-lock for left-pad, npm ci says EINTEGRITY",
    ]


def _ids(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: f"Instance {f.uuid()} stuck in 'provisioning' for 40 minutes",
        lambda: f"Request id: req_{f.pick(ALNUM, 24)} — the API returned 500 when I tried to extend the rental",
        lambda: (
            f"nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})"
        ),
        lambda: (
            f"wandb: Syncing run {f.choice(['amber', 'misty', 'brisk'])}-{f.choice(['sun', 'river', 'pine'])}-{f.rng.randint(1, 400)}\nwandb: ⭐️ View run at https://wandb.ai/lab/ft/runs/{f.pick(LOWER, 8)}"
        ),
        lambda: f"x-request-id: {f.uuid()}\ntraceparent: 00-{f.hex(32)}-{f.hex(16)}-01\nthat's from the 502 page",
        lambda: f"pod/trainer-{f.pick(LOWER, 10)}-{f.pick(LOWER, 5)} CrashLoopBackOff, node gpu-{f.rng.randint(1, 40)}",
        lambda: (
            f"arn:aws:iam::{f.rng.randint(10**11, 10**12 - 1)}:role/gpurent-reader and bucket ckpt-{f.hex(8)}; access denied on HeadObject"
        ),
        lambda: (
            f"Order #{f.rng.randint(100000, 999999)}, invoice INV-{f.pick('0123456789ABCDEF', 10)}, session {f.uuid()}"
        ),
        lambda: f"Ray job raysubmit_{f.pick(ALNUM, 16)} failed: worker {f.hex(56)} died unexpectedly",
        lambda: f"Idempotency-Key: {f.uuid()} sent twice and both extensions got charged",
    ]


def _models(f: Fakes) -> list[Callable[[], str]]:
    models = [
        "meta-llama/Llama-3.1-70B-Instruct",
        "mistralai/Mixtral-8x7B-v0.1",
        "Qwen/Qwen2.5-72B-Instruct",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
        "stabilityai/stable-diffusion-xl-base-1.0",
        "black-forest-labs/FLUX.1-dev",
    ]
    return [
        lambda: (
            f"vllm serve {f.choice(models)} --tensor-parallel-size 4 --max-model-len 32768\nOOM on the second GPU, is 4x A100 40GB not enough?"
        ),
        lambda: (
            f"Processed prompts: 100% 1000/1000, input tokens: {f.rng.randint(10**5, 10**7)}, output tokens: {f.rng.randint(10**4, 10**6)}, {f.rng.randint(500, 4000)} tok/s — is that normal for an L40S?"
        ),
        lambda: (
            f'tokenizer.json says max_length 8192, pad_token_id 128004, bos_token "<|begin_of_text|>"; my finetune of {f.choice(models)} outputs garbage'
        ),
        lambda: (
            f'Traceback (most recent call last):\n  File "/workspace/train.py", line {f.rng.randint(20, 400)}, in <module>\n    model = AutoModelForCausalLM.from_pretrained("{f.choice(models)}")\nOSError: You are trying to access a gated repo. Make sure to have access and pass a token having permission to this repo.'
        ),
        lambda: (
            f"RuntimeError: CUDA error: an illegal memory access was encountered\nXid 79 on GPU 0000:{f.hex(2)}:00.0, fallen off the bus"
        ),
        lambda: f"KeyError: 'model.layers.{f.rng.randint(0, 79)}.self_attn.q_proj.weight' when loading the adapter",
        lambda: (
            f"NCCL WARN NET/IB : Got completion from peer {_ip(f)}<{f.rng.randint(30000, 60000)}> with error 12, opcode 0"
        ),
        lambda: (
            f"Model {f.choice(models)} used {f.rng.randint(2, 900)}k tokens of context budget yesterday; is there a cap on your side?"
        ),
    ]


def _ip(f: Fakes) -> str:
    return f"{f.rng.randint(40, 220)}.{f.rng.randint(1, 255)}.{f.rng.randint(1, 255)}.{f.rng.randint(2, 254)}"


def _masked(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: (
            f"aws configure list\n      Name                    Value             Type    Location\n   profile                <not set>             None    None\naccess_key     ****************{f.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 4)} shared-credentials-file\nsecret_key     ****************{f.pick(ALNUM, 4)} shared-credentials-file"
        ),
        lambda: (
            f"openai.AuthenticationError: Error code: 401 - Incorrect API key provided: sk-proj-****{f.pick(ALNUM, 4)}. You can find your API key at https://platform.openai.com/account/api-keys."
        ),
        lambda: (
            f"huggingface-cli whoami\nmai-lab\norgs: lab\n(token hf_****{f.pick(ALNUM, 4)} stored in /root/.cache/huggingface/token)"
        ),
        lambda: (
            'psql: error: connection to server at "10.0.0.4", port 5432 failed: FATAL:  password authentication failed for user "app"\nDSN in the log: postgres://app:********@10.0.0.4:5432/app'
        ),
        lambda: (
            "gh auth status\ngithub.com\n  ✓ Logged in to github.com account mai (keyring)\n  - Token: gho_************************************\n  - Token scopes: 'gist', 'read:org', 'repo'"
        ),
        lambda: 'Authorization: Bearer <redacted>\nresponse: 401 {"error":"invalid_token"}',
        lambda: f"the dashboard shows my key as sk-...{f.pick(ALNUM, 4)}, created 2026-11-02, last used never",
        lambda: "WANDB_API_KEY=*** (masked by CI)\nwandb: Currently logged in as: anonymous",
    ]


def _placeholders(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: (
            "docker login -u mlteam --password-stdin < ~/.docker/token.txt\nError saving credentials: error storing credentials - err: exit status 1"
        ),
        lambda: 'export OPENAI_API_KEY="$(cat /run/secrets/openai)"\npython eval.py → it\'s empty inside tmux, why?',
        lambda: f"mysql -h {_ip(f)} -u root -p\nEnter password:\nERROR 2003 (HY000): Can't connect to MySQL server",
        lambda: (
            'HF_TOKEN=${HF_TOKEN} docker compose up\nWARN[0000] The "HF_TOKEN" variable is not set. Defaulting to a blank string.'
        ),
        lambda: (
            "env:\n  - name: WANDB_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: wandb\n        key: api-key"
        ),
        lambda: (
            "# .env.example\nOPENAI_API_KEY=\nANTHROPIC_API_KEY=your-key-here\nDATABASE_URL=postgres://user:password@localhost:5432/db"
        ),
        lambda: "steps:\n  - run: huggingface-cli login --token ${{ secrets.HF_TOKEN }}\n  - run: python push.py",
        lambda: (
            "password: \"{{ vault_db_password }}\"\napi_key: \"{{ lookup('env', 'API_KEY') }}\"\n(ansible can't find the vault file on the instance)"
        ),
        lambda: (
            f"ssh -i ~/.ssh/id_ed25519 -p {f.rng.randint(20000, 40000)} root@{_ip(f)}\nroot@{_ip(f)}: Permission denied (publickey)."
        ),
        lambda: (
            f"docker run -d -p 8080:8080 -p {f.rng.randint(7000, 9999)}:{f.rng.randint(7000, 9999)} --gpus all ghcr.io/huggingface/text-generation-inference:2.4"
        ),
        lambda: (
            "gcloud auth activate-service-account --key-file=/secrets/sa.json\nERROR: (gcloud.auth.activate-service-account) Could not read json file /secrets/sa.json"
        ),
        lambda: "[client]\nuser = app\npassword =\nhost = 127.0.0.1\n(~/.my.cnf — why does it still prompt?)",
        lambda: "API_KEY=REPLACE_ME\nSECRET_KEY=changeme\nJWT_SECRET=<generate with openssl rand -hex 32>",
        lambda: "sshpass -f ~/.ssh/pass.txt ssh -o StrictHostKeyChecking=no ubuntu@gpu-07.rent.example uptime",
        lambda: "vault kv get -field=token secret/ci/hf\nError reading secret/data/ci/hf: permission denied",
        lambda: "redis-cli -h cache.internal --askpass\nPlease input password: \n(it just hangs after that)",
        lambda: (
            "token = os.environ[\"HF_TOKEN\"]\nKeyError: 'HF_TOKEN' — I set it in ~/.bashrc, the jupyter kernel doesn't see it"
        ),
        lambda: (
            "kubectl create secret generic hf --from-file=token=./hf_token.txt\nerror: error reading ./hf_token.txt: no such file or directory"
        ),
    ]


def _public(f: Fakes) -> list[Callable[[], str]]:
    def cert() -> str:
        body = "\n".join(f.pick(B64, 64) for _ in range(8))
        return f"this is the server cert, chain incomplete?\n-----BEGIN CERTIFICATE-----\n{body}\n{f.pick(B64, 24)}==\n-----END CERTIFICATE-----"

    def pub() -> str:
        body = "\n".join(f.pick(B64, 64) for _ in range(6))
        return f"public key for the webhook verification:\n-----BEGIN PUBLIC KEY-----\n{body}\n{f.pick(B64, 8)}\n-----END PUBLIC KEY-----"

    return [
        lambda: f"Please add my public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} mai@thinkpad",
        lambda: (
            f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{f.pick(B64, 300)} build@ci\n^ this is in authorized_keys but login still fails"
        ),
        lambda: f"The key fingerprint is SHA256:{f.pick(B64, 43)} root@gpu-07\nIs it safe to accept?",
        cert,
        pub,
        lambda: f"WireGuard peer\nPublicKey = {f.pick(B64, 43)}=\nEndpoint = {_ip(f)}:51820\nAllowedIPs = 10.8.0.0/24",
        lambda: f"gpg --recv-keys {f.pick('0123456789ABCDEF', 40)}\ngpg: keyserver receive failed: No data",
        lambda: (
            f"data:image/png;base64,{base64.b64encode(f.raw(120)).decode()} ← screenshot of the error got pasted as this, sorry"
        ),
    ]


def _prose(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: (
            "How do I rotate the API token for my account? The old one was in a notebook I shared publicly, I already revoked it."
        ),
        lambda: "Is the root password of an instance generated per rental, or do I set one? And where do I see it?",
        lambda: "Your docs say 'never paste your private key into a ticket', so how do I prove the wallet is mine?",
        lambda: "We store secrets in Vault and inject them at runtime; does your image support the vault agent?",
        lambda: "¿Dónde cambio la contraseña de mi cuenta? El enlace de restablecimiento no me llega.",
        lambda: "Tôi quên mật khẩu tài khoản, email khôi phục không tới. Làm sao đặt lại?",
        lambda: "Şifremi unuttum, sıfırlama e-postası gelmiyor. API anahtarını da yenilemem gerekiyor mu?",
        lambda: (
            "The password must be at least 12 characters with a number — mine has 14 and a digit, why is it rejected?"
        ),
        lambda: (
            f"chmod 600 ~/.ssh/id_ed25519 done, still 'UNPROTECTED PRIVATE KEY FILE!' with permissions 0{f.choice(['644', '664', '755'])}"
        ),
        lambda: (
            "Our seed phrase is written on paper in a safe, not on any computer. Can the deposit go to a new address instead?"
        ),
        lambda: f"Rate limit says 'tokens per minute: {f.rng.randint(10, 900)}000'. Is that per key or per account?",
        lambda: "Can you support login with SSO instead of password + TOTP? our security team asks.",
    ]


def _templated(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: (
            f'# docker-compose.yml\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD:?set it}}\n    ports:\n      - "{f.rng.randint(5000, 6000)}:5432"'
        ),
        lambda: (
            "[default]\naws_access_key_id =\naws_secret_access_key =\nregion = eu-central-1\n(fresh ~/.aws/credentials, should I fill it from the console?)"
        ),
        lambda: (
            'provider "cloudflare" {\n  api_token = var.cloudflare_api_token\n}\nvariable "cloudflare_api_token" { sensitive = true }'
        ),
        lambda: '{\n  "auths": {\n    "nvcr.io": {}\n  },\n  "credsStore": "pass"\n}',
        lambda: "spring.datasource.password=${DB_PASSWORD}\nspring.datasource.username=app",
        lambda: 'client_secret: ""  # filled by the operator\nclient_id: gpurent-dashboard',
        lambda: (
            f'private_key_path = "/home/ubuntu/.oci/oci_api_key.pem"\nfingerprint = "{":".join(f.hex(2) for _ in range(16))}"'
        ),
        lambda: "wallet:\n  keypair: ~/.config/solana/id.json\n  cluster: mainnet-beta",
        lambda: "OPENAI_API_KEY: !ENV ${OPENAI_API_KEY}\nHF_TOKEN: !ENV ${HF_TOKEN}",
        lambda: (
            f"session cookie is sessionid=<my session>, csrftoken in the form is the one from the page; x-csrftoken header was empty on attempt {f.rng.randint(2, 9)}"
        ),
    ]


def negatives(f: Fakes) -> list[str]:
    out: list[str] = []
    groups = [
        (_chain(f), 6),
        (_digests(f), 6),
        (_ids(f), 7),
        (_models(f), 6),
        (_masked(f), 5),
        (_placeholders(f), 6),
        (_public(f), 6),
        (_prose(f), 4),
        (_templated(f), 5),
    ]
    langs = ["en"] * 6 + ["es", "vi", "tr"]
    for builders, times in groups:
        for build in builders:
            for _ in range(times):
                text = build()
                text = wrap(f, text, f.choice(langs)) if f.rng.random() < 0.7 else text
                if text not in out:
                    out.append(text)
    return out

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the fifth held-out part (see `build_heldout5.py`): support requests of GPU-rental customers that
are full of look-alikes and hold no secret — transaction hashes, Solana signatures and addresses, checksums, git
and Hugging Face commit hashes, image digests, request and trace ids, UUIDs, run ids, ETags, Kubernetes names,
config files and command lines whose credentials are placeholders, variable references or prompts, masked keys,
prose about keys, passwords and tokens, base64 images, public keys and certificates. Each must come back from the
redactor unchanged. Written with the positives by an engineer who did not read the patterns.

Decided: password *hashes* (argon2, bcrypt) are in neither list — a leaked hash can be cracked, so masking one is
defensible, and keeping one is too; the part does not score that choice.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

from .fakes import ALNUM, LOWER, Fakes

DIGITS = "0123456789"
HEXU = "0123456789ABCDEF"

_OPEN = {
    "en": [
        "",
        "Hello,\n",
        "Hi folks, ",
        "Support team — ",
        "Quick question: ",
        "",
        "Hey, sorry to bother you again. ",
        "Dear GPU Rent,\n\n",
        "Not urgent, but ",
    ],
    "es": ["", "Hola soporte, ", "Buenos días,\n", "Qué tal, "],
    "vi": ["", "Chào admin, ", "Dạ em chào anh chị,\n", "Hi shop, "],
    "tr": ["", "Merhabalar, ", "Kolay gelsin,\n", "Selamlar, "],
}
_CLOSE = {
    "en": [
        "",
        "\n\nThank you!",
        "\n-- Priya",
        "\nticket from order #{n}",
        "\n\nBest regards,\nTomás",
        "",
        "\n(this is the second time I write about it)",
        "\nSent from a rented H100, ironically.",
    ],
    "es": ["", "\n\nMil gracias.", "\nUn saludo, pedido #{n}", "\n¡Gracias de antemano!"],
    "vi": ["", "\n\nEm cảm ơn ạ.", "\nĐơn #{n} nha", "\nMong phản hồi sớm."],
    "tr": ["", "\n\nŞimdiden teşekkürler.", "\nSipariş #{n}", "\nKolay gelsin."],
}


def wrap(f: Fakes, body: str, lang: str = "en") -> str:
    opening = f.choice(_OPEN[lang])
    closing = f.choice(_CLOSE[lang]).replace("{n}", str(f.rng.randint(100_000, 999_999)))
    return f"{opening}{body}{closing}"


def _eth(f: Fakes) -> str:
    return "0x" + f.hex(40)


def _tron(f: Fakes) -> str:
    return f.b58check(b"\x41" + f.raw(20))


def _k8s_suffix(f: Fakes) -> str:
    return f"{f.pick('bcdfghjklmnpqrstvwxz2456789', 10)}-{f.pick('bcdfghjklmnpqrstvwxz2456789', 5)}"


def _png_b64(f: Fakes, size: int) -> str:
    return base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + f.raw(size)).decode()


def negatives(f: Fakes) -> list[str]:
    out: list[str] = []

    def add(build: Callable[[], str], times: int = 4, lang: str = "en") -> None:
        for _ in range(times):
            text = build()
            sample = wrap(f, text, lang) if f.rng.random() < 0.6 else text
            while sample in out:  # a fixed paste sent again: another greeting and sign-off, as a second customer would
                sample = wrap(f, text, lang)
            out.append(sample)

    def n5() -> int:
        return f.rng.randint(100_000, 999_999)

    # --- payments ----------------------------------------------------------------------------------------------
    add(
        lambda: (
            f"My top-up of 250 USDC did not show up. Etherscan says success: https://etherscan.io/tx/0x{f.hex(64)}\nFrom {_eth(f)} to your deposit address {_eth(f)}."
        )
    )
    add(
        lambda: (
            f"Deposit stuck at 'waiting for confirmations' for 3 hours. Transaction 0x{f.hex(64)}, block {f.rng.randint(21_500_000, 22_900_000)}, gas paid 0.00041 ETH."
        )
    )
    add(
        lambda: (
            f"Hice el pago de la factura {n5()} en USDT (Polygon). Hash de la transacción: 0x{f.hex(64)}. Todavía aparece como pendiente."
        ),
        4,
        "es",
    )
    add(
        lambda: (
            f"Em nạp 100 USDC qua mạng Arbitrum, mã giao dịch 0x{f.hex(64)}, ví nhận {_eth(f)}. Sao số dư vẫn là 0?"
        ),
        4,
        "vi",
    )
    add(lambda: f"Bakiye yüklemesi görünmüyor. İşlem hash'i: 0x{f.hex(64)} — gönderen adres {_eth(f)}.", 4, "tr")
    add(
        lambda: (
            f"Paid with SOL, signature {f.solana_signature()}\nhttps://explorer.solana.com/tx/{f.solana_signature()}?cluster=mainnet-beta\nis that the right one? I see two in my wallet history."
        ),
        4,
    )
    add(
        lambda: (
            f"Solana Pay: the payment went to {f.solana_address()} but your invoice showed {f.solana_address()}. Did I pay the wrong address? sig: {f.solana_signature()}"
        ),
        4,
    )
    add(lambda: f"My Phantom wallet address is {f.solana_address()} — please whitelist it for refunds.", 4)
    add(
        lambda: (
            f"Solscan shows 'Finalized' for {f.solana_signature()} (fee 0.000005 SOL, slot {f.rng.randint(300_000_000, 340_000_000)}), your page still says 'awaiting payment'."
        ),
        4,
    )
    add(
        lambda: (
            f"Bitcoin payment: txid {f.hex(64)}, 1 input, 2 outputs, sent to {f.btc_address()}. Mempool says 12 sat/vB."
        ),
        3,
    )
    add(
        lambda: f"Refund please to my TRON wallet {_tron(f)} (USDT TRC-20), the original payment hash is {f.hex(64)}.",
        3,
    )
    add(
        lambda: (
            f"Calldata of my transfer, in case it helps: 0xa9059cbb000000000000000000000000{f.hex(40)}{'0' * 54}{f.hex(10)}"
        ),
        3,
    )
    add(
        lambda: (
            f"Stripe receipt says payment pi_3P{f.pick(ALNUM, 22)}, charge ch_3P{f.pick(ALNUM, 22)}, customer cus_{f.pick(ALNUM, 14)}. I was billed twice for the same A100 hour block."
        ),
        4,
    )
    add(
        lambda: (
            f"Invoice INV-{f.pick(DIGITS, 6)}, payment reference {f.hex(24).upper()}, amount 412.80 USD. The PDF download returns 404."
        ),
        3,
    )

    # --- checksums, digests, hashes ----------------------------------------------------------------------------
    add(
        lambda: (
            lambda shard: (
                f"$ sha256sum {shard}\n{f.hex(64)}  {shard}\nThe hub lists {f.hex(64)} for the same file. Is your cache corrupting downloads?"
            )
        )(f"model-0000{f.rng.randint(1, 4)}-of-00004.safetensors"),
        4,
    )
    add(
        lambda: (
            f"Downloaded the dataset shard from your mirror, md5 {f.hex(32)} vs expected {f.hex(32)}, size matches though (4.2 GB)."
        ),
        3,
    )
    add(
        lambda: (
            f"Status: Downloaded newer image for nvcr.io/nvidia/pytorch:24.0{f.rng.randint(1, 9)}-py3\nDigest: sha256:{f.hex(64)}\nthen the container exits with code 139."
        ),
        4,
    )
    add(
        lambda: (
            f"Our deployment pins the image by digest:\n  image: ghcr.io/acme-ml/serve@sha256:{f.hex(64)}\n  resources:\n    limits:\n      nvidia.com/gpu: 2\nand the pod stays Pending."
        ),
        4,
    )
    add(
        lambda: (
            f"commit {f.hex(40)}\nAuthor: Dana <dana@example.org>\nDate:   Tue Dec 1 10:14:22 2026 +0100\n\n    bump flash-attn to 2.7.4\n\nafter this commit training diverges on your H200s but not on our own A100s."
        ),
        4,
    )
    add(lambda: f"git bisect says the first bad commit is {f.hex(40)} (parent {f.hex(7)}).", 3)
    add(
        lambda: (
            f'model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", revision="{f.hex(40)}", torch_dtype=torch.bfloat16)\n→ OSError: couldn\'t connect to huggingface.co'
        ),
        4,
    )
    add(lambda: f"Fetching 4 files: 100%|██████████| 4/4\nsnapshots/{f.hex(40)}/config.json not found", 3)
    add(
        lambda: (
            f"torch @ https://download.pytorch.org/whl/cu124/torch-2.5.1%2Bcu124-cp311-cp311-linux_x86_64.whl#sha256={f.hex(64)}\nis in our lock file and pip says THESE PACKAGES DO NOT MATCH THE HASHES."
        ),
        3,
    )
    add(
        lambda: (
            f'"node_modules/vite": {{\n  "version": "5.4.11",\n  "integrity": "sha512-{base64.b64encode(f.raw(64)).decode()}"\n}}'
        ),
        3,
    )
    add(
        lambda: (
            f"version https://git-lfs.github.com/spec/v1\noid sha256:{f.hex(64)}\nsize {f.rng.randint(10**8, 10**10)}\n^ that's what I get instead of the weights after git clone on the instance. git lfs is installed."
        ),
        3,
    )
    add(
        lambda: (
            f'aws s3api head-object --bucket ckpts --key run7/step_40000.pt\n{{\n    "ContentLength": {f.rng.randint(10**9, 10**10)},\n    "ETag": "\\"{f.hex(32)}-{f.rng.randint(20, 900)}\\"",\n    "ContentType": "binary/octet-stream"\n}}\nthe multipart upload from your box is slow (40 MB/s).'
        ),
        4,
    )
    add(
        lambda: (
            f"IPFS CID of our eval set: bafybei{f.pick('abcdefghijklmnopqrstuvwxyz234567', 52)} — the instance can't reach the gateway."
        ),
        3,
    )
    add(lambda: f"pip freeze | grep mamba\nmamba-ssm @ git+https://github.com/state-spaces/mamba@{f.hex(40)}", 3)

    # --- ids ---------------------------------------------------------------------------------------------------
    add(
        lambda: (
            f"API answered 502. x-request-id: {f.uuid()}\ntraceparent: 00-{f.hex(32)}-{f.hex(16)}-01\nTime: 2026-12-0{f.rng.randint(1, 3)}T09:{f.rng.randint(10, 59)}:03Z"
        ),
        4,
    )
    add(
        lambda: (
            f"nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})\nonly one of them is visible inside the container."
        ),
        4,
    )
    add(
        lambda: (
            f"wandb: Tracking run with wandb version 0.19.1\nwandb: Run data is saved locally in /workspace/wandb/run-20261202_101522-{f.pick(LOWER, 8)}\nwandb: Syncing run glowing-sunset-{f.rng.randint(10, 400)}\nwandb: 🚀 View run at https://wandb.ai/lab/llm-sft/runs/{f.pick(LOWER, 8)}\nthen nothing, the run never finishes uploading."
        ),
        4,
    )
    add(
        lambda: (
            "wandb: Currently logged in as: kmorales (lab). Use `wandb login --relogin` to force relogin\nis that ok? I expected the team account."
        ),
        2,
    )
    add(
        lambda: (
            f"kubectl get pods -n training\nNAME                                READY   STATUS             RESTARTS\nllama-ft-{_k8s_suffix(f)}      0/1     CrashLoopBackOff   7\nllama-ft-{_k8s_suffix(f)}      1/1     Running            0"
        ),
        4,
    )
    add(
        lambda: (
            f"Events:\n  Warning  FailedScheduling  pod/infer-{f.pick('bcdfghjklmnpqrstvwxz2456789', 10)}-{f.pick('bcdfghjklmnpqrstvwxz2456789', 5)}  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n  annotations: checksum/config: {f.hex(64)}"
        ),
        3,
    )
    add(
        lambda: (
            f"My instance id is i-{f.hex(17)}, volume vol-{f.hex(17)}, the security group sg-{f.hex(17)}. Port 22 is open but I get 'Connection refused'."
        ),
        3,
    )
    add(lambda: f"Order {f.uuid()} was cancelled by the system, rental {f.uuid()} still bills me. Please check.", 4)
    add(
        lambda: (
            f"Sentry issue {f.hex(32)}: CUDA error: an illegal memory access was encountered (release {f.hex(12)})."
        ),
        3,
    )
    add(
        lambda: (
            f"Datadog trace id {f.rng.randint(10**18, 10**19)}, span {f.rng.randint(10**18, 10**19)} — latency spikes to 9 s on the inference endpoint."
        ),
        3,
    )
    add(
        lambda: (
            f"Argo workflow train-sweep-{f.pick(LOWER, 5)} step train-sweep-{f.pick(LOWER, 5)}-{f.rng.randint(10**9, 10**10)} failed: OOMKilled"
        ),
        3,
    )
    add(
        lambda: (
            f"arn:aws:iam::{f.pick(DIGITS, 12)}:role/gpurent-trainer cannot assume arn:aws:iam::{f.pick(DIGITS, 12)}:role/data-reader — is that on your side?"
        ),
        3,
    )
    add(lambda: f"Ray dashboard shows job raysubmit_{f.pick(ALNUM, 16)} FAILED, node id {f.hex(56)}.", 3)

    # --- command lines without secrets -------------------------------------------------------------------------
    add(
        lambda: (
            f'echo "$CR_PAT" | docker login ghcr.io -u {f.choice(["nina-k", "ops-bot", "jlee"])} --password-stdin\nError response from daemon: Get "https://ghcr.io/v2/": denied'
        ),
        4,
    )
    add(
        lambda: (
            f"docker run --gpus all -p 8080:80 -p {f.rng.randint(7000, 9000)}:{f.rng.randint(7000, 9000)} -e HF_TOKEN=$HF_TOKEN -v /data:/data ghcr.io/huggingface/text-generation-inference:3.0 --model-id Qwen/Qwen2.5-7B-Instruct\nport 8080 is not reachable from outside."
        ),
        4,
    )
    add(
        lambda: (
            "gcloud auth activate-service-account --key-file=/home/ubuntu/.config/gcloud/trainer-sa.json\nERROR: (gcloud.auth.activate-service-account) Could not read json file"
        ),
        3,
    )
    add(
        lambda: (
            f"ssh -i ~/.ssh/gpurent_ed25519 -p {f.rng.randint(20000, 40000)} root@{f.rng.randint(40, 220)}.{f.rng.randint(1, 255)}.{f.rng.randint(1, 255)}.{f.rng.randint(2, 250)}\nroot@...: Permission denied (publickey)."
        ),
        4,
    )
    add(
        lambda: (
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nPermissions 0644 for '/root/.ssh/id_ed25519' are too open.\nWhat permissions should the private key file have on your images?"
        ),
        2,
    )
    add(
        lambda: (
            "mysql -h 10.0.3.7 -u analytics -p\nEnter password:\nERROR 2003 (HY000): Can't connect to MySQL server on '10.0.3.7:3306' (110)"
        ),
        2,
    )
    add(
        lambda: (
            "psql -h db.internal -U trainer -W -d features\nPassword:\npsql: error: FATAL:  no pg_hba.conf entry for host"
        ),
        2,
    )
    add(
        lambda: (
            'export DATABASE_URL="postgresql://trainer:${PGPASSWORD}@db.internal:5432/features"\nthe env var is set, still auth fails from the container'
        ),
        3,
    )
    add(
        lambda: (
            "huggingface-cli login\n    _|    _|  _|    _|    _|_|_|\nEnter your token (input will not be visible):\nAdd token as git credential? (Y/n) n\nToken is valid (permission: read).\nbut the gated model still says 403"
        ),
        3,
    )
    add(
        lambda: (
            "git clone https://<username>:<personal_access_token>@github.com/acme/private-repo.git\nis what your docs say, but I get 'Invalid username or token'"
        ),
        3,
    )
    add(
        lambda: (
            f"wandb login --relogin\nwandb: Paste an API key from your profile and hit enter:\nwandb: ERROR API key must be 40 characters long, yours was {f.rng.randint(10, 39)}"
        ),
        3,
    )
    add(
        lambda: (
            "jupyter lab --ip 0.0.0.0 --port 8888 --no-browser --ServerApp.token='' --ServerApp.password=''\nI know this is unsafe, it's behind your SSH tunnel only. Still can't reach it."
        ),
        2,
    )
    add(
        lambda: (
            "openssl rand -hex 32 > /etc/app/session.key && chmod 600 /etc/app/session.key\nsystemctl restart app  -> fails with 'key file not readable'"
        ),
        2,
    )
    add(
        lambda: (
            "aws configure list\n      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n   profile                <not set>             None    None\naccess_key     ****************"
            + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 4)
            + " shared-credentials-file\nsecret_key     ****************"
            + f.pick(ALNUM, 4)
            + " shared-credentials-file\n    region                eu-west-1      config-file    ~/.aws/config"
        ),
        3,
    )
    add(
        lambda: (
            f"kubectl describe secret hf-credentials -n inference\nName:         hf-credentials\nType:         Opaque\n\nData\n====\ntoken:  {f.rng.randint(30, 60)} bytes\nthe pod does not see it as an env var"
        ),
        3,
    )
    add(
        lambda: (
            'kubectl create secret generic wandb --from-literal=WANDB_API_KEY="$(cat ~/.wandb_key)" -n training\nerror: failed to create secret namespaces "training" not found'
        ),
        2,
    )
    add(
        lambda: (
            "vault kv get -field=password secret/data/gpurent/postgres\nError making API request. Code: 403. Errors: * permission denied"
        ),
        2,
    )
    add(
        lambda: (
            f"ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{base64.b64encode(f.raw(32)).decode().rstrip('=')} ana@thinkpad (ED25519)\nthis is the key I added in the dashboard but the box rejects it"
        ),
        4,
    )

    # --- config files without secrets --------------------------------------------------------------------------
    add(
        lambda: (
            '# docker-compose.yml\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: admin\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}\n      POSTGRES_DB: mlflow\n    ports:\n      - "5432:5432"\ncompose says the variable is not set, defaulting to a blank string.'
        ),
        3,
    )
    add(
        lambda: (
            "# .env.example\nOPENAI_API_KEY=\nHF_TOKEN=your_hf_token_here\nWANDB_API_KEY=<paste-your-key>\nDATABASE_URL=postgres://user:password@localhost:5432/app\nI copied this to .env, what else must I change on your image?"
        ),
        3,
    )
    add(
        lambda: (
            "database:\n  host: 127.0.0.1\n  port: 5432\n  user: admin\n  name: experiments\n# no password: we use peer auth inside the container\nIs peer auth supported on your base image?"
        ),
        2,
    )
    add(
        lambda: (
            'api:\n  key: "REPLACE_ME"\n  secret: null\n  token: ""\n  base_url: https://api.gpurent.example/v1\nThe client refuses to start with \'missing credentials\', expected — where do I get the key?'
        ),
        3,
    )
    add(
        lambda: (
            "# ansible group_vars/gpu.yml\nregistry_user: deploy\nregistry_password: \"{{ vault_registry_password }}\"\nhf_token: \"{{ lookup('env', 'HF_TOKEN') }}\""
        ),
        2,
    )
    add(
        lambda: (
            'env:\n  - name: OPENAI_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: openai\n        key: api-key\n  - name: CUDA_VISIBLE_DEVICES\n    value: "0,1"'
        ),
        3,
    )
    add(
        lambda: (
            "jobs:\n  train:\n    runs-on: [self-hosted, gpu]\n    steps:\n      - run: huggingface-cli login --token ${{ secrets.HF_TOKEN }}\n      - run: python train.py --push-to-hub\nthe self-hosted runner on your box never picks up the job"
        ),
        3,
    )
    add(
        lambda: (
            "[default]\nregion = us-east-1\noutput = json\n# credentials come from the instance profile, no keys in this file\nboto3 still raises NoCredentialsError on your instance."
        ),
        2,
    )
    add(
        lambda: (
            "from pydantic_settings import BaseSettings\nfrom pydantic import SecretStr\n\nclass Settings(BaseSettings):\n    openai_api_key: SecretStr\n    hf_token: SecretStr | None = None\n    db_password: SecretStr\n\nsettings = Settings()  # ValidationError: openai_api_key Field required"
        ),
        3,
    )
    add(
        lambda: (
            'import os\nclient = OpenAI(api_key=os.environ["OPENAI_API_KEY"])\nhf_token = os.getenv("HF_TOKEN")\n→ KeyError: \'OPENAI_API_KEY\' when run under your jupyter kernel'
        ),
        3,
    )
    add(
        lambda: (
            '[[tool.uv.index]]\nname = "internal"\nurl = "https://pypi.internal.example/simple"\nauthenticate = "always"\n# credentials via UV_INDEX_INTERNAL_USERNAME / UV_INDEX_INTERNAL_PASSWORD env vars'
        ),
        2,
    )
    add(
        lambda: (
            'tokenizer_config.json:\n  "bos_token": "<|begin_of_text|>",\n  "eos_token": "<|eot_id|>",\n  "pad_token": null,\n  "model_max_length": 131072\nwhy does generation never stop on your vLLM image?'
        ),
        3,
    )
    add(
        lambda: (
            f'generation_config = {{"max_new_tokens": {f.choice([512, 1024, 2048, 4096])}, "temperature": 0.7, "top_p": 0.9, "seed": {f.rng.randint(10**8, 10**10)}}}\nsame seed, different outputs on H100 vs A100. Expected?'
        ),
        3,
    )
    add(
        lambda: (
            "CREATE TABLE users (\n  id bigserial primary key,\n  email text not null unique,\n  password_hash text not null,\n  api_key_last4 char(4)\n);\nthis migration hangs on your managed Postgres"
        ),
        2,
    )

    # --- masked keys, errors that name keys --------------------------------------------------------------------
    add(
        lambda: (
            f"openai.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: sk-proj-********************{f.pick(ALNUM, 4)}. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}}}"
        ),
        4,
    )
    add(
        lambda: (
            "huggingface_hub.errors.GatedRepoError: 401 Client Error.\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.3-70B-Instruct/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.3-70B-Instruct is restricted. You must have access to it and be authenticated to access it. Please log in."
        ),
        2,
    )
    add(
        lambda: (
            "LocalTokenNotFoundError: Token is required (`token=True`), but no token found. You need to provide a token or be logged in to Hugging Face with `hf auth login`."
        ),
        2,
    )
    add(
        lambda: (
            f"2026-12-02 11:0{f.rng.randint(0, 9)}:12 INFO  upstream request POST /v1/chat/completions headers={{'Authorization': 'Bearer ***', 'Content-Type': 'application/json'}} status=429"
        ),
        3,
    )
    add(
        lambda: (
            f"DEBUG connecting with dsn=postgresql://trainer:********@db.internal:5432/features (attempt {f.rng.randint(1, 5)}/5)"
        ),
        3,
    )
    add(
        lambda: (
            'Error: secret "registry-creds" not found\nWarning: the pod uses imagePullSecrets registry-creds which does not exist'
        ),
        2,
    )
    add(
        lambda: (
            f"Your key ending in …{f.pick(ALNUM, 4)} was revoked on 2 Dec. I created a new one in the dashboard, where do I put it for the CLI?"
        ),
        3,
    )
    add(
        lambda: (
            f"The dashboard shows my API key as gpr_live_••••••••••••{f.pick(LOWER, 4)}. Is it possible to see the whole thing again? I lost it."
        ),
        3,
    )
    add(
        lambda: (
            "hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is the placeholder in your README; with my real token the pull still fails."
        ),
        2,
    )
    add(
        lambda: "sk-...redacted... — I removed the key from the log before pasting. The error is 'insufficient_quota'.",
        2,
    )

    # --- prose about keys, passwords, tokens -------------------------------------------------------------------
    prose_en = [
        "I rotated my API key yesterday and now every request from the instance returns 401. Do old keys stay cached somewhere?",
        "The token count is 4096 but the model card says the context is 8k. Which limit does your endpoint enforce?",
        "Throughput is about 2,300 tokens per second on one H100 with vLLM — is that normal for a 70B model at fp8?",
        "Where do I set the key in your dashboard? The settings page only shows SSH keys.",
        "What permissions should the private key file have? The guide says 600 but the tool complains.",
        "I forgot the password for my account and the reset email never arrived (checked spam).",
        "Can you enforce two-factor auth for my team? One member reused a password from another site.",
        "Is the password for the web terminal the same as my account password, or is there a separate one?",
        "Our security team asks whether you store API keys hashed or encrypted. Is there a document?",
        "Please delete the SSH public key named 'old-laptop' from my account, the laptop was stolen.",
        "Does the secret manager integration support AWS Secrets Manager or only Vault?",
        "I pasted a token into a ticket last week by mistake and already revoked it; can you delete that ticket anyway?",
        "The access token expires after 1 hour, the refresh token after 30 days — can I make the first longer for batch jobs?",
        "How do I pass a Hugging Face token to a template without it ending up in the instance logs?",
        "Keys, passwords, secrets: none of them are in the image I uploaded, I checked with trufflehog before pushing.",
        "Your CLI prints 'token saved to ~/.config/gpurent/credentials' — is that file encrypted?",
        "The 'API key' field in the billing page is greyed out. Do I need an admin role to create one?",
        "My colleague changed the team password and I am locked out of the shared instance.",
    ]
    for text in prose_en:
        out.append(wrap(f, text))
        out.append(wrap(f, f"{text} (account {f.pick(LOWER, 6)})"))
    prose_other = [
        ("es", "Cambié mi clave API ayer y ahora todas las peticiones dan 401. ¿Tarda en propagarse?"),
        ("es", "¿Dónde configuro la contraseña del escritorio remoto? No aparece en el panel."),
        ("es", "El límite de tokens es 32768 pero el modelo se corta a los 8000. ¿Es un ajuste de ustedes?"),
        (
            "es",
            "Olvidé la frase de recuperación de mi wallet, no la de la cuenta; ¿me pueden reembolsar a otra dirección?",
        ),
        ("vi", "Em đã đổi mật khẩu tài khoản nhưng vẫn không đăng nhập được vào bảng điều khiển."),
        ("vi", "Khóa API của em bị lộ nên em đã thu hồi rồi, giờ tạo khóa mới ở đâu ạ?"),
        ("vi", "Số token tối đa là 4096 phải không ạ? Em cần 16k cho mô hình Qwen."),
        ("vi", "Quyền của file khóa riêng tư nên để 600 hay 400 trên máy thuê ạ?"),
        ("tr", "API anahtarımı yeniledim, şimdi bütün istekler 401 dönüyor."),
        ("tr", "Şifremi unuttum, sıfırlama e-postası gelmiyor."),
        ("tr", "Token sınırı 8192 mi? Uzun bağlamlı model için daha fazlası lazım."),
        ("tr", "Özel anahtar dosyasının izinleri ne olmalı? ssh 'too open' diyor."),
    ]
    for lang, text in prose_other:
        out.append(wrap(f, text, lang))
        out.append(wrap(f, f"{text} #{n5()}", lang))

    # --- public keys, certificates, images ---------------------------------------------------------------------
    add(
        lambda: (
            f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{base64.b64encode(f.raw(32)).decode()[:43]} {f.choice(['ana', 'kemal', 'thu', 'diego'])}@{f.choice(['laptop', 'workstation', 'mbp'])}\nthis is my public key, please add it to instance #{n5()}"
        ),
        4,
    )
    add(
        lambda: (
            f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{base64.b64encode(f.raw(300)).decode()} build@ci\nis RSA still accepted or only ed25519?"
        ),
        3,
    )
    add(
        lambda: "Here is the CA certificate our proxy uses, the instance must trust it:\n" + f.pem("CERTIFICATE", 12), 3
    )
    add(
        lambda: (
            "Our webhook verification public key:\n"
            + f.pem("PUBLIC KEY", 6)
            + "\nsignatures from your side fail to verify."
        ),
        3,
    )
    add(
        lambda: (
            f"gpg --list-keys\npub   ed25519 2025-03-11 [SC]\n      {f.hex(40).upper()}\nuid           [ultimate] Release Bot <release@acme.example>\nthe apt repo on your image complains NO_PUBKEY {f.hex(16).upper()}"
        ),
        3,
    )
    add(
        lambda: (
            f"SHA256 Fingerprint={':'.join(f.pick(HEXU, 2) for _ in range(32))}\nthat's the cert of console.gpurent.example I see — is it yours? My browser warns."
        ),
        3,
    )
    add(lambda: f"I attach the screenshot inline since uploads fail: data:image/png;base64,{_png_b64(f, 180)}", 4)
    add(
        lambda: (
            f'{{"model": "llava-1.6", "messages": [{{"role": "user", "content": [{{"type": "image_url", "image_url": {{"url": "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ{base64.b64encode(f.raw(150)).decode()}"}}}}]}}]}}\nthe vision endpoint returns 413 for this body'
        ),
        3,
    )
    add(
        lambda: (
            f"The USDC mint's pubkey bytes, printed by my script: {json.dumps(list(f.raw(32)))}\n(32 bytes, so not a keypair — just checking the decoding is right)"
        ),
        3,
    )
    add(
        lambda: (
            f"Validator identity {f.solana_address()}, vote account {f.solana_address()} — we want to run an RPC node on a rented box, allowed?"
        ),
        3,
    )

    # --- GPU and runtime errors --------------------------------------------------------------------------------
    add(
        lambda: (
            f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {f.rng.randint(1, 40)}.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.{f.rng.randint(10, 99)} GiB is free."
        ),
        3,
    )
    add(
        lambda: (
            f"NVRM: Xid (PCI:0000:{f.hex(2)}:00): 79, pid={f.rng.randint(1000, 99999)}, GPU has fallen off the bus.\nthe rental kept billing for 3 hours after this"
        ),
        3,
    )
    add(
        lambda: (
            f"[rank{f.rng.randint(0, 7)}]:[E ProcessGroupNCCL.cpp:616] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={f.rng.randint(1000, 90000)}, OpType=ALLREDUCE, Timeout(ms)=600000)"
        ),
        3,
    )

    return out

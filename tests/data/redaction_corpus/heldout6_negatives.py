# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the sixth held-out part (see `build_heldout6.py`): support requests of GPU-rental customers that
hold no secret but much that looks like one — transaction hashes, signatures and addresses of four chains,
checksums and lock-file hashes, image and model digests, model ids and revisions, UUIDs, request/trace/run ids,
resource ids and ARNs, tracebacks, state-dict keys, tokenizer settings and token counts, masked keys, placeholders
and references to secret stores, `-p PORT` and other flags whose value is no password, key *file paths*, public
keys, fingerprints and certificates, prose about passwords and tokens in four languages, and config files whose
secret fields are empty or templated. Each must come back from the redactor unchanged. Written with the positives
by an engineer who did not read the patterns.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

from .fakes import ALNUM, B64, LOWER, UPPER, URLSAFE, Fakes

DIGITS = "0123456789"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
NIX32 = "0123456789abcdfghijklmnpqrsvwxyz"

_OPEN = {
    "en": [
        "",
        "",
        "Hi,\n",
        "Hello support, ",
        "hey — ",
        "Good morning,\n\n",
        "Question about my rental: ",
        "Hi there. ",
        "FYI: ",
    ],
    "es": ["", "Hola, ", "Buenas tardes,\n", "Equipo de soporte: "],
    "vi": ["", "Xin chào, ", "Chào shop ạ, ", "Dạ cho em hỏi, "],
    "tr": ["", "Merhaba, ", "İyi günler,\n", "Destek ekibine: "],
}
_CLOSE = {
    "en": [
        "",
        "",
        "\n\nthanks a lot",
        "\n— Kenji",
        "\nOrder #{n}",
        "\n\nCheers,\nAlina",
        "\n(sent from my phone, sorry for typos)",
        "\nP.S. great service otherwise",
    ],
    "es": ["", "\n\nGracias.", "\nSaludos, pedido #{n}", "\nQuedo atento."],
    "vi": ["", "\n\nCảm ơn ạ.", "\nĐơn hàng #{n}", "\nEm cảm ơn nhiều."],
    "tr": ["", "\n\nTeşekkürler.", "\nSipariş no #{n}", "\nİyi çalışmalar."],
}


def wrap(f: Fakes, body: str, lang: str = "en") -> str:
    opening = f.choice(_OPEN[lang])
    closing = f.choice(_CLOSE[lang]).replace("{n}", str(f.rng.randint(10_000, 999_999)))
    return f"{opening}{body}{closing}"


def _eth(f: Fakes) -> str:
    return "0x" + f.hex(40)


def _ip(f: Fakes) -> str:
    return f"{f.rng.randint(23, 223)}.{f.rng.randint(0, 255)}.{f.rng.randint(0, 255)}.{f.rng.randint(2, 254)}"


def _png(f: Fakes) -> str:
    return base64.b64encode(b"\x89PNG\r\n\x1a\n" + f.raw(120)).decode()


def negatives(f: Fakes) -> list[str]:
    out: list[str] = []

    def add(build: Callable[[], str], times: int = 4, lang: str = "en") -> None:
        for _ in range(times):
            text = build()
            sample = wrap(f, text, lang) if f.rng.random() < 0.55 else text
            while sample in out:  # the same paste from a second customer: another greeting
                sample = wrap(f, text, lang)
            out.append(sample)

    def order() -> int:
        return f.rng.randint(10_000, 99_999)

    # --- payments on four chains ------------------------------------------------------------------------------
    add(
        lambda: (
            f"Paid invoice {order()} with USDC on Base. Tx hash: 0x{f.hex(64)}\nfrom {_eth(f)}\nstill 'awaiting payment' after 40 minutes"
        ),
        6,
    )
    add(lambda: f"https://basescan.org/tx/0x{f.hex(64)} — that's my top-up, status Success, 12 confirmations", 3)
    add(
        lambda: (
            f"Solana payment for order #{order()}: signature {f.solana_signature()}\nfrom wallet {f.solana_address()} to {f.solana_address()}"
        ),
        6,
    )
    add(
        lambda: (
            f"solana confirm -v {f.solana_signature()}\nTransaction executed in slot {f.rng.randint(280_000_000, 310_000_000)}\nStatus: Ok\nbut your page says not found"
        ),
        3,
    )
    add(lambda: f"BTC sent to bc1q{f.pick(BECH32, 38)}, txid {f.hex(64)}, 2 confirmations. How many do you need?", 4)
    add(
        lambda: (
            f"USDT TRC-20 transfer {f.hex(64)} from T{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 33)}"
        ),
        2,
    )
    add(lambda: f"Hash de la transacción: 0x{f.hex(64)}. Lo pagué desde {_eth(f)} hace dos horas.", 3, "es")
    add(lambda: f"Mã giao dịch (tx hash) của em: 0x{f.hex(64)}, ví gửi {_eth(f)}.", 3, "vi")
    add(lambda: f"İşlem imzası (Solana): {f.solana_signature()} — bakiye hâlâ sıfır.", 3, "tr")
    add(lambda: f"The refund should go to my public address {f.solana_address()} (NOT the exchange one).", 3)
    add(
        lambda: (
            f"event log of the payment:\nTransfer(from={_eth(f)}, to={_eth(f)}, value=25000000)\ntopics[0] 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef\nblockHash 0x{f.hex(64)}"
        ),
        3,
    )
    add(
        lambda: (
            f"My xpub for the refund watch-only wallet: xpub{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 107)} (public, I know it's safe to share)"
        ),
        2,
    )
    add(
        lambda: (
            f"Stripe receipt: payment_intent pi_{f.pick(ALNUM, 24)}, charge ch_{f.pick(ALNUM, 24)}, customer cus_{f.pick(ALNUM, 14)} — I was charged twice"
        ),
        3,
    )

    # --- checksums, lock files, digests -----------------------------------------------------------------------
    add(
        lambda: (
            f"sha256sum model-00001-of-00004.safetensors\n{f.hex(64)}  model-00001-of-00004.safetensors\nthe Hub shows a different one, is the download corrupt?"
        ),
        4,
    )
    add(lambda: f"md5sum /data/imagenet/train.tar\n{f.hex(32)}  /data/imagenet/train.tar", 3)
    add(
        lambda: (
            f"go.sum line the build chokes on:\ngithub.com/lab/cudakit v0.4.1 h1:{f.pick(B64, 43)}=\ngithub.com/lab/cudakit v0.4.1/go.mod h1:{f.pick(B64, 43)}="
        ),
        3,
    )
    add(
        lambda: (
            f'yarn.lock:\n"@lab/ui@^2.1.0":\n  version "2.1.3"\n  resolved "https://registry.yarnpkg.com/@lab/ui/-/ui-2.1.3.tgz#{f.hex(40)}"\n  integrity sha512-{f.pick(B64, 86)}=='
        ),
        3,
    )
    add(
        lambda: (
            f'uv.lock entry:\n[[package]]\nname = "flash-attn"\nversion = "2.7.4"\nsdist = {{ url = "https://files.pythonhosted.org/packages/flash_attn-2.7.4.tar.gz", hash = "sha256:{f.hex(64)}" }}\nuv sync says hash mismatch'
        ),
        3,
    )
    add(
        lambda: (
            f'Cargo.lock:\n[[package]]\nname = "candle-core"\nversion = "0.8.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{f.hex(64)}"'
        ),
        2,
    )
    add(
        lambda: (
            f"docker pull nvcr.io/nvidia/pytorch:24.10-py3\nDigest: sha256:{f.hex(64)}\nStatus: Downloaded newer image\nbut torch.cuda.is_available() is False"
        ),
        4,
    )
    add(
        lambda: (
            f"/nix/store/{f.pick(NIX32, 32)}-python3-3.11.9/bin/python: error while loading shared libraries: libcuda.so.1"
        ),
        2,
    )
    add(
        lambda: (
            f'ollama pull llama3.1:70b\npulling manifest\npulling {f.hex(12)}... 100% 39 GB\nverifying sha256 digest\nError: digest mismatch, expected "sha256:{f.hex(64)}"'
        ),
        3,
    )
    add(lambda: f'ETag of the checkpoint on R2: "{f.hex(32)}-{f.rng.randint(2, 400)}" and locally it\'s different', 2)
    add(
        lambda: (
            f"conda list --explicit --md5\nhttps://conda.anaconda.org/conda-forge/linux-64/cudatoolkit-11.8.0-h4ba93d1_13.conda#{f.hex(32)}"
        ),
        2,
    )
    add(
        lambda: (
            f"pip install -r requirements.txt --require-hashes\nERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n    torch==2.5.1 from https://download.pytorch.org/whl/cu124/torch-2.5.1.whl:\n        Expected sha256 {f.hex(64)}\n             Got        {f.hex(64)}"
        ),
        3,
    )
    add(
        lambda: (
            f"git log --oneline -3\n{f.hex(7)} fix fp8 kernel\n{f.hex(7)} bump vllm\n{f.hex(7)} init\nI need commit {f.hex(40)} deployed on the instance"
        ),
        3,
    )

    # --- models and revisions -----------------------------------------------------------------------------------
    models = [
        "meta-llama/Llama-3.1-70B-Instruct",
        "Qwen/Qwen2.5-Coder-32B-Instruct-AWQ",
        "deepseek-ai/DeepSeek-R1-Distill-Llama-8B",
        "mistralai/Mixtral-8x22B-Instruct-v0.1",
        "black-forest-labs/FLUX.1-dev",
        "stabilityai/stable-diffusion-3.5-large",
        "google/gemma-2-27b-it",
        "microsoft/Phi-3.5-mini-instruct",
    ]
    add(
        lambda: (
            f"huggingface-cli download {f.choice(models)} --revision {f.hex(40)} --local-dir /data/model\nit stops at 'Fetching 17 files' forever"
        ),
        4,
    )
    add(
        lambda: (
            f"Which GPU do I need for {f.choice(models)} in bf16 with 32k context? The estimator says 2×H100 but I want to be sure."
        ),
        4,
    )
    add(
        lambda: (
            f'config.json of {f.choice(models)}:\n"_name_or_path": "{f.choice(models)}",\n"torch_dtype": "bfloat16",\n"vocab_size": 128256,\n"transformers_version": "4.46.2"'
        ),
        3,
    )
    add(
        lambda: (
            f"civitai model version {f.rng.randint(100000, 999999)}, AutoV2 hash {f.hex(10).upper()} — ComfyUI can't find it"
        ),
        2,
    )
    add(
        lambda: (
            f"Model: {f.choice(models)}\nQuantization: Q4_K_M (file {f.choice(['llama', 'qwen', 'mixtral'])}-{f.hex(8)}.gguf)\nllama.cpp: CUDA error: out of memory"
        ),
        2,
    )

    # --- ids, uuids, traces ------------------------------------------------------------------------------------
    add(lambda: f"Instance {f.uuid()} stuck in 'preparing' since yesterday, order #{order()}", 5)
    add(lambda: f"Idempotency-Key: {f.uuid()}\nPOST /api/v1/orders → 409 conflict, although it is my first request", 4)
    add(
        lambda: (
            f"nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})\nonly 2 of the 8 GPUs I paid for"
        ),
        4,
    )
    add(
        lambda: (
            f"x-request-id: {f.hex(32)}\ntraceparent: 00-{f.hex(32)}-{f.hex(16)}-01\nthe API returned 502 at 14:02 UTC"
        ),
        3,
    )
    add(
        lambda: f"AWS says: An error occurred (ThrottlingException). RequestId: {f.uuid()}, HostId: {f.pick(B64, 76)}=",
        3,
    )
    add(lambda: f"mlflow run id {f.hex(32)} — artifacts upload fails with 413", 3)
    add(
        lambda: (
            f"wandb: 🚀 View run polished-sun-{f.rng.randint(1, 400)} at: https://wandb.ai/lab/sft/runs/{f.pick(LOWER, 8)}\nthe run crashes at step 1200 with NCCL timeout"
        ),
        3,
    )
    add(
        lambda: (
            f"ray job submit ... → Job 'raysubmit_{f.pick(ALNUM, 16)}' failed\nnode id {f.hex(56)} died unexpectedly"
        ),
        3,
    )
    add(lambda: f"Sentry event {f.hex(32)}: CUDA error: an illegal memory access was encountered", 2)
    add(
        lambda: (
            f"kubectl get pods -n inference\nvllm-{f.pick('bcdfghjklmnpqrstvwxz2456789', 10)}-{f.pick('bcdfghjklmnpqrstvwxz2456789', 5)}   0/1   CrashLoopBackOff   7   12m\nuid: {f.uuid()}"
        ),
        3,
    )
    add(
        lambda: (
            f"docker ps\nCONTAINER ID   IMAGE                 STATUS\n{f.hex(12)}   vllm/vllm-openai:latest   Restarting (1) 3 seconds ago\ndocker inspect shows Id {f.hex(64)}"
        ),
        3,
    )
    add(lambda: f"Cloudflare error 524, Ray ID: {f.hex(16)} when uploading the dataset through your web UI", 2)
    add(
        lambda: (
            f"arn:aws:secretsmanager:eu-west-1:{f.pick(DIGITS, 12)}:secret:prod/train/db-{f.pick(ALNUM, 6)} — the instance role can't read it, which policy do you need?"
        ),
        3,
    )
    add(lambda: f"ec2 describe: instance i-0{f.hex(16)}, volume vol-0{f.hex(16)}, sg-0{f.hex(16)}, ami-0{f.hex(16)}", 2)
    add(lambda: f"Mã yêu cầu (request id) {f.uuid()} bị lỗi 500 khi em tạo đơn.", 2, "vi")
    add(lambda: f"El ID de la instancia es {f.uuid()} y sigue en estado 'preparando'.", 2, "es")
    add(lambda: f"Sipariş kimliği {f.uuid()}, makine hâlâ başlamadı.", 2, "tr")

    # --- tracebacks and logs -------------------------------------------------------------------------------------
    add(
        lambda: (
            'Traceback (most recent call last):\n  File "/app/main.py", line 12, in <module>\n    client = OpenAI()\n  File "/opt/venv/lib/python3.11/site-packages/openai/_client.py", line 105, in __init__\n    raise OpenAIError(\nopenai.OpenAIError: The api_key client option must be set either by passing api_key to the client or by setting the OPENAI_API_KEY environment variable'
        ),
        2,
    )
    add(
        lambda: (
            f'KeyError: \'HF_TOKEN\'\n  File "/workspace/train.py", line {f.rng.randint(10, 300)}, in main\n    token = os.environ["HF_TOKEN"]\nI exported it in .bashrc, why is it missing in the job?'
        ),
        3,
    )
    add(
        lambda: (
            f'RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:\n\tMissing key(s) in state_dict: "model.layers.{f.rng.randint(0, 79)}.self_attn.q_proj.weight", "lm_head.weight".\n\tUnexpected key(s) in state_dict: "_orig_mod.model.embed_tokens.weight".'
        ),
        4,
    )
    add(
        lambda: (
            f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {f.rng.randint(2, 40)}.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which {f.rng.randint(1, 900)}.19 MiB is free."
        ),
        3,
    )
    add(
        lambda: (
            f"[rank{f.rng.randint(0, 7)}]:[E ProcessGroupNCCL.cpp:616] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={f.rng.randint(1000, 99999)}, OpType=ALLREDUCE, NumelIn=1, Timeout(ms)=600000) ran for 600080 milliseconds before timing out."
        ),
        3,
    )
    add(
        lambda: (
            f"dmesg | tail\nNVRM: Xid (PCI:0000:{f.hex(2)}:00): 79, pid={f.rng.randint(1000, 99999)}, GPU has fallen off the bus."
        ),
        2,
    )
    add(
        lambda: (
            "huggingface_hub.errors.GatedRepoError: 403 Client Error.\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.1-8B is restricted and you are not in the authorized list."
        ),
        2,
    )
    add(
        lambda: (
            "botocore.exceptions.NoCredentialsError: Unable to locate credentials\nI attached the role in the console, is IMDS blocked on your instances?"
        ),
        2,
    )
    add(
        lambda: (
            'psql: error: connection to server at "10.0.0.5", port 5432 failed: FATAL:  password authentication failed for user "app"'
        ),
        3,
    )
    add(
        lambda: (
            'docker login registry.lab.example\nUsername: deploy\nPassword:\nError response from daemon: Get "https://registry.lab.example/v2/": x509: certificate signed by unknown authority'
        ),
        2,
    )
    add(lambda: "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)", 2)
    add(
        lambda: (
            "sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper"
        ),
        2,
    )
    add(
        lambda: (
            "Permission denied (publickey,password).\nssh -vvv shows: Offering public key: /root/.ssh/id_ed25519 ED25519 SHA256:"
            + f.pick(B64, 43)
            + " explicit"
        ),
        3,
    )
    add(
        lambda: (
            "wandb: Currently logged in as: priya-lab. Use `wandb login --relogin` to force relogin\nwandb: Tracking run with wandb version 0.18.7\nwandb: ERROR Run initialization has timed out after 90.0 sec."
        ),
        2,
    )

    # --- tokens that are not credentials --------------------------------------------------------------------------
    add(
        lambda: (
            f"vLLM log: Avg prompt throughput: {f.rng.randint(100, 9000)}.4 tokens/s, Avg generation throughput: {f.rng.randint(100, 4000)}.1 tokens/s, Running: 64 reqs"
        ),
        3,
    )
    add(
        lambda: (
            f'"usage": {{"prompt_tokens": {f.rng.randint(10, 9000)}, "completion_tokens": {f.rng.randint(10, 4000)}, "total_tokens": {f.rng.randint(9000, 13000)}}}\nwhy is it so slow on an L40S?'
        ),
        3,
    )
    add(
        lambda: (
            f'tokenizer_config.json:\n"bos_token": "<|begin_of_text|>",\n"eos_token": "<|eot_id|>",\n"pad_token_id": {f.rng.randint(128000, 128255)},\n"model_max_length": 131072\ngeneration never stops'
        ),
        3,
    )
    add(
        lambda: (
            f"We trained on {f.rng.randint(2, 900)}B tokens; with max_tokens=4096 and --max-num-batched-tokens 8192 the throughput halves. Is that expected on H200?"
        ),
        3,
    )
    add(
        lambda: (
            "CSRF verification failed. Request aborted. (CSRF token missing.) — I get this when I submit the support form from Safari"
        ),
        2,
    )
    add(
        lambda: (
            f'Output with logprobs: {{"token": "Hello", "logprob": -0.{f.pick(DIGITS, 6)}, "bytes": [72, 101, 108, 108, 111]}}'
        ),
        2,
    )
    add(
        lambda: (
            "¿Cuántos tokens por segundo puedo esperar con Llama 3.1 70B en 2× H100? Con vLLM me salen unos 1.800 tokens/s."
        ),
        2,
        "es",
    )
    add(lambda: "Em muốn hỏi số token tối đa (max_tokens) khi chạy Qwen2.5 trên RTX 4090 là bao nhiêu ạ?", 2, "vi")
    add(lambda: "Token sayısı 128k'yı geçince model çöküyor, bağlam uzunluğunu nasıl artırırım?", 2, "tr")

    # --- masked, placeholders and references -----------------------------------------------------------------------
    add(
        lambda: (
            f"aws configure list\n      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n   profile                <not set>             None    None\naccess_key     ****************{f.pick(UPPER, 4)} shared-credentials-file\nsecret_key     ****************{f.pick(ALNUM, 4)} shared-credentials-file\n    region                eu-west-1      config-file    ~/.aws/config"
        ),
        3,
    )
    add(
        lambda: (
            f"The error says: Incorrect API key provided: sk-proj-****************************************{f.pick(ALNUM, 4)}. You can find your API key at https://platform.openai.com/account/api-keys."
        ),
        3,
    )
    add(
        lambda: (
            f"my token starts with hf_{f.pick(ALNUM, 4)}… and ends with …{f.pick(ALNUM, 4)}, I won't paste the whole thing here — is it enough to identify it?"
        ),
        3,
    )
    add(
        lambda: (
            "docker login nvcr.io --username '$oauthtoken' --password \"$NGC_API_KEY\"\nWARNING! Using --password via the CLI is insecure.\nLogin Succeeded — but the pull still fails with 401"
        ),
        3,
    )
    add(
        lambda: (
            "huggingface-cli login --token $HF_TOKEN\nThe token has not been saved to the git credentials helper.\nwhy not?"
        ),
        3,
    )
    add(lambda: "PGPASSWORD=\"$DB_PASS\" psql -h db.internal -U app -d app -c 'select 1'", 2)
    add(
        lambda: (
            "- name: Log in to NGC\n  run: echo \"${{ secrets.NGC_API_KEY }}\" | docker login nvcr.io -u '$oauthtoken' --password-stdin\nthe step passes but the self-hosted runner on your box can't pull"
        ),
        3,
    )
    add(
        lambda: (
            "env:\n  - name: HF_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: hf-secret\n        key: token\nthe pod says HF_TOKEN is empty"
        ),
        3,
    )
    add(
        lambda: (
            "OPENAI_API_KEY=op://Lab/OpenAI/credential\nop run --env-file=.env -- python app.py\n[ERROR] could not resolve item"
        ),
        2,
    )
    add(
        lambda: (
            'password: "{{ vault_db_password }}"\nansible says the variable is undefined when I run against the GPU box'
        ),
        2,
    )
    add(
        lambda: (
            "# .env.example — copy to .env and fill in\nOPENAI_API_KEY=\nHF_TOKEN=\nWANDB_API_KEY=\nDATABASE_URL=postgres://app:<password>@localhost:5432/app"
        ),
        3,
    )
    add(
        lambda: (
            "api_key: YOUR_API_KEY_HERE\nsecret: <paste-secret>\ntoken: ${TOKEN}\nthis is the template from your docs; where do I get the key from?"
        ),
        3,
    )
    add(
        lambda: (
            "values.yaml\npostgresql:\n  auth:\n    username: app\n    password: \"\"        # set with --set postgresql.auth.password=...\n    existingSecret: pg-auth\nhelm install fails with 'password must not be empty'"
        ),
        3,
    )
    add(
        lambda: (
            "ngc config current\n+-------------+--------------------------------------------------+---------------+\n| key         | value                                            | source        |\n+-------------+--------------------------------------------------+---------------+\n| apikey      | ********************************************ZjMw | user settings |\n| format_type | ascii                                            | user settings |\n| org         | lab-nvaie                                        | user settings |"
        ),
        2,
    )
    add(
        lambda: (
            "DSN: postgresql://app:********@db.internal:5432/app (masked by the logger) — but the connection is refused"
        ),
        2,
    )
    add(lambda: 'Authorization: Bearer <redacted>\n< HTTP/2 401\n< www-authenticate: Bearer error="invalid_token"', 2)
    add(
        lambda: (
            'SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]\nDATABASES = {"default": env.db("DATABASE_URL")}\nthe container starts but returns 400 Bad Request'
        ),
        2,
    )
    add(
        lambda: (
            "password = getpass.getpass('DB password: ')\ndoes not work in a non-interactive job on your instance, what should I use?"
        ),
        2,
    )
    add(
        lambda: (
            "projects/vision-lab-41/secrets/hf-token/versions/latest — the service account has secretAccessor, still 403"
        ),
        2,
    )
    add(
        lambda: (
            "vault kv get -field=password secret/train/db\nError reading secret/train/db: Error making API request. Code: 403. Errors: * permission denied"
        ),
        2,
    )
    add(
        lambda: (
            "La contraseña está en la variable de entorno DB_PASSWORD, no la pongo aquí. ¿Por qué el contenedor no la ve?"
        ),
        2,
        "es",
    )
    add(
        lambda: (
            "Mật khẩu em để trong file .env (DB_PASSWORD=...), không gửi ở đây được. Sao container không đọc được ạ?"
        ),
        2,
        "vi",
    )
    add(
        lambda: "Şifreyi buraya yazmıyorum, ortam değişkeninde (DB_PASSWORD) duruyor. Konteyner neden görmüyor?",
        2,
        "tr",
    )

    # --- flags that are not passwords, key file paths ------------------------------------------------------------
    add(
        lambda: (
            f"ssh -p {f.rng.randint(20000, 60000)} -i ~/.ssh/gpurent_ed25519 root@{_ip(f)}\nConnection closed by {_ip(f)} port 22"
        ),
        4,
    )
    add(
        lambda: (
            f"docker run --gpus all -p 8080:8080 -p 8888:8888 -v /data:/data ghcr.io/lab/infer:{f.hex(7)}\nport 8080 not reachable from outside"
        ),
        3,
    )
    add(
        lambda: (
            f"mysql -h {_ip(f)} -P 3306 -u root -p\nEnter password:\nERROR 2003 (HY000): Can't connect to MySQL server"
        ),
        3,
    )
    add(lambda: f"redis-cli -h {_ip(f)} -p 6379 ping → Could not connect to Redis", 2)
    add(lambda: f"scp -P 2222 -i /home/me/keys/lab.pem ./data.tar ubuntu@{_ip(f)}:/data/", 3)
    add(
        lambda: (
            "torchrun --nproc_per_node 8 --nnodes 2 --master_port 29500 train.py\nmpirun -np 16 -x NCCL_DEBUG=INFO ./all_reduce_perf -b 8 -e 8G -f 2 -g 1"
        ),
        2,
    )
    add(
        lambda: (
            "gcloud auth activate-service-account --key-file=/secrets/sa.json\nERROR: (gcloud.auth.activate-service-account) Could not read json file /secrets/sa.json"
        ),
        2,
    )
    add(
        lambda: (
            "~/.ssh/config\nHost gpu\n  HostName 203.0.113.7\n  Port 41022\n  User root\n  IdentityFile ~/.ssh/id_ed25519\n  IdentitiesOnly yes\nstill asks for a password"
        ),
        3,
    )
    add(
        lambda: (
            "ansible-playbook site.yml --vault-password-file ~/.vault_pass.txt -i hosts\nERROR! Decryption failed (no vault secrets were found that could decrypt)"
        ),
        2,
    )
    add(
        lambda: (
            "openssl genrsa -out server.key 4096 && openssl req -new -key server.key -out server.csr -subj '/CN=gpu.lab.example'\nnginx still serves the default cert"
        ),
        2,
    )
    add(lambda: "curl -k --cert client.crt --key client.key https://10.0.0.5:8443/health → 000", 2)
    add(
        lambda: (
            "sshpass -f /root/.sshpass ssh -p 2222 root@203.0.113.9 'nvidia-smi'\nworks from my laptop, not from the CI"
        ),
        2,
    )
    add(
        lambda: (
            "restic -r s3:s3.amazonaws.com/lab-backup --password-file /etc/restic/pass snapshots\nFatal: unable to open config file: Stat: Access Denied"
        ),
        2,
    )
    add(
        lambda: (
            "export KUBECONFIG=~/.kube/lab.yaml\nkubectl --token-file=/var/run/secrets/kubernetes.io/serviceaccount/token get pods\nerror: unknown flag: --token-file"
        ),
        2,
    )
    add(
        lambda: (
            "openvpn --config lab.ovpn --auth-user-pass /etc/openvpn/creds.txt\nAUTH: Received control message: AUTH_FAILED"
        ),
        2,
    )

    # --- public keys, certificates, fingerprints -------------------------------------------------------------------
    add(
        lambda: (
            f"Please add my public key to the instance: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} priya@laptop"
        ),
        5,
    )
    add(
        lambda: (
            f"authorized_keys has:\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{f.pick(B64, 300)} deploy@ci\nbut the login is still refused"
        ),
        3,
    )
    add(
        lambda: (
            f"ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{f.pick(B64, 43)} me@box (ED25519)\nis that the fingerprint you see on the server?"
        ),
        3,
    )
    add(
        lambda: (
            f"The host key changed warning: ECDSA key fingerprint is SHA256:{f.pick(B64, 43)}. Did you reinstall the node?"
        ),
        2,
    )
    add(
        lambda: (
            "-----BEGIN PUBLIC KEY-----\n"
            + "\n".join(f.pick(B64, 64) for _ in range(5))
            + "\n"
            + f.pick(B64, 24)
            + "==\n-----END PUBLIC KEY-----\nthis is the webhook verification key from our side; which one do you use?"
        ),
        3,
    )
    add(
        lambda: (
            "ca.crt of our registry (so you can trust it):\n-----BEGIN CERTIFICATE-----\nMIID"
            + f.pick(B64, 60)
            + "\n"
            + "\n".join(f.pick(B64, 64) for _ in range(8))
            + "\n-----END CERTIFICATE-----"
        ),
        3,
    )
    add(
        lambda: (
            f"WireGuard peer for the site-to-site tunnel:\n[Peer]\nPublicKey = {f.pick(B64, 43)}=\nAllowedIPs = 10.8.0.0/24\nEndpoint = {_ip(f)}:51820\nhandshake never completes"
        ),
        3,
    )
    add(lambda: f"age recipient for encrypting the dataset keys: age1{f.pick(BECH32, 58)} (public, safe)", 2)
    add(
        lambda: (
            f"gpg --list-keys\npub   ed25519 2025-03-01 [SC]\n      {f.hex(40).upper()}\nuid   [ultimate] Lab Release <release@lab.example>\nsub   cv25519 2025-03-01 [E]"
        ),
        2,
    )
    add(
        lambda: (
            f'Our JWKS: {{"keys": [{{"kty": "RSA", "kid": "{f.hex(16)}", "use": "sig", "alg": "RS256", "e": "AQAB", "n": "{f.pick(URLSAFE, 342)}"}}]}}'
        ),
        2,
    )
    add(
        lambda: f"cosign verify --key cosign.pub ghcr.io/lab/train@sha256:{f.hex(64)}\nError: no matching signatures", 2
    )

    # --- prose about keys and passwords -----------------------------------------------------------------------------
    add(
        lambda: f.choice(
            [
                "I rotated all my API keys after I accidentally pasted one in a ticket last week. Can you delete that old ticket?",
                "Does the private key have to be in PEM format or does OpenSSH format work with your key upload form?",
                "Password reset e-mail never arrives (checked spam). Account is the one this message comes from.",
                "What's your policy on storing customer SSH keys? Our security team asks whether you keep the private half anywhere (I assume not).",
                "Is there a way to use an API token instead of my password for the CLI? I'd rather not keep the password in scripts.",
                "The password field on the sign-up form does not accept more than 64 characters, is that intended?",
                "Where do I put my Hugging Face token so every new instance has it? Environment variables in the template?",
                "We use short-lived tokens from our vault, they expire after 1 h. Will a job that runs 10 h lose access to S3?",
            ]
        ),
        12,
    )
    add(
        lambda: f.choice(
            [
                "¿Dónde guardo mi token de Hugging Face para que cada instancia nueva lo tenga?",
                "Cambié la contraseña de mi cuenta y ahora la CLI dice 401. ¿Tengo que generar una clave de API nueva?",
                "¿La clave privada SSH debe estar en formato PEM?",
            ]
        ),
        4,
        "es",
    )
    add(
        lambda: f.choice(
            [
                "Em quên mật khẩu tài khoản, bấm 'quên mật khẩu' mà không nhận được email.",
                "Khóa SSH riêng tư có cần định dạng PEM không ạ?",
                "Token API hết hạn sau bao lâu vậy shop?",
            ]
        ),
        4,
        "vi",
    )
    add(
        lambda: f.choice(
            [
                "Şifremi unuttum, sıfırlama e-postası gelmiyor.",
                "API anahtarı ne kadar süre geçerli? Yenilemem gerekiyor mu?",
                "SSH özel anahtarı PEM formatında mı olmalı?",
            ]
        ),
        4,
        "tr",
    )

    # --- configs with empty or templated secrets, and look-alike configs --------------------------------------------
    add(
        lambda: (
            f"docker-compose.yml\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/pg_pass\n    secrets: [pg_pass]\nsecrets:\n  pg_pass:\n    file: ./pg_pass.txt\nthe db restarts in a loop (exit {f.rng.randint(1, 3)})"
        ),
        3,
    )
    add(
        lambda: (
            "~/.aws/config\n[profile train]\nregion = us-east-1\nrole_arn = arn:aws:iam::123456789012:role/TrainRole\nsource_profile = default\ncredential_process = /usr/local/bin/aws-vault exec train --json"
        ),
        2,
    )
    add(
        lambda: (
            "[Service]\nEnvironmentFile=/etc/infer/env\nLoadCredential=hf-token:/etc/credstore/hf-token\nExecStart=/opt/venv/bin/python -m infer"
        ),
        2,
    )
    add(
        lambda: (
            'apiVersion: v1\nkind: Secret\nmetadata:\n  name: hf\ntype: Opaque\nstringData:\n  HF_TOKEN: ""   # filled by external-secrets\n---\nExternalSecret stays in SecretSyncedError'
        ),
        2,
    )
    add(
        lambda: (
            f"sshd_config on the image:\nPasswordAuthentication no\nPubkeyAuthentication yes\nPermitRootLogin prohibit-password\nPort {f.rng.randint(20000, 60000)}"
        ),
        3,
    )
    add(
        lambda: (
            "CREATE TABLE users (id bigserial primary key, email text unique, password_hash text not null, api_key_id uuid);"
        ),
        2,
    )
    add(
        lambda: (
            f"settings.py\nCACHES = {{'default': {{'BACKEND': 'django_redis.cache.RedisCache', 'LOCATION': 'redis://{_ip(f)}:6379/1', 'KEY_PREFIX': 'infer'}}}}\ncache key infer:1:views.decorators.cache.cache_page.{f.hex(32)}"
        ),
        2,
    )
    add(
        lambda: (
            f"S3 object key: datasets/laion/part-{f.rng.randint(0, 9999):05d}/{f.hex(16)}.tar — GetObject returns NoSuchKey"
        ),
        3,
    )
    add(
        lambda: (
            f"The 'key' column in my parquet is a hash of the URL: {f.hex(40)}; after dedup on your instance 30% of rows vanish."
        ),
        2,
    )
    add(
        lambda: (
            f'JWT header from your API error page: {{"alg": "RS256", "kid": "{f.hex(16)}", "typ": "JWT"}} — which key id should I trust?'
        ),
        2,
    )
    add(
        lambda: (
            f"nvidia-smi -q | grep -i serial\n    Serial Number                         : 165{f.pick(DIGITS, 10)}\n    Board Part Number                     : 692-2G520-0200-000"
        ),
        2,
    )
    add(
        lambda: (
            f"ip a\n2: eth0: <BROADCAST,MULTICAST,UP> mtu 1500\n    link/ether 02:{f.hex(2)}:{f.hex(2)}:{f.hex(2)}:{f.hex(2)}:{f.hex(2)} brd ff:ff:ff:ff:ff:ff\n    inet6 2a01:4f8:{f.hex(4)}:{f.hex(4)}::2/64 scope global"
        ),
        2,
    )
    add(lambda: f"Here's the thumbnail that breaks the upload (data URI): data:image/png;base64,{_png(f)}", 2)
    add(
        lambda: (
            f"my config.json for the agent:\n{json.dumps({'region': 'eu-central', 'gpu': 'H100', 'api_key_env': 'OPENAI_API_KEY', 'token_budget': f.rng.randint(1000, 99999), 'secret_store': 'aws-sm'})}"
        ),
        3,
    )
    add(
        lambda: (
            f'terraform plan\n  # aws_db_instance.main will be created\n  + password = (sensitive value)\n  + username = "app"\n  + id       = (known after apply)\nPlan: {f.rng.randint(1, 20)} to add'
        ),
        2,
    )
    add(
        lambda: (
            f"kubectl describe secret regcred\nName:         regcred\nType:  kubernetes.io/dockerconfigjson\nData\n====\n.dockerconfigjson:  {f.rng.randint(100, 300)} bytes"
        ),
        2,
    )
    add(
        lambda: (
            "gh auth status\ngithub.com\n  ✓ Logged in to github.com account labbot (keyring)\n  - Token: ghp_************************************\n  - Token scopes: 'repo', 'read:packages'"
        ),
        2,
    )
    add(
        lambda: (
            f"Base64 of the error payload (you asked for it): {base64.b64encode(json.dumps({'error': 'cuda_oom', 'gpu': f.rng.randint(0, 7), 'ts': 1764700000 + f.rng.randint(0, 10**6)}).encode()).decode()}"
        ),
        2,
    )
    add(
        lambda: f"hashcat benchmark on the 4090 box: {f.rng.randint(100, 300)} GH/s for MD5 — is that what you expect?",
        1,
    )
    add(lambda: f"Ödeme yaptım, işlem hash'i 0x{f.hex(64)}, cüzdan adresim {_eth(f)}.", 2, "tr")
    # --- more look-alikes from the same pastes ---------------------------------------------------------------------
    add(
        lambda: (
            f'eth_getTransactionReceipt →\n{{"transactionHash": "0x{f.hex(64)}", "blockHash": "0x{f.hex(64)}", "from": "{_eth(f)}", "to": "{_eth(f)}", "status": "0x1", "gasUsed": "0x{f.hex(5)}"}}\nso it went through, why is my balance 0?'
        ),
        4,
    )
    add(
        lambda: (
            f"solana account {f.solana_address()}\nPublic Key: {f.solana_address()}\nBalance: 0.{f.pick(DIGITS, 6)} SOL\nOwner: TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VxF5\nExecutable: false"
        ),
        3,
    )
    add(lambda: f"Refund address (BTC, legacy): {f.btc_address()} — please not the bech32 one from the invoice", 2)
    add(
        lambda: (
            f'model.safetensors.index.json\n{{"metadata": {{"total_size": {f.rng.randint(10**10, 10**11)}}}, "weight_map": {{"lm_head.weight": "model-00004-of-00004.safetensors", "model.embed_tokens.weight": "model-00001-of-00004.safetensors"}}}}'
        ),
        2,
    )
    add(
        lambda: (
            f"cat ~/.cache/huggingface/hub/models--{f.choice(models).replace('/', '--')}/refs/main\n{f.hex(40)}\nbut the snapshot folder with that name is empty"
        ),
        3,
    )
    add(
        lambda: (
            f"git lfs pointer instead of the weights:\nversion https://git-lfs.github.com/spec/v1\noid sha256:{f.hex(64)}\nsize {f.rng.randint(10**8, 10**10)}"
        ),
        3,
    )
    add(
        lambda: (
            f'deployment annotations:\n  checksum/config: {f.hex(64)}\n  kubectl.kubernetes.io/restartedAt: "2026-12-0{f.rng.randint(1, 3)}T10:{f.rng.randint(10, 59)}:00Z"'
        ),
        2,
    )
    add(
        lambda: (
            f'terraform.tfstate header: "version": 4, "serial": {f.rng.randint(1, 400)}, "lineage": "{f.uuid()}" — two people applied at once, how do I recover?'
        ),
        2,
    )
    add(
        lambda: (
            f"#cloud-config\nusers:\n  - name: lab\n    ssh_authorized_keys:\n      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} lab@ws\n    sudo: ALL=(ALL) NOPASSWD:ALL\nthe user is not created on your image"
        ),
        3,
    )
    add(
        lambda: (
            "~/.npmrc\n@lab:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${NPM_TOKEN}\nnpm ci → 401 in the container, the variable is set"
        ),
        3,
    )
    add(
        lambda: (
            "~/.pypirc\n[distutils]\nindex-servers = pypi\n[pypi]\nusername = __token__\npassword = ${PYPI_API_TOKEN}\ntwine does not expand it?"
        ),
        2,
    )
    add(
        lambda: (
            '~/.docker/config.json\n{\n  "auths": {\n    "nvcr.io": {},\n    "ghcr.io": {}\n  },\n  "credsStore": "desktop"\n}\ndocker pull on the instance says no basic auth credentials'
        ),
        3,
    )
    add(
        lambda: (
            f"kubeconfig from EKS:\nclusters:\n- cluster:\n    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSU{f.pick(B64, 120)}\n    server: https://{f.hex(32).upper()}.gr7.eu-west-1.eks.amazonaws.com\nusers:\n- user:\n    exec:\n      command: aws\n      args: [eks, get-token, --cluster-name, lab]"
        ),
        3,
    )
    add(
        lambda: (
            f"iperf3 -c {_ip(f)} -p 5201 -P 8 -t 30\niperf3: error - unable to connect to server: Connection refused"
        ),
        2,
    )
    add(
        lambda: (
            "tensorboard --logdir runs --port 6006 --bind_all\npython -m http.server 8000 -b 0.0.0.0\nneither port is reachable"
        ),
        2,
    )
    add(lambda: f"psql -h {_ip(f)} -U app -W app\nPassword:\npsql: error: FATAL: no pg_hba.conf entry for host", 2)
    add(
        lambda: (
            f"ssh-add -l\n256 SHA256:{f.pick(B64, 43)} me@laptop (ED25519)\n3072 SHA256:{f.pick(B64, 43)} deploy (RSA)\nagent forwarding doesn't reach the instance"
        ),
        2,
    )
    add(
        lambda: (
            f"x-amz-request-id: {f.pick(UPPER, 16)}\nx-amz-id-2: {f.pick(B64, 76)}=\n<Error><Code>SlowDown</Code></Error>"
        ),
        2,
    )
    add(
        lambda: (
            f"Ticket INC{f.pick(DIGITS, 7)} from our IT: they need the invoice number and the instance id {f.uuid()}"
        ),
        2,
    )
    add(
        lambda: (
            f'prometheus: DCGM_FI_DEV_GPU_UTIL{{gpu="0",UUID="GPU-{f.uuid()}",Hostname="node{f.rng.randint(1, 40)}"}} 0 — the GPU is idle but I\'m billed'
        ),
        3,
    )
    add(
        lambda: (
            f"openssl x509 -noout -fingerprint -sha256 -in server.crt\nsha256 Fingerprint={':'.join(f.hex(2).upper() for _ in range(32))}"
        ),
        2,
    )
    add(
        lambda: (
            f"Cleaned-up diff of my config:\n-  api_base: http://{_ip(f)}:8000/v1\n+  api_base: http://localhost:8000/v1\n   api_key: os.environ/OPENAI_API_KEY\n   max_tokens: {f.rng.randint(256, 8192)}"
        ),
        3,
    )
    add(
        lambda: (
            f"DVC file:\nouts:\n- md5: {f.hex(32)}.dir\n  size: {f.rng.randint(10**6, 10**10)}\n  nfiles: {f.rng.randint(10, 90000)}\n  path: data/train"
        ),
        2,
    )
    add(
        lambda: (
            f"IPFS CID of the dataset manifest: bafybei{f.pick(BECH32.replace('1', ''), 52)} — can your nodes reach the gateway?"
        ),
        2,
    )
    add(lambda: f"pip download log: Saved ./wheels/vllm-0.6.4-cp38-abi3-manylinux1_x86_64.whl#sha256={f.hex(64)}", 2)
    add(lambda: f"Chúng tôi đã chuyển khoản, mã giao dịch Solana: {f.solana_signature()}.", 2, "vi")
    add(
        lambda: (
            f"Firma de la transacción en Solana: {f.solana_signature()} — desde mi dirección pública {f.solana_address()}."
        ),
        2,
        "es",
    )
    add(lambda: f"GPU UUID'si GPU-{f.uuid()} olan kart sürekli Xid 48 hatası veriyor.", 2, "tr")
    add(
        lambda: (
            f"Mi clave pública SSH: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} ana@portatil — ¿la pueden añadir?"
        ),
        2,
        "es",
    )
    add(
        lambda: f"Khóa công khai SSH của em: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} minh@laptop",
        2,
        "vi",
    )
    add(lambda: f"SSH açık anahtarım: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} elif@pc", 2, "tr")
    add(
        lambda: f.choice(
            [
                "My password manager generated a 32-character password and your form truncated it, so now I can't log in.",
                "Is it safe to put my wandb key in the instance template, or do you log template variables?",
                "The token you e-mailed for the beta expired before I could use it — can you send a new invite?",
                "Our auditor asks: do support staff see secrets we paste by mistake? We pasted a key in a ticket in October.",
                "Which key type do you support for SSH: ed25519, rsa 4096, ecdsa? The form rejected my sk-ssh-ed25519 security key.",
                "How do I revoke an API token I created in the dashboard? There is no delete button next to it.",
            ]
        ),
        8,
    )
    add(
        lambda: (
            f"nvidia-smi\n| {f.rng.randint(0, 7)}  NVIDIA H100 80GB HBM3   On  | 00000000:{f.hex(2).upper()}:00.0 Off |   0 |\n| N/A   {f.rng.randint(30, 80)}C   P0   {f.rng.randint(70, 700)}W / 700W |  {f.rng.randint(0, 80000)}MiB / 81559MiB | {f.rng.randint(0, 100)}%  Default |\nfan is N/A, is that normal?"
        ),
        3,
    )
    add(
        lambda: (
            f"hf jobs ps\nJOB ID                    IMAGE/SPACE           COMMAND      CREATED              STATUS\n{f.hex(24)}  pytorch/pytorch:2.5    python ...   2026-12-02 09:{f.rng.randint(10, 59)}:03  ERROR"
        ),
        2,
    )
    add(
        lambda: (
            f"the webhook you send us has X-Signature: sha256={f.hex(64)} — how do I verify it, with which secret? (we haven't got one yet)"
        ),
        2,
    )
    add(
        lambda: (
            f"solana-keygen new --no-bip39-passphrase -o pay.json\nGenerating a new keypair\nWrote new keypair to pay.json\n=============================================\npubkey: {f.solana_address()}\n=============================================\nSave this seed phrase to recover your new keypair:\n[removed, I'm not that naive]\n=============================================\nwhich address do I send the payment from?"
        ),
        3,
    )
    add(
        lambda: f"solana-keygen pubkey ~/.config/solana/id.json\n{f.solana_address()}\nthat's the wallet I paid from", 3
    )
    add(
        lambda: (
            "spec:\n  imagePullSecrets:\n    - name: regcred\n  containers:\n    - name: infer\n      image: registry.lab.example/infer:v5\npods: ErrImagePull"
        ),
        2,
    )
    add(
        lambda: (
            "git remote -v\norigin  https://github.com/lab/train.git (fetch)\norigin  git@github.com:lab/train.git (push)\npush works, fetch asks for a username"
        ),
        2,
    )
    add(
        lambda: (
            f"kubectl port-forward svc/grafana {f.rng.randint(3000, 9000)}:80 -n monitoring\nerror: lost connection to pod"
        ),
        2,
    )
    add(
        lambda: (
            "WANDB_MODE=offline\nWANDB_DIR=/data/wandb\nHF_HUB_ENABLE_HF_TRANSFER=1\nHF_HOME=/data/hf\nthe job still tries to reach api.wandb.ai"
        ),
        2,
    )
    add(
        lambda: (
            f"Storage slot 0x{f.hex(64)} of the payment contract holds my deposit mapping — can you check it on your side?"
        ),
        2,
    )
    add(
        lambda: (
            'config.yaml del servidor:\ndatabase:\n  host: db.interno\n  user: app\n  password: ""   # la pone el operador\n¿Por qué falla al arrancar?'
        ),
        2,
        "es",
    )
    add(
        lambda: (
            "Cấu hình của em:\nredis:\n  host: 10.0.0.7\n  password: ${REDIS_PASSWORD}\nmà ứng dụng báo NOAUTH Authentication required."
        ),
        2,
        "vi",
    )
    add(
        lambda: (
            "Yapılandırma:\nsmtp:\n  user: bildirim@lab.example\n  password: <gizli, ortam değişkeninden>\nE-postalar gitmiyor."
        ),
        2,
        "tr",
    )
    add(
        lambda: (
            f"hf_transfer log: downloaded {f.rng.randint(1, 30)}/30 files, blob {f.hex(64)} 4.98 GB at 1.1 GB/s, then 'Connection reset by peer'"
        ),
        3,
    )
    return out

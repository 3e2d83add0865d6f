# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the third tuning part (see `build_tuning3.py`): look-alikes that must come back unchanged."""

from __future__ import annotations

import base64
import json

from .fakes import ALNUM, B64, LOWER, UPPER, Fakes
from .writer import repeat

DIGITS = "0123456789"


def _chain_and_hashes(f: Fakes) -> list:
    return [
        lambda: f"Mi pago no aparece. Hash: 0x{f.hex(64)} (red Ethereum)",
        lambda: f"giao dịch 0x{f.hex(64)} đã xác nhận nhưng đơn hàng chưa được cập nhật",
        lambda: f"TxHash 0x{f.hex(64)} — ödeme onaylandı mı?",
        lambda: json.dumps(
            {
                "jsonrpc": "2.0",
                "result": {
                    "signatures": [f.solana_signature()],
                    "message": {
                        "accountKeys": [f.solana_address(), f.solana_address()],
                        "recentBlockhash": f.b58(f.raw(32)),
                    },
                },
            }
        ),
        lambda: (
            f"event Transfer topic0 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef, data 0x{'0' * 40}{f.hex(24)}"
        ),
        lambda: f"stateRoot: 0x{f.hex(64)}\nparentHash: 0x{f.hex(64)}",
        lambda: f"USDC mint EPjFWdd5AufqSSqeM2qN1xzybapC2G4wGkZwyTDt1v, my wallet {f.solana_address()}",
        lambda: (
            f"~/.cache/huggingface/hub/models--Qwen--Qwen2.5-7B-Instruct/snapshots/{f.hex(40)}/model-00002-of-00004.safetensors"
        ),
        lambda: (
            f"REPOSITORY          TAG       IMAGE ID       CREATED\nvllm/vllm-openai    v0.6.4    {f.hex(12)}   2 weeks ago"
        ),
        lambda: f"$ git rev-parse HEAD\n{f.hex(40)}",
        lambda: f"{f.hex(40)} 100644 blob  checkpoints/.gitattributes\n{f.hex(64)} * model.bin (LFS)",
        lambda: f"cosign verify ... Signature: MEUCIQ{f.pick(B64, 60)}==",
        lambda: f"SHA1 fingerprint: {':'.join(f.hex(2).upper() for _ in range(20))}",
        lambda: f"The key fingerprint is:\nSHA256:{f.pick(B64, 43)} ada@gpu",
        lambda: f"buildx: exporting manifest sha256:{f.hex(64)} done\nexporting config sha256:{f.hex(64)} done",
        lambda: f'etag: "{f.hex(32)}"\nx-amz-version-id: {f.pick(ALNUM + "._", 32)}',
    ]


def _ids_errors_payloads(f: Fakes) -> list:
    return [
        lambda: (
            f"$ nvidia-smi -L\nGPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-{f.uuid()})\n  MIG 3g.40gb Device 0: (UUID: MIG-{f.uuid()})"
        ),
        lambda: f"trace_id={f.hex(32)} span_id={f.hex(16)} status=500",
        lambda: f"cf-ray: {f.hex(16)}-FRA\nx-request-id: {f.uuid()}",
        lambda: f"wandb run id {f.pick(LOWER + DIGITS, 8)}, sweep {f.pick(LOWER + DIGITS, 8)}",
        lambda: f"stripe: payment_intent pi_{f.pick(ALNUM, 24)} requires_action, setup intent seti_{f.pick(ALNUM, 24)}",
        lambda: "ValueError: Invalid api_key: must start with 'sk-'",
        lambda: (
            "openai.OpenAIError: The api_key client option must be set either by passing api_key to the client or by setting the OPENAI_API_KEY environment variable"
        ),
        lambda: (
            "Traceback (most recent call last):\n  File \"serve.py\", line 40, in <module>\n    token = os.environ['HF_TOKEN']\nKeyError: 'HF_TOKEN'"
        ),
        lambda: (
            "huggingface_hub.errors.LocalTokenNotFoundError: Token is required (`token=True`), but no token found. You need to provide a token or be logged in to Hugging Face with `huggingface-cli login`"
        ),
        lambda: (
            f"RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:{f.rng.randint(1000, 2000)}, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5"
        ),
        lambda: (
            "CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`"
        ),
        lambda: (
            f"[rank{f.rng.randint(0, 7)}]:[E ProcessGroupNCCL.cpp:616] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={f.rng.randint(1, 9999)}, OpType=ALLREDUCE, Timeout(ms)=600000)"
        ),
        lambda: (
            f"kernel: NVRM: GPU at PCI:0000:{f.hex(2)}:00: GPU-{f.uuid()}\nkernel: NVRM: Xid (PCI:0000:{f.hex(2)}:00): 48, pid={f.rng.randint(100, 99999)}, DBE (double bit error)"
        ),
        lambda: (
            f'{{"image": "data:image/jpeg;base64,{base64.b64encode(bytes.fromhex("ffd8ffe0") + f.raw(150)).decode()}"}}'
        ),
        lambda: f"data:audio/wav;base64,{base64.b64encode(b'RIFF' + f.raw(200)).decode()}",
        lambda: json.dumps(
            {"inputs": "a photo", "image": base64.b64encode(bytes.fromhex("89504e47") + f.raw(120)).decode()}
        ),
        lambda: f"labels = [{', '.join(str(f.rng.choice([-100, f.rng.randint(0, 255)])) for _ in range(64))}]",
        lambda: f"digest bytes {list(f.raw(32))}",
        lambda: (
            f"kubectl describe secret hf-token\nName:         hf-token\nType:  Opaque\nData\n====\ntoken:  {f.rng.randint(30, 40)} bytes"
        ),
    ]


def _configs_and_prose(f: Fakes) -> list:
    return [
        lambda: "OPENAI_API_KEY=sk-proj-XXXXXXXXXXXXXXXXXXXXXXXX\nHF_TOKEN=<YOUR_HF_TOKEN>\nWANDB_API_KEY=",
        lambda: '{"username": "ada", "key": "${KAGGLE_KEY}"}',
        lambda: "environment:\n  - POSTGRES_PASSWORD=${POSTGRES_PASSWORD:?set it}\n  - JUPYTER_TOKEN=${JUPYTER_TOKEN}",
        lambda: "~/.netrc\nmachine api.wandb.ai\n  login user\n  password $WANDB_API_KEY",
        lambda: (
            'tokenizer_config.json: {"pad_token": "<pad>", "eos_token": "</s>", "bos_token": "<s>", "model_max_length": 32768}'
        ),
        lambda: (
            f'"eos_token_id": {f.rng.randint(2, 128009)}, "pad_token_id": {f.rng.randint(0, 128009)}, "rope_theta": 500000.0'
        ),
        lambda: (
            "class Settings(BaseSettings):\n    api_key: SecretStr\n    database_password: str = Field(..., env='DB_PASSWORD')"
        ),
        lambda: f"max_new_tokens={f.rng.randint(64, 4096)}, temperature=0.7, top_p=0.95, repetition_penalty=1.1",
        lambda: f"MASTER_ADDR=10.0.0.{f.rng.randint(2, 250)} MASTER_PORT=29500 NCCL_IB_HCA=mlx5_0 WORLD_SIZE=16",
        lambda: "secret_name: hf-token\nsecret_key: token\nmount_path: /var/run/secrets/hf",
        lambda: (
            f"torchrun --nproc_per_node 8 train.py --seed {f.rng.randint(0, 9999)} --key_dim 128 --token_budget 8192"
        ),
        lambda: "[Interface]\nPrivateKey = $(cat /etc/wireguard/private.key)\nAddress = 10.8.0.3/24",
        lambda: f.pem("CERTIFICATE") + "\nthis is the chain from the ingress",
        lambda: f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{f.pick(B64, 200)} ada@workstation",
        lambda: f"password_reset_timeout = {f.rng.randint(600, 86400)}\nsession_cookie_age = 1209600",
        lambda: f.choice(
            [
                "¿Cómo cambio la contraseña del usuario root de la máquina?",
                "Perdí mi clave privada, ¿hay forma de recuperar el depósito?",
                "No quiero pegar mi API key aquí, ¿es seguro?",
            ]
        ),
        lambda: f.choice(
            [
                "Làm sao để đổi mật khẩu root trên máy thuê?",
                "Tôi mất khóa riêng tư, có lấy lại được tiền không?",
                "Tôi có nên gửi API key cho bộ phận hỗ trợ không?",
            ]
        ),
        lambda: f.choice(
            [
                "Makinedeki root şifresini nasıl değiştiririm?",
                "Özel anahtarımı kaybettim, parayı geri alabilir miyim?",
                "API anahtarımı buraya yapıştırmam güvenli mi?",
            ]
        ),
        lambda: f.choice(
            [
                "The token expired after the rental was extended, do I need a new one?",
                "Can you reset the Jupyter password for order 4411?",
                "Is the private key for the box ever stored on your side?",
            ]
        ),
        lambda: (
            f"epoch {f.rng.randint(1, 9)} step {f.rng.randint(100, 90000)} loss={f.rng.random():.4f} grad_norm={f.rng.random() * 3:.3f} lr=1.9e-05"
        ),
        lambda: (
            f"Downloading shards: 100%|██████████| 4/4 [0{f.rng.randint(1, 9)}:{f.rng.randint(10, 59)}<00:00, 45.1s/it]"
        ),
        lambda: (
            f"Your key ...{f.pick(ALNUM, 4)} was revoked. Create a new one at https://huggingface.co/settings/tokens"
        ),
        lambda: f"batch {f.pick(UPPER + DIGITS, 10)} shipped; tracking {f.pick(DIGITS, 12)}",
        # shapes the round-3 patterns must not take (written with them, before measuring)
        lambda: f"Password last changed: 2026-11-{f.rng.randint(10, 30)}\nPassword expires: never",
        lambda: f"Idempotency key: {f.uuid()}",
        lambda: f"Cache restored from key: Linux-pip-{f.hex(64)}",
        lambda: f"POST /twilio/status MessageSid=SM{f.hex(32)}&MessageStatus=delivered",
        lambda: f"second_pass: {f.rng.randint(1, 9)}\nnum_pass = {f.rng.randint(1, 9)}",
        lambda: (
            f"{f.rng.randint(10, 23)}:{f.rng.randint(10, 59)}:{f.rng.randint(10, 59)}:{f.rng.randint(100, 999)}:{f.rng.randint(10, 99)}"
        ),
        lambda: '{"auth": "AuthenticationRequired", "status": 401}',
        lambda: f"object key: shards/train-{f.pick(DIGITS, 5)}.tar\nprimary key: {f.rng.randint(1, 99999)}",
        lambda: json.dumps(["cat", "dog", "bird", "horse", "truck", "ship", "frog", "deer"]),
        lambda: f"Token usage: {f.rng.randint(100, 9000)} prompt + {f.rng.randint(100, 900)} completion",
        lambda: f"secret scanning alert #{f.rng.randint(1, 90)}: resolved as revoked",
        lambda: f"cache-key: v1-deps-{f.hex(40)}",
        lambda: f"?session_state={f.uuid()}&code=...",
        lambda: f"contraseña actualizada el 2026-11-{f.rng.randint(10, 30)}",
    ]


def negatives(f: Fakes) -> list[str]:
    out: list[str] = []
    for build in (*_chain_and_hashes(f), *_ids_errors_payloads(f), *_configs_and_prose(f)):
        repeat(2, out, build)
    return out

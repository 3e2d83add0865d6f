# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the third held-out part (see `build_heldout3.py`): what pasted files and logs hold that is
not a secret and must come back unchanged. Written with the positives, before the patterns were changed."""

from __future__ import annotations

import base64
import json

from .fakes import ALNUM, B64, HEX, LOWER, UPPER, Fakes

DIGITS = "0123456789"


def negatives(f: Fakes) -> list[str]:
    out: list[str] = []

    def add(build) -> None:
        for _ in range(3):
            out.append(build())

    # transaction ids, addresses, block data
    add(lambda: f"Hola, pagué hace una hora. Hash de la transacción: 0x{f.hex(64)}")
    add(lambda: f"Tôi đã chuyển USDC, mã giao dịch: 0x{f.hex(64)}")
    add(lambda: f"Ödemeyi yaptım, işlem hash'i {f.hex(64)}, hâlâ beklemede görünüyor")
    add(
        lambda: (
            f'{{"blockHash": "0x{f.hex(64)}", "blockNumber": "0x{f.hex(7)}", "transactionHash": "0x{f.hex(64)}", "status": "0x1"}}'
        )
    )
    add(
        lambda: (
            f'"topics": ["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", "0x000000000000000000000000{f.hex(40)}"]'
        )
    )
    add(lambda: f"input data: 0xa9059cbb000000000000000000000000{f.hex(40)}{'0' * 48}{f.hex(16)}")
    add(lambda: f"Signature: {f.solana_signature()}\nrecentBlockhash: {f.b58(f.raw(32))}")
    add(
        lambda: (
            f"Paid from {f.solana_address()} to {f.solana_address()}, 40 USDC (SPL), slot {f.rng.randint(10**8, 4 * 10**8)}"
        )
    )
    add(
        lambda: (
            "0x"
            + "".join(c.upper() if f.rng.random() < 0.5 else c for c in f.hex(40))
            + " is my MetaMask address, please refund there"
        )
    )
    add(
        lambda: (
            f"bitcoin:bc1q{f.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)}?amount=0.0021&label=order-{f.rng.randint(1000, 9999)}"
        )
    )
    add(lambda: f"tron: T{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 33)} txid {f.hex(64)}")
    add(lambda: f"ipfs://bafybei{f.pick('abcdefghijklmnopqrstuvwxyz234567', 52)}/metadata.json")
    # checksums and hashes in logs
    add(
        lambda: (
            f"$ sha256sum *.safetensors\n{f.hex(64)}  model-00001-of-00004.safetensors\n{f.hex(64)}  model-00002-of-00004.safetensors"
        )
    )
    add(lambda: f"md5sum dataset.tar.zst\n{f.hex(32)}  dataset.tar.zst")
    add(
        lambda: (
            f"version https://git-lfs.github.com/spec/v1\noid sha256:{f.hex(64)}\nsize {f.rng.randint(10**8, 10**10)}"
        )
    )
    add(
        lambda: (
            f"ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n    torch==2.4.1 from https://download.pytorch.org/whl/cu121/torch-2.4.1%2Bcu121-cp311-cp311-linux_x86_64.whl:\n        Expected sha256 {f.hex(64)}\n             Got        {f.hex(64)}"
        )
    )
    add(
        lambda: (
            f"pulling manifest\npulling {f.hex(12)}... 100% ▕████████████████▏ 4.7 GB\nverifying sha256 digest\nwriting manifest\nsuccess"
        )
    )
    add(
        lambda: (
            f"Step 4/9 : RUN pip install -r requirements.txt\n ---> Running in {f.hex(12)}\nRemoving intermediate container {f.hex(12)}\n ---> {f.hex(12)}"
        )
    )
    add(
        lambda: (
            f'docker inspect trainer | grep Id\n        "Id": "{f.hex(64)}",\n        "Image": "sha256:{f.hex(64)}",'
        )
    )
    add(lambda: f"stability-ai/sdxl:{f.hex(64)} failed: CUDA out of memory")
    add(lambda: f"https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/{f.hex(40)}/config.json: 401 Client Error")
    add(
        lambda: (
            f"wandb: 🚀 View run glorious-sun-{f.rng.randint(1, 400)} at: https://wandb.ai/acme/llama-ft/runs/{f.pick(LOWER, 8)}\nwandb: Find logs at: wandb/run-20261203_{f.pick(DIGITS, 6)}-{f.pick(LOWER, 8)}/logs"
        )
    )
    add(
        lambda: (
            f"{f.hex(7)} (HEAD -> main) fix grad accumulation\n{f.hex(7)} add lora config\n{f.hex(7)} bump transformers"
        )
    )
    add(
        lambda: (
            f'"integrity": "sha512-{f.pick(B64, 86)}==",\n"resolved": "https://registry.npmjs.org/undici/-/undici-6.19.8.tgz"'
        )
    )
    add(
        lambda: (
            f"Accepted publickey for ubuntu from 198.51.100.{f.rng.randint(2, 254)} port {f.rng.randint(30000, 60000)} ssh2: ED25519 SHA256:{f.pick(B64, 43)}"
        )
    )
    add(lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} ada@laptop")
    add(
        lambda: (
            f'gpg: key {f.hex(16).upper()}: public key "Ada Lovelace <ada@example.com>" imported\n      {" ".join(f.hex(4).upper() for _ in range(10))}'
        )
    )
    # ids
    add(lambda: f"kubectl get pod trainer-0 -o jsonpath='{{.metadata.uid}}'\n{f.uuid()}")
    add(
        lambda: (
            f"GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})"
        )
    )
    add(
        lambda: (
            f"    Serial Number                         : {f.pick(DIGITS, 13)}\n    GPU UUID                              : GPU-{f.uuid()}\n    VBIOS Version                         : 96.00.{f.pick(DIGITS, 2)}.00.01"
        )
    )
    add(lambda: f"x-request-id: req_{f.hex(32)}\nopenai.RateLimitError: Error code: 429")
    add(
        lambda: (
            f"anthropic.InternalServerError: Error code: 529 - {{'type': 'error', 'error': {{'type': 'overloaded_error'}}, 'request_id': 'req_011C{f.pick(ALNUM, 20)}'}}"
        )
    )
    add(
        lambda: (
            f"Stripe charge ch_3{f.pick(ALNUM, 23)} for customer cus_{f.pick(ALNUM, 14)} (event evt_1{f.pick(ALNUM, 23)})"
        )
    )
    add(lambda: f"replicate prediction {f.pick(LOWER, 26)} failed after 312s")
    add(lambda: f"Twilio message SM{f.hex(32)} to +1555{f.pick(DIGITS, 7)} was undelivered (30003)")
    add(lambda: f"my order #{f.rng.randint(10000, 99999)} ({f.uuid()}) has been 'preparing' for 40 minutes")
    # stack traces and GPU errors
    add(
        lambda: (
            'Traceback (most recent call last):\n  File "/app/train.py", line 12, in <module>\n    key = os.environ["OPENAI_API_KEY"]\n  File "<frozen os>", line 679, in __getitem__\nKeyError: \'OPENAI_API_KEY\''
        )
    )
    add(
        lambda: (
            "huggingface_hub.errors.GatedRepoError: 401 Client Error.\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-70B/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.1-70B is restricted. You must have access to it and be authenticated to access it. Please log in."
        )
    )
    add(lambda: "wandb: ERROR api_key not configured (no-tty). call wandb.login(key=[your_api_key])")
    add(
        lambda: (
            f"RuntimeError: CUDA error: device-side assert triggered\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n../aten/src/ATen/native/cuda/Indexing.cu:{f.rng.randint(1000, 1400)}: indexSelectLargeIndex: block: [{f.rng.randint(0, 300)},0,0], thread: [{f.rng.randint(0, 127)},0,0] Assertion `srcIndex < srcSelectDimSize` failed."
        )
    )
    add(
        lambda: (
            f"[{f.rng.randint(1000, 99999)}.{f.pick(DIGITS, 6)}] NVRM: Xid (PCI:0000:{f.hex(2)}:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."
        )
    )
    add(
        lambda: (
            f"node-{f.rng.randint(1, 8)}:{f.rng.randint(1000, 9999)}:{f.rng.randint(1000, 9999)} [{f.rng.randint(0, 7)}] NCCL INFO Channel 00/32 : 0[{f.rng.randint(0, 7)}] -> 1[1] via P2P/CUMEM/read\nNCCL WARN Cuda failure 'an illegal memory access was encountered'"
        )
    )
    add(
        lambda: (
            f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {f.rng.randint(1, 40)}.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which {f.rng.randint(10, 900)}.56 MiB is free. Process {f.rng.randint(1000, 99999)} has 78.61 GiB memory in use."
        )
    )
    add(
        lambda: (
            f"Segmentation fault (core dumped)\n#0  0x00007f{f.hex(10)} in cudaLaunchKernel () from /usr/lib/x86_64-linux-gnu/libcudart.so.12\n#1  0x00007f{f.hex(10)} in at::native::gemm ()"
        )
    )
    add(
        lambda: (
            f"openai.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: sk-proj-{'*' * 40}{f.pick(ALNUM, 4)}. You can find your API key at https://platform.openai.com/account/api-keys.', 'code': 'invalid_api_key'}}}}"
        )
    )
    # base64 payloads and arrays
    add(
        lambda: (
            f'<img src="data:image/png;base64,{base64.b64encode(bytes.fromhex("89504e470d0a1a0a") + f.raw(240)).decode()}">'
        )
    )
    add(
        lambda: json.dumps(
            {
                "model": "llava-v1.6",
                "prompt": "describe",
                "images": [base64.b64encode(bytes.fromhex("ffd8ffe000104a464946") + f.raw(180)).decode()],
            }
        )
    )
    add(lambda: f"sha512 digest as bytes: [{', '.join(str(b) for b in f.raw(64))}]")
    add(lambda: f'"input_ids": [[{", ".join(str(f.rng.randint(0, 128255)) for _ in range(48))}]]')
    add(
        lambda: (
            f"k8s ConfigMap\ndata:\n  config.json: {base64.b64encode(json.dumps({'max_batch': f.rng.randint(1, 64), 'dtype': 'bf16'}).encode()).decode()}"
        )
    )
    # configs with placeholders, public material
    add(
        lambda: (
            "# .env.example\nOPENAI_API_KEY=sk-...\nHF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nDATABASE_URL=postgresql://user:password@localhost:5432/db"
        )
    )
    add(
        lambda: (
            'env:\n  - name: WANDB_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: wandb\n        key: api-key\n  - name: HF_TOKEN\n    value: "$(HF_TOKEN)"'
        )
    )
    add(
        lambda: (
            "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n    secrets:\n      - db_password"
        )
    )
    add(
        lambda: (
            f"users:\n- name: gke_acme_{f.pick(LOWER, 6)}\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: gke-gcloud-auth-plugin\n      provideClusterInfo: true\nclusters:\n- cluster:\n    certificate-authority-data: {base64.b64encode(f.pem('CERTIFICATE').encode()).decode()}"
        )
    )
    add(lambda: f.pem("CERTIFICATE") + "\n^ that is the cert from the load balancer, is it the right one?")
    add(lambda: f.pem("PUBLIC KEY") + "\nthis is the public key I uploaded for the box")
    add(
        lambda: (
            f"[Peer]\nPublicKey = {base64.b64encode(f.raw(32)).decode()}\nAllowedIPs = 10.8.0.0/24\nEndpoint = 203.0.113.{f.rng.randint(2, 254)}:51820"
        )
    )
    add(lambda: 'client = OpenAI(api_key=os.environ["OPENAI_API_KEY"])\nlogin(token=os.getenv("HF_TOKEN"))')
    add(
        lambda: (
            f"training:\n  seed: {f.rng.randint(0, 99999)}\n  per_device_train_batch_size: {f.rng.choice([1, 2, 4, 8])}\n  gradient_accumulation_steps: 16\n  max_grad_norm: 1.0\n  warmup_ratio: 0.03"
        )
    )
    add(
        lambda: (
            f"conda env export\n  - pytorch=2.3.1=py3.11_cuda12.1_cudnn8.9.2_0\n  - cuda-runtime=12.1.0=0\n  - libcublas=12.1.{f.rng.randint(0, 3)}.1=0"
        )
    )
    # prose in four languages
    add(
        lambda: f.choice(
            [
                "I lost my private key, can you recover the deposit?",
                "Do you store my SSH private key anywhere? I only uploaded the public one.",
                "Where do I put my Hugging Face token so the container can download gated models?",
            ]
        )
    )
    add(
        lambda: f.choice(
            [
                "Hola, olvidé mi contraseña y el enlace de restablecimiento no llega.",
                "¿Dónde pongo mi token de Hugging Face para descargar modelos?",
                "Mi frase semilla está guardada en papel, ¿necesitan verla? No quiero compartirla.",
            ]
        )
    )
    add(
        lambda: f.choice(
            [
                "Tôi quên mật khẩu, email đặt lại không đến.",
                "Tôi nên đặt khóa API ở đâu để container dùng được?",
                "Máy GPU báo lỗi CUDA khi tôi chạy vLLM với 2 GPU.",
            ]
        )
    )
    add(
        lambda: f.choice(
            [
                "Şifremi unuttum, sıfırlama e-postası gelmiyor.",
                "Özel anahtarımı kaybettim, yatırdığım parayı geri alabilir miyim?",
                "vLLM iki GPU ile çalışırken CUDA hatası veriyor.",
            ]
        )
    )
    add(
        lambda: (
            f"Run {f.pick(UPPER, 4)}-{f.rng.randint(100, 999)}: loss {f.rng.random():.4f}, tokens/s {f.rng.randint(1000, 90000)}, mfu {f.rng.random():.2f}"
        )
    )
    add(
        lambda: (
            f's3://acme-datasets/shards/train-{f.pick(DIGITS, 5)}-of-01024.tar ETag "{f.hex(32)}-{f.rng.randint(2, 90)}"'
        )
    )
    add(lambda: f"x-amz-request-id: {f.pick(UPPER, 16)}\nx-amz-id-2: {f.pick(B64, 76)}=")
    add(
        lambda: (
            f"{f.hex(8)}-{f.hex(4)}: checkpoint saved to /ckpt/step_{f.rng.randint(1, 90) * 1000}/ ({f.rng.randint(1, 60)}.{f.rng.randint(0, 9)} GB)"
        )
    )
    add(
        lambda: (
            f'ENV CUDA_VERSION=12.4.1\nENV NV_CUDA_CUDART_VERSION=12.4.127-1\nENV NVIDIA_REQUIRE_CUDA=cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470\nARG TARGETARCH\nLABEL maintainer="NVIDIA CORPORATION <cudatools@nvidia.com>"\n# build {f.hex(40)}'
        )
    )
    add(
        lambda: (
            f"token_count={f.rng.randint(100, 9000)} max_tokens={f.rng.randint(100, 4096)} api_version=2024-06-01 key_cache_dtype=fp8"
        )
    )
    add(lambda: f"passwd: password updated successfully\nuser {f.pick(LOWER, 6)} added to group docker")
    add(lambda: f"Your API key ending in ...{f.pick(ALNUM, 4)} was rotated on 2026-11-{f.rng.randint(10, 30)}")
    add(lambda: f"alloc_id={f.pick(HEX, 24)} node_id={f.pick(HEX, 24)} (nomad)")
    return out

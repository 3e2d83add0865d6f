# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 8, clean texts (1/2): identifiers, digests, wallet addresses, public keys and base64 that is not a
credential, in the pastes GPU customers send. Nothing here opens an account or spends money: commit ids, file and
image digests, run and request ids, GPU and instance UUIDs, transaction ids, addresses, extended PUBLIC keys, ssh
and WireGuard public keys, certificates, encrypted (sops, ansible-vault) values, images and audio in base64.
"""

from __future__ import annotations

import json

from bip_utils import (
    Base58Encoder,
    Bip84,
    Bip84Coins,
    Ed25519PrivateKey,
    EthAddrEncoder,
    P2PKHAddrEncoder,
    P2WPKHAddrEncoder,
    Secp256k1PrivateKey,
    SolAddrEncoder,
    TrxAddrEncoder,
)

from .heldout8_shapes import ALNUM, B64, LOWER, URLSAFE, Gen, b64, b64url, wrap


def _pub(g: Gen):
    return Secp256k1PrivateKey.FromBytes(g.raw(32)).PublicKey()


def eth(g: Gen) -> str:
    return EthAddrEncoder.EncodeKey(_pub(g))


def btc(g: Gen) -> str:
    return P2WPKHAddrEncoder.EncodeKey(_pub(g), hrp="bc", wit_ver=0)


def sol(g: Gen) -> str:
    return SolAddrEncoder.EncodeKey(Ed25519PrivateKey.FromBytes(g.raw(32)).PublicKey())


def ssh_ed25519(g: Gen) -> str:
    return "ssh-ed25519 " + b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + g.raw(32))


def armor(g: Gen, label: str, first: str, count: int) -> str:
    lines = [first + g.pick(B64, 64 - len(first))] + [g.pick(B64, 64) for _ in range(count)] + [g.pick(B64, 30) + "="]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def negatives(g: Gen) -> list[str]:
    out: list[str] = []

    def add(body: str, lang: str | None = None) -> None:
        out.append(wrap(g, body, lang))

    # --- commit ids, digests, revisions ------------------------------------------------------------------------------
    for _ in range(2):
        add(
            f"pip install git+https://github.com/huggingface/transformers@{g.hex(40)}\nERROR: Could not find a version that satisfies the requirement tokenizers>=0.21"
        )
    for _ in range(2):
        add(
            f'model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-7B-Instruct", revision="{g.hex(40)}", torch_dtype=torch.bfloat16)\nthe revision is pinned so both machines load the same weights'
        )
    for _ in range(2):
        add(
            f"$ git log --oneline -3\n{g.hex(7)} fix lr warmup\n{g.hex(7)} add deepspeed config\n{g.hex(7)} initial\n$ git rev-parse HEAD\n{g.hex(40)}"
        )
    for _ in range(2):
        add(
            "$ sha256sum /workspace/out/*.safetensors\n"
            + "\n".join(f"{g.hex(64)}  model-0000{n}-of-00003.safetensors" for n in range(1, 4))
            + "\nthe second shard differs from the one on my laptop"
        )
    for _ in range(2):
        add(f"docker pull nvcr.io/nvidia/pytorch@sha256:{g.hex(64)}\nError response from daemon: manifest unknown")
    add(
        f"$ docker ps\nCONTAINER ID   IMAGE                     STATUS\n{g.hex(12)}   vllm/vllm-openai:v0.6.4   Up 3 hours\n{g.hex(12)}   redis:7                   Up 3 hours\n$ docker inspect --format '{{{{.Id}}}}' vllm\n{g.hex(64)}"
    )
    for _ in range(2):
        add(
            "$ nvidia-smi -L\n"
            + "\n".join(f"GPU {n}: NVIDIA H100 80GB HBM3 (UUID: GPU-{g.uuid()})" for n in range(g.num(2, 4)))
            + f"\n  MIG 3g.40gb     Device  0: (UUID: MIG-{g.uuid()})"
        )
    add(f"CUDA_VISIBLE_DEVICES=GPU-{g.uuid()} python bench.py  # only the first card")
    for _ in range(2):
        run = g.pick(LOWER, 8)
        add(
            f"wandb: Syncing run glorious-sweep-{g.num(1, 90)}\nwandb: ⭐️ View project at https://wandb.ai/lucia-team/llama-ft\nwandb: 🚀 View run at https://wandb.ai/lucia-team/llama-ft/runs/{run}\nwandb: Run data is saved locally in /workspace/wandb/run-20270111_101112-{run}"
        )
    for _ in range(2):
        rid = g.hex(32)
        add(
            f'with mlflow.start_run(run_id="{rid}"):\n    mlflow.log_metric("val_loss", 1.82)\nmodel = mlflow.pyfunc.load_model("runs:/{rid}/model")'
        )
    add(
        f'$ aws s3api head-object --bucket ckpt-llama --key step-12000/model.safetensors\n{{\n    "ContentLength": 4976698672,\n    "ETag": "\\"{g.hex(32)}-{g.num(100, 600)}\\"",\n    "VersionId": "{g.pick(URLSAFE.replace("-", "."), 32)}",\n    "ContentType": "binary/octet-stream"\n}}'
    )
    add(
        f"torch==2.5.1 \\\n    --hash=sha256:{g.hex(64)} \\\n    --hash=sha256:{g.hex(64)}\nERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE."
    )
    add(
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{g.hex(64)}\nsize {g.num(10**8, 10**10)}\n(this is what I get instead of the weights after git clone)"
    )
    add(
        f"outs:\n- md5: {g.hex(32)}.dir\n  size: {g.num(10**9, 10**11)}\n  nfiles: {g.num(1000, 90000)}\n  hash: md5\n  path: data/raw"
    )
    for _ in range(2):
        add(
            f"ls ~/.cache/huggingface/hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/\n{g.hex(40)}\ndu -sh says 15G but the download stops at 9G"
        )
    for _ in range(2):
        add(
            f"NCCL INFO comm 0x{g.hex(12)} rank {g.num(0, 7)} nranks 8 cudaDev {g.num(0, 7)} nvmlDev {g.num(0, 7)} busId {g.hex(2)}000 commId 0x{g.hex(16)} - Init COMPLETE\nNCCL WARN Timeout waiting for connection from peer"
        )
    add(
        f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.21 GiB is free. Process {g.num(1000, 99999)} has 77.88 GiB memory in use.\nException raised from malloc at /pytorch/c10/cuda/CUDACachingAllocator.cpp:1338 (most recent call first):\nframe #0: c10::Error::Error + 0x{g.hex(2)} (0x7f{g.hex(10)} in libc10.so)"
    )
    add(
        f"[{g.num(1000, 99999)}.{g.num(100000, 999999)}] NVRM: Xid (PCI:0000:{g.hex(2)}:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."
    )
    add(
        f"$ kubectl get pods -n train\nNAME                           READY   STATUS             RESTARTS\ntrainer-{g.hex(10)}-{g.pick(LOWER, 5)}   0/1     CrashLoopBackOff   7"
    )
    add(
        f"openai.BadRequestError: Error code: 400 - {{'error': {{'message': \"This model's maximum context length is 128000 tokens.\", 'type': 'invalid_request_error'}}}}\nx-request-id: req_{g.hex(32)}"
    )
    add(
        f'Downloading: "https://download.pytorch.org/models/resnet50-{(h := g.hex(8))}.pth" to /root/.cache/torch/hub/checkpoints/resnet50-{h}.pth\nRuntimeError: invalid hash value'
    )
    add(
        f"ray job submit --address http://127.0.0.1:8265 -- python tune.py\nJob 'raysubmit_{(job := g.pick(ALNUM, 16))}' submitted successfully\nJob 'raysubmit_{job}' failed"
    )
    add(
        f"Steps: 30, Sampler: DPM++ 2M Karras, CFG scale: 7, Seed: {g.num(10**8, 4 * 10**9)}, Size: 1024x1024, Model hash: {g.hex(10)}, Model: sdxl_base, Version: v1.10.1"
    )
    add(f"ILSVRC2012_img_train.tar  md5 {g.hex(32)}  (my copy, the download page shows a different one?)")
    add(
        f"$ gsutil stat gs://vn-asr/train/shard-{g.num(0, 999):05d}.tar\n    Content-Length:         {g.num(10**8, 10**9)}\n    Hash (crc32c):          {b64(g.raw(4))}\n    Hash (md5):             {b64(g.raw(16))}\n    ETag:                   {b64(g.raw(8)).rstrip('=')}"
    )
    add(f'"__metadata__": {{"format": "pt", "modelspec.hash_sha256": "0x{g.hex(64)}", "ss_network_dim": "32"}}')

    # --- UUIDs -------------------------------------------------------------------------------------------------------
    for _ in range(2):
        add(f"Instance {g.uuid()} is stuck in 'provisioning' since this morning, order {g.num(10_000, 99_999)}.")
    add(
        f"tunnel: {(tid := g.uuid())}\ncredentials-file: /root/.cloudflared/{tid}.json\ningress:\n  - hostname: comfy.mi-dominio.example\n    service: http://localhost:8188\n  - service: http_status:404"
    )
    add(
        f'$ blkid\n/dev/nvme0n1p1: UUID="{g.uuid()}" TYPE="ext4"\n/dev/nvme1n1: UUID="{g.uuid()}" TYPE="xfs"\nthe second disk is not mounted after reboot'
    )
    add(
        f"[I 10:12:01.555 ServerApp] Kernel started: {g.uuid()}, name: python3\n[W 10:14:33.020 ServerApp] Got events for closed stream <closed ws for kernel-{g.uuid()}.json>"
    )
    add(f"Payment {g.uuid()} shows 'pending' but the transaction has 30 confirmations.")

    # --- wallets: addresses, transactions, public keys ----------------------------------------------------------------
    for _ in range(3):
        add(
            f"I sent 120 USDC from {eth(g)} to the payment address {eth(g)}\ntx: 0x{g.hex(64)}\nbut the order still says unpaid."
        )
    for _ in range(2):
        add(f"Pagué con bitcoin desde {btc(g)}, el txid es {g.hex(64)}. Ya tiene 4 confirmaciones.", "es")
    add(
        f"Legacy address of my exchange: {P2PKHAddrEncoder.EncodeKey(_pub(g), net_ver=bytes([0]))}, can I pay from there?"
    )
    for _ in range(2):
        add(
            f"Mình đã chuyển 50 USDT (TRC20) từ ví {TrxAddrEncoder.EncodeKey(_pub(g))} sang địa chỉ {TrxAddrEncoder.EncodeKey(_pub(g))} của shop, mã giao dịch {g.hex(64)}.",
            "vi",
        )
    for _ in range(2):
        add(
            f"Solana ile ödeme yaptım. Gönderen adres: {sol(g)}\nİmza (signature): {Base58Encoder.Encode(g.raw(64))}\nExplorer'da başarılı görünüyor.",
            "tr",
        )
    for _ in range(2):
        zpub = Bip84.FromSeed(g.raw(64), Bip84Coins.BITCOIN).Purpose().Coin().Account(0).PublicKey().ToExtended()
        add(
            f"For our own shop we set up BTCPay with a watch-only wallet. The extended PUBLIC key (zpub) I pasted in the store settings is:\n{zpub}\nIt derives bc1q addresses, is that the right format?",
            "en",
        )
    for _ in range(3):
        add(
            f"$ cat ~/.ssh/id_ed25519.pub\n{ssh_ed25519(g)} {g.user()}@laptop\nthis is the public key I added to my account, but ssh still asks for a password"
        )
    add(
        f"authorized_keys on the rental:\nssh-rsa {b64(bytes.fromhex('00000007') + b'ssh-rsa' + bytes.fromhex('000000030100010000010100') + g.raw(256))} deniz@work\n{ssh_ed25519(g)} deniz@home"
    )
    add(
        f"The authenticity of host '[{g.ip()}]:{g.num(20000, 40000)}' can't be established.\nED25519 key fingerprint is SHA256:{b64(g.raw(32)).rstrip('=')}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?"
    )
    add(f"$ ssh-keygen -lf ~/.ssh/rental.pub\n256 SHA256:{b64(g.raw(32)).rstrip('=')} minh@desktop (ED25519)")
    add(
        f"$ sudo wg show\ninterface: wg0\n  public key: {b64(g.raw(32))}\n  private key: (hidden)\n  listening port: 51820\n\npeer: {b64(g.raw(32))}\n  endpoint: {g.ip()}:51820\n  allowed ips: 10.8.0.2/32\n  latest handshake: 1 minute, 3 seconds ago"
    )
    add(f"recipients for the encrypted dataset: age1{g.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}")
    add(
        "Our signing key, if you want to verify the invoice PDFs:\n"
        + armor(g, "PGP PUBLIC KEY BLOCK", "mQINBG" + g.pick(ALNUM, 4), 10)
    )
    add(
        "The CA certificate of our corporate proxy (the rental can't pip install through it):\n"
        + armor(g, "CERTIFICATE", "MIIDdzCCAl+gAwIBAgI", 14)
    )
    add(
        f"clusters:\n- cluster:\n    certificate-authority-data: {b64(('-----BEGIN CERTIFICATE-----' + chr(10) + g.pick(B64, 180)).encode())}\n    server: https://{g.ip()}:6443\n  name: gpu"
    )

    # --- base64 that is not a credential ------------------------------------------------------------------------------
    for _ in range(2):
        png = b64(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + g.raw(g.num(150, 260)))
        add(
            f'"outputs": [\n  {{\n   "data": {{\n    "image/png": "{png}",\n    "text/plain": ["<Figure size 640x480 with 1 Axes>"]\n   }},\n   "output_type": "display_data"\n  }}\n ]'
        )
    for _ in range(2):
        jpg = b64(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01" + g.raw(g.num(150, 240)))
        add(
            f'{{"model": "llava-v1.6", "messages": [{{"role": "user", "content": [{{"type": "text", "text": "what is in the image"}}, {{"type": "image_url", "image_url": {{"url": "data:image/jpeg;base64,{jpg}"}}}}]}}]}}'
        )
    cfg = b64(
        json.dumps({"model": "meta-llama/Llama-3.1-8B", "max_tokens": 512, "temperature": 0.7, "gpus": 4}).encode()
    )
    add(
        f'$ echo \'{cfg}\' | base64 -d\n{{"model": "meta-llama/Llama-3.1-8B", "max_tokens": 512, "temperature": 0.7, "gpus": 4}}\nthe launcher passes the config like this and it gets cut'
    )
    add(
        f'{{"audio": "{b64(b"RIFF" + g.raw(4) + b"WAVEfmt " + g.raw(g.num(120, 200)))}", "sample_rate": 22050, "text": "Xin chào, đây là giọng đọc thử"}}'
    )
    add(f"grpc response (base64): {b64(bytes([0x0A, 0x12]) + b'llama-3.1-8b-instr' + g.raw(60))}\nstatus: UNAVAILABLE")
    add(f"[debug] payload gz+b64: {b64(bytes.fromhex('1f8b0800000000000003') + g.raw(g.num(80, 140)))}")
    for _ in range(2):
        add(
            f"# secrets.enc.yaml (sops, safe to commit)\nhf_token: ENC[AES256_GCM,data:{b64(g.raw(27))},iv:{b64(g.raw(32))},tag:{b64(g.raw(16))},type:str]\nwandb_key: ENC[AES256_GCM,data:{b64(g.raw(30))},iv:{b64(g.raw(32))},tag:{b64(g.raw(16))},type:str]\nsops:\n    age:\n        - recipient: age1{g.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}"
        )
    add(
        "group_vars/gpus/vault.yml (encrypted with ansible-vault):\n$ANSIBLE_VAULT;1.1;AES256\n"
        + "\n".join(g.hex(80) for _ in range(5))
    )
    add(
        f'"metadata": {{"colab": {{"provenance": [], "gpuType": "A100"}}, "accelerator": "GPU"}},\n"cells": [{{"cell_type": "code", "metadata": {{"id": "{g.pick(URLSAFE, 12)}", "outputId": "{g.uuid()}"}}, "source": ["!nvidia-smi"]}}]'
    )
    add(
        f'wandb artifact: {{"name": "tokenized-es:v3", "digest": "{g.hex(32)}", "manifest": {{"train.arrow": {{"digest": "{b64(g.raw(16))}", "size": {g.num(10**6, 10**9)}}}}}}}'
    )
    add(
        f"Content-MD5: {b64(g.raw(16))}\nx-amz-request-id: {g.pick('0123456789ABCDEF', 16)}\nx-amz-id-2: {b64(g.raw(56))}"
    )
    add(
        f'data_url = "https://storage.example/{b64url(g.raw(18))}/cifar10.tar.gz"  # public mirror link the course gave us'
    )
    return out

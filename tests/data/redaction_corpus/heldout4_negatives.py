# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the fourth held-out part (see `build_heldout4.py`): what GPU-rental support requests hold that
looks like a secret and is not — transaction ids, checksums, digests, ids, addresses, public keys, errors,
placeholders, masked keys, prose about passwords. Each must come back from the redactor unchanged. Written with
the positives by an engineer who did not read the patterns."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

from .fakes import ALNUM, B64, LOWER, UPPER, Fakes

DIGITS = "0123456789"


# --- wording around a paste (shared with the positives), so that copies of one template do not read alike ----------------------------------

_INTRO = {
    "en": [
        "Hi, ",
        "Hello support,\n",
        "hey team - ",
        "Good morning. ",
        "",
        "Urgent: ",
        "Hi there, quick one. ",
        "",
    ],
    "es": ["Hola, ", "Buenas tardes.\n", "Hola equipo, ", ""],
    "vi": ["Chào bạn, ", "Xin chào,\n", "Chào team hỗ trợ, ", ""],
    "tr": ["Merhaba, ", "İyi günler,\n", "Selam, ", ""],
}
_OUTRO = {
    "en": [
        "",
        "\n\nThanks in advance.",
        "\nany idea? order #{n}",
        "\n\n-- sent from my phone",
        "\nThis is blocking our training run.",
        "",
        "\nCheers, M.",
    ],
    "es": ["", "\n\nGracias.", "\n¿Me pueden ayudar? Pedido #{n}", "\nSaludos"],
    "vi": ["", "\n\nCảm ơn nhiều.", "\nMã đơn hàng #{n}, giúp mình với", "\nThanks ạ"],
    "tr": ["", "\n\nTeşekkürler.", "\nSipariş no #{n}, yardımcı olur musunuz?", "\nİyi çalışmalar"],
}


def wrap(f: Fakes, body: str, lang: str = "en") -> str:
    intro = f.choice(_INTRO[lang])
    outro = f.choice(_OUTRO[lang]).replace("{n}", str(f.rng.randint(10_000, 99_999)))
    return f"{intro}{body}{outro}"


def _xpub(f: Fakes) -> str:
    return f.b58check(bytes.fromhex("0488b21e") + f.raw(74))


def _tron(f: Fakes) -> str:
    return f.b58check(b"\x41" + f.raw(20))


def _eth_addr(f: Fakes) -> str:
    return "0x" + f.hex(40)


def negatives(f: Fakes) -> list[str]:
    out: list[str] = []

    def add(build: Callable[[], str], times: int = 3) -> None:
        for _ in range(times):
            text = build()
            out.append(wrap(f, text) if f.rng.random() < 0.5 else text)

    # payments: transaction ids, addresses, block data, in four languages
    add(
        lambda: (
            f"Hi, I paid order #{f.rng.randint(10_000, 99_999)} with USDT on Ethereum. Tx hash: 0x{f.hex(64)} — it has 40 confirmations but the order is still unpaid."
        )
    )
    add(lambda: f"Pagué con USDC en Base, el hash es 0x{f.hex(64)} y la dirección de destino {_eth_addr(f)}")
    add(lambda: f"Mình đã thanh toán, txid: {f.hex(64)}\nví gửi: {_eth_addr(f)}")
    add(lambda: f"Ödeme yaptım, işlem kimliği (txid) {f.hex(64)}. Blok {f.rng.randint(21_000_000, 22_000_000)}.")
    add(
        lambda: (
            f"BTC payment sent from {f.btc_address()}, txid {f.hex(64)}, fee 12 sat/vB. Still 0 confirmations after an hour?"
        )
    )
    add(
        lambda: (
            f"Solana payment signature: {f.solana_signature()}\nfrom {f.solana_address()}\nto {f.solana_address()}\nmint EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
        )
    )
    add(
        lambda: (
            f"solana confirm -v {f.solana_signature()}\nTransaction executed in slot {f.rng.randint(300_000_000, 330_000_000)}:\n  Block Time: 2026-12-03T10:{f.rng.randint(10, 59)}:02Z\n  Recent Blockhash: {f.b58(f.raw(32))}\n  Signature 0: {f.solana_signature()}\n  Account 0: srw- {f.solana_address()} (fee payer)\n  Account 1: -r-x TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA\nFinalized"
        )
    )
    add(lambda: f"I sent TRX-USDT to {_tron(f)}, the hash on Tronscan is {f.hex(64)}")
    add(
        lambda: (
            f'{{"jsonrpc":"2.0","id":1,"result":{{"blockHash":"0x{f.hex(64)}","from":"{_eth_addr(f)}","to":"{_eth_addr(f)}","transactionHash":"0x{f.hex(64)}","logs":[{{"topics":["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef","0x000000000000000000000000{f.hex(40)}"],"data":"0x{"0" * 48}{f.hex(16)}"}}],"status":"0x1"}}}}'
        )
    )
    add(
        lambda: (
            f"Etherscan shows Input Data 0xa9059cbb000000000000000000000000{f.hex(40)}{'0' * 40}{f.hex(24)} so the transfer went to your contract, right?"
        )
    )
    add(
        lambda: (
            f"Watch-only wallet for accounting, xpub: {_xpub(f)} — can you send invoices to addresses derived from it?"
        ),
        2,
    )
    add(
        lambda: f"My public key (not the private one!) is 0x04{f.hex(128)}, you asked for it to verify the signature.",
        2,
    )
    add(
        lambda: (
            f"signed message: 0x{f.hex(130)}\naddress: {_eth_addr(f)}\nmessage: I own this wallet, order {f.rng.randint(10_000, 99_999)}"
        ),
        2,
    )
    add(lambda: f"Block {f.rng.randint(870_000, 880_000)} hash 00000000000000000001{f.hex(44)}, my tx was in it", 2)
    add(
        lambda: (
            f"signature bytes from the wallet adapter: {json.dumps(list(f.raw(64)))}\nthe verification on your side says invalid"
        ),
        2,
    )
    add(lambda: f"The USDC mint account data: {json.dumps(list(f.raw(32)))} (32 bytes, that's the owner pubkey?)", 2)

    # checksums, hashes, digests, git
    add(
        lambda: (
            f"sha256sum after download:\n{f.hex(64)}  model-00001-of-00004.safetensors\n{f.hex(64)}  model-00002-of-00004.safetensors\n{f.hex(64)}  model-00003-of-00004.safetensors\nthe second one differs from the one on the Hub"
        )
    )
    add(lambda: f"md5 of the tarball on your side is {f.hex(32)}, on mine {f.hex(32)} - upload got corrupted?")
    add(
        lambda: (
            f"Digest: sha256:{f.hex(64)}\nStatus: Downloaded newer image for nvcr.io/nvidia/pytorch:24.10-py3\nbut `docker run` on the node exits with code 139"
        )
    )
    add(lambda: f"image: ghcr.io/{f.pick(LOWER, 6)}/infer@sha256:{f.hex(64)}\nimagePullPolicy: IfNotPresent")
    add(
        lambda: (
            f"commit {f.hex(40)}\nAuthor: Dev <dev@{f.pick(LOWER, 6)}.example>\nDate:   Tue Dec 1 18:04:11 2026 +0100\n\n    bump flash-attn to 2.7.0\n\nthat's the last commit that built on your image"
        )
    )
    add(
        lambda: (
            f"git log --oneline\n{f.hex(7)} fix nccl timeout\n{f.hex(7)} add lora config\n{f.hex(7)} initial\n\ngit bisect points at {f.hex(40)}"
        )
    )
    add(
        lambda: (
            f"torch==2.5.1 --hash=sha256:{f.hex(64)} \\\n    --hash=sha256:{f.hex(64)}\nERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE."
        )
    )
    add(
        lambda: (
            f'"node_modules/sharp": {{\n  "version": "0.33.5",\n  "resolved": "https://registry.npmjs.org/sharp/-/sharp-0.33.5.tgz",\n  "integrity": "sha512-{f.pick(B64, 86)}=="\n}}'
        )
    )
    add(
        lambda: (
            f"pulling manifest\npulling {f.hex(12)}... 100% ▕████████████████▏ 4.7 GB\nverifying sha256 digest\nwriting manifest\nsuccess\nollama run llama3.1:8b then hangs on the rented GPU"
        ),
        2,
    )
    add(
        lambda: (
            f"/root/.cache/huggingface/hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/{f.hex(40)}/config.json not found, the download stopped at 62%"
        ),
        2,
    )
    add(
        lambda: (
            f'x-amz-request-id: {f.pick(UPPER, 16)}\nx-amz-id-2: {f.pick(B64, 76)}=\nETag: "{f.hex(32)}-{f.rng.randint(2, 40)}"\nthe multipart upload of the checkpoint succeeds but the object is 0 bytes'
        ),
        2,
    )
    add(
        lambda: (
            f"IPFS CID of the dataset: bafybei{f.pick('abcdefghijklmnopqrstuvwxyz234567', 52)} (pinned on our node), and the old one Qm{f.b58(f.raw(32))[:44]}"
        ),
        2,
    )

    # ids
    add(
        lambda: (
            f"nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-{f.uuid()})\nonly GPU 0 shows up inside the container"
        )
    )
    add(lambda: f"Order {f.uuid()} was charged twice? request id {f.uuid()}, idempotency key {f.uuid()}")
    add(
        lambda: (
            f"traceparent: 00-{f.hex(32)}-{f.hex(16)}-01\nX-Request-ID: {f.hex(32)}\nwe got a 502 from your API at 10:42 UTC"
        )
    )
    add(
        lambda: (
            f"model id: mistralai/Mistral-7B-Instruct-v0.3, revision {f.hex(40)}; dataset HuggingFaceFW/fineweb-edu, config sample-10BT"
        )
    )
    add(
        lambda: (
            f"wandb: 🚀 View run lunar-sweep-{f.rng.randint(1, 99)} at: https://wandb.ai/{f.pick(LOWER, 6)}/llama-ft/runs/{f.pick(LOWER + DIGITS, 8)}\nwandb: Find logs at: ./wandb/run-20261203_101544-{f.pick(LOWER + DIGITS, 8)}/logs\nthe loss curve stops at step 1200 when the node was restarted"
        )
    )
    add(
        lambda: (
            f"kubectl get pods -n train\nNAME                              READY   STATUS             RESTARTS\ntrainer-{f.pick(LOWER + DIGITS, 10)}-{f.pick(LOWER + DIGITS, 5)}   0/1     CrashLoopBackOff   7\nredis-0                           1/1     Running            0"
        )
    )

    def caller_identity() -> str:
        account = f.pick(DIGITS, 12)
        return f'$ aws sts get-caller-identity\n{{\n    "UserId": "AIDA{f.pick(UPPER, 17)}",\n    "Account": "{account}",\n    "Arn": "arn:aws:iam::{account}:user/ci-runner"\n}}\nso the credentials work, yet s3 sync fails on your box'

    add(caller_identity)
    add(
        lambda: (
            f"Stripe says the charge ch_{f.pick(ALNUM, 24)} for customer cus_{f.pick(ALNUM, 14)} succeeded (payment intent pi_{f.pick(ALNUM, 24)}), but the invoice is open"
        ),
        2,
    )
    add(lambda: f"Sentry event {f.hex(32)} in project {f.pick(DIGITS, 7)}: ZeroDivisionError in loss.py line 88", 2)
    add(
        lambda: (
            f"GPG key fingerprint: {' '.join(f.hex(4).upper() for _ in range(10))}\nSSH host key: SHA256:{f.pick(B64, 43)} (ED25519)\nwhich is the right one for gpu-{f.rng.randint(1, 60)}?"
        )
    )

    # public keys and certificates
    add(
        lambda: (
            f"Please add my public key to the instance:\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} {f.pick(LOWER, 6)}@laptop"
        )
    )
    add(
        lambda: (
            f"authorized_keys currently has:\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{f.pick(B64, 500)}= ci@runner\nbut login with that key fails"
        )
    )
    add(
        lambda: (
            "-----BEGIN CERTIFICATE-----\n"
            + "\n".join(f.pick(B64, 64) for _ in range(8))
            + f"\n{f.pick(B64, 30)}=\n-----END CERTIFICATE-----\nthis is the CA cert from your docs, curl says 'unable to get local issuer certificate'"
        ),
        2,
    )
    add(
        lambda: (
            "here is the public key for webhook verification:\n-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA"
            + f.pick(B64, 43)
            + "=\n-----END PUBLIC KEY-----"
        ),
        2,
    )
    add(
        lambda: (
            f"DNS TXT for DKIM: default._domainkey  v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{f.pick(B64, 300)}IDAQAB"
        ),
        2,
    )
    add(
        lambda: (
            f"certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM{f.pick(B64, 200)}\nserver: https://{f.rng.randint(40, 220)}.{f.rng.randint(1, 255)}.{f.rng.randint(1, 255)}.10:6443\nkubectl says x509: certificate signed by unknown authority"
        ),
        2,
    )
    add(
        lambda: (
            "-----BEGIN PGP SIGNATURE-----\n\niQIzBAABCAAdFiEE"
            + f.pick(B64, 48)
            + "\n"
            + "\n".join(f.pick(B64, 64) for _ in range(5))
            + f"\n={f.pick(B64, 4)}\n-----END PGP SIGNATURE-----\nsignature check of the driver .run file fails"
        ),
        2,
    )

    # GPU, CUDA, NCCL, Python errors
    add(
        lambda: (
            f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {f.rng.randint(1, 40)}.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which {f.rng.randint(10, 900)}.56 MiB is free. Process {f.rng.randint(1000, 99999)} has 78.20 GiB memory in use."
        )
    )
    add(
        lambda: (
            f"[rank{f.rng.randint(0, 7)}]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={f.rng.randint(100, 99999)}, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600043 milliseconds before timing out.\nnode-{f.rng.randint(1, 9)}:{f.rng.randint(100, 999)}:{f.rng.randint(100, 999)} [0] NCCL INFO NET/IB : No device found."
        )
    )
    add(
        lambda: (
            f"RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n(happens at step {f.rng.randint(100, 90000)} of epoch {f.rng.randint(1, 9)})"
        )
    )
    add(
        lambda: (
            f"dmesg: [{f.rng.randint(10000, 99999)}.{f.pick(DIGITS, 6)}] NVRM: Xid (PCI:0000:{f.hex(2)}:00): 79, pid={f.rng.randint(1000, 99999)}, GPU has fallen off the bus.\nthe instance needs a reboot I think"
        )
    )
    add(
        lambda: (
            f'Traceback (most recent call last):\n  File "/workspace/train.py", line {f.rng.randint(10, 400)}, in <module>\n    token = os.environ["HF_TOKEN"]\n  File "<frozen os>", line 679, in __getitem__\nKeyError: \'HF_TOKEN\'\n\nhow do I set env vars for the instance?'
        )
    )
    add(
        lambda: (
            f"openai.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Incorrect API key provided: sk-proj-********************{f.pick(ALNUM, 4)}. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}}}"
        )
    )
    add(
        lambda: (
            f"| NVIDIA-SMI 560.35.03     Driver Version: 560.35.03     CUDA Version: 12.6 |\n|  0  NVIDIA A100-SXM4-80GB   On | 00000000:{f.hex(2).upper()}:00.0 Off |  0 |\n| N/A   {f.rng.randint(30, 80)}C  P0  {f.rng.randint(60, 400)}W / 400W | {f.rng.randint(1000, 80000)}MiB / 81920MiB | 100%  Default |"
        )
    )
    add(
        lambda: (
            f"ImportError: /usr/local/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\npip show torch -> 2.{f.rng.randint(3, 6)}.{f.rng.randint(0, 2)}+cu12{f.rng.randint(1, 6)}"
        )
    )
    add(
        lambda: (
            f"vLLM: ValueError: The model's max seq len ({f.choice([131072, 32768])}) is larger than the maximum number of tokens that can be stored in KV cache ({f.rng.randint(10000, 30000)}). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."
        )
    )
    add(
        lambda: (
            f'psql: error: connection to server at "{f.rng.randint(10, 200)}.0.0.{f.rng.randint(2, 250)}", port 5432 failed: FATAL:  password authentication failed for user "postgres"\nwhat\'s the default password on your Postgres template?'
        )
    )
    add(
        lambda: (
            f"ERROR 1045 (28000): Access denied for user 'root'@'{f.rng.randint(10, 200)}.{f.rng.randint(0, 255)}.{f.rng.randint(0, 255)}.{f.rng.randint(2, 250)}' (using password: YES)"
        ),
        2,
    )

    # placeholders, masked values, references to secrets stored elsewhere
    add(
        lambda: (
            f"docker login -u {f.pick(LOWER, 6)} --password-stdin < ~/.config/registry-token\nError saving credentials: error storing credentials - err: exit status 1"
        )
    )
    add(
        lambda: (
            f"env:\n  - name: HF_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: hf-{f.pick(LOWER, 4)}\n        key: token\n  - name: WANDB_API_KEY\n    valueFrom:\n      secretKeyRef: {{name: wandb, key: api-key}}"
        )
    )
    add(
        lambda: (
            f"- name: Login to GHCR\n  uses: docker/login-action@v3\n  with:\n    registry: ghcr.io\n    username: ${{{{ github.actor }}}}\n    password: ${{{{ secrets.GITHUB_TOKEN }}}}\n\nthe push step then fails with denied: installation not allowed to Write organization package (run {f.rng.randint(10**9, 10**10)})"
        )
    )
    add(
        lambda: (
            f".env.example\nOPENAI_API_KEY=sk-...\nANTHROPIC_API_KEY=<your-key-here>\nDATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DB\nHF_TOKEN=${{HF_TOKEN}}\nWANDB_API_KEY=\nPORT={f.rng.randint(3000, 9000)}"
        )
    )
    add(
        lambda: (
            f'psql "host={f.rng.randint(10, 200)}.0.0.4 port=5432 user=app dbname=app password=$DB_PASSWORD sslmode=require" works in bash but not in the systemd unit'
        ),
        2,
    )
    add(
        lambda: (
            f"2026-12-02T11:{f.rng.randint(10, 59)}:05Z + docker login -u ci -p *** registry.gitlab.com\n2026-12-02T11:{f.rng.randint(10, 59)}:06Z WARNING! Using --password via the CLI is insecure. Use --password-stdin.\n2026-12-02T11:{f.rng.randint(10, 59)}:07Z Login Succeeded"
        )
    )
    add(
        lambda: (
            f"Your key sk-...{f.pick(ALNUM, 4)} was revoked? The dashboard shows only the last four characters, {f.pick(ALNUM, 4)}, and 'created Nov 2'."
        ),
        2,
    )
    add(
        lambda: (
            f"Token: ghp_{'*' * 32}{f.pick(ALNUM, 4)} (masked by GitHub in the log)\nthe job still can't clone the submodule"
        ),
        2,
    )
    add(
        lambda: (
            f'password = os.environ.get("DB_PASSWORD")\napi_key = os.getenv("ANTHROPIC_API_KEY")\nif not api_key:\n    raise SystemExit("set ANTHROPIC_API_KEY")  # line {f.rng.randint(10, 99)}'
        )
    )
    add(
        lambda: (
            f"helm install llm ./chart --set hf.token={{{{ .Values.hfToken }}}} --set replicas={f.rng.randint(1, 8)} is that the right syntax?"
        ),
        2,
    )
    add(
        lambda: (
            f'terraform plan -out tf{f.rng.randint(100, 999)}.plan\n  + resource "aws_db_instance" "main" {{\n      + password = (sensitive value)\n      + username = "{f.choice(["admin", "ml", "root_user", "app"])}"\n      + instance_class = "db.r6g.{f.choice(["large", "xlarge"])}"\n    }}'
        )
    )
    add(
        lambda: (
            f"kubectl describe secret hf-token\nName:         hf-token\nType:  Opaque\n\nData\n====\ntoken:  {f.rng.randint(30, 40)} bytes\nso the secret exists, why does the pod not see it?"
        ),
        2,
    )
    add(
        lambda: (
            f"ssh -i ~/.ssh/id_ed25519 -p {f.rng.randint(20000, 40000)} root@{f.rng.randint(40, 220)}.{f.rng.randint(1, 255)}.{f.rng.randint(1, 255)}.{f.rng.randint(2, 254)}\nroot@...: Permission denied (publickey)."
        )
    )
    add(
        lambda: (
            f"docker run --gpus all -p {f.rng.randint(7000, 9000)}:8888 -e JUPYTER_TOKEN -v /data:/data jupyter/pytorch-notebook\nI pass the token from my shell env"
        )
    )
    add(
        lambda: (
            f"$ huggingface-cli login\n    To log in, `huggingface_hub` requires a token generated from https://huggingface.co/settings/tokens .\nEnter your token (input will not be visible):\nAdd token as git credential? (Y/n) n\nToken is valid (permission: read).\nYour token has been saved to /root/.cache/huggingface/token\nLogin successful\n...then snapshot_download (attempt {f.rng.randint(2, 9)}) fails with 403 on gated repo meta-llama/Llama-{f.choice(['3.1-8B', '3.2-1B'])}"
        )
    )
    add(
        lambda: (
            f"wandb: Appending key for api.wandb.ai to your netrc file: /root/.netrc\nwandb: Currently logged in as: {f.pick(LOWER, 7)} ({f.pick(LOWER, 5)}-ml). Use `wandb login --relogin` to force relogin"
        ),
        2,
    )
    add(
        lambda: (
            f"env | grep -i -E 'cuda|nccl|hf_|wandb'\nCUDA_VISIBLE_DEVICES=0,1,2,3\nNCCL_DEBUG=INFO\nNCCL_SOCKET_IFNAME=eth0\nHF_HUB_ENABLE_HF_TRANSFER=1\nHF_HOME=/data/hf\nWANDB_MODE=offline\nWANDB_PROJECT=run-{f.rng.randint(1, 99)}"
        )
    )

    # configs without secrets
    add(
        lambda: (
            f"model:\n  name_or_path: Qwen/Qwen2.5-{f.choice(['7B', '14B', '32B'])}-Instruct\n  max_tokens: 4096\n  pad_token_id: 151643\n  eos_token_id: 151645\ntraining:\n  seed: {f.rng.randint(1, 9999)}\n  lr: 1.0e-5\n  gradient_accumulation_steps: 8\ndeepspeed: zero3.json"
        )
    )
    add(
        lambda: (
            f'tokenizer("hello world") -> {{"input_ids": {json.dumps([128000] + [f.rng.randint(1000, 128000) for _ in range(f.rng.randint(20, 64))])}, "attention_mask": [1, 1, 1]}}'
        ),
        2,
    )
    add(
        lambda: (
            f"torch.manual_seed({f.rng.randint(1, 99999)})\nnp.random.seed({f.rng.randint(1, 99999)})\nrandom_state = {f.rng.randint(1, 99999)}\nresults differ between your A100 and my 4090 even with deterministic algorithms on"
        ),
        2,
    )
    add(
        lambda: (
            f"pip freeze | head\naccelerate==1.1.1\nbitsandbytes==0.44.1\ndatasets==3.1.0\nflash-attn==2.7.0.post2\ntorch==2.5.1+cu124\ntransformers==4.46.{f.rng.randint(0, 3)}\ntriton==3.1.0\nvllm==0.6.{f.rng.randint(0, 6)}.post{f.rng.randint(1, 3)}"
        ),
        2,
    )
    add(
        lambda: (
            f"conda list | grep cuda\ncuda-cudart      12.4.127  h99ab3db_0\ncuda-nvrtc       12.4.127  h99ab3db_1\npytorch          2.5.1     py3.11_cuda12.4_cudnn9.1.0_0\nlibcublas        12.4.5.8  {f.pick(LOWER + DIGITS, 8)}_0"
        ),
        2,
    )
    add(
        lambda: (
            f"Could you check the image? here it is inline: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{f.pick(B64, 300)}AAAAAElFTkSuQmCC"
        ),
        2,
    )
    add(lambda: f"screenshot as base64 (jpeg): /9j/4AAQSkZJRgABAQAAAQABAAD{f.pick(B64, 400)}//Z", 2)
    add(lambda: f"binaryData:\n  logo.png: iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHe{f.pick(B64, 120)}", 1)
    add(
        lambda: (
            f"Blender 4.2: Fra:{f.rng.randint(1, 250)} Mem:{f.rng.randint(100, 900)}.{f.rng.randint(10, 99)}M (Peak {f.rng.randint(900, 2000)}M) | Time:00:{f.rng.randint(10, 59)}.{f.rng.randint(10, 99)} | Remaining:01:{f.rng.randint(10, 59)}.{f.rng.randint(10, 99)} | Mem:{f.rng.randint(1000, 9000)}M | Scene, ViewLayer | Sample {f.rng.randint(1, 4096)}/4096\nOptiX is slower than CUDA on the L40S?"
        ),
        2,
    )
    add(
        lambda: (
            f"deepspeed config:\n{json.dumps({'train_micro_batch_size_per_gpu': f.rng.randint(1, 16), 'zero_optimization': {'stage': 3, 'offload_param': {'device': 'cpu'}}, 'bf16': {'enabled': True}, 'gradient_clipping': 1.0})}"
        ),
        2,
    )
    add(
        lambda: (
            f"[Unit]\nDescription=vLLM server\n[Service]\nEnvironmentFile=/etc/vllm/env\nExecStart=/opt/venv/bin/vllm serve /models/llama --port {f.rng.randint(8000, 9000)} --api-key ${{VLLM_API_KEY}}\nRestart=always"
        ),
        2,
    )

    # prose about passwords, keys and tokens
    prose = [
        "I forgot the password of my gpurent account and the reset e-mail never arrives. Can you resend it?",
        "Is it safe to store my Hugging Face token on the instance disk? Who can read /root on a rented machine?",
        "Does your API use API keys or OAuth? I need to rotate our token every 90 days for compliance.",
        "My password manager generated a 64-character password and your signup form cut it at 50. Is there a limit?",
        "Where do I paste my SSH public key? The guide mentions a private key but I never want to upload that.",
        "We lost the seed phrase of the wallet we paid from. The payment already went through, is that a problem for the refund?",
        "Can I pay with a hardware wallet? I don't want to type my private key anywhere.",
        "Olvidé mi contraseña y el correo de recuperación no llega. ¿Me ayudan?",
        "¿Dónde guardo la clave privada SSH? ¿En el servidor o solo en mi portátil?",
        "Tôi quên mật khẩu tài khoản, email đặt lại mật khẩu không đến.",
        "Khóa API có hết hạn không? Mình cần đổi token mỗi tháng.",
        "Şifremi unuttum, sıfırlama e-postası gelmedi. Yardımcı olur musunuz?",
        "Özel anahtarımı hiçbir yere yazmak istemiyorum, donanım cüzdanıyla ödeme yapabilir miyim?",
        "The token counter in the estimator says 8k tokens per second, is that with batch size 1?",
        "The word 'password' appears in your privacy policy twice; do you store passwords hashed with argon2 or bcrypt?",
        "Please do not send my API key by e-mail, the last support agent asked for it. Is that normal?",
        "I accidentally committed my .env to GitHub yesterday and already revoked every key in it. Should I also rotate the instance root password?",
        "Can I use the same SSH key for all four nodes, or should each node have its own key pair?",
        "Our security team asks whether the secret you show once in the dashboard is stored encrypted, and with which key management.",
        "Yesterday's invoice says 'API token usage' - what does that line mean? We only rent H100s.",
    ]
    out.extend(prose)
    add(
        lambda: (
            f"I want to rent {f.rng.randint(1, 8)}x H100 for about {f.rng.randint(2, 6)} weeks to fine-tune a {f.choice(['7B', '13B', '70B'])} model on our own data. Do you have a discount for a longer term, and can the disk stay after the rental ends?"
        ),
        2,
    )
    add(
        lambda: (
            f"Hello, we are a small lab and need a quiet machine for image generation. Which card fits {f.choice(['SDXL', 'Flux', 'SD3'])} with a batch of {f.rng.randint(2, 16)} at 1024 px? Thanks a lot, and sorry for the long message."
        ),
        2,
    )
    add(
        lambda: (
            f"Hola, ¿el precio de la {f.choice(['A100', 'H100', 'L40S'])} incluye el disco de {f.rng.randint(100, 2000)} GB? Quiero alquilarla un mes."
        ),
        2,
    )
    add(
        lambda: (
            f"Xin chào, mình muốn thuê {f.rng.randint(1, 8)} GPU {f.choice(['A100', 'H100', '4090'])} trong {f.rng.randint(1, 4)} tuần, có giảm giá không?"
        ),
        2,
    )
    add(
        lambda: (
            f"Merhaba, {f.choice(['A100', 'H100', 'L40S'])} için {f.rng.randint(1, 6)} haftalık kiralama fiyatı nedir? Fatura şirket adına kesilebilir mi?"
        ),
        2,
    )
    add(
        lambda: (
            f"Invoice INV-2026-{f.rng.randint(1000, 9999)}: amount {f.rng.randint(10, 9999)}.{f.rng.randint(10, 99)} USDC, IBAN not needed since we pay in crypto. VAT number DE{f.pick(DIGITS, 9)}."
        ),
        2,
    )

    def plain_b64() -> str:
        config = f"model: llama-{f.rng.randint(1, 99)}b\nbatch: {f.rng.randint(1, 64)}\nlr: 0.0002"
        return f"base64 of our config (no secrets, just the yaml): {base64.b64encode(config.encode()).decode()}"

    add(plain_b64, 2)
    return out

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 10, clean look-alikes (0396): wallet addresses, extended public keys, transaction ids, public keys
and certificates, placeholders, masked values, references to where a secret lives, base64 blobs and documented
example keys. None of them holds a secret."""

from __future__ import annotations

import base64
import json

from .heldout10_gen import Gen
from .heldout10_text import host, user, wrap


def wallets(g: Gen) -> list[str]:
    out: list[str] = []
    for _ in range(18):
        zpub, btc, eth, sol = g.wallet()
        kind = g.rng.randrange(7)
        order = g.num(1200, 98000)
        out.append(
            [
                f"Hi, I sent 0.012 BTC for order {order} to {btc} about two hours ago, tx {g.hex(64)}, still shows unpaid.",
                f"Hola, pagué el pedido {order} con USDC en Base desde {eth}. Hash de la transacción: 0x{g.hex(64)}",
                f"Chào shop, mình đã chuyển USDT (Solana) từ ví {sol}, chữ ký giao dịch: {g.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 88)}",
                f"Merhaba, {order} numaralı sipariş için {eth} adresinden ödeme yaptım, tx: 0x{g.hex(64)} — hâlâ bekliyor görünüyor.",
                f"Watch-only wallet for the company BTCPay store, in case you need it for the refund:\n{zpub}",
                f"Hola, para el reembolso usad esta dirección, por favor: {btc}",
                f"refund address (ETH mainnet): {eth}\nnetwork fee is fine to deduct",
            ][kind]
        )
    _, btc, eth, _ = g.wallet()
    out.append(
        wrap(
            g,
            f"$ cast tx 0x{g.hex(64)}\nblockHash            0x{g.hex(64)}\nfrom                 {eth}\nto                   0x{g.hex(40)}\nvalue                0\ninput                0xa9059cbb000000000000000000000000{g.hex(40)}00000000000000000000000000000000000000000000000000000000{g.hex(8)}",
            "en",
        )
    )
    out.append(
        wrap(
            g,
            f'bitcoin-cli getrawtransaction {g.hex(64)} 1\n{{\n  "txid": "{g.hex(64)}",\n  "hash": "{g.hex(64)}",\n  "vout": [{{"value": 0.012, "scriptPubKey": {{"address": "{btc}"}}}}]\n}}',
            "es",
        )
    )
    zpub, _, _, _ = g.wallet()
    out.append(wrap(g, f"wpkh([{g.hex(8)}/84h/0h/0h]{zpub}/0/*)#{g.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 8)}", "en"))
    out.append(
        f"Signed message to prove I own the address {eth}:\nmessage: gpurent order {g.num(1200, 98000)}\nsignature: 0x{g.hex(130)}"
    )
    return out


def keys_and_certs(g: Gen) -> list[str]:
    out: list[str] = []
    for lang in ("en", "es", "vi", "tr", "en", "es"):
        pub = g.ssh_pub()
        text = {
            "en": f"Hi, please add my public key to the rental, the dashboard rejects it:\n{pub} {user(g)}@laptop",
            "es": f"Hola, esta es mi clave pública para la instancia: {pub} lucia@portatil",
            "vi": f"Chào shop, mình thêm khóa công khai này mà vẫn không ssh được:\n{pub} lanvu@macbook",
            "tr": f"Merhaba, açık anahtarım bu, authorized_keys'e eklenmiş mi bakabilir misiniz?\n{pub} mehmet@desktop",
        }[lang]
        out.append(text)
    out.append(
        wrap(
            g,
            f"$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{base64.b64encode(g.raw(32)).decode().rstrip('=')} lucia@portatil (ED25519)",
            "es",
        )
    )
    out.append(
        wrap(
            g,
            f"The authenticity of host '{host(g)} ({host(g)})' can't be established.\nED25519 key fingerprint is SHA256:{base64.b64encode(g.raw(32)).decode().rstrip('=')}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?",
            "tr",
        )
    )
    for lang in ("en", "vi", "es"):
        body = g.pem_body(18)
        out.append(wrap(g, "-----BEGIN CERTIFICATE-----\n" + "\n".join(body) + "\n-----END CERTIFICATE-----", lang))
    body = g.pem_body(6)
    out.append(
        wrap(
            g,
            "Server public key for the webhook signature check:\n-----BEGIN PUBLIC KEY-----\n"
            + "\n".join(body)
            + "\n-----END PUBLIC KEY-----",
            "en",
            False,
        )
    )
    out.append(
        wrap(
            g,
            f"clusters:\n- cluster:\n    certificate-authority-data: {base64.b64encode(g.raw(600)).decode()}\n    server: https://{host(g)}:6443\n  name: rental",
            "vi",
        )
    )
    out.append(
        wrap(
            g,
            f"[Peer]\nPublicKey = {base64.b64encode(g.raw(32)).decode()}\nEndpoint = {host(g)}:51820\nAllowedIPs = 10.8.0.0/24",
            "tr",
        )
    )
    out.append(wrap(g, f"age public key: age1{g.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}", "en"))
    out.append(
        wrap(
            g,
            f"$ gpg --list-keys\npub   ed25519 2026-11-02 [SC]\n      {g.pick('0123456789ABCDEF', 40)}\nuid           [ultimate] Mehmet Yılmaz <mehmet@example.com>",
            "tr",
        )
    )
    return out


def placeholders_and_masks(g: Gen) -> list[str]:
    out = [
        wrap(
            g,
            "HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nWANDB_API_KEY=<your-wandb-key>\nOPENAI_API_KEY=sk-...",
            "en",
        ),
        wrap(
            g,
            "# .env.example\nDATABASE_URL=postgresql://user:password@localhost:5432/dbname\nREDIS_URL=redis://localhost:6379/0\nSECRET_KEY=change-me",
            "es",
        ),
        wrap(g, "aws_access_key_id = AKIAXXXXXXXXXXXXXXXX\naws_secret_access_key = <your-secret-access-key>", "vi"),
        wrap(g, "docker login nvcr.io -u '$oauthtoken' -p <NGC_API_KEY>", "tr"),
        wrap(
            g,
            "ngrok config add-authtoken <token>\n# get it from https://dashboard.ngrok.com/get-started/your-authtoken",
            "en",
        ),
        wrap(g, "machine api.wandb.ai\n  login user\n  password YOUR_API_KEY_HERE", "es"),
        wrap(g, "environment:\n  - POSTGRES_PASSWORD=changeme\n  - POSTGRES_USER=postgres", "vi"),
        wrap(g, "ANTHROPIC_API_KEY=REPLACE_ME\nGROQ_API_KEY=REPLACE_ME", "en"),
        wrap(
            g,
            "$ aws configure\nAWS Access Key ID [****************7QXB]:\nAWS Secret Access Key [****************k2Vd]:\nDefault region name [eu-west-1]:",
            "en",
        ),
        wrap(
            g,
            f"Your API keys\nNAME        SECRET KEY         CREATED\ntrainer     sk-proj-...{g.pick('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 4)}       {g.num(1, 28)} Mar 2027\neval-bot    sk-...{g.pick('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 4)}            {g.num(1, 28)} Feb 2027",
            "tr",
        ),
        wrap(g, "HF token: hf_****************************wXyZ (read)", "es"),
        wrap(g, "password: ********\nhost: db.internal\nport: 5432", "vi"),
        "I removed the token from the message: OPENAI_API_KEY=[REDACTED]. The error is 'insufficient_quota' on every request.",
        "Hola, os paso la config quitando la contraseña: mysql -u root -p*** -h 10.0.3.4 (da Access denied).",
        "Mình đã che khóa rồi: WANDB_API_KEY=<đã xóa>, lỗi vẫn là 'wandb: Network error (ConnectionError)'.",
        "Şifreyi sildim: `sshpass -p '<şifre>' ssh root@host` — bağlantı zaman aşımına uğruyor.",
        wrap(g, "api_key: ${OPENAI_API_KEY}\nbase_url: ${OPENAI_BASE_URL:-https://api.openai.com/v1}", "en"),
        wrap(g, 'export HF_TOKEN=$(cat /run/secrets/hf_token)\nhuggingface-cli login --token "$HF_TOKEN"', "en"),
        wrap(
            g,
            'import os\nclient = OpenAI(api_key=os.environ["OPENAI_API_KEY"])\nwandb.login(key=os.getenv("WANDB_API_KEY"))',
            "es",
        ),
        wrap(g, "from google.colab import userdata\nlogin(token=userdata.get('HF_TOKEN'))", "vi"),
        wrap(
            g,
            '- name: Push image\n  run: echo "${{ secrets.GHCR_TOKEN }}" | docker login ghcr.io -u ${{ github.actor }} --password-stdin',
            "tr",
        ),
        wrap(
            g,
            "env:\n  - name: HF_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: hf-token\n        key: token",
            "en",
        ),
        wrap(g, "cat ~/.ngc/key | docker login nvcr.io -u '$oauthtoken' --password-stdin", "es"),
        wrap(g, "sshpass -f ~/.ssh/rental.pass ssh -p 2222 root@gpu-14.rent.gpurent.example", "vi"),
        wrap(g, 'export DATABASE_URL="postgresql://app:${DB_PASSWORD}@db.internal:5432/app"', "en"),
        wrap(
            g,
            'OPENAI_API_KEY=$(op read "op://ml/openai/credential")\nAWS_SECRET_ACCESS_KEY=$(aws secretsmanager get-secret-value --secret-id rental/s3 --query SecretString --output text)',
            "tr",
        ),
        wrap(g, "PGPASSFILE=/root/.pgpass psql -h db.internal -U postgres", "es"),
        wrap(g, 'password: !ENV ${LABEL_STUDIO_PASSWORD}\ntoken: "{{ vault_hf_token }}"', "en"),
        "My Jupyter on the rental asks for a token, where do I find it? I started it with `jupyter lab --no-browser` and closed the terminal.",
        "Hi, I started Jupyter with --ServerApp.token='' on purpose (only reachable over the SSH tunnel). Is that safe enough?",
    ]
    out.append(
        wrap(
            g,
            f'$ aws sts get-caller-identity\n{{\n    "UserId": "AIDA{g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 17)}",\n    "Account": "{g.num(10**11, 10**12 - 1)}",\n    "Arn": "arn:aws:iam::{g.num(10**11, 10**12 - 1)}:user/trainer"\n}}',
            "en",
        )
    )
    out.append(
        "Following the boto3 docs I tried the example pair AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY just to see the error, and the real keys give the same InvalidClientTokenId."
    )
    out.append(
        wrap(
            g,
            f'AccessDenied: User: arn:aws:sts::{g.num(10**11, 10**12 - 1)}:assumed-role/gpu-trainer/run is not authorized to perform: s3:PutObject on resource: "arn:aws:s3:::ckpt-bucket/run7/step_500.pt"',
            "vi",
        )
    )
    return out


def blobs(g: Gen) -> list[str]:
    out: list[str] = []
    for lang in ("en", "es", "vi"):
        out.append(
            wrap(
                g,
                f'<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{base64.b64encode(g.raw(180)).decode()}">',
                lang,
            )
        )
    out.append(
        wrap(g, f'payload = {{"audio": "UklGR{base64.b64encode(g.raw(150)).decode()}", "language": "tr"}}', "tr")
    )
    out.append(wrap(g, f"echo H4sIA{base64.b64encode(g.raw(120)).decode()} | base64 -d | gunzip > config.yaml", "en"))
    pl = json.dumps({"model": "llama-3.1-8b", "messages": [{"role": "user", "content": "Xin chào"}], "max_tokens": 256})
    out.append(wrap(g, f"Request body (base64 from the proxy log): {base64.b64encode(pl.encode()).decode()}", "vi"))
    out.append(
        wrap(
            g,
            f'tokenizer.json: "merges": ["Ġ t", "Ġ a", "h e", ...], "added_tokens": [{{"id": 128000, "content": "<|begin_of_text|>"}}]\nsha: {base64.b64encode(g.raw(48)).decode()}',
            "es",
        )
    )
    out.append(
        wrap(
            g,
            f'Content-MD5: {base64.b64encode(g.raw(16)).decode()}\nx-amz-checksum-sha256: {base64.b64encode(g.raw(32)).decode()}\nETag: "{g.hex(32)}-{g.num(2, 90)}"',
            "en",
        )
    )
    out.append(
        wrap(
            g,
            f"ipfs add model.safetensors\nadded bafybei{g.pick('abcdefghijklmnopqrstuvwxyz234567', 52)} model.safetensors",
            "tr",
        )
    )
    out.append(
        "The jwt.io example token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c decodes fine in my test, so the library works; only our real tokens fail."
    )
    return out


def configs(g: Gen) -> list[str]:
    """Whole config files and commands customers paste that hold no credential (references, paths, settings)."""
    out = [
        wrap(
            g,
            "compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmixed_precision: bf16\nnum_machines: 1\nnum_processes: 4\ngpu_ids: all\nmain_training_function: main",
            "en",
        ),
        wrap(
            g,
            '{\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 8,\n  "bf16": {"enabled": true},\n  "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}\n}',
            "es",
        ),
        wrap(
            g,
            'services:\n  vllm:\n    image: vllm/vllm-openai:v0.6.4\n    env_file: .env\n    deploy:\n      resources:\n        reservations:\n          devices:\n            - capabilities: [gpu]\n    ports: ["8000:8000"]',
            "vi",
        ),
        wrap(
            g,
            "torchrun --nproc_per_node 8 --nnodes 2 --node_rank 0 --master_addr 10.0.4.12 --master_port 29500 train.py --config configs/llama8b_lora.yaml",
            "tr",
        ),
        wrap(
            g,
            "Host rental\n  HostName gpu-22.rent.gpurent.example\n  User root\n  Port 2222\n  IdentityFile ~/.ssh/id_ed25519\n  LocalForward 8888 localhost:8888",
            "en",
        ),
        wrap(
            g,
            '[remote "origin"]\n\turl = git@github.com:lan-ai/asr-vi.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[lfs]\n\turl = https://github.com/lan-ai/asr-vi.git/info/lfs',
            "vi",
        ),
        wrap(
            g,
            "[default]\nregion = eu-west-1\noutput = json\n\n[profile trainer]\nrole_arn = arn:aws:iam::123456789012:role/gpu-trainer\nsource_profile = default",
            "es",
        ),
        wrap(
            g,
            "[r2]\ntype = s3\nprovider = Cloudflare\nenv_auth = true\nendpoint = https://example-account.r2.cloudflarestorage.com",
            "en",
        ),
        wrap(g, '{\n  "auths": {\n    "nvcr.io": {}\n  },\n  "credsStore": "desktop"\n}', "tr"),
        wrap(
            g,
            "model:\n  name: Qwen/Qwen2.5-7B-Instruct\n  revision: main\nlora:\n  r: 16\n  alpha: 32\n  target_modules: [q_proj, k_proj, v_proj, o_proj]\ntrain:\n  lr: 2.0e-4\n  epochs: 3\n  seed: 1234",
            "en",
        ),
        wrap(
            g,
            "CUDA_VISIBLE_DEVICES=0,1,2,3\nNCCL_DEBUG=INFO\nNCCL_IB_DISABLE=1\nNCCL_SOCKET_IFNAME=eth0\nTORCH_CUDA_ARCH_LIST=9.0\nPYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
            "es",
        ),
        wrap(
            g,
            "kind: Pod\nspec:\n  containers:\n  - name: train\n    image: nvcr.io/nvidia/pytorch:24.10-py3\n    resources:\n      limits:\n        nvidia.com/gpu: 8\n  imagePullSecrets:\n  - name: ngc-pull",
            "vi",
        ),
        wrap(
            g,
            "[program:jupyter]\ncommand=jupyter lab --ip 127.0.0.1 --port 8888 --no-browser\ndirectory=/workspace\nautorestart=true",
            "tr",
        ),
        wrap(
            g,
            "max_seq_len: 4096\ntokenizer: meta-llama/Llama-3.1-8B\ndataset: /data/tr_wiki_clean.jsonl\nsave_steps: 500\nlogging_steps: 10\nreport_to: wandb\nrun_name: tr-wiki-8b-lora",
            "tr",
        ),
        wrap(
            g,
            "s3:\n  bucket: ckpt-bucket\n  prefix: run7/\n  region: eu-west-1\n  # credentials come from the instance role, nothing here",
            "en",
        ),
        wrap(
            g,
            "history | tail -5\n  501  nvidia-smi\n  502  conda activate sd\n  503  python train_dreambooth.py --instance_prompt 'a photo of sks dog' --resolution 1024\n  504  du -sh output/\n  505  history",
            "es",
        ),
        wrap(
            g,
            "In [1]: import torch, transformers\nIn [2]: print(torch.__version__, transformers.__version__, torch.cuda.device_count())\n2.5.1+cu124 4.46.3 4",
            "vi",
        ),
        wrap(
            g,
            "netrc file found at /root/.netrc but no entry for huggingface.co\nwandb: Currently logged in as: lucia-m (lucia-lab). Use `wandb login --relogin` to force relogin",
            "en",
        ),
        wrap(
            g,
            "hf auth whoami\nuser: mehmety\norgs: tr-nlp\n\nhf auth list\n  name       token\n* default    hf_****vQpT",
            "tr",
        ),
        wrap(g, "$ docker login ghcr.io -u lucia-m --password-stdin < ~/.ghcr_token\nLogin Succeeded", "es"),
    ]
    for _ in range(6):
        _, _, eth, _ = g.wallet()
        out.append(
            wrap(
                g,
                f"PAYOUT_ADDRESS={eth}\nCHAIN=base\nCONFIRMATIONS=12\nRPC_URL=https://mainnet.base.org",
                g.choice(["en", "es", "vi", "tr"]),
            )
        )
    for _ in range(4):
        out.append(
            wrap(
                g,
                f"checkpoint: /data/ckpt/step_{g.num(1, 90) * 500}/\n  optimizer.pt   sha256:{g.hex(64)}\n  model.safetensors   sha256:{g.hex(64)}\n  uuid: {g.uuid()}",
                g.choice(["en", "es", "vi", "tr"]),
            )
        )
    return out

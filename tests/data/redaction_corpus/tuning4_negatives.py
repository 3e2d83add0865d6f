# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the fourth tuning part (see `build_tuning4.py`): look-alikes that must come back unchanged."""

from __future__ import annotations

import base64
import json

from .fakes import ALNUM, B64, LOWER, UPPER, Fakes
from .writer import repeat

DIGITS = "0123456789"


def _commands(f: Fakes) -> list:
    return [
        lambda: f"docker run -u 1000 -p 8080:80 -v /data:/data vllm/vllm-openai:v0.6.{f.rng.randint(0, 9)}",
        lambda: f"docker run --rm -u $(id -u):$(id -g) -p {f.rng.randint(2000, 9000)}:8888 jupyter/base-notebook",
        lambda: f"ssh -p {f.rng.randint(2000, 40000)} -i ~/.ssh/id_ed25519 root@203.0.113.{f.rng.randint(2, 250)}",
        lambda: f"scp -P {f.rng.randint(2000, 40000)} -r checkpoints/ root@gpu-4:/data/",
        lambda: "mysql -u root -p -h 127.0.0.1 shop\nEnter password:",
        lambda: "psql -h db.internal -U postgres -W",
        lambda: "echo $GITHUB_TOKEN | docker login ghcr.io -u ada --password-stdin",
        lambda: (
            "aws ecr get-login-password --region us-east-1 | docker login --username AWS --password-stdin 123456789012.dkr.ecr.us-east-1.amazonaws.com"
        ),
        lambda: 'echo "${REGISTRY_PASSWORD}" | podman login -u robot --password-stdin quay.io',
        lambda: "docker login -u ada -p $(cat ~/.registry_pw) registry.acme.dev",
        lambda: (
            f"python train.py --max_new_tokens {f.rng.randint(64, 4096)} --tokenizer_name meta-llama/Llama-3.1-8B --pad_token_id 128001"
        ),
        lambda: "torchrun train.py --hub_token $HF_TOKEN --report_to wandb --password-file /run/secrets/db_pw",
        lambda: "aws configure set region us-west-2 && aws configure set output json",
        lambda: "aws configure set aws_secret_access_key $AWS_SECRET_ACCESS_KEY --profile ci",
        lambda: "git config --global user.name 'Ada Lovelace' && git config --global credential.helper store",
        lambda: "dvc remote modify --local storage credentialpath ~/.aws/credentials",
        lambda: "yarn config set npmRegistryServer https://npm.acme.dev",
        lambda: "gh secret set HF_TOKEN < hf_token.txt",
        lambda: "aws ssm get-parameter --name /prod/trainer/db-password --with-decryption --query Parameter.Value",
        lambda: "az keyvault secret show --vault-name ml-kv --name hf-token --query value -o tsv",
        lambda: "kubectl create secret generic hf --from-file=token=./hf_token.txt",
        lambda: "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout env:P12_PASS",
        lambda: "openssl req -x509 -nodes -newkey rsa:4096 -keyout key.pem -out cert.pem -days 365",
        lambda: "keytool -list -keystore cacerts -storepass:env STOREPASS",
        lambda: "7z a -mx=9 weights.7z ./weights && unzip -l checkpoint.zip",
        lambda: "ffmpeg -i in.mp4 -c:v libx264 -pass 2 -b:v 2M out.mp4",
        lambda: "iperf3 -c 10.0.0.2 -p 5201 -u -b 10G",
        lambda: "nc -u 10.0.0.9 -p 4444",
        lambda: "ipmitool -I lanplus -H 10.0.9.21 -U ADMIN -E chassis status",
        lambda: "sudo -S true < /dev/null; echo 'nvidia-smi -pm 1' | sudo tee /etc/rc.local",
        lambda: "cat ~/.ssh/id_ed25519.pub\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + f.pick(B64, 43) + " ada@laptop",
        lambda: (
            f"$ cat ~/.config/solana/cli/config.yml\njson_rpc_url: https://api.mainnet-beta.solana.com\nkeypair_path: /root/.config/solana/id.json\ncommitment: confirmed\n# pubkey {f.solana_address()}"
        ),
        lambda: f"$ cat ~/.cache/huggingface/token_hash\n{f.hex(8)}",
        lambda: "$ cat /run/secrets/README\nsecrets are mounted here by docker swarm",
        lambda: "forge script script/Deploy.s.sol --rpc-url $RPC --private-key $PRIVATE_KEY --broadcast",
        lambda: (
            "helm install pg bitnami/postgresql --set auth.existingSecret=pg-secret --set primary.persistence.size=50Gi"
        ),
        lambda: (
            "terraform apply -var-file=prod.tfvars -var 'db_password_secret_arn=arn:aws:secretsmanager:us-east-1:123:secret:db'"
        ),
        lambda: (
            "htpasswd -c /etc/nginx/.htpasswd ada\nNew password:\nRe-type new password:\nAdding password for user ada"
        ),
        lambda: "rabbitmqctl list_users && rabbitmqctl set_permissions -p / trainer '.*' '.*' '.*'",
        lambda: "net user gpuadmin /delete",
        lambda: f"gh run view {f.rng.randint(10**9, 10**10)} --log | grep -i token\n  HF_TOKEN: ***",
        lambda: "printf 'nameserver 1.1.1.1\\n' | sudo tee /etc/resolv.conf",
        lambda: "xfreerdp /v:10.0.0.40 /u:Administrator /cert:ignore /size:1920x1080",
        lambda: "smbclient -L //nas01 -U ada",
        # a user flag and a `-p` that is not a password
        lambda: "python -u train.py -p configs/llama3-8b.yaml --seed 3",
        lambda: "python -u -m pytest -p no:cacheprovider tests/",
        lambda: "useradd -m -u 1001 ada && mkdir -p /home/ada/.ssh",
        lambda: f"docker run -u 1000:1000 -p {f.rng.randint(8000, 8009)}-8010:8000-8010 trainer:latest",
        lambda: "journalctl -u nvidia-persistenced -p warning --since today",
        lambda: "systemctl --user show -p MainPID jupyter.service",
        lambda: "git push -u origin main && git log -p -1",
    ]


def _words(f: Fakes) -> list:
    return [
        lambda: "my API key – where do I find it in the dashboard?",
        lambda: "the password for the jupyter on port 8888 is not accepted anymore",
        lambda: "the root password we set on the box is too short according to your policy",
        lambda: "I use a password manager (1Password) so the password is definitely right",
        lambda: "password (min. 12 characters) and the token (from the dashboard) are required",
        lambda: "My API key:\nit is in the settings page, right?\nthanks",
        lambda: "Here is the token limit\nMax tokens per request: 8192",
        lambda: "the second half of the training run is slower than the first",
        lambda: "and the rest: 40 GB of disk, 2 GPUs, Ubuntu 22.04",
        lambda: f"the rest of the output:\nsha256:{f.hex(64)}  model.safetensors",
        lambda: "the secret to fast training here is FlashAttention-2 with bf16",
        lambda: "token count for the run is 128000 and the key metric is loss",
        lambda: "la contraseña del servidor es incorrecta según el log, ¿podéis revisar?",
        lambda: "Khóa API của mình là không hợp lệ sao?",
        lambda: "API anahtarım çalışmıyor, yenisini nasıl alırım?",
        lambda: "Özel anahtarım şu an cüzdanda, paylaşmam gerekiyor mu?",
        lambda: "passphrase of the ssh key: I forgot it, can I reset?",
        lambda: "creds are in the vault / ask ops",
        lambda: "username: ubuntu\npassword: (the one you set at checkout)\nport: 22",
        lambda: "login ada password reset link expired on https://grafana.acme.dev",
        lambda: "Private key (hex): I don't have it, only the public address",
        lambda: "the key without the header lines is not accepted by ssh-add",
        lambda: f"my solana wallet address is {f.solana_address()} and the deposit has not arrived",
        lambda: f"Phantom shows the transaction signature {f.solana_signature()} as confirmed",
        lambda: f"solana confirm -v {f.solana_signature()}\nTransaction executed in slot {f.rng.randint(10**8, 10**9)}",
        lambda: f"recentBlockhash: {f.b58(f.raw(32))}\nsignature: {f.solana_signature()}",
        lambda: f"tx hex: {f.hex(128)}",
        lambda: f"ed25519 signature (hex): {f.hex(128)}",
        lambda: f"bytes of the digest: {json.dumps(list(f.raw(64)))}",
        lambda: f"keypair.json is at ~/.config/solana/id.json, my pubkey is {f.solana_address()}",
        lambda: "My seed phrase is safe in a drawer, I just need the payout address changed",
        lambda: "recovery phrase:\nI wrote it on paper, do you need it? (I know I should not share it)",
        lambda: "the mnemonic has 12 words but the wallet says it is invalid",
        # a "key" that is public or names something
        lambda: f"wallet public key: {f.solana_address()}",
        lambda: f"deposit address key: {f.solana_address()} (memo none)",
        lambda: f"cache key: Linux-pip-{f.hex(64)}",
        lambda: f"S3 key: checkpoints/run-{f.hex(8)}/model-00001-of-00004.safetensors",
        lambda: f"primary key: {f.pick(ALNUM, 22)} (orders table)",
        lambda: f"ssh key: AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)}",
        lambda: f"GPG key: {f.hex(40).upper()}",
        lambda: f"Idempotency-Key: {f.pick(ALNUM, 32)}",
    ]


def _pastes(f: Fakes) -> list:
    return [
        lambda: f"-----BEGIN CERTIFICATE-----\nMIID{f.pick(B64, 60)}\n{f.pick(B64, 64)}\n-----END CERTIFICATE-----",
        lambda: (
            f"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{f.pick(B64, 30)}\n{f.pick(B64, 64)}\nIDAQAB\n-----END PUBLIC KEY-----"
        ),
        lambda: f"public key (base64): MCowBQYDK2VwAyEA{f.pick(B64, 43)}=",
        lambda: (
            f"apiVersion: v1\nkind: ConfigMap\ndata:\n  config.json: {base64.b64encode(json.dumps({'model': 'llama', 'max_tokens': 4096}).encode()).decode()}"
        ),
        lambda: (
            f'{{"payload": "{base64.b64encode(json.dumps({"event": "instance.started", "gpu": "H100", "hours": f.rng.randint(1, 99)}).encode()).decode()}"}}'
        ),
        lambda: (
            f"[Interface]\nAddress = 10.8.0.2/24\nListenPort = 51820\n[Peer]\nPublicKey = {f.pick(B64, 43)}=\nAllowedIPs = 0.0.0.0/0"
        ),
        lambda: (
            "~/.oci/config\n[DEFAULT]\nkey_file=~/.oci/oci_api_key.pem\npass_phrase=${OCI_PASSPHRASE}\nregion=eu-frankfurt-1"
        ),
        lambda: "redis.conf:\nbind 0.0.0.0\n# requirepass foobared\nmaxmemory 8gb",
        lambda: "spring.datasource.password=${DB_PASSWORD}\nspring.jpa.hibernate.ddl-auto=validate",
        lambda: "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
        lambda: "$db_password = getenv('DB_PASSWORD');",
        lambda: "requests.get(url, auth=(user, password), timeout=10)",
        lambda: "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings.production')",
        lambda: (
            f'aws sts get-caller-identity\n{{\n    "UserId": "AROA{f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 17)}:ada",\n    "Account": "123456789012",\n    "Arn": "arn:aws:sts::123456789012:assumed-role/gpu/ada"\n}}'
        ),
        lambda: (
            "aws configure list\n      Name                    Value             Type    Location\n access_key     ****************WXYZ shared-credentials-file\n secret_key     ****************abcd shared-credentials-file"
        ),
        lambda: (
            f"pk.eyJ1IjoiYWRhIiwiYSI6I{f.pick(ALNUM, 30)}.{f.pick(ALNUM, 22)} is our public Mapbox token for the status map"
        ),
        lambda: (
            f"Endpoint=sb://ml-events.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;EntityPath=jobs-{f.rng.randint(1, 9)}"
        ),
        lambda: (
            f"FROM nvcr.io/nvidia/pytorch:24.0{f.rng.randint(1, 9)}-py3\nENV HF_HOME=/cache/hf TOKENIZERS_PARALLELISM=false"
        ),
        lambda: (
            f'{{"object": "list", "data": [{{"id": "chatcmpl-{f.pick(ALNUM, 29)}", "usage": {{"prompt_tokens": {f.rng.randint(1, 9999)}}}}}]}}'
        ),
        lambda: f"docker pull ghcr.io/acme/trainer@sha256:{f.hex(64)}",
        lambda: f'ETag: W/"{f.hex(40)}"\nX-Amz-Cf-Id: {f.pick(ALNUM + "_-", 56)}==',
        lambda: f"SESSION_ID: {f.uuid()} (give this to support)",
        lambda: (
            f"wandb: Run data is saved locally in /root/wandb/run-20261203_{f.rng.randint(100000, 235959)}-{f.pick(LOWER + DIGITS, 8)}"
        ),
        lambda: f"job {f.pick(LOWER + DIGITS, 24)} failed: Xid 79, GPU has fallen off the bus",
    ]


def _everyday(f: Fakes) -> list:
    return [
        lambda: f"tx hash: 0x{f.hex(64)}",
        lambda: f"My transaction 0x{f.hex(64)} is confirmed but the order is unpaid",
        lambda: f"txid {f.hex(64)}",
        lambda: f"the private key is on my ledger; the tx is 0x{f.hex(64)}",
        lambda: f"I never share my private key. Transaction: 0x{f.hex(64)}",
        lambda: f"sha256sum model.safetensors\n{f.hex(64)}  model.safetensors",
        lambda: f"SHA256 checksum: {f.hex(64)}",
        lambda: f"md5: {f.hex(32)}",
        lambda: f"git commit {f.hex(40)}",
        lambda: "model: meta-llama/Meta-Llama-3.1-70B-Instruct",
        lambda: "Qwen/Qwen2.5-72B-Instruct-GPTQ-Int4 fails to load",
        lambda: f"request id {f.uuid()}",
        lambda: f"order {f.uuid()} stuck in preparing",
        lambda: f"GPU UUID GPU-{f.uuid()}",
        lambda: (
            'Traceback (most recent call last):\n  File "/app/train.py", line 12, in <module>\n    model = AutoModel.from_pretrained(name, token=token)\nOSError: You are trying to access a gated repo.'
        ),
        lambda: "KeyError: 'api_key'",
        lambda: 'ValueError: password authentication failed for user "postgres"',
        lambda: (
            'psql: error: connection to server at "10.0.0.5", port 5432 failed: FATAL:  password authentication failed for user "ml"'
        ),
        lambda: "Permission denied (publickey,password).",
        lambda: (
            "docker: Error response from daemon: pull access denied for acme/private, repository does not exist or may require 'docker login'"
        ),
        lambda: "wandb: ERROR Invalid API key, please check it. wandb: Run wandb login --relogin",
        lambda: (
            "huggingface_hub.utils._errors.RepositoryNotFoundError: 401 Client Error. Invalid credentials in Authorization header"
        ),
        lambda: "Error: Invalid API key provided: sk-proj-****************************abcd",
        lambda: "I forgot my password, how do I reset it?",
        lambda: "Is it safe to paste my API key in the support form?",
        lambda: "the key is to use gradient checkpointing with bf16",
        lambda: "my token limit is 128k per minute, can you raise it?",
        lambda: "use the key from the dashboard (Settings → API keys)",
        lambda: "key: value pairs in the YAML are not parsed",
        lambda: f"Solana address: {f.solana_address()}",
        lambda: f"signature {f.solana_signature()}",
        lambda: f"bitcoin address {f.btc_address()}",
        lambda: f"TRON address T{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 33)}",
        lambda: f"public key: {f.solana_address()}",
        lambda: f"pubkey {f.solana_address()}",
        lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} ada@laptop",
        lambda: f"SHA256:{f.pick(B64, 43)} (ED25519)",
        lambda: "ssh -i ~/.ssh/id_ed25519 -p 2222 root@203.0.113.4",
        lambda: "docker run -p 8080:8080 -e MODEL=llama3 vllm",
        lambda: "mysql -u root -p",
        lambda: "psql -U postgres -h localhost -W",
        lambda: "export HF_TOKEN=$(cat ~/.hf_token)",
        lambda: "export OPENAI_API_KEY=<your key here>",
        lambda: "--api-key YOUR_API_KEY",
        lambda: "password: ********",
        lambda: "token: [REDACTED]",
        lambda: f"seed = {f.rng.randint(0, 99999)}",
        lambda: "torch.manual_seed(42)",
        lambda: f"nonce: {f.rng.randint(0, 10**6)}",
        lambda: f"block {f.rng.randint(10**7, 10**8)} hash 0x{f.hex(64)}",
        lambda: f'"input": "0xa9059cbb000000000000000000000000{f.hex(40)}{"0" * 40}{f.hex(24)}"',
        lambda: (
            f"ipfs://bafybei{f.pick(LOWER.replace('0', '').replace('1', '').replace('8', '').replace('9', ''), 52)}"
        ),
        lambda: f"sha256:{f.hex(64)}",
        lambda: f'ETag: "{f.hex(32)}"',
        lambda: f"x-request-id: {f.pick(ALNUM, 32)}",
        lambda: f"session {f.pick(LOWER + '0123456789', 12)} ended",
        lambda: "CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported",
        lambda: "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity)",
        lambda: "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45678> with error 12",
        lambda: f"Idempotency-Key: {f.uuid()}",
        lambda: f"stripe pi_{f.pick(ALNUM, 24)}",
        lambda: f"pk_live_{f.pick(ALNUM, 24)} is our publishable key",
        lambda: f"key id {f.pick(UPPER, 16)}",
        lambda: f"the key ID is {f.pick(UPPER + LOWER, 20)}",
        lambda: f"API key name: prod-trainer-{f.rng.randint(1, 99)}",
        lambda: "Key: checkpoints/step-1000/model.safetensors",
        lambda: f"Key fingerprint = {' '.join(f.hex(4).upper() for _ in range(10))}",
        lambda: f'gpg: key {f.hex(16).upper()}: public key "Ada <ada@acme.dev>" imported',
        lambda: "my password manager is Bitwarden2024",
        lambda: "the password must be at least 12 characters",
        lambda: "pass --epochs 3 to the script",
        lambda: "password was changed yesterday at 10:42",
        lambda: "token was expired, I regenerated it",
        lambda: "my api key is the one from the team account",
        lambda: "the secret is in AWS Secrets Manager under prod/db",
        lambda: f"Please send the payout to 0x{f.hex(40)}",
        lambda: f"the model's hash is {f.hex(64)}",
        lambda: f"my wallet public key is {f.solana_address()}",
        lambda: f"Solana tx {f.solana_signature()} private key not needed right?",
    ]


def _pairs_and_xml(f: Fakes) -> list:
    return [
        lambda: "env:\n  - name: HF_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: hf\n        key: token",
        lambda: (
            '"secrets": [{"name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf"}]'
        ),
        lambda: "<password>${env.NEXUS_PASSWORD}</password>",
        lambda: '<add key="ApiKey" value="" />',
        lambda: 'SECRET_KEY_BASE: <%= ENV["SECRET_KEY_BASE"] %>',
        lambda: "<keyStore>/etc/ssl/keystore.jks</keyStore>",
        lambda: "<maxTokens>4096</maxTokens>",
        lambda: "accounts: [process.env.PRIVATE_KEY]",
        lambda: '"source": ["os.environ[\\"HF_TOKEN\\"] = userdata.get(\\"HF_TOKEN\\")\\n"]',
        lambda: f"PK {f.rng.randint(1, 99999)} violates unique constraint",
        lambda: f"key 0x{f.hex(40)} is my deposit address",
        lambda: f"accounts: ['0x{f.hex(40)}']",
        lambda: f"tx key 0x{f.hex(64)}",
        lambda: "- name: LOG_LEVEL\n  value: debug",
        lambda: '{"name": "MAX_TOKENS", "value": "4096"}',
        lambda: f"<requestId>{f.uuid()}</requestId>",
        lambda: f'"hash": "0x{f.hex(64)}", "blockHash": "0x{f.hex(64)}"',
        lambda: f"topics: ['0x{f.hex(64)}']",
    ]


def _ci_notebooks_and_chains(f: Fakes) -> list:
    return [
        lambda: "Run actions/checkout@v4\n  with:\n    repository: acme/trainer\n    token: ***\n    ssh-strict: true",
        lambda: (
            f"Run docker/login-action@v3\n  with:\n    registry: ghcr.io\n    username: ada\n    password: ***\nLogin Succeeded!\n##[debug]sha {f.hex(40)}"
        ),
        lambda: "env:\n  HF_HOME: /cache/hf\n  WANDB_MODE: offline\n  TOKENIZERS_PARALLELISM: false",
        lambda: (
            f"##[group]Run pip install -r requirements.txt\nCollecting torch==2.4.0\n  Downloading torch-2.4.0-cp311-cp311-manylinux1_x86_64.whl (797.2 MB)\n  sha256={f.hex(64)}"
        ),
        lambda: f"Downloaded newer image for ghcr.io/acme/trainer@sha256:{f.hex(64)}",
        lambda: (
            f'{{"cell_type": "code", "execution_count": 3, "outputs": [{{"data": {{"image/png": "iVBORw0KGgoAAAANSUhEUgAA{f.pick(B64, 200)}"}}}}], "source": ["plt.plot(losses)"]}}'
        ),
        lambda: (
            '{"cell_type": "code", "source": ["from huggingface_hub import notebook_login\\n", "notebook_login()"]}'
        ),
        lambda: '{"source": ["os.environ[\\"WANDB_API_KEY\\"] = getpass.getpass()\\n"]}',
        lambda: (
            "Token is valid (permission: fineGrained).\nYour token has been saved to /root/.cache/huggingface/token\nLogin successful"
        ),
        lambda: "wandb: Appending key for api.wandb.ai to your netrc file: /root/.netrc",
        lambda: "wandb: Currently logged in as: ada (acme). Use `wandb login --relogin` to force relogin",
        lambda: "Successfully installed tokenizers-0.19.1 safetensors-0.4.3 transformers-4.44.0",
        lambda: "the API key in my profile says 'last used: never', is that normal?",
        lambda: "the password for root is whatever you set at checkout, right?",
        lambda: "my token is valid until 2026-12-31 according to the dashboard",
        lambda: "my api key is the same as before, nothing changed",
        lambda: f"the key for the bucket is checkpoints/{f.hex(8)}/step-9000.pt",
        lambda: "key: the model name, value: its size in GB",
        lambda: f"Found key: {f.pick(LOWER, 8)}-{f.pick(LOWER, 4)}-cache",
        lambda: f"The secret to getting 2x throughput was enabling CUDA graphs ({f.rng.randint(100, 999)} tok/s)",
        lambda: "password: at least 12 characters, one digit",
        lambda: "Password:\nSorry, try again.\nPassword:\nsudo: 3 incorrect password attempts",
        lambda: "Enter passphrase for key '/root/.ssh/id_ed25519':\nIdentity added: /root/.ssh/id_ed25519 (ada@laptop)",
        lambda: f"ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:{f.pick(B64, 43)} ada@laptop (ED25519)",
        lambda: f"-----BEGIN CERTIFICATE-----\nMIIC{f.pick(B64, 60)}\n{f.pick(B64, 64)}\n-----END CERTIFICATE-----",
        lambda: f"ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t{f.pick(B64, 100)}",
        lambda: f"certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1J{f.pick(B64, 200)}",
        lambda: f"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{f.pick(B64, 100)}",
        lambda: "token_type: Bearer\nexpires_in: 3599\nscope: https://www.googleapis.com/auth/cloud-platform",
        lambda: (
            f"usage: prompt_tokens={f.rng.randint(1, 9999)} completion_tokens={f.rng.randint(1, 9999)} total_tokens={f.rng.randint(1, 99999)}"
        ),
        lambda: f"max_tokens: {f.rng.randint(100, 8000)}\ntemperature: 0.2",
        lambda: "tokenizer: meta-llama/Meta-Llama-3.1-8B-Instruct\nchat_template: llama3",
        lambda: f"keypair_path: /root/.config/solana/id.json\npubkey: {f.solana_address()}",
        lambda: f"Wrote new keypair to /root/.config/solana/id.json\npubkey: {f.solana_address()}",
        lambda: f"solana balance {f.solana_address()}\n0.5 SOL",
        lambda: (
            f"spl-token transfer EPjFWdd5AufqSSqeM2qN1xzybapC2G4wGkZwyTDt1v 10 {f.solana_address()}\nSignature: {f.solana_signature()}"
        ),
        lambda: f'eth_getTransactionReceipt result: {{"transactionHash": "0x{f.hex(64)}", "from": "0x{f.hex(40)}"}}',
        lambda: (
            f"My deposit to 0x{f.hex(40)} with tx 0x{f.hex(64)} is missing. I keep my private key offline of course."
        ),
        lambda: f"Never share your private key! Our address is 0x{f.hex(40)}",
        lambda: f"keccak256 hash: 0x{f.hex(64)}",
        lambda: f"bytes32 salt = 0x{f.hex(64)};",
        lambda: f"merkle root {f.hex(64)}",
        lambda: "docker login ghcr.io -u ada --password-stdin < ~/.ghcr_token",
        lambda: "echo 'export PATH=$PATH:/usr/local/cuda/bin' >> ~/.bashrc",
        lambda: "echo hello | base64",
        lambda: f"echo {f.hex(8)} | sudo tee /sys/class/net/eth0/mtu",
        lambda: "cat ~/.ssh/authorized_keys\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAbCdEf ada@laptop",
        lambda: "cat /etc/hostname\ngpu-node-7",
        lambda: "git config --global pull.rebase true && git config --global init.defaultBranch main",
        lambda: "npm config set registry https://registry.npmjs.org/",
        lambda: "aws configure set default.s3.max_concurrent_requests 20",
        lambda: "kubectl config set-context --current --namespace=ml",
        lambda: "psexec -s -i cmd.exe",
        lambda: "mysql -u root -p < dump.sql",
        lambda: "mongosh --username admin --password --authenticationDatabase admin",
        lambda: "curl -u ada https://api.acme.dev/v1/me",
        lambda: "curl -s -u $USER:$TOKEN https://api.acme.dev",
        lambda: "htpasswd -v .htpasswd ada",
        lambda: "openssl rand -base64 32 > secret.key",
        lambda: "python -c 'import secrets; print(secrets.token_urlsafe(32))'",
        lambda: f"my seed is {f.rng.randint(0, 99999)} and the run is not deterministic",
        lambda: "I lost my seed phrase, can you recover my account?",
        lambda: f"recovery code format: XXXX-XXXX (we sent you {f.rng.randint(5, 10)} codes)",
        lambda: f"Invoice {f.pick(UPPER, 8)}-{f.rng.randint(1000, 9999)}: 3 x H100 for 24 h",
        lambda: f"promo code GPU{f.rng.randint(10, 99)}OFF doesn't work",
        lambda: f"voucher: {f.pick(UPPER, 12)}",
        lambda: "licence key for the CUDA toolkit? no, it's free",
        lambda: f"API version: 2024-06-01, request id: req_{f.pick(ALNUM, 24)}",
        lambda: f"session_id={f.uuid()}",
        lambda: f"trace: span {f.hex(16)} parent {f.hex(16)}",
    ]


def negatives(f: Fakes) -> list[str]:
    out: list[str] = []
    for build in (
        *_commands(f),
        *_words(f),
        *_pastes(f),
        *_everyday(f),
        *_pairs_and_xml(f),
        *_ci_notebooks_and_chains(f),
    ):
        repeat(2, out, build)
    return out

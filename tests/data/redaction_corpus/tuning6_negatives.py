# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the sixth tuning part (`build_tuning6.py`): look-alikes that must survive untouched.

Command lines whose credential is a prompt, a file, stdin or a variable; flags whose value is a port, a path, a
count or a seed; hashes, signatures, digests, addresses, ids and public keys beside the words "key", "token",
"secret" and "password"; placeholders and masked values; prose about passwords and tokens in four languages;
stack traces and tool output that name credentials without holding one.
"""

from __future__ import annotations

from collections.abc import Callable

from .fakes import ALNUM, B64, LOWER, UPPER, URLSAFE, Fakes
from .tuning6_providers import BECH32

DIGITS = "0123456789"


def _prompts_files_and_variables(f: Fakes) -> list[Callable[[], str]]:
    host = lambda: f"10.0.{f.rng.randint(0, 9)}.{f.rng.randint(2, 250)}"  # noqa: E731 (a tiny generator)
    port = lambda: str(f.rng.randint(20000, 60000))  # noqa: E731
    return [
        lambda: f"redis-cli -h {host()} -p 6379 --askpass INFO keyspace",
        lambda: (
            f"mysql -h {host()} -P 3306 -u root -p ml_runs\nEnter password:\nERROR 2003 (HY000): Can't connect to MySQL server on '{host()}:3306' (110)"
        ),
        lambda: (
            f"psql -h {host()} -U postgres -W -d feats\nPassword for user postgres:\npsql: error: connection to server failed: timeout expired"
        ),
        lambda: f"sshpass -f ~/.ssh/gpu_pw ssh -p {port()} root@{host()} nvidia-smi",
        lambda: (
            f"export SSHPASS=$(pass show gpurent/box)\nsshpass -e ssh -o StrictHostKeyChecking=no -p {port()} root@{host()}"
        ),
        lambda: (
            f"cat ~/.ghcr_token | docker login ghcr.io -u ada-lab --password-stdin\nLogin Succeeded (took {f.rng.randint(300, 2000)} ms)"
        ),
        lambda: (
            f"helm registry login harbor.acme.dev --username robot$ci --password-stdin < /run/secrets/harbor_{f.pick(LOWER, 4)}"
        ),
        lambda: f"kubeadm token create --ttl {f.rng.randint(1, 48)}h --print-join-command",
        lambda: (
            f'kubeadm join {host()}:6443 --token "$(cat /etc/kube/bootstrap-token)" --discovery-token-ca-cert-hash sha256:{f.hex(64)}'
        ),
        lambda: (
            f"vault login -method=oidc role=ml-{f.pick(LOWER, 4)}\nComplete the login via your OIDC provider. Launching browser to:"
        ),
        lambda: f"vault kv get -field=hf_token secret/ml/team-{f.pick(LOWER, 3)}",
        lambda: (
            f"wandb login --relogin\nwandb: Logging into wandb.ai. (Learn how to deploy a W&B server locally: https://wandb.me/wandb-server)\nwandb: You can find your API key in your browser here: https://wandb.ai/authorize\nwandb: Paste an API key from your profile and hit enter, or press ctrl+c to quit: \n(run {f.pick(LOWER + '0123456789', 8)})"
        ),
        lambda: (
            f"hf auth login\n    _|    _|  _|    _|    _|_|_|\nEnter your token (input will not be visible): \nAdd token as git credential? (Y/n) n\n[session {f.uuid()}]"
        ),
        lambda: (
            f"restic -r s3:s3.eu-central-1.amazonaws.com/acme-ckpt-{f.pick(LOWER, 4)} --password-file /etc/restic/pw snapshots"
        ),
        lambda: (
            f"export BORG_PASSCOMMAND='pass show backups/borg'\nborg list ssh://u{f.rng.randint(100000, 999999)}@u{f.rng.randint(100000, 999999)}.your-storagebox.de:23/./repo"
        ),
        lambda: (
            f"ansible-vault encrypt_string --vault-id prod@prompt --name 'db_password' # run {f.rng.randint(1, 99)}"
        ),
        lambda: f"ansible-playbook site.yml --ask-become-pass -l gpu-{f.rng.randint(1, 40)}",
        lambda: f'terraform apply -var="db_password=${{var.db_password}}" -var="region=eu-{f.pick(LOWER, 4)}-1"',
        lambda: f"gcloud auth activate-service-account --key-file=/secrets/sa-{f.pick(LOWER, 5)}.json",
        lambda: f"oci session authenticate --region eu-frankfurt-1 --profile-name gpu-{f.pick(LOWER, 3)}",
        lambda: (
            f"az login --identity --username /subscriptions/{f.uuid()}/resourceGroups/ml/providers/Microsoft.ManagedIdentity/userAssignedIdentities/trainer"
        ),
        lambda: (
            f"doctl auth init --context gpu-{f.pick(LOWER, 4)}\nPlease authenticate doctl for use with your DigitalOcean account. You can generate a token in the control panel at https://cloud.digitalocean.com/account/api/tokens\n\nEnter your access token: "
        ),
        lambda: (
            f"hcloud server create --name gpu-{f.rng.randint(1, 99)} --type gx11 --image ubuntu-24.04 --ssh-key ada@laptop"
        ),
        lambda: (
            f"vastai create instance {f.rng.randint(1000000, 9999999)} --image pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel --disk 80 --ssh"
        ),
        lambda: (
            f"runpodctl create pod --gpuType 'NVIDIA H100 80GB HBM3' --imageName runpod/pytorch:2.4.0 --ports '8888/http,22/tcp' --name ft-{f.pick(LOWER, 4)}"
        ),
        lambda: (
            f"poetry config http-basic.private ada --no-interaction  # password comes from POETRY_HTTP_BASIC_PRIVATE_PASSWORD ({f.rng.randint(1, 9)})"
        ),
        lambda: f"cargo login --registry acme < ~/.cargo/acme-token-{f.pick(LOWER, 3)}",
        lambda: (
            f"rclone config create s3store s3 provider=AWS env_auth=true region=eu-west-{f.rng.randint(1, 3)} --s3-chunk-size {f.rng.randint(8, 512)}M"
        ),
        lambda: f"mc alias set minio http://{host()}:9000 --api signatureV4\nEnter Access Key: \nEnter Secret Key: ",
        lambda: f'kubectl create secret generic hf --from-literal=token="$HF_TOKEN" -n ml-{f.pick(LOWER, 4)}',
        lambda: (
            f"kubectl get secret regcred -n ml-{f.pick(LOWER, 4)} -o jsonpath='{{.data.\\.dockerconfigjson}}' | base64 -d | jq 'keys'"
        ),
        lambda: f"git config --global credential.helper 'cache --timeout={f.rng.randint(600, 86400)}'",
        lambda: f"git config --global credential.https://git.acme.dev.username ada-{f.pick(LOWER, 3)}",
        lambda: (
            f"docker login -u ada registry.acme.dev\nPassword: \nWARNING! Your password will be stored unencrypted in /root/.docker/config.json.\nLogin Succeeded ({f.rng.randint(1, 9)})"
        ),
        lambda: (
            f"podman login --authfile ${{XDG_RUNTIME_DIR}}/containers/auth.json --get-login quay.io  # acme+trainer-{f.rng.randint(1, 9)}"
        ),
        lambda: f"modal token new --profile acme-{f.pick(LOWER, 3)}\nWeb authentication finished successfully!",
    ]


def _flags_with_ordinary_values(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: f"docker run --gpus all -p {f.rng.randint(8000, 8999)}:8888 -v /data:/data jupyter/pytorch-notebook",
        lambda: (
            f"ssh -p {f.rng.randint(20000, 60000)} -i ~/.ssh/id_ed25519 -L 6006:localhost:6006 root@ssh{f.rng.randint(1, 9)}.vast.ai"
        ),
        lambda: (
            f"vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len {f.choice([8192, 16384, 32768])} --max-num-seqs {f.rng.randint(16, 256)} --kv-cache-dtype fp8"
        ),
        lambda: (
            f"python generate.py --max-new-tokens {f.rng.randint(64, 4096)} --temperature 0.7 --seed {f.rng.randint(1, 99999)}"
        ),
        lambda: (
            f"torchrun --nproc-per-node 8 --master-port {f.rng.randint(20000, 30000)} train.py --key-padding-mask --token-dropout 0.1"
        ),
        lambda: (
            f"openssl req -new -x509 -days 365 -key server.key -out server.crt -subj '/CN=gpu-{f.rng.randint(1, 99)}.acme.dev'"
        ),
        lambda: f"ssh-keygen -t ed25519 -C 'ada@gpurent' -f ~/.ssh/gpurent_{f.pick(LOWER, 4)} -N ''",
        lambda: f"solana-keygen pubkey ~/.config/solana/id.json\n{f.solana_address()}",
        lambda: (
            f"solana transfer --from ./payer.json {f.solana_address()} 0.{f.rng.randint(1, 99)} --allow-unfunded-recipient --fee-payer ./payer.json"
        ),
        lambda: f"cast wallet address --keystore ~/.foundry/keystores/deployer\n0x{f.hex(40)}",
        lambda: (
            f"forge script script/Deploy.s.sol --rpc-url $SEPOLIA_RPC --account deployer --sender 0x{f.hex(40)} --broadcast"
        ),
        lambda: f"openssl rand -hex 32 > /etc/app/session.key  # then chmod 600, ticket #{f.rng.randint(1000, 9999)}",
        lambda: (
            f"aws s3 cp s3://acme-ckpt/run-{f.pick(LOWER, 6)}/model.safetensors . --sse aws:kms --sse-kms-key-id alias/ml-ckpt"
        ),
        lambda: f"gpg --recv-keys {f.hex(40).upper()} && gpg --verify SHA256SUMS.sig SHA256SUMS",
        lambda: (
            f"pip install torch=={f.choice(['2.4.1', '2.5.1', '2.6.0'])} --index-url https://download.pytorch.org/whl/cu124 --trusted-host download.pytorch.org"
        ),
        lambda: f"nvidia-smi -i {f.rng.randint(0, 7)} -pm 1 && nvidia-smi -lgc 1410,1410",
        lambda: (
            f"curl -s -o /dev/null -w '%{{http_code}}' -H 'Accept: application/json' https://api.gpurent.example/v1/orders/{f.uuid()}"
        ),
        lambda: (
            f"mysql -u app -p{{password}} is what the docs show but I used the prompt instead (order {f.rng.randint(10000, 99999)})"
        ),
    ]


def _hashes_ids_and_public_keys(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: f"Paid with USDT on Ethereum, tx hash 0x{f.hex(64)} — order still shows unpaid",
        lambda: f"Solana payment signature: {f.solana_signature()}\nfrom {f.solana_address()}",
        lambda: f"sha256sum llama-3.1-8b.Q4_K_M.gguf\n{f.hex(64)}  llama-3.1-8b.Q4_K_M.gguf",
        lambda: (
            f"Digest: sha256:{f.hex(64)}\nStatus: Downloaded newer image for nvcr.io/nvidia/pytorch:24.{f.rng.randint(10, 12)}-py3"
        ),
        lambda: f"checked out commit {f.hex(40)} of the training repo, same error",
        lambda: f"model revision {f.hex(40)} of mistralai/Mistral-7B-Instruct-v0.3",
        lambda: f"GPU UUID: GPU-{f.uuid()}\nMIG UUID: MIG-{f.uuid()}",
        lambda: f"x-request-id: req_{f.pick(ALNUM, 24)}\nHTTP/2 502",
        lambda: f"Order id {f.uuid()} — the machine never came up",
        lambda: f"wandb: 🚀 View run at https://wandb.ai/acme/llm-sft/runs/{f.pick(LOWER + '0123456789', 8)}",
        lambda: (
            f"The ECDSA key fingerprint is SHA256:{f.pick(B64, 43)}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?"
        ),
        lambda: f"my public key for the box: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{f.pick(B64, 43)} ada@laptop",
        lambda: f"# public key: age1{f.pick(BECH32, 58)}\n(the secret half stays on my laptop)",
        lambda: (
            f"[Interface]\nPrivateKey = <stays on the client>\n[Peer]\nPublicKey = {f.pick(B64, 43)}=\nEndpoint = 203.0.113.{f.rng.randint(2, 250)}:51820"
        ),
        lambda: f"deposit address (not a key!): {f.btc_address()}",
        lambda: f"Stripe says payment_intent pi_{f.pick(ALNUM, 24)} succeeded but the balance did not move",
        lambda: (
            f"kubeadm printed --discovery-token-ca-cert-hash sha256:{f.hex(64)} — is that the CA hash I should keep?"
        ),
        lambda: f"Key ID: {f.hex(16).upper()}  (the GPG key used to sign the release)",
        lambda: f"idempotency key {f.uuid()} was reused with another body, 409",
        lambda: (
            f"KMS key arn:aws:kms:eu-west-1:{f.rng.randint(10**11, 10**12 - 1)}:key/{f.uuid()} is used for the checkpoint bucket"
        ),
        lambda: (
            f"The token count is {f.rng.randint(1000, 200000)} for the prompt, above the {f.choice([8192, 32768, 131072])} limit"
        ),
        lambda: (
            f"Processed {f.rng.randint(1, 9)}.{f.rng.randint(0, 9)}M tokens/s on 8×H100, tokenizer vocab {f.choice([32000, 128256, 151936])}"
        ),
        lambda: f"IPFS CID of the dataset: bafybei{f.pick('abcdefghijklmnopqrstuvwxyz234567', 52)}",
        lambda: f'ETag: "{f.hex(32)}-{f.rng.randint(2, 90)}" for s3://acme-ckpt/model.safetensors',
        lambda: f"pip hash: --hash=sha256:{f.hex(64)}",
        lambda: f"Hugging Face commit {f.hex(40)[:7]} added the tokenizer; git-lfs oid sha256:{f.hex(64)}",
    ]


def _placeholders_and_masks(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: f"hf auth login --token <YOUR_HF_TOKEN>  # from the docs, step {f.rng.randint(1, 9)}",
        lambda: f"mysql -u root -p'********' -h db-{f.rng.randint(1, 9)}",
        lambda: (
            f"openai.AuthenticationError: Error code: 401 - Incorrect API key provided: sk-proj-****{f.pick(ALNUM, 4)}"
        ),
        lambda: f"token: hf_***{f.pick(ALNUM, 4)} (masked by the log shipper)",
        lambda: (
            f"env:\n  HF_TOKEN: ${{{{ secrets.HF_TOKEN }}}}\n  WANDB_API_KEY: ${{{{ secrets.WANDB_API_KEY }}}}\n  RUN: {f.rng.randint(1, 999)}"
        ),
        lambda: f"docker login -u $DOCKER_USER -p $DOCKER_PASSWORD registry-{f.rng.randint(1, 9)}.acme.dev",
        lambda: (
            f"set NGC_API_KEY=%NGC_API_KEY%\ndocker login nvcr.io -u $oauthtoken -p %NGC_API_KEY%  (build {f.rng.randint(1, 999)})"
        ),
        lambda: f"password: op://ml-vault/gpu-box-{f.rng.randint(1, 30)}/password",
        lambda: f"  password: {{{{ .Values.postgres.password }}}}\n  replicas: {f.rng.randint(1, 5)}",
        lambda: f"API_KEY=your-api-key-here\nMODEL=meta-llama/Llama-3.1-{f.choice(['8B', '70B'])}-Instruct",
        lambda: f"export VAST_API_KEY=$(cat ~/.vast_api_key)  # {f.rng.randint(1, 9)}",
        lambda: (
            f"aws configure list\n      Name                    Value             Type    Location\n   access_key     ****************{f.pick(UPPER, 4)} shared-credentials-file\n   secret_key     ****************{f.pick(ALNUM, 4)} shared-credentials-file"
        ),
        lambda: (
            f"restic: Fatal: wrong password or no key found (repo sftp:backup@{f.rng.randint(10, 99)}.acme.dev:/ckpt)"
        ),
        lambda: f"vault: Error making API request. Code: 403. Errors: * permission denied (request_id {f.uuid()})",
    ]


def _prose_and_traces(f: Fakes) -> list[Callable[[], str]]:
    n = lambda: f.rng.randint(1000, 99999)  # noqa: E731 (an order number)
    return [
        lambda: f"I forgot my password and the reset e-mail never arrives (order {n()})",
        lambda: f"Can you rotate the API token on my account? I think a colleague saw it. Order {n()}",
        lambda: f"el token expiró y ahora la descarga del modelo falla con 401, pedido {n()}",
        lambda: f"¿Dónde cambio la contraseña de la cuenta? No encuentro la opción. Pedido {n()}",
        lambda: f"mật khẩu bị sai hoài, em đã thử đặt lại mà không được (đơn {n()})",
        lambda: f"cho em hỏi token API hết hạn sau bao lâu ạ? đơn {n()}",
        lambda: f"şifremi unuttum, sıfırlama bağlantısı gelmiyor (sipariş {n()})",
        lambda: f"API anahtarı nerede oluşturuluyor? Panelde göremedim. Sipariş {n()}",
        lambda: (
            f"The private key never leaves my laptop; I only uploaded the public one. Is that enough for order {n()}?"
        ),
        lambda: f"Does the seed phrase of my wallet matter for paying with USDC? I only have the address. Order {n()}",
        lambda: (
            f'Traceback (most recent call last):\n  File "train.py", line {f.rng.randint(10, 400)}, in <module>\n    login(token=os.environ["HF_TOKEN"])\nKeyError: \'HF_TOKEN\''
        ),
        lambda: (
            f"huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-{f.hex(8)}-{f.hex(24)})\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.1-8B is restricted. You must have access to it and be authenticated to access it. Please log in."
        ),
        lambda: (
            f"wandb: ERROR api_key not configured (no-tty). call wandb.login(key=[your_api_key]) (pid {f.rng.randint(100, 65000)})"
        ),
        lambda: (
            f"pymongo.errors.OperationFailure: Authentication failed., full error: {{'ok': 0.0, 'errmsg': 'Authentication failed.', 'code': 18, 'codeName': 'AuthenticationFailed', 'operationTime': {f.rng.randint(10**9, 2 * 10**9)}}}"
        ),
        lambda: (
            f'psql: error: connection to server at "10.0.0.{f.rng.randint(2, 250)}", port 5432 failed: FATAL:  password authentication failed for user "etl"'
        ),
        lambda: (
            f"ERROR 1045 (28000): Access denied for user 'root'@'10.0.0.{f.rng.randint(2, 250)}' (using password: YES)"
        ),
        lambda: f"Permission denied (publickey,password). [attempt {f.rng.randint(2, 9)}]",
        lambda: (
            f"Error: UNAUTHORIZED: authentication required; [map[Action:pull Class: Name:acme/trainer Type:repository]] (retry {f.rng.randint(1, 9)})"
        ),
        lambda: f"key file ~/.ssh/id_rsa has permissions 0644, too open (box gpu-{f.rng.randint(1, 40)})",
        lambda: (
            f"IdentityFile ~/.ssh/gpurent_{f.pick(LOWER, 5)}\nIdentitiesOnly yes\nPort {f.rng.randint(20000, 60000)}"
        ),
        lambda: f"--keypair /home/ada/.config/solana/id-{f.pick(LOWER, 4)}.json is where the CLI looks, right?",
        lambda: (
            f"key_file = ~/.oci/oci_api_key_{f.pick(LOWER, 4)}.pem\nfingerprint = {':'.join(f.hex(2) for _ in range(16))}\ntenancy = ocid1.tenancy.oc1..aaaaaaaa{f.pick(LOWER + '0123456789', 52)}"
        ),
    ]


def _two_of_each(builders: list[Callable[[], str]]) -> list[str]:
    out: list[str] = []
    for build in builders:
        texts = {build() for _ in range(4)}  # a template with few variants may draw the same text twice
        out.extend(sorted(texts)[:2])
    return out


def negatives(f: Fakes) -> list[str]:
    """The first batch."""
    return _two_of_each(
        [
            *_prompts_files_and_variables(f),
            *_flags_with_ordinary_values(f),
            *_hashes_ids_and_public_keys(f),
            *_placeholders_and_masks(f),
            *_prose_and_traces(f),
        ]
    )


def negatives_batch2(f: Fakes) -> list[str]:
    """The second batch: the providers, files, code and chat of `tuning6_providers.py`, without a secret."""
    return _two_of_each(
        [*_configs_and_code(f), *_provider_ids_and_masks(f), *_chain_and_digests(f), *_prose_and_logs(f)]
    )


def _configs_and_code(f: Fakes) -> list[Callable[[], str]]:
    n = lambda: f.rng.randint(1, 9999)  # noqa: E731 (a distinguishing number)
    return [
        lambda: f"# .env.example ({n()})\nGROQ_API_KEY=\nOPENROUTER_API_KEY=\nPINECONE_API_KEY=\nLANGCHAIN_API_KEY=",
        lambda: (
            f"services:\n  chat:\n    image: acme/chat:1.{n()}\n    environment:\n      XAI_API_KEY: ${{XAI_API_KEY}}\n      PINECONE_API_KEY: ${{PINECONE_API_KEY:?set it}}"
        ),
        lambda: (
            f"env:\n  - name: HF_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: hf-token-{f.pick(LOWER, 5)}\n        key: token"
        ),
        lambda: (
            f"~/.databrickscfg\n[DEFAULT]\nhost      = https://adb-{n()}.7.azuredatabricks.net\nauth_type = databricks-cli"
        ),
        lambda: (
            f"[r2]\ntype = s3\nprovider = Cloudflare\nenv_auth = true\nendpoint = https://{f.hex(32)}.r2.cloudflarestorage.com"
        ),
        lambda: f'variable "db_password" {{\n  type      = string\n  sensitive = true\n}}\n# run {n()}',
        lambda: f"pulumi config set --secret dbPassword  # prompts, stack gpu-{f.pick(LOWER, 4)}",
        lambda: f"doppler run --project ml --config prd -- python train.py --epochs {f.rng.randint(1, 40)}",
        lambda: (
            f"# .env\nHF_TOKEN=op://ml/huggingface-{f.pick(LOWER, 4)}/credential\n$ op run --env-file=.env -- python train.py"
        ),
        lambda: (
            f'{{{{ with secret "kv/data/ml/hf-{f.pick(LOWER, 3)}" }}}}HF_TOKEN={{{{ .Data.data.token }}}}{{{{ end }}}}'
        ),
        lambda: (
            f"hf_token: ENC[AES256_GCM,data:{f.pick(B64, 48)},iv:{f.pick(B64, 43)}=,tag:{f.pick(B64, 22)}==,type:str]\nsops:\n    age:\n        - recipient: age1{f.pick(BECH32, 58)}"
        ),
        lambda: f'client = Groq(api_key=os.environ["GROQ_API_KEY"])  # line {n()}',
        lambda: (
            f'pc = Pinecone(api_key=os.getenv("PINECONE_API_KEY"))\nindex = pc.Index("docs-v{f.rng.randint(1, 99)}")'
        ),
        lambda: (
            f'password = getpass.getpass("NAS password: ")\nr = requests.get(url, auth=("ada", password), timeout={f.rng.randint(5, 120)})'
        ),
        lambda: f"token = secrets.token_hex(32)  # generated per run, never stored (run {n()})",
        lambda: f"digest = hashlib.sha256(password.encode()).hexdigest()  # compare with the stored one, line {n()}",
        lambda: (
            f'model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", token=True, revision="{f.hex(40)}")'
        ),
        lambda: (
            f"kp = Keypair.from_bytes(bytes(json.load(open(os.path.expanduser('~/.config/solana/id-{f.pick(LOWER, 3)}.json')))))"
        ),
        lambda: f'acct = w3.eth.account.from_key(os.environ["PRIVATE_KEY"])\nprint(acct.address)  # 0x{f.hex(40)}',
        lambda: (
            f'const redis = new Redis({{ host: "10.0.0.{f.rng.randint(2, 250)}", port: 6379, password: process.env.REDIS_PASSWORD }});'
        ),
        lambda: f'dsn := fmt.Sprintf("%s:%s@tcp(%s)/ml", user, os.Getenv("DB_PASSWORD"), host) // {n()}',
        lambda: (
            f"spring.datasource.password=${{DB_PASSWORD}}\nspring.datasource.url=jdbc:oracle:thin:@db.acme.local:1521/ORCL{n()}"
        ),
        lambda: (
            f"networks: {{\n    sepolia: {{\n      url: process.env.SEPOLIA_RPC,\n      accounts: [process.env.DEPLOYER_KEY],\n      chainId: 11155111,\n    }},\n}} // {n()}"
        ),
        lambda: f"ANCHOR_WALLET=/home/ada/.config/solana/id-{f.pick(LOWER, 4)}.json anchor test",
        lambda: f"Run actions/checkout@v4\n  with:\n    token: ***\n    fetch-depth: {f.rng.randint(0, 50)}",
        lambda: f"permissions:\n  id-token: write   # OIDC to AWS, no stored keys\n  contents: read\n# job {n()}",
        lambda: (
            f'gitlab-runner register --non-interactive --url https://gitlab.com --token "$RUNNER_TOKEN" --executor docker --description gpu-{n()}'
        ),
        lambda: f"tailscale up --auth-key=file:/etc/tailscale/authkey --hostname gpu-{n()}",
        lambda: (
            f"sentry-cli releases new ml-api@1.{f.rng.randint(0, 20)}.{f.rng.randint(0, 20)}  # SENTRY_AUTH_TOKEN comes from the CI secret store"
        ),
        lambda: f"netlify deploy --prod --dir dist  # NETLIFY_AUTH_TOKEN set in the CI variables, build {n()}",
    ]


def _provider_ids_and_masks(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: (
            f"chatcmpl-{f.pick(ALNUM, 29)} finished with finish_reason=length after {f.rng.randint(100, 4096)} tokens"
        ),
        lambda: f"OpenAI batch batch_{f.hex(32)} is stuck in validating; input file file-{f.pick(ALNUM, 22)}",
        lambda: f"Anthropic message id msg_01{f.pick(ALNUM, 22)}, request-id req_011C{f.pick(ALNUM, 20)}",
        lambda: (
            f"Groq returned 429, x-request-id: req_{f.pick(LOWER + DIGITS, 26)}, retry-after {f.rng.randint(1, 60)}"
        ),
        lambda: (
            f"Stripe customer cus_{f.pick(ALNUM, 14)}, subscription sub_{f.pick(ALNUM, 24)}, invoice in_{f.pick(ALNUM, 24)}"
        ),
        lambda: f"event evt_{f.pick(ALNUM, 24)} (payment_intent.succeeded) was delivered twice",
        lambda: f"container {f.hex(64)} exited with code 137 (OOMKilled)",
        lambda: (
            f"pod trainer-{f.pick(LOWER + DIGITS, 9)}-{f.pick(LOWER + DIGITS, 5)} in CrashLoopBackOff on node gpu-{f.rng.randint(1, 40)}"
        ),
        lambda: f"instance i-0{f.hex(16)} in sg-0{f.hex(16)}, subnet subnet-0{f.hex(16)}, ami-0{f.hex(16)}",
        lambda: f"Azure subscription {f.uuid()}, tenant {f.uuid()}, the quota request id {f.uuid()}",
        lambda: (
            f"Databricks job run {f.rng.randint(10**14, 10**15)} failed on cluster {f.rng.randint(1000, 9999)}-{f.rng.randint(100000, 999999)}-{f.pick(LOWER, 8)}"
        ),
        lambda: f"Sentry issue ML-API-{f.pick(UPPER + DIGITS, 3)}, event id {f.hex(32)}",
        lambda: (
            f"Pinecone index docs-v{f.rng.randint(1, 9)} host: docs-v2-{f.pick(LOWER + DIGITS, 7)}.svc.aped-4627-b74a.pinecone.io"
        ),
        lambda: f"LangSmith run https://smith.langchain.com/o/{f.uuid()}/projects/p/{f.uuid()}/r/{f.uuid()}",
        lambda: (
            f"Slack channel C0{f.pick(UPPER + DIGITS, 9)}, message ts {f.rng.randint(1700000000, 1800000000)}.{f.rng.randint(100000, 999999)}"
        ),
        lambda: f"Discord channel id {f.pick(DIGITS, 19)} — the bot posts there but the webhook was deleted",
        lambda: f"Telegram chat_id -100{f.pick(DIGITS, 10)} does not receive the alerts",
        lambda: (
            f"GitHub Actions run {f.rng.randint(10**10, 10**11)}, job {f.rng.randint(10**10, 10**11)}, artifact sha256:{f.hex(64)}"
        ),
        lambda: f"token: ghp_************************************ (GitHub masks it, run {f.rng.randint(1, 9999)})",
        lambda: f"PINECONE_API_KEY=pcsk_…{f.pick(ALNUM, 4)} (redacted in the screenshot)",
        lambda: (
            f"The OpenRouter dashboard shows my key as sk-or-v1-…{f.hex(3)}; usage {f.rng.randint(1, 99)}.{f.rng.randint(10, 99)} USD"
        ),
        lambda: (
            f"databricks tokens list\nID                                                                Comment   Expiry time\n{f.hex(64)}  ci        {f.rng.randint(1700000000000, 1800000000000)}"
        ),
        lambda: f"heroku authorizations\nci  {f.uuid()}  global",
        lambda: (
            f"DD_API_KEY is set (length 32), DD_SITE=datadoghq.eu, agent {f.rng.randint(7, 7)}.{f.rng.randint(40, 60)}.{f.rng.randint(0, 9)}"
        ),
        lambda: f"Shopify order #{f.rng.randint(1000, 99999)} id gid://shopify/Order/{f.pick(DIGITS, 13)}",
        lambda: f"Notion page https://www.notion.so/acme/GPU-runbook-{f.hex(32)}",
        lambda: f"Airtable base appX{f.pick(ALNUM, 13)}, table tbl{f.pick(ALNUM, 14)}, record rec{f.pick(ALNUM, 14)}",
        lambda: (
            f"Jira issue GPU-{f.rng.randint(100, 9999)}: https://acme.atlassian.net/browse/GPU-{f.rng.randint(100, 9999)}"
        ),
        lambda: (
            f"NuGet package Acme.Gpu {f.rng.randint(1, 3)}.{f.rng.randint(0, 9)}.{f.rng.randint(0, 9)} sha512 {f.pick(B64, 86)}=="
        ),
        lambda: (
            f"Jupyter log: http://127.0.0.1:8888/lab?token=... (token hidden, see `jupyter server list`) port {f.rng.randint(8000, 9999)}"
        ),
    ]


def _chain_and_digests(f: Fakes) -> list[Callable[[], str]]:
    return [
        lambda: f"Lightning invoice for the top-up: lnbc{f.rng.randint(1, 999)}0u1p{f.pick(BECH32, 200)}",
        lambda: f"paid from bc1q{f.pick(BECH32, 38)}, txid {f.hex(64)}",
        lambda: (
            f"USDT TRC-20 from T{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 33)}, tx {f.hex(64)}"
        ),
        lambda: f"Solana recent blockhash {f.solana_address()}, slot {f.rng.randint(2 * 10**8, 4 * 10**8)}",
        lambda: (
            f"Transfer event topic 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef, from 0x000000000000000000000000{f.hex(40)}"
        ),
        lambda: (
            f"Bitcoin block 0000000000000000000{f.hex(45)} confirmed my deposit ({f.rng.randint(1, 6)} confirmations)"
        ),
        lambda: f"xpub for the watch-only wallet: {f.b58check(bytes.fromhex('0488b21e') + f.raw(74))}",
        lambda: (
            f"monero-wallet-cli> address\n0: 4{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 94)}  Primary address"
        ),
        lambda: (
            f"monero-wallet-cli> viewkey is what the pool asks for? I sent them the address 4{f.pick('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 94)} only"
        ),
        lambda: f"ENS gpurent-{f.pick(LOWER, 5)}.eth resolves to 0x{f.hex(40)}",
        lambda: (
            f"keypair file is ~/.config/solana/id.json and the pubkey is {f.solana_address()}; the file itself stays on my machine"
        ),
        lambda: f"b3sum model.safetensors\n{f.hex(64)}  model.safetensors",
        lambda: f"/nix/store/{f.pick('0123456789abcdfghijklmnpqrsvwxyz', 32)}-python3-3.11.{f.rng.randint(1, 10)}",
        lambda: f'"integrity": "sha512-{f.pick(B64, 86)}=="',
        lambda: (
            f"cosign verify ghcr.io/acme/trainer@sha256:{f.hex(64)} --certificate-identity ci@acme.dev --certificate-oidc-issuer https://token.actions.githubusercontent.com"
        ),
        lambda: (
            f"-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA{f.pick(B64, 43)}=\n-----END PUBLIC KEY-----\n(the verification key, {f.rng.randint(1, 99)})"
        ),
        lambda: (
            "-----BEGIN CERTIFICATE-----\n"
            + "\n".join(f.pick(B64, 64) for _ in range(5))
            + "\n-----END CERTIFICATE-----\nthis is the CA cert the box serves, is it the right one?"
        ),
        lambda: f"minisign public key: RW{f.pick(B64, 54)}",
        lambda: f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{f.pick(B64, 200)} ada@workstation",
        lambda: f"x-amz-checksum-crc32c: {f.pick(B64, 6)}==, x-amz-version-id: {f.pick(URLSAFE, 32)}",
        lambda: f"HF xet hash {f.hex(64)} for shard 00{f.rng.randint(1, 9)}-of-00009",
        lambda: (
            f"git ls-tree HEAD models/\n100644 blob {f.hex(40)}\tmodels/config.json\n100644 blob {f.hex(40)}\tmodels/tokenizer.json"
        ),
    ]


def _prose_and_logs(f: Fakes) -> list[Callable[[], str]]:
    n = lambda: f.rng.randint(1000, 99999)  # noqa: E731 (an order number)
    return [
        lambda: f"The key is to set NCCL_P2P_DISABLE=1 on these boxes, then it trains fine (order {n()})",
        lambda: f"Key takeaway from the run: fp8 KV cache saves {f.rng.randint(10, 45)} % memory at the same tokens/s",
        lambda: f"My API key works with curl but the Python client says 401 — same machine, order {n()}",
        lambda: (
            f"I keep my passwords in a password manager, so I can't paste it, but I reset it yesterday (order {n()})"
        ),
        lambda: (
            f"The token limit of the model is {f.choice([8192, 32768, 131072])}, I send {f.rng.randint(1000, 9000)} tokens and still get truncated output"
        ),
        lambda: (
            f"Is it safe to put my Groq key in the instance's environment, or do you have a secrets store? Order {n()}"
        ),
        lambda: f"¿La clave API caduca? La creé hace {f.rng.randint(2, 90)} días y ahora da 403",
        lambda: f"Anh ơi, em để token ở biến môi trường HF_TOKEN rồi mà vẫn báo 401 (đơn {n()})",
        lambda: f"Parolamı değiştirdim ama eski oturum hâlâ açık, bu normal mi? Sipariş {n()}",
        lambda: f"Tengo la frase semilla guardada en papel, ¿necesitan algo más para el reembolso? Pedido {n()}",
        lambda: f"Ví của em là ví lạnh, em chỉ gửi địa chỉ thôi: 0x{f.hex(40)}",
        lambda: f"Özel anahtarı kimseyle paylaşmıyorum, sadece adres: {f.solana_address()}",
        lambda: (
            f"INFO {f.rng.randint(10, 23)}:{f.rng.randint(10, 59)}:{f.rng.randint(10, 59)} engine.py:{f.rng.randint(100, 900)}] Avg prompt throughput: {f.rng.randint(100, 9000)}.{f.rng.randint(0, 9)} tokens/s, Avg generation throughput: {f.rng.randint(100, 3000)}.{f.rng.randint(0, 9)} tokens/s"
        ),
        lambda: (
            f"{{'loss': {f.rng.randint(1, 3)}.{f.rng.randint(1000, 9999)}, 'grad_norm': {f.rng.randint(0, 9)}.{f.rng.randint(1000, 9999)}, 'learning_rate': 2e-05, 'epoch': 0.{f.rng.randint(10, 99)}}}"
        ),
        lambda: (
            f"wandb: Currently logged in as: ada-lab (acme). Use `wandb login --relogin` to force relogin\nwandb: Tracking run with wandb version 0.18.{f.rng.randint(0, 9)}"
        ),
        lambda: (
            f"huggingface_hub: Token is valid (permission: read).\nYour token has been saved to /root/.cache/huggingface/token\nLogin successful ({n()})"
        ),
        lambda: f"Error: 401 Unauthorized: invalid x-api-key (request_id {f.uuid()})",
        lambda: (
            f"groq.AuthenticationError: Error code: 401 - {{'error': {{'message': 'Invalid API Key', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}}} ({n()})"
        ),
        lambda: (
            f"pinecone.exceptions.UnauthorizedException: (401) Reason: Unauthorized. HTTP response body: Invalid API Key [{n()}]"
        ),
        lambda: (
            f"sqlalchemy.exc.OperationalError: (pymysql.err.OperationalError) (1045, \"Access denied for user 'trainer'@'10.0.0.{f.rng.randint(2, 250)}' (using password: YES)\")"
        ),
        lambda: f"redis.exceptions.AuthenticationError: invalid username-password pair or user is disabled. ({n()})",
        lambda: f"ORA-01017: invalid username/password; logon denied (pool ml-{n()})",
        lambda: f"NCCL WARN NET/IB : Got async event : port error (rank {f.rng.randint(0, 63)})",
        lambda: (
            f"Xid {f.choice([31, 43, 48, 63, 79, 94])}, pid={f.rng.randint(1000, 99999)}, name=python, Ch 0000000{f.rng.randint(1, 9)}"
        ),
        lambda: f"The seed is {f.rng.randint(1, 2**31)} for every run so the eval is reproducible",
        lambda: f"torch.manual_seed({f.rng.randint(1, 99999)}); numpy.random.seed({f.rng.randint(1, 99999)})",
        lambda: f"Please don't send me your private key or seed phrase — support never needs them. Ticket {n()}",
        lambda: f"Secret santa for the GPU team is on Friday, budget {f.rng.randint(10, 50)} EUR",
    ]

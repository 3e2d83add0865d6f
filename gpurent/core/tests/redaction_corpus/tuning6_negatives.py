# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the sixth tuning part (`build_tuning6.py`): look-alikes that must survive untouched.

Command lines whose credential is a prompt, a file, stdin or a variable; flags whose value is a port, a path, a
count or a seed; hashes, signatures, digests, addresses, ids and public keys beside the words "key", "token",
"secret" and "password"; placeholders and masked values; prose about passwords and tokens in four languages;
stack traces and tool output that name credentials without holding one.
"""

from __future__ import annotations

from collections.abc import Callable

from .fakes import ALNUM, B64, LOWER, UPPER, Fakes

BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


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


def negatives(f: Fakes) -> list[str]:
    out: list[str] = []
    for build in (
        *_prompts_files_and_variables(f),
        *_flags_with_ordinary_values(f),
        *_hashes_ids_and_public_keys(f),
        *_placeholders_and_masks(f),
        *_prose_and_traces(f),
    ):
        texts = {build() for _ in range(4)}  # a template with few variants may draw the same text twice
        out.extend(sorted(texts)[:2])
    return out

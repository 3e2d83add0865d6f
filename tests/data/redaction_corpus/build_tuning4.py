# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the FOURTH TUNING part of the redaction corpus (`tuning4/*.jsonl`): flags, logins, words, wallets, clouds.

Round 4 of the patterns (issue 15) was changed against this part and against held-out 3, which round 4 declared
consumed (its misses and false positives were looked at). It is written for the families the issue names —
secrets after a command-line flag or in a tool's login command, key material introduced by words rather than
an assignment, Solana keypairs, cloud and config-file pastes — with shapes the earlier parts do not have
(positional passwords, `echo … |` into a login, `config set NAME VALUE`, a key on the line after its name,
headerless DER keys, keypairs in hex), and clean texts that look like them. Held-out 4 was written by another
engineer and was not looked at while writing this.

Run: `.venv/bin/python -m tests.data.redaction_corpus.build_tuning4`; the output is committed.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, HEX, LOWER, UPPER, URLSAFE, Fakes
from .tuning4_negatives import negatives
from .writer import Sample, one, repeat

OUT = Path(__file__).resolve().parent / "tuning4"
DIGITS = "0123456789"


def _flags(f: Fakes, p: Callable[[], str]) -> list[Sample]:
    return [
        one("mysql -h 10.0.3.4 -P 3306 -u root -p{s} ml_results", p),
        one("mysql -u root -p'{s}' -e 'show databases'", p),
        one("mysqldump --user=backup --password='{s}' --single-transaction shop > shop.sql", p),
        one("clickhouse-client --host ch.internal --user default --password {s} --query 'SELECT 1'", p),
        one("influx -host 10.1.1.5 -username admin -password {s} -execute 'SHOW DATABASES'", p),
        one("psexec \\\\gpu-win-3 -u Administrator -p {s} cmd.exe", p),
        one("ipmitool -I lanplus -H 10.0.9.21 -U ADMIN -P {s} chassis power cycle", p),
        one("sqlcmd -S tcp:db.acme.local,1433 -U sa -P '{s}' -Q 'SELECT @@VERSION'", p),
        one("smbclient //nas01/datasets -U ada%{s} -c 'ls'", p),
        one("xfreerdp /v:10.0.0.40 /u:Administrator /p:{s} /cert:ignore", p),
        one("plink -ssh -pw {s} root@203.0.113.7 nvidia-smi", p),
        one("openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{s}", p),
        one(
            "keytool -importkeystore -srckeystore a.p12 -destkeystore b.jks -srcstorepass {s} -deststorepass changeit",
            p,
        ),
        one("7z x weights.7z -p{s} -o/data/weights", p),
        one("unzip -P {s} checkpoint-9000.zip -d ckpt/", p),
        one("htpasswd -b -c /etc/nginx/.htpasswd ada {s}", p),
        one("rabbitmqctl add_user trainer {s} && rabbitmqctl set_user_tags trainer administrator", p),
        one("net user gpuadmin {s} /add", p),
        one("forge script script/Deploy.s.sol --rpc-url $RPC --private-key 0x{s} --broadcast", lambda: f.eth_key()),
        one(
            "cast send 0xAbC0000000000000000000000000000000000001 'transfer(address,uint256)' --private-key {s}",
            lambda: f.eth_key(),
        ),
        one("curl --oauth2-bearer {s} https://api.vast.ai/api/v0/instances/", lambda: f.hex(64)),
        one("http -a admin:{s} POST https://registry.acme.dev/v2/token", p),
        one("aws ssm put-parameter --name /prod/trainer/db-password --value '{s}' --type SecureString", p),
        one("az keyvault secret set --vault-name ml-kv --name hf-token --value {s}", lambda: "hf_" + f.pick(ALNUM, 34)),
        one("az keyvault secret set --vault-name ml-kv --name wandb-key --value {s}", lambda: f.hex(40)),
        one("gh secret set RUNPOD_API_KEY --body {s}", lambda: f.pick(UPPER, 40)),
        one("jupyter lab --ip 0.0.0.0 --ServerApp.token={s} --no-browser", lambda: f.hex(48)),
        one("ray start --head --redis-password={s}", p),
        one(
            "tailscale up --authkey {s} --hostname gpu-node-3",
            lambda: f"tskey-auth-{f.pick(ALNUM, 12)}CNTRL-{f.pick(ALNUM, 33)}",
        ),
        one(
            "modal token set --token-id ak-{id} --token-secret {s}".replace("{id}", "Q1x9d2Lw0aZbnmEr7TgYhU"),
            lambda: "as-" + f.pick(ALNUM, 22),
        ),
        one(
            "python train.py --model meta-llama/Llama-3.1-8B --hub_token {s} --push_to_hub",
            lambda: "hf_" + f.pick(ALNUM, 34),
        ),
        one("accelerate launch finetune.py --wandb_api_key={s} --epochs 3", lambda: f.hex(40)),
        one(
            "docker run --gpus all -e HF_TOKEN={s} -p 8000:8000 vllm/vllm-openai:v0.6.4",
            lambda: "hf_" + f.pick(ALNUM, 34),
        ),
        one(
            "helm install pg bitnami/postgresql --set auth.postgresPassword={s} --set primary.persistence.size=50Gi", p
        ),
        one("terraform apply -var 'db_password={s}' -auto-approve", p),
        one(
            "kubectl create secret generic api --from-literal=OPENAI_API_KEY={s}",
            lambda: f"sk-proj-{f.pick(URLSAFE, 58)}T3BlbkFJ{f.pick(URLSAFE, 58)}",
        ),
        one("mongosh 'mongodb://10.0.0.8:27017' --username admin --password {s} --authenticationDatabase admin", p),
        one("redis-cli -h cache.internal -p 6379 --user default --pass {s} INFO", p),
        one(
            "cloudflared service install {s}",
            lambda: base64.b64encode(
                json.dumps({"a": f.hex(32), "t": f.uuid(), "s": f.pick(B64, 44)}).encode()
            ).decode(),
        ),
        one("runpodctl config --apiKey={s}", lambda: f.pick(UPPER, 40)),
        one("lftp -u deploy,{s} sftp://files.acme.dev", p),
    ]


def _logins(f: Fakes, p: Callable[[], str]) -> list[Sample]:
    return [
        one("echo '{s}' | docker login ghcr.io -u ada --password-stdin", lambda: "ghp_" + f.pick(ALNUM, 36)),
        one('echo "{s}" | docker login registry.acme.dev --username ci --password-stdin', p),
        one("echo -n {s} | gh auth login --with-token", lambda: "gho_" + f.pick(ALNUM, 36)),
        one("printf '%s' '{s}' | podman login quay.io -u robot --password-stdin", lambda: f.pick(UPPER, 64)),
        one("echo 'root:{s}' | chpasswd", p),
        one("echo '{s}' | sudo -S systemctl restart nvidia-persistenced", p),
        one(
            "oc login https://api.ocp.acme.dev:6443 -u kubeadmin -p {s}",
            lambda: "-".join(f.pick(ALNUM, 5) for _ in range(4)),
        ),
        one("cf login -a https://api.cf.acme.dev -u ada@acme.dev -p {s}", p),
        one("argocd login argocd.acme.dev --username admin --password {s} --insecure", p),
        one("helm registry login registry.acme.dev --username robot$ci --password {s}", lambda: f.pick(ALNUM, 32)),
        one("aws configure set aws_secret_access_key {s}", lambda: f.pick(B64, 40)),
        one("aws configure set aws_session_token {s} --profile gpu", lambda: "IQoJb3JpZ2luX2VjE" + f.pick(B64, 300)),
        one("yarn config set npmAuthToken {s}", lambda: "npm_" + f.pick(ALNUM, 36)),
        one("git config --global github.token {s}", lambda: f.hex(40)),
        one("poetry config http-basic.acme deploy {s}", p),
        one("dvc remote modify --local storage secret_access_key {s}", lambda: f.pick(B64, 40)),
        one("dvc remote modify --local myremote password {s}", p),
        one(
            "rclone config create r2 s3 provider=Cloudflare access_key_id {a} secret_access_key {s}".replace(
                "{a}", "7f3c1a9e2b4d6f80a1c3e5b7d9f0a2c4"
            ),
            lambda: f.hex(64),
        ),
        one(
            "firebase login:ci\n✔  Success! Use this token to login on a CI server:\n\n{s}",
            lambda: "1//0" + f.pick(URLSAFE, 99),
        ),
        one("wandb login --relogin --host https://wandb.acme.dev {s}", lambda: "local-" + f.hex(40)),
        one("huggingface-cli login --token {s} --add-to-git-credential", lambda: "hf_" + f.pick(ALNUM, 34)),
        one(
            "$ hf auth login\nEnter your token (input will not be visible): {s}\nToken is valid (permission: write).",
            lambda: "hf_" + f.pick(ALNUM, 34),
        ),
        one("$ vastai set api-key {s}\nYour api key has been saved in /root/.vast_api_key", lambda: f.hex(64)),
        one("$ cat ~/.vast_api_key\n{s}", lambda: f.hex(64)),
        one("$ cat /run/secrets/postgres_password\n{s}", p),
        one("root@gpu-7:~# cat ~/.cache/huggingface/token\n{s}", lambda: "hf_" + f.pick(ALNUM, 34)),
        one("ssh root@203.0.113.9\nroot@203.0.113.9's password: {s}\nPermission denied, please try again.", p),
        one("$ sudo apt update\n[sudo] password for ada: {s}\nSorry, try again.", p),
        one("PS C:\\> $pw = ConvertTo-SecureString '{s}' -AsPlainText -Force", p),
        one("requests.get(url, auth=('admin', '{s}'), timeout=10)", p),
        one("session.auth = HTTPBasicAuth('ml-bot', '{s}')", p),
        one("define('DB_PASSWORD', '{s}');", p),
        one("os.environ.setdefault('ANTHROPIC_API_KEY', '{s}')", lambda: "sk-ant-api03-" + f.pick(URLSAFE, 93) + "AA"),
        one('$db_password = "{s}";', p),
        one("redis.conf:\nbind 0.0.0.0\nrequirepass {s}\nmaxmemory 8gb", p),
    ]


def _words(f: Fakes, p: Callable[[], str]) -> list[Sample]:
    return [
        one("here's the API key – {s} – please check why it's rejected", lambda: f.pick(ALNUM, 40)),
        one("my OpenRouter key -> {s}", lambda: "sk-or-v1-" + f.hex(64)),
        one("private key (hex): {s}", lambda: f.eth_key()),
        one("My API key:\n{s}\nit worked yesterday", lambda: f.pick(ALNUM, 32)),
        one("Here is the token\n{s}", lambda: f.pick(URLSAFE, 43)),
        one("I'm sharing my wallet private key so you can check the deposit, it is 0x{s}", lambda: f.eth_key()),
        one("use this access token for the S3 bucket, in case you need it: {s}", lambda: f.pick(ALNUM, 40)),
        one("the root password we set on the box is {s} (please change it)", p),
        one("password for the jupyter on port 8888 is {s}", p),
        one("The Together key I pasted earlier was wrong, the right one is {s}", lambda: f.hex(64)),
        one("Secret key of the bucket, just so you have it: {s}", lambda: f.pick(B64, 40)),
        one("creds are admin / {s}", p),
        one("username: ubuntu\npassword: {s}\nport: 22", p),
        one("login ada password {s} on https://grafana.acme.dev", p),
        one(
            "Mi clave API de OpenAI es {s} y me da error 401",
            lambda: f"sk-proj-{f.pick(URLSAFE, 58)}T3BlbkFJ{f.pick(URLSAFE, 58)}",
        ),
        one("Aquí está mi token de acceso: {s}", lambda: f.pick(ALNUM, 40)),
        one("la contraseña del servidor es {s}, ¿podéis revisar?", p),
        one("Khóa API của mình là {s} nhé", lambda: f.pick(ALNUM, 40)),
        one("token của tôi: {s}", lambda: f.pick(ALNUM, 40)),
        one("API anahtarım {s} ama çalışmıyor", lambda: f.pick(ALNUM, 40)),
        one("Özel anahtarım şu: {s}", lambda: f.eth_key()),
        one("the form cut my token, the second half is {s}", lambda: f.pick(ALNUM, 30)),
        one("passphrase of the ssh key: {s}", p),
        one("Here's my seed phrase in case it helps: {s}", lambda: f.seed_phrase(12)),
        one("recovery phrase:\n{s}", lambda: f.seed_phrase(24)),
        one('mnemonic = "{s}"', lambda: f.seed_phrase(12)),
        one("my wallet words are {s}, please restore it", lambda: ", ".join(f.seed_phrase(12).split())),
        one(
            "SSH private key (base64 of the file): {s}",
            lambda: base64.b64encode(b"openssh-key-v1\x00" + f.raw(300)).decode(),
        ),
        one("the key without the header lines:\n{s}", lambda: "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + f.pick(B64, 200)),
        one("my EC key, I removed the BEGIN line: {s}", lambda: "MHcCAQEEI" + f.pick(B64, 150)),
    ]


def _solana(f: Fakes) -> list[Sample]:
    return [
        one("Phantom > Settings > Show Private Key: {s}", f.solana_keypair_b58),
        one("my solana wallet secret key is {s}", f.solana_keypair_b58),
        one("const payer = Keypair.fromSecretKey(bs58.decode('{s}'));", f.solana_keypair_b58),
        one("const payer = Keypair.fromSecretKey(Uint8Array.from({s}));", f.solana_keypair_json),
        one("$ cat ~/.config/solana/id.json\n{s}", f.solana_keypair_json),
        one("keypair.json:\n{s}", lambda: f.solana_keypair_json(spaced=True)),
        one(
            "my keypair (numbers on separate lines as the editor shows them):\n{s}",
            lambda: "[\n  " + ",\n  ".join(str(b) for b in f.solana_keypair()) + "\n]",
        ),
        one("solana keypair in hex: {s}", lambda: f.solana_keypair().hex()),
        one("SOLANA_PRIVATE_KEY={s}", f.solana_keypair_b58),
        one("secretKey: {s}", lambda: base64.b64encode(f.solana_keypair()).decode()),
        one("solana-keygen recover 'prompt:?key=0/0'\nseed phrase: {s}", lambda: f.seed_phrase(12)),
        one("wallet = Keypair.from_bytes(bytes({s}))", f.solana_keypair_json),
        one('bot config: {"rpc": "https://api.mainnet-beta.solana.com", "private_key": "{s}"}', f.solana_keypair_b58),
    ]


def _clouds(f: Fakes, p: Callable[[], str]) -> list[Sample]:
    def assumed_role() -> tuple[str, list[str]]:
        secret, token = f.pick(B64, 40), "IQoJb3JpZ2luX2VjE" + f.pick(B64, 600)
        body = {
            "Credentials": {
                "AccessKeyId": "ASIA" + f.pick(UPPER, 16),
                "SecretAccessKey": secret,
                "SessionToken": token,
                "Expiration": "2026-12-03T18:00:00+00:00",
            },
            "AssumedRoleUser": {"Arn": "arn:aws:sts::123456789012:assumed-role/gpu/ada"},
        }
        return json.dumps(body, indent=4), [secret, token]

    def dockerconfig() -> tuple[str, list[str]]:
        auth = base64.b64encode(f"robot:{p()}".encode()).decode()
        blob = base64.b64encode(json.dumps({"auths": {"registry.acme.dev": {"auth": auth}}}).encode()).decode()
        return (
            f"apiVersion: v1\nkind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {blob}",
            [blob],
        )

    def neptune() -> tuple[str, list[str]]:
        token = base64.b64encode(
            json.dumps(
                {"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai", "api_key": f.uuid()}
            ).encode()
        ).decode()
        return f'run = neptune.init_run(project="acme/llm", api_token="{token}")', [token]

    def sa_json() -> tuple[str, list[str]]:
        body = f.pick(B64, 64)
        return (
            json.dumps(
                {
                    "type": "service_account",
                    "project_id": "gpu-prod",
                    "private_key_id": f.hex(40),
                    "private_key": f"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n",
                    "client_email": "trainer@gpu-prod.iam.gserviceaccount.com",
                }
            ),
            [body],
        )

    return [
        assumed_role,
        dockerconfig,
        neptune,
        sa_json,
        one(
            "Endpoint=sb://ml-events.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}",
            lambda: f.pick(B64, 43) + "=",
        ),
        one(
            "[default]\nregion = us-east-1\naws_access_key_id = AKIA"
            + "QYLPMN5HFEXAMPL0"
            + "\naws_secret_access_key = {s}\naws_session_token = FwoGZXIvYXdzE"
            + "Jr" * 3
            + "\n",
            lambda: f.pick(B64, 40),
        ),
        one(
            "~/.oci/config\n[DEFAULT]\nuser=ocid1.user.oc1..aaaaaaaa5x\nfingerprint=12:34:56:78:9a:bc:de:f0:12:34:56:78:9a:bc:de:f0\nkey_file=~/.oci/oci_api_key.pem\npass_phrase={s}\ntenancy=ocid1.tenancy.oc1..aaaaaaaa7y",
            p,
        ),
        one(
            ".npmrc\nregistry=https://npm.acme.dev/\n//npm.acme.dev/:_auth={s}\nalways-auth=true",
            lambda: base64.b64encode(f"ci:{p()}".encode()).decode(),
        ),
        one(
            "[Peer]\nPublicKey = {pub}\nPresharedKey = {s}\nEndpoint = 203.0.113.5:51820".replace(
                "{pub}", "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg="
            ),
            lambda: f.pick(B64, 43) + "=",
        ),
        one(
            "client.ovpn:\n<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\n{s}\n-----END OpenVPN Static key V1-----\n</tls-auth>",
            lambda: "\n".join(f.hex(32) for _ in range(16)),
        ),
        one(
            "spring.datasource.url=jdbc:postgresql://db:5432/shop\nspring.datasource.username=shop\nspring.datasource.password={s}",
            p,
        ),
        one(
            'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="ml" password="{s}";',
            p,
        ),
        one(
            "MAPBOX_TOKEN in the notebook: {s}",
            lambda: "sk.eyJ1IjoiYWRhIiwiYSI6I" + f.pick(URLSAFE, 40) + "." + f.pick(URLSAFE, 22),
        ),
        one("JIRA token {s}", lambda: "ATATT3xFfGF0" + f.pick(URLSAFE, 180) + "=" + f.pick(HEX.upper(), 8)),
        one("bitbucket app password {s}", lambda: "ATBB" + f.pick(ALNUM, 32)),
        one(
            "GitLab runner: gitlab-runner register --url https://gitlab.acme.dev --token {s}",
            lambda: "glrt-" + f.pick(URLSAFE, 20),
        ),
        one("deploy token gldt-{s}", lambda: f.pick(URLSAFE, 20)),
        one("slack app token {s}", lambda: f"xapp-1-A{f.pick(UPPER, 10)}-{f.pick(DIGITS, 13)}-{f.hex(64)}"),
        one("XAI_API_KEY={s}", lambda: "xai-" + f.pick(ALNUM, 80)),
        one("client = Together(api_key='{s}')", lambda: "tgp_v1_" + f.pick(URLSAFE, 43)),
        one("tavily key {s}", lambda: "tvly-" + f.pick(ALNUM, 32)),
        one('pc = Pinecone(api_key="{s}")', lambda: "pcsk_" + f.pick(ALNUM, 6) + "_" + f.pick(ALNUM, 64)),
        one("Square: {s}", lambda: "EAAA" + f.pick(URLSAFE, 60)),
        one("FCM server key {s}", lambda: "AAAA" + f.pick(URLSAFE, 7) + ":APA91b" + f.pick(URLSAFE, 134)),
        one("kubeconfig user token: {s}", lambda: f"{f.pick(LOWER, 6)}.{f.pick(LOWER, 16)}"),
        one(
            "settings.py\nSECRET_KEY = '{s}'",
            lambda: "django-insecure-" + f.pick(LOWER + DIGITS + "!@#$%^&*(-_=+)", 50),
        ),
        one('"env": [{"name": "DATABASE_URL", "value": "postgres://app:{s}@10.0.0.4:5432/app"}]', p),
        one('docker inspect trainer | grep -A3 Env\n  "Env": [\n    "WANDB_API_KEY={s}",', lambda: f.hex(40)),
        one("bitcoin.conf\nrpcuser=ada\nrpcpassword={s}\nserver=1", p),
    ]


def _everyday(f: Fakes, p: Callable[[], str]) -> list[Sample]:
    """The families again as support requests write them most often: clients, logins, words, wallets (round 4's
    second batch, written after the first had been tuned on)."""
    pairs: list[tuple[str, Callable[[], str]]] = [
        ("psql 'postgresql://trainer:{s}@db.internal:5432/ml?sslmode=require'", p),
        ("PGPASSWORD={s} psql -h 10.0.0.5 -U postgres -d shop", p),
        ("PGPASSWORD='{s}' pg_dump -h db -U app app > dump.sql", p),
        ('psql "host=db.internal port=5432 dbname=ml user=ada password={s} sslmode=require"', p),
        ("mysql --host=10.0.0.4 --user=root --password={s} --database=shop", p),
        ("mysql -uroot -p{s} -h127.0.0.1", p),
        ('mongosh "mongodb+srv://ada:{s}@cluster0.ab1cd.mongodb.net/ml"', p),
        ("mongo --host 10.0.0.7 -u admin -p {s} --authenticationDatabase admin", p),
        ("redis-cli -h 10.0.0.3 -a '{s}' --no-auth-warning ping", p),
        ("redis-cli -u redis://default:{s}@redis-1234.c1.us-east-1.cloud.redislabs.com:12345", p),
        ("sshpass -p '{s}' ssh -o StrictHostKeyChecking=no root@203.0.113.4", p),
        ("sshpass -p{s} scp model.bin ada@gpu:/data", p),
        ("ssh root@203.0.113.8 -p 22022  # password: {s}", p),
        ("ssh ubuntu@gpu-12 (pass {s})", p),
        ("wandb login {s}", lambda: f.hex(40)),
        ("WANDB_API_KEY={s} python train.py", lambda: f.hex(40)),
        ("!wandb login --relogin {s}", lambda: f.hex(40)),
        ("import wandb; wandb.login(key='{s}')", lambda: f.hex(40)),
        ("huggingface-cli login --token {s}", lambda: "hf_" + f.pick(ALNUM, 34)),
        ('from huggingface_hub import login; login(token="{s}")', lambda: "hf_" + f.pick(ALNUM, 34)),
        ('login("{s}")', lambda: "hf_" + f.pick(ALNUM, 34)),
        ("git clone https://ada:{s}@huggingface.co/acme/private-model", lambda: "hf_" + f.pick(ALNUM, 34)),
        ("docker login -u ada -p {s} nvcr.io", lambda: f.pick(ALNUM, 84)),
        ("docker login nvcr.io --username '$oauthtoken' --password {s}", lambda: "nvapi-" + f.pick(URLSAFE, 64)),
        ("docker login --username=ada --password={s} registry.gitlab.com", p),
        (
            "aws configure\nAWS Access Key ID [None]: AKIA"
            + "IOSFODNN7EXAMPLX"
            + "\nAWS Secret Access Key [None]: {s}\nDefault region name [None]: us-east-1",
            lambda: f.pick(B64, 40),
        ),
        ("export AWS_SECRET_ACCESS_KEY={s}", lambda: f.pick(B64, 40)),
        ("AWS_ACCESS_KEY_ID=AKIAQ3EGRK7P5EXAMPL9 AWS_SECRET_ACCESS_KEY={s} aws s3 ls", lambda: f.pick(B64, 40)),
        (
            "az login --service-principal -u 1f3a8e02-1111-4e3d-9a9a-0c1d2e3f4a5b -p {s} --tenant acme.onmicrosoft.com",
            lambda: f.pick(ALNUM + "~._-", 40),
        ),
        (
            "az storage blob upload --account-name mlstore --account-key {s} -f model.bin -c models",
            lambda: f.pick(B64, 86) + "==",
        ),
        (
            "gcloud auth activate-service-account --key-file=sa.json && gcloud auth print-access-token\n{s}",
            lambda: "ya29." + f.pick(URLSAFE, 150),
        ),
        ("doctl auth init --access-token {s}", lambda: "dop_v1_" + f.hex(64)),
        ("hcloud context create prod\nToken: {s}", lambda: f.pick(ALNUM, 64)),
        ("linode-cli configure --token {s}", lambda: f.hex(64)),
        ("export VAST_API_KEY={s}", lambda: f.hex(64)),
        ("runpodctl config --apiKey {s}", lambda: f.pick(UPPER, 40)),
        ("lambda cloud api key: {s}", lambda: "secret_" + f.pick(LOWER, 8) + "_" + f.hex(32)),
        (
            'curl -H "Authorization: Bearer {s}" https://cloud.lambdalabs.com/api/v1/instances',
            lambda: f.pick(ALNUM, 40),
        ),
        (
            "curl -u {s}: https://cloud.lambdalabs.com/api/v1/instances",
            lambda: "secret_" + f.pick(LOWER, 8) + "_" + f.hex(32),
        ),
        ("curl -H 'X-API-Key: {s}' https://api.example.com/v1/jobs", lambda: f.pick(ALNUM, 32)),
        (
            'curl https://api.openai.com/v1/models -H "Authorization: Bearer {s}"',
            lambda: "sk-proj-" + f.pick(URLSAFE, 100),
        ),
        ("my private key is {s}", lambda: f.eth_key()),
        ("My private key: 0x{s}", lambda: f.eth_key()),
        ("here is my secret key {s}", lambda: f.pick(ALNUM, 40)),
        ("I think my token {s} leaked, can you revoke it?", lambda: f.pick(ALNUM, 40)),
        ("The password is: {s}", p),
        ("pass: {s}", p),
        ("my pw is {s}", p),
        ("password = {s}", p),
        ("Here's the seed: {s}", lambda: f.seed_phrase(12)),
        ("seed words: {s}", lambda: f.seed_phrase(24)),
        ("Solana private key: {s}", f.solana_keypair_b58),
        ("phantom export: {s}", f.solana_keypair_b58),
        ("id.json = {s}", f.solana_keypair_json),
        ("{s}", f.solana_keypair_json),
        ("solana keypair {s}", lambda: f.solana_keypair_json(spaced=True)),
        ("my solana wallet key [{s}]", lambda: ", ".join(str(b) for b in f.solana_keypair())),
        ("Keypair.fromSecretKey(new Uint8Array({s}))", f.solana_keypair_json),
        ("solana config set --keypair ~/.config/solana/id.json\ncat id.json\n{s}", f.solana_keypair_json),
        ("private key for my wallet 5KY…? no it's this one: {s}", f.wif),
        ("Bitcoin WIF: {s}", f.wif),
        ("xprv: {s}", f.xprv),
        ("ETH_PRIVATE_KEY={s}", lambda: "0x" + f.eth_key()),
        ('PRIVATE_KEY="{s}"', lambda: f.eth_key()),
        ("const wallet = new ethers.Wallet('{s}', provider)", lambda: "0x" + f.eth_key()),
        ("w3.eth.account.from_key('{s}')", lambda: "0x" + f.eth_key()),
        ("tron private key: {s}", lambda: f.eth_key()),
        ('mnemonic: "{s}"', lambda: f.seed_phrase(12)),
        (
            "kubectl create secret docker-registry regcred --docker-server=nvcr.io --docker-username='$oauthtoken' --docker-password={s}",
            lambda: "nvapi-" + f.pick(URLSAFE, 64),
        ),
        ("helm repo add private https://charts.acme.dev --username ada --password {s}", p),
        ("git remote set-url origin https://oauth2:{s}@gitlab.com/acme/ml.git", lambda: "glpat-" + f.pick(URLSAFE, 20)),
        ("pip install --index-url https://__token__:{s}@pypi.acme.dev/simple pkg", lambda: f.pick(ALNUM, 40)),
        ("ngrok config add-authtoken {s}", lambda: f.pick(ALNUM, 27) + "_" + f.pick(ALNUM, 21)),
        ('export OPENAI_API_KEY="{s}"', lambda: "sk-" + f.pick(ALNUM, 48)),
        ("ANTHROPIC_API_KEY: {s}", lambda: "sk-ant-api03-" + f.pick(URLSAFE, 93) + "AA"),
        ("Authorization: token {s}", lambda: "ghp_" + f.pick(ALNUM, 36)),
        ("jdbc:postgresql://db:5432/ml?user=ada&password={s}", p),
        ("Server=tcp:ml.database.windows.net,1433;Database=ml;User ID=ada;Password={s};Encrypt=true", p),
        ("mssql+pyodbc://sa:{s}@10.0.0.9/ml?driver=ODBC+Driver+18", p),
        ("clickhouse://default:{s}@ch.internal:8123/default", p),
        ("amqp://guest:{s}@rabbit.internal:5672/", p),
        ("ftp://deploy:{s}@files.acme.dev/models", p),
        ("the ssh password for root on my instance is {s}", p),
        ("jupyter token: {s}", lambda: f.hex(48)),
        ("http://203.0.113.7:8888/lab?token={s}", lambda: f.hex(48)),
        ("comet_ml.init(api_key='{s}')", lambda: f.pick(ALNUM, 25)),
        ("neptune api token {s}", lambda: f.pick(ALNUM, 40)),
        ("MLFLOW_TRACKING_TOKEN={s}", lambda: f.pick(ALNUM, 32)),
        (
            'clearml-init\nPaste copied configuration here:\napi { credentials { "access_key" = "{a}", "secret_key" = "{s}" } }'.replace(
                "{a}", "ABCD1234EFGH5678IJKL"
            ),
            lambda: f.pick(ALNUM, 50),
        ),
        ('kaggle.json {"username":"ada","key":"{s}"}', lambda: f.hex(32)),
        ("KAGGLE_KEY={s}", lambda: f.hex(32)),
        ("replicate token r8_{s}", lambda: f.pick(ALNUM, 37)),
        ("gh auth login --with-token <<< {s}", lambda: "ghp_" + f.pick(ALNUM, 36)),
        ("GITHUB_TOKEN={s}", lambda: "github_pat_" + f.pick(ALNUM + "_", 82)),
        ("telegram bot {s}", lambda: str(f.rng.randint(10**9, 10**10)) + ":AA" + f.pick(URLSAFE, 33)),
        (
            "slack webhook https://hooks.slack.com/services/T0{s}",
            lambda: f.pick(UPPER, 8) + "/B0" + f.pick(UPPER, 8) + "/" + f.pick(ALNUM, 24),
        ),
        ("contraseña de la base de datos: {s}", p),
        ("mi contraseña es {s}", p),
        ("la clave privada de mi billetera es {s}", lambda: f.eth_key()),
        ("mật khẩu là {s}", p),
        ("khóa bí mật: {s}", lambda: f.eth_key()),
        ("şifrem {s}", p),
        ("parolam: {s}", p),
        ("özel anahtarım {s}", lambda: f.eth_key()),
        ("token: {s}", lambda: f.pick(ALNUM, 40)),
        ("api_key={s}", lambda: f.pick(ALNUM, 32)),
        ("Use this key to test: {s}", lambda: f.pick(ALNUM, 32)),
        ("key is {s}", lambda: f.pick(ALNUM, 32)),
        ("it's {s} (the api key)", lambda: f.pick(ALNUM, 32)),
        ("API KEY {s}", lambda: f.pick(ALNUM, 32)),
        ("apikey {s}", lambda: f.pick(ALNUM, 32)),
        ("secret {s}", lambda: f.pick(ALNUM, 32)),
        ("PASSWORD {s}", p),
    ]
    return [one(template, make) for template, make in pairs]


def _notebooks_ci_and_wallets(f: Fakes, p: Callable[[], str]) -> list[Sample]:
    """Round 4's third batch: notebooks' JSON, CI logs, name/value pairs, XML, framework secrets, Ethereum keys
    in deploy configs, keypairs and seed phrases laid out otherwise."""

    def k() -> str:
        return f.pick(ALNUM, 32)

    pairs: list[tuple[str, Callable[[], str]]] = [
        (
            '{"cells": [{"source": ["import os\\n", "os.environ[\\"WANDB_API_KEY\\"] = \\"{s}\\"\\n"]}]}',
            lambda: f.hex(40),
        ),
        ('{"source": ["openai.api_key = \\"{s}\\"\\n"]}', k),
        ('"source": ["DB_PASS = \'{s}\'\\n"]', p),
        ('env:\n  - name: OPENAI_API_KEY\n    value: "{s}"\n  - name: LOG_LEVEL\n    value: info', k),
        ("env:\n- name: DB_PASSWORD\n  value: {s}", p),
        ('"environment": [{"name": "STRIPE_SECRET", "value": "{s}"}]', k),
        (
            "<settings><servers><server><id>nexus</id><username>ci</username><password>{s}</password></server></servers></settings>",
            p,
        ),
        ('<add key="ApiKey" value="{s}" />', k),
        ('<add name="Db" connectionString="Server=db;Database=ml;User Id=sa;Password={s};" />', p),
        ("<apiToken>{s}</apiToken>", k),
        ('Run echo "token=${{ secrets.HF }}"\ntoken=***\n  HF_TOKEN: {s}', lambda: "hf_" + f.pick(ALNUM, 34)),
        ("+ curl -s -u jenkins:{s} https://jenkins.acme.dev/crumbIssuer/api/json", lambda: f.hex(34)),
        (
            "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://api.acme.dev/v1/jobs?api_key={s}",
            k,
        ),
        ('GET /v1/jobs?access_token={s} HTTP/1.1" 401', k),
        ("ansible_ssh_pass: {s}", p),
        ("ansible_become_password={s}", p),
        ('"client_secret": "{s}"', lambda: "GOCSPX-" + f.pick(URLSAFE, 28)),
        ("GOOGLE_CLIENT_SECRET {s}", lambda: "GOCSPX-" + f.pick(URLSAFE, 28)),
        ("[database]\nhost = 10.0.0.5\nuser = ml\npassword = {s}", p),
        ("db:\n  user: ml\n  pass: {s}", p),
        ("DATABASE_URL=postgres://ml:{s}@10.0.0.5/ml", p),
        ("spring:\n  datasource:\n    password: '{s}'", p),
        ("smtp:\n  username: apikey\n  password: {s}", lambda: "SG." + f.pick(URLSAFE, 22) + "." + f.pick(URLSAFE, 43)),
        ("EMAIL_HOST_PASSWORD={s}", p),
        ("secret_key_base: {s}", lambda: f.hex(128)),
        ("JWT_SECRET={s}", k),
        ("ENCRYPTION_KEY={s}", lambda: base64.b64encode(f.raw(32)).decode()),
        ("FERNET_KEY={s}", lambda: base64.urlsafe_b64encode(f.raw(32)).decode()),
        ("NEXTAUTH_SECRET={s}", lambda: base64.b64encode(f.raw(32)).decode()),
        ("webhook secret: {s}", lambda: "whsec_" + f.pick(ALNUM, 32)),
        ("x-hub-signature secret {s}", k),
        ('Here is my config.json:\n{"api_key": "{s}", "model": "gpt-4o"}', k),
        ('credentials.toml\n[default]\ntoken = "{s}"', k),
        ("~/.config/hub: oauth_token: {s}", lambda: "gho_" + f.pick(ALNUM, 36)),
        ("CR_PAT={s}", lambda: "ghp_" + f.pick(ALNUM, 36)),
        ("my solana private key [{s}]", lambda: ",".join(str(b) for b in f.solana_keypair())),
        ("secretKey: Uint8Array(64) [{s}]", lambda: ", ".join(str(b) for b in f.solana_keypair())),
        ('const secret = bs58.decode("{s}")', f.solana_keypair_b58),
        ("PAYER_KEYPAIR='{s}'", f.solana_keypair_json),
        ("BIP39 passphrase: {s}", p),
        ("wallet password {s}", p),
        ("metamask password is {s}", p),
        ("exported key: {s}", lambda: f.eth_key()),
        ("privkey={s}", lambda: f.eth_key()),
        ("PK: 0x{s}", lambda: f.eth_key()),
        ("deployer key 0x{s}", lambda: f.eth_key()),
        ("hardhat.config.js accounts: ['0x{s}']", lambda: f.eth_key()),
        ('accounts: ["{s}"]', lambda: "0x" + f.eth_key()),
        ('truffle HDWalletProvider("{s}", rpc)', lambda: f.seed_phrase(12)),
        ("new HDWalletProvider({ privateKeys: ['{s}'], providerOrUrl: rpc })", lambda: f.eth_key()),
        ("eth account private key\n{s}", lambda: f.eth_key()),
        ("1. {s}", lambda: "\n2. ".join(f.seed_phrase(12).split())),
        ("seed:\n{s}", lambda: "\n".join(f.seed_phrase(12).split())),
        ("words: {s}", lambda: " - ".join(f.seed_phrase(12).split())),
    ]
    return [one(template, make) for template, make in pairs]


def _sentences_and_tables(f: Fakes, p: Callable[[], str]) -> list[Sample]:
    """Round 4's fourth batch: a secret between commas in a sentence, after a question, in a table, after a usual
    admin user, and cloud providers' keys named in passing."""

    def k() -> str:
        return f.pick(ALNUM, 32)

    pairs: list[tuple[str, Callable[[], str]]] = [
        ("Hi, I rented an H100 and can't log in. The root password you emailed me, {s}, is rejected.", p),
        ("Could you check my key? {s}", k),
        ("I'm pasting my HF token here so you can pull the model: {s}", lambda: f.pick(ALNUM, 37)),
        ("sorry, I accidentally pasted my API key above ({s}), please delete it", k),
        ("the token I generated yesterday, {s}, returns 403", k),
        ("This is my private key for the wallet that paid: {s}", lambda: f.eth_key()),
        ("Private key = {s}", lambda: f.eth_key()),
        ("here you go — secret: {s}", k),
        ("secret key\t{s}", lambda: f.pick(B64, 40)),
        ("API Key | {s}", k),
        ("| name | value |\n| --- | --- |\n| api_key | {s} |", k),
        ("token={s}&user=ada", k),
        ("I set the password to {s} via passwd", p),
        ("changed my password to: {s}", p),
        ("new password: {s}", p),
        ("old password was {s}, new one is Summer2025!", p),
        ("pwd {s}", p),
        ("Pass: {s}", p),
        ("root / {s}", p),
        ("user=admin password={s}", p),
        ("admin:{s}@10.0.0.5", p),
        ("login admin:{s}", p),
        ("username: ada | password: {s}", p),
        ("Username ada\nPassword {s}", p),
        ("ssh root@10.0.0.5 with password {s}", p),
        ("the vnc password is {s}", p),
        ("jupyter password {s}", p),
        ("my solana key {s}", f.solana_keypair_b58),
        ("{s}\n^ that's my phantom private key", f.solana_keypair_b58),
        ("[{s}] <- keypair bytes", lambda: ",".join(str(b) for b in f.solana_keypair())),
        ("seed phrase: {s}", lambda: f.seed_phrase(24)),
        ("my 12 words are: {s}", lambda: f.seed_phrase(12)),
        ("{s}", lambda: f.seed_phrase(12)),
        ("mnemonic {s} passphrase none", lambda: f.seed_phrase(12)),
        ("Wallet import: {s}", f.wif),
        ("the access key id is AKIAQ3EGRK7P5EXAMPL7 and the secret is {s}", lambda: f.pick(B64, 40)),
        ("aws_secret_access_key={s}", lambda: f.pick(B64, 40)),
        ("Secret: {s}", lambda: f.pick(B64, 40)),
        ("client secret {s}", lambda: f.pick(ALNUM + "~._-", 40)),
        ("Azure client secret: {s}", lambda: f.pick(ALNUM, 3) + "8Q~" + f.pick(ALNUM + "_~.-", 34)),
        ("storage account key {s}", lambda: f.pick(B64, 86) + "=="),
        ("SAS token ?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-12-31T00:00:00Z&sig={s}", lambda: f.pick(B64, 43) + "%3D"),
        (
            "DefaultEndpointsProtocol=https;AccountName=ml;AccountKey={s};EndpointSuffix=core.windows.net",
            lambda: f.pick(B64, 86) + "==",
        ),
        ("GCP API key {s}", lambda: "AIza" + f.pick(URLSAFE, 35)),
        ("cloudflare token {s}", lambda: f.pick(URLSAFE, 40)),
        ("digitalocean token {s}", lambda: "dop_v1_" + f.hex(64)),
        ("vast api key {s}", lambda: f.hex(64)),
        ("runpod api key {s}", lambda: f.pick(UPPER, 40)),
        ("paperspace api key: {s}", lambda: f.hex(30)),
        ("lambda labs key {s}", lambda: "secret_" + f.pick(LOWER, 8) + "_" + f.hex(32)),
        ("coreweave token {s}", lambda: f.pick(ALNUM, 40)),
    ]
    return [one(template, make) for template, make in pairs]


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    p = f.password
    out: list[tuple[str, list[str]]] = []
    for build in (
        *_flags(f, p),
        *_logins(f, p),
        *_words(f, p),
        *_solana(f),
        *_clouds(f, p),
        *_everyday(f, p),
        *_notebooks_ci_and_wallets(f, p),
        *_sentences_and_tables(f, p),
    ):
        repeat(2, out, build)
    return out


def main() -> None:
    fakes = Fakes(seed=1204122026)
    # written before texts had to be unique (it repeats some); its committed files must stay as they are
    check_and_write(OUT, "t4", positives(fakes), negatives(fakes), distinct=False)


if __name__ == "__main__":
    main()

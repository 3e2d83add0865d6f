# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the pattern author's round-6 part (`build_tuning6b.py`): the same pastes without a secret.

Object-store commands and configs whose credentials are prompts, variables or masked; client-library code that
reads its password from the environment; sentences about changing a password with no password in them; type
annotations and schemas; login commands without a token; ids, hashes and names next to the words the round-6
rules look for.
"""

from __future__ import annotations

from .fakes import HEX, Fakes


def negatives(f: Fakes) -> list[str]:
    sha = f.hex(64)
    commit = f.hex(40)
    etag = f.hex(32)
    uuid = f.uuid()
    return [
        # object stores
        "rclone config create r2 s3 provider Cloudflare env_auth true endpoint https://acc.r2.cloudflarestorage.com",
        "[r2]\ntype = s3\nprovider = Cloudflare\nenv_auth = true\nacl = private",
        "mc alias set gpubox https://s3.gpubox.example --api S3v4\nEnter Access Key: \nEnter Secret Key: ",
        "mc alias set local http://127.0.0.1:9000 $MINIO_ROOT_USER $MINIO_ROOT_PASSWORD",
        "mc alias list\ngpubox\n  URL       : https://s3.gpubox.example\n  AccessKey : ada\n  SecretKey : ********\n  API       : s3v4",
        f"mc stat gpubox/checkpoints/step-4000.safetensors\nETag     : {etag}\nSize     : 4.9 GiB",
        "b2 account authorize\nBackblaze application key ID: \nBackblaze application key: ",
        "b2 ls b2://lab-checkpoints/run-17/",
        "aws configure list\n      Name                    Value             Type    Location\n   access_key     ****************QX7P shared-credentials-file\n   secret_key     ****************9f2a shared-credentials-file",
        "aws s3 ls s3://models --endpoint-url https://acc.r2.cloudflarestorage.com --profile r2",
        f"An error occurred (SignatureDoesNotMatch) when calling the ListObjectsV2 operation. RequestId: {uuid}",
        "s3 = boto3.client('s3', endpoint_url=os.environ['S3_ENDPOINT'], aws_access_key_id=os.environ['S3_KEY_ID'], aws_secret_access_key=os.environ['S3_SECRET'])",
        "AWS_ACCESS_KEY_ID=${R2_ACCESS_KEY_ID}\nAWS_SECRET_ACCESS_KEY=${R2_SECRET_ACCESS_KEY}",
        "s3fs models /mnt/models -o passwd_file=${HOME}/.passwd-s3fs -o url=https://minio.lab:9000",
        "chmod 600 ~/.passwd-s3fs  # s3fs refuses a passwd file others can read",
        "rclone.conf\n[b2]\ntype = b2\naccount = \nkey = \nhard_delete = true",
        f"dvc remote modify r2 endpointurl https://acc.r2.cloudflarestorage.com\ndvc push  # md5 {etag}",
        "restic -r s3:https://s3.eu-central-003.backblazeb2.com/bk snapshots --password-file ~/.restic-pass",
        "kubectl create secret generic r2 --from-env-file=r2.env -n training",
        "kubectl create secret generic cfg --from-literal=region=eu-central-1 --from-literal=bucket=lab-checkpoints",
        "kubectl create secret generic hf --from-file=token=./hf_token.txt",
        "az keyvault secret show --vault-name lab-kv --name hf --query value -o tsv",
        "aws secretsmanager get-secret-value --secret-id prod/wandb --query SecretString",
        "gcloud secrets versions access latest --secret=hf-token",
        "gcloud secrets create hf-token --replication-policy=automatic",
        # client libraries, credentials from elsewhere
        "server.login(os.environ['SMTP_USER'], os.environ['SMTP_PASSWORD'])",
        "imap.login(cfg.user, cfg.password)",
        "ftp.login()  # anonymous",
        "conn = DriverManager.getConnection(url, user, password);",
        "$pdo = new PDO($dsn, $user, $pass);",
        'auth := smtp.PlainAuth("", from, os.Getenv("SMTP_PASSWORD"), host)',
        "smtplib.SMTPAuthenticationError: (535, b'5.7.8 Username and Password not accepted. For more information, go to https://support.google.com/mail/?p=BadCredentials')",
        "Gmail needs an app password (16 letters, shown in four groups of four) when 2-step verification is on.",
        "ssh.connect(host, username='root', key_filename='/root/.ssh/gpurent')",
        "r = redis.Redis(host='cache', port=6379, password=os.getenv('REDIS_PASSWORD'))",
        "client = MongoClient(os.environ['MONGO_URI'])",
        # sentences without a password
        "I set the root password of instance #2211 through the dashboard, but ssh still says permission denied.",
        "Changed the ubuntu user's password on box #17 via the web console, now it doesn't work.",
        "I updated my password yesterday and the dashboard logs me out every 5 minutes.",
        "Can you reset the Jupyter password of order #88120 to the default?",
        "We switched the VNC password to something longer after the audit.",
        "I set the password to expire in 90 days, as our policy says.",
        "The password was changed to comply with the new policy on 2026-11-30.",
        "He gave me the password over the phone, so I don't have it in writing.",
        "Cambié la contraseña del usuario ubuntu ayer y ahora no puedo entrar.",
        "Restablecí la contraseña de Jupyter a la predeterminada pero sigue pidiendo token.",
        "Tôi đã đổi mật khẩu của máy #2211 nhưng vẫn không đăng nhập được.",
        "Sunucunun root şifresini değiştirdim, şimdi bağlanamıyorum.",
        "Parolayı panelden yeniden ayarladım ama SSH reddediyor.",
        "I use my password manager as the password store for all of this.",
        "We use the ed25519 key as the deploy key now.",
        "set the token limit to 4096 and the key to 'input_ids'",
        # type annotations and schemas
        "class Settings(BaseSettings):\n    openai_api_key: SecretStr\n    db_password: SecretStr\n    hf_token: Optional[SecretStr] = None",
        "class Login(BaseModel):\n    username: str\n    password: SecretStr = Field(min_length=12)",
        "interface Credentials {\n  accessKeyId: string;\n  secretAccessKey: string;\n  sessionToken?: string;\n}",
        "pub struct Config {\n    pub api_key: String,\n    pub password: Option<String>,\n}",
        'type Auth struct {\n\tToken    string `json:"token"`\n\tPassword string `json:"password"`\n}',
        "def connect(host: str, password: Optional[str] = None, token: str | None = None) -> Client: ...",
        "  password:\n    type: string\n    format: password\n    minLength: 12",
        "api_key: Annotated[str, Header(alias='X-API-Key')]",
        # logins without a token, and ids near login words
        "docker login nvcr.io\nUsername: $oauthtoken\nPassword: \nLogin Succeeded",
        "huggingface-cli login\nToken is valid (permission: read).\nLogin successful",
        "wandb login --relogin\nwandb: Paste an API key from your profile and hit enter:",
        "replicate auth login\nPaste your token from https://replicate.com/account/api-tokens",
        f"gh run view 7781 --log | grep login  # commit {commit}",
        "az login --use-device-code",
        "gcloud auth login --no-launch-browser",
        f"please login and check order {uuid}",
        "I can't login anymore since yesterday, the page keeps spinning",
        f"the login attempt came from 203.0.113.5 at 14:02, request id {f.pick(HEX, 24)}",
        "ssh-keygen -t ed25519 -N '' -f ~/.ssh/gpurent -C 'ada@lab'",
        "ssh-keygen -lf ~/.ssh/gpurent.pub\n256 SHA256:"
        + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 43)
        + " ada@lab (ED25519)",
        "openssl enc -aes-256-cbc -pbkdf2 -pass env:WEIGHTS_PASS -in weights.safetensors -out weights.enc",
        "openssl rand -hex 32",
        f"sha256sum weights.enc\n{sha}  weights.enc",
        "redis-server --port 6380 --protected-mode yes",
        "sshpass -e ssh -p 40022 root@203.0.113.9  # SSHPASS comes from the CI secret",
        "jupyter server list\nhttp://localhost:8888/ :: /workspace",
        "fly secrets list\nNAME       DIGEST            CREATED AT\nHF_TOKEN   " + f.hex(16) + "  1h ago",
        "heroku config:get WANDB_API_KEY -a trainer",
        f"kaggle kernels output ada/train -p ./out  # version {commit[:7]}",
    ]

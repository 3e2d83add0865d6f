# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the pattern author's part of round 6 (`tuning6b/*.jsonl`): the families held-out 5 exposed, and their kin.

Round 6 (issue 15, decision 0240) declared held-out 5 consumed and fixed its misses by families, not by its strings:
S3-compatible object stores (rclone, s3cmd, `mc`, `b2`, s3fs, `aws configure` against R2/MinIO/Wasabi, boto3),
passwords handed to client libraries by position (smtplib, imaplib, ftplib, JDBC, PDO, Go, .NET), a password set
"to" a value in four languages, and type annotations that are not values (pydantic, TypeScript, Rust). This part
holds texts written by the pattern author for those families and their siblings (other tools, flags, files and
wordings of the same kind), with clean look-alikes from the same pastes. It is a tuning part: the patterns were
changed against it. Held-out 6's texts were not looked at while writing it.

Run: `.venv/bin/python -m tests.data.redaction_corpus.build_tuning6b`; the output is committed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, LOWER, UPPER, Fakes
from .tuning6b_negatives import negatives

OUT = Path(__file__).resolve().parent / "tuning6b"

Sample = Callable[[], tuple[str, list[str]]]


def with_values(template: str, **makers: Callable[[], str]) -> Sample:
    """A sample whose secrets are fresh values from `makers`, each put where `{name}` stands in `template`."""

    def build() -> tuple[str, list[str]]:
        text, secrets = template, []
        for name, make in makers.items():
            value = make()
            text = text.replace("{" + name + "}", value)
            secrets.append(value)
        return text, secrets

    return build


def _object_stores(f: Fakes) -> list[Sample]:
    def r2_id() -> str:
        return f.hex(32)

    def r2_secret() -> str:
        return f.hex(64)

    def minio_id() -> str:
        return f.pick(ALNUM, 20)

    def minio_secret() -> str:
        return f.pick(ALNUM, 40)

    def wasabi_id() -> str:
        return f.pick(UPPER, 20)

    def b64_secret() -> str:
        return f.pick(B64, 40)

    return [
        with_values(
            "~/.aws/credentials for R2:\n[r2]\naws_access_key_id = {a}\naws_secret_access_key = {s}",
            a=r2_id,
            s=r2_secret,
        ),
        with_values(
            "aws configure --profile wasabi\nAWS Access Key ID [None]: {a}\nAWS Secret Access Key [None]: {s}\nDefault region name [None]: us-east-1",
            a=wasabi_id,
            s=b64_secret,
        ),
        with_values(
            "s3 = boto3.client('s3', endpoint_url='https://minio.lab:9000', aws_access_key_id='{a}', aws_secret_access_key='{s}')",
            a=minio_id,
            s=minio_secret,
        ),
        with_values(
            "export AWS_ACCESS_KEY_ID={a}\nexport AWS_SECRET_ACCESS_KEY={s}\naws s3 ls --endpoint-url https://s3.wasabisys.com",
            a=wasabi_id,
            s=b64_secret,
        ),
        with_values(
            "~/.s3cfg\n[default]\naccess_key = {a}\nsecret_key = {s}\nhost_base = nyc3.digitaloceanspaces.com",
            a=lambda: "DO00" + f.pick(UPPER, 16),
            s=b64_secret,
        ),
        with_values(
            "rclone config create minio s3 provider Minio access_key_id {a} secret_access_key {s} endpoint http://10.0.0.8:9000",
            a=minio_id,
            s=minio_secret,
        ),
        with_values(
            "rclone lsd :s3,provider=Cloudflare,access_key_id={a},secret_access_key={s},endpoint=https://acc.r2.cloudflarestorage.com:",
            a=r2_id,
            s=r2_secret,
        ),
        with_values(
            "mc alias set gpubox https://s3.gpubox.example {a} {s} --api S3v4\nmc ls gpubox/checkpoints",
            a=minio_id,
            s=minio_secret,
        ),
        with_values(
            "mc admin user svcacct add myminio ada --access-key {a} --secret-key {s}", a=minio_id, s=minio_secret
        ),
        with_values(
            "b2 account authorize {a} {s}\nERROR: unauthorized",
            a=lambda: "005" + f.hex(22),
            s=lambda: "K005" + f.pick(ALNUM, 27),
        ),
        with_values(
            "echo {s} > ~/.passwd-s3fs && chmod 600 ~/.passwd-s3fs\ns3fs models /mnt/models -o url=https://minio.lab:9000",
            s=lambda: minio_id() + ":" + minio_secret(),
        ),
        # the key id ("account") is left, as "account" names too many other things; the application key goes
        lambda: with_values(
            "rclone.conf\n[b2]\ntype = b2\naccount = " + "005" + f.hex(22) + "\nkey = {s}",
            s=lambda: "K005" + f.pick(ALNUM, 27),
        )(),
        with_values(
            "restic -r s3:https://s3.eu-central-003.backblazeb2.com/bk init\nenv: AWS_ACCESS_KEY_ID={a} AWS_SECRET_ACCESS_KEY={s}",
            a=lambda: "003" + f.hex(22),
            s=lambda: "K003" + f.pick(ALNUM, 27),
        ),
        with_values(
            'minio:\n  image: minio/minio\n  environment:\n    MINIO_ROOT_USER: admin\n    MINIO_ROOT_PASSWORD: "{s}"',
            s=f.password,
        ),
        with_values(
            '"storage": {"accessKeyId": "{a}", "secretAccessKey": "{s}", "endpoint": "https://fra1.digitaloceanspaces.com"}',
            a=wasabi_id,
            s=b64_secret,
        ),
        with_values(
            "dvc remote modify --local r2 access_key_id {a}\ndvc remote modify --local r2 secret_access_key {s}",
            a=r2_id,
            s=r2_secret,
        ),
    ]


def _client_libraries(f: Fakes) -> list[Sample]:
    def app_password() -> str:
        return " ".join(f.pick("abcdefghijklmnopqrstuvwxyz", 4) for _ in range(4))

    p = f.password
    return [
        with_values(
            'imap = imaplib.IMAP4_SSL("imap.gmail.com")\nimap.login("ops@lab.example", "{s}")\nimaplib.error: b"[AUTHENTICATIONFAILED]"',
            s=app_password,
        ),
        with_values("ftp = ftplib.FTP_TLS('files.lab.example')\nftp.login('uploader', '{s}')", s=p),
        with_values("with FTP('10.0.0.4', 'backup', '{s}') as ftp:\n    ftp.retrlines('LIST')", s=p),
        with_values(
            'props.put("mail.smtp.auth", "true");\nreturn new PasswordAuthentication("alerts@lab.example", "{s}");',
            s=app_password,
        ),
        with_values(
            'Connection c = DriverManager.getConnection("jdbc:postgresql://db:5432/runs", "runs", "{s}");', s=p
        ),
        with_values("$pdo = new PDO('mysql:host=db;dbname=shop', 'shop', '{s}');", s=p),
        with_values('$link = mysqli_connect("127.0.0.1", "wp", "{s}", "wordpress");', s=p),
        with_values('auth := smtp.PlainAuth("", "bot@lab.example", "{s}", "smtp.gmail.com")', s=app_password),
        with_values('client.Credentials = new NetworkCredential("svc-train", "{s}");', s=p),
        with_values(
            'pop = poplib.POP3_SSL("pop.gmail.com")\npop.user("me@gmail.com")\npop.pass_("{s}")', s=app_password
        ),
        with_values("yag = yagmail.SMTP('lab.alerts@gmail.com', '{s}')", s=app_password),
        with_values(
            "transporter = nodemailer.createTransport({ service: 'gmail', auth: { user: 'me@gmail.com', pass: '{s}' } });",
            s=app_password,
        ),
        with_values("EMAIL_HOST_USER = 'alerts@lab.example'\nEMAIL_HOST_PASSWORD = '{s}'", s=app_password),
        with_values("ssh.connect('203.0.113.7', username='root', password='{s}')", s=p),
        with_values("conn = ldap3.Connection(server, 'cn=admin,dc=lab,dc=example', '{s}', auto_bind=True)", s=p),
        with_values("client = pymongo.MongoClient('db', 27017, username='ml', password='{s}')", s=p),
        with_values("r = redis.Redis(host='cache', port=6379, password='{s}')", s=p),
        with_values("engine = create_engine(URL.create('postgresql', username='ml', password='{s}', host='db'))", s=p),
    ]


def _passwords_in_sentences(f: Fakes) -> list[Sample]:
    p = f.password
    return [
        with_values(
            "I set the root password of instance #{n} to {s} but ssh still says permission denied.".replace(
                "{n}", "2211"
            ),
            s=p,
        ),
        with_values(
            "Changed the ubuntu user's password on box #17 to {s} via the web console, now it doesn't work.", s=p
        ),
        with_values("I updated my password to {s} yesterday and the dashboard logs me out.", s=p),
        with_values("Can you reset the Jupyter password of order #88120 to {s}?", s=p),
        with_values("We switched the VNC password to {s} after the audit.", s=p),
        with_values("the password I'm typing is {s}, capital letters as written", s=p),
        with_values("I log in as root with {s} as the password and get 'Permission denied'.", s=p),
        with_values("He gave me {s} as the new password for the shared box.", s=p),
        with_values("Cambié la contraseña del usuario ubuntu a {s} y ahora no puedo entrar.", s=p),
        with_values("Restablecí la contraseña de Jupyter a {s} pero sigue pidiendo token.", s=p),
        with_values("Tôi đã đổi mật khẩu của máy #2211 thành {s} nhưng vẫn không đăng nhập được.", s=p),
        with_values("Sunucunun root şifresini {s} olarak değiştirdim, şimdi bağlanamıyorum.", s=p),
        with_values("Parolayı {s} olarak ayarladım ama SSH reddediyor.", s=p),
        with_values("the ssh password (it's {s}) worked yesterday", s=p),
        with_values("pass for root is {s}", s=p),
        with_values("password for the jupyter server = {s}", s=p),
    ]


def _tokens_and_logins(f: Fakes) -> list[Sample]:
    def key() -> str:
        return f.pick(ALNUM, 40)

    def hexkey() -> str:
        return f.hex(40)

    return [
        with_values("replicate auth login {s}", s=lambda: "r8_" + f.pick(ALNUM, 37)),
        with_values("railway login --token {s}", s=lambda: f.uuid()),
        with_values(
            "modal token set --token-id {a} --token-secret {s}",
            a=lambda: "ak-" + f.pick(ALNUM, 22),
            s=lambda: "as-" + f.pick(ALNUM, 22),
        ),
        with_values("kaggle config set -n key -v {s}", s=lambda: f.hex(32)),
        with_values("comet login --api-key {s}", s=key),
        with_values("vastai set api-key {s}", s=lambda: f.hex(64)),
        with_values("runpodctl config --apiKey {s}", s=lambda: "rpa_" + f.pick(UPPER, 40)),
        with_values(
            "ngc config set\nEnter API key [no-apikey]. Choices: [<VALID_APIKEY>, 'no-apikey']: {s}",
            s=lambda: "nvapi-" + f.pick(ALNUM + "-_", 64),
        ),
        with_values(
            "echo '{s}' | docker login nvcr.io -u '$oauthtoken' --password-stdin",
            s=lambda: "nvapi-" + f.pick(ALNUM + "-_", 64),
        ),
        with_values("docker login ghcr.io -u ada --password-stdin <<< {s}", s=lambda: "ghp_" + f.pick(ALNUM, 36)),
        with_values("sudo chpasswd <<< 'ubuntu:{s}'", s=f.password),
        with_values("vncpasswd -f <<< '{s}' > ~/.vnc/passwd", s=f.password),
        with_values("redis-server --port 6380 --requirepass {s}", s=f.password),
        with_values("SSHPASS='{s}' sshpass -e ssh -p 40022 root@203.0.113.9", s=f.password),
        with_values("ssh-keygen -t ed25519 -C gpu -N '{s}' -f ~/.ssh/gpurent", s=f.password),
        with_values(
            "openssl enc -d -aes-256-cbc -pbkdf2 -k '{s}' -in weights.enc -out weights.safetensors", s=f.password
        ),
        with_values("kubectl create secret generic wandb --from-literal=WANDB_API_KEY={s} -n training", s=hexkey),
        with_values("kubectl create secret generic hf --from-literal=hf={s}", s=key),
        with_values("az keyvault secret set --vault-name lab-kv --name hf --value {s}", s=key),
        with_values("aws secretsmanager put-secret-value --secret-id prod/wandb --secret-string {s}", s=hexkey),
        with_values("printf '%s' '{s}' | gcloud secrets versions add wandb-key --data-file=-", s=hexkey),
        with_values("gcloud secrets versions add hf-token --data-file=- <<< {s}", s=key),
        with_values("heroku config:set WANDB_API_KEY={s} -a trainer", s=hexkey),
        with_values("fly secrets set HF_TOKEN={s}", s=lambda: "hf_" + f.pick(ALNUM, 34)),
        with_values("gh secret set RUNPOD_API_KEY --body {s}", s=key),
        with_values("doctl auth init --access-token {s}", s=lambda: "dop_v1_" + f.hex(64)),
        with_values("jupyter server --ServerApp.token={s} --port 8888", s=lambda: f.hex(48)),
        with_values("code-server --bind-addr 0.0.0.0:8080\nPASSWORD={s}", s=f.password),
    ]


def _type_annotations_with_values(f: Fakes) -> list[Sample]:
    p = f.password
    return [
        with_values("class Settings(BaseSettings):\n    db_password: SecretStr = SecretStr('{s}')", s=p),
        with_values('const config: Config = { apiKey: "{s}", region: "eu" };', s=lambda: f.pick(ALNUM, 32)),
        with_values("db_password: str = '{s}'  # TODO move to env", s=p),
        with_values('let password: &str = "{s}";', s=p),
    ]


def _batch_two(f: Fakes) -> list[Sample]:
    p = f.password

    def key() -> str:
        return f.pick(ALNUM, 40)

    return [
        with_values("export ETH_PK={s}", s=f.eth_key),
        with_values("DEPLOYER_PK: '0x{s}'", s=f.eth_key),
        with_values(
            "channels:\n  - https://conda.anaconda.org/t/{s}/private\n  - conda-forge", s=lambda: "ab-" + f.uuid()
        ),
        with_values("pass là {s} nha, đừng gửi cho ai", s=p),
        with_values("the password should be {s} now, I changed it this morning", s=p),
        with_values("use {s} as the wandb key for the shared box", s=lambda: f.hex(40)),
        with_values('co = cohere.ClientV2("{s}")  # prod key', s=key),
        with_values("client = Groq('{s}')", s=lambda: "gsk_" + f.pick(ALNUM, 52)),
        with_values(
            "alert webhook (Teams): https://acme.webhook.office.com/webhookb2/{s}",
            s=lambda: f"{f.uuid()}@{f.uuid()}/IncomingWebhook/{f.hex(32)}/{f.uuid()}",
        ),
        with_values(
            "DISCORD_WEBHOOK={s}",
            s=lambda: f"https://discord.com/api/webhooks/{f.pick('0123456789', 18)}/{f.pick(ALNUM + '-_', 68)}",
        ),
        with_values("mattermost hook: https://chat.acme.dev/hooks/{s}", s=lambda: f.pick(LOWER, 26)),
        with_values('dsn := "trainer:{s}@tcp(10.0.0.5:3306)/ml?parseTime=true"', s=p),
        with_values("spring.datasource.url=jdbc:oracle:thin:scott/{s}@db.acme.local:1521/ORCL", s=p),
        with_values("can you try logging in with ada@acme.dev and {s}? that's the account pw", s=p),
        with_values(
            "ok I changed it, it's now {s} lol", s=lambda: "Gpu" + f.pick(LOWER, 6) + "-" + f.pick("0123456789", 4)
        ),
        with_values("machine api.wandb.ai\n  login user\n  password {s}", s=lambda: f.hex(40)),
        with_values("Enter passphrase for key '/root/.ssh/id_ed25519_gpurent_prod': {s}", s=p),
        with_values("const kp = Keypair.fromSecretKey(bs58.decode('{s}'));", s=f.solana_keypair_b58),
        with_values("cat ~/.config/solana/id.json\n{s}", s=f.solana_keypair_json),
        with_values("cast wallet import deployer --private-key 0x{s}", s=f.eth_key),
        with_values("nats context add lab --server nats://10.0.0.2 --user ada --password {s}", s=p),
        with_values("usuario: root contraseña: {s}", s=p),
        with_values("kullanıcı adı root, parolası {s}", s=p),
    ]


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for family in (
        _object_stores,
        _client_libraries,
        _passwords_in_sentences,
        _tokens_and_logins,
        _type_annotations_with_values,
        _batch_two,
    ):
        for build in family(f):
            out.extend(build() for _ in range(2))
    return out


def main() -> None:
    fakes = Fakes(seed=1203162026)
    check_and_write(OUT, "t6b", positives(fakes), negatives(fakes))


if __name__ == "__main__":
    main()

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 8, texts with secrets (2/2 of the config families): container registries, cloud CLIs and keys, tunnels,
`.netrc`-like files, database URLs, rclone/s3cmd, service-account JSON, SSH keys, webhooks for training alerts and
passwords said in words. A PEM or OpenSSH key is listed line by line (each body line one secret), as earlier parts do.
"""

from __future__ import annotations

import json

from .heldout8_shapes import (
    ALNUM,
    B64,
    BECH32,
    UPPER,
    URLSAFE,
    Gen,
    b64,
    b64url,
    cloudflared_token,
    github_pat,
    hf_token,
    jwt,
    openai_key,
    pem_lines,
    telegram_secret,
    wrap,
)

Positive = tuple[str, str, list[str]]


def config_positives2(g: Gen) -> list[Positive]:
    out: list[Positive] = []

    def add(family: str, body: str, secrets: list[str], lang: str | None = None) -> None:
        out.append((family, wrap(g, body, lang), secrets))

    # --- container registries ----------------------------------------------------------------------------------------
    for registry, user, token in (
        ("ghcr.io", "minh-nguyen", github_pat(g)),
        ("https://index.docker.io/v1/", "lucia", "dckr_pat_" + g.pick(URLSAFE, 27)),
        (f"registry.{g.choice(['lab', 'acme', 'uni'])}.example:5000", "deploy", g.password()),
    ):
        auth = b64(f"{user}:{token}".encode())
        add(
            "registry",
            f'$ cat ~/.docker/config.json\n{{\n\t"auths": {{\n\t\t"{registry}": {{\n\t\t\t"auth": "{auth}"\n\t\t}}\n\t}}\n}}',
            [auth],
        )
    t = "dckr_pat_" + g.pick(URLSAFE, 27)
    add(
        "registry",
        f"docker login -u deniz -p {t}\ndocker push deniz/sd-api:latest\ndenied: requested access to the resource is denied",
        [t],
    )
    t = github_pat(g)
    add(
        "registry",
        f"echo {t} | docker login ghcr.io -u lucia-ml --password-stdin\nLogin Succeeded\ndocker pull ghcr.io/lucia-ml/trainer:cuda12.4",
        [t],
    )
    t = g.pick(UPPER, 64)
    add("registry", f'docker login -u="acme+gpu_puller" -p="{t}" quay.io', [t])
    cfg = b64(
        json.dumps(
            {"auths": {"harbor.lab.example": {"username": "robot$train", "password": g.pick(ALNUM, 32)}}}
        ).encode()
    )
    add(
        "registry",
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: harbor-pull\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {cfg}",
        [cfg],
    )

    # --- cloud CLIs and keys -----------------------------------------------------------------------------------------
    for _ in range(2):
        key_id = g.hex(40)
        lines = pem_lines(g, "MIIEv" + g.choice(["Q", "g", "A"]) + "IBADANBgkqhkiG9w0BAQEFAASC", 26)
        escaped = "\\n".join(lines)
        body = (
            '{\n  "type": "service_account",\n  "project_id": "train-' + g.pick("abcdefghijklmnop", 6) + '",\n'
            f'  "private_key_id": "{key_id}",\n'
            f'  "private_key": "-----BEGIN PRIVATE KEY-----\\n{escaped}\\n-----END PRIVATE KEY-----\\n",\n'
            f'  "client_email": "trainer@train.iam.gserviceaccount.com",\n  "client_id": "{g.num(10**20, 10**21 - 1)}",\n'
            '  "token_uri": "https://oauth2.googleapis.com/token"\n}'
        )
        add("cloud", "gcloud auth activate-service-account --key-file=sa.json fails, this is sa.json:\n" + body, lines)
    t = "ya29.a0" + g.pick(URLSAFE, 190)
    add(
        "cloud",
        f'$ gcloud auth print-access-token\n{t}\n$ curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://storage.googleapis.com/storage/v1/b/my-ckpt/o',
        [t],
    )
    s = g.pick(ALNUM, 3) + g.choice("0123456789") + "Q~" + g.pick(ALNUM + "_~.-", 34)
    add(
        "cloud",
        f"az login --service-principal -u {g.uuid()} -p {s} --tenant {g.uuid()}\nAADSTS7000215: Invalid client secret provided.",
        [s],
    )
    k = b64(g.raw(64))
    add(
        "cloud",
        f'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=vnspeech{g.num(1, 99)};AccountKey={k};EndpointSuffix=core.windows.net"',
        [k],
    )
    sig = b64(g.raw(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    add(
        "cloud",
        f'azcopy copy "https://trdata.blob.core.windows.net/audio?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-02-01T00:00:00Z&st=2027-01-10T00:00:00Z&spr=https&sig={sig}" /data --recursive',
        [sig],
    )
    t = "dop_v1_" + g.hex(64)
    add(
        "cloud",
        f"doctl auth init -t {t}\nError: Unable to use supplied token to access API: GET https://api.digitalocean.com/v2/account: 401",
        [t],
    )
    a, s = g.hex(32), g.hex(64)
    add(
        "cloud",
        f"$ cat ~/.config/rclone/rclone.conf\n[r2]\ntype = s3\nprovider = Cloudflare\naccess_key_id = {a}\nsecret_access_key = {s}\nendpoint = https://{g.hex(32)}.r2.cloudflarestorage.com",
        [s],
    )
    key_id, app_key = "005" + g.hex(22), "K005" + g.pick(ALNUM + "/+", 27)
    add(
        "cloud",
        f"$ b2 account authorize {key_id} {app_key}\nERROR: unable to authorize account: Invalid authorization token.",
        [app_key],
    )
    a, s = g.pick(UPPER, 20), g.pick(B64, 40)
    add(
        "cloud",
        f"$ cat ~/.s3cfg\n[default]\naccess_key = {a}\nsecret_key = {s}\nhost_base = s3.wasabisys.com\nhost_bucket = %(bucket)s.s3.wasabisys.com\nuse_https = True",
        [s],
    )
    s = g.pick(ALNUM, 40)
    add(
        "cloud",
        f"dvc remote modify --local storage access_key_id minio\ndvc remote modify --local storage secret_access_key {s}\ndvc push\nERROR: unexpected error - Forbidden",
        [s],
    )
    a, s = g.pick(UPPER, 20), g.pick(ALNUM, 40)
    add("cloud", f"mc alias set local http://{g.ip()}:9000 {a} {s}\nmc mb local/checkpoints", [s])

    # --- tunnels -----------------------------------------------------------------------------------------------------
    t = "2" + g.pick(ALNUM, 26) + "_" + g.choice("123456789") + g.pick(ALNUM, 20)
    add(
        "tunnel",
        f"$ ngrok config add-authtoken {t}\nAuthtoken saved to configuration file: /root/.config/ngrok/ngrok.yml\n$ ngrok http 7860\nERROR: authentication failed: Your account is limited to 1 simultaneous ngrok agent session.",
        [t],
    )
    t = "2" + g.pick(ALNUM, 26) + "_" + g.choice("123456789") + g.pick(ALNUM, 20)
    add("tunnel", f'version: "3"\nagent:\n  authtoken: {t}\ntunnels:\n  comfy:\n    proto: http\n    addr: 8188', [t])
    t = cloudflared_token(g)
    add(
        "tunnel",
        f'cloudflared tunnel run --token {t}\nERR Couldn\'t start tunnel error="Unauthorized: Invalid tunnel secret"',
        [t],
    )
    secret = b64(g.raw(32))
    add(
        "tunnel",
        f'$ cat ~/.cloudflared/{g.uuid()}.json\n{{"AccountTag":"{g.hex(32)}","TunnelSecret":"{secret}","TunnelID":"{g.uuid()}"}}',
        [secret],
    )
    t = f"tskey-auth-k{g.pick(ALNUM, 10)}CNTRL-{g.pick(ALNUM, 33)}"
    add("tunnel", f"tailscale up --authkey {t} --hostname gpu-rental-{g.num(1, 40)} --ssh", [t])
    t = g.pick(ALNUM, 24)
    add(
        "tunnel",
        f'# frpc.toml\nserverAddr = "{g.ip()}"\nserverPort = 7000\nauth.method = "token"\nauth.token = "{t}"\n\n[[proxies]]\nname = "jupyter"\ntype = "tcp"\nlocalPort = 8888\nremotePort = 6001',
        [t],
    )

    # --- files that hold logins ----------------------------------------------------------------------------------------
    p = g.password()
    add(
        "files",
        f"$ cat ~/.netrc\nmachine urs.earthdata.nasa.gov\n    login {g.user()}{g.num(1, 99)}\n    password {p}\n$ wget --load-cookies ~/.urs_cookies --save-cookies ~/.urs_cookies --auth-no-challenge=on https://e4ftl01.cr.usgs.gov/MOLT/MOD09GA.061/",
        [p],
    )
    t = github_pat(g)
    add(
        "files",
        f"$ cat ~/.git-credentials\nhttps://{g.user()}:{t}@github.com\n$ git push\nremote: Permission to acme/llm-train.git denied",
        [t],
    )
    t = "glpat-" + g.pick(URLSAFE, 20)
    add("files", f"git remote set-url origin https://oauth2:{t}@gitlab.com/uni-lab/speech-vi.git", [t])
    t = "pypi-AgEIcHlwaS5vcmc" + g.pick(URLSAFE, 140)
    add("files", f"$ cat ~/.pypirc\n[pypi]\n  username = __token__\n  password = {t}", [t])
    t = g.pick(ALNUM, 52)
    add(
        "files",
        f"$ cat /etc/pip.conf\n[global]\nextra-index-url = https://build:{t}@pkgs.dev.azure.com/acme/_packaging/ml/pypi/simple/",
        [t],
    )
    p = g.password()
    add(
        "files",
        f"$ cat ~/.pgpass\n{g.host()}:5432:features:{g.user()}:{p}\n$ psql -h db -U trainer features\npsql: error: connection to server failed: FATAL: password authentication failed",
        [p],
    )
    p = b64url(g.raw(g.num(24, 30)))
    add("files", f"[nas]\ntype = sftp\nhost = {g.ip()}\nuser = {g.user()}\npass = {p}\nshell_type = unix", [p])
    k = "AGE-SECRET-KEY-1" + g.pick(BECH32, 58)
    add(
        "files",
        f"$ cat ~/.config/sops/age/keys.txt\n# created: 2026-12-20T10:11:12+07:00\n# public key: age1{g.pick(BECH32.lower(), 58)}\n{k}",
        [k],
    )
    t = "hvs." + g.pick(URLSAFE, 91)
    add(
        "files",
        f"export VAULT_ADDR=https://vault.lab.example:8200\nexport VAULT_TOKEN={t}\nvault kv get secret/train/wandb\nError reading secret/train/wandb: permission denied",
        [t],
    )

    # --- databases and brokers -----------------------------------------------------------------------------------------
    for scheme, port in (("postgresql", 5432), ("postgresql+psycopg2", 5432)):
        p = g.password()
        add(
            "database",
            f'DATABASE_URL="{scheme}://{g.user()}:{p}@{g.host()}:{port}/experiments"\nsqlalchemy.exc.OperationalError: could not connect to server',
            [p],
        )
    p = g.password()
    add(
        "database",
        f'client = MongoClient("mongodb+srv://annotator:{p}@cluster0.{g.pick("abcdefghijklmnopqrstuvwxyz0123456789", 5)}.mongodb.net/labels?retryWrites=true&w=majority")',
        [p],
    )
    p = g.password()
    add(
        "database",
        f"CELERY_BROKER_URL=redis://:{p}@{g.ip()}:6379/0\nCELERY_RESULT_BACKEND=redis://:{p}@{g.ip()}:6379/1",
        [p],
    )
    p = g.password()
    add(
        "database",
        f"mlflow server --backend-store-uri mysql+pymysql://mlflow:{p}@{g.host()}:3306/mlflow --default-artifact-root s3://mlflow-art --host 0.0.0.0",
        [p],
    )
    p = g.password()
    add("database", f"amqp://{g.user()}:{p}@{g.ip()}:5672/%2F  <- broker url from the airflow config", [p])
    p = g.symbol_password()
    add(
        "database",
        f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: label\n      POSTGRES_PASSWORD: '{p}'\n    volumes:\n      - pg:/var/lib/postgresql/data",
        [p],
    )
    service = jwt(
        g,
        {
            "iss": "supabase",
            "ref": g.pick("abcdefghijklmnopqrstuvwxyz", 20),
            "role": "service_role",
            "iat": 1_760_000_000,
            "exp": 2_075_000_000,
        },
    )
    add(
        "database",
        f"SUPABASE_URL=https://{g.pick('abcdefghijklmnopqrstuvwxyz', 20)}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={service}",
        [service],
    )

    # --- SSH keys, Kubernetes, ssh passwords ------------------------------------------------------------------------------------------
    for _ in range(2):
        lines = pem_lines(g, "b3BlbnNzaC1rZXktdjEAAAAA", g.choice([5, 7]), width=70)
        block = "\n".join(lines)
        add(
            "ssh-key",
            f"this is the key I use for the rental, ssh says 'invalid format':\n-----BEGIN OPENSSH PRIVATE KEY-----\n{block}\n-----END OPENSSH PRIVATE KEY-----",
            lines,
        )
    token = jwt(
        g,
        {
            "iss": "kubernetes/serviceaccount",
            "kubernetes.io/serviceaccount/namespace": "train",
            "sub": "system:serviceaccount:train:runner",
        },
    )
    add(
        "kubernetes",
        f"users:\n- name: runner\n  user:\n    token: {token}\ncontexts:\n- context: {{cluster: gpu, user: runner}}\n  name: gpu",
        [token],
    )
    p = b64(g.password().encode())
    add(
        "kubernetes",
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: minio-creds\ntype: Opaque\ndata:\n  username: {b64(b'minio')}\n  password: {p}",
        [p],
    )
    p = g.symbol_password()
    add(
        "password", f"[gpus]\n{g.ip()} ansible_user=root ansible_ssh_pass='{p}' ansible_port={g.num(20000, 40000)}", [p]
    )
    p = g.symbol_password()
    add(
        "password",
        f"sshpass -p '{p}' rsync -avz -e 'ssh -p {g.num(20000, 40000)}' ./data root@{g.ip()}:/workspace/",
        [p],
    )

    # --- alerts when a run finishes ---------------------------------------------------------------------------------
    for _ in range(2):
        bot, secret = telegram_secret(g)
        add(
            "webhook",
            f'def notify(msg):\n    requests.post("https://api.telegram.org/bot{bot}:{secret}/sendMessage", data={{"chat_id": {g.num(10**8, 10**9)}, "text": msg}})',
            [secret],
        )
    bot, secret = telegram_secret(g)
    add("webhook", f"TELEGRAM_BOT_TOKEN={bot}:{secret}\nTELEGRAM_CHAT_ID=-100{g.num(10**9, 10**10)}", [secret])
    token = g.pick(URLSAFE, 68)
    add(
        "webhook",
        f'DISCORD_WEBHOOK = "https://discord.com/api/webhooks/{g.num(10**17, 10**18)}/{token}"  # ping me when training ends',
        [token],
    )
    token = g.pick(ALNUM, 24)
    add(
        "webhook",
        f"callbacks:\n  slack:\n    webhook_url: https://hooks.slack.com/services/T{g.pick(UPPER, 8)}/B{g.pick(UPPER, 10)}/{token}\n    on: [train_end, nan_loss]",
        [token],
    )

    # --- passwords said in words --------------------------------------------------------------------------------------
    lead = {
        "en": ("The root password you set on the machine doesn't work, I changed it to", "and now ssh refuses it too."),
        "es": ("La contraseña de root que pusisteis no funciona, la cambié a", "y ahora ssh tampoco la acepta."),
        "vi": ("Mật khẩu root của máy không dùng được, mình đã đổi thành", "mà giờ ssh cũng không nhận."),
        "tr": ("Makinenin root şifresi çalışmıyor, şifreyi şöyle değiştirdim:", "ama şimdi ssh onu da kabul etmiyor."),
    }
    for lang, (before, after) in lead.items():
        p = g.symbol_password()
        add("password", f"{before} {p} {after}", [p], lang)
    p = g.password()
    add(
        "password",
        f"Cityscapes download:\nwget --keep-session-cookies --save-cookies=cookies.txt --post-data 'username={g.user()}&password={p}&submit=Login' https://www.cityscapes-dataset.com/login/",
        [p],
    )
    p = g.symbol_password()
    add(
        "password",
        f"Mình để mật khẩu Jupyter là {p}, bạn vào thử http://{g.ip()}:8888 giúp mình xem có lỗi không nhé.",
        [p],
        "vi",
    )
    p = g.symbol_password()
    add(
        "password",
        f"Sunucudaki Grafana paneline admin / {p} ile giriş yapabilirsiniz, GPU sıcaklık grafiği boş görünüyor.",
        [p],
        "tr",
    )
    p = g.symbol_password()
    add(
        "password",
        f"Para revisarlo podéis entrar en el panel de TensorBoard con el usuario lucia y la contraseña {p}",
        [p],
        "es",
    )

    # --- a whole .env --------------------------------------------------------------------------------------------------
    hf, wb, oa = hf_token(g), g.hex(40), openai_key(g)
    add(
        "env-file",
        f"# .env\nHF_TOKEN={hf}\nWANDB_API_KEY={wb}\nOPENAI_API_KEY={oa}\nDATA_DIR=/workspace/data\nCUDA_VISIBLE_DEVICES=0,1",
        [hf, wb, oa],
    )
    p, k = g.password(), g.hex(40)
    add(
        "env-file",
        f"POSTGRES_PASSWORD={p}\nLABEL_STUDIO_API_KEY={k}\nLABEL_STUDIO_URL=http://localhost:8080\nLOG_LEVEL=info",
        [p, k],
    )
    s = b64(g.raw(48))
    add("env-file", f"DJANGO_SECRET_KEY={s}\nALLOWED_HOSTS=gradio.mi-dominio.example\nDEBUG=0", [s])
    return out

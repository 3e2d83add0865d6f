# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 9, texts with secrets (3 of 3): cloud CLIs and keys, GPU clouds, storage tools, databases, passwords
after flags, SSH and Kubernetes, chat webhooks.

A PEM private key is listed line by line (each body line is a secret); only the secret half of a pair is listed.
"""

from __future__ import annotations

import base64
import json

from .heldout9_gen import ALNUM, DIGITS, LOWER, UPPER, URLSAFE, Gen
from .heldout9_pairs import _hi

Sample = tuple[str, list[str]]


def clouds(g: Gen) -> list[Sample]:
    out: list[Sample] = []

    def add(text: str, *secrets: str) -> None:
        out.append((text, list(secrets)))

    for lang in ("en", "es"):
        body = g.pem_body(1190)
        key = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END PRIVATE KEY-----\n"
        sa = {
            "type": "service_account",
            "project_id": "vision-train-381",
            "private_key_id": g.hex(40),
            "private_key": key,
            "client_email": "trainer@vision-train-381.iam.gserviceaccount.com",
            "client_id": g.pick(DIGITS, 21),
            "token_uri": "https://oauth2.googleapis.com/token",
        }
        intro = {
            "en": "Here is the service account file I copy to the instance (gcs-key.json):",
            "es": "Este es el JSON de la cuenta de servicio que subo a la instancia:",
        }[lang]
        add(f"{_hi(g, lang)}{intro}\n{json.dumps(sa, indent=2)}\ngsutil cp gs://vision-data/* . still says 403.", *body)
    secret = g.pick(ALNUM, 3) + "8Q~" + g.pick(URLSAFE + ".~", 34)
    add(
        f"{_hi(g, 'en')}az login --service-principal -u {g.uuid()} -p {secret} --tenant {g.uuid()}\nAADSTS7000215: Invalid client secret provided.",
        secret,
    )
    secret = g.pick(ALNUM, 3) + "8Q~" + g.pick(URLSAFE + ".~", 34)
    add(
        f"{_hi(g, 'tr')}Azure ML için .env:\nAZURE_CLIENT_ID={g.uuid()}\nAZURE_TENANT_ID={g.uuid()}\nAZURE_CLIENT_SECRET={secret}\nModel kaydı sırasında DefaultAzureCredential başarısız oluyor.",
        secret,
    )
    key = g.b64(64)
    add(
        f"{_hi(g, 'vi')}Chuỗi kết nối Azure Blob em dùng:\nDefaultEndpointsProtocol=https;AccountName=dulieuhuanluyen;AccountKey={key};EndpointSuffix=core.windows.net\nazcopy chạy rất chậm.",
        key,
    )
    do = "dop_v1_" + g.hex(64)
    add(
        f"{_hi(g, 'en')}migrating from DigitalOcean, my old doctl auth init used {do} — can your API import a droplet snapshot?",
        do,
    )
    hz = g.pick(ALNUM, 64)
    add(f"{_hi(g, 'tr')}hcloud context create egitim\nToken: {hz}\nHetzner'deki veriyi size taşımak istiyorum.", hz)
    rp = "rpa_" + g.pick(UPPER + DIGITS, 40)
    add(
        f"{_hi(g, 'es')}Venimos de RunPod; nuestro script usa RUNPOD_API_KEY={rp}. ¿Vuestra API tiene algo parecido a runpodctl?",
        rp,
    )
    va = g.hex(64)
    add(
        f"{_hi(g, 'en')}vastai set api-key {va}\nI want to compare prices, your CLI has nothing like `vastai search offers`?",
        va,
    )
    lb = "secret_" + g.choice(["trainer", "ci", "laptop"]) + "_" + g.hex(32) + "." + g.pick(ALNUM, 32)
    add(
        f"{_hi(g, 'vi')}Key API của Lambda Cloud (để so sánh): {lb}\nBên mình có endpoint tương tự /instance-operations/launch không?",
        lb,
    )
    cf = g.pick(URLSAFE, 40)
    add(
        f"{_hi(g, 'en')}CLOUDFLARE_API_TOKEN={cf} wrangler r2 object put models/ckpt.safetensors --file ckpt.safetensors\nupload dies after 300 MB",
        cf,
    )
    ak, sk = g.hex(32), g.hex(64)
    add(
        f"{_hi(g, 'es')}~/.s3cfg para R2:\n[default]\naccess_key = {ak}\nsecret_key = {sk}\nhost_base = {g.hex(32)}.r2.cloudflarestorage.com\nhost_bucket = %(bucket)s.{g.hex(32)}.r2.cloudflarestorage.com\n",
        sk,
    )
    kid, app = "005" + g.hex(21), "K005" + g.pick(ALNUM + "/+", 27)
    add(
        f"{_hi(g, 'tr')}b2 account authorize {kid} {app}\nERROR: unable to authorize account: Invalid authorization token",
        app,
    )
    ak, sk = "AKIA" + g.pick(UPPER + "234567", 16), g.aws_secret()
    add(
        f"{_hi(g, 'en')}~/.config/rclone/rclone.conf\n[s3data]\ntype = s3\nprovider = AWS\naccess_key_id = {ak}\nsecret_access_key = {sk}\nregion = eu-west-1\n\nrclone copy shows 0 B/s",
        sk,
    )
    obscured = g.pick(URLSAFE, 46)
    add(
        f"{_hi(g, 'vi')}rclone.conf có remote sftp sang máy thuê:\n[gputhue]\ntype = sftp\nhost = {g.ip()}\nuser = root\npass = {obscured}\nport = 22022\nlúc copy hay bị ngắt.",
        obscured,
    )
    pw, w = g.password(), g.hex(40)
    add(
        f"{_hi(g, 'es')}~/.netrc\nmachine nas.laboratorio.example login investigador password {pw}\nmachine api.wandb.ai login user password {w}\nwget --auth-no-challenge descarga vacío",
        pw,
        w,
    )
    pw, pypi = g.password(), "pypi-" + g.pick(URLSAFE, 150)
    add(
        f"{_hi(g, 'tr')}~/.pypirc\n[pypi]\nusername = __token__\npassword = {pypi}\n\n[internal]\nrepository = https://pypi.sirket.example\nusername = ci\npassword = {pw}\n",
        pw,
        pypi,
    )
    return out


def databases_and_flags(g: Gen) -> list[Sample]:
    out: list[Sample] = []

    def add(text: str, *secrets: str) -> None:
        out.append((text, list(secrets)))

    pw = g.urlpw()
    add(
        f"{_hi(g, 'en')}DATABASE_URL=postgresql://labeler:{pw}@{g.ip()}:5432/annotations\nlabel studio on the rental can't reach it (timeout)",
        pw,
    )
    pw = g.urlpw()
    add(
        f'{_hi(g, "es")}mongo "mongodb+srv://ana:{pw}@cluster0.x1y2z.mongodb.net/embeddings" me devuelve querySrv ENOTFOUND',
        pw,
    )
    pw = g.urlpw()
    add(f"{_hi(g, 'vi')}celery broker: redis://:{pw}@{g.ip()}:6379/0\nworker trên máy GPU không nhận task.", pw)
    pw = g.urlpw()
    add(
        f"engine = create_engine(\"mysql+pymysql://root:{pw}@db.lab.example/experiments\")\n{_hi(g, 'tr')}SQLAlchemy 'Lost connection to MySQL server' hatası veriyor.",
        pw,
    )
    pw = g.urlpw()
    add(
        f"{_hi(g, 'en')}amqp://rabbit:{pw}@{g.ip()}:5672/%2f is our queue for inference jobs, connection refused from your subnet",
        pw,
    )
    pw = g.password()
    add(
        f"$ mysql -h {g.ip()} -u trainer -p{pw} metrics\nERROR 2003 (HY000): Can't connect to MySQL server\n{_hi(g, 'en')}",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'es')}Desde la instancia: PGPASSWORD={pw} psql -h {g.ip()} -U etiquetas -d anotaciones -c '\\dt'\npsql: error: connection timed out",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'tr')}sshpass -p '{pw}' rsync -avz -e 'ssh -p 22022' ./veri root@{g.ip()}:/workspace/\nrsync çok yavaş, 2 MB/s.",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'vi')}redis-cli -h {g.ip()} -a {pw} ping\nWarning: Using a password with '-a' on the command line interface may not be safe.\nError: Connection reset by peer",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'en')}curl -u admin:{pw} https://registry.lab.example/v2/_catalog\ncurl: (60) SSL certificate problem",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'es')}wget --user=datos --password='{pw}' https://ftp.universidad.example/corpus/es_web.tar.zst\ndescarga a 100 KB/s",
        pw,
    )
    pw = g.password()
    add(
        f"mount -t cifs //nas/modelos /mnt/modelos -o username=lab,password={pw},vers=3.0\nmount error(113): Could not find target server\n{_hi(g, 'tr')}",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'vi')}openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{pw}\nlệnh chạy được nhưng Triton không đọc được file.",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'en')}smbclient //fileserver/datasets -U 'LAB\\jdoe%{pw}' -c 'get imagenet.tar'\nNT_STATUS_IO_TIMEOUT",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'tr')}Parolamı şöyle değiştirdim: echo 'root:{pw}' | chpasswd\nşimdi ssh ile giremiyorum. Bu şifre doğru mu kaydedildi?",
        pw,
    )
    pw = g.password()
    add(f"{_hi(g, 'es')}La contraseña de root que puse en la plantilla es {pw} y no me deja entrar por SSH.", pw)
    pw = g.password()
    add(f"{_hi(g, 'vi')}Mật khẩu SSH của máy thuê em đặt là: {pw}\nnhưng đăng nhập báo Permission denied.", pw)
    pw = g.password()
    add(
        f"{_hi(g, 'en')}The password for the shared `trainer` account on my instance is {pw} — my colleague says it's rejected. Please reset it.",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'tr')}docker run -e POSTGRES_PASSWORD={pw} -v /workspace/pg:/var/lib/postgresql/data postgres:16\nkonteyner sürekli yeniden başlıyor.",
        pw,
    )
    pw = g.password()
    add(
        f"docker-compose.yml\nservices:\n  minio:\n    image: minio/minio\n    environment:\n      MINIO_ROOT_USER: admin\n      MINIO_ROOT_PASSWORD: {pw}\n    command: server /data\n{_hi(g, 'en')}minio console does not load through your port forward.",
        pw,
    )
    return out


def keys_and_chat(g: Gen) -> list[Sample]:
    out: list[Sample] = []

    def add(text: str, *secrets: str) -> None:
        out.append((text, list(secrets)))

    for lang in ("en", "vi", "es"):
        body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", *g.b64lines(300, 70)[1:]]
        block = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END OPENSSH PRIVATE KEY-----"
        intro = {
            "en": "This is the key I generated, the instance refuses it:",
            "vi": "Đây là private key em tạo, máy thuê không nhận:",
            "es": "Esta es mi clave privada, la instancia la rechaza:",
        }[lang]
        add(f"{_hi(g, lang)}{intro}\n{block}", *body[1:])
    body = g.b64lines(1190, 64)
    add(
        f"{_hi(g, 'tr')}TLS için anahtar dosyası (server.key):\n-----BEGIN RSA PRIVATE KEY-----\n"
        + "\n".join(body)
        + "\n-----END RSA PRIVATE KEY-----\nnginx 'key values mismatch' diyor.",
        *body,
    )
    token = g.jwt(
        {
            "iss": "kubernetes/serviceaccount",
            "kubernetes.io/serviceaccount/namespace": "training",
            "sub": "system:serviceaccount:training:runner",
        }
    )
    add(
        f"{_hi(g, 'en')}kubeconfig for our k3s on the rented nodes:\nusers:\n- name: runner\n  user:\n    token: {token}\nkubectl get nodes hangs.",
        token,
    )
    data, hf = base64.b64encode(g.password().encode()).decode(), base64.b64encode(g.hf().encode()).decode()
    add(
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: hf-credentials\ntype: Opaque\ndata:\n  HF_TOKEN: {hf}\n  DB_PASSWORD: {data}\n{_hi(g, 'es')}el pod no monta el secreto.",
        data,
        hf,
    )
    vt = "hvs." + g.pick(ALNUM + "_-", 90)
    add(f"{_hi(g, 'vi')}export VAULT_TOKEN={vt}\nvault kv get secret/training báo permission denied.", vt)
    sl = "xoxb-" + g.pick(DIGITS, 12) + "-" + g.pick(DIGITS, 13) + "-" + g.pick(ALNUM, 24)
    add(
        f"{_hi(g, 'en')}training finishes with a Slack ping: SLACK_BOT_TOKEN={sl} but no message arrives from your network",
        sl,
    )
    part = g.pick(ALNUM, 24)
    add(
        f"{_hi(g, 'tr')}Eğitim bitince bu webhook'a mesaj atıyorum: https://hooks.slack.com/services/T{g.pick(UPPER + DIGITS, 10)}/B{g.pick(UPPER + DIGITS, 10)}/{part}\nGPU makinesinden istek gitmiyor.",
        part,
    )
    tg = g.pick(DIGITS, 10) + ":AA" + g.pick(URLSAFE, 33)
    add(
        f"{_hi(g, 'vi')}Bot Telegram báo khi train xong: TELEGRAM_BOT_TOKEN={tg}\nrequests.post tới api.telegram.org bị timeout.",
        tg,
    )
    hook = g.pick(URLSAFE, 68)
    add(
        f"{_hi(g, 'es')}Webhook de Discord para avisos: https://discord.com/api/webhooks/{g.pick(DIGITS, 19)}/{hook}\nNo llega nada cuando termina el entrenamiento.",
        hook,
    )
    dt = (
        base64.b64encode(g.pick(DIGITS, 19).encode()).decode().rstrip("=")
        + "."
        + g.pick(URLSAFE, 6)
        + "."
        + g.pick(URLSAFE, 38)
    )
    add(
        f"{_hi(g, 'en')}my Discord bot (serves SDXL from your GPU) logs in with client.run('{dt}') and gets 'Improper token has been passed'",
        dt,
    )
    sk = "sk_live_" + g.pick(ALNUM, 99)
    add(
        f"{_hi(g, 'tr')}Kendi SaaS'ım için STRIPE_SECRET_KEY={sk} kullanıyorum; sunucuyu sizin makinede çalıştırırsam webhook gelir mi?",
        sk,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'en')}wireguard client conf I use to reach the lab:\n[Interface]\nPrivateKey = {(pk := g.b64(32))}\nAddress = 10.8.0.5/32\n\n[Peer]\nPublicKey = {g.b64(32)}\nEndpoint = {g.ip()}:51820\nAllowedIPs = 10.8.0.0/24\n# lab wiki password: {pw}",
        pk,
        pw,
    )
    sess = g.pick(LOWER + DIGITS, 32)
    add(
        f"{_hi(g, 'es')}Copio la cookie del panel por si sirve: sessionid={sess}; django_language=es\nLa página de facturación no carga.",
        sess,
    )
    hexkey = g.hex(64)
    add(
        f"{_hi(g, 'vi')}Private key ví ETH của em (để ký giao dịch thanh toán): 0x{hexkey}\nsao giao dịch bị từ chối ạ?",
        hexkey,
    )
    wif = g.choice("KL") + g.pick("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 51)
    add(f"{_hi(g, 'tr')}Bitcoin cüzdanımın özel anahtarı (WIF): {wif}\nElectrum'a aktarınca bakiye görünmüyor.", wif)
    return out


def whole_files(g: Gen) -> list[Sample]:
    """Several secrets in one paste: a whole `.env`, shell history, a notebook cell, a CI log."""
    out: list[Sample] = []
    hf, w, oa = g.hf(), g.hex(40), g.openai()
    out.append(
        (
            f"{_hi(g, 'en')}full .env of the project, maybe something is wrong in it:\n\nHF_TOKEN={hf}\nWANDB_API_KEY={w}\nWANDB_ENTITY=acme-ml\nOPENAI_API_KEY={oa}\nCUDA_VISIBLE_DEVICES=0,1\nNCCL_P2P_DISABLE=1\n",
            [hf, w, oa],
        )
    )
    hf, pw = g.hf(), g.urlpw()
    out.append(
        (
            f"{_hi(g, 'es')}Historial de la sesión:\n  88  nvidia-smi\n  89  export HF_TOKEN={hf}\n  90  psql postgresql://admin:{pw}@{g.ip()}/datos -c 'select 1'\n  91  python train.py --config configs/lora.yaml\n",
            [hf, pw],
        )
    )
    hf, w = g.hf(), g.hex(40)
    cell = {
        "cell_type": "code",
        "execution_count": 3,
        "metadata": {},
        "outputs": [],
        "source": [
            "import os\n",
            f"os.environ['HF_TOKEN'] = '{hf}'\n",
            f"os.environ['WANDB_API_KEY'] = '{w}'\n",
            "!python finetune.py",
        ],
    }
    out.append(
        (
            f"{_hi(g, 'vi')}Cell trong notebook (.ipynb) của em:\n{json.dumps(cell, ensure_ascii=False)}\nchạy xong kernel bị chết.",
            [hf, w],
        )
    )
    gh, dk = "ghp_" + g.pick(ALNUM, 36), "dckr_pat_" + g.pick(URLSAFE, 27)
    out.append(
        (
            f"{_hi(g, 'tr')}CI günlüğü (maskelenmemiş, GitHub Actions yerine kendi runner'ımız):\n+ git clone https://x-access-token:{gh}@github.com/ekip/model.git\n+ docker login -u ekip -p {dk}\n+ docker push ekip/model:latest\nunauthorized: incorrect username or password",
            [gh, dk],
        )
    )
    ak, sk, hf = g.aws_id(), g.aws_secret(), g.hf()
    out.append(
        (
            f"{_hi(g, 'en')}launch script:\n#!/usr/bin/env bash\nexport AWS_ACCESS_KEY_ID={ak}\nexport AWS_SECRET_ACCESS_KEY={sk}\nexport HUGGING_FACE_HUB_TOKEN={hf}\naccelerate launch --num_processes 8 train.py\n",
            [sk, hf],
        )
    )
    k, pw = g.anthropic(), g.password()
    out.append(
        (
            f"{_hi(g, 'es')}docker run -d --gpus all -e ANTHROPIC_API_KEY={k} -e ADMIN_PASSWORD={pw} -p 3000:8080 ghcr.io/open-webui/open-webui:cuda\nOpen WebUI no ve la GPU.",
            [k, pw],
        )
    )
    w, pw = g.hex(40), g.password()
    out.append(
        (
            f"{_hi(g, 'vi')}file config của job Slurm:\n#SBATCH --gres=gpu:4\nexport WANDB_API_KEY={w}\nexport SMB_PASSWORD='{pw}'\nsrun python train.py\njob bị PENDING mãi (Resources).",
            [w, pw],
        )
    )
    tok, hf = g.hex(48), g.hf()
    out.append(
        (
            f'{_hi(g, "tr")}supervisord.conf:\n[program:jupyter]\ncommand=jupyter lab --ip=0.0.0.0 --NotebookApp.token={tok} --allow-root\n[program:tgi]\ncommand=text-generation-launcher --model-id org/private-13b\nenvironment=HF_TOKEN="{hf}"\n',
            [tok, hf],
        )
    )
    return out

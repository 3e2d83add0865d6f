# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the FIFTH held-out part of the redaction corpus (`heldout5/*.jsonl`), negative-heavy on purpose: about
150 support requests with a pasted secret and 350 clean ones full of look-alikes, because the redactor's known
weakness is changing clean texts.

Written (issue 15, 2026-12-03, round 5) by an engineer who did not open the patterns (`gpurent/core/redaction/`),
did not read the tuning parts or their builders, did not run the redactor or `bench/redaction_recall.py` on these
texts and never saw which of them it misses or changes; the pattern author measures it once and never tunes on
it. Format as `build_heldout4.py`; wordings, tools and files are new: rclone/s3cmd/mc object-store configs,
`.netrc`, `pip.conf`/`.npmrc`/docker `config.json`, Jupyter and code-server, Celery/SQLAlchemy/Django settings,
SMTP app passwords, chat-bot and webhook tokens, tunnel tokens, Azure connection strings, service-account JSON,
and wallets (Solana keypairs, Ethereum keys in Hardhat/Foundry configs, BIP-39 seeds in four languages, WIF,
xprv). Negatives are in `heldout5_negatives.py`.

Run once: `.venv/bin/python -m tests.data.redaction_corpus.build_heldout5`; the output is committed.
The build checks itself (`checks.check_and_write`): every listed secret is in its text verbatim and at least 8 characters long,
ids and texts are unique, and the written files parse back to the same records.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, LOWER, URLSAFE, Fakes
from .heldout5_negatives import negatives
from .heldout5_negatives import wrap as _wrap

OUT = Path(__file__).resolve().parent / "heldout5"
DIGITS = "0123456789"
SEED = 5_20261203
Sample = tuple[str, list[str]]


def _ip(f: Fakes) -> str:
    return f"{f.rng.randint(40, 220)}.{f.rng.randint(1, 255)}.{f.rng.randint(1, 255)}.{f.rng.randint(2, 254)}"


def _pw(f: Fakes) -> str:
    """A password that needs no quoting in a shell or a URL."""
    style = f.rng.randrange(3)
    if style == 0:
        return (
            f.choice(["Karaköy", "Mekong", "Tibidabo", "lighthouse", "Rainier", "Quokka"]).replace("ö", "o")
            + f.pick(DIGITS, 4)
            + f.choice(["", "x", "_q"])
        )
    if style == 1:
        return f.pick(ALNUM, f.rng.randint(12, 20))
    return f.pick(ALNUM + "_.-", f.rng.randint(14, 24))


def pem(f: Fakes, label: str, lines: int = 8) -> tuple[str, list[str]]:
    body = [f.pick(B64, 64) for _ in range(lines)] + [f.pick(B64, f.rng.randint(24, 56)) + f.choice(["=", "==", ""])]
    return f"-----BEGIN {label}-----\n" + "\n".join(body) + f"\n-----END {label}-----", body[:-1]


def positives(f: Fakes) -> list[Sample]:
    out: list[Sample] = []

    def add(build: Callable[[], Sample], times: int = 3, lang: str = "en") -> None:
        for _ in range(times):
            text, secrets = build()
            out.append((_wrap(f, text, lang) if f.rng.random() < 0.6 else text, secrets))

    # --- object stores and file transfer -----------------------------------------------------------------------
    def rclone() -> Sample:
        key_id, secret = f.hex(32), f.hex(64)
        return (
            f"rclone copy fails with 403, here is ~/.config/rclone/rclone.conf:\n[r2]\ntype = s3\nprovider = Cloudflare\naccess_key_id = {key_id}\nsecret_access_key = {secret}\nendpoint = https://{f.hex(32)}.r2.cloudflarestorage.com",
            [key_id, secret],
        )

    def s3cmd() -> Sample:
        key_id, secret = "AKIA" + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), f.pick(B64, 40)
        return (
            f"s3cmd ls gives SignatureDoesNotMatch. My .s3cfg:\n[default]\naccess_key = {key_id}\nsecret_key = {secret}\nhost_base = s3.eu-central-1.amazonaws.com\nuse_https = True",
            [key_id, secret],
        )

    def minio_alias() -> Sample:
        user, secret = f.pick(ALNUM, 20), f.pick(ALNUM, 40)
        return (
            f"mc alias set lake http://{_ip(f)}:9000 {user} {secret}\nmc: <ERROR> Unable to initialize new alias from the provided credentials. Server not initialized yet.",
            [user, secret],
        )

    def rsync_pw() -> Sample:
        pw = _pw(f)
        return (
            f"RSYNC_PASSWORD={pw} rsync -avz /data/ckpt/ backup@{_ip(f)}::ckpts/run9/\n@ERROR: auth failed on module ckpts",
            [pw],
        )

    def lftp() -> Sample:
        pw = _pw(f)
        return (
            f"lftp -u datauser,{pw} sftp://{_ip(f)} -e 'mirror --parallel=8 /exports /data; quit'\nhangs at 'Connecting...'",
            [pw],
        )

    def smb() -> Sample:
        pw = _pw(f)
        return (
            f"Trying to mount our NAS on the instance: smbclient //{_ip(f)}/datasets -U labuser%{pw}\nprotocol negotiation failed: NT_STATUS_CONNECTION_RESET",
            [pw],
        )

    add(rclone, 4)
    add(s3cmd, 3)
    add(minio_alias, 3)
    add(rsync_pw, 3)
    add(lftp, 3)
    add(smb, 2)

    # --- login files and registries ----------------------------------------------------------------------------
    def netrc() -> Sample:
        key = f.hex(40)
        return (
            f"cat ~/.netrc\nmachine api.wandb.ai\n  login user\n  password {key}\nwandb still asks me to log in every time on the new box",
            [key],
        )

    def pip_conf() -> Sample:
        token = "pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 140)
        return (
            f"[global]\nindex-url = https://pypi.org/simple\nextra-index-url = https://__token__:{token}@pypi.internal.acme.example/simple\n\npip install hangs on the instance with this /etc/pip.conf",
            [token],
        )

    def npmrc() -> Sample:
        token = "npm_" + f.pick(ALNUM, 36)
        return (
            f"project .npmrc:\n@acme:registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={token}\nnpm ci → E401 Unable to authenticate",
            [token],
        )

    def docker_config() -> Sample:
        auth = base64.b64encode(f"{f.choice(['mlops', 'bot-ci'])}:{f.pick(ALNUM, 32)}".encode()).decode()
        return (
            '~/.docker/config.json on the instance:\n{\n  "auths": {\n    "registry.acme.example": {\n      "auth": "'
            + auth
            + '"\n    }\n  }\n}\nbut docker pull says unauthorized',
            [auth],
        )

    def gh_pip() -> Sample:
        token = "ghp_" + f.pick(ALNUM, 36)
        return (
            f"pip install git+https://{token}@github.com/acme/fused-kernels.git@v0.3\nfatal: could not read Username — is outbound github blocked on your network?",
            [token],
        )

    add(netrc, 4)
    add(pip_conf, 3)
    add(npmrc, 3)
    add(docker_config, 3)
    add(gh_pip, 4)

    # --- servers on the instance -------------------------------------------------------------------------------
    def jupyter_url() -> Sample:
        token = f.hex(48)
        return (
            f"    To access the server, open this file in a browser:\n        file:///root/.local/share/jupyter/runtime/jpserver-{f.rng.randint(100, 9999)}-open.html\n    Or copy and paste one of these URLs:\n        http://127.0.0.1:8888/lab?token={token}\nthe link does not open from my laptop",
            [token],
        )

    def code_server() -> Sample:
        pw = f.hex(24)
        return (
            f"~/.config/code-server/config.yaml\nbind-addr: 0.0.0.0:8443\nauth: password\npassword: {pw}\ncert: false\nport 8443 times out from outside",
            [pw],
        )

    def gradio_auth() -> Sample:
        pw = _pw(f)
        return (
            f'demo.launch(server_name="0.0.0.0", server_port=7860, auth=("admin", "{pw}"))\nthe public URL shows a blank page',
            [pw],
        )

    def vnc() -> Sample:
        pw = _pw(f)
        return f"x11vnc -display :1 -passwd {pw} -forever -rfbport 5901\nthe viewer connects then drops after 2 s", [pw]

    add(jupyter_url, 4)
    add(code_server, 3)
    add(gradio_auth, 3)
    add(vnc, 2)

    # --- application settings ----------------------------------------------------------------------------------
    def celery() -> Sample:
        pw = _pw(f)
        return (
            f'app = Celery("jobs", broker="amqp://worker:{pw}@{_ip(f)}:5672//", backend="rpc://")\nworkers on your GPUs never receive tasks',
            [pw],
        )

    def sqlalchemy() -> Sample:
        pw = _pw(f)
        return (
            f'engine = create_engine("mysql+pymysql://labeler:{pw}@{_ip(f)}:3306/annotations", pool_pre_ping=True)\nOperationalError (2013, Lost connection)',
            [pw],
        )

    def django_db() -> Sample:
        pw = _pw(f)
        return (
            f"DATABASES = {{\n    'default': {{\n        'ENGINE': 'django.db.backends.postgresql',\n        'NAME': 'inference',\n        'USER': 'svc',\n        'PASSWORD': '{pw}',\n        'HOST': '{_ip(f)}',\n    }}\n}}\nmigrate hangs from the instance",
            [pw],
        )

    def smtp() -> Sample:
        app_pw = " ".join(f.pick("abcdefghijklmnopqrstuvwxyz", 4) for _ in range(4))
        return (
            f'Training-done mail stopped working:\nserver = smtplib.SMTP_SSL("smtp.gmail.com", 465)\nserver.login("lab.alerts@gmail.com", "{app_pw}")\nsmtplib.SMTPAuthenticationError: (535, b\'5.7.8 Username and Password not accepted\')',
            [app_pw],
        )

    def redis_env() -> Sample:
        pw = f.pick(ALNUM, 32)
        return f"REDISCLI_AUTH={pw} redis-cli -h {_ip(f)} -p 6380 --tls ping\nError: Connection reset by peer", [pw]

    add(celery, 3)
    add(sqlalchemy, 3)
    add(django_db, 3)
    add(smtp, 3)
    add(redis_env, 2)

    # --- API keys in code and calls ----------------------------------------------------------------------------
    def openai_code() -> Sample:
        key = f"sk-proj-{f.pick(URLSAFE, 74)}T3BlbkFJ{f.pick(URLSAFE, 74)}"
        return (
            f'from openai import OpenAI\nclient = OpenAI(api_key="{key}", base_url="http://localhost:8000/v1")\n# talking to vLLM on the rented box, gets Connection refused',
            [key],
        )

    def hf_snapshot() -> Sample:
        token = "hf_" + f.pick(ALNUM, 34)
        return (
            f'snapshot_download("mistralai/Mistral-Small-24B-Instruct-2501", local_dir="/data/m", token="{token}")\nthe download stops at 61% every time',
            [token],
        )

    def anthropic_curl() -> Sample:
        key = f"sk-ant-api03-{f.pick(URLSAFE, 93)}AA"
        return (
            f'curl https://api.anthropic.com/v1/messages -H "x-api-key: {key}" -H "anthropic-version: 2023-06-01" -d @req.json\ncurl: (6) Could not resolve host from inside the container',
            [key],
        )

    def kaggle_json() -> Sample:
        key = f.hex(32)
        return (
            f'cat ~/.kaggle/kaggle.json\n{{"username":"{f.choice(["minhtran", "elifk", "jrossi"])}","key":"{key}"}}\nkaggle competitions download says 401',
            [key],
        )

    def wandb_docker() -> Sample:
        key = f.hex(40)
        return (
            f"docker run --gpus all -e WANDB_API_KEY={key} -e WANDB_PROJECT=sft ghcr.io/acme/train:latest\nwandb: ERROR Error while calling W&B API: permission denied",
            [key],
        )

    def comet_cfg() -> Sample:
        key = f.pick(ALNUM, 25)
        return f"~/.comet.config\n[comet]\napi_key={key}\nworkspace=vision-lab\nexperiments do not show up in the UI", [
            key
        ]

    def telegram() -> Sample:
        token = f"{f.rng.randint(10**9, 10**10 - 1)}:AA{f.pick(URLSAFE, 33)}"
        return (
            f'I notify myself when training ends:\nrequests.post(f"https://api.telegram.org/bot{token}/sendMessage", json={{"chat_id": CHAT, "text": "done"}})\nbut outbound 443 seems blocked on the instance',
            [token],
        )

    def discord_hook() -> Sample:
        secret = f.pick(URLSAFE, 68)
        return (
            f"WEBHOOK=https://discord.com/api/webhooks/{f.pick(DIGITS, 19)}/{secret}\ncurl -H 'Content-Type: application/json' -d '{{\"content\":\"epoch done\"}}' $WEBHOOK\n→ 000, no response",
            [secret],
        )

    def basic_auth() -> Sample:
        cred = base64.b64encode(f"grafana:{_pw(f)}".encode()).decode()
        return (
            f"curl -v http://{_ip(f)}:3000/api/dashboards\n> GET /api/dashboards HTTP/1.1\n> Authorization: Basic {cred}\n< HTTP/1.1 502 Bad Gateway",
            [cred],
        )

    add(openai_code, 4)
    add(hf_snapshot, 4)
    add(anthropic_curl, 3)
    add(kaggle_json, 3)
    add(wandb_docker, 4)
    add(comet_cfg, 2)
    add(telegram, 4)
    add(discord_hook, 3)
    add(basic_auth, 3)

    # --- tunnels, CI, clouds -----------------------------------------------------------------------------------
    def cloudflared() -> Sample:
        payload = json.dumps(
            {"a": f.hex(32), "t": f.uuid(), "s": base64.b64encode(f.raw(32)).decode()}, separators=(",", ":")
        )
        token = base64.b64encode(payload.encode()).decode()
        return f"sudo cloudflared service install {token}\nthe tunnel shows HEALTHY but the hostname returns 1033", [
            token
        ]

    def tailscale() -> Sample:
        key = f"tskey-auth-k{f.pick(ALNUM, 10)}CNTRL-{f.pick(ALNUM, 33)}"
        return (
            f"tailscale up --authkey={key} --hostname=gpurent-h100 --ssh\nbackend error: requires TUN device — can you enable /dev/net/tun?",
            [key],
        )

    def gitlab_runner() -> Sample:
        token = "glrt-" + f.pick(URLSAFE, 20)
        return (
            f"gitlab-runner register --non-interactive --url https://gitlab.com --token {token} --executor docker --docker-gpus all\nERROR: Verifying runner... is removed",
            [token],
        )

    def azure_conn() -> Sample:
        key = base64.b64encode(f.raw(64)).decode()
        return (
            f'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=labdata{f.pick(LOWER, 4)};AccountKey={key};EndpointSuffix=core.windows.net"\nazcopy hangs when copying to the instance',
            [key],
        )

    def gcp_sa() -> Sample:
        block, body = pem(f, "PRIVATE KEY", 10)
        escaped = block.replace("\n", "\\n")
        return (
            '{\n  "type": "service_account",\n  "project_id": "vision-lab-41",\n  "private_key_id": "'
            + f.hex(40)
            + '",\n  "private_key": "'
            + escaped
            + '\\n",\n  "client_email": "trainer@vision-lab-41.iam.gserviceaccount.com"\n}\nthat is the sa.json, gsutil says invalid_grant',
            body,
        )

    def aws_turkish() -> Sample:
        key_id, secret = "AKIA" + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), f.pick(B64, 40)
        return (
            f"S3'e yükleme yapamıyorum. ~/.aws/credentials dosyam şöyle:\n[egitim]\naws_access_key_id = {key_id}\naws_secret_access_key = {secret}\nHata: InvalidAccessKeyId",
            [key_id, secret],
        )

    add(cloudflared, 3)
    add(tailscale, 3)
    add(gitlab_runner, 3)
    add(azure_conn, 3)
    add(gcp_sa, 2)
    add(aws_turkish, 2, "tr")

    # --- passwords in prose --------------------------------------------------------------------------------------
    def prose_en() -> Sample:
        pw = _pw(f)
        return f.choice(
            [
                f"I set the root password of instance #{f.rng.randint(1000, 9999)} to {pw} and now SSH with password does not work, could you check?",
                f"My colleague can't log in to the shared box, user 'lab', password {pw} — did the image reset it?",
                f"For the debugging session you asked for: host {_ip(f)}, user ubuntu, pass: {pw}. Please tell me when you are done so I can change it.",
            ]
        ), [pw]

    def prose_es() -> Sample:
        pw = _pw(f)
        return (
            f"No puedo entrar por SSH. Usuario: root, contraseña: {pw}. ¿Pueden revisar si el servidor acepta contraseñas?",
            [pw],
        )

    def prose_vi() -> Sample:
        pw = _pw(f)
        return f"Em không vào được máy thuê, tài khoản ubuntu mật khẩu là {pw}, anh chị kiểm tra giúp em với.", [pw]

    def prose_tr() -> Sample:
        pw = _pw(f)
        return f"Sunucuya giremiyorum. Kullanıcı adı admin, şifre {pw} — yardımcı olabilir misiniz?", [pw]

    add(prose_en, 7)
    add(prose_es, 2, "es")
    add(prose_vi, 2, "vi")
    add(prose_tr, 2, "tr")

    # --- keys and wallets ----------------------------------------------------------------------------------------
    def ssh_cat() -> Sample:
        body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"] + [
            f.pick(B64, 70) for _ in range(4)
        ]
        block = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END OPENSSH PRIVATE KEY-----"
        return (
            f"$ cat ~/.ssh/id_ed25519\n{block}\nthis is the key I use, why does the box say Permission denied?",
            body[1:],
        )

    def ec_key() -> Sample:
        block, body = pem(f, "EC PRIVATE KEY", 3)
        return (
            f"$ openssl ecparam -name prime256v1 -genkey -noout -out tls.key && cat tls.key\n{block}\nnginx: [emerg] cannot load certificate key",
            body,
        )

    def hardhat() -> Sample:
        key = f.eth_key()
        return (
            f'networks: {{\n  base: {{\n    url: "https://mainnet.base.org",\n    accounts: ["0x{key}"],\n  }},\n}},\nnpx hardhat run deploy.ts --network base times out on your instance',
            [key],
        )

    def foundry() -> Sample:
        key = f.eth_key()
        return (
            f"forge script script/Deploy.s.sol --rpc-url $RPC --private-key 0x{key} --broadcast\nError: error sending request for url",
            [key],
        )

    def solana_json() -> Sample:
        kp = f.solana_keypair_json(spaced=f.rng.random() < 0.5)
        return f"cat ~/.config/solana/id.json\n{kp}\nsolana balance shows 0 but I paid from this wallet", [kp]

    def solana_b58() -> Sample:
        kp = f.solana_keypair_b58()
        return f.choice(
            [
                f"Phantom → Export Private Key gave me {kp}. Can you refund the SOL to this wallet?",
                f"Mi clave privada de Solflare es {kp}, ¿pueden verificar el pago desde ahí?",
            ]
        ), [kp]

    def seed_langs() -> Sample:
        phrase = f.seed_phrase(f.choice([12, 24]))
        return f.choice(
            [
                f"My recovery phrase is: {phrase}. I restored the wallet but the USDC deposit is not there.",
                f"Mi frase semilla: {phrase}\n¿Pueden comprobar en qué dirección cayó el pago?",
                f"Cụm từ khôi phục ví của em: {phrase} — em gửi để anh chị kiểm tra giao dịch.",
                f"Cüzdan kurtarma kelimelerim: {phrase}. Ödemem görünmüyor.",
            ]
        ), [phrase]

    def seed_grid() -> Sample:
        words = f.seed_phrase(12).split()
        grid = "\n".join(" ".join(f"{i + 1}.{w}" for i, w in enumerate(words) if i // 3 == row) for row in range(4))
        secrets = [" ".join(f"{i + 1}.{w}" for i, w in enumerate(words) if i // 3 == row) for row in range(4)]
        return f"Screenshot of my backup card, typed out:\n{grid}\nwallet shows empty after restore", secrets

    def wif_import() -> Sample:
        key = f.wif()
        return (
            f'bitcoin-cli -rpcwallet=pay importprivkey "{key}" "gpurent" false\nerror code: -4 — how do I pay from a legacy wallet?',
            [key],
        )

    def xprv_prose() -> Sample:
        key = f.xprv()
        return f"Electrum master private key (I need the refund to go to this wallet): {key}", [key]

    add(ssh_cat, 3)
    add(ec_key, 2)
    add(hardhat, 3)
    add(foundry, 3)
    add(solana_json, 3)
    add(solana_b58, 4)
    add(seed_langs, 6)
    add(seed_grid, 2)
    add(wif_import, 2)
    add(xprv_prose, 2)
    return out


def main() -> None:
    fakes = Fakes(seed=SEED)
    pos = positives(fakes)
    neg = negatives(fakes)
    check_and_write(OUT, "h5", pos, neg)


if __name__ == "__main__":
    main()

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 9, clean look-alikes (2 of 4): wallets, public keys and certificates, placeholders, masked values,
references to where a secret lives, base64 data and documented public examples.
"""

from __future__ import annotations

from .heldout9_clean import LANG4, ask
from .heldout9_gen import ALNUM, DIGITS, LOWER, UPPER, Gen
from .heldout9_pairs import _hi

JWT_IO = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
JWT_RFC = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
PAY = {
    "en": "I paid the invoice but the balance is still 0.",
    "es": "Pagué la factura pero el saldo sigue en 0.",
    "vi": "Em đã thanh toán nhưng số dư vẫn bằng 0.",
    "tr": "Faturayı ödedim ama bakiye hâlâ 0.",
}


def wallets(g: Gen) -> list[str]:
    out: list[str] = []
    for k in range(6):
        lang = LANG4[k % 4]
        out.append(
            f"{_hi(g, lang)}{PAY[lang]}\nBTC sent to {g.btc_address()}\ntxid {g.hex(64)}\n{g.n(1, 6)} confirmations on mempool.space. {ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[(k + 1) % 4]
        out.append(
            f"{_hi(g, lang)}{PAY[lang]}\nFrom: {g.eth_address()}\nTo: {g.eth_address()}\nTx: https://etherscan.io/tx/0x{g.hex(64)}\nBlock {g.n(19_000_000, 21_000_000)}, USDC 250.00. {ask(g, lang)}"
        )
    for k in range(5):
        lang = LANG4[(k + 2) % 4]
        out.append(
            f"{_hi(g, lang)}{PAY[lang]}\nSolana wallet {g.sol_address()}, signature {g.sol_signature()} (finalized). {ask(g, lang)}"
        )
    for k in range(4):
        lang = LANG4[(k + 3) % 4]
        out.append(
            f"{_hi(g, lang)}{PAY[lang]}\nUSDT TRC20 from {g.tron_address()} to {g.tron_address()}\nTXID: {g.hex(64)}\n{ask(g, lang)}"
        )
    for k in range(5):
        lang = LANG4[k % 4]
        key = g.zpub() if k % 2 else g.xpub()
        fp = g.hex(8)
        body = g.choice(
            [
                f"Watch-only wallet for payouts, extended public key:\n{key}",
                f"Descriptor I imported into Sparrow (public only):\nwpkh([{fp}/84h/0h/0h]{key}/0/*)#{g.pick(LOWER + DIGITS, 8)}",
                f"BTCPay store derivation scheme: {key}\nit generates addresses but payouts do not show.",
            ]
        )
        out.append(f"{_hi(g, lang)}{body}\n{ask(g, lang)}")
    for k in range(3):
        lang = LANG4[(k + 1) % 4]
        out.append(
            f'{_hi(g, lang)}To prove I own the payout address I signed the message "gpurent payout {g.n(1000, 9999)}":\naddress: {g.eth_address()}\nsignature: 0x{g.hex(130)}\n{ask(g, lang)}'
        )
    for k in range(2):
        lang = LANG4[(k + 2) % 4]
        out.append(
            f"{_hi(g, lang)}Raw transaction I broadcast (decoded fine in the explorer):\n02000000000101{g.hex(64)}0000000000fdffffff02{g.hex(60)}\n{ask(g, lang)}"
        )
    return out


def public_keys(g: Gen) -> list[str]:
    out: list[str] = []
    for k in range(6):
        lang = LANG4[k % 4]
        keys = "\n".join(
            [
                g.ssh_ed25519_pub() + " ana@laptop",
                "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + g.pick(ALNUM + "+/", 500) + " ci@runner",
            ][: 1 + k % 2]
        )
        out.append(
            f"{_hi(g, lang)}My ~/.ssh/authorized_keys on the instance:\n{keys}\nbut ssh still says Permission denied (publickey). {ask(g, lang)}"
        )
    for k in range(3):
        lang = LANG4[(k + 1) % 4]
        body = "\n".join(g.b64lines(600))
        out.append(
            f"{_hi(g, lang)}Our release signing key (public) for verifying the container images:\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBG{body[6:]}\n={g.b64(3)}\n-----END PGP PUBLIC KEY BLOCK-----\n{ask(g, lang)}"
        )
    for k in range(4):
        lang = LANG4[(k + 2) % 4]
        body = "\n".join(g.b64lines(900))
        out.append(
            f"{_hi(g, lang)}The CA certificate of our proxy (curl fails with 'self signed certificate in certificate chain'):\n-----BEGIN CERTIFICATE-----\nMIID{body[4:]}\n-----END CERTIFICATE-----\n{ask(g, lang)}"
        )
    for k in range(4):
        lang = LANG4[(k + 3) % 4]
        body = g.choice(
            [
                f"WireGuard peer to add on your side (public key only):\n[Peer]\nPublicKey = {g.b64(32)}\nAllowedIPs = 10.7.0.{g.n(2, 250)}/32",
                f"age public key for the encrypted dataset: age1{g.pick('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
                f"minisign public key of our model releases:\nRW{g.b64(40)[:54]}",
                f"Tailscale node key shown in the admin page: nodekey:{g.hex(64)}",
            ]
        )
        out.append(f"{_hi(g, lang)}{body}\n{ask(g, lang)}")
    return out


def placeholders_and_masks(g: Gen) -> list[str]:
    out: list[str] = []
    env_examples = [
        "HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nWANDB_API_KEY=your_wandb_api_key_here\nOPENAI_API_KEY=sk-...",
        "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX\nAWS_SECRET_ACCESS_KEY=<your-secret-access-key>\nAWS_DEFAULT_REGION=us-east-1",
        "DATABASE_URL=postgres://user:password@localhost:5432/app\nREDIS_URL=redis://localhost:6379/0\nSECRET_KEY=change-me",
        "ANTHROPIC_API_KEY=\nGROQ_API_KEY=\nMISTRAL_API_KEY=\n# fill these in, never commit them",
        "NGROK_AUTHTOKEN=<paste from dashboard.ngrok.com>\nJUPYTER_TOKEN=CHANGE_ME\nADMIN_PASSWORD=REPLACE_ME",
        "KAGGLE_USERNAME=your-username\nKAGGLE_KEY=0000000000000000000000000000000\nCOMET_API_KEY=YOUR-COMET-KEY",
    ]
    for k, body in enumerate(env_examples):
        lang = LANG4[k % 4]
        out.append(
            f"{_hi(g, lang)}This is the .env.example from the repo I cloned on the instance:\n{body}\nWhich of these do I need for inference only? {ask(g, lang)}"
        )
    masked = [
        f"$ aws configure\nAWS Access Key ID [****************{g.pick(UPPER + '234567', 4)}]:\nAWS Secret Access Key [****************{g.pick(ALNUM, 4)}]:\nDefault region name [eu-west-1]:",
        f"huggingface-cli whoami\n{g.choice(['anaruiz', 'minh-t', 'elif'])}\norgs:  acme-ml\n(token hf_****{g.pick(ALNUM, 4)}, role: read)",
        'GitHub Actions log:\nRun docker login -u acme -p ***\nLogin Succeeded\nRun echo "HF_TOKEN=***" >> $GITHUB_ENV',
        f"The dashboard shows my key as sk-proj-…{g.pick(ALNUM, 4)} (created {g.date()}), is it still valid?",
        "wandb: W&B API key is configured. Use `wandb login --relogin` to force relogin\nwandb: API key: ****************************************",
        'psql "host=db.lab.example user=trainer password=******** dbname=metrics"\npsql: error: FATAL: password authentication failed for user "trainer"',
        'docker inspect shows: "Env": ["HF_TOKEN=[REDACTED]", "NVIDIA_VISIBLE_DEVICES=all", "CUDA_VERSION=12.4.1"]',
        "kubectl describe secret hf-credentials\nName:         hf-credentials\nType:  Opaque\n\nData\n====\nHF_TOKEN:      37 bytes\nDB_PASSWORD:   16 bytes",
        f"Your API key was rotated. Old key: ak_live_…{g.pick(DIGITS, 4)} (revoked). New key: shown once in the console.",
        "Stripe says: Invalid API Key provided: sk_live_*********************abcd",
    ]
    for k, body in enumerate(masked):
        lang = LANG4[(k + 1) % 4]
        out.append(f"{_hi(g, lang)}{body}\n{ask(g, lang)}")
    refs = [
        'docker run --gpus all -e HF_TOKEN=$HF_TOKEN -e WANDB_API_KEY="${WANDB_API_KEY}" trainer:latest',
        "env:\n  - name: OPENAI_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: llm-keys\n        key: openai",
        '- name: Login to GHCR\n  run: echo "${{ secrets.GHCR_TOKEN }}" | docker login ghcr.io -u ${{ github.actor }} --password-stdin',
        "from google.colab import userdata\nlogin(token=userdata.get('HF_TOKEN'))",
        'api_key = os.environ["ANTHROPIC_API_KEY"]\nclient = anthropic.Anthropic(api_key=api_key)',
        'export WANDB_API_KEY=$(op read "op://ML/wandb/credential")\nexport HF_TOKEN=$(aws secretsmanager get-secret-value --secret-id ml/hf --query SecretString --output text)',
        "PGPASSFILE=/run/secrets/pgpass psql -h db -U trainer metrics",
        'cat ~/.ghcr_token | docker login ghcr.io -u acme --password-stdin\nError response from daemon: Get "https://ghcr.io/v2/": denied',
        "mlflow:\n  tracking_uri: https://mlflow.lab.example\n  password: !ENV ${MLFLOW_TRACKING_PASSWORD}",
        "[default]\naws_access_key_id = {{ vault_aws_access_key_id }}\naws_secret_access_key = {{ vault_aws_secret_access_key }}",
        "sshpass -f ~/.ssh/rental_pass ssh -p 22022 root@gpu-17.example -i ~/.ssh/id_ed25519",
        "rclone config create s3data s3 provider=AWS env_auth=true region=eu-west-1",
    ]
    for k, body in enumerate(refs):
        lang = LANG4[(k + 2) % 4]
        out.append(f"{_hi(g, lang)}{body}\n{ask(g, lang)}")
    return out


def blobs_and_examples(g: Gen) -> list[str]:
    out: list[str] = []
    for k in range(5):
        lang = LANG4[k % 4]
        png = "iVBORw0KGgoAAAANSUhEUgAA" + g.b64(180 + 30 * k).rstrip("=")
        body = g.choice(
            [
                f'<img src="data:image/png;base64,{png}" alt="loss curve">',
                f'"outputs": [{{"data": {{"image/png": "{png}", "text/plain": ["<Figure size 640x480 with 1 Axes>"]}}, "output_type": "display_data"}}]',
                f'payload = {{"init_images": ["data:image/png;base64,{png}"], "denoising_strength": 0.55}}',
            ]
        )
        out.append(f"{_hi(g, lang)}{body}\n{ask(g, lang)}")
    for k in range(3):
        lang = LANG4[(k + 1) % 4]
        out.append(
            f"{_hi(g, lang)}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tokenizer-files\nbinaryData:\n  merges.txt.gz: H4sIAAAAAAAAA{g.b64(150)}\n{ask(g, lang)}"
        )
    for k in range(2):
        lang = LANG4[(k + 2) % 4]
        out.append(f"{_hi(g, lang)}Audio sample for the Whisper bug (base64 wav): UklGR{g.b64(120)}\n{ask(g, lang)}")
    out.append(
        f"{_hi(g, 'en')}Your docs say to test the auth middleware with the example token from jwt.io:\nAuthorization: Bearer {JWT_IO}\nI get 401 instead of 'invalid signature', is that expected?"
    )
    out.append(
        f"{_hi(g, 'es')}Para la prueba usé el ejemplo de la RFC 7519, sección 3.1: {JWT_RFC}\nMi decodificador dice que el header tiene saltos de línea, ¿es normal?"
    )
    out.append(
        f'{_hi(g, "tr")}jwt.io sitesindeki örnek token\'ı ("John Doe") decode ettim:\n{JWT_IO}\n→ {{"sub": "1234567890", "name": "John Doe", "iat": 1516239022}}\nbizim API\'de neden farklı?'
    )
    out.append(
        f"{_hi(g, 'en')}The AWS docs example pair, in the same layout as our wiki: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY — the tutorial says to replace it, which field do I put mine in on your dataset page?"
    )
    out.append(
        f"{_hi(g, 'vi')}Trong tài liệu AWS có ví dụ:\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nem chép y như vậy thì bị InvalidAccessKeyId, đúng không ạ?"
    )
    return out

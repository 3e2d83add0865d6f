# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 9, texts with secrets (1 of 3): AWS key pairs with nothing between id and secret, and seed phrases.

Only the secret access key (and a session token) is listed for an AWS pair; the key id names the key. A seed
phrase is listed as the block the customer wrote, numbering and separators included.
"""

from __future__ import annotations

from .heldout9_gen import JAPANESE, Gen

Sample = tuple[str, list[str]]

HELLO = {
    "en": ["Hi,", "Hello support,", "Hey team,", "Good morning,", ""],
    "es": ["Hola,", "Buenas tardes,", "Hola equipo de soporte,", "Buenos días:", ""],
    "vi": ["Chào bạn,", "Xin chào đội hỗ trợ,", "Chào admin,", "Dạ em chào anh chị,", ""],
    "tr": ["Merhaba,", "İyi günler,", "Selam destek ekibi,", "Merhabalar,", ""],
}


def _hi(g: Gen, lang: str) -> str:
    hello = g.choice(HELLO[lang])
    return hello + "\n" if hello else ""


def aws_pairs(g: Gen) -> list[Sample]:
    out: list[Sample] = []

    def pair() -> tuple[str, str]:
        return g.aws_id(), g.aws_secret()

    bucket = g.choice(["ml-ckpt-archive", "datasets-raw-eu", "train-logs-7", "llm-weights-prod", "sd-outputs"])
    layouts = [
        lambda i, s: (
            f"{_hi(g, 'en')}The s3 sync from the instance fails with AccessDenied. Keys I'm using: {i} / {s} — bucket {bucket}, region eu-west-1.",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'en')}creds for the backup job (please don't share):\n{i}\n{s}\n\nThe cron on gpu box 3 runs `aws s3 cp` every night and it stopped working.",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'es')}Estoy intentando montar el bucket {bucket} con s3fs y me da 403. Mi archivo ~/.passwd-s3fs tiene:\n{i}:{s}\ny los permisos son 600.",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'vi')}Em dùng key này để tải dataset từ S3 về máy thuê: {i} {s} nhưng tốc độ chỉ 20MB/s, có cách nào nhanh hơn không ạ?",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'tr')}S3'ten checkpoint indiremiyorum. Anahtar çifti: {i}\t{s}\nBölge us-east-2. Nerede hata yapıyorum?",
            [s],
        ),
        lambda i, s: (
            f"Downloaded credentials.csv from the console, contents:\n\nAccess key ID,Secret access key\n{i},{s}\n\nthen ran aws configure and pasted them, still InvalidClientTokenId",
            [s],
        ),
        lambda i, s: (
            f"```python\nimport boto3\nsession = boto3.Session('{i}', '{s}', region_name='us-west-2')\ns3 = session.client('s3')\ns3.download_file('{bucket}', 'ckpt/step_12000.pt', '/workspace/step_12000.pt')\n```\nthis hangs forever on the rented H100",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'en')}MinIO client on the node:\n```\nfrom minio import Minio\nclient = Minio('s3.amazonaws.com', '{i}', '{s}', secure=True)\n```\nraises SignatureDoesNotMatch.",
            [s],
        ),
        lambda i, s: (
            f"$ mc alias set aws https://s3.amazonaws.com {i} {s}\nmc: <ERROR> Unable to initialize new alias from the provided credentials. The request signature we calculated does not match.",
            [s],
        ),
        lambda i, s: (
            f'{_hi(g, "es")}Pego mi configuración de Terraform por si ayuda:\n\nprovider "aws" {{\n  region = "eu-central-1"\n}}\n# claves: {i} {s}\n\nEl plan falla al crear la instancia.',
            [s],
        ),
        lambda i, s: (
            f"| key | value |\n|---|---|\n| {i} | {s} |\n\n^ that's the IAM user for the training bucket, can your team check why uploads time out?",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'vi')}Thông tin truy cập S3 của công ty em:\n- {i}\n- {s}\nMáy GPU không đọc được bucket {bucket}.",
            [s],
        ),
        lambda i, s: (
            f'{_hi(g, "tr")}Kodda şöyle yazdım:\nconst creds = new AWS.Credentials("{i}", "{s}");\nama Lambda\'dan çağırınca \'The security token included in the request is invalid\' diyor.',
            [s],
        ),
        lambda i, s: (
            f'BasicAWSCredentials awsCreds = new BasicAWSCredentials("{i}", "{s}");\n\nJava SDK v1 on your Ubuntu 22.04 image, the upload of 40 GB shards dies at ~5 GB',
            [s],
        ),
        lambda i, s: (
            f'{_hi(g, "en")}Go snippet from our uploader:\ncfg.Credentials = credentials.NewStaticCredentials("{i}", "{s}", "")\nNo error, but nothing lands in the bucket.',
            [s],
        ),
        lambda i, s: (
            f"aws iam create-access-key --user-name trainer --output text\nACCESSKEY\t{i}\t2027-03-14T09:12:55+00:00\t{s}\tActive\ttrainer\n\nthe new key works on my laptop but not on the rented machine",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'es')}Las credenciales que me dio el cliente son ({i}, {s}) y con ellas el `aws s3 ls` funciona en mi portátil pero no en la GPU alquilada.",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'en')}rclone remote created with the wizard, then I realised the obscure step didn't apply to keys. For reference they are {i} + {s}. Listing gives 403.",
            [s],
        ),
        lambda i, s: (
            f'{_hi(g, "tr")}Ekip arkadaşım şunu gönderdi: "{i} {s}" — bunu nereye yazmam gerekiyor? ~/.aws/credentials mı?',
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'vi')}Em để key trong notebook như sau:\n\nKEYS = [\"{i}\", \"{s}\"]\nos.environ['AWS_DEFAULT_REGION'] = 'ap-southeast-1'\n\nrồi gọi boto3 nhưng lỗi NoCredentialsError.",
            [s],
        ),
        lambda i, s: (
            f"s3://{i}:{s}@{bucket}/shards/\n^ this is the URL format our old loader expects, is it still supported by your dataset mount feature?",
            [s],
        ),
        lambda i, s: (
            f"{_hi(g, 'en')}key pair>> {i}  {s}\n(sorry for the formatting, copied from my password manager)\nNeed it on the new rental, how do I set it as an environment variable?",
            [s],
        ),
        lambda i, s: (
            f'{_hi(g, "es")}Mi ~/.bash_history:\n  501  export AWS_DEFAULT_REGION=us-east-1\n  502  aws configure set default.s3.max_concurrent_requests 64\n  503  echo "{i} {s}" > ~/keys.txt\n  504  aws s3 sync s3://{bucket} /data\n¿por qué tarda tanto?',
            [s],
        ),
        lambda i, s: (
            f"backup.sh:\n#!/bin/bash\n# {i}:{s}\nrestic -r s3:s3.amazonaws.com/{bucket} backup /workspace/checkpoints\n\nrestic says 'Fatal: unable to open config file: Stat: Access Denied.'",
            [s],
        ),
    ]
    for layout in layouts:
        identifier, secret = pair()
        out.append(layout(identifier, secret))
    # a temporary key with its session token right after it
    for lang in ("en", "tr", "es"):
        identifier, secret, token = g.aws_id("ASIA"), g.aws_secret(), g.aws_session()
        note = {
            "en": "SSO temp creds, expire in an hour:",
            "tr": "Geçici SSO kimlik bilgileri (1 saat geçerli):",
            "es": "Credenciales temporales de SSO (caducan en 1 hora):",
        }[lang]
        out.append((f"{_hi(g, lang)}{note}\n{identifier}\n{secret}\n{token}\n", [secret, token]))
    # two pairs in one message
    (i1, s1), (i2, s2) = pair(), pair()
    out.append(
        (
            f"{_hi(g, 'en')}We have two accounts, old and new:\nold: {i1} {s1}\nnew: {i2} {s2}\nwhich one should the dataset mount use?",
            [s1, s2],
        )
    )
    (i1, s1), (i2, s2) = pair(), pair()
    out.append(
        (
            f"{_hi(g, 'vi')}dev {i1}/{s1}\nprod {i2}/{s2}\nEm cần cấu hình cả hai trên máy thuê, có được không ạ?",
            [s1, s2],
        )
    )
    # a pair with its labels, for contrast
    identifier, secret = pair()
    out.append(
        (
            f"[default]\naws_access_key_id = {identifier}\naws_secret_access_key = {secret}\nregion = us-east-1\n\n^ my ~/.aws/credentials on the rental, the CLI says the key does not exist",
            [secret],
        )
    )
    identifier, secret = pair()
    out.append(
        (
            f"{_hi(g, 'tr')}AWS_ACCESS_KEY_ID={identifier} AWS_SECRET_ACCESS_KEY={secret} python train.py --resume s3://{bucket}/last.ckpt\nbu komut neden yavaş?",
            [secret],
        )
    )
    identifier, secret = pair()
    out.append((f"{_hi(g, 'es')}key id {identifier}, y justo después el secreto que me dio IAM: {secret}", [secret]))
    return out


def _numbered(words: list[str], style: str) -> str:
    if style == "lines":
        return "\n".join(f"{k}. {w}" for k, w in enumerate(words, 1))
    if style == "paren":
        return " ".join(f"{k}) {w}" for k, w in enumerate(words, 1))
    if style == "grid":
        rows = [words[r : r + 4] for r in range(0, len(words), 4)]
        return "\n".join(
            "  ".join(f"{r * 4 + c + 1:>2} {w:<10}".rstrip() for c, w in enumerate(row)) for r, row in enumerate(rows)
        )
    if style == "comma":
        return ", ".join(words)
    if style == "newline":
        return "\n".join(words)
    if style == "dash":
        return " - ".join(words)
    return " ".join(words)


SEED_TEMPLATES = [
    (
        "en",
        "{hi}I rented a GPU to mine and set up the payout wallet. The wallet gave me this recovery phrase, is it safe to keep it in the instance notes?\n\n{p}\n\nThe payout still goes to the old address.",
    ),
    (
        "en",
        "{hi}Someone drained my wallet after I used your Jupyter template. My seed words were:\n{p}\nDid anyone from your side have access to the machine?",
    ),
    (
        "es",
        "{hi}Mi frase semilla (la escribí en el notebook para no perderla):\n{p}\n¿Alguien puede haberla visto en el volumen compartido?",
    ),
    (
        "es",
        "{hi}Para la recompensa del minado configuré un monedero nuevo. Estas son las palabras de recuperación que me dio la app: {p}. ¿Cómo pongo la dirección en vuestro panel?",
    ),
    (
        "vi",
        "{hi}Em lỡ dán cụm từ khôi phục ví vào ticket trước, giờ dán lại cho đúng thứ tự:\n{p}\nNhờ anh chị kiểm tra giúp vì sao ví không nhận được tiền hoàn.",
    ),
    ("vi", "{hi}Ví của em (các từ bí mật): {p} — em đã nạp USDT nhưng số dư chưa cập nhật."),
    (
        "tr",
        "{hi}Cüzdan kurtarma kelimelerim şunlar:\n{p}\nYeni cihazda içe aktarınca bakiye sıfır görünüyor, ödemem nereye gitti?",
    ),
    ("tr", "{hi}Gizli kurtarma ifadem: {p}\nBunu yazdıktan sonra cüzdan açıldı ama kiralama ödemesi görünmüyor."),
    (
        "en",
        'hardhat.config.js on the rented box:\n\nmodule.exports = {{\n  networks: {{\n    sepolia: {{\n      url: process.env.RPC_URL,\n      accounts: {{ mnemonic: "{p}" }}\n    }}\n  }}\n}};\n\nnpx hardhat compile is extremely slow, is the CPU throttled?',
    ),
    ("en", '{hi}.env from my bot:\nRPC_URL=http://127.0.0.1:8545\nMNEMONIC="{p}"\nGAS_LIMIT=300000'),
    (
        "es",
        "{hi}En el script de despliegue tengo:\n\nconst wallet = ethers.Wallet.fromPhrase(\"{p}\");\n\ny al correrlo en la instancia dice 'invalid mnemonic'. ¿Falta algún paquete?",
    ),
    (
        "vi",
        '$ cast wallet import deployer --mnemonic "{p}"\nEnter password:\nError: keystore directory is not writable\n\nAnh ơi máy thuê không cho ghi vào ~/.foundry à?',
    ),
    (
        "tr",
        "{hi}Solana cüzdanını geri yüklemek için solana-keygen recover çalıştırdım, istediği seed phrase'i girdim:\n{p}\nama farklı bir adres çıktı.",
    ),
    (
        "en",
        "{hi}backup of my wallet in case the instance dies (writing it here because the ticket is private, right?)\n\n{p}",
    ),
    ("es", "{hi}Copio la frase de recuperación de Electrum por si sirve para verificar la transacción:\n{p}"),
    (
        "en",
        "seed.txt in /workspace:\n{p}\n\n(this is what the miner's wallet wizard wrote, I want to move it off the rented disk before I stop the instance)",
    ),
]


def seed_phrases(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    plan = [
        ("en", 12, "plain"),
        ("en", 24, "lines"),
        ("en", 15, "comma"),
        ("en", 18, "grid"),
        ("es", 12, "plain"),
        ("es", 24, "grid"),
        ("es", 12, "lines"),
        ("es", 18, "paren"),
        ("es", 15, "plain"),
        ("es", 12, "comma"),
        ("fr", 12, "plain"),
        ("fr", 24, "lines"),
        ("fr", 15, "newline"),
        ("fr", 18, "comma"),
        ("it", 12, "plain"),
        ("it", 24, "paren"),
        ("it", 18, "lines"),
        ("it", 15, "dash"),
        ("pt", 12, "plain"),
        ("pt", 24, "grid"),
        ("pt", 15, "comma"),
        ("pt", 18, "lines"),
        ("cs", 12, "plain"),
        ("cs", 24, "lines"),
        ("cs", 18, "comma"),
        ("cs", 15, "plain"),
        ("ko", 12, "plain"),
        ("ko", 24, "lines"),
        ("ko", 15, "comma"),
        ("ko", 18, "plain"),
        ("zh", 12, "plain"),
        ("zh", 24, "grid"),
        ("zh", 15, "comma"),
        ("zh", 18, "lines"),
        ("zh_tw", 12, "plain"),
        ("zh_tw", 24, "plain"),
        ("zh_tw", 12, "lines"),
        ("en", 12, "newline"),
        ("en", 24, "plain"),
        ("it", 12, "comma"),
        ("cs", 12, "paren"),
        ("pt", 12, "dash"),
    ]
    for number, (lang, words, style) in enumerate(plan):
        phrase = g.seed(lang, words).split(" ")
        if lang == "es" and number == 8:  # typed without accents, as on a keyboard without them
            phrase = [w.translate(str.maketrans("áéíóú", "aeiou")) for w in phrase]
        if lang == "fr" and style == "newline":
            phrase = [w.upper() for w in phrase]
        block = _numbered(phrase, style)
        write_lang, template = SEED_TEMPLATES[number % len(SEED_TEMPLATES)]
        out.append((template.format(hi=_hi(g, write_lang), p=block), [block]))
    # Japanese, drawn with `mnemonic` (ideographic spaces; one retyped with ordinary spaces, one numbered)
    jp = [
        (
            "tr",
            JAPANESE[0],
            "Japon arkadaşımın kurduğu cüzdanın kurtarma ifadesi:\n{p}\nBununla ödeme yapılan cüzdanı açabilir miyim?",
        ),
        (
            "en",
            JAPANESE[1].replace("\u3000", " "),
            "{hi}My Japanese wallet app (ビットフライヤー) shows this backup phrase; I retyped it with normal spaces:\n{p}\nCan I use it on your payout page?",
        ),
        (
            "es",
            JAPANESE[2],
            "{hi}Frase de recuperación (japonés, 18 palabras) de la billetera con la que pagué:\n{p}\n",
        ),
        (
            "vi",
            JAPANESE[3],
            "{hi}Đây là cụm từ khôi phục ví (tiếng Nhật, 24 từ) em dùng để thanh toán:\n{p}\nSao giao dịch bị treo vậy ạ?",
        ),
        (
            "en",
            _numbered(JAPANESE[4].split("\u3000"), "lines"),
            "{hi}復元フレーズ (recovery phrase) of my wallet:\n{p}\nthe deposit did not arrive.",
        ),
        ("tr", JAPANESE[5], "{hi}cüzdan yedeği (24 kelime, Japonca):\n{p}"),
    ]
    for lang, block, template in jp:
        out.append((template.format(hi=_hi(g, lang), p=block), [block]))
    return out

# ruff: noqa: E501  (one realistic phrase per line reads better than wrapped ones)
"""Fake values and the customer's words around them, for the EIGHTH held-out part (`build_heldout8.py`).

Token shapes follow the published rule sets (gitleaks `config/gitleaks.toml`, trufflehog `pkg/detectors`) and the
files the tools write; every value is drawn from a seeded generator, so none is, or ever was, a credential anyone
issued. The wrappers are the first and last lines of a support message in English, Spanish, Vietnamese or Turkish;
texts with and without secrets use the same ones, so they say nothing about which is which.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid

LETTERS = string.ascii_letters
ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
LOWER = string.ascii_lowercase + string.digits
HEXCHARS = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
LANGS = ("en", "es", "vi", "tr")


class Gen:
    """A seeded source of random characters, numbers and choices."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)  # noqa: S311 (fake test data, not cryptography)

    def pick(self, alphabet: str, length: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(length))

    def choice(self, items):
        return self.rng.choice(items)

    def num(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def raw(self, length: int) -> bytes:
        return bytes(self.rng.randrange(256) for _ in range(length))

    def hex(self, length: int) -> str:
        return self.pick(HEXCHARS, length)

    def uuid(self) -> str:
        return str(uuid.UUID(bytes=self.raw(16), version=4))

    def lang(self) -> str:
        return self.choice(("en", "en", "es", "vi", "tr"))

    def ip(self) -> str:
        return f"{self.num(38, 212)}.{self.num(1, 254)}.{self.num(0, 254)}.{self.num(2, 254)}"

    def host(self) -> str:
        return self.choice(
            [self.ip(), f"gpu{self.num(1, 64)}.fra.gpurent.example", f"node-{self.pick(LOWER, 5)}.ams.gpurent.example"]
        )

    def user(self) -> str:
        return self.choice(["root", "ubuntu", "trainer", "mlops", "lucia", "minh", "deniz", "svc-train", "research"])

    def password(self) -> str:
        """A password as people choose them, safe to put in a URL."""
        style = self.num(0, 3)
        if style == 0:
            return (
                self.choice(["Bosphorus", "Hanoi", "Sevilla", "Kartal", "Lotus", "Pamplona", "Mekong"])
                + str(self.num(1970, 2025))
                + self.choice(["x", "Zq", "_9", ""])
            )
        if style == 1:
            return self.pick(ALNUM, self.num(12, 20))
        if style == 2:
            return self.pick(ALNUM + "-_.", self.num(14, 24))
        return (
            self.choice(["gpuRig", "Anadolu", "saigon", "Valencia", "kedi"])
            + self.pick(string.digits, 4)
            + self.choice(["Qx", "Tz", "Lm"])
        )

    def symbol_password(self) -> str:
        """A password with symbols, for files and prompts (not URLs)."""
        return (
            self.pick(ALNUM, self.num(6, 10))
            + self.choice("!#%&*@^")
            + self.pick(ALNUM, self.num(4, 8))
            + self.choice("!#%&*@^?")
        )


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# --- shapes --------------------------------------------------------------------------------------------------------


def aws_id(g: Gen, temporary: bool = False) -> str:
    return ("ASIA" if temporary else "AKIA") + g.pick(BASE32, 16)


def aws_secret(g: Gen, plain: bool = False) -> str:
    """40 base64 characters; `plain` leaves out `+` and `/` (a key that could sit in a URL unescaped)."""
    return g.pick(ALNUM if plain else B64, 40)


def aws_session_token(g: Gen) -> str:
    return "IQoJb3JpZ2luX2Vj" + g.pick(B64, g.num(330, 420))


def hf_token(g: Gen) -> str:
    return "hf_" + g.pick(LETTERS, 34)


def openai_key(g: Gen) -> str:
    return f"sk-{g.choice(['proj', 'proj', 'svcacct'])}-{g.pick(URLSAFE, 74)}T3BlbkFJ{g.pick(URLSAFE, 74)}"


def anthropic_key(g: Gen) -> str:
    return "sk-ant-api03-" + g.pick(URLSAFE, 93) + "AA"


def telegram_secret(g: Gen) -> tuple[str, str]:
    """(bot id, secret part): a bot token is `<bot id>:<secret>`; the bot id is the bot's public user id."""
    return str(g.num(10**8, 8 * 10**9)), "AA" + g.pick(URLSAFE, 33)


def github_pat(g: Gen) -> str:
    if g.num(0, 2) == 0:
        return f"github_pat_11{g.pick(UPPER, 20)}_{g.pick(ALNUM, 59)}"
    return "ghp_" + g.pick(ALNUM, 36)


def jwt(g: Gen, claims: dict[str, object]) -> str:
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{header}.{body}.{g.pick(URLSAFE, 43)}"


def pem_lines(g: Gen, first: str, count: int, width: int = 64) -> list[str]:
    """The body lines of a PEM/OpenSSH block: `first` starts the first line, the last line is shorter."""
    lines = [first + g.pick(B64, width - len(first))]
    lines += [g.pick(B64, width) for _ in range(count - 2)]
    lines.append(g.pick(B64, g.num(20, 50)) + g.choice(["=", "==", ""]))
    return lines


def neptune_token(g: Gen) -> str:
    data = {"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai", "api_key": g.uuid()}
    return b64(json.dumps(data, separators=(",", ":")).encode())


def cloudflared_token(g: Gen) -> str:
    return b64(json.dumps({"a": g.hex(32), "t": g.uuid(), "s": b64(g.raw(32))}, separators=(",", ":")).encode())


# --- the customer's words around a paste --------------------------------------------------------------------------

INTROS = {
    "en": [
        "Hi, my training job on the rented H100 dies right after start. Here is what I ran:",
        "Hello support, the container on my A100 rental can't reach my storage. Pasting the relevant bits below.",
        "Hey, quick question about rental #{n}. This is the file I copied onto the box:",
        "My notebook on the 4090 node keeps failing, log below.",
        "Following up on my ticket from yesterday, here's the config you asked for:",
        "I'm trying to resume a fine-tune on the L40S machine and it errors out:",
        "Can you check why the job can't authenticate? Here is my setup:",
        "Second time writing about this. Same machine (order {n}), same problem:",
    ],
    "es": [
        "Hola, el entrenamiento en la H100 que alquilé se cae nada más arrancar. Esto es lo que ejecuté:",
        "Buenas, el contenedor de mi alquiler A100 no llega a mi almacenamiento. Os pego lo relevante:",
        "Hola equipo de soporte, tengo una duda con el alquiler #{n}. Este es el archivo que copié en la máquina:",
        "Mi notebook en el nodo con la 4090 sigue fallando, abajo el log.",
        "Sigo con el ticket de ayer, aquí va la configuración que me pedisteis:",
        "Intento reanudar un fine-tuning en la máquina L40S y da error:",
    ],
    "vi": [
        "Chào shop, job huấn luyện trên máy H100 mình thuê bị dừng ngay sau khi chạy. Đây là lệnh mình đã chạy:",
        "Xin chào, container trên máy A100 mình thuê không kết nối được tới kho lưu trữ. Mình dán phần liên quan bên dưới:",
        "Chào bạn, mình có câu hỏi về đơn thuê #{n}. Đây là file mình đã chép lên máy:",
        "Notebook của mình trên node 4090 cứ bị lỗi, log ở dưới.",
        "Mình gửi tiếp cho ticket hôm qua, đây là cấu hình bạn cần:",
        "Mình đang tiếp tục fine-tune trên máy L40S thì bị lỗi:",
    ],
    "tr": [
        "Merhaba, kiraladığım H100 sunucusunda eğitim işi başlar başlamaz çöküyor. Çalıştırdığım komutlar şunlar:",
        "İyi günler, A100 kiralamamdaki konteyner depolama alanıma erişemiyor. İlgili kısımları aşağıya yapıştırıyorum:",
        "Selam, #{n} numaralı kiralama hakkında bir sorum var. Makineye kopyaladığım dosya bu:",
        "4090 düğümündeki notebook'um sürekli hata veriyor, log aşağıda.",
        "Dünkü talebimin devamı, istediğiniz yapılandırma burada:",
        "L40S makinesinde fine-tune işine devam etmeye çalışıyorum ama hata alıyorum:",
    ],
}

OUTROS = {
    "en": [
        "Any idea what's wrong?",
        "Thanks in advance!",
        "The rental ends in 3 hours so a quick answer would help.",
        "It worked fine on my laptop.",
        "Let me know if you need more logs.",
        "",
    ],
    "es": [
        "¿Alguna idea de qué pasa?",
        "¡Gracias de antemano!",
        "El alquiler termina en 3 horas, así que agradecería una respuesta rápida.",
        "En mi portátil funcionaba bien.",
        "Si necesitáis más logs, decidme.",
        "",
    ],
    "vi": [
        "Bạn xem giúp mình lỗi ở đâu nhé?",
        "Cảm ơn bạn nhiều!",
        "Còn 3 tiếng nữa là hết hạn thuê nên mong bạn trả lời sớm.",
        "Trên laptop của mình thì chạy bình thường.",
        "Cần thêm log thì bạn cứ báo mình.",
        "",
    ],
    "tr": [
        "Sorun ne olabilir?",
        "Şimdiden teşekkürler!",
        "Kiralama 3 saat sonra bitiyor, hızlı bir yanıt çok işime yarar.",
        "Kendi dizüstü bilgisayarımda sorunsuz çalışıyordu.",
        "Daha fazla log gerekirse söyleyin.",
        "",
    ],
}


def wrap(g: Gen, body: str, lang: str | None = None) -> str:
    """`body` as a support message: an intro (sometimes none, a bare paste) and an outro in `lang` (random if None)."""
    lang = lang or g.lang()
    if g.num(0, 9) == 0:
        return body
    intro = g.choice(INTROS[lang]).replace("{n}", str(g.num(10_000, 99_999)))
    outro = g.choice(OUTROS[lang])
    return f"{intro}\n\n{body}" + (f"\n\n{outro}" if outro else "")

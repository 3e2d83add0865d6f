"""The words customers of held-out 10 write around what they paste (0396): openings and closings of a support
request or a journal entry in English, Spanish, Vietnamese and Turkish. None of them holds a secret."""

from __future__ import annotations

from .heldout10_gen import Gen

LANGS = ("en", "es", "vi", "tr")

OPEN = {
    "en": [
        "Hi, my training job on the H100 rental keeps failing at startup. This is what I ran:",
        "Hello support, instance #{n} can't reach my bucket since this morning. Config below.",
        "Pasting my notes from yesterday's run so you can see the setup:",
        "Quick question about the A100 box (order {n}), this is what I have in the file:",
        "Hey, the container exits with code 1 right after pulling the image. Logs and config:",
        "Journal {d}: fine-tune of the 7B model on 4x H100, setup as it was:",
        "Hi team, after the reboot the notebook on rental {n} lost its settings. Here is the cell I run first:",
        "Can someone look at this? It worked on my laptop but not on the rented GPU.",
    ],
    "es": [
        "Hola, el trabajo de entrenamiento en la instancia H100 falla al arrancar. Esto es lo que ejecuté:",
        "Buenas, no consigo que el contenedor descargue el modelo. Os pego la configuración:",
        "Os dejo mis notas del experimento de ayer ({d}):",
        "Hola equipo, tras reiniciar la máquina {n} ya no conecta con el bucket:",
        "Buenos días, el pedido {n} se queda en «arrancando» y luego se cae. Adjunto lo que tengo:",
        "Diario {d}: ajuste fino del modelo con 2 A100, la configuración tal cual:",
        "Hola, ¿me podéis ayudar? En mi portátil funciona pero en la GPU alquilada no.",
    ],
    "vi": [
        "Chào shop, job huấn luyện trên máy H100 cứ bị lỗi khi khởi động. Đây là lệnh mình chạy:",
        "Xin chào, container không tải được model. Mình dán cấu hình bên dưới:",
        "Ghi chú thí nghiệm ngày {d} của mình:",
        "Máy thuê số {n} không kết nối được tới bucket, nhờ hỗ trợ xem giúp:",
        "Chào bạn, đơn hàng {n} khởi động xong thì notebook bị mất cấu hình. Mình chạy cell này đầu tiên:",
        "Nhật ký {d}: fine-tune mô hình 7B trên 4 GPU H100, cấu hình như sau:",
    ],
    "tr": [
        "Merhaba, H100 kiralamasındaki eğitim işi başlarken hata veriyor. Çalıştırdığım komut:",
        "Selam, konteyner modeli indiremiyor. Yapılandırmayı aşağıya yapıştırıyorum:",
        "Dünkü ({d}) deney notlarım:",
        "Merhaba, {n} numaralı makine bucket'a bağlanamıyor, yardımcı olur musunuz?",
        "İyi günler, {n} numaralı sipariş açıldıktan sonra notebook ayarları kayboldu. İlk çalıştırdığım hücre:",
        "Günlük {d}: 7B modelin 2 A100 üzerinde ince ayarı, kurulum şöyleydi:",
    ],
}

CLOSE = {
    "en": ["Thanks!", "Any idea what's wrong?", "", "Thanks in advance, it's a bit urgent.", "Cheers"],
    "es": ["Gracias de antemano.", "¿Alguna idea?", "", "Un saludo.", "Gracias, es algo urgente."],
    "vi": ["Cảm ơn nhiều!", "Có ai biết lỗi gì không ạ?", "", "Mong shop phản hồi sớm.", "Thanks ạ"],
    "tr": ["Şimdiden teşekkürler.", "Sorun ne olabilir?", "", "Kolay gelsin.", "Acil, teşekkürler."],
}


def lang_of(g: Gen, lang: str | None = None) -> str:
    """English about half the time, as in the shop's support queue."""
    if lang:
        return lang
    return g.choice(["en", "en", "en", "es", "vi", "tr"])


def wrap(g: Gen, paste: str, lang: str | None = None, fence: bool | None = None) -> str:
    """A support request or journal entry around `paste`."""
    lang = lang_of(g, lang)
    opening = g.choice(OPEN[lang]).replace("{n}", str(g.num(1200, 98000))).replace("{d}", date(g))
    closing = g.choice(CLOSE[lang])
    if fence is None:
        fence = g.rng.random() < 0.6
    body = f"```\n{paste}\n```" if fence else paste
    return f"{opening}\n\n{body}" + (f"\n\n{closing}" if closing else "")


def date(g: Gen) -> str:
    return f"2027-{g.num(1, 12):02d}-{g.num(1, 28):02d}"


def host(g: Gen) -> str:
    return g.choice(
        [
            f"10.{g.num(0, 255)}.{g.num(0, 255)}.{g.num(2, 254)}",
            f"gpu-{g.num(1, 90)}.rent.gpurent.example",
            f"db-{g.pick('abcdefghijklmnopqrstuvwxyz', 5)}.internal",
            f"{g.num(40, 220)}.{g.num(1, 255)}.{g.num(1, 255)}.{g.num(2, 254)}",
            "localhost",
        ]
    )


def user(g: Gen) -> str:
    return g.choice(
        ["root", "ubuntu", "admin", "trainer", "mlops", "app", "postgres", "lan", "mehmet", "lucia", "deploy"]
    )

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 10, clean look-alikes (0396): ordinary prose in English, Spanish, Vietnamese, Turkish, French,
Italian, Portuguese and Czech full of BIP-39 words (dataset lines, model outputs, journal notes), vocabulary and
label lists drawn from the BIP-39 lists, and messages that talk about passwords, tokens and seed phrases without
holding one. None of them holds a secret; the build checks that no run of words passes a list's checksum."""

from __future__ import annotations

from .heldout10_gen import Gen, assert_no_phrase
from .heldout10_text import wrap

SENTENCES = {
    "en": [
        "The old man walked along the river with his dog before the rain came back.",
        "She bought fresh bread, a little cheese and some fruit at the market near the bridge.",
        "After the storm the garden was full of broken branches and wet leaves.",
        "My brother found a small bird under the window and gave it water and seeds.",
        "The train left the city at noon and reached the coast in the evening.",
        "We cooked rice with chicken, garlic and lemon for the whole family.",
        "The children ran across the field to watch the horses drink at the lake.",
        "A cold wind moved over the hills and the sky turned gray.",
        "He keeps a journal of every trip, with the weather, the food and the people he meets.",
        "Please describe the picture: a woman holds an umbrella while a boy plays with a ball.",
        "The island has one village, a church, a school and a tiny harbor for fishing boats.",
        "At night the forest is quiet except for an owl and the sound of water.",
    ],
    "es": [
        "El niño abrió la puerta de la casa y salió corriendo hacia el jardín.",
        "Mi abuela cocina arroz con pollo, ajo y limón todos los domingos.",
        "Después de la lluvia el campo olía a tierra mojada y a flores.",
        "El barco salió del puerto al amanecer con diez pescadores a bordo.",
        "La familia cenó pescado, pan y vino en la terraza frente al mar.",
        "El perro duerme bajo la mesa mientras el gato mira por la ventana.",
        "En la montaña hace frío de noche, así que llevamos mantas y café caliente.",
        "La profesora pidió a los alumnos que dibujaran un árbol, una nube y un río.",
        "Compramos fruta, leche y queso en el mercado antes de volver al hotel.",
        "El tren llega tarde porque hubo un accidente cerca del puente.",
        "Describe la imagen: una mujer con sombrero camina por la playa con su hijo.",
        "El viento movía las hojas del bosque y el cielo se puso oscuro.",
    ],
    "fr": [
        "Le chat dort sur le canapé pendant que la pluie tombe sur le jardin.",
        "Nous avons mangé du pain, du fromage et des fruits au bord de la rivière.",
        "Le train pour Lyon part à midi, mais il a souvent du retard en hiver.",
        "Ma sœur a acheté une robe bleue et un chapeau pour la fête du village.",
        "Le bateau quitte le port avant l'aube avec une cargaison de poissons.",
        "Décris l'image : un enfant joue avec un ballon devant une maison rouge.",
        "La forêt est calme le soir, on entend seulement le vent et un hibou.",
        "Il a gardé un carnet de voyage avec la météo, les repas et les rencontres.",
    ],
    "it": [
        "Il bambino gioca con il cane nel giardino mentre la nonna prepara il pranzo.",
        "Abbiamo comprato pane, formaggio e frutta al mercato vicino al ponte.",
        "La barca è uscita dal porto all'alba con tre pescatori a bordo.",
        "Dopo il temporale il prato era pieno di foglie e rami spezzati.",
        "Descrivi l'immagine: una donna con un ombrello attraversa la piazza.",
        "Il treno per Milano parte a mezzogiorno e arriva la sera.",
        "In montagna fa freddo di notte, quindi portiamo coperte e caffè caldo.",
        "La maestra chiede agli alunni di disegnare un albero, una nuvola e un fiume.",
    ],
    "pt": [
        "O menino abriu a porta de casa e correu para o jardim.",
        "Minha avó faz arroz com frango, alho e limão todos os domingos.",
        "Depois da chuva o campo ficou com cheiro de terra molhada e flores.",
        "O barco saiu do porto de madrugada com dez pescadores.",
        "Descreva a imagem: uma mulher de chapéu caminha na praia com o filho.",
        "Compramos fruta, leite e queijo na feira antes de voltar para o hotel.",
        "O vento balançava as folhas da floresta e o céu ficou escuro.",
        "A professora pediu aos alunos que desenhassem uma árvore, uma nuvem e um rio.",
    ],
    "cs": [
        "Chlapec otevřel dveře domu a běžel na zahradu za psem.",
        "Babička peče chléb a vaří polévku z brambor a zeleniny.",
        "Po bouřce byla louka plná listí a zlomených větví.",
        "Vlak do Brna odjíždí v poledne a večer je v cíli.",
        "Popiš obrázek: žena s deštníkem jde přes náměstí.",
        "V horách je v noci zima, proto nosíme deky a teplý čaj.",
        "Rybář vyplul na jezero brzy ráno a vrátil se s velkou rybou.",
        "Učitelka chtěla, aby děti nakreslily strom, mrak a řeku.",
    ],
    "vi": [
        "Mô hình dịch câu này khá tốt nhưng vẫn nhầm giữa 'bank' và 'river bank'.",
        "Bộ dữ liệu gồm ảnh về animal, food, vehicle và mỗi ảnh có một label.",
        "Hôm nay mình train lại với learning rate thấp hơn, loss giảm đều.",
        "Câu mẫu: 'The cat sat on the mat near the window' được dịch đúng.",
        "Mình thử prompt 'describe the ocean at sunset' và model trả lời khá hay.",
        "Tập đánh giá có 500 câu hỏi về history, science, music và sport.",
    ],
    "tr": [
        "Model 'the quick brown fox jumps over the lazy dog' cümlesini doğru çevirdi.",
        "Veri setinde animal, bird, flower ve garden etiketli görseller var.",
        "Bugün öğrenme oranını düşürüp tekrar eğittim, kayıp düzgün azalıyor.",
        "Değerlendirme setinde history, music, sport ve science soruları bulunuyor.",
        "Prompt olarak 'describe a winter morning in the village' denedim, sonuç güzel.",
        "Etiketleme ekibi 'truck', 'bicycle' ve 'motor' sınıflarını sık karıştırıyor.",
    ],
}

FRAMES = {
    "en": [
        "Samples from the eval set (model output):\n{s}",
        "Journal: caption model, a few generations from checkpoint 4000\n{s}",
        "{s}",
        "Here are some lines of my dataset, the tokenizer splits them oddly:\n{s}",
    ],
    "es": [
        "Muestras del conjunto de evaluación:\n{s}",
        "Diario: salidas del modelo tras 2 épocas\n{s}",
        "{s}",
        "Unas líneas de mi dataset, el tokenizador las corta raro:\n{s}",
    ],
    "fr": ["Exemples du jeu de test (sortie du modèle) :\n{s}", "{s}", "Quelques lignes de mon corpus :\n{s}"],
    "it": ["Esempi dal set di valutazione:\n{s}", "{s}", "Alcune righe del mio dataset:\n{s}"],
    "pt": ["Exemplos do conjunto de avaliação:\n{s}", "{s}", "Algumas linhas do meu dataset:\n{s}"],
    "cs": ["Ukázky z testovací sady:\n{s}", "{s}", "Několik řádků z mého datasetu:\n{s}"],
    "vi": ["Ghi chú thí nghiệm:\n{s}", "{s}", "Nhật ký huấn luyện:\n{s}"],
    "tr": ["Deney notları:\n{s}", "{s}", "Eğitim günlüğü:\n{s}"],
}

TALK = [
    "Hi, how do I rotate my Hugging Face token on the rental without restarting the notebook?",
    "Is it safe to keep my wallet's seed phrase in a text file on the instance? I guess not, but where should it go?",
    "Do you ever ask for a seed phrase or private key to confirm a crypto payment? Someone on Discord said you do.",
    "I forgot the password I set for the Jupyter server. Can you reset it or do I have to recreate the order?",
    "Where does `wandb login` store the API key? I want to delete it before I return the machine.",
    "Hola, ¿cómo cambio la contraseña del usuario root de la instancia? No encuentro la opción en el panel.",
    "¿Es normal que la billetera me pida 24 palabras y no 12? Solo tengo anotadas las 12 del otro monedero.",
    "Buenas, ¿dónde guardo el token de Hugging Face para que no se pierda al reiniciar la máquina?",
    "Nunca compartáis vuestra frase semilla con nadie, tampoco con soporte: lo pongo en el README del equipo.",
    "Chào shop, làm sao để đổi mật khẩu SSH của máy thuê? Mình sợ lộ mật khẩu cũ.",
    "Cho mình hỏi shop có bao giờ yêu cầu cụm từ khôi phục của ví khi thanh toán không? Mình thấy tin nhắn lạ.",
    "Token Hugging Face của mình hết hạn rồi, tạo token mới xong thì phải làm gì trên máy?",
    "Merhaba, Jupyter şifresini unuttum, siparişi silmeden sıfırlayabilir miyim?",
    "Ödeme yaparken kurtarma kelimelerimi sormanız normal mi? Telegram'da biri sizin adınıza istedi.",
    "API anahtarını ortam değişkeni olarak mı vermeliyim yoksa dosyada mı tutmalıyım?",
    "Bonjour, comment changer le mot de passe root de l'instance ? Je ne trouve pas l'option.",
    "Ciao, dove conviene salvare il token di Hugging Face sulla macchina noleggiata?",
    "Olá, vocês pedem a frase de recuperação da carteira para confirmar o pagamento? Recebi uma mensagem estranha.",
    "Dobrý den, kde mám uložit API klíč, aby se neztratil po restartu stroje?",
    "Hi, the docs say to pass --password-stdin to docker login, but how do I do that from a Makefile?",
    "After my last ticket I rotated every key I had pasted, so nothing in that thread works anymore.",
    "Notes: never put secrets in the notebook; load them from the environment. Rotate the W&B key monthly.",
    "Is the 'secret' field in the API settings page the webhook signing secret or my account password?",
    "Hi, the password reset e-mail never arrives. I checked spam too. Account is lucia.m at a gmail address.",
    "Mật khẩu phải có ít nhất 12 ký tự à? Mình đặt 10 ký tự thì bị từ chối.",
    "Şifre en az kaç karakter olmalı? Kayıt formu neden reddettiğini söylemiyor.",
]

LABELS = {
    "english": "Class labels of my image classifier (from labels.txt):",
    "spanish": "Etiquetas de clases del clasificador (labels_es.txt):",
    "french": "Vocabulaire pour l'appli de révision (niveau A2) :",
    "italian": "Lista di parole per il test di dettato:",
    "portuguese": "Rótulos das classes do meu dataset:",
    "czech": "Slovíčka na tento týden:",
    "korean": "단어장 (이번 주 복습):",
}


def prose(g: Gen) -> list[str]:
    out: list[str] = []
    counts = {"en": 18, "es": 20, "fr": 10, "it": 10, "pt": 10, "cs": 10, "vi": 8, "tr": 8}
    for lang, count in counts.items():
        seen: set[tuple[int, ...]] = set()
        while len(seen) < count:
            picks = tuple(sorted(g.rng.sample(range(len(SENTENCES[lang])), g.num(2, 4))))
            if picks in seen:
                continue
            seen.add(picks)
            body = " ".join(SENTENCES[lang][i] for i in picks)
            if g.rng.random() < 0.4:
                body = "\n".join(f"- {SENTENCES[lang][i]}" for i in picks)
            out.append(g.choice(FRAMES[lang]).replace("{s}", body))
    return out


def talk(g: Gen) -> list[str]:
    return list(TALK)


def word_lists(g: Gen) -> list[str]:
    """Vocabulary and label lists drawn from the BIP-39 lists; redrawn until no run passes a checksum."""
    out: list[str] = []
    plan = [
        ("english", 12, "comma"),
        ("english", 16, "lines"),
        ("english", 20, "comma"),
        ("spanish", 14, "lines"),
        ("spanish", 12, "comma"),
        ("spanish", 24, "lines"),
        ("french", 12, "lines"),
        ("french", 15, "comma"),
        ("italian", 12, "comma"),
        ("italian", 18, "lines"),
        ("portuguese", 12, "lines"),
        ("portuguese", 13, "comma"),
        ("czech", 12, "comma"),
        ("czech", 16, "lines"),
        ("korean", 12, "lines"),
        ("korean", 14, "comma"),
    ]
    for lang, n, layout in plan:
        while True:
            words = g.random_words(lang, n)
            body = ", ".join(words) if layout == "comma" else "\n".join(words)
            text = f"{LABELS[lang]}\n{body}"
            try:
                assert_no_phrase([text])
            except ValueError:
                continue
            out.append(text)
            break
    out.append(
        "$ head -12 /usr/share/bip39/english.txt\nabandon\nability\nable\nabout\nabove\nabsent\nabsorb\nabstract\nabsurd\nabuse\naccess\naccident"
    )
    out.append(
        "Did you know the Spanish BIP-39 list starts with ábaco, abdomen, abeja, abierto, abogado, abono, aborto, abrazo, abrir, abuelo, abuso, acabar? I'm using it as a test vocabulary for the tokenizer."
    )
    return out


def mixed(g: Gen) -> list[str]:
    """Support messages in the four languages that mention keys, wallets and GPUs around ordinary prose."""
    return [
        wrap(
            g,
            "Loss curve looks fine until step 3000, then it jumps. Same data, same seed, only the GPU changed from A100 to H100.",
            "en",
        ),
        wrap(
            g,
            "Con batch 64 se queda sin memoria; con 32 va bien pero tarda el doble. ¿Tenéis instancias con más VRAM?",
            "es",
        ),
        wrap(g, "Máy H100 chạy nhanh hơn A100 khoảng 2,3 lần với bf16, nhưng fp8 thì bị lỗi NaN ở epoch 2.", "vi"),
        wrap(g, "Aynı veriyle A100'de 40 dakika süren eğitim H100'de 17 dakika sürdü, çok memnunum.", "tr"),
        "Hi, can I pay with a wallet on Arbitrum? The checkout only lists Ethereum, Base, Polygon and Solana.",
        "Hola, ¿la factura sale a nombre de la empresa si pago con USDC? Necesito el NIF en el recibo.",
        "Chào shop, nạp tiền bằng USDT mạng Tron có được không hay chỉ Ethereum thôi?",
        "Merhaba, faturayı şirket adına kesebilir misiniz? Vergi numaramı profil sayfasına ekledim.",
    ]

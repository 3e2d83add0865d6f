"""Secrets introduced by words rather than by an assignment: "my password is …", "private key (hex): …", "the
token I generated yesterday, …, returns 403", "… (the api key)", in English, Spanish, Vietnamese and Turkish.

`context.py` runs these with its own patterns (`CONTEXT_PATTERNS`) and checks each value the same way: the
looser the wording, the more secret-like the value must be (decisions 0102, 0212).
"""

from __future__ import annotations

import re

from .kinds import Kind
from .vocabulary import BARE_KEY, NAMES_SOMETHING_ELSE, OWNER, PROSE_WORDS, VALUE

__all__ = ["PROSE_PATTERNS", "VALUE_THEN_NAME"]
# The value first, then what it is: "it's sk9F… (the api key)", "Xk3… is my token". It would try every long word of
# a text, so it runs only where "(the", "is my", "= our"… occurs (`_NEEDS`).
VALUE_THEN_NAME = re.compile(
    r"""(?i)(?<![A-Za-z0-9_+/=.-])(?P<q>["'`]?)(?P<prose>[A-Za-z0-9_+/=.-]{16,2000})(?P=q)[ \t]*"""
    r"""(?:\([ \t]*|(?:is|was|=|<-|←)[ \t]+)(?:the|my|our)[ \t]+(?!pub)(?:[\w-]+[ \t]+)?"""
    rf"""(?P<key>{PROSE_WORDS}|key(?<!gpg key)(?<!pgp key)(?<!ssh key)(?<!host key)(?<!signing key))\b"""
)

# (pattern, kind, rule), as in `context.CONTEXT_PATTERNS`.
PROSE_PATTERNS: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    # `(pass S3cret)`, `(pw: …)` in brackets
    (
        re.compile(
            r"""(?i)\((?:pass|pw|pwd|password)[ \t]*[:=]?[ \t]+(?P<q>["']?)(?P<secret>[^\s"'()]{1,300})(?P=q)\)"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # `pw: …`, `(pass: …)`
    (re.compile(rf"""(?i)(?<![A-Za-z0-9_-])(?:pw|pass|mk)[ \t]*[:=][ \t]*{VALUE}"""), Kind.PASSWORD, "password"),
    # "the root pass on gpu-12 is …", "pass vps: …", "pass for root is …": a short "pass" a few words before the value,
    # which must then hold letters and digits ("the backward pass is 2.3x slower" is about a model) (round 6, 0240)
    (
        re.compile(
            r"""(?i)(?<![\w-])(?P<key>pass)(?:[ \t]+[\w.@#'’-]{1,20}){0,4}?[ \t]*"""
            r"""(?:[ \t]is|[ \t]was|[ \t]là|[ \t]es|:|=|->|→)[ \t]*"""
            r"""(?P<q>["'`]?)(?P<prose>[^\s"'`]{8,300}?)(?P=q)[.,;)!]?(?=\s|$)"""
        ),
        Kind.PASSWORD,
        "random",
    ),
    # "my password is hunter2", "the API key was …", "set the root password to …", and up to eight words between the
    # name and the verb: "khóa riêng tư ví MetaMask của tôi là …", "Mật khẩu SSH của tôi là …"
    (
        re.compile(
            # a word may be quoted or in code: "the password for the shared `trainer` account is …" (round 10, 0397)
            rf"""(?i)\b(?P<key>{PROSE_WORDS}){NAMES_SOMETHING_ELSE}(?:,?\s+[\w.@&#'’`"-]+){{0,8}}?,?\s+"""
            r"""(?:is|was|to|are|es|era|fue|là|thành|it'?s|it’s)\b\s*:?\s*"""
            r"""(?:0x)?(?P<q>["'`]?)(?P<prose>[^\s"'`]+?)(?P=q)[.,;:)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "prose",
    ),
    # a relative clause between the name and its verb, which has a verb of its own: "the api key I was migrating from
    # was …", "the token we had before is …": a generated-looking value, not past a transaction or address (round 7)
    (
        re.compile(
            rf"""(?i)\b(?P<key>{PROSE_WORDS}){NAMES_SOMETHING_ELSE}"""
            # the clause has a subject of its own ("the secret to fast training is …" has none: a figure of speech)
            r"""(?:[ \t]+(?!(?:tx|txid|transaction|transfer|contract|address|hash|id)\b)[\w.@&#'’-]{1,20}){0,3}?"""
            r"""[ \t]+(?:I|we|you|they|he|she|tôi|em|mình)"""
            r"""(?:,?[ \t]+(?!(?:tx|txid|transaction|transfer|contract|address|hash|id)\b)[\w.@&#'’-]{1,20}){1,6}?,?"""
            r"""[ \t]+(?:is|was|es|era|fue|là)[ \t]+(?:0x)?(?P<q>["'`]?)(?P<prose>[A-Za-z0-9_+/=-]{16,2000})(?P=q)"""
            r"""[.,;:)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "random",
    ),
    # "metamask private key 9ba5…", "access key noYx…": no verb, so only a value that looks random counts
    (
        re.compile(
            rf"""(?i)\b(?P<key>{PROSE_WORDS}|pwd)(?:\s+|\s*(?:[–—→?|]|-+>|=>)\s*)(?:0x)?(?P<q>["'`]?)"""
            r"""(?P<prose>[^\s"'`]{8,2000}?)(?P=q)[.,;:)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "random",
    ),
    # "contraseña: …", "mật khẩu root: …", "clave privada de MetaMask: …", "wandb key for the team: …", "access token
    # for the S3 bucket, in case you need it: …", "private key (hex): …"
    (
        re.compile(
            rf"""(?i)\b(?P<key>{PROSE_WORDS}|{OWNER}[ \t]+key){NAMES_SOMETHING_ELSE}"""
            # not past an address named in between: "özel anahtarı paylaşmıyorum, sadece adres: …" (round 6)
            r"""(?:,?[ \t]+(?!(?:address|adres|adresi|dirección|direccion|địa|public|pubkey)\b)"""
            r"""[\w.@()'’#-]{1,20}){0,10}?"""
            # or an arrow: "contraseña de la base de datos → …" (round 7)
            r"""[ \t]*(?::|->|→|=>)[ \t]*(?:0x)?"""
            r"""(?P<q>["'`]?)(?P<prose>[^\s"'`]+?)(?P=q)[.,;)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "colon",
    ),
    # "password for the jupyter server = …": words between the name and ` = ` (`password = x` is code, above) (0240)
    (
        re.compile(
            rf"""(?i)\b(?P<key>{PROSE_WORDS}){NAMES_SOMETHING_ELSE}(?:[ \t]+[\w.@'’#-]{{1,20}}){{1,6}}?[ \t]+=[ \t]+"""
            r"""(?P<q>["'`]?)(?P<prose>[^\s"'`]+?)(?P=q)[.,;)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "colon",
    ),
    # a value in brackets a few words after the name: "la contraseña de root que me dieron (S3cret!) no funciona"
    (
        re.compile(
            rf"""(?i)\b(?P<key>{PROSE_WORDS}){NAMES_SOMETHING_ELSE}(?:\s+[\w.@&-]+){{0,6}}?\s*[(\[]"""
            r"""(?:(?:it'?s|it’s|is|was)[ \t]+|(?:pw|pass|password)?[ \t]*[:=][ \t]*)?["'`]?"""
            r"""(?P<prose>[^\s"'`()\[\]]{6,300})["'`]?[)\]]"""
        ),
        Kind.SECRET,
        "prose",
    ),
    # the second half of a secret pasted in two parts: "and the rest: …", "second half of the key: …"
    (
        re.compile(
            r"""(?i)\b(?P<key>rest|remainder|second[ \t]+(?:half|part)|last[ \t]+part|part[ \t]*(?:2|two|b))"""
            r"""(?:[ \t]+of[ \t]+(?:it|(?:the|my)[ \t]+\w+))?[ \t]*(?:is[ \t]*:?|:)[ \t]*(?P<q>["'`]?)"""
            r"""(?P<prose>[^\s"'`]{16,2000}?)(?P=q)[.,;)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "random",
    ),
    # the key on the line after its name: "My API key:\n<key>", "private key below:\n<key>"; not a public key's
    # ("minisign public key of our releases:\n<key>", a WireGuard peer's "PublicKey"; round 10, 0397)
    (
        re.compile(
            rf"""(?i)\b(?P<key>{PROSE_WORDS}|key(?<!public[ _-]key)(?<!pub[ _-]key)(?<!publickey)"""
            r"""(?<!verification[ _-]key)(?<!verifying[ _-]key)(?<!signing[ _-]key)(?<!recipient[ _-]key))"""
            rf"""{NAMES_SOMETHING_ELSE}"""
            r"""(?:[ \t]+[\w.@()'’-]{1,20}){0,4}[ \t]*:?[ \t]*\r?\n"""
            r"""[ \t]*(?:0x)?(?P<q>["'`]?)(?P<prose>[^\s"'`]{16,2000})(?P=q)[ \t]*(?=\r?\n|$)"""
        ),
        Kind.SECRET,
        "colon",
    ),
    # a bare "key" with an arrow, a dash, a colon or "is", a few words after it: "my OpenRouter key -> …", "the key
    # – …", "Use this key to test: …", "key is …" (`BARE_KEY` leaves out public keys and keys that name things)
    (
        re.compile(
            rf"""(?i){BARE_KEY}(?:(?:[ \t]+[\w.@()'’-]{{1,20}}){{0,6}}?[ \t]*"""
            r"""(?:->|→|–|—|=>|:|\?|\||[ \t]is\b:?)|(?=[ \t]))[ \t]*"""
            r"""(?P<q>["'`]?)(?P<prose>[^\s"'`]{20,2000}?)(?P=q)[.,;)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "keylike",
    ),
    (VALUE_THEN_NAME, Kind.SECRET, "random"),
    # a correction: "the right one is …", "the new key is …", "correct token: …"
    (
        re.compile(
            r"""(?i)\b(?P<key>(?:right|correct|new|real|actual|current|valid|working)[ \t]+"""
            r"""(?:one|key|token|secret|password))[ \t]+(?:is|was|:)[ \t]*:?[ \t]*(?:0x)?(?P<q>["'`]?)"""
            r"""(?P<prose>[^\s"'`]{16,2000}?)(?P=q)[.,;)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "random",
    ),
    # an Ethereum key (0x and 64 hex digits, where an address has 40) after a bare "key" or "PK", or in a wallet
    # library's `accounts: ["0x…"]` (Hardhat): "deployer key 0x…", "PK: 0x…"
    (
        re.compile(
            # a storage slot is 32 bytes too: "storage key 0x…", "slot key 0x…", "mapping key 0x…" (0213)
            rf"""(?i)(?:(?:{BARE_KEY}(?<!storage[ _-]key)(?<!slot[ _-]key)(?<!mapping[ _-]key)|(?-i:\bPK|\bpk)"""
            r"""|\baccounts[ \t]*:[ \t]*\[)[ \t]*[:=]?[ \t]*["'`]?0x"""
            # `ETH_PK=…`, `DEPLOYER_PK: …`: a variable named after a private key, with or without `0x` (round 6)
            r"""|(?-i:[A-Za-z0-9]_PK|[a-z0-9]_pk)["']?[ \t]*[:=][ \t]*["'`]?(?:0x)?)"""
            r"""(?P<prose>[0-9a-fA-F]{64})(?![0-9A-Za-z])"""
        ),
        Kind.PRIVATE_KEY,
        "ethkey",
    ),
    # an Ethereum key later in the sentence that names it: "my wallet private key so you can check, it is 0x…"
    (
        re.compile(
            r"""(?i)\b(?P<key>private[ _-]?key|priv[ _-]?key|secret[ _-]?key|clave[ \t]+privada|llave[ \t]+privada"""
            r"""|khóa[ \t]+riêng|özel[ \t]+anahtar)"""
            # not across a sentence's end, and not when a transaction or an address is named in between
            r"""(?:(?!\b(?:tx|txid|txn|transaction|hash|block|address|signature)\b)[^\n.;]){0,100}?"""
            r"""(?<![0-9a-fA-F])(?:0x)?(?P<prose>[0-9a-fA-F]{64})"""
            r"""(?![0-9a-zA-Z])"""
        ),
        Kind.PRIVATE_KEY,
        "ethkey",
    ),
    # "… you emailed me, S3cret!, is rejected", "the token I generated yesterday, Czyw…, returns 403": the value
    # between commas a few words after the name
    (
        re.compile(
            rf"""(?i)\b(?P<key>{PROSE_WORDS}){NAMES_SOMETHING_ELSE}(?:[ \t]+[\w'’-]{{1,20}}){{0,6}}?,[ \t]*"""
            r"""(?P<q>["'`]?)(?P<prose>[^\s"'`,]{6,300})(?P=q),"""
        ),
        Kind.SECRET,
        "prose",
    ),
    # "root / S3cret", "admin:S3cret@10.0.0.5" (no scheme), a usual admin user and a password
    (
        re.compile(rf"""(?i)(?<![\w./~-])(?:root|admin|administrator|ubuntu|postgres|sa)[ \t]+/[ \t]+{VALUE}"""),
        Kind.PASSWORD,
        "password",
    ),
    (
        re.compile(
            # not a restic or rclone repository, `sftp:user@host:/path` (round 6)
            r"""(?<![\w.:/@-])(?!(?:sftp|s3|b2|rest|rclone|swift|azure|gs|ssh|scp|git|local):)[\w.-]{1,32}:"""
            r"""(?P<secret>[^\s:/]{4,300})@"""
            r"""(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|(?:tcp|unix)\()(?::\d{1,5})?(?=[/\s:]|$|(?<=\())"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # Oracle's `user/password@host:port/service` (JDBC thin, cx_Oracle, SQLcl, `exp`): a port or a domain after `@`
    (
        re.compile(
            r"""(?:\bjdbc:oracle:thin:|(?<![\w./:@-]))[A-Za-z][\w$#]{0,29}/(?P<secret>[^\s/@"']{4,100})@(?://)?"""
            r"""[\w-]+(?:(?:\.[\w-]+)+(?::\d{1,5})?|:\d{1,5})[/:]"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # "logging in with ada@acme.dev and S3cret?", "log in as root / S3cret": a user, then the password (round 6)
    (
        re.compile(
            r"""(?i)\blog(?:ging|ged|s)?[ \t]?in[ \t]+(?:as|with)[ \t]+[^\s/]{1,64}[ \t]+(?:and|/|\+)[ \t]+"""
            r"""(?:(?:the[ \t]+)?password[ \t]+)?(?P<q>["'`]?)(?P<secret>[^\s"'`?,]{6,300})(?P=q)"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # "I changed it, it's now …", "reset it to …": the password the conversation is about, with a chosen password's
    # shape (capitals, small letters and a digit or a symbol; no path or URL: "changed it to nvcr.io/…:24.01")
    (
        re.compile(
            r"""(?i)\b(?:changed|reset|updated|rotated)[ \t]+it\b[^\n.]{0,20}?"""
            r"""(?:\bto|\bit'?s[ \t]+now|\bit’s[ \t]+now|\bis[ \t]+now)[ \t]+(?P<q>["'`]?)"""
            r"""(?-i:(?=\S*[A-Z])(?=\S*[a-z])(?=\S*[\d!@#$%^&*])(?![^\s"'`]*(?:[/:]|\d\.\d)))(?P<secret>[^\s"'`]{8,300})(?P=q)"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # "creds are admin / S3cret", "credentials: admin/S3cret", "login admin:S3cret"
    (
        re.compile(
            r"""(?i)\b(?:creds|credentials|login)(?:[ \t]+(?:are|is))?(?::|[ \t]*(?:→|->|=>|=))?"""
            rf"""[ \t]+[^\s/:]{{1,40}}[ \t]*[/:]"""
            rf"""[ \t]*{VALUE}"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # a password changed to a value, where Spanish says "a" and Turkish puts "olarak" after it: "cambié la contraseña
    # de root a …", "root şifresini … olarak değiştirdim" (round 6, 0240; English "to" and Vietnamese "thành" are above)
    (
        re.compile(
            r"""(?i)\b(?:cambi\w*|puse|pus[eo]|establec\w*|actualic\w*|configur\w*|restablec\w*|reset\w*)"""
            r"""(?:[ \t]+[\w#'’-]+){0,6}?[ \t]+(?P<key>contraseña|contrasena|clave)(?:[ \t]+[\w#'’-]+){0,6}?"""
            r"""[ \t]+(?:a|en)[ \t]+(?P<q>["'`]?)(?P<prose>[^\s"'`]{6,300}?)(?P=q)[.,;:)!]?(?=\s|$)"""
        ),
        Kind.PASSWORD,
        "prose",
    ),
    (
        re.compile(
            r"""(?i)\b(?P<key>(?:şifre|sifre|parola)(?:yi|yı|mi|mı|sini|sını|nizi|nızı|mizi|mızı)?)[ \t]+"""
            r"""(?P<q>["'`]?)(?P<prose>[^\s"'`]{6,300}?)(?P=q)[ \t]+olarak\b"""
        ),
        Kind.PASSWORD,
        "prose",
    ),
    # the value first, then what it is: "I logged in with S3cret as the root password", "use … as the wandb key"
    (
        re.compile(
            r"""(?i)(?<![^\s"'`(])(?P<q>["'`]?)(?P<prose>[^\s"'`]{6,300})(?P=q)[ \t]+as[ \t]+(?:the|my|a)[ \t]+"""
            rf"""(?:[\w-]+[ \t]+)?(?P<key>{PROSE_WORDS}|key)\b{NAMES_SOMETHING_ELSE}"""
        ),
        Kind.SECRET,
        "prose",
    ),
    # the password named first, then changed later in the same sentence with a pronoun or no object at all: "La
    # contraseña de root que pusisteis no funciona, la cambié a …", "Mật khẩu root … không dùng được, mình đã đổi thành
    # …", "the root password … doesn't work, so I set it to …", "Root şifresi çalışmıyordu, onu … olarak değiştirdim";
    # a chosen password's shape, as for "I changed it to …" above (round 9, 0393)
    (
        re.compile(
            r"""(?i)\b(?P<key>password|passphrase|contraseña|contrasena|clave|m[ậa]t[ \t]+kh[ẩa]u|[şs]ifre\w*"""
            r"""|parola\w*)\b[^\n.!?]{0,120}?(?:\b(?:l[ao]|les)[ \t]+(?:he[ \t]+|hemos[ \t]+)?"""
            r"""(?:cambi\w*|puse|pusimos|restablec\w*|actualic\w*|dej[eé])[ \t]+(?:a|por|en|como)"""
            r"""|\b(?:đổi|thay|đặt)(?:[ \t]+lại)?[ \t]+(?:thành|sang|là)"""
            r"""|\b(?:changed|set|reset|updated|rotated|switched)[ \t]+it[ \t]+(?:to|as)|(?P<tr>\bonu))"""
            r"""[ \t]+(?P<q>["'`]?)"""
            r"""(?-i:(?=\S*[A-Z])(?=\S*[a-z])(?=\S*[\d!@#$%^&*])(?![^\s"'`]*(?:[/:]|\d\.\d)))"""
            r"""(?P<secret>[^\s"'`]{8,300}?)(?P=q)(?(tr)[ \t]+olarak\b|[.,;:)!]?(?=\s|$))"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # Turkish puts the value right after the possessive: "root şifresi S3cret ama …"
    (
        re.compile(
            r"""(?i)\b(?P<key>(?:şifre|sifre|parola)(?:si|sı|m|niz|nız))[ \t]+(?P<q>["'`]?)"""
            r"""(?P<prose>[^\s"'`]+?)(?P=q)[.,;:)!]?(?=\s|$)"""
        ),
        Kind.PASSWORD,
        "prose",
    ),
)

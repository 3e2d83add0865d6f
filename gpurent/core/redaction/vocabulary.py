"""The words and value shapes the context patterns share (`context.py`, `prose.py`, decision 0212).

What names a secret in a config file or a flag (`KEYWORDS`), what introduces one in a sentence, in English,
Spanish, Vietnamese and Turkish (`PROSE_WORDS`), a bare "key" that names one (`BARE_KEY`), and the shape of a
value after a name (`VALUE`: quoted, or one run without spaces; bounded so that no pattern scans further than a
long token).
"""

from __future__ import annotations

__all__ = [
    "BARE_KEY",
    "ESCAPED_VALUE",
    "FOREIGN_WORDS",
    "KEYWORDS",
    "NAMES_SOMETHING_ELSE",
    "NAME_SUFFIX",
    "OWNER",
    "PROSE_WORDS",
    "VALUE",
]

KEYWORDS = (
    r"password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key"
    r"|private[_-]?key|account[_-]?key|auth[_-]?key|credentials?|client[_-]?secret"
    r"|(?:secret|private|api|access|auth)[ \t](?:access[ \t])?(?:key|token)|privkey|(?<=_)key|(?<=_)pass"
    r"|subscription-key|pass[_-](?:word|phrase)|(?<=_)auth|preshared[_-]?key|psk"
    # an object store's access key id, which S3-compatible stores (R2, MinIO, Wasabi) do not prefix like AWS's
    # `AKIA…`: `access_key_id = …` (rclone), `AWS_ACCESS_KEY_ID=…`, `AWS Access Key ID [None]: …` (round 6, 0240)
    r"|access[_-]?key[_-]?id|access[ \t]key[ \t]id"
    # a password variable glued to what it opens: `SSHPASS=…` (sshpass -e), `--requirepass` (redis), `SMBPASS`
    r"|(?:ssh|smb|vnc|db|root|admin|require|ldap|rpc|sql)pass|masterauth"
)
# The same in Spanish, Vietnamese and Turkish, as customers write them (Turkish adds a possessive: "şifresi").
FOREIGN_WORDS = (
    r"contraseña|contrasena|clave(?:[ \t]+privada|[ \t]+secreta|[ \t]+api|[ \t]+de[ \t]+(?:api|acceso))?"
    r"|llave[ \t]+(?:privada|secreta)"
    r"|mật[ \t]+khẩu|mat[ \t]+khau|khóa[ \t]+(?:riêng(?:[ \t]+tư)?|bí[ \t]+mật|api|truy[ \t]+cập)|mã[ \t]+truy[ \t]+cập"
    r"|(?:şifre|sifre|parola|(?:özel|gizli|erişim|erisim|api)[ \t]+anahtar)(?:ım|im|ı|i|m|si|sı|niz|nız)?"
)
# Words that introduce a secret in a sentence: "my private key is …", "the password was …".
PROSE_WORDS = (
    r"password|passphrase|passwd|pass ?code|private[ _-]?key|priv ?key|secret[ _-]?key|api[ _-]?key|api[ _-]?token"
    # "the secret to fast training is …", "the secret behind the speedup is …": a figure of speech (round 7)
    r"|access[ _-]?(?:key|token)|auth[ _-]?token|token|secret(?![ \t]+(?:to|behind)\b)|pw|" + FOREIGN_WORDS
)
# "password manager (1Password)", "password reset link …": the word names something else, not the password.
NAMES_SOMETHING_ELSE = (
    r"(?![ \t]+(?:manager|managers|reset|policy|field|hash|hashes|length|prompt|rotation|expiry|expiration|generator"
    r"|strength|change|requirements?|rules?|limit|count|usage|type|format|file|path|id|name|env|variable|setting"
    # a public key, in the shop's languages: "clave pública SSH: ssh-ed25519 …" (round 7)
    r"|public|pub|p[úu]blica|c[ôo]ng[ \t]+khai|açık)\b)"
)
# A bare "key" that names a secret: not a public key, nor one that names a row, a cache entry or an object ("public key:
# …", "cache key: …", "S3 key: …"); fixed-width look-behinds, checked only where "key" is, keep the pattern fast.
BARE_KEY = (
    r"(?P<key>key)(?<![\w.-]key)(?<!public[ _-]key)(?<!pub[ _-]key)(?<!host[ _-]key)(?<!cache[ _-]key)"
    r"(?<!primary[ _-]key)(?<!foreign[ _-]key)(?<!idempotency[ _-]key)(?<!partition[ _-]key)(?<!sort[ _-]key)"
    r"(?<!object[ _-]key)(?<!s3[ _-]key)(?<!gpg[ _-]key)(?<!pgp[ _-]key)(?<!signing[ _-]key)(?<!verifying[ _-]key)"
    r"(?<!license[ _-]key)(?<!product[ _-]key)(?<!registry[ _-]key)(?<!ssh[ _-]key)(?<!routing[ _-]key)"
    r"(?<!lookup[ _-]key)(?<!unique[ _-]key)(?<!wallet[ _-]key)(?<!address[ _-]key)(?<!deposit[ _-]key)"
    r"(?<!program[ _-]key)(?<!dedup[ _-]key)(?<!map[ _-]key)(?<!tx[ _-]key)(?<!hash[ _-]key)(?<!block[ _-]key)"
    r"(?![ \t_-]*(?:ids?|names?|fingerprints?|types?|format|file|path|length|size|pairs?|ring|words?|board|notes?"
    r"|points?|metrics?|frames?|space|values?|takeaways?|features?|findings?|factors?|differences?)\b)"
)
# Whose key it is, where a bare "key" introduces one in a sentence: "wandb key for the team: …", "my key: …".
OWNER = (
    r"(?:my|our|the|team|wandb|w&b|hf|hugging[ ]?face|openai|anthropic|kaggle|replicate|runpod|vast(?:\.ai)?|together"
    r"|cohere|mistral|groq|github|gitlab|stripe|twilio|sendgrid|slack|discord|cloudflare|ngrok|pinecone|langsmith)"
)
# Bounded, so that no pattern can scan further than a long token (an AWS session token is 300–1,000 characters).
# A value in escaped quotes, as a notebook's JSON holds code: `os.environ[\"KEY\"] = \"…\"`.
ESCAPED_VALUE = r"""\\(?P<eq>["'])(?P<escaped>[^"'\\\r\n]{1,2000})\\(?P=eq)"""
# What may follow the word in a name without changing what it holds: `SECRET_KEY_BASE`, `API_KEY_V2`, `TOKEN_PROD`.
NAME_SUFFIX = r"(?:[_-](?:base|b64|base64|hex|value|v\d|\d|prod|dev|live|test|main|new|old))?"
VALUE = r"""(?:(?P<q>["'])(?P<quoted>[^"'\r\n]{1,2000})(?P=q)|(?P<secret>[^\s"'`,;&|<>()\[\]{}]{1,2000}))"""

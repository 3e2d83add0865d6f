"""Values a context pattern finds that are not secrets, whatever name stands before them (round 5, decision 0213).

Each was written into the fifth tuning part as a clean text after a round-4 rule changed it.
"""

from __future__ import annotations

import itertools
import re

__all__ = [
    "BASE64_PADDED",
    "GPU_UUID",
    "NAMES_A_SECRET_OBJECT",
    "code_variable",
    "in_arn",
    "not_a_value_there",
    "random_letters",
    "spared",
    "words_not_values",
]

# A digest's label right before a value ("fingerprint SHA256:…", "MD5:…"): the value is a hash, not a key.
_DIGEST_BEFORE = re.compile(r"(?i)(?:sha-?(?:1|224|256|384|512)|md5)[:=]\Z")
# A YAML tag in place of a value, followed by what it tags: `password: !vault |` (Ansible), `!Ref DbPassword`
# (CloudFormation); `password: !Secret1` alone is a value.
_YAML_TAG = re.compile(r"![A-Za-z][A-Za-z0-9_]*")
_YAML_TAG_VALUE = re.compile(r"[ \t]+\S")
# The line after a Markdown table's header row.
_TABLE_HEADER = re.compile(r"[^\n]*\n[ \t]*\|?[ \t]*:?-{3,}")
# A type in place of a value: `db_password: SecretStr` (pydantic settings), `api_key: Optional[str] = None`,
# `password: String,` (Rust), `token?: string;` (TypeScript) — a field's declaration, not its value (round 6, 0240).
_TYPE_NAME = re.compile(
    r"(?:Secret(?:Str|Bytes)?|Optional|Union|Annotated|Any|String|Option|Text|SecureString|Mapped|Final|ClassVar"
    r"|NotRequired|Required|PasswordStr|Password|bytes|bool|int|&(?:'static[ ]+)?(?:str|\[u8\]))"
    r"(?:\[[\w\[\], |.]{1,60}\]|<[\w<>, ]{1,60}>)?"
)
_TYPE_BEFORE = re.compile(r"\??:[ \t]*\Z")
_TYPE_AFTER = re.compile(r"[ \t]*(?:[=|\[<;,)]|\r?\n|\Z)")
# `GPU-…`/`MIG-…`: what nvidia-smi calls a GPU, in every support request.
GPU_UUID = re.compile(r"(?:GPU|MIG)-[0-9a-fA-F]{8}-")
# Helm's `passwordSecret: db-pass`: the name of the Kubernetes Secret that holds the password (normalised name).
NAMES_A_SECRET_OBJECT = re.compile(r"pass(?:word)?(?:secret|secretname|secretref|ref)$")


# An ARN up to a resource type: `arn:aws:secretsmanager:eu-west-1:123456789012:secret:` names a secret, holds none.
_ARN_BEFORE = re.compile(r"(?i)\barn:aws[\w-]*:[\w-]+:[\w-]*:\d{0,12}:\Z")
# Words that continue a sentence: after a flag or a name they say the sentence is about it ("Using --password via
# the CLI is insecure", "pass --token with the header"); no password is one of these (round 7).
_FUNCTION_WORDS = frozenset(
    [
        "via",
        "with",
        "without",
        "from",
        "into",
        "onto",
        "instead",
        "and",
        "or",
        "but",
        "nor",
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "if",
        "when",
        "then",
        "than",
        "as",
        "at",
        "by",
        "for",
        "in",
        "on",
        "of",
        "to",
        "not",
        "only",
        "also",
        "here",
        "there",
        "this",
        "that",
        "which",
        "who",
        "flag",
        "option",
        "argument",
        "parameter",
        "switch",
    ]
)
# An SSH public key's type, before its base64 body: "clave pública SSH: ssh-ed25519 AAAA…" (round 7).
_KEY_TYPE = re.compile(
    r"(?:sk-)?(?:ssh-(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d{3})(?:@openssh\.com|-cert-v01@openssh\.com)?"
)

_ADDRESS = re.compile(r"[0-9a-fA-F]{40}")


def in_arn(text: str, key_start: int) -> bool:
    """Whether the name at `key_start` is a resource type inside an ARN (`…:secret:NAME`), not a setting."""
    return _ARN_BEFORE.search(text, max(0, key_start - 120), key_start) is not None


def words_not_values(text: str, start: int, end: int) -> bool:
    """Whether the value at text[start:end] is a word that continues a sentence, after a space."""
    return start > 0 and text[start - 1] in " \t" and text[start:end].lower() in _FUNCTION_WORDS


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def code_variable(text: str, start: int, end: int, key: str) -> bool:
    """Whether the unquoted value at text[start:end] is code naming a variable, not a password (round 6, 0240):
    `password=auth_password,`, `self.key_password = key_password`, `password = settings_dict["PASSWORD"]`,
    `kwargs["password"] = self.password`; a `.env` line (`DB_PASSWORD=my_secret`, a name in capitals) is not code.
    """
    value = text[start:end]
    if start == 0 or text[start - 1] in "\"'" or not _IDENTIFIER.fullmatch(value):
        return False
    if any(char.isdigit() for char in value):
        return False  # `urhozc.so7egl39rnyuyw8v` (a kubeadm token) has digits; a variable's name rarely does
    if "." in value or text.startswith(("[", "("), end):
        return True
    return "_" in value and not key.isupper()


# Round 10 (decision 0397): a size after a name, as `kubectl describe secret` lists a Secret's data ("DB_PASSWORD:
# 16 bytes"), or a length ("password: 12 characters", "mật khẩu: 12 ký tự", "şifre: 12 karakter").
_SIZE_AFTER = re.compile(
    r"(?i)[ \t]+(?:bytes?|bayt|octets?|bits?|chars?|characters?|caracteres|caract[èe]res|k[ýy][ \t]+t[ựu]|karakter\w*"
    r"|digits?|d[íi]gitos|ch[ữu][ \t]+s[ốo]|hane)\b"
)


# Words glued in camel case, capitals and acronyms each followed by two or more small letters: `SSHCertPublicKeyTypes`.
_CAMEL_CASE = re.compile(r"[a-z]*(?:[A-Z]+[a-z]{2,})*[A-Z]*")


def random_letters(value: str) -> bool:
    """Letters only, both cases mixed at random ("GrBDosQibySoRwCIPRnYUqPRZ", a Comet API key): not a camel-case
    name ("MyProjectApiKeyName", "SSHCertPublicKeyTypes"), whose capitals start words of two or more small letters
    (0397)."""
    if len(value) < 20 or not (value.isascii() and value.isalpha()):
        return False
    upper = sum(char.isupper() for char in value)
    pairs = sum(1 for a, b in itertools.pairwise(value) if a.isupper() and b.isupper())
    return len(value) // 4 <= upper <= len(value) * 3 // 4 and pairs >= 2 and not _CAMEL_CASE.fullmatch(value)


def spared(text: str, start: int, end: int, *, table_row: bool) -> bool:
    """Whether the value at text[start:end] is a digest, a YAML tag, a type, a table's column name, a label or a
    size."""
    value = text[start:end]
    if value.isdigit() and _SIZE_AFTER.match(text, end):
        return True  # "DB_PASSWORD:   16 bytes" (kubectl describe secret): a size, not a value (0397)
    if _DIGEST_BEFORE.search(text, max(0, start - 8), start):
        return True
    if _YAML_TAG.fullmatch(value) and _YAML_TAG_VALUE.match(text, end):
        return True
    typed = _TYPE_BEFORE.search(text, max(0, start - 4), start) and _TYPE_AFTER.match(text, end)
    if typed and _TYPE_NAME.fullmatch(value):
        return True  # `db_password: SecretStr`: a type annotation
    if text[max(0, start - 2) : start].lower() == "0x" and _ADDRESS.fullmatch(value):
        return True  # "the token contract is 0x…" (40 hex digits): an Ethereum address, public (round 7)
    if _KEY_TYPE.fullmatch(value):
        return True  # `ssh-ed25519 AAAA…`: the type of a public key, its body follows
    if table_row and _TABLE_HEADER.match(text, end):
        return True  # `| password | status |` above `|---|`: the header names the columns
    return value.endswith(":") and value[:-1].isalpha()  # "login: ada / password: …": the next field's label


# Round 9 (decision 0395): where a name is not the name of the value a pattern found after it.
# A key block's armor line names the block below it ("-----BEGIN PGP PUBLIC KEY BLOCK-----"): a public key's or a
# certificate's body is not the value of its "KEY"; a private key's block is found whole by its BEGIN line.
_ARMOR_LINE = re.compile(r"[ \t]*-{4,5} ?(?:BEGIN|END) [^\n]*?-{4,5}[ \t]*$", re.MULTILINE)
# A configuration line below a line that ends with a name: `AWS_SECRET_ACCESS_KEY=your-secret-access-key` and then
# `AWS_DEFAULT_REGION=eu-west-1` is the next setting (the named rule judges it by its own name), not the value.
_SETTING = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*=")
# A key in base64 with its padding (a WireGuard key, 44 characters): it looks like an empty setting, `NAME=`, and may
# hold no digit at all (0592).
BASE64_PADDED = re.compile(r"(?:[A-Za-z0-9+/]{4}){3,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)")
# pass, the Unix password manager, names its entries by paths: `pass: ml/wandb is not in the password store.`,
# `pass show ml/wandb` (a chosen password has capitals or symbols besides a slash).
_PASS_ENTRY = re.compile(r"[a-z0-9._-]+(?:/[a-z0-9._-]+)+")
_PASS_PROGRAM = re.compile(
    r"(?<![\w-])pass[ \t]*:[ \t]*\Z|(?<![\w-])pass[ \t]+(?:show|insert|edit|generate|rm|cp|mv|otp)\b"
)


def not_a_value_there(text: str, key_start: int, key_end: int, start: int, end: int) -> bool:
    """Whether the value at text[start:end] found after a name at text[key_start:key_end] is not that name's value:
    the name is in a key block's armor line, the value is the next line's setting, or the value is an entry of the
    `pass` password manager after its name."""
    line_start = text.rfind("\n", 0, key_start) + 1
    if key_end > key_start and _ARMOR_LINE.match(text, line_start):
        return True
    if key_end > key_start and "\n" in text[key_end:start] and _SETTING.match(text, start):
        return not BASE64_PADDED.fullmatch(text, start, end)
    if _PASS_ENTRY.fullmatch(text, start, end):
        return _PASS_PROGRAM.search(text[max(line_start, start - 40) : start]) is not None
    return False

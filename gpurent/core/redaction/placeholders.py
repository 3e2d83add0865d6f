"""Values that stand for a secret without being one: empty settings, placeholders, masked values, references to
where the secret is kept (a path, the environment, a secret manager), and `user@host:path` targets (decisions
0102, 0212, 0240). `context.py` asks `is_placeholder` before it takes a value for a secret.
"""

from __future__ import annotations

import itertools
import re

__all__ = ["is_placeholder"]

# Values that stand for a secret without being one: empty settings, placeholders, references to elsewhere.
_PLACEHOLDER_WORDS = frozenset(
    [
        "none",
        "null",
        "nil",
        "true",
        "false",
        "undefined",
        "empty",
        "required",
        "optional",
        "missing",
        "invalid",
        "incorrect",
        "wrong",
        "expired",
        "hidden",
        "redacted",
        "masked",
        "secret",
        "password",
        "token",
        "str",
        "string",
        "your_api_key",
        "pass",
        "passwd",
        "pwd",
        "changeme",
        "example",
        "placeholder",
        "yes",  # MySQL's "(using password: YES)" (0213)
        "no",
    ]
)
_PLACEHOLDER = re.compile(
    r"^(?:[*x•.#-]+|\$.*|%[A-Za-z_][A-Za-z0-9_]*%|%\(.*|%[sd]|\{.*|<.*|\(.*|\[.*|os\.|env\.|process\.env.*|getenv.*"
    r"|your[_-].*|.*\*{3,}.*|.*•{3,}.*|.*….*)$",  # masked or cut: `hf_***7ow5`, `sk-••••a1b2`, `pcsk_…7hoe`
    re.I,
)
# Masked or cut in other ways (round 9, 0395): a prefix with its body left out (`sk-ant-api03-...`, `ghp_...`) or
# dots in the middle (`sk-...a1b2`; a value merely followed by a sentence's "..." stays a value), a run of X
# (`dckr_pat_XXXXXXXX`), and the documentation's examples marked in capitals (AWS's `…EXAMPLEKEY`).
_MASKED = re.compile(r"[-_]\.{3,}$|\.{3,}[^.]|X{6,}|x{6,}|EXAMPLE")
# A word in a value that says "put yours here": `my_api_key_here`, `sk-example-key`, `CHANGE_ME`, `dummy-token`.
_PLACEHOLDER_PART = re.compile(
    r"(?i)(?:^|[_. -])(?:your|here|example|placeholder|change[_-]?me|dummy|replace[_-]?me|insert)(?:$|[_. -])"
)


# A value that says where the secret is kept: a file, the environment, a secret manager's reference (1Password's
# `op://vault/item/field`, Vault agent's `vault:secret/data/x#key`, `ref+vault://…`, AWS `arn:aws:secretsmanager:…`
# and CloudFormation's `{{resolve:secretsmanager:…}}`, GCP `sm://…`, Azure `@Microsoft.KeyVault(…)`) (round 6, 0240).
_ELSEWHERE = (
    "os.",
    "env.",
    "file://",
    "fileb://",
    "op://",
    "vault:",
    "ref+",
    "arn:aws:secretsmanager:",
    "arn:aws:ssm:",
    "sm://",
    "gcpsm://",
    "awssm://",
    "akv://",
    "bws://",
    "@microsoft.keyvault",
    "keyvault:",
    "doppler://",
    "infisical://",
)


def _is_path(value: str) -> bool:
    """`/run/secrets/db_password`, `~/keys/sa.json`: a file holding a secret, not a secret (a base64 key may also
    start with `/`, but it has no `.`, `_` or `-` and mixes cases)."""
    if not value.startswith(("/", "~/", "./", "../")):
        return False
    return any(char in value for char in "._-") or value == value.lower()


# scp's and restic's `user@host:/path` (`sftp:backup@host:/ckpt`): where something is, not a password (round 6)
_SCP_TARGET = re.compile(r"[\w.-]+@[\w-]+(?:\.[\w-]+)+:\S*")


# A value that is itself an assignment: "(DB_PASSWORD=...)" in a sentence that names the setting (round 7).
_ASSIGNMENT = re.compile(r"[A-Za-z_][\w.-]{0,60}=(?P<rhs>.+)")


# Round 10 (decision 0397): a value made of one character over and over (`0000…0000`, `aaaaaaaa`, the nil UUID
# `00000000-0000-0000-0000-000000000000`) or of the alphabet or the digits in order (`1234567890abcdef…`) is what
# an `.env.example` puts where the key goes, not a key.
_SEPARATORS = frozenset("-_.:/ ")
_IN_ORDER = "0123456789abcdefghijklmnopqrstuvwxyz"


def _filler(value: str) -> bool:
    """One character repeated (8 or more), or 16 or more characters counting up, with at most one restart."""
    body = [char for char in value.lower() if char not in _SEPARATORS]
    if len(body) >= 8 and len(set(body)) == 1:
        return True
    if len(body) < 16:
        return False
    restarts = sum(1 for a, b in itertools.pairwise(body) if f"{a}{b}" not in _IN_ORDER and f"{a}{b}" != "90")
    return restarts <= 1 and all(char in _IN_ORDER for char in body)


def is_placeholder(value: str) -> bool:
    """Whether `value` stands for a secret without being one: `None`, `${DB_PASSWORD}`, `<token>`, a path."""
    if _filler(value):
        return True
    assignment = _ASSIGNMENT.fullmatch(value)
    if assignment is not None and is_placeholder(assignment.group("rhs")):
        return True
    lowered = value.lower()
    if lowered in _PLACEHOLDER_WORDS or _is_path(value) or lowered.startswith(_ELSEWHERE):
        return True
    if _SCP_TARGET.fullmatch(value):
        return True
    return bool(_PLACEHOLDER.match(value) or _PLACEHOLDER_PART.search(value) or _MASKED.search(value))

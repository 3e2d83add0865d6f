"""The public keys installed on a rental's machine, as an operator or a provisioning command gives them: checked one
line at a time as the account page checks a customer's key (QA walk 3, defect 24: "hello world" was accepted as the
customer's login), and fingerprinted for the desk and the operators' e-mails.
"""

from __future__ import annotations

from gpurent.accounts.sshkeys import public_key_parse
from gpurent.core.errors import InvalidRequest

__all__ = ["installed_keys_checked", "key_fingerprints"]


def installed_keys_checked(text: str) -> str:
    """The public keys an operator (or a provisioning command) says were installed, one per line, each checked as the
    account page checks a customer's key (`public_key_parse`) and written as it normalises it; "" for none.

    Raises:
        InvalidRequest: a line is not an SSH public key (or is a private key, never kept), naming the line.
    """
    lines = [line for line in text.strip().splitlines() if line.strip()]
    checked = []
    for number, line in enumerate(lines, start=1):
        try:
            checked.append(public_key_parse(line).line)
        except InvalidRequest as error:
            # Desk-only text, in English like the desks (decision 0418); the key's own refusal as the account says it.
            where = f", line {number}" if len(lines) > 1 else ""
            raise InvalidRequest(f"Other public key installed{where}: {error.message}") from None
    return "\n".join(checked)


def key_fingerprints(text: str) -> list[str]:
    """The SHA256 fingerprints of the public keys in `text` (one per line, as `authorized_keys` holds them), as
    `ssh-keygen -l` prints them; a line that is not a public key is left out."""
    fingerprints = []
    for line in text.splitlines():
        try:
            fingerprints.append(public_key_parse(line).fingerprint)
        except InvalidRequest:
            continue
    return fingerprints

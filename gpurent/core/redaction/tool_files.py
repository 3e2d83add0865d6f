"""Secrets in the files and command lines of particular tools (round 7, decision 0241).

An Expect or pexpect script answers a password prompt with `send "…\\r"`; pgbouncer's `userlist.txt` holds
`"user" "password"` lines; Composer and Poetry store a registry's credentials with `config http-basic.HOST USER
PASS`; Vault's AppRole logs in with a `role_id` and a `secret_id` (a UUID that is the credential). `context.py`
runs these with its own patterns and checks each value the same way.
"""

from __future__ import annotations

import re

from .kinds import Kind
from .vocabulary import VALUE

__all__ = ["TOOL_FILE_PATTERNS", "USERLIST", "USERLIST_NEED"]

# An Expect prompt that asks for a password ("password:", Expect's usual "*assword*", a passphrase, "şifre",
# "contraseña"), then the answer sent to it on the same line (`{ send "…\r" }`) or the next (pexpect's
# `child.expect('Password:')` + `child.sendline('…')`).
_EXPECT_SEND = re.compile(
    r"""(?i)\bexpect(?:[ \t]+-(?:re|ex|gl|nocase))?[ \t(]+(?P<pq>["'{])[^"'}\n]{0,40}?"""
    r"""(?:assword|passphrase|passcode|contrase|[şs]ifre|parola|m[ậa]t[ \t]kh[ẩa]u)[^"'}\n]{0,40}(?P=pq)?[ \t)]*"""
    r"""[{;]?[ \t]*(?:\r?\n[ \t]*)?(?:[\w.]+\.)?send(?:line)?(?:[ \t]+--)?[ \t(]+"""
    r"""(?P<q>["'])(?P<quoted>[^"'\\\r\n]{1,300})(?:\\[rn])*(?P=q)"""
)
# pgbouncer's auth file: `"user" "password"` (or an md5/SCRAM digest, which logs in as well as the password), one
# per line; only in a text that names the file (`USERLIST_NEED`), since two quoted words are common elsewhere.
USERLIST = re.compile(r"""(?m)^[ \t]*"[\w.@-]{1,63}"[ \t]+(?P<q>")(?P<quoted>[^"\r\n]{1,300})"[ \t]*\r?$""")
USERLIST_NEED = re.compile(r"(?i)userlist|auth_file|pgbouncer")

TOOL_FILE_PATTERNS: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    (_EXPECT_SEND, Kind.PASSWORD, "any"),
    (USERLIST, Kind.PASSWORD, "any"),
    # `composer config --global http-basic.repo.example.com USER PASS`, `… bitbucket-oauth.HOST KEY SECRET`,
    # `… gitlab-token.HOST TOKEN`, `… github-oauth.github.com TOKEN`; Poetry's `config http-basic.NAME USER PASS`
    # and `config pypi-token.NAME TOKEN`
    (
        re.compile(
            r"""(?i)\b(?:composer|poetry)[ \t]+config(?:[ \t]+-{1,2}[\w-]+)*[ \t]+"""
            r"""(?:(?:http-basic|bitbucket-oauth)\.\S{1,200}[ \t]+\S{1,200}|(?:gitlab-token|gitlab-oauth|github-oauth"""
            rf"""|bearer|pypi-token)\.\S{{1,200}})[ \t]+{VALUE}"""
        ),
        Kind.PASSWORD,
        "any",
    ),
    # `--gradio-auth maria:S3cret`, `--api-auth=admin:S3cret`: a flag named after "auth" with `user:password`; the
    # user stays (several `user:password` pairs, separated by commas, go together)
    (
        re.compile(
            r"""(?i)(?<![\w-])--?(?P<key>[a-z0-9_.-]{0,30}auth)(?:=|[ \t]+)["']?[^\s:"'/=]{1,64}:"""
            r"""(?P<secret>[^\s"']{1,300})"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # a session cookie in a cookie string (`name=value; name=value`) copied from a browser without its header; a
    # session id in a URL's query (`?sid=…&`) is not a cookie string
    (
        re.compile(
            r"""(?i)(?P<key>(?:session|sessid|sid)(?:_?id)?)=(?P<secret>[^;\s"'&]{16,4000})"""
            r""";[ \t]*[\w.-]{1,60}="""
        ),
        Kind.SECRET,
        "random",
    ),
    # Vault AppRole: `vault write auth/approle/login role_id=… secret_id=…`, `VAULT_SECRET_ID=…`, `approle_secret_id`
    (
        re.compile(
            r"""(?i)(?:\brole[_-]?id["']?[ \t]*[=:][ \t]*["']?[\w-]{1,100}["']?[ \t,;]+(?:\\?\r?\n[ \t]*)?"""
            r"""|\b(?:vault|approle)[_-])(?P<key>secret[_-]?id)["']?[ \t]*[=:][ \t]*"""
            rf"""{VALUE}"""
        ),
        Kind.SECRET,
        "any",
    ),
)

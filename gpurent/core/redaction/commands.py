"""Secrets that a command line, a client's session or a line of code puts in a known place (decision 0102).

`mysql -pS3cret`, `sshpass -p …`, `redis-cli -a …`, `docker login -p …`, `curl -u user:pass`, `wandb login KEY`,
`sqlplus scott/tiger@orcl`, `ldapsearch -w …`, `mc alias set NAME URL ACCESS SECRET`, `AUTH …` typed at a
`redis-cli` prompt, `NEO4J_AUTH=neo4j/…`, a `~/.pgpass` line, `Client(account_sid, auth_token)` and an
Ethereum key handed to a wallet library. Each pattern's `secret` group is the value; `context.py` runs them
with its own (`CONTEXT_PATTERNS`) and checks the value the same way.
"""

from __future__ import annotations

import re

from .kinds import Kind

__all__ = ["COMMAND_PATTERNS"]

# A command-line argument: quoted or not, glued to its flag or not.
_ARG = r"""(?P<q>["']?)(?P<secret>[^\s"']{1,300})(?P=q)"""

# (pattern, kind, rule), as in `context.CONTEXT_PATTERNS`.
COMMAND_PATTERNS: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    # database and login clients' password flags: `mysql -pS3cret`, `sshpass -p '…'`, `redis-cli -a …`,
    # `docker login -p …`, `az login -p …`, `twine upload -p …`, `mongosh -p …`
    (
        re.compile(rf"""(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]*?[ \t]-p{_ARG}"""),
        Kind.PASSWORD,
        "flag",
    ),
    (re.compile(rf"""(?i)\bsshpass\b[^\n]*?[ \t]-p[ \t]*{_ARG}"""), Kind.PASSWORD, "flag"),
    (re.compile(rf"""\bredis-cli\b[^\n]*?[ \t](?:-a|--pass)[ \t]+{_ARG}"""), Kind.PASSWORD, "flag"),
    (
        re.compile(
            r"""\b(?:(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane)\b[^\n]*?\blogin|az|twine|mongo|mongosh"""
            r"""|mongodump|mongorestore|mongoexport|mongoimport|sqlcmd|lftp|smbclient|rabbitmqctl|cqlsh)\b"""
            rf"""[^\n]*?[ \t]-[pP][ \t]+{_ARG}"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    # `curl -u user:pass`, `curl --user user:pass`, `wget --user=… --password=…` (the latter by `--password`)
    (
        re.compile(
            r"""\b(?:curl|http|https)\b[^\n]*?[ \t](?:-u|--user)(?:=|[ \t]+)["']?[^\s:"']+:(?P<secret>[^\s"']+)"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    # logins that take the key as an argument: `wandb login KEY`, `ngrok config add-authtoken KEY`, `vault login
    # TOKEN`, `prefect cloud login -k KEY`, `netlify … --auth KEY`, `npm config set …:_authToken KEY`,
    # `doctl auth init -t TOKEN`, `wandb.login(key=…)`
    (
        re.compile(
            r"""(?i)\b(?:wandb[ \t]+login(?:[ \t]+--[a-z-]+)*|ngrok[ \t]+(?:config[ \t]+add-)?authtoken"""
            r"""|vault[ \t]+login|vastai[ \t]+set[ \t]+api-key|prefect[ \t]+cloud[ \t]+login[ \t]+(?:-k|--key)"""
            r"""|netlify\b[^\n]*?--auth"""
            r"""|npm[ \t]+config[ \t]+set[ \t]+\S*_authToken|doctl[ \t]+auth[ \t]+init[ \t]+(?:-t|--access-token)"""
            rf"""|\blogin\([ \t]*(?:key|api_key))[ \t]*=?[ \t]*{_ARG}"""
        ),
        Kind.SECRET,
        "login",
    ),
    # `sqlplus scott/tiger@orcl`, `expdp system/…@db`: Oracle's user/password@service
    (
        re.compile(
            r"""\b(?:sqlplus|rman|expdp|impdp|sqlldr|dgmgrl)[ \t]+(?:-[a-z]+[ \t]+)*[^\s/@]{1,64}/"""
            r"""(?P<secret>[^\s@]{1,300})@"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    # `ldapsearch … -w secret` (`-W` prompts instead)
    (re.compile(rf"""\bldap[a-z]*\b[^\n]*?[ \t]-w[ \t]+{_ARG}"""), Kind.PASSWORD, "flag"),
    # MinIO's client: `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (also the older `mc config host add`)
    (
        re.compile(
            r"""\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)(?:[ \t]+\S+){3}[ \t]+(?P<secret>[^\s"']+)"""
        ),
        Kind.SECRET,
        "flag",
    ),
    # `AUTH [user] password` typed at a `redis-cli` prompt (`10.0.0.3:6379> AUTH …`)
    (re.compile(r"""(?i)\d>[ \t]*AUTH[ \t]+(?:\S+[ \t]+)?(?P<secret>[^\s"']+)"""), Kind.PASSWORD, "flag"),
    # `NEO4J_AUTH=neo4j/password`
    (
        re.compile(r"""(?i)\bNEO4J_AUTH["']?[ \t]*[=:][ \t]*["']?[^\s/"']+/(?P<secret>[^\s"']+)"""),
        Kind.PASSWORD,
        "flag",
    ),
    # a `~/.pgpass` line: host:port:database:user:password
    (
        re.compile(
            r"""(?m)^[ \t]*(?=[^:\n]{0,253}[A-Za-z.*])[A-Za-z0-9.*_-]{1,253}:(?:\d{2,5}|\*)"""
            r""":[A-Za-z0-9.*_-]{1,64}:[A-Za-z0-9.*_@-]{1,64}:(?P<secret>\S{1,300})[ \t]*$"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # Twilio's `Client(account_sid, auth_token)` with the token written out
    (
        re.compile(
            r"""\bClient\([ \t]*(?:["']AC[0-9a-f]{32}["']|[A-Za-z_][\w.]*)[ \t]*,[ \t]*"""
            r"""["'](?P<secret>[0-9a-f]{32})["']"""
        ),
        Kind.SECRET,
        "any",
    ),
    # an Ethereum key handed to a wallet library: `new Wallet("0x…")`, `Account.from_key(…)`, `privateKeyToAccount`
    (
        re.compile(
            r"""\b(?:Wallet|from_key|privateKeyToAccount|fromPrivateKey|SigningKey|signing_key)\([ \t]*["']"""
            r"""(?:0x)?(?P<secret>[0-9a-fA-F]{64})["']"""
        ),
        Kind.PRIVATE_KEY,
        "any",
    ),
)

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

# The name of a setting that holds a secret, in `config set NAME VALUE` and its kin.
_SETTING = r"""[\w.-]*?(?:pass(?:word|wd|phrase)?|secret|token|key|credentials?|auth|access[_-]?key[_-]?id)"""

# (pattern, kind, rule), as in `context.CONTEXT_PATTERNS`.
COMMAND_PATTERNS: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    # database and login clients' password flags: `mysql -pS3cret`, `sshpass -p '…'`, `redis-cli -a …`,
    # `docker login -p …`, `az login -p …`, `twine upload -p …`, `mongosh -p …`
    (
        re.compile(rf"""(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]*?[ \t]-p{_ARG}"""),
        Kind.PASSWORD,
        "flag",
    ),
    # `sshpass -p …` before the command it runs (`sshpass -f file ssh -p 2222 …`: the port of ssh, round 6)
    (
        re.compile(rf"""(?i)\bsshpass(?:[ \t]+-(?:[fdP][ \t]*\S+|[ev]+))*[ \t]+-p[ \t]*{_ARG}"""),
        Kind.PASSWORD,
        "flag",
    ),
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
            r"""\b(?:curl|http|https|httpie)\b[^\n]*?[ \t](?:-u|--user|-a|--auth)(?:=|[ \t]+)["']?[^\s:"']+:"""
            r"""(?P<secret>[^\s"']+)"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    # `curl -u TOKEN: …`: an API key as the user, with an empty password (Lambda Cloud, Stripe, Mailgun)
    (
        re.compile(
            r"""\bcurl\b[^\n]*?[ \t](?:-u|--user)(?:=|[ \t]+)["']?(?P<secret>[^\s:"']{16,}):(?=["']?(?:\s|$))"""
        ),
        Kind.SECRET,
        "random",
    ),
    # logins that take the key as an argument: `wandb login KEY`, `ngrok config add-authtoken KEY`, `vault login
    # TOKEN`, `prefect cloud login -k KEY`, `netlify … --auth KEY`, `npm config set …:_authToken KEY`,
    # `doctl auth init -t TOKEN`, `wandb.login(key=…)`
    (
        re.compile(
            r"""(?i)\b(?:wandb[ \t]+login(?:[ \t]+--host[ =]\S+|[ \t]+--(?!host)[a-z-]++)*+"""
            r"""|ngrok[ \t]+(?:config[ \t]+add-)?authtoken"""
            r"""|vault[ \t]+login|vastai[ \t]+set[ \t]+api-key|prefect[ \t]+cloud[ \t]+login[ \t]+(?:-k|--key)"""
            r"""|netlify\b[^\n]*?--auth"""
            r"""|npm[ \t]+config[ \t]+set[ \t]+\S*_authToken|doctl[ \t]+auth[ \t]+init[ \t]+(?:-t|--access-token)"""
            r"""|cloudflared[ \t]+service[ \t]+install"""
            rf"""|\blogin\([ \t]*(?:key|api_key))(?:[ \t]*=[ \t]*|[ \t]+){_ARG}"""
        ),
        Kind.SECRET,
        "login",
    ),
    # a user flag and then a password flag on one command line: `psexec -u Administrator -p …`, `ipmitool -U ADMIN
    # -P …`, `oc login -u kubeadmin -p …`, `xfreerdp /u:admin /p:…`, `plink -pw …` (`docker run -u 1000 -p 8080:80`
    # is a port: `_kind` refuses digits and ports for this rule)
    (
        re.compile(
            r"""(?<!\S)(?:-[uU]|--username|/u:)(?:=|[ \t]*)[^\s-]\S*(?:[ \t]+\S+){0,3}?[ \t]+(?:-[pP]|/p:)"""
            rf"""(?:=|[ \t]*){_ARG}"""
        ),
        Kind.PASSWORD,
        "userpass",
    ),
    (re.compile(rf"""(?<!\S)-pw[ \t]+{_ARG}"""), Kind.PASSWORD, "password"),
    # `smbclient -U user%password`, `lftp -u user,password`
    (
        re.compile(r"""(?<!\S)(?:-U|--user(?:name)?)(?:=|[ \t]+)["']?[^\s%"']+%(?P<secret>[^\s"']+)"""),
        Kind.PASSWORD,
        "flag",
    ),
    (re.compile(r"""\blftp\b[^\n]*?[ \t]-u[ \t]+["']?[^\s,"']+,(?P<secret>[^\s"']+)"""), Kind.PASSWORD, "flag"),
    # password flags named after what they protect: `keytool -storepass …`, `-srcstorepass`, `-keypass`, and
    # OpenSSL's `-passout pass:…`, `-passin pass:…`, `-k pass:…`
    (
        re.compile(rf"""(?i)(?<![A-Za-z0-9-])-(?P<key>(?:src|dest)?(?:store|key)pass)(?:=|[ \t]+){_ARG}"""),
        Kind.PASSWORD,
        "flag",
    ),
    (
        re.compile(r"""(?<!\S)-(?:pass(?:in|out)?|password|k|kfile)[ \t]+pass:(?P<secret>[^\s"']+)"""),
        Kind.PASSWORD,
        "flag",
    ),
    # archives: `7z x a.7z -pS3cret`, `unzip -P S3cret a.zip`, `rar a -hpS3cret`
    (
        re.compile(rf"""\b(?:7z|7za|7zz|zip|unzip|rar|unrar|zipcloak)\b[^\n]*?[ \t]-(?:p|P|hp)[ \t]?{_ARG}"""),
        Kind.PASSWORD,
        "password",
    ),
    # positional passwords: `htpasswd -b file user PASS`, `rabbitmqctl add_user NAME PASS`, `net user NAME PASS`,
    # `poetry config http-basic.REPO USER PASS`
    (
        re.compile(
            r"""\bhtpasswd\b(?=[^\n]*[ \t]-[a-zA-Z]*b)[^\n;&|]*[ \t](?P<q>["']?)(?P<secret>[^\s"'-][^\s"']*)(?P=q)"""
            r"""[ \t]*(?=$|[\n;&|])"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    (
        re.compile(rf"""\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+{_ARG}"""),
        Kind.PASSWORD,
        "flag",
    ),
    (re.compile(r"""(?i)\bnet[ \t]+user[ \t]+\S+[ \t]+(?P<secret>[^\s/*"'][^\s"']*)"""), Kind.PASSWORD, "password"),
    (re.compile(rf"""\bpoetry[ \t]+config[ \t]+http-basic\.\S+[ \t]+\S+[ \t]+{_ARG}"""), Kind.PASSWORD, "flag"),
    # a value piped into a login: `echo 'S3cret' | docker login --password-stdin`, `| gh auth login --with-token`,
    # `echo 'root:S3cret' | chpasswd`, `echo S3cret | sudo -S …`
    (
        re.compile(
            r"""\b(?:echo|printf)(?:[ \t]+-[neE]+)*(?:[ \t]+(?P<f>["'])%s(?:\\n)?(?P=f))?[ \t]+"""
            r"""(?P<q>["']?)(?P<secret>[^\s"'|]{1,2000})(?P=q)[ \t]*\|"""
            r"""(?=[^\n]*(?:\blogin\b|passwd|--password-stdin|--with-token|sudo[ \t]+-S|--data-file[ =]-"""
            r"""|\bsecrets?\b))"""
        ),
        Kind.PASSWORD,
        "pipe",
    ),
    # `config set NAME VALUE` and its kin: `aws configure set aws_secret_access_key …`, `yarn config set
    # npmAuthToken …`, `git config github.token …`, `dvc remote modify … password …`, `rclone config create …
    # secret_access_key …`
    (
        re.compile(rf"""(?i)\b(?:config(?:ure)?|config:set|modify)\b[^\n]*?[ \t](?P<key>{_SETTING})[ \t]+{_ARG}"""),
        Kind.SECRET,
        "setting",
    ),
    # the second setting of one command: `rclone config create r2 s3 access_key_id … secret_access_key …` (round 6)
    (
        re.compile(
            rf"""(?i)\b(?:config(?:ure)?|config:set|modify)\b[^\n]*?[ \t]{_SETTING}[ \t]+\S+[^\n]*?[ \t]"""
            rf"""(?P<key>{_SETTING})[ \t]+{_ARG}"""
        ),
        Kind.SECRET,
        "setting",
    ),
    # a secret stored by name: `aws ssm put-parameter --name …/db-password --value …`, `az keyvault secret set
    # --name hf-token --value …`, `gh secret set NAME --body …`
    (
        re.compile(
            r"""(?i)(?:--name|(?<!\S)-n)[ =](?P<key>\S*(?:pass|pwd|secret|token|key|credential|auth)\S*)"""
            rf"""(?:[ \t]+\S+){{0,6}}?[ \t]+(?:--value|-v)[ =]{_ARG}"""
        ),
        Kind.SECRET,
        "flag",
    ),
    (re.compile(rf"""\bgh[ \t]+secret[ \t]+set[ \t]+\S+[^\n]*?[ \t](?:-b|--body)[ =]{_ARG}"""), Kind.SECRET, "flag"),
    # what a command stores as a secret, whatever its name: `kubectl create secret generic … --from-literal=hf=…`,
    # `az keyvault secret set … --value …`, `aws secretsmanager create-secret … --secret-string …` (round 6, 0240)
    (
        re.compile(rf"""(?i)--from-literal[ =](?P<key>[\w.-]{{1,60}})={_ARG}"""),
        Kind.SECRET,
        "random",  # `--from-literal=region=us-east-1` is a setting; `password=…` is caught by its name
    ),
    (
        re.compile(
            r"""(?i)\bsecrets?[ \t]+(?:set|create|put|add|put-secret-value|create-secret|update-secret)\b[^\n]*?"""
            rf"""[ \t]--value[ =]{_ARG}"""
        ),
        Kind.SECRET,
        "setting",
    ),
    (
        re.compile(rf"""(?i)--secret-(?:string|value|text)[ =]{_ARG}"""),
        Kind.SECRET,
        "setting",
    ),
    # a here-string into a login or a password command: `docker login … --password-stdin <<< …`, `chpasswd <<<
    # 'root:…'`, `vncpasswd -f <<< …`, `gcloud secrets versions add … --data-file=- <<< …` (round 6, 0240)
    (
        re.compile(
            r"""(?:\blogin\b|passwd|--password-stdin|--with-token|sudo[ \t]+-S|--data-file[ =]-|\bsecrets?\b)"""
            r"""[^\n]{0,200}?<<<[ \t]*(?P<q>["']?)(?P<secret>[^\s"'|]{1,2000})(?P=q)"""  # bounded: linear time
        ),
        Kind.PASSWORD,
        "pipe",
    ),
    # a token's id that is half of a pair: `modal token set --token-id ak-… --token-secret as-…`
    (re.compile(rf"""(?<![\w-])--token-id[ =]{_ARG}"""), Kind.SECRET, "random"),
    # key passphrases: `ssh-keygen -N 'new' -P 'old'`, `openssl enc -k …` (`-pass pass:…` is above)
    (re.compile(rf"""\bssh-keygen\b[^\n]*?[ \t]-N[ \t]*{_ARG}"""), Kind.PASSWORD, "password"),
    (re.compile(rf"""\bssh-keygen\b[^\n]*?[ \t]-P[ \t]*{_ARG}"""), Kind.PASSWORD, "password"),
    (re.compile(rf"""\bopenssl\b[^\n]*?[ \t]-k[ \t]+{_ARG}"""), Kind.PASSWORD, "password"),
    # a token as a login command's argument: `replicate auth login r8_…`, `railway login --token …`, `<cli> login
    # KEY` — only a generated-looking value (`docker login nvcr.io` names a registry)
    (
        re.compile(
            r"""(?i)\b[\w-]+[ \t]+(?:auth[ \t]+)?login"""
            r"""(?:[ \t]+--?(?:token|key|api-key|apikey|auth)(?:=|[ \t]+)|[ \t]+)"""
            r"""(?P<q>["']?)(?P<secret>[^\s"'-][^\s"']{15,300})(?P=q)"""
        ),
        Kind.SECRET,
        "random",
    ),
    # a password as a client library's positional argument: `smtp.login("me@gmail.com", "abcd efgh ijkl mnop")`
    # (smtplib, imaplib, ftplib, poplib), `FTP(host, user, "…")`, `new NetworkCredential("user", "…")` (.NET),
    # `new PasswordAuthentication(user, "…")` (JavaMail), `DriverManager.getConnection(url, user, "…")` (JDBC),
    # `new PDO($dsn, $user, '…')`, `mysqli_connect(host, user, '…')` (PHP), `smtp.PlainAuth("", user, "…", host)` (Go)
    (
        re.compile(
            r"""(?:\.login|\bNetworkCredential|\bPasswordAuthentication|\bUsernamePasswordCredentials"""
            r"""|yagmail\.SMTP)\([ \t]*"""
            r"""(?:["'][^"'\n]{1,100}["']|[A-Za-z_$][\w.$\[\]"']{0,60})[ \t]*,[ \t]*"""
            r"""(?P<q>["'])(?P<secret>[^"'\n]{4,300})(?P=q)[ \t]*\)"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    (
        re.compile(
            r"""\b(?:FTP|FTP_TLS|getConnection|PDO|mysqli|mysqli_connect|mysql_connect|PlainAuth|Connection"""
            r"""|MySQLdb\.connect|pymysql\.connect)\([ \t]*"""
            r"""(?:(?:["'][^"'\n]{0,200}["']|[A-Za-z_$][\w.$\[\]"']{0,60})[ \t]*,[ \t]*){2}"""
            r"""(?P<q>["'])(?P<secret>[^"'\n]{4,300})(?P=q)"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    # an API client given its key as the first argument: `cohere.ClientV2("…")`, `Groq("…")`, `Pinecone("…")`
    # (a generated-looking value only: `Client("localhost:6379")` names a server) (round 6)
    (
        re.compile(
            r"""\b(?:[A-Z]\w{0,30})?(?:Client(?:V\d)?|OpenAI|Anthropic|Groq|Pinecone|Mistral|Cohere|Together)\("""
            r"""[ \t]*(?P<q>["'])(?P<secret>[A-Za-z0-9_.-]{20,300})(?P=q)[ \t]*[,)]"""
        ),
        Kind.SECRET,
        "random",
    ),
    # a literal wrapped as a secret or given as one: `SecretStr('…')` (pydantic), `pop.pass_('…')` (poplib)
    (
        re.compile(r"""(?:\bSecretStr|\bSecretBytes|\.pass_)\([ \t]*b?(?P<q>["'])(?P<secret>[^"'\n]{4,300})(?P=q)"""),
        Kind.PASSWORD,
        "flag",
    ),
    # `cat ~/.vast_api_key` and the key it printed on the next line
    (
        re.compile(
            r"""(?i)\bcat[ \t]+(?P<key>\S*(?:pass(?:word|wd)?|secret|token|key|credentials?)(?:[.-][\w.-]*)?)"""
            r"""[ \t]*\r?\n"""
            r"""(?P<q>["']?)(?P<secret>[^\s"']{8,2000})(?P=q)[ \t]*(?=\r?\n|$)"""
        ),
        Kind.SECRET,
        "setting",
    ),
    # redis.conf: `requirepass S3cret`, `masterauth S3cret`
    (re.compile(rf"""(?m)^[ \t]*(?:requirepass|masterauth)[ \t]+{_ARG}"""), Kind.PASSWORD, "flag"),
    # PowerShell: `ConvertTo-SecureString 'S3cret' -AsPlainText`
    (
        re.compile(rf"""(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?{_ARG}(?=[^\n]*-AsPlainText)"""),
        Kind.PASSWORD,
        "flag",
    ),
    # HTTP basic auth in code: `auth=('admin', 'S3cret')`, `HTTPBasicAuth('user', 'S3cret')`
    (
        re.compile(
            r"""\b(?:auth|HTTPBasicAuth|HTTPDigestAuth|BasicAuth)[ \t]*(?:=[ \t]*\(|\()[ \t]*["'][^"'\n]{1,100}["']"""
            r"""[ \t]*,[ \t]*["'](?P<secret>[^"'\n]{1,300})["']"""
        ),
        Kind.PASSWORD,
        "flag",
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
    # MinIO's client: `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (also the older `mc config host add`); an
    # S3-compatible store's access key is not prefixed like AWS's `AKIA…`, so it goes as well (round 6, 0240)
    (
        re.compile(
            r"""\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)(?:[ \t]+[^\s-]\S*){3}[ \t]+"""
            r"""(?P<secret>[^\s"'-][^\s"']*)"""
        ),
        Kind.SECRET,
        "flag",
    ),
    (
        re.compile(
            r"""\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)(?:[ \t]+[^\s-]\S*){2}[ \t]+"""
            r"""(?P<secret>[^\s"'-][^\s"']*)"""
            r"""(?=[ \t]+[^\s-])"""
        ),
        Kind.SECRET,
        "random",  # a generated access key; `mc alias set local URL admin …` keeps the MinIO root user's name
    ),
    # Backblaze B2: `b2 authorize-account KEY_ID APPLICATION_KEY` (`b2 account authorize` in b2 v4), both go
    (
        re.compile(
            r"""\bb2[ \t]+(?:authorize-account|account[ \t]+authorize)[ \t]+(?P<q>["']?)(?P<secret>[A-Za-z0-9]{12,})"""
            r"""(?P=q)(?=[ \t]+[^\s-])"""
        ),
        Kind.SECRET,
        "random",
    ),
    (
        re.compile(
            r"""\bb2[ \t]+(?:authorize-account|account[ \t]+authorize)[ \t]+\S+[ \t]+"""
            r"""(?P<q>["']?)(?P<secret>[A-Za-z0-9/+]{12,})(?P=q)"""
        ),
        Kind.SECRET,
        "flag",
    ),
    # a value written into a file named after a secret: `echo ID:SECRET > ~/.passwd-s3fs` (s3fs), `echo '…' >
    # ~/.vault_pass` (ansible-vault), `echo … > /run/secrets/db_password` (`cat` of such a file: below); and a
    # password command that only echoes it: `restic --password-command 'echo …'`
    (
        re.compile(
            r"""\b(?:echo|printf)(?:[ \t]+-[neE]+)*[ \t]+(?P<q>["']?)(?P<secret>[^\s"'|>]{1,2000})(?P=q)"""
            r"""[ \t]*>>?[ \t]*"""
            r"""(?P<key>\S*(?:pass|secret|token|key|cred|pwd)[\w.-]*)"""
        ),
        Kind.SECRET,
        "setting",
    ),
    (
        re.compile(
            r"""(?i)--?[\w-]*(?:pass|secret|token|key)[\w-]*-command[ =]["']?(?:echo|printf)[ \t]+"""
            r"""(?P<q2>\\?["']?)(?P<secret>[^\s"'\\]{1,300})"""
        ),
        Kind.PASSWORD,
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

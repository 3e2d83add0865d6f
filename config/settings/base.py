"""Settings shared by every environment.

Environment-specific modules (`local`, `test`, `production`) import this one and override what differs.
Every value that an operator may change comes from an environment variable; README lists them all.
"""

import ipaddress
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF

# Lets generic Django classes be subscripted at run time (ModelAdmin[User]) as the type stubs expect.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parents[2]


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable ("1", "true", "yes", "on" mean yes)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated environment variable."""
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# The networks the shop takes payments on (gpurent.payments.assets.NETWORKS, which settings cannot import).
CHAIN_NETWORKS = ("bitcoin", "litecoin", "ethereum", "tron", "solana")


def env_map(name: str, *, keys: Callable[[str], bool], values: Callable[[str], bool]) -> dict[str, str]:
    """Read a comma-separated list of `key=value` pairs (`bitcoin=3,litecoin=2`); unset or empty: `{}`.

    Raises:
        ImproperlyConfigured: an entry is not `key=value`, or `keys`/`values` refuses its key or its value; the
            message names the variable and the entry, so a typo stops every process at start, not a payment.
    """
    from django.core.exceptions import ImproperlyConfigured

    found: dict[str, str] = {}
    for entry in env_list(name, []):
        key, sep, value = (part.strip() for part in entry.partition("="))
        if not sep or not keys(key) or not values(value):
            raise ImproperlyConfigured(f"{name}: {entry!r} is not a valid entry (see README, Configuration)")
        found[key] = value
    return found


def env_networks(name: str) -> list[str]:
    """Read a comma-separated list of IP addresses and networks (`10.0.0.5,192.0.2.0/24`); unset: `[]`.

    Raises:
        ImproperlyConfigured: an entry is neither an address nor a network (naming the variable and the entry).
    """
    from django.core.exceptions import ImproperlyConfigured

    entries = env_list(name, [])
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError as error:
            raise ImproperlyConfigured(f"{name}: {entry!r} is not an IP address or network") from error
    return entries


def _network(key: str) -> bool:
    return key in CHAIN_NETWORKS


def _pair_key(key: str) -> bool:
    asset, sep, network = key.partition("/")
    return bool(sep) and asset.isalnum() and asset.isupper() and network in CHAIN_NETWORKS


def database_from_env(default_sqlite: Path, *, conn_max_age: int) -> dict[str, Any]:
    """The default database: `DATABASE_URL` when set (PostgreSQL in production), else a SQLite file.

    A server connection is kept `conn_max_age` seconds after a request (0: closed at the end of each request) and
    checked before a request reuses it (`CONN_HEALTH_CHECKS`), so one the server closed while it sat idle is
    replaced instead of failing the request.
    SQLite runs in WAL mode with IMMEDIATE transactions: every `atomic()` block takes the write lock at
    BEGIN, so two read-then-write transactions never deadlock on a lock upgrade ("database is locked").
    """
    config: dict[str, Any] = dict(
        dj_database_url.config(
            env="DATABASE_URL",
            default=f"sqlite:///{default_sqlite}",
            conn_max_age=conn_max_age,
            conn_health_checks=True,
        )
    )
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
        }
    return config


def cache_from_url(url: str) -> dict[str, Any]:
    """Django's built-in cache backend named by a URL (`CACHE_URL`; docs/decisions/0181-cache-from-url.md).

    - `locmem://` (the default, also an empty value): memory of each process; right for one web machine.
    - `redis://host:6379/0`, `rediss://…` (TLS), `redis+unix:///run/redis.sock?db=0`: Redis, shared by every
      web machine (needs the `redis` package: `pip install -e '.[redis]'`).
    - `db://table_name`: a table in the default database (`manage.py createcachetable` creates it once).
    - `file:///var/cache/gpurent`: files on a local disk.
    - `dummy://`: no caching at all.

    Raises:
        ImproperlyConfigured: the URL names no backend this function knows.
    """
    from urllib.parse import urlsplit

    from django.core.exceptions import ImproperlyConfigured

    parts = urlsplit(url.strip() or "locmem://")
    scheme = parts.scheme.lower()
    if scheme == "locmem":
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": parts.netloc or "gpurent",
            # Rendered cards of a large catalog in four languages: more than the default 300 entries.
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    if scheme in {"redis", "rediss"}:
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url.strip()}
    if scheme == "redis+unix":
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "unix" + url.strip()[10:]}
    if scheme == "db" and (parts.netloc or parts.path.strip("/")):
        table = (parts.netloc + parts.path).strip("/")
        return {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": table}
    if scheme == "file" and parts.path:
        return {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": parts.path}
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    raise ImproperlyConfigured(
        "CACHE_URL must be locmem://, redis://host:port/db, rediss://…, redis+unix:///path, db://table, "
        "file:///path or dummy://"
    )


SECRET_KEY = os.environ.get("SECRET_KEY", "")
DEBUG = False
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
# The proxies (nginx) whose `X-Real-IP` header names the visitor, as addresses or networks (`10.0.0.10,10.0.1.0/24`):
# behind them REMOTE_ADDR would be the proxy's address for everyone (gpurent/core/client_address.py, decision 0407).
# Empty: REMOTE_ADDR is the visitor's address.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])

BRAND_NAME = os.environ.get("BRAND_NAME", "IteraGPU")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "ninja",
    "django_htmx",
    "csp",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "gpurent.core",
    "gpurent.accounts",
    "gpurent.catalog",
    "gpurent.glossary",
    "gpurent.orders",
    "gpurent.hosts",
    "gpurent.sizing",
    "gpurent.ledger",
    "gpurent.payments",
    "gpurent.chains",
    "gpurent.journal",
    "gpurent.exports",
    "gpurent.support",
    "gpurent.guides",
    "gpurent.pages",
    "gpurent.backoffice",
]

MIDDLEWARE = [
    # First: the request id, the request's metrics and its log line cover everything below (decision 0410).
    "gpurent.core.observability.middleware.ObservabilityMiddleware",
    # The visitor's address from a trusted proxy's X-Real-IP, before anything reads REMOTE_ADDR (decision 0407).
    "gpurent.core.client_address.ClientAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HEAD is answered wherever GET is: the views below see a GET; the body is dropped (decision 0426).
    "gpurent.core.middleware.HeadAsGetMiddleware",
    # A NUL in the path is a 404 before a view looks it up (PostgreSQL cannot compare with one).
    "gpurent.core.middleware.NulInPathMiddleware",
    # gzip for pages that carry no secret of the visitor (BREACH; gpurent/core/compression.py, decision 0184).
    "gpurent.core.compression.PublicGZipMiddleware",
    # Outside the session middleware, so that it sees a session cookie the response starts (decision 0376).
    "gpurent.core.middleware.PrivateResponseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a signed-in customer without a language cookie gets the account's language.
    "gpurent.accounts.middleware.AccountLanguageMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Back-office pages show invisible and bidirectional characters as <U+XXXX> (decision 0377).
    "gpurent.core.invisible.BackOfficeInvisibleMiddleware",
    "gpurent.core.middleware.ApplicationErrorMiddleware",
    # Inside LocaleMiddleware, so that its message is in the request's language.
    "gpurent.core.middleware.ApiMethodNotAllowedMiddleware",
    # axes must come last: it inspects the response of the login views.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "gpurent.core.context_processors.brand",
                "gpurent.core.context_processors.languages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# DATABASE_CONN_MAX_AGE: how long a process keeps its database connection between requests. Each gunicorn worker
# thread keeps one, a bounded number; `runserver` answers every request in a new thread, so it must keep none
# (config/settings/local.py defaults to 0; decision 0386).
DATABASES = {
    "default": database_from_env(
        BASE_DIR / "db.sqlite3", conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60"))
    )
}
# Rendered catalog cards, guide figures and the like (gpurent/core/caching/fragments.py). Each process's memory by
# default; Redis or the database when several web machines must see one cache (README, "Running in production").
CACHES = {"default": cache_from_url(os.environ.get("CACHE_URL", ""))}
# How many gunicorn workers serve the shop on this machine: gunicorn's own variable, which deploy/gunicorn.conf.py
# reads with the same default. More than one needs a shared CACHE_URL (`check --deploy`, gpurent/core/checks.py,
# decision 0405); several web machines always do.
WEB_CONCURRENCY = int(os.environ.get("WEB_CONCURRENCY", "4"))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # axes first: it refuses a locked-out (email, IP) pair before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# Login throttling: five failures for one (username, IP) pair lock that pair for an hour.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_FORM_FIELD = "username"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# A locked-out pair gets exactly what a wrong password gets (no "you are locked out" page, status 200 on the
# login page, 401 in the API), so the answer never tells an attacker or a victim which case it was.
AXES_LOCKOUT_CALLABLE = "gpurent.accounts.views.lockout_response"
# Count failures per email in lower case: the same account must not get five tries per capitalisation.
AXES_USERNAME_CALLABLE = "gpurent.accounts.throttling.axes_username"

# A password reset link works once and for 24 hours.
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24
# Changing an account's email (docs/decisions/0174-...): how long the link to the new address works, and how
# many changes an account may ask for per window, as [(seconds, count), ...] (counted on the outbox rows).
EMAIL_CHANGE_LINK_HOURS = 24
EMAIL_CHANGE_RATE_LIMITS = [(3600, 3), (86400, 10)]
# Registration attempts (HTML and API, accepted or refused) one client address may make per window, as
# [(seconds, count), ...], counted in the default cache (gpurent/accounts/throttling.py, decision 0111).
REGISTRATION_RATE_LIMITS = [(3600, 10), (86400, 30)]

# Django's database sessions (decision 0490: its own engine, not one reading them in hand-built SQL).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# Pages render the token only where a form needs it (decision 0183); the language switcher of other pages,
# posted without JavaScript, is answered with a page that asks again with a token.
CSRF_FAILURE_VIEW = "gpurent.core.views.csrf_failure"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Content Security Policy: nothing inline, nothing from another origin. htmx runs under it because it is
# served from our origin and its inline indicator styles are switched off (see templates/base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

LANGUAGE_CODE = "en"
# Each language is named in itself in the switcher (see templates/base.html), never translated.
LANGUAGES = [("en", "English"), ("es", "Español"), ("vi", "Tiếng Việt"), ("tr", "Türkçe")]
# The language a visitor chose is kept in this cookie for a year (docs/decisions/0160-language-without-url-prefix.md).
LANGUAGE_COOKIE_NAME = "gpurent_language"
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
LOCALE_PATHS = [Path(os.environ.get("LOCALE_DIR", BASE_DIR / "locale"))]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
# Where `collectstatic` writes the files nginx serves under /static/ (deploy/nginx/gpurent.conf).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", f"{BRAND_NAME} <noreply@localhost>")


def logging_config(log_format: str) -> dict[str, Any]:
    """LOGGING: every line to standard error, as JSON (`json`) or text (`text`), with the request id and its
    message scrubbed (gpurent/core/observability/logs.py, decision 0412); `LOG_FORMAT` picks, `LOG_LEVEL` sets
    the level."""
    from django.core.exceptions import ImproperlyConfigured

    if log_format not in {"json", "text"}:
        raise ImproperlyConfigured("LOG_FORMAT must be json or text")
    level = os.environ.get("LOG_LEVEL", "INFO")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "gpurent.core.observability.logs.ContextFilter"}},
        "formatters": {
            "json": {"()": "gpurent.core.observability.logs.JsonFormatter"},
            "text": {"()": "gpurent.core.observability.logs.TextFormatter"},
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["context"], "formatter": log_format}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # paramiko logs every SSH connection at INFO; gpurent.hosts.agent logs each call to a host's agent itself.
            "paramiko": {"level": "WARNING"},
            # Django's own lines go through the handler above too (its default console handler would print them
            # a second time, unscrubbed, under DEBUG).
            "django": {"handlers": [], "level": level},
            "django.server": {"handlers": [], "level": level, "propagate": True},
        },
    }


LOGGING = logging_config(os.environ.get("LOG_FORMAT", "text"))

# `/metrics` for Prometheus (gpurent/monitoring, docs/operations.md, decisions 0410, 0411): answered to a scraper
# with this bearer token and/or from one of these addresses or networks (REMOTE_ADDR: behind a trusted proxy, the
# address it names, decision 0407; never a header a client writes); with neither set it answers 404.
# `PROMETHEUS_MULTIPROC_DIR` (read by prometheus-client itself, before the process starts) makes every web process
# of a machine count into one directory.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_ALLOWED_IPS = env_networks("METRICS_ALLOWED_IPS")
METRICS_MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
# The business metrics are counted in the database at most once per this many seconds, whoever scrapes (kept in
# the default cache: one count for every node when it is Redis).
METRICS_BUSINESS_CACHE_SECONDS = 15

# The help, privacy and terms pages (gpurent/pages): who runs the shop, how to reach them, and how long the
# operator keeps records (the privacy page states these periods as the operator's policy).
# Empty: the pages don't say who runs the shop (rather than "IteraGPU is run by IteraGPU").
SHOP_OPERATOR = os.environ.get("SHOP_OPERATOR", "")
SHOP_CONTACT_EMAIL = os.environ.get("SHOP_CONTACT_EMAIL", "privacy@example.com")
SHOP_POSTAL_ADDRESS = os.environ.get("SHOP_POSTAL_ADDRESS", "")
RETENTION_RECORDS_YEARS = int(os.environ.get("RETENTION_RECORDS_YEARS", "10"))
RETENTION_SUPPORT_DAYS = int(os.environ.get("RETENTION_SUPPORT_DAYS", "365"))
RETENTION_LOGS_DAYS = int(os.environ.get("RETENTION_LOGS_DAYS", "30"))

# The shop's public address, for links in emails.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# Who is told about payments to verify (comma-separated); empty: the staff of the "payments" group.
OPERATOR_EMAILS = env_list("OPERATOR_EMAILS", [])

# Provisioning: "manual" (operators at the desk) or "command" (run PROVISIONER_COMMAND ORDER_REF per paid order).
PROVISIONER = os.environ.get("PROVISIONER", "manual")
PROVISIONER_COMMAND = os.environ.get("PROVISIONER_COMMAND", "")
# GPU models with registered GPU hosts are provisioned by this one instead (gpurent.hosts, decision 0360).
HOSTS_PROVISIONER = "gpurent.hosts.provisioner.HostProvisioner"
PROVISIONER_TIMEOUT_SECONDS = int(os.environ.get("PROVISIONER_TIMEOUT_SECONDS", "600"))
# GPU hosts (gpurent.hosts, docs/hosts.md): the shop's one SSH identity, a private key file readable by the shop
# only (never stored in the database, never logged); how long one agent call may take; the pauses before the
# second and third attempt at making a rental's account (after the third failure the order is refunded); how
# long a revoked rental's home directory is kept before it is wiped (the privacy page states it).
HOSTS_SSH_KEY_FILE = os.environ.get("HOSTS_SSH_KEY_FILE", "")
HOSTS_SSH_TIMEOUT_SECONDS = int(os.environ.get("HOSTS_SSH_TIMEOUT_SECONDS", "30"))
HOSTS_RETRY_SECONDS = [int(part) for part in os.environ.get("HOSTS_RETRY_SECONDS", "60,300").split(",")]
HOSTS_WIPE_AFTER_DAYS = int(os.environ.get("HOSTS_WIPE_AFTER_DAYS", "7"))
# How often the sweep's host work reads each host's inventory (a host that stops answering leaves stock then).
HOSTS_CHECK_SECONDS = int(os.environ.get("HOSTS_CHECK_SECONDS", "60"))
# `manage.py worker` beats every TASKS_HEARTBEAT_SECONDS while it lives; a task whose worker missed four beats is
# queued again once (core/tasks.py, decision 0384), so a dead worker's task is retried within about a minute.
TASKS_HEARTBEAT_SECONDS = int(os.environ.get("TASKS_HEARTBEAT_SECONDS", "10"))
# A task RUNNING longer than this under a worker that never beat (`db_worker` run by hand) was left by a dead worker:
# longer than any task may run, the provisioner's timeout plus a margin. Also how long an email claimed by another
# task, and an email no task sent, wait before they are taken over (core/emails.py).
TASKS_RECLAIM_AFTER_SECONDS = int(os.environ.get("TASKS_RECLAIM_AFTER_SECONDS", str(PROVISIONER_TIMEOUT_SECONDS + 300)))

# Support (DESIGN §8): per-field size cap in UTF-8 bytes, and submission rate limits as [(seconds, count), ...],
# counted on database rows so they hold across processes.
SUPPORT_FIELD_MAX_BYTES = 100_000
SUPPORT_REQUEST_RATE_LIMITS = [(3600, 5), (86400, 20)]
SUPPORT_MESSAGE_RATE_LIMITS = [(3600, 30), (86400, 100)]

# Quote requests from guides: at most this many per owner or client address per window (DESIGN §8).
GUIDES_QUOTE_RATE_LIMIT = int(os.environ.get("GUIDES_QUOTE_RATE_LIMIT", "5"))
GUIDES_QUOTE_RATE_WINDOW_MINUTES = int(os.environ.get("GUIDES_QUOTE_RATE_WINDOW_MINUTES", "60"))

# Background work: django-tasks with its database backend; `manage.py worker` runs the queue (decision 0384).
# Its rows also hold the id of the request that enqueued each task (gpurent/core/observability/task_backend.py).
TASKS = {
    "default": {"BACKEND": "gpurent.core.observability.task_backend.RequestIdDatabaseBackend", "QUEUES": ["default"]}
}

# Staff two-factor authentication (django-otp, TOTP): the back office asks for a code from a verified
# device. On in production; off in the embedded setup so the demo operator can log in with a password.
STAFF_REQUIRE_2FA = env_bool("STAFF_REQUIRE_2FA", False)
OTP_TOTP_ISSUER = BRAND_NAME
# Customers may turn the same TOTP login on for themselves, with recovery codes (django-otp's static device);
# after the right password, the code step waits this long before the password is asked again (0175).
TWO_FACTOR_LOGIN_SECONDS = 300

# Demo operator account: created by `load_demo` only where this is on (local settings), never in production.
DEMO_OPERATOR_ENABLED = False

# How long an idempotency key is kept (DESIGN §5: at least 72 hours), and after how long an unfinished
# claim is considered abandoned by a crashed process and may be taken over.
IDEMPOTENCY_KEY_TTL_HOURS = 72
IDEMPOTENCY_LOCK_TIMEOUT_SECONDS = 60

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "orders:rentals"
LOGOUT_REDIRECT_URL = "catalog:index"
# How many SSH public keys one account keeps (every key goes into each machine's authorized_keys) and how many
# API tokens it has live (not revoked) at once; one more answers 409 `too_many_ssh_keys` / `too_many_api_tokens`
# (decision 0291).
ACCOUNTS_MAX_SSH_KEYS = int(os.environ.get("ACCOUNTS_MAX_SSH_KEYS", "50"))
ACCOUNTS_MAX_LIVE_API_TOKENS = int(os.environ.get("ACCOUNTS_MAX_LIVE_API_TOKENS", "20"))
# How many runs one journal entry holds (an entry is one experimental question; a sweep of more runs opens another
# entry); one more answers 409 `too_many_runs` (decision 0315).
JOURNAL_MAX_RUNS_PER_ENTRY = int(os.environ.get("JOURNAL_MAX_RUNS_PER_ENTRY", "200"))

# A money row lock taken against the lock order across calls in one transaction (gpurent/core/locks.py) raises
# where this is True or DEBUG is; elsewhere it is logged as an error and the transaction goes on (decision 0486).
LOCK_ORDER_STRICT = False

# How long an unpaid order holds its lots before `manage.py sweep` expires it (DESIGN §4).
ORDER_PAYMENT_WINDOW_HOURS = int(os.environ.get("ORDER_PAYMENT_WINDOW_HOURS", "24"))
# How many unpaid orders (each holding stock) one account may have at once; more answer `too_many_unpaid_orders`.
ORDERS_MAX_UNPAID_PER_ACCOUNT = int(os.environ.get("ORDERS_MAX_UNPAID_PER_ACCOUNT", "5"))
# How many extensions one rental may have in all (paid, unpaid, cancelled or lapsed: every one is listed with the
# rental); one more answers 409 `too_many_extensions` (decision 0353).
ORDERS_MAX_EXTENSIONS_PER_RENTAL = int(os.environ.get("ORDERS_MAX_EXTENSIONS_PER_RENTAL", "60"))

# Payment intents: how long a quote (its rate and amount) holds, and how long a reported payment keeps the
# order's lots while an operator verifies it (DESIGN §5).
PAYMENTS_INTENT_TTL_MINUTES = int(os.environ.get("PAYMENTS_INTENT_TTL_MINUTES", "30"))
# A payment first seen on chain before its intent expired is credited at the locked rate if it reaches its
# confirmation depth at most this many hours after the expiry; later, it goes to review (decision 0380).
PAYMENTS_LATE_CONFIRMATION_HOURS = int(os.environ.get("PAYMENTS_LATE_CONFIRMATION_HOURS", "24"))
PAYMENTS_REPORT_HOLD_HOURS = int(os.environ.get("PAYMENTS_REPORT_HOLD_HOURS", "24"))
# How many payment instructions one order or top-up may have: open at once (awaiting payment, before expiry;
# more answer `too_many_open_intents`), and in all (more answer `intent_limit_reached`). Each open one holds a
# receiving address, and an order's and a top-up's answers list all of them (docs/decisions/0310).
PAYMENTS_MAX_OPEN_INTENTS = int(os.environ.get("PAYMENTS_MAX_OPEN_INTENTS", "3"))
PAYMENTS_MAX_INTENTS = int(os.environ.get("PAYMENTS_MAX_INTENTS", "10"))
# Instructions the payment processor never prepared (its invoice call failed) do not count towards
# PAYMENTS_MAX_INTENTS, but every intent counts towards this one, so an outage cannot grow the list for ever;
# more also answer `intent_limit_reached` (docs/decisions/0336).
PAYMENTS_MAX_INTENT_ROWS = int(os.environ.get("PAYMENTS_MAX_INTENT_ROWS", "20"))
# A top-up takes new payment instructions for this many hours after it is made (payments sent to its
# instructions are still credited later); one account may have this many such top-ups unpaid at once, more
# answer `too_many_pending_top_ups` (docs/decisions/0320).
PAYMENTS_TOP_UP_HOURS = int(os.environ.get("PAYMENTS_TOP_UP_HOURS", "24"))
PAYMENTS_MAX_PENDING_TOP_UPS = int(os.environ.get("PAYMENTS_MAX_PENDING_TOP_UPS", "5"))
# Withdrawals (gpurent/payments/payouts.py): the smallest amount a customer may withdraw and the flat fee kept
# from it, in USD cents (the customer receives the amount minus the fee).
PAYOUTS_MIN_CENTS = int(os.environ.get("PAYOUTS_MIN_CENTS", "2000"))
PAYOUTS_FEE_CENTS = int(os.environ.get("PAYOUTS_FEE_CENTS", "100"))
# The shared secret of the BTCPay Server webhook; empty: the webhook endpoint refuses every delivery.
BTCPAY_WEBHOOK_SECRET = os.environ.get("BTCPAY_WEBHOOK_SECRET", "")
# BTCPay Server as the route for Bitcoin and Litecoin (gpurent/payments/btcpay/invoices.py, docs/decisions/0147): with
# the URL, store id and Greenfield API key (permission btcpay.store.cancreateinvoice) set, intents on the networks
# listed in BTCPAY_NETWORKS ("bitcoin,litecoin") get a BTCPay invoice: its address and checkout page are shown.
BTCPAY_URL = os.environ.get("BTCPAY_URL", "")
BTCPAY_STORE_ID = os.environ.get("BTCPAY_STORE_ID", "")
BTCPAY_API_KEY = os.environ.get("BTCPAY_API_KEY", "")
BTCPAY_NETWORKS = [name.strip() for name in os.environ.get("BTCPAY_NETWORKS", "").split(",") if name.strip()]
BTCPAY_TIMEOUT_SECONDS = float(os.environ.get("BTCPAY_TIMEOUT_SECONDS", "10"))
# The embedded demo's receiving addresses are unspendable; local settings turn on a notice saying so.
PAYMENTS_DEMO_NOTICE = False

# --- Payments: rates, confirmations, receiving addresses (gpurent/payments/{rates,assets,receiving}.py) ---
# Where exchange rates come from: "table" (operators' ExchangeRate rows, the default) or "http" (a JSON document
# of decimal strings at PAYMENTS_RATE_URL: {"BTC": {"usd": "97000.12", "as_of": "2026-12-02T10:00:00Z"}, …}).
PAYMENTS_RATE_SOURCE = os.environ.get("PAYMENTS_RATE_SOURCE", "table")
PAYMENTS_RATE_URL = os.environ.get("PAYMENTS_RATE_URL", "")
PAYMENTS_RATE_TIMEOUT_SECONDS = float(os.environ.get("PAYMENTS_RATE_TIMEOUT_SECONDS", "5"))
# A rate older than this is refused (503 rate_unavailable): nothing is quoted from a stale price.
PAYMENTS_RATE_MAX_AGE_SECONDS = int(os.environ.get("PAYMENTS_RATE_MAX_AGE_SECONDS", "900"))
# Per-network overrides of the confirmations a payment needs, e.g. "bitcoin=6,litecoin=3"; defaults in assets.PAIRS.
PAYMENTS_CONFIRMATIONS: dict[str, int] = {
    network: int(depth)
    for network, depth in env_map(
        "PAYMENTS_CONFIRMATIONS",
        keys=_network,
        values=lambda value: value.isascii() and value.isdigit() and int(value) > 0,
    ).items()
}
# Shared receiving addresses: how many quote units an amount may be bumped to be unique among the intents on
# the address, and how long after expiry an intent keeps its amount (so a late payment matches one intent).
PAYMENTS_SHARED_AMOUNT_MAX_BUMPS = int(os.environ.get("PAYMENTS_SHARED_AMOUNT_MAX_BUMPS", "100"))
PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS = int(os.environ.get("PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS", "86400"))

# --- Fresh addresses and chain watchers (payments/intents/derivation.py, gpurent/chains/; decisions 0140-0142) ---
# Per network: "xpub" (derive from the registered watch-only key; without one, fall back to pool then shared)
# or "pool" (pool, then shared), e.g. "ethereum=pool". Default: "xpub" where public derivation exists; Solana is
# always "pool".
PAYMENTS_ADDRESS_MODES = env_map(
    "PAYMENTS_ADDRESS_MODES", keys=_network, values=lambda value: value in {"xpub", "pool"}
)
# Segwit human-readable parts for derived Bitcoin/Litecoin addresses ("rltc" on a Litecoin regtest node).
PAYMENTS_SEGWIT_HRP: dict[str, str] = {
    network: hrp
    for network, hrp in (
        ("bitcoin", os.environ.get("PAYMENTS_SEGWIT_HRP_BITCOIN", "")),
        ("litecoin", os.environ.get("PAYMENTS_SEGWIT_HRP_LITECOIN", "")),
    )
    if hrp
}
# Unpaid addresses at the end of a key's chain beyond this are flagged on the receiving-address page.
PAYMENTS_XPUB_GAP_LIMIT = int(os.environ.get("PAYMENTS_XPUB_GAP_LIMIT", "20"))
# Node URLs per network; empty: no watcher, payments are verified by operators as before. Credentials go in the
# URL (http://user:pass@127.0.0.1:9332/wallet/gpurent) and are never logged.
CHAIN_WATCH_URLS: dict[str, str] = {
    network: url for network in CHAIN_NETWORKS if (url := os.environ.get(f"CHAIN_WATCH_{network.upper()}_URL", ""))
}
# TronGrid's API key (sent as the TRON-PRO-API-KEY header; a full node of your own needs none). Never logged.
CHAIN_WATCH_TRON_API_KEY = os.environ.get("CHAIN_WATCH_TRON_API_KEY", "")
# Token contracts the Ethereum and Tron watchers read, by pair key ("USDT/ethereum=0x…,USDT/tron=T…"); defaults:
# the mainnet contracts.
CHAIN_TOKEN_CONTRACTS = env_map("CHAIN_TOKEN_CONTRACTS", keys=_pair_key, values=str.isalnum)
# How long one watcher process holds a network before another may take over (a killed one's lease runs out).
CHAIN_WATCH_LEASE_SECONDS = int(os.environ.get("CHAIN_WATCH_LEASE_SECONDS", "300"))
# Seconds between scans of the background task and of `watch_chains` without --once.
CHAIN_WATCH_INTERVAL_SECONDS = int(os.environ.get("CHAIN_WATCH_INTERVAL_SECONDS", "30"))
# How often an open intent's page asks for what the watcher saw ("Seen on chain, N of M confirmations").
CHAIN_PAGE_POLL_SECONDS = int(os.environ.get("CHAIN_PAGE_POLL_SECONDS", "15"))
# Explorer links on the payments desk, per network; {txid} is replaced, e.g. "https://explorer.example/tx/{txid}"
# (CHAIN_EXPLORER_TRON_TX_URL=https://tronscan.org/#/transaction/{txid}, CHAIN_EXPLORER_SOLANA_TX_URL=
# https://explorer.solana.com/tx/{txid}).
CHAIN_EXPLORER_TX_URLS: dict[str, str] = {
    network: pattern
    for network in CHAIN_NETWORKS
    if (pattern := os.environ.get(f"CHAIN_EXPLORER_{network.upper()}_TX_URL", ""))
}

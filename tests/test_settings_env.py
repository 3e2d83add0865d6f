"""Every setting the README's configuration table names comes from its environment variable (issue 32).

`PAYMENTS_CONFIRMATIONS`, `CHAIN_TOKEN_CONTRACTS` and `PAYMENTS_ADDRESS_MODES` were named as environment settings
but were fixed `{}` in the settings module: an operator who set them changed nothing. Here each variable the
table names is set in a fresh environment, the settings module is imported in a subprocess, and the setting it
feeds must hold the value (and differ from what the same import gives without the variable). The other way
round, every variable the settings modules read must be in the table.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NETWORKS = ("bitcoin", "litecoin", "ethereum", "tron", "solana")
PRODUCTION = "config.settings.production"

# Production needs these three to import at all; each case changes what it tests on top of them.
BASE_ENV = {
    "DJANGO_SETTINGS_MODULE": PRODUCTION,
    "SECRET_KEY": "base-secret-key-" + "b" * 50,
    "ALLOWED_HOSTS": "shop.example",
    "DATABASE_URL": "postgres://gpurent@127.0.0.1:5432/gpurent",
}

# Imports the settings module named by DJANGO_SETTINGS_MODULE afresh for each (environment, expression) pair
# read from stdin, in this one subprocess, and prints the repr of each expression (or the error it raised).
RUNNER = """
import importlib, json, os, sys
cases = json.load(sys.stdin)
results = []
for env, expression in cases:
    os.environ.clear()
    os.environ.update({key: value for key, value in env.items() if value is not None})
    for name in [name for name in sys.modules if name.startswith("config.settings")]:
        del sys.modules[name]
    try:
        module = importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])
        results.append(repr(eval(expression, vars(module))))
    except Exception as error:
        results.append(f"{type(error).__name__}: {error}")
print(json.dumps(results))
"""

CONTRACTS = "USDT/ethereum=0x5FbDB2315678afecb367f032d93F642f64180aa3,USDT/tron=TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"

# variable -> (environment to set: the variable itself and anything the case needs, expression, expected value)
CASES: dict[str, tuple[dict[str, str | None], str, object]] = {
    "DJANGO_SETTINGS_MODULE": ({"DJANGO_SETTINGS_MODULE": "config.settings.local"}, "DEBUG", True),
    "DATABASE_URL": (
        {"DATABASE_URL": "postgres://shop:pw@db.internal:5432/shopdb"},
        "DATABASES['default']['HOST'], DATABASES['default']['NAME']",
        ("db.internal", "shopdb"),
    ),
    "SECRET_KEY": ({"SECRET_KEY": "k" * 64}, "SECRET_KEY", "k" * 64),
    "ALLOWED_HOSTS": ({"ALLOWED_HOSTS": "a.example,b.example"}, "ALLOWED_HOSTS", ["a.example", "b.example"]),
    "BRAND_NAME": ({"BRAND_NAME": "Acme GPUs"}, "BRAND_NAME", "Acme GPUs"),
    "SHOP_OPERATOR": ({"SHOP_OPERATOR": "Acme Ltd"}, "SHOP_OPERATOR", "Acme Ltd"),
    "SHOP_CONTACT_EMAIL": ({"SHOP_CONTACT_EMAIL": "legal@acme.example"}, "SHOP_CONTACT_EMAIL", "legal@acme.example"),
    "SHOP_POSTAL_ADDRESS": ({"SHOP_POSTAL_ADDRESS": "1 Main St"}, "SHOP_POSTAL_ADDRESS", "1 Main St"),
    "RETENTION_RECORDS_YEARS": ({"RETENTION_RECORDS_YEARS": "7"}, "RETENTION_RECORDS_YEARS", 7),
    "RETENTION_SUPPORT_DAYS": ({"RETENTION_SUPPORT_DAYS": "90"}, "RETENTION_SUPPORT_DAYS", 90),
    "RETENTION_LOGS_DAYS": ({"RETENTION_LOGS_DAYS": "14"}, "RETENTION_LOGS_DAYS", 14),
    "EMAIL_BACKEND": (
        {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"},
        "EMAIL_BACKEND",
        "django.core.mail.backends.smtp.EmailBackend",
    ),
    "EMAIL_HOST": ({"EMAIL_HOST": "smtp.acme.example"}, "EMAIL_HOST", "smtp.acme.example"),
    "EMAIL_PORT": ({"EMAIL_PORT": "587"}, "EMAIL_PORT", 587),
    "EMAIL_HOST_USER": ({"EMAIL_HOST_USER": "mailer"}, "EMAIL_HOST_USER", "mailer"),
    "EMAIL_HOST_PASSWORD": ({"EMAIL_HOST_PASSWORD": "mail-pw"}, "EMAIL_HOST_PASSWORD", "mail-pw"),
    "EMAIL_USE_TLS": ({"EMAIL_USE_TLS": "true"}, "EMAIL_USE_TLS", True),
    "DEFAULT_FROM_EMAIL": (
        {"DEFAULT_FROM_EMAIL": "Acme <shop@acme.example>"},
        "DEFAULT_FROM_EMAIL",
        "Acme <shop@acme.example>",
    ),
    "SECURE_SSL_REDIRECT": ({"SECURE_SSL_REDIRECT": "false"}, "SECURE_SSL_REDIRECT", False),
    # Without DATABASE_URL production refuses to start unless this is on.
    "ALLOW_SQLITE_IN_PRODUCTION": (
        {"ALLOW_SQLITE_IN_PRODUCTION": "true", "DATABASE_URL": None},
        "DATABASES['default']['ENGINE']",
        "django.db.backends.sqlite3",
    ),
    "CACHE_URL": (
        {"CACHE_URL": "dummy://"},
        "CACHES['default']['BACKEND']",
        "django.core.cache.backends.dummy.DummyCache",
    ),
    # Several web machines behind nginx (issue 28, decisions 0405, 0407).
    "WEB_CONCURRENCY": ({"WEB_CONCURRENCY": "2"}, "WEB_CONCURRENCY", 2),
    "TRUSTED_PROXIES": (
        {"TRUSTED_PROXIES": "10.0.0.10, 10.0.1.0/24"},
        "TRUSTED_PROXIES",
        ["10.0.0.10", "10.0.1.0/24"],
    ),
    "STATIC_ROOT": ({"STATIC_ROOT": "/var/lib/gpurent/static"}, "str(STATIC_ROOT)", "/var/lib/gpurent/static"),
    "LOG_LEVEL": ({"LOG_LEVEL": "WARNING"}, "LOGGING['root']['level']", "WARNING"),
    # Production writes JSON lines by default (issue 28).
    "LOG_FORMAT": ({"LOG_FORMAT": "text"}, "LOGGING['handlers']['console']['formatter']", "text"),
    "METRICS_TOKEN": ({"METRICS_TOKEN": "scrape-token"}, "METRICS_TOKEN", "scrape-token"),
    "METRICS_ALLOWED_IPS": (
        {"METRICS_ALLOWED_IPS": "10.0.0.30, 192.0.2.0/24"},
        "METRICS_ALLOWED_IPS",
        ["10.0.0.30", "192.0.2.0/24"],
    ),
    "PROMETHEUS_MULTIPROC_DIR": (
        {"PROMETHEUS_MULTIPROC_DIR": "/run/gpurent-metrics"},
        "METRICS_MULTIPROCESS_DIR",
        "/run/gpurent-metrics",
    ),
    "LOCALE_DIR": ({"LOCALE_DIR": "/srv/locale"}, "str(LOCALE_PATHS[0])", "/srv/locale"),
    "ORDER_PAYMENT_WINDOW_HOURS": ({"ORDER_PAYMENT_WINDOW_HOURS": "12"}, "ORDER_PAYMENT_WINDOW_HOURS", 12),
    "ORDERS_MAX_UNPAID_PER_ACCOUNT": ({"ORDERS_MAX_UNPAID_PER_ACCOUNT": "7"}, "ORDERS_MAX_UNPAID_PER_ACCOUNT", 7),
    "ORDERS_MAX_EXTENSIONS_PER_RENTAL": (
        {"ORDERS_MAX_EXTENSIONS_PER_RENTAL": "9"},
        "ORDERS_MAX_EXTENSIONS_PER_RENTAL",
        9,
    ),
    "PAYMENTS_INTENT_TTL_MINUTES": ({"PAYMENTS_INTENT_TTL_MINUTES": "45"}, "PAYMENTS_INTENT_TTL_MINUTES", 45),
    "PAYMENTS_REPORT_HOLD_HOURS": ({"PAYMENTS_REPORT_HOLD_HOURS": "36"}, "PAYMENTS_REPORT_HOLD_HOURS", 36),
    "PAYMENTS_LATE_CONFIRMATION_HOURS": (
        {"PAYMENTS_LATE_CONFIRMATION_HOURS": "6"},
        "PAYMENTS_LATE_CONFIRMATION_HOURS",
        6,
    ),
    "PAYMENTS_MAX_OPEN_INTENTS": ({"PAYMENTS_MAX_OPEN_INTENTS": "4"}, "PAYMENTS_MAX_OPEN_INTENTS", 4),
    "PAYMENTS_MAX_INTENTS": ({"PAYMENTS_MAX_INTENTS": "11"}, "PAYMENTS_MAX_INTENTS", 11),
    "PAYMENTS_MAX_INTENT_ROWS": ({"PAYMENTS_MAX_INTENT_ROWS": "21"}, "PAYMENTS_MAX_INTENT_ROWS", 21),
    "PAYMENTS_TOP_UP_HOURS": ({"PAYMENTS_TOP_UP_HOURS": "48"}, "PAYMENTS_TOP_UP_HOURS", 48),
    "PAYMENTS_MAX_PENDING_TOP_UPS": ({"PAYMENTS_MAX_PENDING_TOP_UPS": "6"}, "PAYMENTS_MAX_PENDING_TOP_UPS", 6),
    "PAYOUTS_MIN_CENTS": ({"PAYOUTS_MIN_CENTS": "5000"}, "PAYOUTS_MIN_CENTS", 5000),
    "PAYOUTS_FEE_CENTS": ({"PAYOUTS_FEE_CENTS": "250"}, "PAYOUTS_FEE_CENTS", 250),
    "PAYMENTS_RATE_SOURCE": ({"PAYMENTS_RATE_SOURCE": "http"}, "PAYMENTS_RATE_SOURCE", "http"),
    "PAYMENTS_RATE_URL": (
        {"PAYMENTS_RATE_URL": "https://rates.example/usd"},
        "PAYMENTS_RATE_URL",
        "https://rates.example/usd",
    ),
    "PAYMENTS_RATE_TIMEOUT_SECONDS": ({"PAYMENTS_RATE_TIMEOUT_SECONDS": "2.5"}, "PAYMENTS_RATE_TIMEOUT_SECONDS", 2.5),
    "PAYMENTS_RATE_MAX_AGE_SECONDS": ({"PAYMENTS_RATE_MAX_AGE_SECONDS": "600"}, "PAYMENTS_RATE_MAX_AGE_SECONDS", 600),
    "PAYMENTS_SHARED_AMOUNT_MAX_BUMPS": (
        {"PAYMENTS_SHARED_AMOUNT_MAX_BUMPS": "50"},
        "PAYMENTS_SHARED_AMOUNT_MAX_BUMPS",
        50,
    ),
    "PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS": (
        {"PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS": "3600"},
        "PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS",
        3600,
    ),
    "PAYMENTS_CONFIRMATIONS": (
        {"PAYMENTS_CONFIRMATIONS": "bitcoin=3, litecoin=12"},
        "PAYMENTS_CONFIRMATIONS",
        {"bitcoin": 3, "litecoin": 12},
    ),
    "BTCPAY_WEBHOOK_SECRET": ({"BTCPAY_WEBHOOK_SECRET": "whsec"}, "BTCPAY_WEBHOOK_SECRET", "whsec"),
    "BTCPAY_URL": ({"BTCPAY_URL": "https://btcpay.example"}, "BTCPAY_URL", "https://btcpay.example"),
    "BTCPAY_STORE_ID": ({"BTCPAY_STORE_ID": "store-1"}, "BTCPAY_STORE_ID", "store-1"),
    "BTCPAY_API_KEY": ({"BTCPAY_API_KEY": "key-1"}, "BTCPAY_API_KEY", "key-1"),
    "BTCPAY_NETWORKS": ({"BTCPAY_NETWORKS": "bitcoin,litecoin"}, "BTCPAY_NETWORKS", ["bitcoin", "litecoin"]),
    "BTCPAY_TIMEOUT_SECONDS": ({"BTCPAY_TIMEOUT_SECONDS": "4"}, "BTCPAY_TIMEOUT_SECONDS", 4.0),
    **{
        f"CHAIN_WATCH_{network.upper()}_URL": (
            {f"CHAIN_WATCH_{network.upper()}_URL": f"http://{network}.node.example:1/"},
            "CHAIN_WATCH_URLS",
            {network: f"http://{network}.node.example:1/"},
        )
        for network in NETWORKS
    },
    "CHAIN_WATCH_TRON_API_KEY": (
        {"CHAIN_WATCH_TRON_API_KEY": "trongrid-key"},
        "CHAIN_WATCH_TRON_API_KEY",
        "trongrid-key",
    ),
    "CHAIN_TOKEN_CONTRACTS": (
        {"CHAIN_TOKEN_CONTRACTS": CONTRACTS},
        "CHAIN_TOKEN_CONTRACTS",
        dict(entry.split("=") for entry in CONTRACTS.split(",")),
    ),
    **{
        f"CHAIN_EXPLORER_{network.upper()}_TX_URL": (
            {f"CHAIN_EXPLORER_{network.upper()}_TX_URL": f"https://explorer.example/{network}/{{txid}}"},
            "CHAIN_EXPLORER_TX_URLS",
            {network: f"https://explorer.example/{network}/{{txid}}"},
        )
        for network in NETWORKS
    },
    "CHAIN_WATCH_LEASE_SECONDS": ({"CHAIN_WATCH_LEASE_SECONDS": "120"}, "CHAIN_WATCH_LEASE_SECONDS", 120),
    "CHAIN_WATCH_INTERVAL_SECONDS": ({"CHAIN_WATCH_INTERVAL_SECONDS": "10"}, "CHAIN_WATCH_INTERVAL_SECONDS", 10),
    "CHAIN_PAGE_POLL_SECONDS": ({"CHAIN_PAGE_POLL_SECONDS": "5"}, "CHAIN_PAGE_POLL_SECONDS", 5),
    "PAYMENTS_ADDRESS_MODES": (
        {"PAYMENTS_ADDRESS_MODES": "ethereum=pool,bitcoin=xpub"},
        "PAYMENTS_ADDRESS_MODES",
        {"ethereum": "pool", "bitcoin": "xpub"},
    ),
    "PAYMENTS_SEGWIT_HRP_BITCOIN": ({"PAYMENTS_SEGWIT_HRP_BITCOIN": "tb"}, "PAYMENTS_SEGWIT_HRP", {"bitcoin": "tb"}),
    "PAYMENTS_SEGWIT_HRP_LITECOIN": (
        {"PAYMENTS_SEGWIT_HRP_LITECOIN": "rltc"},
        "PAYMENTS_SEGWIT_HRP",
        {"litecoin": "rltc"},
    ),
    "PAYMENTS_XPUB_GAP_LIMIT": ({"PAYMENTS_XPUB_GAP_LIMIT": "40"}, "PAYMENTS_XPUB_GAP_LIMIT", 40),
    "SITE_URL": ({"SITE_URL": "https://shop.acme.example"}, "SITE_URL", "https://shop.acme.example"),
    "OPERATOR_EMAILS": (
        {"OPERATOR_EMAILS": "a@acme.example,b@acme.example"},
        "OPERATOR_EMAILS",
        ["a@acme.example", "b@acme.example"],
    ),
    "PROVISIONER": ({"PROVISIONER": "command"}, "PROVISIONER", "command"),
    "PROVISIONER_COMMAND": ({"PROVISIONER_COMMAND": "/srv/provision"}, "PROVISIONER_COMMAND", "/srv/provision"),
    "PROVISIONER_TIMEOUT_SECONDS": ({"PROVISIONER_TIMEOUT_SECONDS": "900"}, "PROVISIONER_TIMEOUT_SECONDS", 900),
    # The database connection age and the task worker's heartbeat (issue 32).
    "DATABASE_CONN_MAX_AGE": ({"DATABASE_CONN_MAX_AGE": "5"}, "DATABASES['default']['CONN_MAX_AGE']", 5),
    "TASKS_HEARTBEAT_SECONDS": ({"TASKS_HEARTBEAT_SECONDS": "3"}, "TASKS_HEARTBEAT_SECONDS", 3),
    "TASKS_RECLAIM_AFTER_SECONDS": ({"TASKS_RECLAIM_AFTER_SECONDS": "120"}, "TASKS_RECLAIM_AFTER_SECONDS", 120),
    "HOSTS_SSH_KEY_FILE": (
        {"HOSTS_SSH_KEY_FILE": "/etc/gpurent/id_ed25519"},
        "HOSTS_SSH_KEY_FILE",
        "/etc/gpurent/id_ed25519",
    ),
    "HOSTS_SSH_TIMEOUT_SECONDS": ({"HOSTS_SSH_TIMEOUT_SECONDS": "15"}, "HOSTS_SSH_TIMEOUT_SECONDS", 15),
    "HOSTS_RETRY_SECONDS": ({"HOSTS_RETRY_SECONDS": "30,120"}, "HOSTS_RETRY_SECONDS", [30, 120]),
    "HOSTS_WIPE_AFTER_DAYS": ({"HOSTS_WIPE_AFTER_DAYS": "3"}, "HOSTS_WIPE_AFTER_DAYS", 3),
    "HOSTS_CHECK_SECONDS": ({"HOSTS_CHECK_SECONDS": "30"}, "HOSTS_CHECK_SECONDS", 30),
    "ACCOUNTS_MAX_SSH_KEYS": ({"ACCOUNTS_MAX_SSH_KEYS": "10"}, "ACCOUNTS_MAX_SSH_KEYS", 10),
    "ACCOUNTS_MAX_LIVE_API_TOKENS": ({"ACCOUNTS_MAX_LIVE_API_TOKENS": "5"}, "ACCOUNTS_MAX_LIVE_API_TOKENS", 5),
    "JOURNAL_MAX_RUNS_PER_ENTRY": ({"JOURNAL_MAX_RUNS_PER_ENTRY": "100"}, "JOURNAL_MAX_RUNS_PER_ENTRY", 100),
    # Always on in production (README says so): the variable turns it on elsewhere.
    "STAFF_REQUIRE_2FA": (
        {"STAFF_REQUIRE_2FA": "true", "DJANGO_SETTINGS_MODULE": "config.settings.local"},
        "STAFF_REQUIRE_2FA",
        True,
    ),
    "GUIDES_QUOTE_RATE_LIMIT": ({"GUIDES_QUOTE_RATE_LIMIT": "9"}, "GUIDES_QUOTE_RATE_LIMIT", 9),
    "GUIDES_QUOTE_RATE_WINDOW_MINUTES": (
        {"GUIDES_QUOTE_RATE_WINDOW_MINUTES": "30"},
        "GUIDES_QUOTE_RATE_WINDOW_MINUTES",
        30,
    ),
}


def readme_variables() -> list[str]:
    """The variables the first column of README's configuration table names, `<NETWORK>` spelled out."""
    text = (ROOT / "README.md").read_text()
    table = text.split("## Configuration", 1)[1].split("\n#", 1)[0]
    names: list[str] = []
    for line in table.splitlines():
        if not line.startswith("| `"):
            continue
        for name in re.findall(r"`([A-Z][A-Z0-9_<>]*)`", line.split("|")[1]):
            names.extend(
                name.replace("<NETWORK>", n.upper()) for n in NETWORKS
            ) if "<NETWORK>" in name else names.append(name)
    return names


def settings_variables() -> set[str]:
    """The variables config/settings/{base,local,production}.py read (test.py's own are for the suite)."""
    found: set[str] = set()
    reader = re.compile(r"(?:os\.environ\.get|env_bool|env_list|env_map|env_networks)\(\s*f?\"([A-Za-z0-9_{}().]+)\"")
    for module in ("base", "local", "production"):
        for name in reader.findall((ROOT / "config" / "settings" / f"{module}.py").read_text()):
            if "{" in name:
                found.update(re.sub(r"\{[^}]*\}", n.upper(), name) for n in NETWORKS)
            else:
                found.add(name)
    return found


def run_settings(cases: list[tuple[dict[str, str | None], str]]) -> list[str]:
    """Each case's expression, evaluated on the settings module imported with BASE_ENV and the case's changes."""
    payload = [({**BASE_ENV, "PATH": os.environ.get("PATH", ""), **env}, expression) for env, expression in cases]
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", "")},
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)


def test_every_readme_variable_has_a_case_here():
    names = readme_variables()
    assert len(names) > 60, "the README table was not found"
    assert sorted(set(names) - set(CASES)) == [], "a README variable with no case in CASES"


def test_every_variable_the_settings_read_is_in_the_readme_table():
    missing = settings_variables() - set(readme_variables())
    assert sorted(missing) == [], "add these variables to README's configuration table"


def test_each_readme_variable_sets_its_setting_in_a_fresh_process():
    names = [name for name in dict.fromkeys(readme_variables()) if name in CASES]
    cases = []
    for name in names:
        env, expression, _expected = CASES[name]
        cases.append((env, expression))
        # The same import without the variable: the value must come from it, not from a default.
        cases.append(({**env, name: None} if name != "DJANGO_SETTINGS_MODULE" else {}, expression))
    results = run_settings(cases)
    wrong = {}
    for index, name in enumerate(names):
        with_variable, without = results[2 * index], results[2 * index + 1]
        expected = repr(CASES[name][2])
        if with_variable != expected or without == expected:
            wrong[name] = {"set": with_variable, "unset": without, "expected": expected}
    assert wrong == {}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PAYMENTS_CONFIRMATIONS", "bitcoin=0"),
        ("PAYMENTS_CONFIRMATIONS", "bitcoin=six"),
        ("PAYMENTS_CONFIRMATIONS", "bitcoin=\u00b2"),  # a digit to str.isdigit, not to int()
        ("PAYMENTS_CONFIRMATIONS", "dogecoin=6"),
        ("PAYMENTS_CONFIRMATIONS", "bitcoin"),
        ("PAYMENTS_ADDRESS_MODES", "ethereum=derive"),
        ("PAYMENTS_ADDRESS_MODES", "Ethereum=pool"),
        ("CHAIN_TOKEN_CONTRACTS", "USDT=0x5FbDB2315678afecb367f032d93F642f64180aa3"),
        ("CHAIN_TOKEN_CONTRACTS", "USDT/ethereum="),
        ("METRICS_ALLOWED_IPS", "10.0.0.300"),
        ("LOG_FORMAT", "xml"),
    ],
)
def test_a_malformed_map_stops_the_settings_naming_the_variable(name, value):
    (result,) = run_settings([({name: value}, "None")])
    assert result.startswith("ImproperlyConfigured: ")
    assert name in result

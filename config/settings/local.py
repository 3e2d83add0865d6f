"""Settings for `make run`: the embedded setup on one machine with SQLite, debug pages and console email."""

import os

from .base import *  # noqa: F403 (settings modules extend the base namespace on purpose)
from .base import DATABASES, env_list

DEBUG = True
# A development-only key; production refuses to start without its own SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY", "local-development-key-not-for-production-use-0123456789abcdef")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
DEMO_OPERATOR_ENABLED = True
# Serve static files straight from the apps and static/ (no collectstatic needed to run locally).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# The embedded demo quotes from rates loaded by `load_demo`; let them serve for a month instead of 15 minutes,
# and say on every payment instruction that the demo addresses are unspendable.
PAYMENTS_RATE_MAX_AGE_SECONDS = 30 * 24 * 3600
PAYMENTS_DEMO_NOTICE = True
# `runserver` answers each request in a new thread, and its server never closes a finished thread's database
# connection: kept for a minute, they piled up until PostgreSQL refused more ("too many clients"). Here each
# request closes its connection unless DATABASE_CONN_MAX_AGE says otherwise (SQLite always does; decision 0386).
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DATABASE_CONN_MAX_AGE", "0"))

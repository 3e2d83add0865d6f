"""Production settings: PostgreSQL through DATABASE_URL, behind a TLS-terminating proxy.

Refuses to start without SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL. `manage.py check --deploy
--fail-level WARNING` passes with these settings (tests/test_deploy.py).
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403 (settings modules extend the base namespace on purpose)
from .base import ALLOWED_HOSTS, CACHES, env_bool, logging_config

DEBUG = False
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be set to a random value of at least 50 characters.")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the host names the shop is served on.")
if not os.environ.get("DATABASE_URL") and not env_bool("ALLOW_SQLITE_IN_PRODUCTION", False):
    raise ImproperlyConfigured("DATABASE_URL must point at PostgreSQL in production.")

CSRF_TRUSTED_ORIGINS = [f"https://{host}" for host in ALLOWED_HOSTS]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
# A node's health is asked over plain HTTP on the private network, by the operator and by monitoring
# (`curl -H 'Host: shop.example.com' http://10.0.0.11:8000/healthz`, deploy/README.md): answered, not redirected.
# Prometheus scrapes /metrics the same way, on each node (docs/operations.md, decision 0411).
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SECURE_HSTS_SECONDS = 31_536_000
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
# Sessions live in PostgreSQL, which every web machine shares; with Redis as the cache they are read from it first and
# written to both (decision 0406). Never through a cache of each process: a logout on one would leave the session
# alive in another's memory.
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
DEMO_OPERATOR_ENABLED = False
STAFF_REQUIRE_2FA = True
# One JSON object per line for the log collector (gpurent/core/observability/logs.py); LOG_FORMAT=text for a
# person reading.
LOGGING = logging_config(os.environ.get("LOG_FORMAT", "json"))

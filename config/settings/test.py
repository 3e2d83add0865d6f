"""Settings for the test suite: the same as local, with a fast password hasher and a file SQLite test DB.

`DATABASE_URL` switches the suite to PostgreSQL (`make test-postgres`).
"""

import os

from .base import DATABASES
from .local import *  # noqa: F403 (settings modules extend the base namespace on purpose)

DEBUG = False
# Argon2 costs ~150 ms and 100 MiB per hash; tests that are not about hashing use a fast one.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
DEMO_OPERATOR_ENABLED = True

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Threaded tests need a file: the in-memory shared-cache database reports "table is locked". The process id
    # keeps two test runs in one checkout (a developer and an editor plugin, say) off each other's file.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test_db_{os.getpid()}.sqlite3")}  # noqa: F405

# A wrong money lock order fails the test that takes it (gpurent/core/locks.py, decision 0486).
LOCK_ORDER_STRICT = True
# Tests check the production rules, not the embedded demo's conveniences.
PAYMENTS_RATE_MAX_AGE_SECONDS = 900
PAYMENTS_DEMO_NOTICE = False
# Tasks run at once in tests (still after commit when enqueued through transaction.on_commit).
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
# Many tests place more orders for one customer than a shop allows unpaid at once; the limit has its own test.
ORDERS_MAX_UNPAID_PER_ACCOUNT = int(os.environ.get("ORDERS_MAX_UNPAID_PER_ACCOUNT", "1000"))
# The same for top-ups (pages of top-ups are tested with dozens); the limit has its own tests, which set it.
PAYMENTS_MAX_PENDING_TOP_UPS = int(os.environ.get("PAYMENTS_MAX_PENDING_TOP_UPS", "1000"))
if os.environ.get("GPURENT_TEST_TASKS") == "database":
    # A worker process started by a test (gpurent/backoffice/tests/test_worker_crash.py) uses the real queue.
    TASKS = {
        "default": {
            "BACKEND": "gpurent.core.observability.task_backend.RequestIdDatabaseBackend",
            "QUEUES": ["default"],
        }
    }

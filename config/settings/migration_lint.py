"""Settings for `make lint-migrations`: the test settings plus django-migration-linter (a dev dependency).

The linter reads the SQL each migration runs (`sqlmigrate`, on PostgreSQL: run with DATABASE_URL) and fails on
what the previous release, still serving during a rolling upgrade, cannot live with: a dropped or renamed column
or table, a NOT NULL column without a database default, an altered column type (deploy/upgrades.md).
"""

from typing import Any

from .test import *  # noqa: F403 (settings modules extend the base namespace on purpose)
from .test import INSTALLED_APPS, LOGGING

INSTALLED_APPS = [*INSTALLED_APPS, "django_migration_linter"]
# The linter logs each `sqlmigrate` it calls at INFO; its verdicts are printed, not logged.
LOGGING = {**LOGGING, "loggers": {**LOGGING.get("loggers", {}), "django_migration_linter": {"level": "WARNING"}}}

# (app, migration) pairs the linter reports as errors that are accepted, each with why in deploy/upgrades.md,
# "Exceptions" (tests/test_migration_lint.py keeps this list and that table the same): the nine written before the
# rule (issue 28), then only contract steps. The linter ignores by name alone: the test checks that each name is
# one migration of the shop's, so no other app's migration is skipped with it.
MIGRATION_LINT_EXCEPTIONS = [
    ("accounts", "0003_user_language"),
    ("accounts", "0005_user_session_generation"),
    ("catalog", "0002_gpumodel_machine"),
    ("core", "0006_outboundemail_template_context"),
    ("core", "0008_worker_heartbeat_email_claimed_by"),
    ("orders", "0007_order_lots_held_by_host"),
    ("payments", "0003_payments_are_rows"),
    ("payments", "0004_intent_balance_share"),
    ("payments", "0006_intent_processor_invoice"),
]

MIGRATION_LINTER_OPTIONS: dict[str, Any] = {
    # The shop's own apps only: third-party migrations (axes, django-otp, django-tasks-db) come with a version
    # bump of their package, checked by hand when it is upgraded (deploy/upgrades.md).
    "include_apps": [name.rsplit(".", 1)[1] for name in INSTALLED_APPS if name.startswith("gpurent.")],
    "ignore_name": [name for _app, name in MIGRATION_LINT_EXCEPTIONS],
    # No cache under ~/.cache: every run reads every migration again (a few seconds).
    "no_cache": True,
}

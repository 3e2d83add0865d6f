"""The migration linter's settings lint what they should (issue 28, deploy/upgrades.md).

`make lint-migrations` runs django-migration-linter with config/settings/migration_lint.py. Here: its exceptions
are exactly the table deploy/upgrades.md explains, each a single migration of the shop's (the linter ignores by
name alone); every app of the shop is linted, the packages' apps are not; a migration after the exceptions is
linted; and on PostgreSQL the linter fails the SQL Django writes for a new NOT NULL column with a plain `default`
and passes the same column with `db_default`, the recipe deploy/upgrades.md gives.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, models
from django_migration_linter import MigrationLinter
from django_migration_linter.sql_analyser.analyser import analyse_sql_statements, get_sql_analyser_class

from config.settings import migration_lint
from gpurent.accounts.models import User

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = migration_lint.MIGRATION_LINTER_OPTIONS
EXCEPTIONS = migration_lint.MIGRATION_LINT_EXCEPTIONS


def _upgrades_table() -> list[tuple[str, str]]:
    """The (app, migration) pairs of deploy/upgrades.md's "Exceptions" table."""
    section = (ROOT / "deploy" / "upgrades.md").read_text(encoding="utf-8").split("\n## Exceptions\n", 1)[1]
    return re.findall(r"^\| `(\w+)` \| `(\w+)` \|", section, flags=re.MULTILINE)


def test_every_exception_is_explained_in_upgrades_md():
    table = _upgrades_table()
    assert len(table) >= 9  # the nine migrations written before the rule
    assert sorted(table) == sorted(EXCEPTIONS)


def test_every_exception_names_one_migration_of_the_shop():
    for app, name in EXCEPTIONS:
        found = sorted(ROOT.glob(f"gpurent/*/migrations/{name}.py"))
        assert found == [ROOT / "gpurent" / app / "migrations" / f"{name}.py"], (app, name)


def test_the_linter_covers_every_app_of_the_shop_and_no_package():
    shop = sorted(config.label for config in apps.get_app_configs() if config.name.startswith("gpurent."))
    assert sorted(OPTIONS["include_apps"]) == shop
    assert OPTIONS["ignore_name"] == [name for _app, name in EXCEPTIONS]


@pytest.mark.django_db
def test_the_linter_lints_new_migrations_and_skips_the_exceptions_and_the_packages():
    linter = MigrationLinter(
        str(ROOT), include_apps=OPTIONS["include_apps"], ignore_name=OPTIONS["ignore_name"], no_cache=True
    )
    assert not linter.should_ignore_migration("orders", "0099_a_new_column")
    assert not linter.should_ignore_migration("ledger", "0004_verbose_names")
    assert linter.should_ignore_migration("payments", "0003_payments_are_rows")
    assert linter.should_ignore_migration("axes", "0005_remove_accessattempt_trusted")


@pytest.mark.django_db
def test_the_linter_fails_a_plain_default_and_passes_a_database_default_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the linter reads PostgreSQL's SQL; make test-postgres runs this")

    def error_codes(**field_options: Any) -> list[str]:
        field: models.Field[Any, Any] = models.PositiveIntegerField(**field_options)
        field.set_attributes_from_name("new_counter")
        field.model = User  # as AddField's state would set it
        with connection.schema_editor(collect_sql=True) as editor:
            editor.add_field(User, field)
        errors, _ignored, _warnings = analyse_sql_statements(
            get_sql_analyser_class(connection.settings_dict["ENGINE"]), editor.collected_sql
        )
        return [error.code for error in errors]

    assert error_codes(default=0) == ["NOT_NULL"]
    assert error_codes(db_default=0) == []
    assert error_codes(null=True) == []

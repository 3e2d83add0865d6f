"""The catalog's version: one row the database itself changes whenever a GPU model changes in a way pages show,
except stock (decision 0425, issue 30).

`catalog_version` holds one random 64-bit number. Triggers on `catalog_gpumodel` give it a new random value when
a row is inserted or deleted (or the table truncated), and when an UPDATE moves `updated_at` (every `save()` does,
the back office's included) or `on_sale`. An order's stock UPDATE moves neither, so it leaves the version alone:
cached pages survive orders, and their stock is read live (`catalog.selectors.catalog_state`).

Random, not a counter: a version is never seen twice, even after a rolled-back transaction or a test database
flush, so a page stored under one version can never be served for other rows. Reading it is one row by its key,
whatever the size of the catalog (the digest of every row it replaces read 700 rows at 700 models).
"""

from django.db import migrations

TABLE = "CREATE TABLE catalog_version (id smallint PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)"

POSTGRESQL = [
    TABLE,
    "INSERT INTO catalog_version (id, version) VALUES (1, (random() * 9.0e18)::bigint)",
    """
    CREATE FUNCTION catalog_version_move() RETURNS trigger AS $$
    BEGIN
        UPDATE catalog_version SET version = (random() * 9.0e18)::bigint WHERE id = 1;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER catalog_version_rows AFTER INSERT OR DELETE OR TRUNCATE ON catalog_gpumodel
        FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_move()
    """,
    """
    CREATE TRIGGER catalog_version_edit AFTER UPDATE ON catalog_gpumodel FOR EACH ROW
        WHEN (OLD.updated_at IS DISTINCT FROM NEW.updated_at OR OLD.on_sale IS DISTINCT FROM NEW.on_sale)
        EXECUTE FUNCTION catalog_version_move()
    """,
]

# SQLite has row triggers only; its random() is a random 64-bit integer.
_MOVE = "BEGIN UPDATE catalog_version SET version = random() WHERE id = 1; END"
SQLITE = [
    TABLE,
    "INSERT INTO catalog_version (id, version) VALUES (1, random())",
    f"CREATE TRIGGER catalog_version_insert AFTER INSERT ON catalog_gpumodel {_MOVE}",
    f"CREATE TRIGGER catalog_version_delete AFTER DELETE ON catalog_gpumodel {_MOVE}",
    "CREATE TRIGGER catalog_version_edit AFTER UPDATE ON catalog_gpumodel"
    f" WHEN OLD.updated_at IS NOT NEW.updated_at OR OLD.on_sale IS NOT NEW.on_sale {_MOVE}",
]

DROP_POSTGRESQL = [
    "DROP TRIGGER IF EXISTS catalog_version_edit ON catalog_gpumodel",
    "DROP TRIGGER IF EXISTS catalog_version_rows ON catalog_gpumodel",
    "DROP FUNCTION IF EXISTS catalog_version_move()",
    "DROP TABLE IF EXISTS catalog_version",
]
DROP_SQLITE = [
    "DROP TRIGGER IF EXISTS catalog_version_edit",
    "DROP TRIGGER IF EXISTS catalog_version_delete",
    "DROP TRIGGER IF EXISTS catalog_version_insert",
    "DROP TABLE IF EXISTS catalog_version",
]


def create(apps, schema_editor):  # type: ignore[no-untyped-def]
    postgresql = schema_editor.connection.vendor == "postgresql"
    for statement in POSTGRESQL if postgresql else SQLITE:
        schema_editor.execute(statement, params=None)


def drop(apps, schema_editor):  # type: ignore[no-untyped-def]
    postgresql = schema_editor.connection.vendor == "postgresql"
    for statement in DROP_POSTGRESQL if postgresql else DROP_SQLITE:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0002_gpumodel_machine")]
    operations = [migrations.RunPython(create, drop)]

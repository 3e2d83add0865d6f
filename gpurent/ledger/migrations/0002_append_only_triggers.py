"""On PostgreSQL the database itself refuses UPDATE and DELETE of ledger transfers and entries.

The model layer refuses them too (`AppendOnlyModel`), on every database; the trigger also stops raw SQL and
any code path that bypasses the ORM. SQLite, the embedded default, relies on the model layer.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger rows are append-only (%% on %%)', TG_OP, TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER ledger_transfer_append_only BEFORE UPDATE OR DELETE ON ledger_ledgertransfer
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE TRIGGER ledger_entry_append_only BEFORE UPDATE OR DELETE ON ledger_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
"""

DROP = """
DROP TRIGGER IF EXISTS ledger_entry_append_only ON ledger_ledgerentry;
DROP TRIGGER IF EXISTS ledger_transfer_append_only ON ledger_ledgertransfer;
DROP FUNCTION IF EXISTS ledger_refuse_change();
"""


def create(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]

"""Indexes for the operator's dashboard (decision 0416), each measured with a year of generated history
(docs/performance.md): the references of each term, read whole from the index to name the term of a ledger
transfer; and the terms that start or end in a period."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("orders", "0007_order_lots_held_by_host")]

    operations = [
        migrations.AddIndex(model_name="order", index=models.Index(fields=["term_days", "ref"], name="order_term_ref")),
        migrations.AddIndex(
            model_name="order", index=models.Index(fields=["term_starts_at"], name="order_term_starts")
        ),
        migrations.AddIndex(model_name="order", index=models.Index(fields=["term_ends_at"], name="order_term_ends")),
    ]

"""An index for the operator's dashboard (decision 0416), measured with a year of generated history
(docs/performance.md): the payments credited in a period."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("payments", "0008_chain_cursor_tip")]

    operations = [
        migrations.AddIndex(
            model_name="payment", index=models.Index(fields=["credited_at"], name="payment_credited_at")
        ),
    ]

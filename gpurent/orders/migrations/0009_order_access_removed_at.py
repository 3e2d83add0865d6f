"""When an operator confirmed a desk rental's access removed from its machine after the term (QA walk 2): a
nullable column, which the previous release serving beside this one never reads or writes."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("orders", "0008_dashboard_indexes")]

    operations = [
        migrations.AddField(
            model_name="order",
            name="access_removed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="access removed"),
        ),
    ]

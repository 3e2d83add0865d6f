import pytest
from django.db import transaction

from gpurent.catalog.models import GpuModel
from gpurent.core.audit import audit_record
from gpurent.core.models import AuditLogEntry

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)
def test_audit_record_outside_a_transaction_is_refused(django_user_model):
    operator = django_user_model.objects.create_user("op@example.com", "x" * 16, first_name="O", last_name="P")
    with pytest.raises(RuntimeError, match="inside the transaction"):
        audit_record(actor=operator, action="x", target=operator)
    assert not AuditLogEntry.objects.exists()


def test_admin_change_writes_an_audit_row_with_before_and_after(admin_client, gpu):
    response = admin_client.post(
        f"/backoffice/catalog/gpumodel/{gpu.pk}/change/",
        {
            "name": gpu.name,
            "slug": gpu.slug,
            "vendor": gpu.vendor,
            "stack": gpu.stack,
            "on_sale": "on",
            "position": 0,
            "memory_mib_per_card": gpu.memory_mib_per_card,
            "cards_per_lot": gpu.cards_per_lot,
            "stock_change": -5,  # lots are added or removed, not typed over (QA walk #5)
            "stock_seen": gpu.stock_lots,
            "price_3d": f"{gpu.price_3d_cents / 100:.2f}",  # prices are typed in dollars (QA walk #4)
            "price_7d": f"{gpu.price_7d_cents / 100:.2f}",
            "price_30d": f"{gpu.price_30d_cents / 100:.2f}",
            "summary": gpu.summary,
            "good_for": "",
            "glossary_terms": "[]",
        },
    )
    assert response.status_code == 302
    entry = AuditLogEntry.objects.get(action="admin.change")
    assert entry.before is not None
    assert entry.after is not None
    assert entry.actor_label == "admin@example.com"
    assert (entry.target_type, entry.target_id) == ("catalog.gpumodel", str(gpu.pk))
    assert entry.before["stock_lots"] == 8
    assert entry.after["stock_lots"] == 3
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 3


def test_audit_log_is_read_only_in_the_admin(admin_client, gpu):
    with transaction.atomic():
        entry = audit_record(actor=None, action="system.test", target=gpu)
    assert admin_client.get(f"/backoffice/core/auditlogentry/{entry.pk}/delete/").status_code == 403
    assert admin_client.get("/backoffice/core/auditlogentry/add/").status_code == 403
    assert admin_client.get("/backoffice/core/auditlogentry/").status_code == 200

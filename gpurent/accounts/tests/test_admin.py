"""Users in the back office (QA walk of the back office, defect 19): moments as the desks write them."""

import html
from datetime import UTC, datetime

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_users_list_and_page_write_their_moments_with_the_zone(client, django_user_model):
    operator = django_user_model.objects.create_superuser("op@shop.example", "long enough passphrase", is_staff=True)
    ana = django_user_model.objects.create_user("ana@example.com", "passphrase 12", first_name="A", last_name="N")
    django_user_model.objects.filter(pk=ana.pk).update(
        date_joined=datetime(2026, 12, 6, 17, 1, tzinfo=UTC), last_login=datetime(2026, 12, 6, 17, 4, tzinfo=UTC)
    )
    client.force_login(operator)
    listed = html.unescape(client.get(reverse("admin:accounts_user_changelist")).content.decode())
    assert '<td class="field-date_joined_shown">06 Dec 2026, 17:01 UTC</td>' in listed
    assert "p.m." not in listed

    shown = html.unescape(client.get(reverse("admin:accounts_user_change", args=[ana.pk])).content.decode())
    assert "06 Dec 2026, 17:01 UTC" in shown
    assert "06 Dec 2026, 17:04 UTC" in shown
    assert "p.m." not in shown

"""The catalog's cached cards and grid: served from the cache, and never stale after an edit or a stock change."""

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.catalog.models import GpuModel
from gpurent.catalog.services import stock_release, stock_reserve

pytestmark = pytest.mark.django_db

CARD = "catalog/partials/card.html"
GRID = "catalog/partials/results.html"


def rendered(response, name: str) -> int:
    return [template.name for template in response.templates].count(name)


def card_of(response, slug: str) -> str:
    page = response.content.decode()
    start = page.index(f'data-gpu="{slug}"')
    return page[start : page.index("</article>", start)]


def test_the_second_visit_renders_no_card_and_shows_the_same_grid(client, demo_catalog):
    first = client.get(reverse("catalog:index"))
    assert rendered(first, CARD) == 7
    second = client.get(reverse("catalog:index"))
    assert rendered(second, CARD) == 0
    assert rendered(second, GRID) == 0
    assert card_of(second, "h100-80gb") == card_of(first, "h100-80gb")


def test_a_back_office_edit_shows_at_once_and_rerenders_only_that_card(admin_client, client, demo_catalog):
    client.get(reverse("catalog:index"))
    gpu = GpuModel.objects.get(slug="h100-80gb")
    response = admin_client.post(
        f"/backoffice/catalog/gpumodel/{gpu.pk}/change/",
        {
            "name": "H100 80GB SXM",
            "slug": gpu.slug,
            "vendor": gpu.vendor,
            "stack": gpu.stack,
            "on_sale": "on",
            "position": gpu.position,
            "memory_mib_per_card": gpu.memory_mib_per_card,
            "cards_per_lot": gpu.cards_per_lot,
            "stock_change": "0",
            "price_3d": "170",
            "price_7d": "345.50",  # typed in dollars (QA walk of the back office, defect 4)
            "price_30d": "1450",
            "summary": gpu.summary,
            "good_for": "",
            "glossary_terms": "[]",
        },
    )
    assert response.status_code == 302
    after = client.get(reverse("catalog:index"))
    assert rendered(after, CARD) == 1
    card = card_of(after, "h100-80gb")
    assert "H100 80GB SXM" in card
    assert "$345.50" in card


def test_a_stock_change_by_order_or_release_shows_at_once(client, demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    before = card_of(client.get(reverse("catalog:index")), gpu.slug)
    assert f"{gpu.stock_lots} lots available" in before
    assert stock_reserve(gpu_id=gpu.pk, lots=gpu.stock_lots - 1)  # what an order does: an UPDATE, no save()
    assert "1 lot available" in card_of(client.get(reverse("catalog:index")), gpu.slug)
    assert stock_reserve(gpu_id=gpu.pk, lots=1)
    sold_out = card_of(client.get(reverse("catalog:index")), gpu.slug)
    assert "Sold out" in sold_out
    assert "rent-button" not in sold_out
    stock_release(gpu_id=gpu.pk, lots=2)
    assert "2 lots available" in card_of(client.get(reverse("catalog:index")), gpu.slug)


def test_a_gpu_taken_off_sale_leaves_the_cached_grid(client, demo_catalog):
    assert "7 GPU models" in client.get(reverse("catalog:index")).content.decode()
    gpu = GpuModel.objects.get(slug="h100-80gb")
    gpu.on_sale = False
    gpu.save()
    page = client.get(reverse("catalog:index")).content.decode()
    assert "6 GPU models" in page
    assert 'data-gpu="h100-80gb"' not in page


def test_cards_are_cached_per_language_and_term(client, demo_catalog):
    english = client.get(reverse("catalog:index"))
    spanish = client.get(reverse("catalog:index"), headers={"accept-language": "es"})
    translation.activate("en")
    assert rendered(spanish, CARD) == 7
    assert "lotes disponibles" in card_of(spanish, "h100-80gb")
    assert "lots available" in card_of(english, "h100-80gb")
    month = client.get(reverse("catalog:index"), {"term": "30"})
    assert rendered(month, CARD) == 7
    assert 'value="30" id="h100-80gb-term-30" checked' in card_of(month, "h100-80gb")


def test_a_cached_card_carries_nothing_of_the_visitor(client, demo_catalog, django_user_model):
    user = django_user_model.objects.create_user("ana@example.com", "x" * 16, first_name="Ana", last_name="L")
    client.force_login(user)
    client.get(reverse("catalog:index"))
    client.logout()
    page = client.get(reverse("catalog:index")).content.decode()
    assert "ana@example.com" not in page
    assert "csrfmiddlewaretoken" not in card_of(client.get(reverse("catalog:index")), "h100-80gb")

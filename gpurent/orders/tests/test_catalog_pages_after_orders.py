"""Orders and the cached catalog pages (issue 30, decision 0425): an order leaves the pages in the cache, their
stock is read live, and a page can never sell what is gone: the order's reserving UPDATE checks stock under the
row's lock, whatever a page showed."""

import pytest
from django.urls import reverse

from gpurent.catalog.models import GpuModel
from gpurent.orders.errors import OutOfStock
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db

CONTACT = Contact("Ada", "Lovelace", "ada@example.com")


def rendered(response) -> list[str]:
    return [template.name for template in response.templates]


def test_an_order_leaves_every_catalog_page_in_the_cache_with_the_new_stock(client, demo_catalog, django_user_model):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    pages = ["/", reverse("catalog:detail", args=[gpu.slug]), "/guides/"]
    for path in pages:
        client.get(path)
    buyer = django_user_model.objects.create_user("buyer@example.com", "b" * 16)
    order_place(owner=buyer, gpu_slug=gpu.slug, term_days=7, lots=2, environment="pytorch", contact=CONTACT)
    left = gpu.stock_lots - 2
    for path in pages:
        after = client.get(path)
        assert rendered(after) == [], path  # the page rendered before the order
        if path != "/guides/":  # the guide index shows no stock
            assert f"{left} lots available" in after.content.decode(), path


def test_a_price_change_renders_the_pages_anew(client, demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    pages = ["/", reverse("catalog:detail", args=[gpu.slug]), "/guides/"]
    for path in pages:
        client.get(path)
    gpu.price_7d_cents = 99_900
    gpu.save()
    for path in pages:
        assert rendered(client.get(path)) != [], path
    assert "$999" in client.get("/").content.decode()


def test_the_last_lot_sold_shows_sold_out_on_the_cached_page_and_checkout_refuses_it(
    client, demo_catalog, django_user_model
):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    detail = reverse("catalog:detail", args=[gpu.slug])
    client.get(detail)
    assert "rent-button" in client.get(detail).content.decode()
    first, second = (django_user_model.objects.create_user(f"{name}@example.com", "b" * 16) for name in "ab")
    every_lot = gpu.stock_lots
    order_place(owner=first, gpu_slug=gpu.slug, term_days=3, lots=every_lot, environment="pytorch", contact=CONTACT)
    page = client.get(detail)
    assert rendered(page) == []
    assert "Sold out" in page.content.decode()
    assert "rent-button" not in page.content.decode()
    # A customer who loaded the page before the last lot went still cannot buy it: placing re-checks stock.
    with pytest.raises(OutOfStock):
        order_place(owner=second, gpu_slug=gpu.slug, term_days=3, lots=1, environment="pytorch", contact=CONTACT)
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 0

"""A large catalog: the page shows one keyset page of cards with a link to the next, filters kept."""

import html
import re

import pytest
from django.urls import reverse

from conftest import make_gpu
from gpurent.catalog.cards import PAGE_SIZE

pytestmark = pytest.mark.django_db


def slugs(page: str) -> list[str]:
    return re.findall(r'<article class="gpu-card[^"]*" aria-labelledby="name-[^"]+" data-gpu="([^"]+)"', page)


def next_link(page: str) -> str | None:
    found = re.search(r'<a href="([^"]+)" rel="next"', page)
    return html.unescape(found.group(1)) if found else None


@pytest.fixture
def large_catalog(db) -> None:
    for number in range(70):
        make_gpu(
            slug=f"gpu-{number:03d}",
            name=f"GPU {number:03d}",
            vendor="AMD" if number % 2 else "NVIDIA",
            position=number,
            price_7d_cents=10_000 + (number * 37 % 70) * 100,
        )


def test_a_large_catalog_is_paged_and_every_gpu_is_shown_once(client, large_catalog):
    url: str | None = reverse("catalog:index")
    seen: list[str] = []
    pages = 0
    while url:
        page = client.get(url).content.decode()
        assert "70 GPU models" in page
        assert len(slugs(page)) <= PAGE_SIZE
        seen += slugs(page)
        url = next_link(page)
        pages += 1
    assert pages == 3
    assert seen == [f"gpu-{number:03d}" for number in range(70)]


def test_pages_keep_the_filters_and_the_sort(client, large_catalog):
    url: str | None = reverse("catalog:index") + "?vendor=NVIDIA&sort=price&term=7"
    seen: list[str] = []
    while url:
        page = client.get(url).content.decode()
        assert "35 GPU models" in page
        seen += slugs(page)
        url = next_link(page)
        assert url is None or "vendor=NVIDIA" in url
    prices = {f"gpu-{n:03d}": 10_000 + (n * 37 % 70) * 100 for n in range(0, 70, 2)}
    assert seen == sorted(prices, key=lambda slug: (prices[slug], int(slug[4:])))


def test_a_forged_cursor_shows_the_first_page(client, large_catalog):
    response = client.get(reverse("catalog:index"), {"cursor": "not-a-cursor"})
    assert response.status_code == 200
    assert slugs(response.content.decode())[0] == "gpu-000"


def test_a_small_catalog_has_no_page_links(client, demo_catalog):
    page = client.get(reverse("catalog:index")).content.decode()
    assert next_link(page) is None
    assert 'rel="first"' not in page

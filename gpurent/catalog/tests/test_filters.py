"""Sorting and filtering the catalog (a GET form, htmx-live), and the machine each lot comes with."""

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gpurent.catalog.filters import min_mib_for_gb
from gpurent.catalog.models import GpuModel

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    """The GPU names of the cards, read from the HTML (cards may come from the cache, not from a context)."""
    return [
        html.unescape(name)
        for name in re.findall(r'<h2 id="name-[^"]+"><a href="[^"]*">([^<]+)</a>', response.content.decode())
    ]


def test_min_mib_for_gb_uses_decimal_gigabytes_as_cards_are_named():
    assert min_mib_for_gb(80) == 76_294  # 80 × 10⁹ bytes
    assert min_mib_for_gb(80) <= 81_559  # an H100 80GB as the driver reports it


def test_catalog_filters_to_80_gb_in_stock_cuda_without_javascript(client, demo_catalog):
    GpuModel.objects.filter(slug="h200-141gb").update(stock_lots=0)
    response = client.get(reverse("catalog:index"), {"memory": "80", "stack": "CUDA", "in_stock": "on"})
    assert names(response) == ["A100 80GB", "H100 80GB", "B200 (2 × 180GB)"]
    page = response.content.decode()
    assert 'name="memory"' in page  # the full page with its form, for a plain GET
    assert "3 GPU models" in page


def test_catalog_htmx_request_gets_only_the_results(client, demo_catalog):
    response = client.get(
        reverse("catalog:index"),
        {"vendor": "AMD"},
        headers={"HX-Request": "true", "HX-Target": "catalog-results"},
    )
    assert names(response) == ["MI300X 192GB"]
    assert '<form class="catalog-filters"' not in response.content.decode()


@pytest.mark.parametrize(
    ("params", "expected_first"),
    [
        ({"sort": "price", "term": "30"}, "RTX 4090 24GB"),
        ({"sort": "-price", "term": "3"}, "B200 (2 × 180GB)"),
        ({"sort": "-memory"}, "MI300X 192GB"),
        ({"sort": "memory"}, "RTX 4090 24GB"),
    ],
)
def test_catalog_sorts_by_price_per_term_and_memory(client, demo_catalog, params, expected_first):
    assert names(client.get(reverse("catalog:index"), params))[0] == expected_first


def test_catalog_max_price_is_per_lot_for_the_chosen_term(client, demo_catalog):
    cheap = names(client.get(reverse("catalog:index"), {"term": "7", "max_price": "150"}))
    assert cheap == ["RTX 4090 24GB", "L40S 48GB"]  # $62 and $140 a week


def test_catalog_bad_filter_says_so_and_shows_everything(client, demo_catalog):
    response = client.get(reverse("catalog:index"), {"max_price": "-5", "memory": "7"})
    assert response.status_code == 200
    assert len(names(response)) == 7
    assert "field-error" in response.content.decode()


def test_catalog_no_match_offers_to_reset(client, demo_catalog):
    page = client.get(reverse("catalog:index"), {"vendor": "AMD", "stack": "CUDA"}).content.decode()
    assert "No GPU matches these filters" in page


def test_machine_facts_on_cards_gpu_page_and_api(client, demo_catalog):
    page = client.get(reverse("catalog:index")).content.decode()
    assert "NVLink 5 between the two cards" in page
    assert "56 vCPUs" in page
    detail = client.get(reverse("catalog:detail", args=["mi300x-192gb"])).content.decode()
    assert "ROCm 6.4" in detail
    assert "usually 60 minutes after payment" in detail
    items = {item["slug"]: item for item in client.get("/api/v1/catalog").json()["items"]}
    assert items["b200-2x180gb"]["machine"] == {
        "vcpus_per_lot": 56,
        "ram_gib_per_lot": 720,
        "disk_gib_per_lot": 7600,
        "network": "100 Gbit/s, public IPv4",
        "region": "US (Texas)",
        "driver_version": "575.51",
        "stack_version": "CUDA 12.9",
        "interconnect": "NVLink 5 between the two cards (1.8 TB/s each way)",
        "typical_ready_minutes": 60,
    }


def test_machine_facts_are_edited_in_the_back_office(admin_client, demo_catalog):
    page = admin_client.get(
        reverse("admin:catalog_gpumodel_change", args=[GpuModel.objects.get(slug="a100-80gb").pk])
    ).content.decode()
    for field in ["vcpus_per_lot", "ram_gib_per_lot", "region", "stack_version", "typical_ready_minutes"]:
        assert f'name="{field}"' in page


def test_checkout_first_step_shows_lot_price_and_total(client, demo_catalog):
    page = client.get(reverse("orders:checkout_start"), {"gpu": "b200-2x180gb", "term": "7", "lots": "2"})
    html = page.content.decode()
    assert "Price of one lot for 7 days" in html
    assert "$1,700.00" in html
    assert "$3,400.00" in html
    live = client.get(reverse("orders:checkout_quote"), {"gpu": "a100-80gb", "term": "3", "lots": "3"}).content
    assert "$95.00" in live.decode()
    assert "$285.00" in live.decode()


def test_checkout_quote_reads_only_the_chosen_gpu_and_prices_nothing_unknown_or_off_sale(client, demo_catalog):
    url = reverse("orders:checkout_quote")
    with CaptureQueriesContext(connection) as queries:
        live = client.get(url, {"gpu": "a100-80gb", "term": "3", "lots": "1"}).content.decode()
    assert "$95.00" in live
    catalog_reads = [q["sql"] for q in queries.captured_queries if '"catalog_gpumodel"' in q["sql"]]
    assert catalog_reads
    assert all("slug" in sql.split("WHERE", 1)[-1] for sql in catalog_reads)  # one GPU by its slug, not the list
    GpuModel.objects.filter(slug="a100-80gb").update(on_sale=False)
    for slug in ["a100-80gb", "no-such-gpu", "", "a100-80gb\x00"]:
        response = client.get(url, {"gpu": slug, "term": "3", "lots": "1"})
        assert response.status_code == 200
        assert 'data-testid="checkout-quote"' not in response.content.decode()


@pytest.mark.parametrize("amount", ["١٥٠", "１５０", " 150", "150 ", "1e3", "+150", "1_000", "99999999999999999999"])
def test_catalog_max_price_is_parsed_by_the_money_rule(client, demo_catalog, amount):
    """The price filter is a money field: what `Usd.parse` refuses is a field error, not a number."""
    response = client.get(reverse("catalog:index"), {"term": "7", "max_price": amount})
    assert response.status_code == 200
    assert len(names(response)) == 7
    assert "field-error" in response.content.decode()


def test_catalog_max_price_takes_cents(client, demo_catalog):
    assert names(client.get(reverse("catalog:index"), {"term": "7", "max_price": "139.99"})) == ["RTX 4090 24GB"]


def test_the_term_select_shows_seven_days_as_the_prices_and_cards_do(client, demo_catalog):
    page = client.get(reverse("catalog:index")).content.decode()
    select = page.split('name="term"', 1)[1].split("</select>", 1)[0]
    assert re.search(r'<option value="7" selected>', select), select
    assert 'value="3" selected' not in select

"""A guide's figures are computed once per catalog version: cached, and recomputed after any catalog change."""

import pytest

from gpurent.catalog.models import GpuModel
from gpurent.catalog.services import stock_reserve
from gpurent.guides import report as report_module

from .conftest import GUIDE_URL

pytestmark = pytest.mark.django_db


@pytest.fixture
def computations(monkeypatch) -> list[str]:
    calls: list[str] = []
    compute = report_module.guide_report

    def counting(guide, gpus):
        calls.append(guide.gpu.slug)
        return compute(guide, gpus)

    monkeypatch.setattr(report_module, "guide_report", counting)
    return calls


def fit_of(response, slug: str):
    return next(row for row in response.context["report"].sizing.fit if row.gpu.slug == slug)


def test_a_guide_is_computed_once_then_served_from_the_cache(client, demo_catalog, computations):
    first = client.get(GUIDE_URL)
    second = client.get(GUIDE_URL)
    assert computations == ["a100-80gb"]
    assert second.content.decode().count("cell-price") == first.content.decode().count("cell-price") > 0


def test_a_price_edit_is_shown_at_once(client, demo_catalog, computations):
    client.get(GUIDE_URL)
    gpu = GpuModel.objects.get(slug="a100-80gb")
    gpu.price_7d_cents = 33_300
    gpu.save()
    html = client.get(GUIDE_URL).content.decode()
    assert len(computations) == 2
    assert '<span class="cell-price">$333</span>' in html


def test_a_stock_change_of_another_gpu_recomputes_the_table(client, demo_catalog, computations):
    h100 = GpuModel.objects.get(slug="h100-80gb")
    assert fit_of(client.get(GUIDE_URL), "h100-80gb").gpu.stock_lots == h100.stock_lots
    assert stock_reserve(gpu_id=h100.pk, lots=1)
    assert fit_of(client.get(GUIDE_URL), "h100-80gb").gpu.stock_lots == h100.stock_lots - 1
    assert len(computations) == 2


def test_each_language_has_its_own_figures_text(client, demo_catalog, computations):
    client.get(GUIDE_URL)
    spanish = client.get(GUIDE_URL, headers={"accept-language": "es"})
    assert len(computations) == 2
    assert spanish.context["report"].findings != []


BODY = "guides/partials/guide_body.html"


def rendered(response) -> list[str]:
    return [template.name for template in response.templates]


def test_the_guide_body_is_rendered_once_and_each_visitor_keeps_their_own_form(
    client, demo_catalog, computations, customer, other_customer
):
    anonymous = client.get(GUIDE_URL)
    assert BODY in rendered(anonymous)
    assert "Request a quote" in anonymous.content.decode()
    client.force_login(customer)
    ada = client.get(GUIDE_URL)
    assert BODY not in rendered(ada)  # the figures come from the cache ...
    page = ada.content.decode()
    assert 'value="ada@example.com"' in page  # ... the form and header are Ada's own
    assert "Log out" in page
    client.force_login(other_customer)
    bob = client.get(GUIDE_URL).content.decode()
    assert "ada@example.com" not in bob
    assert 'value="bob@example.com"' in bob
    client.logout()
    assert "ada@example.com" not in client.get(GUIDE_URL).content.decode()
    assert computations == ["a100-80gb"]


def test_a_price_edit_of_another_gpu_rerenders_the_guide_body(client, demo_catalog):
    client.get(GUIDE_URL)
    h100 = GpuModel.objects.get(slug="h100-80gb")
    h100.price_7d_cents = 44_400
    h100.save()
    after = client.get(GUIDE_URL)
    assert BODY in rendered(after)
    assert '<span class="cell-price">$444</span>' in after.content.decode()


def test_the_guide_index_is_cached_for_anonymous_visitors_and_follows_the_catalog(client, demo_catalog):
    assert "guides/index.html" in rendered(client.get("/guides/"))
    cached = client.get("/guides/")
    assert rendered(cached) == []
    assert "/guides/h100-80gb/" in cached.content.decode()
    gpu = GpuModel.objects.get(slug="h100-80gb")
    gpu.on_sale = False
    gpu.save()
    after = client.get("/guides/")
    assert "guides/index.html" in rendered(after)
    assert "/guides/h100-80gb/" not in after.content.decode()

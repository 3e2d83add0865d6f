"""With more than 12 GPUs on sale the estimator shows the 12 that fit best (table and chart), says so, and the saved
estimate's page lists the whole stored table in pages of `?fit=` (decision 0350)."""

import re

import pytest
from django.urls import reverse

from gpurent.sizing import views
from gpurent.sizing.forms.choices import DEFAULTS, EXAMPLES
from gpurent.sizing.models import SavedEstimate

pytestmark = pytest.mark.django_db

QLORA_QUERY = EXAMPLES[1][1]
HTMX = {"HTTP_HX_REQUEST": "true"}
# With `catalog_30`: the five that fit, the five tight ones, then the two 48 GiB cards (the smallest shortfall, the
# first two in catalog order), in catalog order.
SHOWN = [f"gpu-{n:02d}" for n in (3, 4, 5, 9, 10, 11, 16, 17, 22, 23, 28, 29)]


def table_gpus(html: str) -> list[str]:
    return re.findall(r'<tr class="[^"]*" data-gpu="([^"]+)" data-status=', html)


def chart_gpus(html: str) -> list[str]:
    return re.findall(r'<div class="chart-row[^"]*" data-gpu="([^"]+)"', html)


def saved_gpus(html: str) -> list[str]:
    table = html.split('data-testid="saved-fit-table"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<tr class="[^"]*" data-gpu="([^"]+)"', table)


def test_the_estimator_shows_the_twelve_gpus_that_fit_best_and_says_how_many_are_on_sale(client, catalog_30):
    page = client.get(reverse("sizing:estimate"), QLORA_QUERY)
    html = page.content.decode()
    sizing = page.context["sizing"]
    assert len(sizing.fit) == 30
    assert [row.gpu.slug for row in sizing.fit_shown] == SHOWN
    assert sizing.cheapest.gpu.slug == "gpu-05"
    assert table_gpus(html) == SHOWN
    assert chart_gpus(html) == SHOWN
    assert "Showing the 12 GPUs that fit best of 30 on sale." in html
    assert "Save the estimate to see all of them" in html
    partial = client.post(reverse("sizing:result"), {**DEFAULTS, **QLORA_QUERY}, **HTMX).content.decode()
    assert "<html" not in partial
    assert table_gpus(partial) == chart_gpus(partial) == SHOWN
    assert "Showing the 12 GPUs that fit best of 30 on sale." in partial


def test_with_twelve_gpus_or_fewer_the_estimator_shows_them_all_and_no_note(client, demo_catalog):
    page = client.get(reverse("sizing:estimate"), QLORA_QUERY)
    html = page.content.decode()
    slugs = [row.gpu.slug for row in page.context["sizing"].fit]
    assert len(slugs) == 7
    assert table_gpus(html) == chart_gpus(html) == slugs
    assert 'data-testid="fit-shown"' not in html


def test_the_saved_estimate_pages_through_the_whole_table_each_gpu_once(client, catalog_30, user, monkeypatch):
    client.force_login(user)
    saved = client.post(reverse("sizing:save"), {**DEFAULTS, **QLORA_QUERY, "idempotency_key": "k-30"})
    location = saved["Location"]
    assert len(SavedEstimate.objects.get().catalog_fit) == 30
    whole = client.get(location).content.decode()
    assert saved_gpus(whole) == [f"gpu-{n:02d}" for n in range(30)]  # one page of 50
    assert 'rel="next"' not in whole

    monkeypatch.setattr(views, "FIT_PAGE_SIZE", 8)
    seen, pages, url = [], [], location + "?cursor=kept"
    while url:
        html = client.get(url).content.decode()
        pages.append(saved_gpus(html))
        seen += pages[-1]
        following = re.search(r'<a href="([^"]+)" rel="next">More GPUs</a>', html)
        url = location + following.group(1).replace("&amp;", "&").split("#")[0] if following else None
        if url:
            assert "cursor=kept" in url  # another list's cursor is left alone
    assert [len(rows) for rows in pages] == [8, 8, 8, 6]
    assert seen == [f"gpu-{n:02d}" for n in range(30)]
    assert "30 GPUs were on sale; the table lists them in catalog order, page by page." in html
    assert 'rel="first">First GPUs</a>' in html
    # A cursor that is not one of this list's shows the first page.
    assert saved_gpus(client.get(location, {"fit": "not-a-cursor"}).content.decode()) == seen[:8]


def test_another_owners_saved_table_is_a_404_on_every_page(client, catalog_30, user, other_user):
    client.force_login(user)
    location = client.post(reverse("sizing:save"), {**DEFAULTS, **QLORA_QUERY, "idempotency_key": "k-1"})["Location"]
    client.force_login(other_user)
    assert client.get(location).status_code == 404
    assert client.get(location, {"fit": "WzEwXQ"}).status_code == 404


def test_the_saved_table_marks_a_tight_gpu_tight_with_its_lots_not_as_does_not_fit(client, catalog_30, user):
    """QLoRA 70B: the 60 GiB cards hold only the expected peak (tight), the 80 GiB ones fit, the rest do not."""
    client.force_login(user)
    location = client.post(reverse("sizing:save"), {**DEFAULTS, **QLORA_QUERY, "idempotency_key": "k-t"})["Location"]
    html = client.get(location).content.decode()
    rows = {gpu: css for css, gpu in re.findall(r'<tr class="(is-[a-z-]+)" data-gpu="(gpu-\d\d)">', html)}
    expected = {4: "is-tight", 5: "is-fit"}
    assert rows == {f"gpu-{n:02d}": expected.get(n % 6, "is-no-fit") for n in range(30)}
    found = re.search(r'data-gpu="gpu-04">.*?</tr>', html, re.S)
    assert found is not None
    tight_cell = found.group(0)
    assert "Tight" in tight_cell
    assert "lot" in tight_cell
    assert "Does not fit" not in tight_cell

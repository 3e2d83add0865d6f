"""The guide index of a large catalog: one page of GPUs at a time, every guide reachable exactly once."""

import html
import re

import pytest

from conftest import make_gpu
from gpurent.guides.views import GPUS_PER_INDEX_PAGE

pytestmark = pytest.mark.django_db


@pytest.fixture
def large_catalog(db) -> None:
    for number in range(60):
        make_gpu(slug=f"gpu-{number:03d}", name=f"GPU {number:03d}", position=number)


def walk(client, url: str | None) -> tuple[list[str], int]:
    links: list[str] = []
    pages = 0
    while url:
        page = client.get(url).content.decode()
        links += re.findall(r'<a class="guide-link" href="([^"]+)"', page)
        found = re.search(r'<a href="([^"]+)" rel="next"', page)
        url = html.unescape(found.group(1)) if found else None
        pages += 1
    return links, pages


def test_a_large_catalog_pages_the_index_and_shows_every_guide_once(client, large_catalog):
    first = client.get("/guides/").content.decode()
    assert "900 guides" in first  # 60 GPUs × 5 workloads × 3 scopes
    assert len(set(re.findall(r'href="/guides/(gpu-\d+)/', first))) == GPUS_PER_INDEX_PAGE
    links, pages = walk(client, "/guides/")
    assert pages == 3
    assert len(links) == len(set(links)) == 900


def test_the_pages_keep_the_filters(client, large_catalog):
    links, pages = walk(client, "/guides/?workload=llm-serving&scope=pilot")
    assert pages == 3
    assert len(links) == 60
    assert all(link.endswith("/llm-serving/pilot/") for link in links)


def test_a_large_catalog_pages_the_api_list_and_every_guide_comes_once(client, large_catalog):
    first = client.get("/api/v1/guides")
    assert len(first.json()["items"]) == 10 * 15  # the default page: 10 GPUs, 15 guides each
    urls: list[str] = []
    body, pages, largest = first.json(), 1, len(first.content)
    while True:
        urls += [item["url"] for item in body["items"]]
        if body["next"] is None:
            break
        response = client.get("/api/v1/guides", {"cursor": body["next"], "limit": 15})
        body, pages, largest = response.json(), pages + 1, max(largest, len(response.content))
    assert pages == 1 + 4  # 10 GPUs, then 15 + 15 + 15 + 5
    assert len(urls) == len(set(urls)) == 900
    assert largest <= 150_000  # issue 16: every response <= 150 KB
    filtered = client.get("/api/v1/guides", {"workload": "llm-serving", "scope": "pilot", "limit": 15}).json()
    assert len(filtered["items"]) == 15
    assert filtered["next"] is not None
    rest = client.get("/api/v1/guides", {"workload": "llm-serving", "scope": "pilot", "cursor": filtered["next"]})
    assert len(rest.json()["items"]) == 10
    assert rest.json()["next"] is not None
    assert client.get("/api/v1/guides", {"limit": 16}).status_code == 422
    assert client.get("/api/v1/guides", {"cursor": "not-a-cursor"}).json()["error"]["code"] == "invalid_request"


def gpu_options(page: str) -> list[str]:
    select = page.split('name="gpu"', 1)[1].split("</select>", 1)[0]
    return re.findall(r'<option value="([^"]*)"', select)


def test_the_gpu_filter_offers_the_pages_gpus_and_takes_any_gpu_on_sale(client, large_catalog):
    first = client.get("/guides/").content.decode()
    assert gpu_options(first) == ["", *(f"gpu-{number:03d}" for number in range(GPUS_PER_INDEX_PAGE))]
    last = client.get("/guides/", {"gpu": "gpu-059"}).content.decode()  # not on the first page: as from a breadcrumb
    assert "15 guides" in last
    assert gpu_options(last) == ["", "gpu-059"]
    assert '<option value="gpu-059" selected>' in last
    unknown = client.get("/guides/", {"gpu": "tpu-v5"})
    assert "Select a valid choice. tpu-v5 is not one of the available choices." in unknown.content.decode()
    assert unknown.context["count"] == 900


def test_each_columns_model_is_named_once_under_its_heading(client, large_catalog):
    """The model is the same for every GPU of a column: once in its heading, not under each of the 20 links."""
    page = client.get("/guides/").content.decode()
    section = page.split('data-testid="section-llm-serving"', 1)[1].split("</section>", 1)[0]
    head, body = section.split("<tbody>", 1)
    assert re.findall(r'<span class="guide-model">([^<]+)</span>', head) == [
        "llama-3.1-8b",
        "gemma-3-27b",
        "llama-3.1-70b",
    ]
    assert "guide-model" not in body

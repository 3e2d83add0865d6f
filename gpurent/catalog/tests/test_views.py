import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_catalog_index_shows_every_card_with_its_facts_and_prices(client, gpu, b200, django_assert_num_queries):
    with django_assert_num_queries(2):  # the catalog's version (for the page cache) and the page of GPUs
        response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    for text in ["A100 80GB", "80.0 GiB per card", "1 card per lot", "8 lots available", "$95", "$205", "$790"]:
        assert text in html
    for text in ["B200 (2 × 180GB)", "2 cards per lot", "179.1 GiB per card", "$780", "$1,700", "$6,600"]:
        assert text in html
    assert "Memory is per card: the cards do not add up to one bigger card." in html
    assert 'hx-get="/gpus/b200-2x180gb/quote/"' in html


def test_catalog_index_sold_out_card_says_so(client, gpu):
    gpu.stock_lots = 0
    gpu.save()
    assert "Sold out" in client.get("/").content.decode()


def test_catalog_index_off_sale_models_are_hidden(client, gpu):
    gpu.on_sale = False
    gpu.save()
    html = client.get("/").content.decode()
    assert "A100 80GB" not in html
    assert "No GPUs on sale right now" in html


def test_gpu_quote_htmx_partial_gives_total_and_cards(client, b200):
    response = client.get("/gpus/b200-2x180gb/quote/", {"term": "7", "lots": "2"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert "$3,400.00" in html
    assert "4 GPUs" in html
    assert "2 lots of 2 cards" in html
    assert "<html" not in html


def test_gpu_quote_more_lots_than_in_stock_warns(client, b200):
    html = client.get("/gpus/b200-2x180gb/quote/", {"term": "3", "lots": "3"}, HTTP_HX_REQUEST="true").content.decode()
    assert "$2,340.00" in html
    assert "Only 2 lots are in stock right now." in html


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"term": "7", "lots": "11"}, "An order holds at most 10 lots."),
        ({"term": "7", "lots": "0"}, "Choose at least 1 lot."),
        ({"term": "7", "lots": "two"}, "Enter a whole number of lots."),
        ({"term": "14", "lots": "1"}, "Select a valid choice."),
    ],
)
def test_gpu_quote_bad_input_gets_a_clear_message(client, gpu, params, message):
    response = client.get("/gpus/a100-80gb/quote/", params, HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # htmx swaps 2xx only; the message replaces the total
    assert message in response.content.decode()


def test_gpu_quote_without_htmx_redirects_to_the_gpu_page(client, gpu):
    response = client.get("/gpus/a100-80gb/quote/", {"term": "30", "lots": "2"})
    assert response.status_code == 302
    assert response["Location"] == "/gpus/a100-80gb/?term=30&lots=2"
    page = client.get(response["Location"]).content.decode()
    assert "$1,580.00" in page


def test_gpu_detail_links_the_glossary_terms_that_matter(client, gpu):
    html = client.get(reverse("catalog:detail", args=["a100-80gb"])).content.decode()
    assert '<a class="glossary-link" href="/glossary/#vram">VRAM (GPU memory)</a>' in html
    assert '<a class="glossary-link" href="/glossary/#fsdp">' in html
    assert "it is not a promise that a given workload runs on a given allocation" in html


def test_gpu_detail_unknown_or_off_sale_model_is_404(client, gpu):
    assert client.get("/gpus/no-such-card/").status_code == 404
    gpu.on_sale = False
    gpu.save()
    assert client.get("/gpus/a100-80gb/").status_code == 404

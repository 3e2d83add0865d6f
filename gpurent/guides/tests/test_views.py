"""Guide pages, the index filters, the quote form (guests and accounts, once per key) and owner scoping."""

import pytest
from django.core import mail
from django.utils import timezone

from gpurent.accounts.models import GuestSession
from gpurent.accounts.owners import Owner
from gpurent.core.models import AuditLogEntry
from gpurent.guides.enums import GuideWorkload, Scope
from gpurent.guides.models import QuoteRequest
from gpurent.guides.services import quote_request_create

from .conftest import GUIDE_URL, QUOTE_URL, make_tight, quote_form
from .test_services import DETAILS

pytestmark = pytest.mark.django_db


def test_guide_index_lists_every_gpu_workload_and_scope(client, demo_catalog):
    html = client.get("/guides/").content.decode()
    assert "105 guides" in html
    assert 'href="/guides/a100-80gb/vision-finetuning/proof-of-concept/"' in html
    assert 'href="/glossary/#kv-cache"' in html


def test_guide_index_filters(client, demo_catalog):
    html = client.get("/guides/", {"gpu": "a100-80gb", "workload": "vision-finetuning"}).content.decode()
    assert "3 guides" in html
    assert "/guides/h100-80gb/" not in html
    assert client.get("/guides/", {"scope": "pilot"}).context["count"] == 35


def test_guide_index_filters_list_every_choice_capitalised_in_the_readers_language(client, demo_catalog):
    html = client.get("/guides/").content.decode()
    for label in ["LoRA / QLoRA fine-tuning", "Full fine-tuning", "Diffusion image generation", "Proof of concept"]:
        assert f">{label}</option>" in html, label
    spanish = client.get("/guides/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert ">Ajuste fino completo</option>" in spanish


def test_guide_index_unknown_filter_says_so_and_shows_all(client, demo_catalog):
    response = client.get("/guides/", {"workload": "mining"})
    assert response.status_code == 200
    assert "Select a valid choice." in response.content.decode()
    assert response.context["count"] == 105


def test_guide_names_a_decision_table_condition_as_one_quoted_label(client, demo_catalog):
    # Unquoted, the label's own comma ran into the sentence: "At 8k tokens, checkpointing it no longer fits".
    html = client.get("/guides/l40s-48gb/full-finetuning/pilot/").content.decode()
    assert "With “8k tokens, checkpointing” it no longer fits; 1 lot of MI300X 192GB does." in html


def test_a_decision_cell_names_its_condition_for_a_phone_in_the_readers_language(client, demo_catalog):
    # On a phone the table's rows are cards (`.stack-table`): each cell shows its condition from data-label, where a
    # sideways-scrolled table cut the first price column in half.
    html = client.get("/guides/l40s-48gb/full-finetuning/pilot/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table = html[html.index('data-testid="decision-table"') : html.index("</table>")]
    assert "stack-table" in html[html.rindex("<table", 0, html.index('data-testid="decision-table"')) :][:200]
    assert table.count('data-label="8k tokens, checkpointing"') == table.count("<tr") - 1


@pytest.mark.parametrize(
    ("language", "figures"),
    [
        ("en", ["Run: 300,000,000 training tokens in total.", "4,096 tokens per sample", "≈ 5.9 h for the run"]),
        ("es", ["Ejecución: 300.000.000 tokens de entrenamiento en total.", "≈ 5,9 h para la ejecución"]),
        ("vi", ["300.000.000 token huấn luyện", "4.096 token mỗi mẫu"]),
    ],
)
def test_guide_figures_are_grouped_as_every_other_figure_of_the_language(client, demo_catalog, language, figures):
    # floatformat's "g" grouped Spanish with a space ("300 000 000") and Vietnamese not at all ("300000000").
    html = client.get("/guides/l40s-48gb/full-finetuning/pilot/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for figure in figures:
        assert figure in html, figure


def test_guide_detail_shows_every_section_computed(client, demo_catalog):
    response = client.get(GUIDE_URL)
    assert response.status_code == 200
    html = response.content.decode()
    for text in [
        "A100 80GB for vision-model fine-tuning: proof of concept",
        "The three figures that decide",
        "Does it fit in memory?",
        "How concurrent?",
        "How long?",
        "Assumption, not a measurement",
        "When it fits, and when another option is better",
        "Decision table",
        "Architecture and data flow",
        "Operating plan",
        "Risks and limits",
        "What to record in the next measurement",
        "Images per second the data loader delivers",  # a vision guide's checklist: no LLM token items
        "Failed and out-of-memory runs",
        "Request a quote",
    ]:
        assert text in html, text
    assert 'href="/estimate/?preset=vit-base-patch16-224&amp;workload=vision_finetune' in html
    assert 'href="/glossary/#vram"' in html
    report = response.context["report"]
    assert f"Yes, on {report.row.lots} lot" in html
    form = response.context["form"]
    assert (form["gpu"].value(), form["delivery_scope"].value(), form["model_name"].value()) == (
        "a100-80gb",
        "proof-of-concept",
        "vit-base-patch16-224",
    )


@pytest.mark.parametrize(
    "url",
    [
        "/guides/tpu-v5/llm-serving/pilot/",
        "/guides/a100-80gb/mining/pilot/",
        "/guides/a100-80gb/llm-serving/forever/",
    ],
)
def test_guide_detail_unknown_is_404(client, demo_catalog, url):
    assert client.get(url).status_code == 404


def test_guide_detail_prefills_the_contact_email_of_an_account(client, demo_catalog, customer):
    client.force_login(customer)
    assert client.get(GUIDE_URL).context["form"]["contact_email"].value() == "ada@example.com"


def test_quote_create_as_guest_once_per_key_then_visible_in_this_session(
    client, demo_catalog, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(QUOTE_URL, quote_form())
        second = client.post(QUOTE_URL, quote_form())
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    quote = QuoteRequest.objects.get()
    assert quote.user is None
    assert quote.guest is not None
    assert quote.guide_workload == "vision-finetuning"
    assert quote.guide_scope == "proof-of-concept"
    assert len(mail.outbox) == 1
    page = client.get(first["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Quote request received. A confirmation is on its way to guest@example.com." in html
    assert quote.short_id in html
    assert "image_0001.jpg,cat" in html
    listed = client.get("/guides/quotes/").content.decode()
    assert quote.short_id in listed
    assert '<table class="data-table stack-table" data-testid="quote-list">' in listed  # cards on a phone
    assert 'data-label="Status"' in listed


def test_quote_pages_show_a_removed_secret_in_the_readers_language(client, demo_catalog):
    secret = "hf_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7"
    response = client.post(QUOTE_URL, quote_form(sample_data=f"HF_TOKEN={secret}", model_name=f"x {secret}"))
    stored = QuoteRequest.objects.get()
    assert stored.sample_data == "HF_TOKEN=[REDACTED: Hugging Face token]"
    html = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "[REDACTED" not in html
    assert html.count("<mark") == 2
    assert "[REDACTED" not in client.get("/guides/quotes/", HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_quote_create_invalid_form_shows_errors_and_writes_nothing(client, demo_catalog):
    response = client.post(QUOTE_URL, quote_form(contact_email="nope", expected_load=""))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Enter a valid email address." in html
    assert "This field is required." in html
    assert QuoteRequest.objects.count() == 0


def test_quote_create_without_key_is_refused(client, demo_catalog):
    data = quote_form()
    del data["idempotency_key"]
    response = client.post(QUOTE_URL, data)
    assert response.status_code == 422
    assert "An idempotency key is required: 1 to 255 characters" in response.content.decode()
    assert QuoteRequest.objects.count() == 0


def test_quote_create_rate_limited_shows_the_message(client, demo_catalog, settings):
    settings.GUIDES_QUOTE_RATE_LIMIT = 1
    client.post(QUOTE_URL, quote_form("k-1"))
    response = client.post(QUOTE_URL, quote_form("k-2"))
    assert response.status_code == 429
    assert "several quote requests in a short time" in response.content.decode()
    assert QuoteRequest.objects.count() == 1


def test_quote_create_by_account_belongs_to_the_account(client, demo_catalog, customer):
    client.force_login(customer)
    response = client.post(QUOTE_URL, quote_form(contact_email="ada@example.com"))
    assert response.status_code == 302
    assert QuoteRequest.objects.get().user == customer


def test_quote_detail_of_another_owner_is_404(client, demo_catalog, customer, other_customer):
    theirs = quote_request_create(owner=Owner(user=other_customer), details=DETAILS)
    guests = quote_request_create(owner=Owner(guest=GuestSession.objects.create()), details=DETAILS)
    url = f"/guides/quotes/{theirs.public_id}/"
    assert client.get(url).status_code == 404  # a guest without the session
    client.force_login(customer)
    assert client.get(url).status_code == 404
    assert client.get(f"/guides/quotes/{guests.public_id}/").status_code == 404
    assert theirs.short_id not in client.get("/guides/quotes/").content.decode()
    client.force_login(other_customer)
    assert client.get(url).status_code == 200


def test_quote_of_a_guest_session_adopted_by_an_account_is_visible_to_it(client, demo_catalog, customer):
    client.post(QUOTE_URL, quote_form())
    quote = QuoteRequest.objects.get()
    GuestSession.objects.filter(quote_requests=quote).update(adopted_by=customer, adopted_at=timezone.now())
    client.force_login(customer)
    assert client.get(f"/guides/quotes/{quote.public_id}/").status_code == 200


def test_quote_list_empty_state(client, db):
    html = client.get("/guides/quotes/").content.decode()
    assert "No quote requests yet" in html


def test_quote_admin_is_read_mostly_and_audited(client, demo_catalog, customer, django_user_model):
    quote = quote_request_create(owner=Owner(user=customer), details=DETAILS)
    operator = django_user_model.objects.create_superuser("root@example.com", "x" * 16, first_name="R", last_name="O")
    client.force_login(operator)
    url = f"/backoffice/guides/quoterequest/{quote.pk}/change/"
    page = client.get(url).content.decode()
    assert 'name="status"' in page
    assert 'name="model_name"' not in page
    response = client.post(url, {"status": "in_review", "operator_note": "Looking at it."})
    assert response.status_code == 302
    quote.refresh_from_db()
    assert (quote.status, quote.model_name) == ("in_review", "vit-base-patch16-224")
    assert AuditLogEntry.objects.filter(action="quote_request.status", actor=operator).count() == 1


def test_a_turkish_guide_capitalises_a_dotted_i(client, demo_catalog):
    """The measurement list starts each item with a capital: Turkish "istek" is "İstek", not "Istek"."""
    response = client.get("/guides/rtx-4090-24gb/llm-serving/production/", HTTP_ACCEPT_LANGUAGE="tr")
    html = response.content.decode()
    assert "<li>İstek başına çıktı token sayısı</li>" in html
    assert "<li>Istek" not in html


def test_a_guide_heading_starts_with_a_capital_when_the_language_puts_the_workload_first(client, demo_catalog):
    response = client.get("/guides/rtx-4090-24gb/vision-finetuning/proof-of-concept/", HTTP_ACCEPT_LANGUAGE="tr")
    html = response.content.decode()
    assert "<h1>Görsel model fine-tuning için RTX 4090 24GB: PoC</h1>" in html
    assert "<title>Görsel model fine-tuning için RTX 4090 24GB: PoC" in html


def test_a_tight_guide_page_says_tight_with_the_high_end(client, demo_catalog):
    make_tight("h100-80gb", GuideWorkload.LORA_FINETUNING, Scope.PILOT)
    html = client.get("/guides/h100-80gb/lora-finetuning/pilot/").content.decode()
    assert 'data-testid="figure-fit" data-status="tight"' in html
    assert "Tight on 1 lot" in html
    assert "High end of its range" in html
    assert "No, not within 10 lots" not in html
    assert "No fitting configuration on this GPU to time." not in html


def test_guide_data_section_promises_no_wiped_disks_at_the_term_end(client, demo_catalog):
    # A host rental's home is deleted days after the term, a desk rental's by no step of the shop (QA walk).
    html = client.get(GUIDE_URL).content.decode()
    assert "wiped" not in html
    assert "access to the machine closes and what is left on it is out of your reach" in html

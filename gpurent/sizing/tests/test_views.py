"""The estimator page, its htmx partial, saving (once per key), saved lists and pages, measurements."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from gpurent.accounts.models import User
from gpurent.core.formats import date_text
from gpurent.sizing.forms.choices import DEFAULTS, EXAMPLES
from gpurent.sizing.models import SavedEstimate

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

SERVING_FORM = {**DEFAULTS, "preset": "llama-3.1-70b", "seq_len": "8192", "concurrent": "16"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def fit_row(html: str, slug: str) -> str:
    match = re.search(rf'<tr class="[^"]*" data-gpu="{re.escape(slug)}"[^>]*>(.*?)</tr>', html, re.S)
    assert match, slug
    return match.group(1)


def test_estimate_page_shows_the_form_the_examples_and_an_estimate(client, demo_catalog):
    page = client.get(reverse("sizing:estimate"))
    html = page.content.decode()
    assert page.status_code == 200
    assert "How much GPU memory does your workload need?" in html
    assert "Llama-3.1-70B serving 16 concurrent 8k-token requests in bf16" in html
    assert "QLoRA on a 70B model at 4k context" in html
    assert 'href="/glossary/#kv-cache"' in html
    assert "This is an estimate: an assumption computed from the inputs above" in html
    assert "within 90 % of the memory its driver reports" in html
    assert '<optgroup label="Image generation (diffusion)">' in html
    assert "sizing/sizing.css" in html
    assert " style=" not in html  # the Content Security Policy forbids inline styles


def test_the_note_under_save_does_not_read_as_saved_before_anything_is_saved(client, demo_catalog):
    # QA (vi, tr): "Saved in this browser session; …" under the Save button read as already saved.
    html = client.get(reverse("sizing:estimate")).content.decode()
    assert "Estimates you save are kept in this browser session; register from this session to keep them" in html
    assert "Saved in this browser session" not in html


def test_estimate_page_try_link_prefills_the_70b_serving_question(client, demo_catalog):
    _label, query = EXAMPLES[0]
    page = client.get(reverse("sizing:estimate"), query)
    html = page.content.decode()
    form = page.context["form"]
    assert form["preset"].value() == "llama-3.1-70b"
    assert page.context["sizing"].inputs.concurrent_sequences == 16
    h100 = fit_row(html, "h100-80gb")
    assert "4 lots" in h100
    assert "$1,480" in h100  # 4 × $370 for 7 days
    assert 'href="/checkout/?gpu=h100-80gb&amp;term=7&amp;lots=4"' in h100
    assert "Does not fit" in fit_row(html, "rtx-4090-24gb")


def test_the_fit_tables_hints_keep_each_figure_with_its_unit(client, demo_catalog):
    """The peak column's hints wrap where the table is narrow (sizing.css): a no-break space keeps "45.12 GiB" whole."""
    html = client.get(reverse("sizing:estimate"), EXAMPLES[0][1]).content.decode()
    h100 = fit_row(html, "h100-80gb")
    assert re.search(r"up to [0-9.,]+\xa0GiB<", h100)
    assert re.search(r">[0-9.,]+\xa0GiB headroom<", h100)
    assert re.search(r">[0-9.,]+\xa0GiB short<", fit_row(html, "rtx-4090-24gb"))


def test_estimate_page_try_link_qlora_fits_one_a100_lot(client, demo_catalog):
    page = client.get(reverse("sizing:estimate"), EXAMPLES[1][1])
    a100 = fit_row(page.content.decode(), "a100-80gb")
    assert "1 lot" in a100
    assert "$95" in a100
    assert "$205" in a100
    assert "$790" in a100


def test_estimate_result_htmx_returns_only_the_partial(client, demo_catalog):
    response = client.post(reverse("sizing:result"), SERVING_FORM, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'data-testid="fit-table"' in html
    assert 'name="idempotency_key"' in html
    assert "<svg" in html


def test_estimate_result_without_htmx_renders_the_whole_page(client, demo_catalog):
    response = client.post(reverse("sizing:result"), SERVING_FORM)
    assert "<html" in response.content.decode()


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"cards": "3", "strategy": "single"}, "cards", "must divide the attention heads"),
        ({"workload": "qlora", "quantization": "none"}, "quantization", "QLoRA needs a bitsandbytes base"),
        ({"preset": "sdxl-base-1.0"}, "workload", "diffusion models generate images, or train with LoRA"),
        ({"seq_len": "0"}, "seq_len", "Ensure this value is greater than or equal to 1."),
        ({"preset": "", "hf_config": "{not json"}, "hf_config", "not valid JSON"),
        ({"preset": ""}, "preset", "choose a preset or paste a config.json"),
        ({"header": "[1]"}, "header", "must be a JSON object"),
        ({"strategy": "fsdp", "cards": "2"}, "strategy", "ZeRO/FSDP shard training states"),
    ],
)
def test_estimate_result_bad_input_is_shown_next_to_its_field(client, demo_catalog, change, field, message):
    response = client.post(reverse("sizing:result"), {**SERVING_FORM, **change}, **HTMX)
    assert response.status_code == 200
    form = response.context["form"]
    assert any(message in error for error in form.errors[field]), form.errors
    html = response.content.decode()
    assert 'data-testid="estimate-errors"' in html
    assert f'href="#{form[field].id_for_label}"' in html


def test_estimate_result_from_a_pasted_config_and_index(client, demo_catalog):
    config = (
        '{"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,'
        ' "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}'
    )
    index = '{"metadata": {"total_size": 16060522496}, "weight_map": {"model.embed_tokens.weight": "a"}}'
    response = client.post(
        reverse("sizing:result"), {**SERVING_FORM, "preset": "", "hf_config": config, "header": index}, **HTMX
    )
    sizing = response.context["sizing"]
    assert sizing is not None, response.context["form"].errors
    assert sizing.result.bytes_of("weights") == 16_060_522_496


def save(client, data, key="key-1"):
    return client.post(reverse("sizing:save"), {**data, "idempotency_key": key})


def test_estimate_save_as_a_guest_is_idempotent_and_owned_by_the_session(client, demo_catalog):
    first = save(client, SERVING_FORM)
    second = save(client, SERVING_FORM)
    saved = SavedEstimate.objects.get()
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == f"/estimate/{saved.public_id}/"
    assert saved.user is None
    assert saved.guest is not None
    assert str(saved.guest.pk) == client.session["guest_id"]
    assert saved.form_data["preset"] == "llama-3.1-70b"
    page = client.get(first["Location"])
    assert page.status_code == 200
    assert "An estimate is an assumption computed from its inputs, not a measurement." in page.content.decode()
    listing = client.get(reverse("sizing:saved")).content.decode()
    assert "llama-3.1-70b · serving · 1 card" in listing


def test_estimate_save_same_key_other_inputs_is_refused(client, demo_catalog):
    save(client, SERVING_FORM)
    response = save(client, {**SERVING_FORM, "concurrent": "8"})
    assert response.status_code == 422
    assert "already used for a different request" in response.content.decode()
    assert SavedEstimate.objects.count() == 1


def test_estimate_save_invalid_inputs_saves_nothing(client, demo_catalog):
    response = save(client, {**SERVING_FORM, "cards": "3"})
    assert response.status_code == 422
    assert SavedEstimate.objects.count() == 0


def test_estimate_save_without_key_saves_nothing(client, demo_catalog):
    response = client.post(reverse("sizing:save"), SERVING_FORM)
    assert response.status_code == 422
    assert SavedEstimate.objects.count() == 0


def test_guest_estimates_move_to_the_account_registered_from_the_session(client, demo_catalog):
    location = save(client, SERVING_FORM)["Location"]
    registration = {"first_name": "Ines", "last_name": "Costa", "email": "ines@example.com", "password": PASSWORD}
    assert client.post(reverse("accounts:register"), registration).status_code == 302
    user = User.objects.get(email="ines@example.com")
    saved = SavedEstimate.objects.get()
    assert (saved.user, saved.guest) == (user, None)
    assert client.get(location).status_code == 200
    assert saved.title_text in client.get(reverse("sizing:saved")).content.decode()


def test_another_owners_estimate_is_a_404(client, demo_catalog, user, other_user):
    client.force_login(user)
    location = save(client, SERVING_FORM)["Location"]
    assert SavedEstimate.objects.get().user == user
    client.force_login(other_user)
    assert client.get(location).status_code == 404
    assert client.post(location + "measure/", {"peak_gib": "150", "source": "nvidia-smi"}).status_code == 404
    assert "llama-3.1-70b" not in client.get(reverse("sizing:saved")).content.decode()
    client.logout()
    assert client.get(location).status_code == 404


def test_estimate_measure_records_the_peak_and_shows_the_error(client, demo_catalog, user):
    client.force_login(user)
    location = save(client, SERVING_FORM)["Location"]
    saved = SavedEstimate.objects.get()
    response = client.post(location + "measure/", {"peak_gib": "160.5", "source": "nvidia-smi"})
    assert response["Location"] == location
    saved.refresh_from_db()
    assert saved.measured_peak_bytes == int(160.5 * 2**30)
    html = client.get(location).content.decode()
    expected = f"+{(saved.peak_bytes - saved.measured_peak_bytes) * 100 / saved.measured_peak_bytes:.1f} %"
    assert f"Estimate error {expected} against the measurement (nvidia-smi" in html


def test_estimate_measure_bad_value_shows_a_message(client, demo_catalog, user):
    client.force_login(user)
    location = save(client, SERVING_FORM)["Location"]
    response = client.post(location + "measure/", {"peak_gib": "-1", "source": "nvidia-smi"})
    assert response.status_code == 422
    assert "Ensure this value is greater than or equal to 0.001." in response.content.decode()


def test_saved_list_empty_for_a_new_visitor(client, db):
    html = client.get(reverse("sizing:saved")).content.decode()
    assert "No saved estimates yet" in html
    assert "guest_id" not in client.session  # reading makes no guest session


def test_saved_list_query_count_does_not_grow_with_estimates(client, demo_catalog, user, django_assert_max_num_queries):
    client.force_login(user)
    for key in ("a", "b", "c"):
        save(client, SERVING_FORM, key=key)
    with django_assert_max_num_queries(4):
        client.get(reverse("sizing:saved"))


def test_estimate_page_shows_the_range_the_three_peak_views_and_what_is_not_modelled(client, demo_catalog):
    page = client.get(reverse("sizing:estimate"), EXAMPLES[1][1])
    html = page.content.decode()
    result = page.context["sizing"].result
    assert result.peak_low_bytes < result.peak_bytes < result.peak_high_bytes
    assert 'data-testid="peak-range"' in html
    assert "max_memory_allocated" in html
    assert "max_memory_reserved" in html
    assert "nvidia-smi" in html
    assert 'data-testid="not-modelled"' in html
    assert "±20–30" not in html
    assert 'data-status="fits"' in html


def test_saved_estimate_page_shows_the_same_range(client, demo_catalog):
    form = {**DEFAULTS, **EXAMPLES[1][1], "idempotency_key": "range-1"}
    response = client.post(reverse("sizing:save"), form)
    saved = SavedEstimate.objects.get()
    assert response.status_code == 302
    html = client.get(reverse("sizing:detail", args=[saved.public_id])).content.decode()
    assert saved.result["peak_high_bytes"] > saved.result["peak_bytes"]
    assert 'data-testid="peak-range"' in html


def test_saved_estimate_page_names_the_peak_phase_in_the_readers_language(client, demo_catalog):
    client.post(reverse("sizing:save"), {**SERVING_FORM, "idempotency_key": "phase-1"})
    saved = SavedEstimate.objects.get()
    assert saved.result["peak_phase"] == "serving"
    page = reverse("sizing:detail", args=[saved.public_id])
    assert '<p class="peak-plan">during serving</p>' in client.get(page).content.decode()
    assert '<p class="peak-plan">durante servicio</p>' in client.get(page, HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_saved_estimate_page_dates_it_as_the_reader_writes_dates(client, demo_catalog):
    # Decision 0401: "5 dic 2026, 14:00 UTC", not the machine's "2026-12-05 14:00 UTC".
    client.post(reverse("sizing:save"), {**SERVING_FORM, "idempotency_key": "date-1"})
    saved = SavedEstimate.objects.get()
    with translation.override("es"):
        saved_on, listed = date_text(saved.created_at, time=True, zone=True), date_text(saved.created_at, time=True)
    html = client.get(reverse("sizing:detail", args=[saved.public_id]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"Guardada el {saved_on} ·" in html
    listing = client.get(reverse("sizing:saved"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f">{listed}</time>" in listing
    # On a phone the list's rows are cards, each figure named by its column (it scrolled sideways, titles in a
    # column a word wide).
    assert '<table class="data-table stack-table" data-testid="saved-estimates">' in listing
    assert listing.count("data-label=") == 4


def test_saved_estimate_fit_table_names_each_cell_for_the_phone_layout(client, demo_catalog):
    # On a phone `.stack-table` rows become cards; a cell without its column's name reads as a bare figure.
    client.post(reverse("sizing:save"), {**SERVING_FORM, "idempotency_key": "stack-1"})
    saved = SavedEstimate.objects.get()
    html = client.get(reverse("sizing:detail", args=[saved.public_id])).content.decode()
    table = html.split('data-testid="saved-fit-table"', 1)[1].split("</table>", 1)[0]
    assert 'class="data-table fit-table stack-table"' in html
    fitting = fit_row(html, "h200-141gb")
    for label in ["Fits on", "Headroom", "3 days", "7 days", "30 days"]:
        assert f'data-label="{label}"' in fitting, label
    assert re.findall(r"<td(?![^>]*data-label)(?![^>]*colspan)[^>]*>", table) == []


def _components(html: str) -> set[str]:
    return set(re.findall(r'class="component[^"]*" data-key="([a-z_]+)"', html))


def test_sdxl_lora_through_the_web_form_gives_a_range_with_explained_components(client, demo_catalog):
    form = {**DEFAULTS, "preset": "sdxl-base-1.0", "workload": "lora", "image_size": "1024", "lora_rank": "16"}
    response = client.post(reverse("sizing:estimate"), form)
    html = response.content.decode()
    result = response.context["sizing"].result
    assert result.peak_low_bytes < result.peak_bytes < result.peak_high_bytes
    assert {"adapter_weights", "activations", "vae_encode", "text_encoder_weights"} <= _components(html)
    assert 'data-testid="peak-range"' in html
    assert 'name="concurrent"' not in html or 'type="hidden" name="concurrent"' in html


def test_32k_sequence_parallel_training_through_the_web_form(client, demo_catalog):
    _label, query = EXAMPLES[4]
    response = client.get(reverse("sizing:estimate"), query)
    html = response.content.decode()
    inputs = response.context["sizing"].inputs
    assert (inputs.seq_len, inputs.parallel.sequence_parallel, inputs.parallel.cards) == (32768, 8, 8)
    assert "Sequence parallel over 8 cards" in html
    assert {"activations", "logits", "gradients", "optimizer_state"} <= _components(html)
    assert 'data-testid="peak-range"' in html


def test_vllm_deployment_through_the_web_form_gives_a_range(client, demo_catalog):
    form = {**SERVING_FORM, "engine": "vllm", "gpu_memory_utilization": "85", "concurrent": "32"}
    response = client.post(reverse("sizing:estimate"), form)
    html = response.content.decode()
    sizing = response.context["sizing"]
    assert sizing.inputs.runtime.gpu_memory_utilization_pct == 85
    assert {"weights", "kv_cache", "workspace"} <= _components(html)
    assert sizing.result.peak_low_bytes < sizing.result.peak_high_bytes
    assert "vLLM (and SGLang) pre-allocate" in html
    assert {"cuda_graphs", "engine_runtime"} <= _components(html)


def test_only_the_fields_of_the_workload_are_shown_and_the_share_link_reopens_it(client, demo_catalog):
    html = client.get(reverse("sizing:estimate"), {"workload": "full_finetune"}).content.decode()
    assert 'type="hidden" name="concurrent"' in html
    assert 'type="hidden" name="engine"' in html
    link = re.search(r'href="\?([^"]+)" data-testid="share-link"', html)
    assert link
    assert "workload=full_finetune" in link.group(1)


def _rendered_for(html: str) -> str:
    found = re.search(r'name="rendered_for" value="([0-9a-f]+)"', html)
    assert found
    return found.group(1)


VIDEO_FORM = {**DEFAULTS, "workload": "diffusion", "preset": "wan2.1-t2v-1.3b"}


@pytest.mark.parametrize(
    ("form", "change", "value", "shown"),
    [
        (SERVING_FORM, "workload", "lora", "lora_rank"),
        (SERVING_FORM, "engine", "transformers", "tuple_kv_cache"),
        (SERVING_FORM, "attention", "eager", "softmax_in_compute_dtype"),
        ({**VIDEO_FORM, "preset": "sd-1.5"}, "preset", VIDEO_FORM["preset"], "num_frames"),
    ],
)
def test_a_change_that_shows_other_fields_re_renders_the_inputs_out_of_band(
    client, demo_catalog, form, change, value, shown
):
    page = client.get(reverse("sizing:estimate"), form).content.decode()
    shown_for = _rendered_for(page)
    assert f'<input type="hidden" name="{shown}"' in page
    same = client.post(reverse("sizing:result"), {**form, "rendered_for": shown_for}, **HTMX)
    assert 'hx-swap-oob="true"' not in same.content.decode()
    html = client.post(reverse("sizing:result"), {**form, change: value, "rendered_for": shown_for}, **HTMX).content
    assert 'hx-swap-oob="true"' in html.decode()
    assert _rendered_for(html.decode()) != shown_for
    assert f'<input type="hidden" name="{shown}"' not in html.decode()  # the field the change brings is shown


def test_a_change_that_shows_the_same_fields_keeps_the_inputs_as_they_are(client, demo_catalog):
    llama_cpp = {**SERVING_FORM, "engine": "llama_cpp"}
    shown_for = _rendered_for(client.get(reverse("sizing:estimate"), llama_cpp).content.decode())
    # CTranslate2 reads none of the engine-specific fields either.
    data = {**llama_cpp, "engine": "ctranslate2", "rendered_for": shown_for}
    assert 'hx-swap-oob="true"' not in client.post(reverse("sizing:result"), data, **HTMX).content.decode()


@pytest.mark.parametrize(
    ("engine", "shown", "hidden"),
    [
        ("vllm", {"gpu_memory_utilization", "max_num_seqs", "cuda_graph_mib"}, {"tuple_kv_cache", "prompt_logits"}),
        ("sglang", {"max_num_seqs", "cuda_graph_mib"}, {"gpu_memory_utilization", "tuple_kv_cache"}),
        ("transformers", {"tuple_kv_cache", "prompt_logits"}, {"gpu_memory_utilization", "max_num_seqs"}),
        ("llama_cpp", set(), {"gpu_memory_utilization", "max_num_seqs", "tuple_kv_cache", "softmax_in_compute_dtype"}),
    ],
)
def test_the_serving_fields_are_those_the_chosen_engine_reads(client, demo_catalog, engine, shown, hidden):
    html = client.get(reverse("sizing:estimate"), {**SERVING_FORM, "engine": engine}).content.decode()
    for name in shown:
        assert re.search(rf'<(input|select)(?![^>]*type="hidden")[^>]*name="{name}"', html), name
    for name in hidden:
        assert re.search(rf'<input type="hidden" name="{name}"', html), name


def test_vlm_fine_tune_through_the_web_form_gives_a_range_with_the_vision_encoder(client, demo_catalog):
    form = {
        **DEFAULTS,
        "preset": "llava-1.5-7b",
        "workload": "lora",
        "seq_len": "1024",
        "images_per_sequence": "1",
        "activation_checkpointing": "on",
    }
    response = client.post(reverse("sizing:estimate"), form)
    html = response.content.decode()
    sizing = response.context["sizing"]
    assert sizing.inputs.images_per_sequence == 1
    assert sizing.result.peak_low_bytes < sizing.result.peak_bytes < sizing.result.peak_high_bytes
    assert {"vision_encoder_weights", "adapter_weights", "activations", "logits"} <= _components(html)
    assert "576 tokens" in html


def test_sd_lora_with_text_encoder_training_and_eager_attention_through_the_web_form(client, demo_catalog):
    form = {
        **DEFAULTS,
        "preset": "sd-1.5",
        "workload": "lora",
        "image_size": "512",
        "lora_rank": "16",
        "attention": "eager",
        "train_text_encoder": "on",
    }
    response = client.post(reverse("sizing:estimate"), form)
    html = response.content.decode()
    sizing = response.context["sizing"]
    assert sizing.inputs.diffusion.train_text_encoder is True
    assert sizing.inputs.flash_attention is False
    assert {"activations", "text_encoder_activations", "adapter_weights"} <= _components(html)
    assert 'name="train_text_encoder"' in html
    assert 'type="hidden" name="train_text_encoder"' not in html
    # Generation and language-model training do not show it (kept as a hidden input, never sent to the engine).
    generation = client.post(reverse("sizing:estimate"), {**form, "workload": "diffusion"})
    assert 'type="hidden" name="train_text_encoder"' in generation.content.decode()
    assert generation.context["sizing"].inputs.diffusion.train_text_encoder is False
    llm = client.get(reverse("sizing:estimate"), {"preset": "llama-3.1-8b", "workload": "lora"}).content.decode()
    assert 'type="hidden" name="train_text_encoder"' in llm


def test_a_generated_title_is_written_in_the_readers_language_when_shown(client, demo_catalog):
    # QA: saved on a Spanish page, the list read in Vietnamese still said "llama-3.1-70b · servicio · 1 tarjeta".
    client.post(reverse("sizing:save"), {**SERVING_FORM, "idempotency_key": "t-1"}, HTTP_ACCEPT_LANGUAGE="es")
    saved = SavedEstimate.objects.get()
    detail = reverse("sizing:detail", args=[saved.public_id])
    spanish, vietnamese = "llama-3.1-70b · servicio · 1 tarjeta", "llama-3.1-70b · phục vụ · 1 card"
    for url in (reverse("sizing:saved"), detail):
        assert spanish in client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
        assert vietnamese in html
        assert spanish not in html
        assert "llama-3.1-70b · serving · 1 card" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_a_title_the_customer_typed_is_shown_as_typed_in_every_language(client, demo_catalog):
    client.post(reverse("sizing:save"), {**SERVING_FORM, "idempotency_key": "t-2"})
    SavedEstimate.objects.update(title="Chatbot de soporte · 70B")
    for language in ("en", "es", "vi", "tr"):
        listing = client.get(reverse("sizing:saved"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "Chatbot de soporte · 70B" in listing


def test_a_components_range_reads_both_ends_in_one_unit():
    """The QA walk's "1,22 GiB (de 1.000,00 MiB a 1,46 GiB)" (decision 0563): the low end is in GiB too."""
    gib = 1024**3
    sizes = {"bytes": int(1.22 * gib), "low_bytes": 1000 * 1024**2, "high_bytes": int(1.46 * gib)}
    component = {"key": "activations", "label": "Activations", "phases": ["forward"], "formula": "", **sizes}
    peak_sizes = {
        "peak_bytes": sizes["bytes"],
        "peak_low_bytes": sizes["low_bytes"],
        "peak_high_bytes": sizes["high_bytes"],
    }
    r = {"components": [component], "peak_phase": "forward", "peak_allocated_bytes": gib, "peak_reserved_bytes": gib}
    r |= peak_sizes
    with translation.override("es"):
        components = render_to_string("sizing/partials/components.html", {"r": r})
        peak = render_to_string("sizing/partials/peak_range.html", {"r": r})
    assert "(de 0,98 GiB a 1,46 GiB)" in components
    assert "0,98 GiB a 1,46 GiB" in peak
    assert "MiB" not in components + peak

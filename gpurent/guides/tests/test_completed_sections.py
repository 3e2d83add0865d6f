"""Issue 12's guide sections: data and logs with the legal note, today vs next phase, a response-time
assumption for serving workloads, measurement checklists that fit the workload, one term per comparison."""

import pytest

pytestmark = pytest.mark.django_db

SERVING = "/guides/a100-80gb/llm-serving/pilot/"
VISION = "/guides/a100-80gb/vision-finetuning/proof-of-concept/"
IMAGES = "/guides/a100-80gb/image-generation/production/"


def test_data_section_with_the_legal_note(client, demo_catalog):
    html = client.get(SERVING).content.decode()
    for text in ["Data location, retention, access and logs", "Location:", "Retention:", "Access:", "Logs:"]:
        assert text in html
    assert (
        "Legal requirements (data protection, sector rules, contracts) and security requirements are checked "
        "separately" in html
    )


def test_data_section_in_turkish_uses_the_guide_wording(client, demo_catalog):
    html = client.get(SERVING, HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    assert "ayrıca doğrulanır" in html
    assert "Veri lokasyonu, saklama, erişim yetkisi ve log kapsamı" in html


def test_today_and_next_phase(client, demo_catalog):
    html = client.get(VISION).content.decode()
    assert "Needed today, and in the next phase" in html
    assert "A written success criterion and one measured run" in html
    assert "A pilot with real data or users in limited numbers" in html


def test_response_time_is_an_assumption_on_serving_workloads_only(client, demo_catalog):
    serving = client.get(SERVING)
    assert "s of compute per request on this configuration, before any queueing (assumption" in serving.content.decode()
    report = serving.context["report"]
    assert report.response_seconds == pytest.approx(report.duration.hours * 3600 / report.job["requests"])
    assert "s of compute per image" in client.get(IMAGES).content.decode()
    vision = client.get(VISION)
    assert vision.context["report"].response_seconds is None
    assert 'data-testid="response-time"' not in vision.content.decode()


def test_measurements_fit_the_workload(client, demo_catalog):
    vision = client.get(VISION).context["measurements"]
    assert not any("token" in str(item) for item in vision)
    assert any("data loader" in str(item) for item in vision)
    serving = client.get(SERVING).context["measurements"]
    assert any("output tokens per request" in str(item) for item in serving)


def test_decision_table_compares_one_term(client, demo_catalog):
    report = client.get(SERVING).context["report"]
    for line in report.rows:
        for cell, _best in line.cells:
            if cell and cell.fits:
                assert cell.week_price == line.gpu.lot_price(7) * cell.lots

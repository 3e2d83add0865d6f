"""A 422 `invalid_request` says what is wrong in the request's language, sentence and all, while the fields keep
the API's own names (QA2 #14: "term_days: Input should be 3, 7 or 30; Idempotency-Key: Se requiere…")."""

import pytest

from gpurent.accounts.services import api_token_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def auth(django_user_model):
    user = django_user_model.objects.create_user("ada@example.com", "long enough passphrase", first_name="Ada")
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t')[1]}"}


def _order(client, auth, body, language):
    response = client.post(
        "/api/v1/orders", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language, **auth
    )
    assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_request")
    return response.json()["error"]["message"]


BAD_ORDER = {"gpu": "h100-80gb", "term_days": 5, "lots": 11, "environment": "pytorch", "colour": "red"}


def test_validation_message_in_english_names_the_fields_and_what_is_wrong(client, auth):
    assert _order(client, auth, BAD_ORDER, "en") == (
        "term_days: must be one of: 3, 7, 30; lots: must be at most 10; colour: is not a field of this request; "
        "Idempotency-Key: An idempotency key is required: 1 to 255 characters, each one of the ASCII letters, "
        "digits or punctuation marks (no spaces, no other characters), e.g. a UUID."
    )


def test_validation_message_in_spanish_is_spanish_but_for_the_field_names(client, auth):
    message = _order(client, auth, BAD_ORDER, "es")
    assert message.startswith(
        "term_days: debe ser uno de: 3, 7, 30; lots: debe ser como máximo 10; colour: no es un campo de esta "
        "solicitud; Idempotency-Key: Se requiere una clave de idempotencia"
    )


@pytest.mark.parametrize(
    ("body", "english"),
    [
        ({"term_days": 7, "lots": 1, "environment": "pytorch"}, "gpu: is required"),
        ({"gpu": "", "term_days": 7, "lots": 1, "environment": "pytorch"}, "gpu: must have at least 1 character"),
        ({"gpu": "x", "term_days": 7, "lots": "1", "environment": "pytorch"}, "lots: must be a whole number"),
        ({"gpu": 5, "term_days": 7, "lots": 1, "environment": "pytorch"}, "gpu: must be a string"),
        ({"gpu": "x", "term_days": 7, "lots": 0, "environment": "pytorch"}, "lots: must be at least 1"),
    ],
)
def test_each_kind_of_problem_has_its_own_words(client, auth, body, english):
    assert _order(client, auth, body, "en").startswith(english + "; Idempotency-Key: ")
    # In every other language none of pydantic's English is left.
    for language in ("es", "vi", "tr"):
        assert "Input should" not in _order(client, auth, body, language)
        assert "Field required" not in _order(client, auth, body, language)

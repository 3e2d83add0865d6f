"""Names in the order the reader's language writes them: Vietnamese asks for and writes the family name first."""

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.accounts.forms import ProfileForm
from gpurent.core.names import full_name
from gpurent.orders.forms import PlaceOrderForm
from gpurent.orders.models import Order


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "An Nguyễn Văn"), ("es", "An Nguyễn Văn"), ("tr", "An Nguyễn Văn"), ("vi", "Nguyễn Văn An")],
)
def test_a_whole_name_is_written_in_the_languages_order(language, written):
    with translation.override(language):
        assert full_name("An", "Nguyễn Văn") == written
        assert full_name("", "Nguyễn Văn") == "Nguyễn Văn"
        assert Order(contact_first_name="An", contact_last_name="Nguyễn Văn").contact_name == written


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "first_label"), [("en", "First name"), ("vi", "Họ")])
def test_forms_ask_for_the_name_in_the_languages_order(client, settings, django_user_model, language, first_label):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("accounts:register")).content.decode()
    labels = [page.index(f'for="id_{name}"') for name in ("first_name", "last_name")]
    assert (labels[0] < labels[1]) == (language != "vi")
    user = django_user_model.objects.create_user("an@example.vn", "passphrase 12", first_name="An", last_name="Nguyễn")
    with translation.override(language):
        assert ProfileForm(instance=user).name_fields[0].label == first_label
        visible = [field.name for field in PlaceOrderForm(user=user).visible_fields()]
        given_first = ["contact_first_name", "contact_last_name"]
        assert visible[:2] == (given_first if language != "vi" else given_first[::-1])
        assert user.get_full_name() == ("Nguyễn An" if language == "vi" else "An Nguyễn")

"""The user-or-guest owner: one type in accounts, and one deletion rule on every model that has one."""

from django.apps import apps
from django.db import models

from gpurent.accounts.models import GuestSession


def test_every_user_or_guest_owned_model_deletes_with_its_owner():
    owned = {}
    for model in apps.get_models():
        fields = {field.name: field for field in model._meta.get_fields() if isinstance(field, models.ForeignKey)}
        user, guest = fields.get("user"), fields.get("guest")
        if user is not None and guest is not None and guest.related_model is GuestSession:
            owned[model._meta.label] = {user.remote_field.on_delete, guest.remote_field.on_delete}
    assert set(owned) >= {"sizing.SavedEstimate", "journal.JournalEntry", "guides.QuoteRequest"}
    assert all(rules == {models.CASCADE} for rules in owned.values()), owned


def test_the_owner_type_lives_in_accounts():
    from gpurent.accounts.owners import Owner, owner_for

    assert Owner.__module__ == owner_for.__module__ == "gpurent.accounts.owners"

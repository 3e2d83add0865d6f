from django.contrib.auth.forms import BaseUserCreationForm, UserChangeForm

from .models import User


class OperatorUserCreationForm(BaseUserCreationForm[User]):
    """The back office's "add user" form, for the email-based user model."""

    class Meta:
        model = User
        fields = ("email", "first_name", "last_name")


class OperatorUserChangeForm(UserChangeForm[User]):
    class Meta:
        model = User
        fields = "__all__"

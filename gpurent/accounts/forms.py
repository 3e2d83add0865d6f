"""Input shapes of the account pages: registration, login, passwords, profile and API tokens.

The checkout's account step uses `RegistrationForm` and `LoginForm` too (with a `prefix`), so both work on
any page, not only on the account views.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm, UserChangeForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError
from gpurent.core.names import NameFields

from .errors import EmailTaken, InvalidCredentials, WeakPassword
from .models import User
from .passwords import password_errors

PASSWORD_HELP = _(
    "At least 12 characters. A long passphrase of a few unrelated words works well; pasting from a password "
    "manager is fine."
)


def _password_input(autocomplete: str) -> forms.PasswordInput:
    return forms.PasswordInput(attrs={"autocomplete": autocomplete, "spellcheck": "false"})


class RegistrationForm(NameFields, forms.Form):
    """First name, last name, email and one password (no confirmation field: paste and managers welcome).

    Validates what it can show next to a field (email already used, weak password); `user_register` checks
    both again because it is the authority (the API and races reach it without this form).
    """

    first_name = forms.CharField(
        label=_("First name"), max_length=150, widget=forms.TextInput(attrs={"autocomplete": "given-name"})
    )
    last_name = forms.CharField(
        label=_("Last name"), max_length=150, widget=forms.TextInput(attrs={"autocomplete": "family-name"})
    )
    email = forms.EmailField(label=_("Email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password = forms.CharField(
        label=_("Password"),
        strip=False,
        help_text=PASSWORD_HELP,
        widget=_password_input("new-password"),
    )

    @classmethod
    def refused(cls, data: QueryDict, error: ApplicationError, **kwargs: Any) -> RegistrationForm:
        """The form of an attempt refused before validation (too many attempts, decision 0111): unbound, with
        what was typed but the password, and the error. Never validated: that would look the email up."""
        form = cls(initial={name: data.get(name, "") for name in ("first_name", "last_name", "email")}, **kwargs)
        form.errors[NON_FIELD_ERRORS] = form.error_class([error.message], error_class="nonfield")
        return form

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email=email).exists():
            raise ValidationError(EmailTaken.default_message, code=EmailTaken.code)
        return email

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        password = cleaned.get("password")
        if password:
            # An unsaved user lets the similarity validator compare the password with the name and email.
            candidate = User(
                email=cleaned.get("email", ""),
                first_name=cleaned.get("first_name", ""),
                last_name=cleaned.get("last_name", ""),
            )
            for message in password_errors(password, candidate):
                self.add_error("password", message)
        return cleaned

    def apply_error(self, error: ApplicationError) -> None:
        """Show an error raised by `user_register` next to the field it is about."""
        if isinstance(error, WeakPassword):
            for message in error.messages or [error.message]:
                self.add_error("password", message)
        elif isinstance(error, EmailTaken):
            self.add_error("email", error.message)
        else:
            self.add_error(None, error.message)


class LoginForm(AuthenticationForm):
    """Email and password. One message for every failure (wrong password, no such account, locked out)."""

    username = forms.CharField(
        label=_("Email"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )
    password = forms.CharField(label=_("Password"), strip=False, widget=_password_input("current-password"))

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": InvalidCredentials.default_message,
        # Django refuses inactive accounts before this message could show; kept generic all the same.
        "inactive": InvalidCredentials.default_message,
    }

    def clean_username(self) -> str:
        # Lower case so "Ana@Example.com" logs in and axes counts failures per account, not per spelling.
        username: str = self.cleaned_data["username"].strip().lower()
        return username


class NewPasswordForm(forms.Form):
    """Choose a new password for `user` (the password reset link's form). One field, no confirmation."""

    new_password = forms.CharField(
        label=_("New password"), strip=False, help_text=PASSWORD_HELP, widget=_password_input("new-password")
    )

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_new_password(self) -> str:
        password: str = self.cleaned_data["new_password"]
        errors = password_errors(password, self.user)
        if errors:
            raise ValidationError(errors)
        return password

    def save(self, commit: bool = True) -> User:
        self.user.set_password(self.cleaned_data["new_password"])
        if commit:
            self.user.save(update_fields=["password"])
        return self.user


class PasswordChangeForm(NewPasswordForm):
    """The current password, then the new one (the account page's form)."""

    field_order = ["old_password", "new_password"]

    old_password = forms.CharField(label=_("Current password"), strip=False, widget=_password_input("current-password"))

    def clean_old_password(self) -> str:
        password: str = self.cleaned_data["old_password"]
        if not self.user.check_password(password):
            raise ValidationError(_("Your current password is not correct."), code="password_incorrect")
        return password


class ProfileForm(NameFields, forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ["first_name", "last_name"]
        widgets = {
            "first_name": forms.TextInput(attrs={"autocomplete": "given-name"}),
            "last_name": forms.TextInput(attrs={"autocomplete": "family-name"}),
        }


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"),
        max_length=100,
        help_text=_("Say where it is used, e.g. “laptop” or “training cluster”."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class SshKeyForm(forms.Form):
    """Shown on the account page beside the token form: its own ids keep the two `name` fields' labels apart."""

    name = forms.CharField(label=_("Key name"), max_length=100, help_text=_("For example: laptop, workstation."))
    public_key = forms.CharField(
        label=_("Public key"),
        max_length=16_000,
        strip=True,
        help_text=_("The contents of your .pub file, e.g. ~/.ssh/id_ed25519.pub. Never the private key."),
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_ssh_%s")
        super().__init__(*args, **kwargs)


class EmailChangeForm(forms.Form):
    """The account page's email change: the new address and the current password (a stolen session alone
    cannot move the account to another address)."""

    new_email = forms.EmailField(
        label=_("New email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    password = forms.CharField(label=_("Current password"), strip=False, widget=_password_input("current-password"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_email_%s")
        super().__init__(*args, **kwargs)


class TwoFactorCodeForm(forms.Form):
    """A 6-digit code from the authenticator app, or a recovery code (spaces and dashes are ignored)."""

    code = forms.CharField(
        label=_("Code"),
        max_length=64,
        help_text=_("The 6-digit code your authenticator app shows, or one of your recovery codes."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "spellcheck": "false", "autocapitalize": "off"}),
    )


class TwoFactorSetupForm(TwoFactorCodeForm):
    """Turning two-factor login on: only the app's code, since the recovery codes come after it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["code"].help_text = _("The 6-digit code your authenticator app shows now.")


class OperatorUserCreationForm(BaseUserCreationForm[User]):
    """The back office's "add user" form, for the email-based user model."""

    class Meta:
        model = User
        fields = ("email", "first_name", "last_name")


class OperatorUserChangeForm(UserChangeForm[User]):
    class Meta:
        model = User
        fields = "__all__"

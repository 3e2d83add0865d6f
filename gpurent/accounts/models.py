"""Customer and operator accounts: one user model, logged in by email (DESIGN §3)."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from gpurent.core.names import full_name

# Django's salt for the session hash (`AbstractBaseUser._get_session_auth_hash`): the same hash at generation 0.
_SESSION_HASH_SALT = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"


class UserManager(BaseUserManager["User"]):
    def create_user(self, email: str, password: str | None = None, **fields: Any) -> User:
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def get_by_natural_key(self, username: str | None) -> User:
        # Emails are stored in lower case; looking the login up in lower case too makes "Ana@Example.com"
        # log in to the account of "ana@example.com" (the admin's login form does not lower-case it).
        return self.get(email=(username or "").lower())

    def create_superuser(self, email: str, password: str | None = None, **fields: Any) -> User:
        fields.update(is_staff=True, is_superuser=True)
        return self.create_user(email, password, **fields)


class User(AbstractBaseUser, PermissionsMixin):
    """A person with an account: a customer, or an operator when `is_staff`.

    No identity documents: a name and a contact email are all the shop asks for. Emails are stored in
    lower case and unique regardless of case, so "Ana@Example.com" and "ana@example.com" are one account.
    """

    email = models.EmailField(_("email address"), max_length=254, unique=True)
    first_name = models.CharField(_("first name"), max_length=150)
    last_name = models.CharField(_("last name"), max_length=150)
    is_staff = models.BooleanField(_("operator"), default=False, help_text=_("Can log in to the back office."))
    is_active = models.BooleanField(_("active"), default=True)
    date_joined = models.DateTimeField(_("joined"), default=timezone.now)
    # The language the customer chose (one of settings.LANGUAGES); emails go out in it. Empty: not chosen yet.
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    # Raised to sign out every session of the account at once (`sessions.user_sessions_end`): each session keeps
    # a hash that includes it (`get_session_auth_hash`), so the old ones no longer match (decision 0378).
    session_generation = models.PositiveIntegerField(_("session generation"), default=0, editable=False)

    objects: ClassVar[UserManager] = UserManager()

    EMAIL_FIELD = "email"
    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = ["first_name", "last_name"]

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [models.UniqueConstraint(Lower("email"), name="user_email_unique_ci")]

    def __str__(self) -> str:
        return self.email

    def get_full_name(self) -> str:
        return full_name(self.first_name, self.last_name)

    def get_short_name(self) -> str:
        return self.first_name

    def get_session_auth_hash(self) -> str:
        """What every session of this account stores and must still match on each request: Django's HMAC of the
        password hash (a new password signs out the other sessions), with `session_generation` added once it is
        raised. At generation 0 it is Django's own hash, so sessions opened before this rule stay valid."""
        return self._session_hash(secret=None)

    def get_session_auth_fallback_hash(self) -> Iterator[str]:
        for secret in settings.SECRET_KEY_FALLBACKS:
            yield self._session_hash(secret=secret)

    def _session_hash(self, *, secret: str | bytes | None) -> str:
        value = f"{self.password}|sessions:{self.session_generation}" if self.session_generation else self.password
        return salted_hmac(_SESSION_HASH_SALT, value, secret=secret, algorithm="sha256").hexdigest()

    def email_language(self) -> str:
        """The language of emails to this user: the one chosen on the account, else the shop's default."""
        return self.language or settings.LANGUAGE_CODE


class GuestSession(models.Model):
    """The identity of a visitor who has no account yet: one per browser session (DESIGN §3).

    Rows a guest creates in other apps (saved estimates, journal entries) point here. When an account is
    registered from the same browser session the guest session is *adopted*: `adopted_by` is set once and
    the registered adopters move the guest's rows to the new user. A guest session is never adopted twice
    (the adoption is a conditional UPDATE on `adopted_by IS NULL`).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    adopted_by = models.ForeignKey(
        "User",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="adopted_guest_sessions",
        verbose_name=_("adopted by"),
    )
    adopted_at = models.DateTimeField(_("adopted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("guest session")
        verbose_name_plural = _("guest sessions")
        constraints = [
            # Both or neither: an adoption always records who and when.
            models.CheckConstraint(
                condition=Q(adopted_by__isnull=True, adopted_at__isnull=True)
                | Q(adopted_by__isnull=False, adopted_at__isnull=False),
                name="guest_session_adoption_complete",
            ),
        ]

    def __str__(self) -> str:
        return str(self.id)


class ApiToken(models.Model):
    """A personal API token (`Authorization: Bearer gpr_...`), made and revoked on the account page.

    Only the SHA-256 digest of the token is stored: the token itself is shown once, at creation. A plain
    hash is enough (no salt, no slow KDF) because the token is 256 random bits, not a guessable password;
    an unsalted digest also lets a request find its token with one indexed lookup. `prefix` keeps the first
    characters of the random part so the owner can tell tokens apart. Revoked tokens stay as history.
    """

    PREFIX_LENGTH = 8

    user = models.ForeignKey("User", on_delete=models.CASCADE, related_name="api_tokens", verbose_name=_("user"))
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("prefix"), max_length=PREFIX_LENGTH)
    digest = models.CharField(_("SHA-256 digest"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.display_prefix})"

    @staticmethod
    def digest_of(token: str) -> str:
        """The stored form of a token: its SHA-256 digest in hex."""
        return hashlib.sha256(token.encode()).hexdigest()

    @property
    def display_prefix(self) -> str:
        """How the token starts, as shown in lists: "gpr_Ab12Cd34…"."""
        return f"{TOKEN_SCHEME}{self.prefix}…"


# Every token starts with this, so a leaked one is recognisable (secret scanners, log redaction).
TOKEN_SCHEME = "gpr_"  # noqa: S105 (a public marker, not a secret)


class SshKey(models.Model):
    """An SSH public key a customer keeps on the account, to be installed on rented machines.

    Only public keys are stored (`accounts.sshkeys` refuses private ones before anything is written). The
    fingerprint is unique per user, so the same key is not added twice under two names.
    """

    user = models.ForeignKey("User", on_delete=models.CASCADE, related_name="ssh_keys", verbose_name=_("user"))
    name = models.CharField(_("name"), max_length=100)
    public_key = models.TextField(_("public key"))
    fingerprint = models.CharField(_("SHA256 fingerprint"), max_length=60)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("SSH key")
        verbose_name_plural = _("SSH keys")
        constraints = [models.UniqueConstraint(fields=["user", "fingerprint"], name="ssh_key_unique_per_user")]

    def __str__(self) -> str:
        return f"{self.name} ({self.fingerprint})"

    @property
    def key_type(self) -> str:
        return self.public_key.split(" ", 1)[0]

"""The kinds of secret the redactor recognises, as stored in findings and shown to the customer."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Kind"]


class Kind(models.TextChoices):
    """What a removed piece of text was. The value is stored with each finding; the label is what the customer
    reads ("removed: AWS access key in 'Logs', line 12") and what the `[REDACTED: …]` marker says.

    Provider kinds name a recognisable credential format (a prefix, a length, a checksum). The generic kinds
    come from context instead: a value assigned to a name such as `password` or `api_key`, the credentials in
    a URL or an `Authorization` header, a PEM private key block, a run of BIP-39 words.
    """

    AWS_ACCESS_KEY = "aws_access_key", _("AWS access key")
    AWS_SECRET_KEY = "aws_secret_key", _("AWS secret access key")
    AZURE_KEY = "azure_key", _("Azure storage key")
    GOOGLE_API_KEY = "google_api_key", _("Google API key")
    GOOGLE_OAUTH_TOKEN = "google_oauth_token", _("Google OAuth token")
    GITHUB_TOKEN = "github_token", _("GitHub token")
    GITLAB_TOKEN = "gitlab_token", _("GitLab token")
    SLACK_TOKEN = "slack_token", _("Slack token")
    STRIPE_KEY = "stripe_key", _("Stripe secret key")
    OPENAI_KEY = "openai_key", _("OpenAI API key")
    ANTHROPIC_KEY = "anthropic_key", _("Anthropic API key")
    HUGGING_FACE_TOKEN = "hugging_face_token", _("Hugging Face token")
    PYPI_TOKEN = "pypi_token", _("PyPI token")
    NPM_TOKEN = "npm_token", _("npm token")
    SENDGRID_KEY = "sendgrid_key", _("SendGrid API key")
    TWILIO_KEY = "twilio_key", _("Twilio API key")
    DISCORD_TOKEN = "discord_token", _("Discord bot token")
    TELEGRAM_TOKEN = "telegram_token", _("Telegram bot token")
    MAILCHIMP_KEY = "mailchimp_key", _("Mailchimp API key")
    SQUARE_SECRET = "square_secret", _("Square OAuth secret")
    ARTIFACTORY_TOKEN = "artifactory_token", _("Artifactory credentials")
    DIGITALOCEAN_TOKEN = "digitalocean_token", _("DigitalOcean token")
    REPLICATE_TOKEN = "replicate_token", _("Replicate token")
    JWT = "jwt", _("JSON Web Token")
    PRIVATE_KEY = "private_key", _("Private key")
    WALLET_PRIVATE_KEY = "wallet_private_key", _("Wallet private key")
    SEED_PHRASE = "seed_phrase", _("Wallet seed phrase")
    PASSWORD_IN_URL = "password_in_url", _("Password in a URL")
    SIGNED_URL = "signed_url", _("URL signature")
    AUTH_HEADER = "auth_header", _("Authorization header credentials")
    PASSWORD = "password", _("Password")
    SECRET = "secret", _("API key or secret")

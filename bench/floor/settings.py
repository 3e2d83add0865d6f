"""Production settings and the floor route (bench only: `DJANGO_SETTINGS_MODULE=floor.settings`, bench/ on the path)."""

from config.settings.production import *  # noqa: F403

ROOT_URLCONF = "floor.urls"

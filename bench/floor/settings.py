"""Production settings and the floor routes (bench only: `DJANGO_SETTINGS_MODULE=floor.settings`, bench/ on path)."""

from config.settings.production import *  # noqa: F403

ROOT_URLCONF = "floor.urls"

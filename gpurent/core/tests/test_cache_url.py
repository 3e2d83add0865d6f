"""`CACHE_URL` names one of Django's cache backends (docs/decisions/0181-cache-from-url.md)."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings.base import cache_from_url


@pytest.mark.parametrize(
    ("url", "backend", "location"),
    [
        ("", "locmem.LocMemCache", "gpurent"),
        ("locmem://", "locmem.LocMemCache", "gpurent"),
        ("redis://cache.internal:6379/0", "redis.RedisCache", "redis://cache.internal:6379/0"),
        ("rediss://:secret@cache.internal:6380/1", "redis.RedisCache", "rediss://:secret@cache.internal:6380/1"),
        ("redis+unix:///run/redis.sock?db=2", "redis.RedisCache", "unix:///run/redis.sock?db=2"),
        ("db://gpurent_cache", "db.DatabaseCache", "gpurent_cache"),
        ("file:///var/cache/gpurent", "filebased.FileBasedCache", "/var/cache/gpurent"),
    ],
)
def test_cache_url_names_a_builtin_backend(url, backend, location):
    config = cache_from_url(url)
    assert config["BACKEND"] == f"django.core.cache.backends.{backend}"
    assert config["LOCATION"] == location


def test_dummy_cache_url():
    assert cache_from_url("dummy://") == {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}


@pytest.mark.parametrize("url", ["memcached://127.0.0.1:11211", "db://", "file://", "redis"])
def test_an_unknown_cache_url_refuses_to_start(url):
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        cache_from_url(url)

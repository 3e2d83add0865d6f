"""`check --deploy` refuses a cache of each process when several web processes serve the shop (decision 0405)."""

import pytest
from django.core import checks

from config.settings.base import cache_from_url
from gpurent.core.checks import shared_cache_errors


def _ids(settings, url: str, web_processes: int) -> list[str]:
    settings.CACHES = {"default": cache_from_url(url)}
    return [str(error.id) for error in shared_cache_errors(web_processes)]


@pytest.mark.parametrize("url", ["locmem://", "file:///var/cache/gpurent"])
def test_a_cache_of_each_process_or_machine_is_refused_with_several_web_processes(settings, url):
    assert _ids(settings, url, 4) == ["core.E001"]
    assert _ids(settings, url, 1) == []


@pytest.mark.parametrize("url", ["redis://cache.internal:6379/0", "db://gpurent_cache"])
def test_a_shared_cache_passes_whatever_the_number_of_processes(settings, url):
    assert _ids(settings, url, 16) == []


def test_no_cache_at_all_is_refused_even_for_one_process(settings):
    assert _ids(settings, "dummy://", 1) == ["core.E002"]


def test_the_error_names_the_count_and_the_fix(settings):
    settings.CACHES = {"default": cache_from_url("locmem://")}
    [error] = shared_cache_errors(4)
    assert error.level == checks.ERROR
    assert "4 web processes" in error.msg
    assert "LocMemCache" in error.msg
    assert error.hint is not None
    assert "CACHE_URL=redis://" in error.hint
    assert "deploy/README.md" in error.hint


def test_the_check_runs_with_the_deployment_checks_only(settings):
    settings.CACHES = {"default": cache_from_url("locmem://")}
    settings.WEB_CONCURRENCY = 4
    assert "core.E001" in [error.id for error in checks.run_checks(include_deployment_checks=True)]
    assert "core.E001" not in [error.id for error in checks.run_checks()]

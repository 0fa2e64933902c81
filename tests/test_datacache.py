"""The data cache keeps what was read from YAML between runs, and never outlives the files it was read from."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from reasoner.law import datacache
from reasoner.law.registry import _checked, registry
from reasoner.law.locator import encoded_ordinances, package_path, registry_path


@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("REASONER_CACHE", str(folder))
    return folder


@pytest.fixture
def source(tmp_path):
    file = tmp_path / "data.yaml"
    file.write_text("first")
    return file


def counting(file):
    """A builder that reads `file` and counts its calls."""
    calls = []

    def build():
        calls.append(1)
        return {"read": file.read_text()}

    return build, calls


def test_a_second_read_of_unchanged_files_comes_from_the_cache(cache_folder, source):
    build, calls = counting(source)
    assert datacache.cached("data", [source], __name__, build) == {"read": "first"}
    assert datacache.cached("data", [source], __name__, build) == {"read": "first"}
    assert len(calls) == 1
    assert len(list(cache_folder.glob("data-*.pickle"))) == 1


def test_a_changed_source_is_read_again_and_replaces_the_cached_value(cache_folder, source):
    build, calls = counting(source)
    datacache.cached("data", [source], __name__, build)
    source.write_text("second, and longer")
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 1_000_000))
    assert datacache.cached("data", [source], __name__, build) == {"read": "second, and longer"}
    assert len(calls) == 2
    assert len(list(cache_folder.glob("data-*.pickle"))) == 1


def test_a_changed_reader_module_is_not_given_a_value_an_older_one_cached(cache_folder, source, tmp_path, monkeypatch):
    reader = tmp_path / "reader_module.py"
    reader.write_text("# version 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import reader_module  # noqa: F401 - the cache keys on the module's file

    build, calls = counting(source)
    datacache.cached("data", [source], "reader_module", build)
    reader.write_text("# version 2, longer\n")
    datacache.cached("data", [source], "reader_module", build)
    assert len(calls) == 2


def test_a_value_holding_another_library_version_s_objects_is_built_again(cache_folder, source):
    build, calls = counting(source)
    datacache.cached("data", [source], __name__, build, version="2.14")
    datacache.cached("data", [source], __name__, build, version="2.15")
    datacache.cached("data", [source], __name__, build, version="2.15")
    assert len(calls) == 2


def test_a_damaged_cache_file_is_rebuilt_without_an_error(cache_folder, source):
    build, calls = counting(source)
    datacache.cached("data", [source], __name__, build)
    for file in cache_folder.glob("data-*.pickle"):
        file.write_bytes(b"not a pickle")
    assert datacache.cached("data", [source], __name__, build) == {"read": "first"}
    assert len(calls) == 2


def test_a_folder_that_cannot_be_written_only_costs_the_cache(tmp_path, source, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("REASONER_CACHE", str(blocked / "cache"))
    build, calls = counting(source)
    assert datacache.cached("data", [source], __name__, build) == {"read": "first"}
    assert datacache.cached("data", [source], __name__, build) == {"read": "first"}
    assert len(calls) == 2


def test_off_turns_the_cache_off(tmp_path, source, monkeypatch):
    monkeypatch.setenv("REASONER_CACHE", "off")
    build, calls = counting(source)
    datacache.cached("data", [source], __name__, build)
    datacache.cached("data", [source], __name__, build)
    assert len(calls) == 2 and datacache.folder() is None


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_a_cached_registry_equals_the_one_read_from_its_yaml(cache_folder, ordinance):
    registry.cache_clear()
    try:
        first, second = registry(ordinance), None
        registry.cache_clear()
        second = registry(ordinance)   # now from the pickle
    finally:
        registry.cache_clear()
    fresh = _checked(registry_path(ordinance), ordinance)
    assert list(cache_folder.glob(f"registry-{ordinance}-*.pickle"))
    assert first == fresh and second == fresh and second is not first


def test_a_registry_with_a_problem_is_refused_every_time_not_cached(tmp_path, cache_folder):
    broken = tmp_path / "gem.yaml"
    broken.write_text(registry_path("gem").read_text().replace("jurisdiction:", "jurisdiction_:", 1))
    for _ in range(2):
        with pytest.raises(ValueError, match="jurisdiction"):
            datacache.cached("registry-gem", [broken], "reasoner.law.registry", lambda: _checked(broken, "gem"))
    assert not list(cache_folder.glob("*.pickle"))


def test_evaluate_gives_the_same_json_from_the_cache_as_without_it(tmp_path):
    example = package_path().parent / "facts" / "events" / "harvest-music-festival.yaml"
    if not example.is_file():
        pytest.skip("the examples ship with the repository, not the package")
    command = [sys.executable, "-m", "reasoner.cli", "evaluate", str(example), "--format", "json"]
    outputs = [subprocess.run(command, capture_output=True, text=True, check=True,
                              env={**os.environ, "REASONER_CACHE": cache}).stdout
               for cache in ("off", str(tmp_path / "cache"), str(tmp_path / "cache"))]
    assert outputs[0] == outputs[1] == outputs[2] and '"conclusions"' in outputs[0]
    assert list((tmp_path / "cache").glob("registry-*.pickle"))

"""The lexicon kept between processes: read back whole, rebuilt when unreadable or when an input changes."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from curbside.phi import _lexicon_cache
from curbside.phi._lexicon import Lexicon, load_lexicon
from curbside.phi._lexicon_cache import cache_directory, cached_lexicon


class CountingBuild:
    """A builder that hands out the real lexicon and counts how often it was asked."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> Lexicon:
        self.calls += 1
        return load_lexicon()


def the_file(directory: Path) -> Path:
    (path,) = directory.glob("phi-lexicon-*.marshal")
    return path


def test_a_built_lexicon_is_read_back_whole_by_the_next_process(tmp_path: Path) -> None:
    build = CountingBuild()
    first = cached_lexicon(build, tmp_path)
    again = cached_lexicon(build, tmp_path)
    assert build.calls == 1
    assert again == first == load_lexicon()
    assert again.zipf("the") > 7 and again.is_name("smith") and again.near_common("recieve")


@pytest.mark.parametrize(
    "content",
    [b"", b"\x00not marshal at all", marshal.dumps({"given_names": 1}), marshal.dumps([1, 2, 3])],
    ids=["empty", "garbage", "wrong fields", "not a dict"],
)
def test_an_unreadable_or_foreign_file_is_rebuilt_silently(tmp_path: Path, content: bytes) -> None:
    cached_lexicon(CountingBuild(), tmp_path)
    the_file(tmp_path).write_bytes(content)
    build = CountingBuild()
    assert cached_lexicon(build, tmp_path) == load_lexicon()
    assert build.calls == 1
    assert cached_lexicon(build, tmp_path) == load_lexicon() and build.calls == 1  # and written again


def test_a_directory_that_cannot_be_written_only_means_no_cache(tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("in the way")
    build = CountingBuild()
    assert cached_lexicon(build, blocked / "cache") == load_lexicon()
    assert cached_lexicon(build, blocked / "cache") == load_lexicon()
    assert build.calls == 2
    assert blocked.read_text() == "in the way"


def test_a_changed_input_names_another_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installed = {package: tmp_path / package for package, _ in _lexicon_cache._PACKAGE_FILES}
    for package, name in _lexicon_cache._PACKAGE_FILES:
        (installed[package] / name).parent.mkdir(parents=True, exist_ok=True)
        (installed[package] / name).write_text("word list")
    monkeypatch.setattr(_lexicon_cache, "_package_dir", installed.__getitem__)
    before = _lexicon_cache._inputs_digest()
    assert _lexicon_cache._inputs_digest() == before
    (installed["wordfreq"] / "data/large_en.msgpack.gz").write_text("a newer word list")
    assert _lexicon_cache._inputs_digest() != before


def test_a_missing_input_builds_without_a_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_lexicon_cache, "_PACKAGE_FILES", (("no_such_package_here", "list.txt"),))
    build = CountingBuild()
    assert cached_lexicon(build, tmp_path) == load_lexicon() and build.calls == 1
    assert list(tmp_path.iterdir()) == []


def test_the_cache_directory_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CURBSIDE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_directory() == tmp_path / "xdg" / "curbside"
    monkeypatch.setenv("CURBSIDE_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_directory() == tmp_path / "mine"

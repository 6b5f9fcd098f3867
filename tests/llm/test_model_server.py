"""The llama-cpp-python server launcher: its command line, the settings it prints, the missing-extra error,
and stopping (a real process tree; llama_cpp itself is not needed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from curbside.errors import ConfigError
from curbside.llm.model_server import ServerConfig, check_server_python, client_settings, is_loopback, run_server


def test_the_command_names_the_model_its_alias_and_passes_extra_arguments() -> None:
    config = ServerConfig(model_path=Path("/m/q.gguf"), alias="qwen2.5-coder-1.5b", python="/venv/bin/python")
    assert config.command() == [
        "/venv/bin/python", "-m", "llama_cpp.server", "--model", "/m/q.gguf", "--model_alias", "qwen2.5-coder-1.5b",
        "--host", "127.0.0.1", "--port", "8080", "--n_ctx", "4096",
    ]  # fmt: skip
    tuned = ServerConfig(model_path=Path("/m/q.gguf"), alias="a", threads=2, extra_args=("--api_key", "k"))
    assert tuned.command()[-6:] == ["--n_threads", "2", "--n_threads_batch", "2", "--api_key", "k"]


def test_client_settings_point_at_a_reachable_address() -> None:
    assert client_settings(ServerConfig(model_path=Path("m"), alias="x", host="0.0.0.0", port=9000)) == {
        "CURBSIDE_LOCAL_LLM_URL": "http://127.0.0.1:9000/v1",
        "CURBSIDE_LOCAL_LLM_MODEL": "x",
    }
    assert client_settings(ServerConfig(model_path=Path("m"), alias="x", host="::1"))["CURBSIDE_LOCAL_LLM_URL"] == (
        "http://[::1]:8080/v1"
    )
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.0.0.5") and not is_loopback("clinic-server")


def test_an_interpreter_without_llama_cpp_gets_the_extra_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        check_server_python(sys.executable)  # Curbside's test environment has no llama_cpp
    message = caught.value.message
    assert "cannot import llama-cpp-python's server (ModuleNotFoundError: No module named 'llama_cpp')" in message
    assert "pip install 'curbside[local-llm]'" in message and "--python" in message
    with pytest.raises(ConfigError, match="Cannot run the interpreter"):
        check_server_python(str(tmp_path / "no-python"))


LAUNCHER = """import sys
from curbside.llm.model_server import run_server
print(run_server([sys.executable, "-c", "import os, time; print(os.getpid(), flush=True); time.sleep(60)"]), flush=True)
"""


def test_stopping_curbside_stops_the_server() -> None:
    launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER], stdout=subprocess.PIPE, text=True)
    assert launcher.stdout is not None
    server_pid = int(launcher.stdout.readline())
    launcher.send_signal(signal.SIGTERM)
    assert launcher.wait(timeout=10) == 0
    assert launcher.stdout.read().strip() == "0"  # a stop asked for is a normal end
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail("the server outlived Curbside")


def test_a_server_that_fails_gives_its_exit_status() -> None:
    assert run_server([sys.executable, "-c", "raise SystemExit(3)"]) == 3

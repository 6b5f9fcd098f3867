"""A local GGUF model served as an OpenAI-compatible endpoint by ``llama-cpp-python[server]``.

llama-cpp-python builds llama.cpp from source (a compiler, cmake, ~5 minutes), so it is an optional
extra (``curbside[local-llm]``) and may live in another environment than Curbside's: the server runs
as ``<python> -m llama_cpp.server``, with any interpreter that can import it. The endpoint answers
``POST /v1/chat/completions`` like any other, so Curbside reaches it through the same client as
Ollama, vLLM or a cloud API (``CURBSIDE_LOCAL_LLM_URL``).
"""

from __future__ import annotations

import ipaddress
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from curbside.errors import ConfigError

__all__ = ["EXTRA", "ServerConfig", "check_server_python", "client_settings", "is_loopback", "run_server"]

EXTRA = "local-llm"  # pyproject's optional extra: llama-cpp-python[server]


@dataclass(frozen=True, slots=True)
class ServerConfig:
    model_path: Path
    alias: str  # the model name the server answers to: CURBSIDE_LOCAL_LLM_MODEL
    host: str = "127.0.0.1"
    port: int = 8080
    n_ctx: int = 4096
    # None: llama-cpp's default, half the cores. Every core is faster on an idle machine but collapses when
    # other work shares the CPU (threads spin-wait on one another): 2 threads here, under load, 2-4 tokens/s
    # against 16 with 1 thread (November 2026, 2 shared cores)
    threads: int | None = None
    python: str = sys.executable
    extra_args: tuple[str, ...] = field(default=())

    def command(self) -> list[str]:
        threads = ["--n_threads", str(self.threads), "--n_threads_batch", str(self.threads)] if self.threads else []
        return [
            self.python,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model_path),
            "--model_alias",
            self.alias,
            "--host",
            self.host,
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            *threads,
            *self.extra_args,
        ]


def check_server_python(python: str) -> None:
    """Raise a ConfigError naming the extra unless ``python`` can import llama-cpp-python's server."""
    try:
        result = subprocess.run(
            [python, "-c", "import llama_cpp.server.app"], capture_output=True, text=True, timeout=120, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ConfigError(f"Cannot run the interpreter {python!r} for the model server: {exc}.") from exc
    if result.returncode == 0:
        return
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    reason = lines[-1].strip() if lines else f"exit status {result.returncode}"
    raise ConfigError(
        f"{python} cannot import llama-cpp-python's server ({reason}). Install the optional extra "
        f"{EXTRA!r}: pip install 'curbside[{EXTRA}]' (it builds llama.cpp from source: a C/C++ compiler and "
        'cmake, about 5 minutes; CMAKE_ARGS="-DGGML_NATIVE=OFF" for a build that runs on other CPUs), or '
        "install 'llama-cpp-python[server]' in another environment and pass its interpreter with --python "
        "(or CURBSIDE_LLM_SERVER_PYTHON)."
    )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def client_settings(config: ServerConfig) -> dict[str, str]:
    """The CURBSIDE_* settings that point Curbside's local model at this server."""
    host = config.host
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return {"CURBSIDE_LOCAL_LLM_URL": f"http://{host}:{config.port}/v1", "CURBSIDE_LOCAL_LLM_MODEL": config.alias}


def run_server(command: Sequence[str]) -> int:
    """Run the server in the foreground until it exits or is stopped; return the exit status for Curbside.

    Ctrl-C, and a SIGTERM (or SIGHUP) sent to Curbside, are passed on, so stopping Curbside never leaves the
    server running; a server stopped that way is a normal end (0). A server killed by another signal gives
    128 + its number, as a shell would.
    """
    process = subprocess.Popen(list(command))
    stopped = False

    def forward(signum: int, frame: FrameType | None) -> None:
        nonlocal stopped
        stopped = True
        process.send_signal(signum)

    passed_on = [signal.SIGTERM] + ([signal.SIGHUP] if sys.platform != "win32" else [])
    previous = {signum: signal.signal(signum, forward) for signum in passed_on}
    try:
        try:
            code = process.wait()
        except KeyboardInterrupt:
            stopped = True
            process.send_signal(signal.SIGINT)  # uvicorn shuts down cleanly on SIGINT
            try:
                code = process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                code = process.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if stopped and code in (0, -signal.SIGINT, -signal.SIGTERM, -signal.SIGKILL, *(-s for s in passed_on)):
        return 0
    return 128 - code if code < 0 else code

"""Start, fill and stop the sandbox EHR: Medplum's FHIR R4 router in Node, in memory, on loopback.

The Node side lives beside this file (``package.json``, ``server.js``). Its packages are installed once with
``npm install`` into a cache directory (``CURBSIDE_HOME/ehr-sandbox`` unless told otherwise); the ``node``
package among them brings a Node 22 binary, so only ``npm`` (any Node) must be on the machine. When that binary
cannot be installed, a system ``node`` of at least 22.18 is used.

    with EhrSandbox() as ehr:              # installs on first use, starts on a free loopback port
        ehr.load("../shared/data/fhir/synthea-adults")
        httpx.get(f"{ehr.base_url}/Patient")

Synthea's bundles (transaction or batch) keep their resource ids; their ``urn:uuid`` references become
``Type/id``. With ``record_writes=True`` the server answers writes without applying them and lists them at
``GET /$recorded-writes``; :meth:`EhrSandbox.load` still applies (it posts to ``/$load``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curbside.errors import ConfigError, UpstreamError

__all__ = [
    "MIN_NODE",
    "SANDBOX_DIR",
    "EhrSandbox",
    "LoadReport",
    "SandboxUnavailableError",
    "default_install_dir",
    "ensure_installed",
]

SANDBOX_DIR = Path(__file__).resolve().parent
SERVER_JS = SANDBOX_DIR / "server.js"
PACKAGE_JSON = SANDBOX_DIR / "package.json"
MIN_NODE = (22, 18, 0)
_READY = re.compile(r"ready on (http://\S+)")
_INSTALL_HINT = (
    "install Node.js with npm (any version: npm brings Node 22 itself), "
    "e.g. `apt-get install nodejs npm`, or see https://nodejs.org"
)


class SandboxUnavailableError(ConfigError):
    """The sandbox EHR cannot run here: npm or a usable Node is missing, or the install or start failed."""

    code = "EHR_SANDBOX_UNAVAILABLE"


@dataclass
class LoadReport:
    """What :meth:`EhrSandbox.load` did."""

    bundles: int = 0
    entries: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)


Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def default_install_dir() -> Path:
    """``CURBSIDE_HOME/ehr-sandbox`` (``~/.curbside/ehr-sandbox`` by default)."""
    home = os.environ.get("CURBSIDE_HOME")
    return (Path(home).expanduser() if home else Path.home() / ".curbside") / "ehr-sandbox"


def _node_version(node: str | Path) -> tuple[int, int, int] | None:
    try:
        out = subprocess.run([str(node), "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.match(r"v(\d+)\.(\d+)\.(\d+)", out.stdout.strip())
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def _usable_node(install_dir: Path) -> Path | None:
    """The installed ``node`` package's binary, else a system ``node`` >= 22.18, else None."""
    candidates: list[str | Path] = [install_dir / "node_modules" / ".bin" / "node"]
    system = shutil.which("node")
    if system:
        candidates.append(system)
    for candidate in candidates:
        if Path(candidate).exists():
            version = _node_version(candidate)
            if version is not None and version >= MIN_NODE:
                return Path(candidate)
    return None


def _installed(install_dir: Path) -> bool:
    stamp = install_dir / "package.json"
    return (
        stamp.exists()
        and stamp.read_bytes() == PACKAGE_JSON.read_bytes()
        and (install_dir / "node_modules" / "@medplum" / "fhir-router" / "package.json").exists()
    )


@contextlib.contextmanager
def _install_lock(install_dir: Path) -> Iterator[None]:
    """One installer at a time per directory (parallel test workers, two shells)."""
    install_dir.mkdir(parents=True, exist_ok=True)
    if sys.platform == "win32":  # pragma: no cover - no fcntl there
        yield
        return
    import fcntl

    with open(install_dir / ".install.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_installed(install_dir: Path | None = None, progress: Progress = _quiet) -> Path:
    """Install the sandbox's Node packages into ``install_dir`` if needed; return the ``node`` to run it with."""
    install_dir = Path(install_dir) if install_dir else default_install_dir()
    with _install_lock(install_dir):
        if not _installed(install_dir):
            npm = shutil.which("npm")
            if npm is None:
                raise SandboxUnavailableError(f"The sandbox EHR needs npm, which is not on PATH: {_INSTALL_HINT}.")
            progress(
                f"Installing the sandbox EHR's Node packages (Medplum FHIR router, Node 22) into {install_dir} "
                "— once, about 300 MB…"
            )
            shutil.copyfile(PACKAGE_JSON, install_dir / "package.json.new")
            os.replace(install_dir / "package.json.new", install_dir / "package.json")
            started = time.monotonic()
            result = subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=error"],
                cwd=install_dir,
                capture_output=True,
                text=True,
                timeout=1800,
                check=False,
            )
            if result.returncode != 0 or not _installed(install_dir):
                (install_dir / "package.json").unlink(missing_ok=True)  # try again next time
                tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-15:])
                raise SandboxUnavailableError(
                    f"`npm install` for the sandbox EHR failed in {install_dir} (exit {result.returncode}); "
                    f"it needs the npm registry once.\n{tail}"
                )
            progress(f"Installed in {time.monotonic() - started:.0f} s.")
    node = _usable_node(install_dir)
    if node is None:
        raise SandboxUnavailableError(
            f"The sandbox EHR needs Node >= {'.'.join(map(str, MIN_NODE))}; npm could not install the `node` "
            f"package into {install_dir} and the system node is older or missing: {_INSTALL_HINT} "
            "(Node 22.18 or newer)."
        )
    return node


def _bundle_order(path: Path) -> tuple[int, str]:
    # Synthea writes shared organisations and practitioners into their own bundles: load those first
    name = path.name
    return (0 if name.startswith(("hospitalInformation", "practitionerInformation")) else 1, name)


class EhrSandbox:
    """The sandbox FHIR server as a child process; a context manager that starts and stops it."""

    def __init__(
        self,
        *,
        install_dir: Path | str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        record_writes: bool = False,
        start_timeout: float = 60.0,
        progress: Progress = _quiet,
    ) -> None:
        self.install_dir = Path(install_dir) if install_dir else default_install_dir()
        self.host = host
        self.port = port
        self.record_writes = record_writes
        self.start_timeout = start_timeout
        self.progress = progress
        self.base_url = ""
        self.start_seconds = 0.0
        self._process: subprocess.Popen[str] | None = None
        self._stderr: deque[str] = deque(maxlen=40)

    # -- lifecycle ------------------------------------------------------------------------------------------

    def start(self) -> str:
        """Install if needed, start the server and wait until it listens; return its base URL."""
        if self._process is not None:
            return self.base_url
        node = ensure_installed(self.install_dir, self.progress)
        args = [str(node), str(SERVER_JS), "--host", self.host, "--port", str(self.port)]
        args += ["--parent-pid", str(os.getpid())]
        if self.record_writes:
            args.append("--record-writes")
        env = {**os.environ, "NODE_PATH": str(self.install_dir / "node_modules")}
        started = time.monotonic()
        process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=self.install_dir,
        )
        self._process = process
        ready: list[str] = []
        ready_event = threading.Event()

        def read_stdout() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                match = _READY.search(line)
                if match and not ready:
                    ready.append(match[1])
                    ready_event.set()
            ready_event.set()  # the process ended

        def read_stderr() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                self._stderr.append(line.rstrip())

        threading.Thread(target=read_stdout, name="ehr-sandbox-stdout", daemon=True).start()
        threading.Thread(target=read_stderr, name="ehr-sandbox-stderr", daemon=True).start()
        ready_event.wait(self.start_timeout)
        if not ready:
            self.stop()
            detail = "\n".join(self._stderr) or "no output"
            raise SandboxUnavailableError(
                f"The sandbox EHR did not start within {self.start_timeout:.0f} s ({node}):\n{detail}"
            )
        self.base_url = ready[0]
        self.port = int(self.base_url.rsplit(":", 1)[1])
        self.start_seconds = time.monotonic() - started
        return self.base_url

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 5 s). Everything in it is gone."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def __enter__(self) -> EhrSandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- data -----------------------------------------------------------------------------------------------

    def _client(self) -> Any:
        import httpx

        if not self.base_url:
            raise SandboxUnavailableError("The sandbox EHR is not running: call start() first.")
        return httpx.Client(base_url=self.base_url, timeout=httpx.Timeout(300.0, connect=10.0))

    def load_bundle(self, bundle: Path | str | bytes | dict[str, Any], *, client: Any = None) -> int:
        """Apply one transaction or batch bundle (a file, JSON bytes or a dict); return its entry count.

        Raises UpstreamError naming the failed entries.
        """
        if isinstance(bundle, dict):
            body = json.dumps(bundle).encode()
        elif isinstance(bundle, bytes):
            body = bundle
        else:
            body = Path(bundle).read_bytes()
        headers = {"content-type": "application/fhir+json", "prefer": "return=minimal"}
        owned = client is None
        client = client or self._client()
        try:
            response = client.post("/$load", content=body, headers=headers)
        finally:
            if owned:
                client.close()
        answer = response.json()
        if response.status_code >= 400:
            issue = (answer.get("issue") or [{}])[0]
            raise UpstreamError(f"The sandbox refused the bundle: {issue.get('diagnostics') or issue.get('code')}")
        entries = answer.get("entry") or []
        failed = [
            f"entry {i}: {e.get('response', {}).get('status')}"
            for i, e in enumerate(entries)
            if not str(e.get("response", {}).get("status", "")).startswith("2")
        ]
        if failed:
            raise UpstreamError(f"{len(failed)} of {len(entries)} entries failed: " + "; ".join(failed[:5]))
        return len(entries)

    def load(self, directory: Path | str) -> LoadReport:
        """Load every ``*.json`` bundle in a directory (Synthea's shared-organisation bundles first)."""
        folder = Path(directory)
        files = sorted(folder.glob("*.json"), key=_bundle_order)
        if not files:
            raise SandboxUnavailableError(f"No *.json bundles in {folder}")
        report = LoadReport()
        started = time.monotonic()
        with self._client() as client:
            for path in files:
                try:
                    report.entries += self.load_bundle(path, client=client)
                    report.bundles += 1
                except (UpstreamError, ValueError) as error:
                    report.failures.append(f"{path.name}: {error}")
        report.seconds = time.monotonic() - started
        return report

    def recorded_writes(self) -> list[dict[str, Any]]:
        """The writes recorded under ``record_writes`` (method, url, body, seq, at, assignedId for creates)."""
        with self._client() as client:
            writes: list[dict[str, Any]] = client.get("/$recorded-writes").json()["writes"]
            return writes

    def clear_recorded_writes(self) -> int:
        with self._client() as client:
            cleared: int = client.delete("/$recorded-writes").json()["cleared"]
            return cleared

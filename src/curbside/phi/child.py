"""The PHI detector in a child process, for a command that runs once and exits.

Loading the detector (Presidio, spaCy and its model, the word lists) is a few seconds of work
that holds Python's global lock, so on another thread it still delays everything else a cold
``curbside ask`` does. In a child process it loads on the machine's other core while this one
opens the knowledge base and searches. ``ChildDetector`` gives the same spans as the in-process
``PhiDetector`` (the child runs one) for the same text; it only carries them across a pipe, one
JSON line each way. A long-running server keeps its detector in process: it loads once.

A child that fails to start, dies, or reports an error makes ``detect`` raise
``PhiDetectorError``, and the callers' rule holds: text that could not be screened counts as PHI.

    python -m curbside.phi.child      # the child's side: settings, then texts, as JSON lines on stdin
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from typing import TYPE_CHECKING, Any

from curbside.errors import PhiDetectorError
from curbside.phi._span_detector import SpanDetector, detector_key
from curbside.phi._spans import PhiSpan

if TYPE_CHECKING:
    from curbside.settings import Settings

__all__ = ["ChildDetector"]


class ChildDetector(SpanDetector):
    """``detect`` / ``contains_phi`` / ``redact`` answered by a child process, started (and loading) at once.

    Made before the settings are known (a command's first step), it is given them with ``configure``
    before the first text; the child loads meanwhile, since what it loads does not depend on them.
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self.max_chars = 0  # nothing is accepted before configure()
        self._errors = tempfile.TemporaryFile()  # the child's stderr: read back only when it fails
        self._lock = threading.Lock()  # one request on the pipe at a time
        self._process = subprocess.Popen(  # noqa: S603 - this interpreter, this package
            [sys.executable, "-m", "curbside.phi.child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
            text=True,
            encoding="utf-8",
        )
        if settings is not None:
            self.configure(settings)

    def configure(self, settings: Settings) -> None:
        """The settings the child's detector is built with (its limits, windows and score threshold)."""
        key = detector_key(settings)
        with self._lock:
            self._send({"key": key})
        self.max_chars = settings.phi_max_chars

    def _send(self, message: dict[str, Any]) -> None:
        process = self._process
        if process.stdin is None or process.stdin.closed or process.poll() is not None:
            raise PhiDetectorError(f"The PHI detector's process is not running{self._why()}.")
        try:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
        except (OSError, ValueError) as exc:  # a broken pipe; a pipe closed under us
            raise PhiDetectorError(f"The PHI detector's process could not be reached ({exc}){self._why()}.") from exc

    def _detect(self, text: str) -> list[PhiSpan]:
        process = self._process
        with self._lock:
            self._send({"text": text})
            try:
                line = process.stdout.readline() if process.stdout is not None else ""
            except (OSError, ValueError) as exc:
                raise PhiDetectorError(
                    f"The PHI detector's process could not be reached ({exc}){self._why()}."
                ) from exc
        if not line:
            process.wait()
            raise PhiDetectorError(f"The PHI detector's process ended (exit code {process.returncode}){self._why()}.")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise PhiDetectorError(str(reply["error"]))
        return [PhiSpan(start, end, kind, score, text[start:end]) for start, end, kind, score in reply["spans"]]

    def _why(self) -> str:
        self._errors.seek(0)
        tail = self._errors.read()[-600:].decode("utf-8", "replace").strip()
        return f": {tail}" if tail else ""

    def close(self) -> None:
        """End the child and drop its error log. It holds nothing to save, so it is stopped rather than
        left to tear down its models (a cold command would wait for that)."""
        process = self._process
        if process.stdin is not None and not process.stdin.closed:
            try:
                process.stdin.close()
            except OSError:
                pass
        if process.poll() is None:
            process.terminate()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
        self._errors.close()


def serve() -> None:
    """The child: load the detector's parts now, then read JSON lines until the input ends: the settings
    (``{"key": [max_chars, window_chars, score_threshold]}``), then texts, each answered with its spans."""
    replies, sys.stdout = sys.stdout, sys.stderr  # whatever a library prints must not reach the pipe
    failure: str | None = None
    try:
        from curbside.phi._detector import detector_for, load_parts

        load_parts()  # the same whatever the settings: loaded while the parent gets them
    except Exception as exc:  # noqa: BLE001 - every request is then answered with why
        failure = f"{type(exc).__name__}: {exc}"
    detector: Any = None
    for line in sys.stdin:
        message = json.loads(line)
        if "key" in message:
            if failure is None:
                try:
                    max_chars, window_chars, threshold = message["key"]
                    detector = detector_for((int(max_chars), int(window_chars), float(threshold)))
                except Exception as exc:  # noqa: BLE001
                    failure = f"{type(exc).__name__}: {exc}"
            continue
        if failure is not None or detector is None:
            reply: dict[str, Any] = {"error": failure or "The PHI detector's process was given no settings."}
        else:
            try:
                spans = detector.detect(message["text"])
                reply = {"spans": [(s.start, s.end, s.type, s.score) for s in spans]}
            except Exception as exc:  # noqa: BLE001 - the parent raises it as PhiDetectorError
                reply = {"error": f"{type(exc).__name__}: {exc}"}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


if __name__ == "__main__":
    serve()

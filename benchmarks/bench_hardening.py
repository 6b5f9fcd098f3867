"""Hostile requests against a real server (#11): what each costs before it is refused.

Prints one table:
- an over-long question (1,000,000 characters, over the schema's 5,000; and 4,600, over CURBSIDE_MAX_QUERY_CHARS' 2,000: refused, and its row redacted): time to the refusal;
- an unauthenticated 1 GiB upload: bytes of it the server took off its socket before answering 401;
- zip bombs (a .docx inflating to 1.5 GiB; one holding a 2 GiB image): peak memory growth of the upload
  check and of the loader, each in a fresh process;
- concurrent writers: 20 threads × 30 write transactions on one database.

    nice .venv/bin/python benchmarks/bench_hardening.py [--json PATH] [--rounds 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "kb")]

from bomb_files import Entry, MiB, docx_with, in_subprocess, repeated  # noqa: E402
from live_server import LiveServer, send_until_answered  # noqa: E402

from curbside.app import Curbside  # noqa: E402
from curbside.settings import Settings  # noqa: E402
from curbside.store.database import Database  # noqa: E402

GIB = 1024**3


def refusal_ms(live: LiveServer, key: str, question: str, rounds: int) -> tuple[int, float, float]:
    times, status = [], 0
    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as client:
        for _ in range(rounds):
            started = time.perf_counter()
            status = client.post("/v1/ask", json={"question": question}).status_code
            times.append((time.perf_counter() - started) * 1000)
    return status, statistics.median(times), max(times)


def unauthenticated_upload(live: LiveServer) -> tuple[str, int, float]:
    """(status line, request bytes the server took off its socket before answering, ms to the answer)."""
    head = (
        "POST /v1/documents HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
        f"Content-Length: {GIB}\r\n\r\n"
    )
    started = time.perf_counter()
    line, read = send_until_answered(live.port, head.encode(), 64 * MiB)
    return line, read, (time.perf_counter() - started) * 1000


def writers(threads: int = 20, each: int = 30) -> float:
    db = Database(Path(tempfile.mkdtemp()) / "writers.sqlite3")
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(each):
                with db.transaction():
                    db.set_meta(f"k{threading.get_ident()}", "v")
        except BaseException as exc:  # noqa: BLE001 - counted below
            errors.append(exc)

    started = time.perf_counter()
    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if errors:
        raise SystemExit(f"{len(errors)} writers failed: {errors[0]!r}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=20, help="Requests per over-long question size.")
    parser.add_argument("--json", type=Path, help="Also write the figures here.")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="curbside-hardening-"))
    home = work / "home"
    core = Curbside(Settings(home=home))
    key = core.users.add("bench-clinician", "clinician").key
    core.close()
    rows: list[tuple[str, str, str]] = []
    with LiveServer(home, env={"CURBSIDE_MAX_BODY_BYTES": str(4 * MiB)}) as live:
        status, p50, worst = refusal_ms(live, key, "what is the dose of sertraline " * 32_300, args.rounds)
        rows.append(("1,000,000-character question", f"{status}", f"p50 {p50:.1f} ms, max {worst:.1f} ms"))
        status, p50, worst = refusal_ms(live, key, "what is the dose of sertraline " * 148, args.rounds)
        rows.append(("4,600-character question (limit 2,000)", f"{status}", f"p50 {p50:.1f} ms, max {worst:.1f} ms"))
        line, read, ms = unauthenticated_upload(live)
        rows.append(("unauthenticated 1 GiB upload", line, f"server took {read:,} bytes off its socket; {ms:.0f} ms"))

    bomb = docx_with(work / "text-bomb.docx", {"word/document.xml": Entry("word/document.xml", repeated(bytes(MiB), 1536))})
    image = docx_with(work / "image-bomb.docx", {"word/media/image1.png": Entry("word/media/image1.png", repeated(bytes(MiB), 2048))})
    for path, label in ((bomb, ".docx → 1.5 GiB of XML"), (image, ".docx with a 2 GiB image")):
        for call in ("check", "load"):
            outcome = in_subprocess(path, call)
            size = path.stat().st_size / MiB
            rows.append(
                (f"{label} ({size:.1f} MiB), {call}", str(outcome["error"]), f"peak growth {outcome['growth'] / MiB:.1f} MiB")
            )
    seconds = writers()
    rows.append(("20 threads × 30 write transactions", "ok", f"{seconds:.3f} s"))

    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'outcome':<34}  figure")
    for case, outcome, figure in rows:
        print(f"{case:<{width}}  {outcome:<34}  {figure}")
    if args.json:
        args.json.write_text(json.dumps([dict(zip(("case", "outcome", "figure"), r, strict=True)) for r in rows], indent=2))


if __name__ == "__main__":
    main()

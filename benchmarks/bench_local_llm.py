"""``ask`` with a local model: time to first token and total time for typical questions.

    .venv/bin/python benchmarks/bench_local_llm.py --gguf MODEL.gguf --server-python /path/to/python
    .venv/bin/python benchmarks/bench_local_llm.py --url http://127.0.0.1:8080/v1   # a server already running

With --gguf, starts ``python -m llama_cpp.server`` (llama-cpp-python[server], from the
given interpreter) on a loopback port and stops it afterwards. The knowledge base is
the real CEP anxiety/depression page, the PMC articles from ../shared/data and the
bundled samples, ingested into --home on first use. Each question goes through the
product path (``Asker.ask``: search, prompt, streamed generation, marker check); the
table gives the model's time to first token and total generation time as the
client measured them, the whole ``ask`` time, the status and the cited passages.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "guidelines"

QUESTIONS = (
    "What are the first-line medication options for depression?",
    "can I start metformin if eGFR is 35?",
    "Does oral contraceptive use change colorectal cancer risk?",
    "Rift Valley fever antibodies in sheep and goats in Mozambique",
    "which psychological treatments help anxiety?",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(python: str, gguf: Path, threads: int, ctx: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [
        python,
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(ctx),
        "--n_threads",
        str(threads),
        "--model_alias",
        "local",
    ]
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"llama-server-{port}.log"
    # llama.cpp logs a lot: to a file, since an unread pipe would fill and stall the server
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"llama_cpp.server exited; see {log}:\n{log.read_text(errors='replace')[-2000:]}")
        try:
            if httpx.get(f"{url}/models", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit("llama_cpp.server did not start within 300 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an OpenAI-compatible endpoint already running")
    parser.add_argument("--gguf", type=Path, help="model file to serve with llama_cpp.server")
    parser.add_argument("--server-python", default=sys.executable, help="interpreter with llama-cpp-python[server]")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--ctx", type=int, default=4096)
    parser.add_argument("--home", type=Path, default=Path("/tmp/curbside-bench/local-llm-kb"))
    parser.add_argument("--max-tokens", type=int, default=200)
    args = parser.parse_args()
    if not args.url and not args.gguf:
        parser.error("give --url of a running server or --gguf to start one")

    from curbside.app import Curbside
    from curbside.cli.demo import sample_paths
    from curbside.settings import Settings
    from curbside.types import AskRequest

    proc = None
    url = args.url
    if args.gguf:
        print(f"starting llama_cpp.server with {args.gguf.name} …", flush=True)
        proc, url = start_server(args.server_python, args.gguf, args.threads, args.ctx)
    try:
        settings = Settings(home=args.home, local_llm_url=url, local_llm_model="local", llm_max_tokens=args.max_tokens)
        app = Curbside(settings)
        documents = [
            SHARED / "html" / "cep-anxiety-and-depression.html",
            *sorted((SHARED / "pmc-nxml").glob("*.nxml")),
            *sample_paths(),
        ]
        report = app.ingestor.ingest(documents)
        print(f"knowledge base: {app.documents.stats()['chunks']} chunks ({report.count('ingested')} newly ingested)")
        app.warm_up()
        rows = []

        async def run() -> None:
            await app.asker.ask(AskRequest(question=QUESTIONS[0]))  # loads the model's weights into memory
            for question in QUESTIONS:
                t0 = time.perf_counter()
                answer = await app.asker.ask(AskRequest(question=question))
                total = (time.perf_counter() - t0) * 1000
                rows.append((question, answer, total))

        asyncio.run(run())
        app.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)

    print(
        f"\nmodel: {rows[0][1].metadata.get('model_used')} at {url}; max_tokens {args.max_tokens}; "
        f"{args.threads} threads\n"
    )
    print(f"{'question':<62}{'TTFT ms':>9}{'gen ms':>9}{'ask ms':>9}  status     cites")
    for question, answer, total in rows:
        m = answer.metadata
        ttft = m.get("ttft_ms")
        gen = m.get("generation_ms")
        print(
            f"{question[:60]:<62}{ttft if ttft is not None else '—':>9}{gen if gen is not None else '—':>9}"
            f"{total:>9.0f}  {answer.status:<10} {len(answer.citations)}"
        )
    ttfts = [a.metadata["ttft_ms"] for _, a, _ in rows if a.metadata.get("ttft_ms") is not None]
    gens = [a.metadata["generation_ms"] for _, a, _ in rows if a.metadata.get("generation_ms") is not None]
    if ttfts:
        print(
            f"\nmedian TTFT {statistics.median(ttfts):.0f} ms; median generation {statistics.median(gens):.0f} ms; "
            f"median ask {statistics.median(t for *_, t in rows):.0f} ms"
        )
    for question, answer, _ in rows:
        print(f"\nQ: {question}\nA [{answer.status}]: {answer.answer}")
        for warning in answer.warnings:
            print(f"   warning: {warning}")


if __name__ == "__main__":
    main()

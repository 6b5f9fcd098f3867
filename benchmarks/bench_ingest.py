"""Ingest throughput as a share of the raw encoder's, on the same texts, batch size and backend.

    .venv/bin/python benchmarks/bench_ingest.py [--docs 2000] [--embedder minilm] [--json out.json]

The texts are the first N BioASQ corpus rows, chunked exactly as the pipeline
chunks them. Three timings, models loaded and warmed first, in --repeat
interleaved rounds (medians reported: the load of a shared machine drifts):

1. raw: ``embedder.embed_passages(all chunk texts)`` in one call (the best case:
   one length sort over everything, batches of ``CURBSIDE_EMBED_BATCH_SIZE``);
2. pipeline: ``Ingestor.ingest_prepared`` into a fresh home each round — hashing, originals,
   jobs, chunking (token counting), embedding in groups, both indexes, one
   transaction per document;
3. raw again, in the groups the pipeline embeds (``Ingestor.embed_group`` chunks
   per call), to separate the cost of grouping from the rest.

Target: pipeline throughput >= 0.8 x raw (1).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "retrieval" / "bioasq-snippets-dev"
TARGET = 0.8


def bench(data: Path, n_docs: int, embedder_name: str, repeat: int = 3) -> dict[str, Any]:
    from curbside.app import Curbside
    from curbside.evaluation.beir import load_beir
    from curbside.evaluation.retrieval import prepared_documents
    from curbside.settings import Settings

    rows = load_beir(data).corpus[:n_docs]
    with tempfile.TemporaryDirectory(prefix="curbside-bench-ingest-") as tmp:
        app = Curbside(Settings(home=Path(tmp) / "probe", embedder=embedder_name))
        embedder = app.embedder
        texts = [c.text for doc in prepared_documents(rows) for c in app.chunker.chunk(doc.loaded)]
        group = app.ingestor.embed_group
        embedder.embed_passages(texts[:64])  # load and warm the model outside every timing
        app.close()

        def raw_once() -> float:
            t0 = time.perf_counter()
            embedder.embed_passages(texts)
            return time.perf_counter() - t0

        def grouped_once() -> float:
            t0 = time.perf_counter()
            for start in range(0, len(texts), group):
                embedder.embed_passages(texts[start : start + group])
            return time.perf_counter() - t0

        def pipeline_once(n: int) -> tuple[float, float]:
            fresh = Curbside(Settings(home=Path(tmp) / f"home-{n}", embedder=embedder_name))
            try:
                fresh.embedder.warm_up()  # same class and settings as ``embedder``; loading is not timed
                report = fresh.ingestor.ingest_prepared(prepared_documents(rows), total=len(rows))
            finally:
                fresh.close()
            chunks = sum(o.chunks for o in report.outcomes)
            if report.failed or chunks != len(texts):
                raise SystemExit(f"pipeline ingest failed or chunked differently: {len(report.failed)} failed, "
                                 f"{chunks} chunks vs {len(texts)}")
            return report.seconds, report.embed_seconds

        # interleaved rounds, medians: the machine's load drifts between phases
        raws, groupeds, pipes, embeds = [], [], [], []
        for n in range(repeat):
            raws.append(raw_once())
            seconds, embed_seconds = pipeline_once(n)
            pipes.append(seconds)
            embeds.append(embed_seconds)
            groupeds.append(grouped_once())
        raw, grouped, pipeline = median(raws), median(groupeds), median(pipes)
        return {
            "embedder": embedder_name,
            "model": embedder.model_id,
            "backend": embedder.backend,
            "batch_size": embedder.batch_size,
            "embed_group": group,
            "docs": len(rows),
            "chunks": len(texts),
            "raw_seconds": round(raw, 2),
            "raw_grouped_seconds": round(grouped, 2),
            "pipeline_seconds": round(pipeline, 2),
            "pipeline_embed_seconds": round(median(embeds), 2),
            "repeat": repeat,
            "all_seconds": {"raw": [round(x, 2) for x in raws], "grouped": [round(x, 2) for x in groupeds],
                            "pipeline": [round(x, 2) for x in pipes]},
            "raw_chunks_per_s": round(len(texts) / raw, 1),
            "raw_grouped_chunks_per_s": round(len(texts) / grouped, 1),
            "pipeline_docs_per_s": round(len(rows) / pipeline, 1),
            "pipeline_chunks_per_s": round(len(texts) / pipeline, 1),
            "ratio": round(raw / pipeline, 3),
            "ratio_vs_grouped": round(grouped / pipeline, 3),
            "target": TARGET,
            "met": raw / pipeline >= TARGET,
            "load_average": os.getloadavg()[0],
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="BEIR directory (its corpus.jsonl)")
    parser.add_argument("--docs", type=int, default=2000, help="corpus rows to ingest")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds; medians are reported")
    parser.add_argument("--embedder", default="minilm", help="comma-separated embedder names")
    parser.add_argument("--json", type=Path, dest="json_path", help="also write the results to this file")
    args = parser.parse_args()

    results = [bench(args.data, args.docs, e.strip(), args.repeat) for e in args.embedder.split(",") if e.strip()]
    header = (f"{'embedder':<13}{'docs':>6}{'chunks':>8}{'raw ch/s':>10}{'grouped':>9}{'ingest ch/s':>12}"
              f"{'docs/s':>8}{'ratio':>7}  target >= {TARGET}")
    print(header)
    for r in results:
        print(
            f"{r['embedder']:<13}{r['docs']:>6}{r['chunks']:>8}{r['raw_chunks_per_s']:>10.1f}"
            f"{r['raw_grouped_chunks_per_s']:>9.1f}{r['pipeline_chunks_per_s']:>12.1f}{r['pipeline_docs_per_s']:>8.1f}"
            f"{r['ratio']:>7.3f}  {'met' if r['met'] else 'MISSED'}"
        )
        print(
            f"{'':<13}raw {r['raw_seconds']} s in one call; raw {r['raw_grouped_seconds']} s in groups of "
            f"{r['embed_group']}; pipeline {r['pipeline_seconds']} s, of which encoder {r['pipeline_embed_seconds']} s "
            f"(batch {r['batch_size']}, {r['backend']}); load average {r['load_average']:.2f}"
        )
    if args.json_path:
        args.json_path.write_text(json.dumps({"benchmark": "ingest", "results": results}, indent=2))
        print(f"\nwrote {args.json_path}")


if __name__ == "__main__":
    main()

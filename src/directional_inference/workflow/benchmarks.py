"""Summary of Snakemake's per-job benchmark files (logs/<phase>/<rule>/<wildcards>.benchmark.tsv) per rule."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..atomic import atomic_file


def job_seconds(path: str | Path) -> float:
    """A job's wall-clock seconds from its Snakemake benchmark file (its last row: a resumed job's file has one per try)."""
    return float(pd.read_csv(path, sep="\t")["s"].iloc[-1])


def benchmark_summary(logs_dir: str | Path) -> pd.DataFrame:
    """One row per (phase, rule): jobs, total and longest wall-clock seconds, CPU seconds, peak RSS (MB)."""
    rows = []
    for path in sorted(Path(logs_dir).rglob("*.benchmark.tsv")):
        relative = path.relative_to(logs_dir).parts
        frame = pd.read_csv(path, sep="\t")
        rows.append(
            {
                "phase": relative[0],
                "rule": relative[1] if len(relative) > 2 else path.name.split(".")[0],
                "s": frame["s"].iloc[-1],
                "cpu_time": frame.get("cpu_time", pd.Series([0.0])).iloc[-1],
                "max_rss": pd.to_numeric(frame["max_rss"], errors="coerce").iloc[-1],
            }
        )
    table = pd.DataFrame(rows, columns=["phase", "rule", "s", "cpu_time", "max_rss"])
    summary = (
        table.groupby(["phase", "rule"], sort=True)
        .agg(jobs=("s", "size"), total_s=("s", "sum"), longest_s=("s", "max"), cpu_s=("cpu_time", "sum"), peak_rss_mb=("max_rss", "max"))
        .reset_index()
        .round(2)
    )
    return summary


def summarise_benchmarks(logs_dir: str | Path, output: str | Path) -> pd.DataFrame:
    """``benchmark_summary`` written to ``output`` (CSV)."""
    summary = benchmark_summary(logs_dir)
    with atomic_file(output) as tmp:
        summary.to_csv(tmp, index=False)
    return summary

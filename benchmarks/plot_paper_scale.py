"""Draw the scale benchmark (``benchmarks/results/paper_scale.json``): per rule, the peak memory of its largest job and
the time of its longest job against the number of relations, and a table of the growth between sizes.

    .venv/bin/python benchmarks/plot_paper_scale.py [--results benchmarks/results/paper_scale.json] [--output benchmarks/results/paper_scale.png]

The table (``paper_scale.csv`` beside the figure) has one row per rule and size: relations, jobs, the largest job's peak
memory (MB) and the longest job's seconds, the rule's job-seconds in all, and the factor by which peak memory and time
grew from the next smaller size with the factor of relations beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
# the corpus-wide rules, in DAG order (the others: downloads, WordNet)
RULES = ("import_relations", "merge_relations", "describe_imported_corpus", "select_booqa_positives", "generate_booqa_negatives",
         "sample_booqa", "write_booqa_card", "validate_booqa", "build_entailment_graph", "gather_entailment_graph",
         "retrieve_booqa_evidence", "score_booqa")


def growth_table(records: list[dict]) -> pd.DataFrame:
    rows = []
    for record in records:
        for rule, jobs in pd.DataFrame(record["jobs"]).groupby("rule"):
            if rule in RULES:
                rows.append({"rule": rule, "relations": record["relations"], "jobs": len(jobs), "peak_mb": jobs["peak_mb"].max(),
                             "longest_s": jobs["seconds"].max(), "job_seconds": round(jobs["seconds"].sum(), 1)})
    table = pd.DataFrame(rows).sort_values(["rule", "relations"]).drop_duplicates(["rule", "relations"], keep="last")
    table["rule"] = pd.Categorical(table["rule"], RULES, ordered=True)
    table = table.sort_values(["rule", "relations"]).reset_index(drop=True)
    previous = table.groupby("rule", observed=True)[["relations", "peak_mb", "longest_s"]].shift()
    table["relations_factor"] = (table["relations"] / previous["relations"]).round(1)
    table["memory_factor"] = (table["peak_mb"] / previous["peak_mb"]).round(2)
    table["time_factor"] = (table["longest_s"] / previous["longest_s"]).round(2)
    return table


def main(argv: list[str] | None = None) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=REPO / "benchmarks" / "results" / "paper_scale.json")
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks" / "results" / "paper_scale.png")
    args = parser.parse_args(argv)
    records = json.loads(args.results.read_text())
    table = growth_table(records)
    table.to_csv(args.output.with_suffix(".csv"), index=False)
    figure, (memory, time) = plt.subplots(1, 2, figsize=(12, 5))
    for rule, rows in table.groupby("rule", observed=True):
        memory.plot(rows["relations"], rows["peak_mb"] / 1000, marker="o", label=rule)
        time.plot(rows["relations"], rows["longest_s"], marker="o", label=rule)
    memory.axhline(6, color="grey", linestyle="--", linewidth=1)
    memory.set(xscale="log", xlabel="relations", ylabel="peak memory of the largest job (GB)", title="memory")
    time.set(xscale="log", yscale="log", xlabel="relations", ylabel="seconds of the longest job", title="time")
    time.legend(fontsize=7, loc="upper left")
    figure.suptitle(f"Scale benchmark on {records[-1]['cpu']} ({records[-1]['cores']} cores)", fontsize=9)
    figure.tight_layout()
    figure.savefig(args.output, dpi=110, metadata={"Software": None})
    print(table.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())

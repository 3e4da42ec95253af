"""Draw the scale benchmark (``benchmarks/results/paper_scale.json``): per rule, the peak memory of its largest job and
the time of its longest job against the number of relations, and a table of the growth between sizes.

    .venv/bin/python benchmarks/plot_paper_scale.py [--results benchmarks/results/paper_scale.json] [--output benchmarks/results/paper_scale.png]
        [--markdown docs/run-times.md]

The table (``paper_scale.csv`` beside the figure) has one row per rule and size: relations, jobs, the largest job's peak
memory (MB) and the longest job's seconds, the rule's job-seconds in all, and the factor by which peak memory and time
grew from the next smaller size with the factor of relations beside them. With ``--markdown``, the records that measured
spill become the generated block of that document (``spill_markdown``; a test keeps docs/run-times.md current).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
# the corpus-wide rules, in DAG order (the others: downloads, WordNet)
PARAMETERS = REPO / "benchmarks" / "synthetic_relations.json"  # the generator's parameters, fitted on the default's relations
RULES = (
    "import_relations",
    "merge_relations",
    "describe_imported_corpus",
    "select_booqa_positives",
    "generate_booqa_negatives",
    "sample_booqa",
    "write_booqa_card",
    "validate_booqa",
    "build_entailment_graph",
    "gather_entailment_graph",
    "retrieve_booqa_evidence",
    "score_booqa",
)


def growth_table(records: list[dict]) -> pd.DataFrame:
    rows = []
    for record in records:
        for rule, jobs in pd.DataFrame(record["jobs"]).groupby("rule"):
            if rule in RULES:
                rows.append(
                    {
                        "rule": rule,
                        "relations": record["relations"],
                        "jobs": len(jobs),
                        "peak_mb": jobs["peak_mb"].max(),
                        "longest_s": jobs["seconds"].max(),
                        "job_seconds": round(jobs["seconds"].sum(), 1),
                    }
                )
    table = pd.DataFrame(rows).sort_values(["rule", "relations"]).drop_duplicates(["rule", "relations"], keep="last")
    table["rule"] = pd.Categorical(table["rule"], RULES, ordered=True)
    table = table.sort_values(["rule", "relations"]).reset_index(drop=True)
    previous = table.groupby("rule", observed=True)[["relations", "peak_mb", "longest_s"]].shift()
    table["relations_factor"] = (table["relations"] / previous["relations"]).round(1)
    table["memory_factor"] = (table["peak_mb"] / previous["peak_mb"]).round(2)
    table["time_factor"] = (table["longest_s"] / previous["longest_s"]).round(2)
    return table


BLOCK_START, BLOCK_END = "<!-- scale:start -->", "<!-- scale:end -->"


def _minutes(seconds: float) -> str:
    whole = int(round(seconds))
    return f"{whole // 60} min {whole % 60} s" if whole >= 60 else f"{whole} s"


def base_relations(path: Path = PARAMETERS) -> int:
    """The default's English relations that a multiple of 1 stands for: those the generator's parameters were fitted on."""
    return int(json.loads(path.read_text(encoding="utf-8"))["model"]["base_relations"])


def spill_markdown(records: list[dict], base: int | None = None) -> str:
    """The records that measured spill (each job's scratch folder, sampled), as Markdown: one column per size (the last
    record of each), per corpus-wide rule its largest job's peak memory, its largest spill with the ratio to that job's
    input, and its longest job's time; above, each run's relations, workflow time, lowest free disk, CPU and code."""
    measured = {}
    for record in records:
        if record["jobs"] and all("spill_mb" in job for job in record["jobs"]):
            measured[record["relations"]] = record
    runs = [measured[k] for k in sorted(measured)]
    lines = [
        "| | " + " | ".join(f"{r['multiple']:g}x" for r in runs) + " |",
        "|---" * (len(runs) + 1) + "|",
        "| synthetic relations made (after the merge) | " + " | ".join(f"{r['relations']:,} ({r['merged_relations']:,})" for r in runs) + " |",
        "| BoOQA entries (windows) | " + " | ".join(f"{r['booqa'].get('entries', 0):,} ({r['booqa'].get('windows', 0):,})" for r in runs) + " |",
        "| workflow wall-clock | " + " | ".join(_minutes(r["workflow_seconds"]) for r in runs) + " |",
        "| free disk: start (lowest), GB | " + " | ".join(f"{r['free_disk_gb_at_start']} ({r['free_disk_gb_lowest']})" for r in runs) + " |",
    ]
    for rule in RULES:
        cells = []
        for run in runs:
            jobs = [job for job in run["jobs"] if job["rule"] == rule]
            if not jobs:
                cells.append("-")
                continue
            spill = max(jobs, key=lambda job: job["spill_mb"] or 0)  # None: the job keeps no scratch folder
            if spill["spill_mb"] is None:
                spilled = "no scratch"
            else:
                ratio = f" ({spill['spill_mb'] / spill['input_mb']:.1f}x)" if spill["input_mb"] and spill["spill_mb"] else ""
                spilled = f"{spill['spill_mb']:,.0f} MB{ratio}"
            cells.append(f"{max(j['peak_mb'] for j in jobs):,.0f} MB; {spilled}; {_minutes(max(j['seconds'] for j in jobs))}")
        lines.append(f"| `{rule}` | " + " | ".join(cells) + " |")
    base = base_relations() if base is None else base
    cpus = sorted({r["cpu"] for r in runs})
    codes = ", ".join(f"{r['multiple']:g}x {r.get('code', 'not recorded')}" for r in runs)
    return (
        "Per rule and size: the largest job's peak memory; the largest spill (its scratch folder, sampled: DuckDB's "
        "spill and the job's staging files) and its ratio to that job's input; the longest job's time. "
        f"{'; '.join(cpus)}, {runs[-1]['cores']} cores; code: {codes}. A multiple is of the default's {base:,} English "
        "relations, those the generator's parameters were fitted on (`benchmarks/synthetic_relations.json`); the generator "
        'writes whole synthetic articles, so it makes about that many relations (the row "synthetic relations made"), '
        "fewer after the merge drops repeated ones. Generated from `benchmarks/results/paper_scale.json` by "
        "`.venv/bin/python benchmarks/plot_paper_scale.py --markdown docs/run-times.md`.\n\n" + "\n".join(lines) + "\n"
    )


def splice(document: str, block: str) -> str:
    from directional_inference.generated import splice_block

    return splice_block(document, BLOCK_START, BLOCK_END, block)


def main(argv: list[str] | None = None) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=REPO / "benchmarks" / "results" / "paper_scale.json")
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks" / "results" / "paper_scale.png")
    parser.add_argument("--markdown", type=Path, help="a document whose scale block to rewrite (docs/run-times.md)")
    args = parser.parse_args(argv)
    records = json.loads(args.results.read_text())
    if args.markdown:
        args.markdown.write_text(splice(args.markdown.read_text(encoding="utf-8"), spill_markdown(records)), encoding="utf-8")
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

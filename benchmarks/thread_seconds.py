"""The thread-seconds of Table 5's jobs (each job's threads times its seconds), by rule, each trained model's best dev
AUCnorm and Table 5's English rows: old code against new, each a run from a clean clone on the same CPU model.

    .venv/bin/python benchmarks/thread_seconds.py record 992529d=../run-992529d --note "..."   # a finished run
    .venv/bin/python benchmarks/thread_seconds.py record c78f841                               # a run_footprint.json row
    .venv/bin/python benchmarks/thread_seconds.py compare 992529d HEAD-COMMIT                  # on one CPU model
    .venv/bin/python benchmarks/thread_seconds.py compare 992529d@2026-12-06 9e673f9@2026-12-06  # runs of one day

A run's folder gives every job's seconds from its benchmark file, its threads from the run's Snakemake log (a job's
block names them where they are more than one), each trial's best dev AUCnorm from its ``training.json`` and Table 5's
rows. A row of ``benchmarks/results/run_footprint.json`` keeps no threads per job: it is taken only where its
invocations' threads-times-time (from the log) equals its job seconds, that is where every job ran on one thread.
Runs are kept in ``benchmarks/results/table5_thread_seconds.json`` by commit, CPU and day (a run's day: when its Table 5
was written); ``compare`` reads two of the same CPU (a commit's newest run there, or that of the day named after an @)
and prints the change of the total, of each model's dev AUCnorm and of each Table 5 row against its interval.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_footprint import RECORDS, every_job_seconds, job_blocks  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "table5_thread_seconds.json"


def job_threads(log_text: str) -> dict[str, int]:
    """Each job's threads (by its benchmark file under logs/, without the suffix) as a Snakemake log's job blocks say:
    1 unless the block names more."""
    return {
        block["benchmark"].removeprefix("logs/").removesuffix(".benchmark.tsv"): block["threads"]  # every_job_seconds' key
        for block in job_blocks(log_text)
        if block["benchmark"]
    }


def best_dev(workdir: Path) -> dict[str, float]:
    """Each trial's best dev AUCnorm (percent, its ``training.json``), by its folder under results/models/."""
    return {
        str(record.parent.relative_to(workdir / "results" / "models")): round(
            100 * json.loads(record.read_text(encoding="utf-8"))["best"]["dev_auc_norm"], 2
        )
        for record in sorted((workdir / "results" / "models").rglob("training.json"))
    }


def by_rule(seconds: dict[str, float], threads: dict[str, int]) -> dict[str, float]:
    totals = defaultdict(float)
    for job, s in seconds.items():
        totals[job.split("/")[1]] += threads.get(job, 1) * s
    return {rule: round(total, 1) for rule, total in sorted(totals.items(), key=lambda item: -item[1])}


def of_run(commit: str, workdir: Path) -> dict:
    from directional_inference.compute import cpu_name

    seconds = every_job_seconds(workdir)
    log = "\n".join(path.read_text(encoding="utf-8") for path in sorted((workdir / ".snakemake" / "log").glob("*.log")))
    threads = {job: n for job, n in job_threads(log).items() if job in seconds}
    rules = by_rule(seconds, threads)
    written = datetime.fromtimestamp((workdir / "results" / "table5.csv").stat().st_mtime, timezone.utc)
    return {
        "commit": commit,
        "cpu": cpu_name(),
        "date": written.date().isoformat(),
        "source": f"the run's folder: {len(seconds)} benchmark files, threads from its Snakemake log",
        "jobs": len(seconds),
        "jobs_over_one_thread": sum(1 for n in threads.values() if n > 1),
        "thread_s": round(sum(rules.values()), 1),
        "thread_s_by_rule": rules,
        "best_dev_auc_norm": best_dev(workdir),
        "table5_en": table5_rows(workdir / "results" / "table5.csv"),
    }


def table5_rows(path: Path) -> dict[str, list[float]]:
    """Each row of Table 5 with an English number: [AUCnorm, its interval's low, high]."""
    import csv

    with open(path, newline="", encoding="utf-8") as handle:
        return {
            row["method"]: [float(row["en_auc_norm"]), float(row["en_auc_norm_low"]), float(row["en_auc_norm_high"])]
            for row in csv.DictReader(handle)
            if row["en_auc_norm"]
        }


def of_record(commit: str) -> dict:
    row = next(row for row in json.loads(RECORDS.read_text(encoding="utf-8"))["rows"] if row["commit"] == commit and row.get("job_seconds"))
    core_s = sum(invocation["core_s"] for invocation in row["invocations"].values())
    job_s = sum(row["job_seconds"].values())
    if abs(core_s - job_s) > 0.01 * job_s:
        raise SystemExit(f"the record of {commit}: threads x time {core_s:.0f} s against job time {job_s:.0f} s: its jobs' threads are unknown")
    rules = by_rule(row["job_seconds"], {})
    return {
        "commit": commit,
        "cpu": row["cpu"],
        "source": f"benchmarks/results/run_footprint.json (its job_seconds; threads x time from its log {core_s:.0f} s: one thread each)",
        "jobs": len(row["job_seconds"]),
        "jobs_over_one_thread": 0,
        "thread_s": round(sum(rules.values()), 1),
        "thread_s_by_rule": rules,
        "best_dev_auc_norm": None,
        "table5_en": None,
    }


def compare(old: dict, new: dict) -> dict:
    """The change of the thread-seconds; each model's dev AUCnorm (points) and each Table 5 row: whether the new number
    is within the old one's interval."""
    result = {"old": old["commit"], "new": new["commit"], "cpu": new["cpu"], "thread_s_change": round(new["thread_s"] / old["thread_s"] - 1, 4)}
    if old["best_dev_auc_norm"] and new["best_dev_auc_norm"]:
        shared = sorted(set(old["best_dev_auc_norm"]) & set(new["best_dev_auc_norm"]))
        result["dev_auc_norm_points"] = {m: round(new["best_dev_auc_norm"][m] - old["best_dev_auc_norm"][m], 2) for m in shared}
    if old["table5_en"] and new["table5_en"]:
        result["table5_within_old_interval"] = {
            method: old["table5_en"][method][1] <= number <= old["table5_en"][method][2]
            for method, (number, _, _) in new["table5_en"].items()
            if method in old["table5_en"]
        }
    return result


def runs_of(runs: list[dict], name: str) -> list[dict]:
    """The runs ``name`` names: a commit's, or with ``@DAY`` its runs of that day."""
    commit, _, day = name.partition("@")
    return [r for r in runs if r["commit"] == commit and (not day or r.get("date") == day)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    add = commands.add_parser("record", help="keep a run's figures")
    add.add_argument("run", metavar="COMMIT[=DIR]", help="a finished run's folder, or a commit whose run_footprint.json row to read")
    add.add_argument("--note", default="", help="how the run was made")
    pair = commands.add_parser("compare", help="the old code's run against the new, on one CPU model")
    pair.add_argument("old")
    pair.add_argument("new")
    args = parser.parse_args(argv)
    runs = json.loads(RESULTS.read_text(encoding="utf-8"))["runs"] if RESULTS.is_file() else []
    if args.command == "record":
        commit, _, folder = args.run.partition("=")
        run = (of_run(commit, Path(folder)) if folder else of_record(commit)) | {"note": args.note}
        key = (run["commit"], run["cpu"], run.get("date"))
        runs = [r for r in runs if (r["commit"], r["cpu"], r.get("date")) != key] + [run]
        RESULTS.write_text(json.dumps({"runs": runs}, indent=1) + "\n", encoding="utf-8")
        print(f"{RESULTS}: {run['commit']} on {run['cpu']}: {run['thread_s']} thread-seconds in {run['jobs']} jobs")
        return 0
    old, new = (runs_of(runs, name) for name in (args.old, args.new))
    shared = sorted({r["cpu"] for r in old} & {r["cpu"] for r in new})
    if not shared:
        raise SystemExit(
            f"{RESULTS}: no CPU model ran both {args.old} and {args.new} (runs: {sorted((r['commit'], r['cpu'], r.get('date') or '') for r in runs)})"
        )
    old_run, new_run = (max((r for r in found if r["cpu"] == shared[0]), key=lambda r: r.get("date") or "") for found in (old, new))
    print(json.dumps(compare(old_run, new_run), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

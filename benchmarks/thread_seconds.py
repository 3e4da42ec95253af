"""The thread-seconds of a run's jobs (each job's threads times its seconds), by rule, and each trained model's best dev
AUCnorm: old code against new, each run from a clean clone on the same CPU model.

    .venv/bin/python benchmarks/thread_seconds.py --old 992529d=../run-992529d --new c78f841 \\
        --output benchmarks/results/table5_thread_seconds.json

Each run is ``COMMIT=DIR``, a finished run's folder: every job's seconds from its benchmark file, its threads from the run's
Snakemake log (a job's block names them where they are more than one), each trial's best dev AUCnorm from its
``training.json``; or ``COMMIT`` alone, the run recorded in ``benchmarks/results/run_footprint.json`` (its
``job_seconds``); a record keeps no threads per job, so it is taken only where its invocations' threads-times-time
(from the log) equals its job seconds, that is where every job ran on one thread. The output says which runs, on which
CPU, and the change of the total.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_footprint import JOB_FIELD, JOB_START, RECORDS, every_job_seconds  # noqa: E402

BENCHMARK_LINE = re.compile(r"^\s+benchmark: logs/(\S+)\.benchmark\.tsv$")


def job_threads(log_text: str) -> dict[str, int]:
    """Each job's threads (by its benchmark file under logs/, without the suffix) as a Snakemake log's job blocks say."""
    threads, block = {}, None
    for line in log_text.splitlines():
        if JOB_START.match(line):
            block = {"threads": 1}
        elif block is not None and (found := BENCHMARK_LINE.match(line)):
            block["benchmark"] = found.group(1)
        elif block is not None and (found := JOB_FIELD.match(line)) and found.group(1) == "threads":
            block["threads"] = int(found.group(2))
        elif block is not None and (found := JOB_FIELD.match(line)) and found.group(1) == "jobid" and "benchmark" in block:
            threads[block["benchmark"]] = block["threads"]
    return threads


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
    return {
        "commit": commit,
        "cpu": cpu_name(),
        "source": f"the run's folder: {len(seconds)} benchmark files, threads from its Snakemake log",
        "jobs": len(seconds),
        "jobs_over_one_thread": sum(1 for n in threads.values() if n > 1),
        "thread_s": round(sum(rules.values()), 1),
        "thread_s_by_rule": rules,
        "best_dev_auc_norm": best_dev(workdir),
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
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True, metavar="COMMIT[=DIR]", help="the old code's run: its folder, or its record")
    parser.add_argument("--new", required=True, metavar="COMMIT[=DIR]", help="the new code's run")
    parser.add_argument("--note", default="", help="how the runs were made")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    old, new = (of_run(spec.split("=", 1)[0], Path(spec.split("=", 1)[1])) if "=" in spec else of_record(spec) for spec in (args.old, args.new))
    result = {
        "old": old,
        "new": new,
        "note": args.note,
        "thread_s_change": round(new["thread_s"] / old["thread_s"] - 1, 4),
        "same_cpu": old["cpu"] == new["cpu"],
    }
    text = json.dumps(result, indent=1) + "\n"
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What a finished run took, per scale: time, memory and disk, read from the run's own files, the CPU named.

    .venv/bin/python benchmarks/run_footprint.py record --workdir RUN --scale default --cores 2 --wall-clock 5400 [--commit C] [--note TEXT]
        [--snakemake-log "results/table5.csv=table5.log" ...] [--target "results/table1.csv results/table2.csv" ...]
    .venv/bin/python benchmarks/run_footprint.py record-tests --seconds 2985 --where "CI" --commit C --date D [--cpu NAME]
    .venv/bin/python benchmarks/run_footprint.py markdown [--markdown docs/run-times.md] [--readme README.md]

``record`` reads the run's Snakemake benchmark files (``logs/**/*.benchmark.tsv``: every job's wall-clock, CPU time and
peak resident memory) and measures its folders on disk (``resources/``, ``results/``, ``logs/``, ``.snakemake/``, a file
linked twice counted once, as ``du`` does), and adds a row to ``benchmarks/results/run_footprint.json`` (replacing the
row of the same scale and CPU). The wall-clock of the whole run is not in those files: give it as measured (``time``).
With ``--snakemake-log TARGET=LOG`` (an invocation's Snakemake output) it also records how busy that invocation kept
the cores: the threads of each job times its duration (from the log's start and "Finished jobid" stamps), summed, over
the cores times the invocation's wall-clock (``busy_share``; issue 45: Table 5 keeps both cores busy).
With ``--target "T1 T2 ..."`` (repeatable) it records, per target set, the jobs Snakemake plans for it from scratch
(a dry run with ``--forceall`` in the run's folder, with ``--snakemake-args``) and their time in this run (each job's
benchmark file): the time a run of that target alone spends in jobs, so at least that over the cores of wall-clock.
``markdown`` renders the rows as the block of docs/run-times.md and a line per scale in the README (a test fails when
either is stale).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECORDS = REPO / "benchmarks" / "results" / "run_footprint.json"
BLOCK_START, BLOCK_END = "<!-- footprint:start -->", "<!-- footprint:end -->"
SUMMARY_START, SUMMARY_END = "<!-- footprint-summary:start -->", "<!-- footprint-summary:end -->"  # the README's lines
FOLDERS = ("resources", "results", "logs", ".snakemake")


def disk_mb(root: Path, seen: set[tuple[int, int]]) -> float:
    """Allocated megabytes under ``root`` (``du``'s count: blocks, each inode once across calls sharing ``seen``)."""
    total = 0
    for directory, _, files in os.walk(root):
        for name in files:
            stat = os.lstat(os.path.join(directory, name))
            if (stat.st_dev, stat.st_ino) not in seen:
                seen.add((stat.st_dev, stat.st_ino))
                total += stat.st_blocks * 512
    return round(total / 1e6, 1)


def job_figures(workdir: Path) -> dict:
    """Jobs, their summed wall-clock and CPU seconds, and the largest peak RSS with its rule, from the benchmark files."""
    from directional_inference.workflow.benchmarks import benchmark_summary

    summary = benchmark_summary(workdir / "logs")
    largest = summary.loc[summary["peak_rss_mb"].fillna(0).idxmax()]
    return {
        "jobs": int(summary["jobs"].sum()),
        "job_s": round(float(summary["total_s"].sum()), 1),
        "cpu_s": round(float(summary["cpu_s"].sum()), 1),
        "peak_rss_mb": float(largest["peak_rss_mb"]),
        "peak_rule": largest["rule"],
    }


STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$")
JOB_START = re.compile(r"^(?:local)?(?:rule|checkpoint) \w+:$")
JOB_FIELD = re.compile(r"^\s+(jobid|threads): (\d+)$")
JOB_END = re.compile(r"^Finished jobid: (\d+)")
BENCHMARK_LINE = re.compile(r"^\s+benchmark: (\S+)$")


def _stamp(found: re.Match) -> datetime.datetime:
    return datetime.datetime.strptime(" ".join(found.group(1).split()), "%a %b %d %H:%M:%S %Y")


def job_blocks(log_text: str) -> list[dict]:
    """Each job a Snakemake log shows starting, from its block (``rule X:`` and the indented lines under it): its start
    stamp (None before the log's first), jobid, threads (1 unless the block names more) and benchmark file (None)."""
    stamp, blocks, block = None, [], None
    for line in log_text.splitlines():
        if found := STAMP.match(line):
            stamp, block = _stamp(found), None
        elif JOB_START.match(line):
            block = {"start": stamp, "jobid": None, "threads": 1, "benchmark": None}
            blocks.append(block)
        elif block is not None and line.startswith(" "):
            if found := JOB_FIELD.match(line):
                block[found.group(1)] = int(found.group(2))
            elif found := BENCHMARK_LINE.match(line):
                block["benchmark"] = found.group(1)
        else:
            block = None
    return blocks


def busy_share(log_text: str, cores: int) -> dict:
    """How busy one Snakemake invocation kept ``cores``: every job's threads (1 unless its block names more) times the
    seconds from its start stamp to its "Finished jobid" stamp, summed (``core_s``), over ``cores`` times the span from
    the first start to the last finish (``wall_s``). Jobs that never finished are left out."""
    jobs = {block["jobid"]: block for block in job_blocks(log_text) if block["jobid"] is not None and block["start"] is not None}
    stamp, ends = None, {}
    for line in log_text.splitlines():
        if found := STAMP.match(line):
            stamp = _stamp(found)
        elif found := JOB_END.match(line):
            ends[int(found.group(1))] = stamp
    done = {job: (jobs[job]["start"], end, jobs[job]["threads"]) for job, end in ends.items() if job in jobs}
    if not done:
        return {"jobs": 0, "wall_s": 0.0, "core_s": 0.0, "busy_share": None}
    wall = (max(end for _, end, _ in done.values()) - min(start for start, _, _ in done.values())).total_seconds()
    core_s = sum(min(threads, cores) * (end - start).total_seconds() for start, end, threads in done.values())
    return {"jobs": len(done), "wall_s": wall, "core_s": core_s, "busy_share": round(core_s / (cores * wall), 4) if wall else None}


def target_job_time(workdir: Path, target: str, dry_run: str) -> dict:
    """The jobs of ``target`` (one or several targets, space-separated) as ``dry_run`` (a ``--forceall`` dry run's
    output) lists them, and their seconds in this run, each from its benchmark file; ``unmeasured``: the planned jobs
    without one (local rules and jobs this run did not make)."""
    from directional_inference.workflow.benchmarks import job_seconds
    from directional_inference.tools.plan import JOB_HEADER

    jobs = sum(1 for line in dry_run.splitlines() if JOB_HEADER.match(line))
    files = [workdir / found.group(1) for line in dry_run.splitlines() if (found := BENCHMARK_LINE.match(line))]
    measured = [job_seconds(path) for path in files if path.is_file()]
    return {"target": target, "jobs": jobs, "job_s": round(sum(measured), 1), "unmeasured": jobs - len(measured)}


def planned_from_scratch(workdir: Path, target: str, snakemake_args: str = "") -> str:
    """The output of a dry run of ``target`` with every job forced, in the run's folder, by this environment's Snakemake."""
    snakemake = Path(sys.executable).with_name("snakemake")
    command = [str(snakemake), *target.split(), "--forceall", "--dry-run", "--cores", "2", *snakemake_args.split()]
    return subprocess.run(command, cwd=workdir, capture_output=True, text=True, check=True).stdout


def every_job_seconds(workdir: Path) -> dict[str, float]:
    """Every job's seconds in the run (its benchmark file's last row), keyed by the file's path under logs/ without
    the suffix: what the run forecast (``tools.run_forecast``) reads a job's time from."""
    from directional_inference.workflow.benchmarks import job_seconds

    return {
        str(path.relative_to(workdir / "logs")).removesuffix(".benchmark.tsv"): round(job_seconds(path), 2)
        for path in sorted((workdir / "logs").rglob("*.benchmark.tsv"))
    }


def probe_figures(workdir: Path, snakemake_args: str = "") -> dict:
    """The precision probe's step of the run's main model on this machine at the jobs' threads, in the format its jobs
    take, measured when the run is recorded (``tools.run_forecast.measure_rate``): the run forecast scales a recorded
    model scoring's time by this machine's forward step over this one. Empty where the run's config or model is not in
    its folder."""
    from directional_inference.compute import model_job_threads
    from directional_inference.config_tree import run_config
    from directional_inference.tools.run_forecast import measure_rate, model_config_dir

    if not (workdir / "config" / "config.yaml").is_file():
        return {}
    config = run_config(snakemake_args.split(), workdir)
    alias = config["training"]["language_models"][0]
    model_dir = model_config_dir(alias, config, workdir)
    if model_dir is None:
        return {}
    threads = model_job_threads(config["training"]["threads"], 1)
    rate = measure_rate(model_dir, config["training"]["precision"], threads)
    return {"model": alias, "threads": threads, "precision": rate.precision, "train_s": rate.train_s, "forward_s": rate.forward_s}


def record(
    workdir: Path,
    scale: str,
    cores: int,
    wall_clock_s: float | None,
    note: str,
    commit: str | None = None,
    logs: dict[str, Path] | None = None,
    targets: list[str] = (),
    snakemake_args: str = "",
    forecast_logs: dict[str, Path] | None = None,
) -> dict:
    from directional_inference.compute import cpu_name

    seen: set[tuple[int, int]] = set()
    disk = {folder: disk_mb(workdir / folder, seen) for folder in FOLDERS}
    commit = commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=workdir, capture_output=True, text=True).stdout.strip()
    return {
        "scale": scale,
        "cpu": cpu_name(),
        "cores": cores,
        "commit": commit or None,
        "date": datetime.date.today().isoformat(),
        "wall_clock_s": wall_clock_s,
        **job_figures(workdir),
        "disk_mb": disk,
        "disk_total_mb": round(sum(disk.values()), 1),
        "note": note,
        **({"invocations": {target: busy_share(Path(log).read_text(encoding="utf-8"), cores) for target, log in logs.items()}} if logs else {}),
        **({"targets": [target_job_time(workdir, t, planned_from_scratch(workdir, t, snakemake_args)) for t in targets]} if targets else {}),
        "job_seconds": every_job_seconds(workdir),
        "probe": probe_figures(workdir, snakemake_args),
        **(
            {"forecasts": {name: forecast_said(Path(log).read_text(encoding="utf-8")) for name, log in forecast_logs.items()}}
            if forecast_logs
            else {}
        ),
    }


FORECAST = re.compile(r"forecast:?\s+(about (?:(\d+) h )?(\d+) min for .*)")


def forecast_said(output: str) -> dict:
    """The forecast a run (its first ``forecast:`` line) or ``bin/doctor`` (its ``note forecast`` line) printed: the
    line, and its seconds."""
    found = next(found for line in output.splitlines() if (found := FORECAST.search(line)))
    return {"line": found.group(1), "seconds": (int(found.group(2) or 0) * 60 + int(found.group(3))) * 60}


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    minutes, s = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min {s} s"


def footprint_markdown(rows: list[dict]) -> str:
    lines = [
        "| scale | CPU | cores | wall-clock | jobs (job time) | largest job: peak RSS | disk: resources / results / logs + .snakemake | "
        "disk in all | commit, date |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        d = r["disk_mb"]
        lines.append(
            f"| {r['scale']} | {r['cpu']} | {r['cores']} | {_duration(r['wall_clock_s'])} | {r['jobs']} ({_duration(r['job_s'])}) | "
            f"{r['peak_rss_mb'] / 1000:.2f} GB (`{r['peak_rule']}`) | {d['resources'] / 1000:.2f} / {d['results'] / 1000:.2f} / "
            f"{(d['logs'] + d['.snakemake']) / 1000:.2f} GB | {r['disk_total_mb'] / 1000:.2f} GB | {r['commit']}, {r['date']} |"
        )
    notes = [
        f"- {r['scale']}: {r['note']}"
        + "".join(
            f"; `{target}` alone: {_duration(i['wall_s'])} in {i['jobs']} jobs, {i['busy_share']:.0%} of the cores busy (threads x time of its jobs, from its log)"
            for target, i in r.get("invocations", {}).items()
        )
        + "".join(f"; forecast before it ({name}): {_duration(f['seconds'])}" for name, f in r.get("forecasts", {}).items())
        for r in rows
        if r.get("note")
    ]
    return (
        "Generated from `benchmarks/results/run_footprint.json` by `.venv/bin/python benchmarks/run_footprint.py markdown --markdown "
        "docs/run-times.md` (each row recorded from a finished run's own benchmark files and folders).\n\n"
        + "\n".join(lines)
        + "\n"
        + ("\n" + "\n".join(notes) + "\n" if notes else "")
        + "".join(targets_markdown(r) for r in rows if r.get("targets"))
    )


def targets_markdown(row: dict) -> str:
    """Per target of a row: the jobs a run of it alone makes, their time in the recorded run, that time over the cores
    (no run of the target alone can take less wall-clock), and its wall-clock where it was run alone."""
    alone = row.get("invocations", {})
    lines = [
        f"\nPer target, {row['scale']} scale ({row['cpu']}, {row['cores']} cores, commit {row['commit']}): the jobs a run of the target "
        "alone from scratch makes (a `--forceall` dry run), their time in this run (each job's benchmark file), and so the "
        "least wall-clock it can take on these cores; measured alone where the run made it alone.\n",
        f"| target | jobs | job time | at least, on {row['cores']} cores | alone (measured) |",
        "|---|---|---|---|---|",
    ]
    for t in row["targets"]:
        jobs = f"{t['jobs']} ({t['unmeasured']} without a benchmark file)" if t["unmeasured"] else str(t["jobs"])
        measured = alone.get(t["target"])
        wall = f"{_duration(measured['wall_s'])} ({measured['busy_share']:.0%} busy)" if measured else "-"
        lines.append(f"| `{t['target']}` | {jobs} | {_duration(t['job_s'])} | {_duration(t['job_s'] / row['cores'])} | {wall} |")
    return "\n".join(lines) + "\n"


def summary_markdown(rows: list[dict]) -> str:
    """One line per recorded scale (its newest row), for the README: wall-clock, the largest job's memory and the disk,
    the CPU named (a row without a whole run's wall-clock, such as a run's copy re-made at other settings, has none)."""
    newest = {}
    for r in (r for r in rows if r["wall_clock_s"] is not None):
        if r["scale"] not in newest or r["date"] >= newest[r["scale"]]["date"]:
            newest[r["scale"]] = r
    rows = list(newest.values())
    return "".join(
        f"- **{r['scale']}**: {_duration(r['wall_clock_s'])} on {r['cores']} cores of an {r['cpu']} ({r['date']}, commit "
        f"{r['commit']}); largest job {r['peak_rss_mb'] / 1000:.1f} GB of memory; {r['disk_total_mb'] / 1000:.1f} GB of disk.\n"
        for r in rows
    )


def suite_markdown(runs: list[dict]) -> str:
    """The test suite's recorded runs (``bin/test``, the README's test command): where, which commit, the time."""
    lines = [
        "\nThe test suite (`bin/test`, the README's test command, every test):\n",
        "| where | CPU | commit, date | wall-clock |",
        "|---|---|---|---|",
    ]
    lines += [f"| {r['where']} | {r['cpu']} | {r['commit']}, {r['date']} | {_duration(r['seconds'])} |" for r in runs]
    return "\n".join(lines) + "\n"


def current_records() -> dict:
    return json.loads(RECORDS.read_text(encoding="utf-8")) if RECORDS.is_file() else {"rows": []}


def current_rows() -> list[dict]:
    return current_records()["rows"]


def current_block() -> str:
    suite = current_records().get("test_suite", [])
    return footprint_markdown(current_rows()) + (suite_markdown(suite) if suite else "")


def splice(document: str, block: str, markers: tuple[str, str] = (BLOCK_START, BLOCK_END)) -> str:
    from directional_inference.generated import splice_block

    return splice_block(document, *markers, block)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    add = commands.add_parser("record", help="add a finished run's row")
    add.add_argument("--workdir", type=Path, required=True, help="the run's working directory")
    add.add_argument("--scale", required=True, help="smoke, default or paper (or another name)")
    add.add_argument("--cores", type=int, required=True, help="the run's --cores")
    add.add_argument("--wall-clock", type=float, default=None, help="the whole run's wall-clock in seconds, as measured")
    add.add_argument("--note", default="", help="what else a reader must know (shared cores, the target)")
    add.add_argument("--commit", default=None, help="the workflow's commit (default: the run directory's HEAD)")
    add.add_argument("--target", action="append", default=[], help="a target (several: space-separated) whose jobs' time to record")
    add.add_argument("--snakemake-args", default="", help="what the run gave Snakemake besides its targets (e.g. --configfile config/smoke.yaml)")
    add.add_argument(
        "--snakemake-log",
        action="append",
        default=[],
        metavar="TARGET=LOG",
        help="an invocation's Snakemake output: record how busy it kept the cores",
    )
    add.add_argument(
        "--forecast-log",
        action="append",
        default=[],
        metavar="NAME=LOG",
        help="the output of bin/doctor or of the run: record the forecast it printed before the run (NAME: who said it)",
    )
    suite = commands.add_parser("record-tests", help="add a run of the test suite (bin/test) as measured")
    suite.add_argument("--seconds", type=float, required=True, help="its wall-clock, as measured")
    suite.add_argument("--where", required=True, help="where it ran (CI, or this machine and how)")
    suite.add_argument("--commit", required=True)
    suite.add_argument("--date", required=True)
    suite.add_argument("--cpu", default=None, help="the CPU it ran on (default: this machine's; 'not recorded' where unknown)")
    show = commands.add_parser("markdown", help="print the block, or write it into a document")
    show.add_argument("--markdown", type=Path, default=None, help="a document with the footprint:start/end markers")
    show.add_argument("--readme", type=Path, default=None, help="a document with the footprint-summary:start/end markers (README.md)")
    args = parser.parse_args(argv)
    records = current_records()
    if args.command == "record-tests":
        from directional_inference.compute import cpu_name

        run = {"where": args.where, "cpu": args.cpu or cpu_name(), "commit": args.commit, "date": args.date, "seconds": args.seconds}
        records["test_suite"] = [r for r in records.get("test_suite", []) if (r["where"], r["commit"]) != (run["where"], run["commit"])] + [run]
        RECORDS.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
        return 0
    if args.command == "record":
        logs = dict(item.split("=", 1) for item in args.snakemake_log)
        forecasts = dict(item.split("=", 1) for item in args.forecast_log)
        row = record(args.workdir, args.scale, args.cores, args.wall_clock, args.note, args.commit, logs, args.target, args.snakemake_args, forecasts)
        rows = [r for r in records["rows"] if (r["scale"], r["cpu"]) != (row["scale"], row["cpu"])] + [row]
        order = {"smoke": 0, "default": 1, "paper": 2}
        records["rows"] = sorted(rows, key=lambda r: (order.get(r["scale"], 3), r["scale"], r["cpu"]))
        RECORDS.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
        print(json.dumps(row, indent=1))
        return 0
    block = current_block()
    if args.markdown is None and args.readme is None:
        print(block)
    if args.markdown is not None:
        args.markdown.write_text(splice(args.markdown.read_text(encoding="utf-8"), block), encoding="utf-8")
    if args.readme is not None:
        summary = summary_markdown(current_rows())
        args.readme.write_text(splice(args.readme.read_text(encoding="utf-8"), summary, (SUMMARY_START, SUMMARY_END)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

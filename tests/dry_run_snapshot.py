"""The jobs that Snakemake's dry runs of the default target plan under the default, smoke and paper configs, each with
a second S&S model and both kinds of predictions file laid over: every job's rule, wildcards, inputs, outputs, logs,
benchmark, threads and resources (all but tmpdir, the machine's), in a copy of the workflow definition with no run in
it. A change that should not change what the run
computes (a refactoring of the rules, the layout, the run's plan) must leave these the same:

    .venv/bin/python tests/dry_run_snapshot.py --check    # exit 1, and the first differences, where a plan moved
    .venv/bin/python tests/dry_run_snapshot.py --update   # write tests/snapshots/dry-run-<config>.jsonl.gz again
    .venv/bin/python tests/dry_run_snapshot.py --check --definition ../baseline   # another checkout's plans

tests/test_dry_run_snapshot.py runs the check. The snapshots are gzipped JSON lines, one job a line, sorted (the paper's
6,000 jobs take 6 MB unpacked); ``zcat`` reads them.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
SNAPSHOTS = REPO / "tests" / "snapshots"
CONFIGS = {"default": [], "smoke": ["config/smoke.yaml"], "paper": ["config/paper.yaml"]}
# Where the copy of the definition stands in the snapshot's paths (the stand-ins and the user's files live in it)
ROOT = "<definition>"
FIELDS = ("rule", "wildcards", "input", "output", "log", "benchmark", "threads", "resources")
MACHINE_RESOURCES = ("tmpdir",)  # where the machine keeps temporary files, not the job's request


def _user_files(copy: Path) -> dict:
    """The overlay's user files, written in ``copy``: a LevyHolt predictions file and a BoOQA scores file (a parse
    checks their header and numbers; a dry run reads no more of them)."""
    (copy / "mine").mkdir()
    (copy / "mine" / "levyholt.tsv").write_text("premise\thypothesis\tscore\nvirus,cause,disease\tvirus,lead to,disease\t1\n", encoding="utf-8")
    (copy / "mine" / "booqa.tsv").write_text("id\tscore\nen-0\t0.5\n", encoding="utf-8")
    return {
        "llm": {"predictions": [{"file": "mine/levyholt.tsv", "model": "mine", "setting": "scores"}]},
        "evaluation": {"booqa_predictions": {"mine": {"file": "mine/booqa.tsv"}}},
    }


def overlay(copy: Path, scale: str) -> Path:
    """The file laid over ``scale``'s config in ``copy``: paper.yaml's stand-in inputs and pins, a second S&S model
    (``tiny``, pinned) in every table that compares models, and the two predictions files."""
    from directional_inference.config_tree import run_config
    from directional_inference.tools.plan_page import planning_overlay

    config = run_config(_config_args(scale), copy)
    keys = planning_overlay(copy / "stand-ins", config) if scale == "paper" else {}
    keys.setdefault("models", {})["tiny"] = "prajjwal1/bert-tiny@" + "1" * 40
    keys["training"] = {"language_models": [*config["training"]["language_models"], "tiny"]}
    for section, values in _user_files(copy).items():
        keys.setdefault(section, {}).update(values)
    path = copy / "mine" / "overlay.yaml"
    path.write_text(yaml.safe_dump(keys, sort_keys=True), encoding="utf-8")
    return path


def _config_args(scale: str, *extra: str) -> list[str]:
    files = [*CONFIGS[scale], *extra]
    return ["--configfile", *files] if files else []


def planned(scale: str, definition: Path = REPO) -> list[dict]:
    """The jobs the dry run of ``scale`` (with its overlay) plans with the workflow of ``definition`` (a checkout),
    each as its ``FIELDS``, in a fixed order."""
    from directional_inference.tools.plan import copy_definition, dry_run_jobs

    with tempfile.TemporaryDirectory(prefix="dry-run-snapshot-") as scratch:
        copy = copy_definition(definition, Path(scratch) / "definition")
        extra = overlay(copy, scale)
        jobs = dry_run_jobs(_config_args(scale, str(extra.relative_to(copy))), copy)
        root = str(copy)
    for job in jobs:
        job["resources"] = {key: value for key, value in (job.get("resources") or {}).items() if key not in MACHINE_RESOURCES}
    records = [{name: _relative(job.get(name), root) for name in FIELDS} for job in jobs]
    return sorted(records, key=lambda job: json.dumps(job, sort_keys=True))


def _relative(value, root: str):
    """``value`` with the copy's absolute path written as ``ROOT``."""
    if isinstance(value, str):
        return value.replace(root, ROOT)
    if isinstance(value, list):
        return [_relative(item, root) for item in value]
    if isinstance(value, dict):
        return {key: _relative(item, root) for key, item in sorted(value.items())}
    return value


def snapshot_path(scale: str) -> Path:
    return SNAPSHOTS / f"dry-run-{scale}.jsonl.gz"


def read_snapshot(scale: str) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(snapshot_path(scale).read_bytes()).decode("utf-8").splitlines()]


def write_snapshot(scale: str, jobs: list[dict]) -> None:
    """The snapshot, the same bytes for the same jobs (no time in the gzip header)."""
    SNAPSHOTS.mkdir(exist_ok=True)
    text = "".join(json.dumps(job, sort_keys=True, ensure_ascii=False) + "\n" for job in jobs)
    snapshot_path(scale).write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def differences(expected: list[dict], actual: list[dict], limit: int = 10) -> list[str]:
    """The jobs planned in one and not the other, at most ``limit`` of each, as lines to read."""
    old = {json.dumps(job, sort_keys=True) for job in expected}
    new = {json.dumps(job, sort_keys=True) for job in actual}
    return [f"- {line}" for line in sorted(old - new)[:limit]] + [f"+ {line}" for line in sorted(new - old)[:limit]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="compare each dry run with its snapshot")
    action.add_argument("--update", action="store_true", help="write each dry run's snapshot")
    parser.add_argument("--definition", type=Path, default=REPO, help="the checkout whose workflow plans (default: this one)")
    parser.add_argument("scales", nargs="*", metavar="SCALE", help=f"any of {', '.join(CONFIGS)} (default: all)")
    args = parser.parse_args(argv)
    if unknown := set(args.scales) - set(CONFIGS):
        parser.error(f"no config {', '.join(sorted(unknown))}: give any of {', '.join(CONFIGS)}")
    args.scales = args.scales or list(CONFIGS)
    moved = False
    for scale in args.scales:
        jobs = planned(scale, args.definition)
        if args.update:
            write_snapshot(scale, jobs)
            print(f"{snapshot_path(scale).relative_to(REPO)}: {len(jobs)} jobs")
        elif lines := differences(read_snapshot(scale), jobs):
            moved = True
            print(f"{scale}: the plan moved", *lines, sep="\n")
        else:
            print(f"{scale}: {len(jobs)} jobs, as the snapshot")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())

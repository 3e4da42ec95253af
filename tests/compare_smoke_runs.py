"""Whether two versions of the workflow give the smoke run the same bytes: each version (a commit, run here from
scratch, or a finished smoke run's folder) is run as the suite's smoke fixture runs it (config/smoke.yaml, 2 cores, the
inputs from BOOQA_MIRROR), one after the other, and every file under results/ is compared by its sha256. A change
meant to leave what the run computes alone (a refactoring) must give the same bytes:

    BOOQA_MIRROR=... .venv/bin/python tests/compare_smoke_runs.py bd83c1b HEAD --report tests/smoke-bytes-report.txt
    .venv/bin/python tests/compare_smoke_runs.py /path/to/finished/run HEAD   # a run made already (e.g. the fixture's repo)

Each commit runs with its own package (its src/ first on PYTHONPATH, in this environment), and both share one
number-format cache (DI_PRECISION_CACHE, as the suite sets it: measured by the first run that needs it, or the figures
of the finished run given), so that ``precision: auto`` picks one format for both. With a cache that starts empty,
the one trial that measures says so in its record (and its model card), where the other run's reads "measured earlier
on this machine": those files differ by that phrase; a cache filled by an earlier run gives no such difference. A run takes about 15 minutes on an AVX2 CPU of 2 cores
(an AMD EPYC of family 23), 5 on an Intel Xeon of family 6 model 167 (AMX). Exit 0 when every file is the same.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import PRECISION_FIGURES, REPO, SMOKE, SMOKE_THREADS  # this script's folder is first on sys.path


# The commit a checkout of this script was made from, kept in it (a folder given later is named by it)
SOURCE = ".source-commit"


def checkout(commit: str, destination: Path) -> Path:
    """The tree of ``commit`` in ``destination`` (git archive: tracked files only, as a clone has them)."""
    destination.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(destination)], input=archive.stdout, check=True)
    (destination / SOURCE).write_text(commit + "\n", encoding="utf-8")
    return destination


def smoke_run(workdir: Path) -> None:
    """The smoke run of the workflow in ``workdir``, with that workflow's package."""
    env = os.environ | {"PYTHONPATH": str(workdir / "src"), "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    snakemake = str(Path(sys.executable).with_name("snakemake"))
    result = subprocess.run([snakemake, "--cores", "2", *SMOKE, *SMOKE_THREADS], cwd=workdir, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"the smoke run in {workdir} failed ({result.returncode}):\n{result.stderr[-6000:]}")


def digests(run: Path) -> dict[str, str]:
    """results/ path -> sha256 of every file of a finished run."""
    return {
        path.relative_to(run).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted((run / "results").rglob("*"))
        if path.is_file()
    }


def finished_run(version: str, scratch: Path) -> tuple[Path, str]:
    """The run of ``version`` (a finished run's folder, or a commit run now in ``scratch``) and its name: the commit."""
    if Path(version).is_dir():
        if (figures := Path(version).parent / PRECISION_FIGURES).is_dir():  # the fixture keeps them beside its run
            shutil.copytree(figures, os.environ["DI_PRECISION_CACHE"], dirs_exist_ok=True)
        source = Path(version) / SOURCE
        return Path(version), f"{source.read_text(encoding='utf-8').strip()} (run before)" if source.is_file() else f"the run in {version}"
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", version], capture_output=True, text=True, check=True).stdout.strip()
    workdir = checkout(commit, scratch / commit)
    smoke_run(workdir)
    return workdir, commit


def compare(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """A line for every results/ file that is not the same in both: only in one, or other bytes."""
    return [
        f"{path}: {'only in the first' if path not in new else 'only in the second' if path not in old else 'other bytes'}"
        for path in sorted(old.keys() | new.keys())
        if old.get(path) != new.get(path)
    ]


def main(argv: list[str] | None = None) -> int:
    from directional_inference.compute import cpu_name

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="a commit (run now) or a finished smoke run's folder")
    parser.add_argument("second", help="a commit (run now) or a finished smoke run's folder")
    parser.add_argument("--report", type=Path, help="write the verdict to this file too")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="smoke-bytes-") as scratch:
        first, first_name = finished_run(args.first, Path(scratch))
        second, second_name = finished_run(args.second, Path(scratch))
        old, new = digests(first), digests(second)
    moved = compare(old, new)
    lines = [
        f"# tests/compare_smoke_runs.py: the smoke run's results/ of {first_name} against {second_name}",
        f"# {datetime.date.today().isoformat()}, {cpu_name()}",
        f"{len(old)} files in the first, {len(new)} in the second: " + ("every file the same bytes" if not moved else f"{len(moved)} not the same"),
        *moved,
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.report:
        args.report.write_text(text, encoding="utf-8")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())

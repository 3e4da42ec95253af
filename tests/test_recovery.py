"""Crashes and neighbours: after SIGKILL of Snakemake (during a download, a relation extraction, a training trial)
the same command completes and gives the artefacts of the uninterrupted smoke run, byte for byte; two runs side by
side in different directories share no state. Each test works in a copy of the finished smoke run."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import SMOKE, SMOKE_THREADS, copy_run, run_snakemake, tool_environment

pytestmark = pytest.mark.workflow

SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def _digests(path: Path) -> dict[str, str]:
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and p.name != ".snakemake_timestamp")
    return {str(f.relative_to(path)): hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def _kill_when(workdir: Path, args: list[str], ready, timeout: float = 300) -> None:
    """Start Snakemake in its own process group and SIGKILL the whole group (as a power loss would end it) once
    ``ready()`` holds while its job runs."""
    with open(workdir / "killed-run.log", "w") as log:
        process = subprocess.Popen([SNAKEMAKE, *args], cwd=workdir, env=tool_environment(), stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    deadline = time.monotonic() + timeout
    try:
        while not ready():
            assert process.poll() is None, f"finished before it could be killed:\n{(workdir / 'killed-run.log').read_text()[-3000:]}"
            assert time.monotonic() < deadline, "the job did not start in time"
            time.sleep(0.05)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _log_says(path: Path, text: str = ""):
    return lambda: path.is_file() and text in path.read_text(errors="replace")


# (output the killed job writes, the moment to kill: while the job runs)
SCENARIOS = {
    # zh-news: 4,924 files copied from the mirror into resources/.zh-news.<random>.part/ (about 4 s)
    "download": ("resources/zh-news", lambda w: any(w.glob("resources/.zh-news.*.part/cctv_xwlb/2014"))),
    # spaCy on 500 Reuters articles (about 15 s); killed once the job has opened its log
    "relation extraction": ("results/en/relations/0.parquet", lambda w: _log_says(w / "logs/relations/extract_relations/en/0.log")()),
    # one epoch of the tiny S&S model; killed after its first batch
    "training trial": ("results/models/tiny/sns/directional/trial-0/dev_scores.parquet",
                       lambda w: _log_says(w / "logs/training/train_sns_trial/tiny/sns/directional/trial-0.log", "epoch 0 batch 0")()),
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_after_sigkill_the_same_command_recovers_byte_identical_artefacts(smoke_repo, tmp_path, scenario):
    target, running = SCENARIOS[scenario]
    work = copy_run(smoke_repo, tmp_path / "run")
    output = work / target
    shutil.rmtree(output) if output.is_dir() else output.unlink()
    command = [target, "--cores", "2", *SMOKE, *SMOKE_THREADS]
    _kill_when(work, command, lambda: running(work))
    # what the issue saw: a lock that makes the next run stop, and the killed job marked incomplete
    assert list((work / ".snakemake" / "locks").glob("*.lock")) and any((work / ".snakemake" / "incomplete").iterdir())
    if scenario == "download":
        assert list((work / "resources").glob(".zh-news.*.part"))
    result = run_snakemake(work, *command)  # the same command: no --unlock, no --rerun-incomplete
    assert "Removed the Snakemake lock of a run that is no longer running" in result.stderr
    assert _digests(output) == _digests(smoke_repo / target)
    assert not list(work.glob("resources/.*.part")) and not list(work.glob("results/**/.*.part"))


# Targets in three phases: Chinese relations (LAC), a training trial (torch), a dataset card.
SIDE_BY_SIDE = ("results/zh/relations/1.parquet", "results/models/tiny/sns/directional/trial-0/dev_scores.parquet", "results/en/booqa/README.md")


def test_two_runs_side_by_side_share_no_state(smoke_repo, tmp_path):
    shared_home, shared_tmp = tmp_path / "home", tmp_path / "tmp"
    shared_home.mkdir()
    shared_tmp.mkdir()
    env = tool_environment() | {"HOME": str(shared_home), "TMPDIR": str(shared_tmp)}
    env.pop("XDG_CACHE_HOME", None)
    runs = []
    for name in ("a", "b"):
        work = copy_run(smoke_repo, tmp_path / name)
        for target in SIDE_BY_SIDE:
            (work / target).unlink()
        log = open(work / "side-by-side.log", "w")  # noqa: SIM115 - closed below
        runs.append((work, log, subprocess.Popen([SNAKEMAKE, *SIDE_BY_SIDE, "--cores", "1", *SMOKE], cwd=work, env=env,
                                                 stdout=log, stderr=subprocess.STDOUT)))
    for work, log, process in runs:
        assert process.wait(timeout=900) == 0, (work / "side-by-side.log").read_text()[-3000:]
        log.close()
        for target in SIDE_BY_SIDE:
            assert _digests(work / target) == _digests(smoke_repo / target), target
    # nothing written outside each run's directory: no file in the shared HOME or TMPDIR (empty directories that
    # Snakemake and torch create for their own temporaries are allowed)
    left = sorted(str(p.relative_to(tmp_path)) for p in (*shared_home.rglob("*"), *shared_tmp.rglob("*")) if p.is_file())
    assert left == []

"""Crashes and neighbours: after SIGKILL of Snakemake (during a download, a relation extraction, a training trial), of
each kind of out-of-core job (with or without Snakemake), and after a config change whose first job is killed, the
same command completes and gives the artefacts of an uninterrupted run, byte for byte, and leaves no scratch; two runs
side by side in different directories share no state. Each test works in a copy of the finished smoke run."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
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
        process = subprocess.Popen(
            [SNAKEMAKE, *args], cwd=workdir, env=tool_environment(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
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
    "training trial": (
        "results/models/tiny/sns/directional/trial-0/dev_scores.parquet",
        lambda w: _log_says(w / "logs/training/train_sns_trial/tiny/sns/directional/trial-0.log", " batch 0/")(),
    ),  # the first batch's loss line
    # the tiny LLM on the whole Directional test (1,784 pairs, two prompts); killed once it has chosen its number format
    "LLM scoring": (
        "results/llm/predictions/tiny_llm.tsv",
        lambda w: _log_says(w / "logs/llm_evaluation/score_llm_levyholt/tiny_llm.log", "number format")(),
    ),
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
        runs.append(
            (work, log, subprocess.Popen([SNAKEMAKE, *SIDE_BY_SIDE, "--cores", "1", *SMOKE], cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT))
        )
    for work, log, process in runs:
        assert process.wait(timeout=900) == 0, (work / "side-by-side.log").read_text()[-3000:]
        log.close()
        for target in SIDE_BY_SIDE:
            assert _digests(work / target) == _digests(smoke_repo / target), target
    # nothing written outside each run's directory: no file in the shared HOME or TMPDIR (empty directories that
    # Snakemake and torch create for their own temporaries are allowed)
    left = sorted(str(p.relative_to(tmp_path)) for p in (*shared_home.rglob("*"), *shared_tmp.rglob("*")) if p.is_file())
    assert left == []


HOLD_HOOK = Path(__file__).resolve().parent / "hold"  # its sitecustomize holds an engine job before its first query


def _run_and_kill(workdir: Path, args: list[str], jobs: dict[str, bool], timeout: float = 600) -> str | None:
    """Run Snakemake with ``args``, every out-of-core job held right before its first query (tests/hold): the first
    job of ``jobs`` (``<rule>@<wildcards>`` -> whole run) to get there is SIGKILLed there, and every other job let go.
    The kill takes the job's process alone, as an out-of-memory kill or a time limit ends it (Snakemake lives on, sees a
    failed job and ends when its other jobs have), or, where ``jobs`` says so, Snakemake's whole process group, as a
    power loss ends it. Returns the job killed, or None when the run ended without reaching one."""
    holds = workdir.parent / f"{workdir.name}-holds"
    holds.mkdir(exist_ok=True)
    env = tool_environment() | {"DI_HOLD_JOBS": str(holds), "PYTHONPATH": str(HOLD_HOOK)}
    with open(workdir / "killed-run.log", "w") as output:
        process = subprocess.Popen([SNAKEMAKE, *args], cwd=workdir, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    deadline, killed = time.monotonic() + timeout, None
    try:
        while process.poll() is None:
            assert time.monotonic() < deadline, "the run took too long"
            for flag in sorted(holds.glob("*.held")):
                job = flag.name.removesuffix(".held")
                if killed is None and job in jobs:
                    killed = job
                    if jobs[job]:
                        os.killpg(process.pid, signal.SIGKILL)
                    else:
                        with contextlib.suppress(ProcessLookupError, ValueError):
                            os.kill(int(flag.read_text()), signal.SIGKILL)
                flag.unlink(missing_ok=True)  # the killed job's flag, or another job let go
            time.sleep(0.02)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=timeout)
        shutil.rmtree(holds, ignore_errors=True)
    log = (workdir / "killed-run.log").read_text()[-3000:]
    assert (process.returncode != 0) if killed else (process.returncode == 0), log
    return killed


def _results(workdir: Path) -> dict[str, str]:
    return _digests(workdir / "results")


# Every kind of out-of-core job of the English Table 5 chain: the job (``<rule>@<wildcards>``), its output, and whether
# the kill takes Snakemake with it.
ENGINE_KILLS = {
    "merge_relations@lang=en": ("results/en/relations/merged.parquet", False),
    "select_booqa_positives@lang=en": ("results/en/booqa/positives.parquet", True),
    "generate_booqa_negatives@lang=en": ("results/en/booqa/negatives.parquet", False),
    "build_entailment_graph@lang=en,split=test,part=0": ("results/en/graphs/for_test.part-0.parquet", True),
    "retrieve_booqa_evidence@lang=en,split=test": ("results/en/evidence/test.parquet", False),
    "score_booqa@lang=en,split=test,method=graph_binc": ("results/booqa_scores/en/test/graph_binc.parquet", True),
}


def test_each_engine_job_killed_in_turn_then_the_same_command_gives_an_undisturbed_runs_bytes(smoke_repo, tmp_path):
    """The English relations are merged again (forced), and the out-of-core jobs of the chain are killed at their first
    query one after another, each in a rerun of the same command: the merge, positives, negatives, a graph part,
    evidence and a graph's scoring. A rerun only gets past a kill if it re-makes what the kill lost and what was made
    from it: without that, Snakemake plans nothing and the next job is never reached. (A job that ran beside a killed
    one and finished is forced once more, to be killed in its turn.) The run after the last kill completes with every
    artefact byte-identical to the undisturbed smoke run's, and no scratch folder or temporary file is left."""
    work = copy_run(smoke_repo, tmp_path / "run")
    scratch = tmp_path / "scratch"
    command = ["results/table5.csv", "--cores", "2", *SMOKE, *SMOKE_THREADS, "--config", f"scratch_root={scratch}"]
    # the finished run has nothing stale: a dry run marks nothing and plans nothing
    assert "Nothing to be done" in run_snakemake(work, *command, "-n").stdout
    assert not any((work / ".snakemake" / "incomplete").rglob("*"))
    pending = {job: whole_run for job, (_, whole_run) in ENGINE_KILLS.items()}
    force = ["--forcerun", "results/en/relations/merged.parquet"]
    while pending:
        killed = _run_and_kill(work, [*command, *force], pending)
        if killed is None:  # what is left finished beside a killed job: force the first of it
            force = ["--forcerun", ENGINE_KILLS[next(iter(pending))][0]]
            continue
        del pending[killed]
        force = []
        assert any(scratch.rglob("*")), f"{killed}: the kill left no scratch (the sweep's check would prove nothing)"
    result = run_snakemake(work, *command)
    assert _results(work) == _results(smoke_repo)
    assert "no longer follow their inputs" in result.stderr
    assert re.search(r"Removed \d+ scratch folder\(s\) that killed jobs left", result.stderr)
    assert not any(scratch.rglob("*")), sorted(scratch.rglob("*"))
    assert not list(work.glob("results/**/.*.part"))
    assert "Nothing to be done" in run_snakemake(work, *command, "-n").stdout


CHANGED_NEGATIVES = "booqa:\n  wsd: gloss_similarity\n  wsd_encoder: tiny\n"  # read by generate_booqa_negatives alone (English)


def test_a_config_change_whose_first_job_is_killed_ends_as_a_clean_run_of_the_new_config(smoke_repo, tmp_path):
    """The issue's case: a key that only the negatives read is changed, the negatives job is killed, and the same
    command run again must give what a clean run of the new config gives, not keep the old config's downstream."""
    runs = {}
    for name in ("clean", "killed"):
        runs[name] = copy_run(smoke_repo, tmp_path / name)
        (runs[name] / "config" / "changed.yaml").write_text(CHANGED_NEGATIVES)
    command = ["results/table5.csv", "--cores", "2", "--configfile", "config/smoke.yaml", "config/changed.yaml", *SMOKE_THREADS]
    run_snakemake(runs["clean"], *command)
    assert _run_and_kill(runs["killed"], command, {"generate_booqa_negatives@lang=en": False})
    run_snakemake(runs["killed"], *command)
    clean, killed, old = _results(runs["clean"]), _results(runs["killed"]), _results(smoke_repo)
    assert killed == clean
    changed = {path for path in clean if clean[path] != old.get(path)}
    assert {"en/booqa/negatives.parquet", "en/booqa/test.parquet", "en/evidence/test.parquet", "table5.csv"} <= changed


def test_a_changed_module_re_makes_what_its_rules_made_and_nothing_else(smoke_repo, tmp_path):
    """Code changes: an edit of the module that samples BoOQA re-makes the sampled splits and what was made from them
    (dry run), and not the LevyHolt side, whose scripts do not import it."""
    work = copy_run(smoke_repo, tmp_path / "run")
    module = work / "src" / "directional_inference" / "booqa" / "sampling.py"
    module.write_text(module.read_text() + "\n# an edit\n")
    result = run_snakemake(work, "results/table5.csv", "results/table1.csv", "--cores", "2", *SMOKE, "-n")
    assert "its code changed since it was made (" in result.stderr
    planned = {line.split()[0] for line in result.stdout.splitlines() if re.match(r"^\w+ +\d+$", line)}
    assert {"sample_booqa", "validate_booqa", "retrieve_booqa_evidence", "score_booqa", "make_booqa_table"} <= planned
    assert not planned & {"select_booqa_positives", "generate_booqa_negatives", "train_sns_trial", "score_levyholt", "make_levyholt_table"}

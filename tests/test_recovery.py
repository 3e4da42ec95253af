"""Crashes and neighbours: after SIGKILL of Snakemake (during a download, a training trial, an LLM's scoring), of a
relation extraction and each kind of out-of-core job inside its work (with or without Snakemake), of a scoring after a
saved batch, and after a config change whose first job is killed, the same command completes, reruns what the kill
lost and nothing else, and gives the artefacts of an uninterrupted run, byte for byte, leaving no scratch; two runs
side by side in different directories share no state. Each test works in a copy of the finished smoke run."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from conftest import HOOKS, SMOKE, SMOKE_THREADS, copy_run, run_snakemake, tool_environment
from directional_inference.scratch import job_folder
from directional_inference.tools.plan import JOB_HEADER

pytestmark = pytest.mark.workflow

SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def _digests(path: Path) -> dict[str, str]:
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file() and p.name != ".snakemake_timestamp")
    return {str(f.relative_to(path)): hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def _saved_position(path: Path, of: str) -> tuple[int, ...]:
    """Where the saved state in ``path`` (the file ``of``, or a ``.part`` of it) stands: a scoring's progress (``.npz``:
    batches scored) or a trial's checkpoint (``state.pt``: epoch, next batch)."""
    if of.endswith(".npz"):
        with np.load(path) as saved:
            return (int(saved["batches"]),)
    import torch

    saved = torch.load(path, weights_only=True)
    return (int(saved["epoch"]), int(saved["next_batch"]))


def _watch_saves(saves: dict[str, list[tuple[int, ...]]]) -> dict:
    """A ``watch`` of ``_run_and_kill``: the position of every save of each watched file, in order, into ``saves``."""
    return {target: (lambda part, target=target: saves[target].append(_saved_position(part, target))) for target in saves}


CHECKPOINTS = {"DI_CHECKPOINT_INTERVAL_S": "0"}  # a smoke trial checkpoints at its dev evaluation and its epoch's end
BATCHES = {"DI_SCORING_BATCH_ROWS": "8"}  # BoOQA's evidence in batches of 8 rows, every scoring's progress saved after each batch (tests/hooks)

# scenario -> (the output its job writes, what the kill holds: the output itself, or the job's resumable state, the
# write of it to kill at (the writes before it are published), the test hooks it runs with)
SCENARIOS = {
    # zh-news: 4,924 files copied from the mirror into resources/.zh-news.<random>.part/, killed with Snakemake once the
    # copy is whole and before its rename (a poll for a folder of the copy raced a fast machine's copy of about 4 s)
    "download": ("resources/zh-news", "resources/zh-news", 1, {}),
    # (relation extraction is killed inside its work with the chain it starts: CHAIN_KILLS)
    # one epoch of the tiny S&S model, killed at its second checkpoint (the epoch's end): the first, at its dev
    # evaluation, holds every batch trained, the best point and its dev scores
    "training trial": (
        "results/models/tiny/sns/directional/trial-0/dev_scores.parquet",
        ".checkpoints/tiny/sns/directional/trial-0/state.pt",
        2,
        CHECKPOINTS,
    ),
    # the tiny LLM on the whole Directional test (1,784 pairs, two prompts), killed at its third save of the first
    # prompt's scores (two batches saved)
    "LLM scoring": ("results/llm/predictions/tiny_llm.tsv", ".checkpoints/llm_scores/tiny_llm/zero-shot.npz", 3, BATCHES),
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_after_sigkill_the_same_command_recovers_byte_identical_artefacts(smoke_repo, tmp_path, scenario):
    """Snakemake is killed with its job (as a power loss ends it) once the job's output, or its resumable state, is
    written and before its rename. The same command then removes the dead run's lock, remakes the job's output byte
    for byte, and a job that had saved its state goes on from it: its first save comes after the one the kill left
    (the batches in it are not done again)."""
    target, held, at_write, hooks = SCENARIOS[scenario]
    work = copy_run(smoke_repo, tmp_path / "run")
    output = work / target
    shutil.rmtree(output) if output.is_dir() else output.unlink()
    command = [target, "--cores", "2", *SMOKE, *SMOKE_THREADS]
    assert held in _run_and_kill(work, command, {held: True}, at_write=at_write, env=hooks)[0]
    # what the issue saw: a lock that makes the next run stop, and the killed job marked incomplete
    assert list((work / ".snakemake" / "locks").glob("*.lock")) and any((work / ".snakemake" / "incomplete").iterdir())
    if scenario == "download":
        assert list((work / "resources").glob(".zh-news.*.part"))
    left = _saved_position(work / held, held) if held != target else None
    saves: dict = {held: []}
    _, log = _run_and_kill(
        work, command, {}, env=hooks, watch=_watch_saves(saves) if left else None
    )  # the same command: no --unlock, no --rerun-incomplete
    assert "Removed the Snakemake lock of a run that is no longer running" in log
    assert _digests(output) == _digests(smoke_repo / target)
    assert not list(work.glob("resources/.*.part")) and not list(work.glob("results/**/.*.part"))
    if left:
        assert saves[held] and saves[held][0] > left, f"saved at {left} before the kill, the rerun saved at {saves[held]}: it did not go on from it"
        assert not (work / held).exists()


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


def _run_and_kill(
    workdir: Path,
    args: list[str],
    kills: dict[str, bool],
    *,
    at_write: int = 1,
    env: dict | None = None,
    watch: dict | None = None,
    timeout: float = 600,
):
    """Run Snakemake with ``args``, every atomic write of a target of ``kills`` (output -> whole run) held once its
    ``.part`` is written, before the rename (tests/hooks): the job is SIGKILLed at its ``at_write``-th write of it,
    every other write let go. The kill takes the job's process alone, as an out-of-memory kill or a time
    limit ends it (Snakemake lives on, sees a failed job and ends when its other jobs have), or, where ``kills`` says
    so, Snakemake's whole process group, as a power loss ends it. Every job of ``kills`` that gets there is killed (a
    whole-run kill ends the run). ``watch`` (target -> function) is held too: its function is called with each write's
    ``.part`` before the write is let go. Returns the targets killed, each with its ``.part``'s size at the kill, and
    the run's log."""
    holds = workdir.parent / f"{workdir.name}-holds"
    holds.mkdir(exist_ok=True)
    env = (
        tool_environment()
        | (env or {})
        | {"DI_HOLD_JOBS": str(holds), "DI_HOLD_TARGETS": os.pathsep.join([*kills, *(watch or {})]), "PYTHONPATH": str(HOOKS)}
    )
    with open(workdir / "killed-run.log", "w") as output:
        process = subprocess.Popen([SNAKEMAKE, *args], cwd=workdir, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    deadline, killed, writes = time.monotonic() + timeout, {}, {}
    try:
        while process.poll() is None:
            assert time.monotonic() < deadline, "the run took too long"
            for flag in sorted(holds.glob("*.held")):
                hold = json.loads(flag.read_text())
                writes[hold["target"]] = writes.get(hold["target"], 0) + 1
                if hold["target"] in kills and writes[hold["target"]] == at_write:
                    killed[hold["target"]] = Path(hold["part"]).stat().st_size
                    if kills[hold["target"]]:
                        os.killpg(process.pid, signal.SIGKILL)
                        break
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(hold["pid"], signal.SIGKILL)
                elif hold["target"] in (watch or {}):
                    watch[hold["target"]](Path(hold["part"]))
                flag.unlink(missing_ok=True)  # the killed job's flag, or a write let go
            time.sleep(0.02)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=timeout)
        shutil.rmtree(holds, ignore_errors=True)
    log = (workdir / "killed-run.log").read_text()
    assert (process.returncode != 0) if killed else (process.returncode == 0), log[-3000:]
    return killed, log


def _results(workdir: Path) -> dict[str, str]:
    return _digests(workdir / "results")


JOB_STATS_ROW = re.compile(r"^(\w+)\s+(\d+)$")


def _jobs(log: str) -> tuple[Counter, Counter, set[tuple[str, str]], set[tuple[str, str]]]:
    """What a Snakemake run's log says of its jobs: the jobs it planned (per rule, from its "Job stats" table), the
    jobs that finished (per rule), and each finished and each started job's (rule, wildcards)."""
    planned = Counter()
    lines = log.splitlines()
    if "Job stats:" in lines:
        for line in lines[lines.index("Job stats:") + 1 :]:
            if not line.strip():
                break
            if (row := JOB_STATS_ROW.match(line)) and row.group(1) not in ("job", "total"):
                planned[row.group(1)] = int(row.group(2))
    blocks: list[dict] = []  # one per job the log shows starting: its rule, jobid and wildcards
    block = None  # the job whose header's indented lines are being read (an "Error in rule" block has a jobid too)
    for line in lines:
        if header := JOB_HEADER.match(line):
            block = {"rule": header.group(2), "wildcards": ""}
            blocks.append(block)
        elif block is not None and line.startswith(" "):
            if field := re.match(r"^\s+(jobid|wildcards): (.*)$", line):
                block[field.group(1)] = field.group(2)
        else:
            block = None
    started = {block["jobid"]: (block["rule"], block["wildcards"]) for block in blocks}
    finished = {started[done.group(1)] for line in lines if (done := re.match(r"^Finished jobid: (\d+)", line))}
    return planned, Counter(job[0] for job in finished), finished, set(started.values())


# Every kind of out-of-core job of the English Table 5 chain, and the relation extraction it starts from: each output,
# and whether the kill takes Snakemake with it. Each job is killed at its output's write: every query run, the .part
# written, the rename to come.
CHAIN_KILLS = {
    "results/en/relations/0.parquet": True,
    "results/en/relations/merged.parquet": False,
    "results/en/booqa/positives.parquet": True,
    "results/en/booqa/negatives.parquet": False,
    "results/en/graphs/for_test.part-0.parquet": True,
    "results/en/evidence/test.parquet": False,
    "results/booqa_scores/en/test/graph_binc.parquet": True,
}


def test_each_job_of_the_chain_killed_inside_its_work_then_the_same_command_reruns_what_it_lost_and_gives_the_same_bytes(smoke_repo, tmp_path):
    """The English relations of one shard are extracted again (forced), and every job of the chain to Table 5 that a
    target of CHAIN_KILLS names is killed once its output's ``.part`` is written: in each run of the same command,
    every such job that gets there. Each run must plan exactly what the run before left undone (its jobs less those
    that finished: the killed jobs, the jobs downstream of them, any job the kill interrupted) and never redo a job
    that finished in any run before; each job a kill took (killed or interrupted: started, not finished) is made by a
    later run, wildcards and all; each run kills at least one job, so the loop ends within one run per target. The run after the
    last kill completes with every artefact byte-identical to the undisturbed smoke run's, and leaves no scratch
    folder and no temporary file."""
    work = copy_run(smoke_repo, tmp_path / "run")
    scratch = tmp_path / "scratch"
    command = ["results/table5.csv", "--cores", "2", *SMOKE, *SMOKE_THREADS, "--config", f"scratch_root={scratch}"]
    # the finished run has nothing stale: a dry run marks nothing and plans nothing
    assert "Nothing to be done" in run_snakemake(work, *command, "-n").stdout
    assert not any((work / ".snakemake" / "incomplete").rglob("*"))
    pending, force, left = dict(CHAIN_KILLS), ["--forcerun", "results/en/relations/0.parquet"], None
    runs_leaving_scratch = 0  # runs whose kills came inside an engine's work
    done, owed = set(), set()  # every job finished so far; the jobs a kill took that no run has made again yet
    for _ in range(len(CHAIN_KILLS)):
        killed, log = _run_and_kill(work, [*command, *force], pending)
        assert killed, f"no job of {sorted(pending)} was reached: the run redid nothing of what the last kill lost"
        assert all(size > 0 for size in killed.values()), f"a job was killed before it wrote anything: {killed}"
        planned, finished, finished_jobs, started_jobs = _jobs(log)
        if left is not None:
            assert planned == left, f"planned {planned}, but the run before left {left} undone"
        assert not finished_jobs & done, f"redone after they finished: {finished_jobs & done}"
        assert started_jobs - finished_jobs, "a run that killed a job shows none started and not finished"
        done |= finished_jobs
        owed = (owed - finished_jobs) | (started_jobs - finished_jobs)
        left = planned - finished
        runs_leaving_scratch += any(scratch.rglob("*"))
        for target in killed:
            del pending[target]
        force = []
        if not pending:
            break
    assert not pending, f"never reached: {sorted(pending)}"
    result = run_snakemake(work, *command)
    planned, finished, finished_jobs, _ = _jobs(result.stdout + result.stderr)
    assert planned == finished == left
    assert not finished_jobs & done and not owed - finished_jobs, (finished_jobs & done, owed - finished_jobs)
    assert _results(work) == _results(smoke_repo)
    assert "no longer follow their inputs" in result.stderr
    assert runs_leaving_scratch >= 3, runs_leaving_scratch  # killed in their engines (their sweep: the next test)
    assert not any(scratch.rglob("*")), sorted(scratch.rglob("*"))
    assert not list(work.glob("results/**/.*.part"))
    assert "Nothing to be done" in run_snakemake(work, *command, "-n").stdout


MERGED = "results/en/relations/merged.parquet"


def test_the_scratch_a_killed_job_left_is_swept_by_the_next_run_and_never_while_another_run_works_here(smoke_repo, tmp_path):
    """The English merge of relations is killed inside its engine's work (its output's ``.part`` written), Snakemake
    living on: its scratch folder stays. The next run in the directory removes it at its start, though it does not run
    the merge (a dry run); and a dry run started while the merge runs again, held at its write with its scratch folder
    in use, leaves that folder alone: another run works here. The merge then ends with its folder removed and the bytes
    of the undisturbed run."""
    work = copy_run(smoke_repo, tmp_path / "run")
    scratch = tmp_path / "scratch"
    command = [MERGED, "--cores", "1", *SMOKE, "--config", f"scratch_root={scratch}"]
    folder = job_folder(scratch, "merge_relations", {"lang": "en"}, work)
    assert MERGED in _run_and_kill(work, [*command, "--forcerun", MERGED], {MERGED: False})[0]
    assert folder.is_dir(), sorted(scratch.rglob("*"))
    run_snakemake(work, *command, "-n")
    assert not folder.exists(), "the next run did not remove the scratch folder a killed job left"

    def dry_run_beside(part: Path) -> None:
        assert folder.is_dir()
        run_snakemake(work, *command, "-n")
        assert folder.is_dir(), "a run removed the scratch folder of a job that another run was working in"

    _run_and_kill(work, command, {}, watch={MERGED: dry_run_beside})
    assert not folder.exists() and _digests(work / MERGED) == _digests(smoke_repo / MERGED)


def _scores(method: str) -> str:
    return f"results/booqa_scores/en/test/{method}.parquet"


def _progress(method: str) -> str:
    return f".checkpoints/booqa_scores/en/test/{method}.npz"  # rule score_booqa's progress file


def test_a_scoring_killed_after_saved_batches_resumes_from_them_and_a_changed_input_file_starts_it_over(smoke_repo, tmp_path):
    """English BoOQA's LM, S&S and LLM scorings of the test split are each killed at their third save of progress (two
    batches saved, the third's ``.part`` written); the README's command then goes on with each after batch 2 (the first
    batch each saves is the third), writes the scores of an undisturbed run and removes the progress file. The LM
    scoring killed there once more, the command with the default batches starts it over (saved batches are skipped by
    number: progress saved with other batches would score too little); and once more, with the evidence file touched
    after the kill (same bytes, another time), it starts over too, its first save batch 1: the file is part of the
    signature. Scores are compared with an undisturbed run's in the same batches (a model's padding follows its batch:
    S&S's scores in batches of 8 rows differ from one batch's in the tenth decimal)."""
    work = copy_run(smoke_repo, tmp_path / "run")
    readme = ["results/table5.csv", "--cores", "2", *SMOKE]
    scoring = [_scores("lm_rel"), "--cores", "1", *SMOKE]  # the LM scoring alone, for the cases after the README's
    resumable = ("lm_rel", "sns_full", "llm")
    undisturbed = copy_run(smoke_repo, tmp_path / "undisturbed")  # the scores of a run in BATCHES
    for method in resumable:
        (undisturbed / _scores(method)).unlink()
    run_snakemake(undisturbed, *readme, env=tool_environment() | BATCHES | {"PYTHONPATH": str(HOOKS)})

    def kill_after_two_batches(command, methods):
        for method in methods:
            (work / _scores(method)).unlink()
        # --keep-going: the scorings after the first two killed still start (Snakemake would end at the first failures)
        killed, _ = _run_and_kill(work, [*command, "--keep-going"], {_progress(method): False for method in methods}, at_write=3, env=BATCHES)
        assert set(killed) == {_progress(method) for method in methods}, f"only {sorted(killed)} saved three batches"
        assert {_saved_position(work / _progress(method), ".npz") for method in methods} == {(2,)}

    def rerun(command, methods, env) -> dict[str, list]:
        """The run's saves of each scoring's progress (positions, in order)."""
        saves = {_progress(method): [] for method in methods}
        _run_and_kill(work, command, {}, env=env, watch=_watch_saves(saves))
        for method in methods:
            assert _digests(work / _scores(method)) == _digests((undisturbed if env else smoke_repo) / _scores(method)), method
            assert not (work / _progress(method)).exists() and not list((work / _progress(method)).parent.glob(".*.part"))
        return {method: saves[_progress(method)] for method in methods}

    kill_after_two_batches(readme, resumable)
    assert {method: saved[:1] for method, saved in rerun(readme, resumable, BATCHES).items()} == dict.fromkeys(resumable, [(3,)])
    assert _digests(work / "results/table5.csv") == _digests(smoke_repo / "results/table5.csv")
    kill_after_two_batches(scoring, ["lm_rel"])  # then run with the default batches (20,000 rows: one), not those it saved with
    rerun(scoring, ["lm_rel"], {})
    kill_after_two_batches(scoring, ["lm_rel"])
    evidence = work / "results/en/evidence/test.parquet"
    stat = evidence.stat()
    os.utime(evidence, ns=(stat.st_atime_ns, stat.st_mtime_ns - 10**9))  # older: nothing else is out of date
    assert rerun(scoring, ["lm_rel"], BATCHES)["lm_rel"][:1] == [(1,)]


CHANGED_NEGATIVES = "booqa:\n  wsd: gloss_similarity\n  wsd_encoder: tiny\n"  # read by generate_booqa_negatives alone (English)


def test_a_config_change_whose_first_job_is_killed_ends_as_a_clean_run_of_the_new_config(smoke_repo, tmp_path):
    """The issue's case: a key that only the negatives read is changed, the negatives job is killed, and the same
    command run again must give what a clean run of the new config gives, not keep the old config's downstream."""
    runs = {}
    for name in ("clean", "killed"):
        runs[name] = copy_run(smoke_repo, tmp_path / name)
        (runs[name] / "config" / "changed.yaml").write_text(CHANGED_NEGATIVES)
    # the chain from the negatives to a score of the test split (Table 5's other scores and the table follow the same
    # way; left out for time)
    targets = ["results/en/evidence/test.parquet", "results/booqa_scores/en/test/lm_rel.parquet"]
    command = [*targets, "--cores", "2", "--configfile", "config/smoke.yaml", "config/changed.yaml", *SMOKE_THREADS]
    run_snakemake(runs["clean"], *command)
    assert _run_and_kill(runs["killed"], command, {"results/en/booqa/negatives.parquet": False})[0]
    run_snakemake(runs["killed"], *command)
    clean, killed, old = _results(runs["clean"]), _results(runs["killed"]), _results(smoke_repo)
    assert killed == clean
    changed = {path for path in clean if clean[path] != old.get(path)}
    assert {"en/booqa/negatives.parquet", "en/booqa/test.parquet", "en/evidence/test.parquet", "booqa_scores/en/test/lm_rel.parquet"} <= changed


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

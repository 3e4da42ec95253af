"""Jobs of every kind of the smoke workflow, and DVC's repro, run on a real single-node SLURM cluster through profiles/slurm.

Needs Debian's slurm-wlm and munge (`tests/slurm/cluster.sh install`, as root; CI does it) and root to start
the daemons. Without them the test is skipped, unless BOOQA_REQUIRE_SLURM=1 (CI), where it fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
import pytest
import yaml

from conftest import HOOKS, REPO, SMOKE, copy_run, copy_workflow, run, run_snakemake, tool_environment
from directional_inference.workflow.phases import PHASES

pytestmark = pytest.mark.workflow
CLUSTER = REPO / "tests" / "slurm" / "cluster.sh"


@pytest.fixture(scope="module")
def slurm_cluster():
    missing = [tool for tool in ("slurmctld", "slurmd", "munged", "sbatch") if shutil.which(tool) is None]
    if missing or os.geteuid() != 0:
        reason = f"SLURM not available ({'missing ' + ', '.join(missing) if missing else 'not root'}): run tests/slurm/cluster.sh install"
        if os.environ.get("BOOQA_REQUIRE_SLURM") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    # munged needs every directory above its socket to be searchable by all: not pytest's private tmp dir
    directory = Path(tempfile.mkdtemp(prefix="slurm-test-", dir="/tmp"))
    directory.chmod(0o755)
    started = subprocess.run([str(CLUSTER), "start", str(directory)], capture_output=True, text=True)
    if started.returncode != 0:
        logs = "".join(p.read_text(errors="replace")[-2000:] for p in sorted(directory.rglob("*.log")))
        pytest.fail(f"the SLURM cluster did not start:\n{started.stdout}\n{started.stderr}\n{logs}")
    yield directory
    subprocess.run([str(CLUSTER), "stop", str(directory)], check=False)
    shutil.rmtree(directory, ignore_errors=True)


# A job of every kind the profile sends differently, and the local downloads: LevyHolt's Table 1 (downloads, a built
# model, training and scoring trials, a table) and the English relations (extraction, and the out-of-core merge, which
# asks for node-local scratch as every corpus-wide rule does). The rest of the smoke workflow is more jobs of these
# kinds, each run locally by the other workflow tests (the resources of paper-scale jobs are checked at plan time in
# test_config.py): all 195 of its jobs through SLURM made this test about 20 minutes of CI's hour.
SLURM_TARGETS = ("results/table1.csv", "results/en/relations/merged.parquet", "resources/models/minilm")


def test_jobs_of_every_kind_and_a_dvc_repro_run_through_the_slurm_profile(slurm_cluster, smoke_repo, tmp_path, mirrors, monkeypatch):
    monkeypatch.setenv("SLURM_CONF", str(slurm_cluster / "slurm.conf"))
    monkeypatch.setenv("PATH", f"{slurm_cluster / 'bin'}{os.pathsep}{os.environ['PATH']}")
    # status checks at most 5 s apart (the executor's own back-off reaches 180 s: most of the run was waiting)
    monkeypatch.setenv("PYTHONPATH", str(HOOKS))
    monkeypatch.setenv("DI_SLURM_MAX_POLL_S", "5")
    workdir = copy_workflow(tmp_path / "workflow")
    result = run_snakemake(
        workdir,
        *SLURM_TARGETS,
        *SMOKE,
        "--workflow-profile",
        "profiles/slurm",
        # no accounting daemon here: squeue is the status command, polled quickly
        "--slurm-status-command",
        "squeue",
        "--slurm-init-seconds-before-status-checks",
        "1",
        "--slurm-keep-successful-logs",
        "--set-threads",
        "train_sns_trial=1",
        "score_levyholt=1",
        "--default-resources",
        "mem_mb=2000",
        "runtime=30",
        "--set-resources",
        "train_sns_trial:mem_mb=3000",
    )
    output = result.stdout + result.stderr
    assert "steps (100%) done" in output and "SLURM" in output
    logs = list((workdir / ".snakemake" / "slurm_logs").rglob("*.log"))
    assert logs, "no SLURM job logs: the jobs did not go through sbatch"
    submitted = {log.relative_to(workdir / ".snakemake" / "slurm_logs").parts[0] for log in logs}
    # the downloads ran where Snakemake runs (local rules: compute nodes may have no internet), the rest through sbatch
    assert "rule_train_sns_trial" in submitted and "rule_score_levyholt" in submitted
    assert not {"rule_fetch_dataset", "rule_fetch_model"} & submitted, submitted
    assert (workdir / "resources" / "models" / "minilm").is_dir()
    assert (workdir / "resources" / "levyholt" / "SHA256SUMS").is_file()
    # the sbatch options as the profile intends: an engine job asks for its disk_mb as node-local scratch (--tmp) with
    # its memory and time; a training job its memory and one CPU, no scratch; no job a GPU (the smoke scale has none)
    calls = {}
    for line in (slurm_cluster / "sbatch-calls.log").read_text().splitlines():
        rule = re.search(r"--comment rule_(\w+?)(?:_wildcards_\S*)?(?:\s|$)", line)
        calls.setdefault(rule.group(1) if rule else "?", []).append(line)
    merge = calls["merge_relations"][0]
    tmp_mb = int(re.search(r"--tmp=(\d+)M", merge).group(1))
    assert tmp_mb >= 1000 and re.search(r"--mem \d+", merge) and re.search(r"-t \d+", merge) and "--cpus-per-task=2" in merge, merge
    trial = calls["train_sns_trial"][0]
    assert "--mem 3000" in trial and "--cpus-per-task=1" in trial and "--tmp" not in trial, trial
    assert not [line for lines in calls.values() for line in lines if "--gpus" in line or "--gres" in line]
    table = pd.read_csv(workdir / "results" / "table1.csv")
    assert len(table) == 9 and table["auc_norm"].notna().all()

    # DVC through the same profile, as docs/operations.md says: SNAKEMAKE_PROFILE sends the stages' jobs to SLURM (on
    # the whole smoke run, finished locally by the suite's fixture). A key of the levyholt phase, and `dvc repro` of that
    # stage alone, whose few jobs go through SLURM: DVC re-makes a stage's outputs whole, and the tables phase's 39 jobs
    # took 2 min 40 s of CI here; which phases a key re-runs is test_dvc.py's to check, on the local run.
    workdir = copy_run(smoke_repo, tmp_path / "lab")
    for command in (
        ["git", "init", "-q"],
        ["dvc", "init", "-q"],
        ["dvc", "config", "core.analytics", "false"],
        [sys.executable, "-m", "directional_inference.workflow.dvc_pipeline", *SMOKE],
        ["dvc", "commit", "-f", "-q"],
    ):
        run(workdir, *command)
    profile = tmp_path / "profile"
    profile.mkdir()
    settings = yaml.safe_load((workdir / "profiles" / "slurm" / "config.yaml").read_text(encoding="utf-8"))
    settings |= {"slurm-status-command": "squeue", "slurm-init-seconds-before-status-checks": 1, "default-resources": {"mem_mb": 2000, "runtime": 30}}
    (profile / "config.yaml").write_text(yaml.safe_dump(settings), encoding="utf-8")
    smoke = workdir / "config" / "smoke.yaml"
    changed = yaml.safe_load(smoke.read_text(encoding="utf-8"))
    changed["levyholt"]["max_test"] = 150  # a key of the levyholt phase only
    smoke.write_text(yaml.safe_dump(changed, sort_keys=False), encoding="utf-8")
    submitted_before = len((slurm_cluster / "sbatch-calls.log").read_text().splitlines())
    run(workdir, "dvc", "repro", "-q", "levyholt", env=tool_environment() | {"SNAKEMAKE_PROFILE": str(profile)})
    submitted = [
        re.search(r"--comment rule_(\w+?)(?:_wildcards_\S*)?(?:\s|$)", line).group(1)
        for line in (slurm_cluster / "sbatch-calls.log").read_text().splitlines()[submitted_before:]
    ]
    levyholt = next(phase for phase in PHASES if phase.name == "levyholt")
    assert "build_levyholt_subsets" in submitted and set(submitted) <= set(levyholt.rules), submitted
    stale = json.loads(run(workdir, "dvc", "status", "--json").stdout or "{}")
    assert "levyholt" not in stale and "training" in stale, stale  # the stage is current; what reads it is not

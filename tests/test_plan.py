"""bin/plan: the cost of a run from Snakemake's dry run, before it starts (directional_inference.workflow.plan)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import copy_workflow, tool_environment
from directional_inference.workflow.plan import cost_by_rule, format_plan, local_rules, planned_jobs

DRY_RUN = """Building DAG of jobs...
[Thu Nov 26 04:39:23 2026]
rule train_sns_trial:
    input: resources/models/tiny
    output: results/models/tiny/sns/full/trial-0/model
    jobid: 50
    wildcards: lm=tiny, variant=sns, subset=full, trial=0
    threads: 4
    resources: tmpdir=/tmp, runtime=240, gpu=1, mem_mb=6000, mem=6 GB, mem_mib=5723
[Thu Nov 26 04:39:23 2026]
rule train_sns_trial:
    jobid: 51
    threads: 4
    resources: tmpdir=/tmp, runtime=120, gpu=1, mem_mb=8000, mem=8 GB, mem_mib=7630
[Thu Nov 26 04:39:23 2026]
localrule fetch_dataset:
    jobid: 3
    resources: tmpdir=/tmp, runtime=240, mem_mb=1000, mem=1000 MB, mem_mib=954
[Thu Nov 26 04:39:23 2026]
rule merge_relations:
    jobid: 7
    threads: 2
    resources: tmpdir=/tmp, runtime=90, disk_mb=39200, disk=39 GB, disk_mib=37384, mem_mb=6000, mem=6 GB, mem_mib=5723
This was a dry-run (flag -n). The order of jobs does not reflect the order of execution.
"""


def test_costs_are_summed_per_rule_by_hand():
    costs = {cost.rule: cost for cost in cost_by_rule(planned_jobs(DRY_RUN))}
    trials = costs["train_sns_trial"]
    # 4 h and 2 h on 4 threads and one GPU each
    assert (trials.jobs, trials.threads, trials.gpus, trials.mem_mb) == (2, 4, 1, 8000)
    assert trials.cpu_hours == pytest.approx((4 + 2) * 4) and trials.gpu_hours == pytest.approx(4 + 2)
    fetch = costs["fetch_dataset"]
    assert fetch.local and (fetch.jobs, fetch.threads, fetch.gpus) == (1, 1, 0) and fetch.cpu_hours == pytest.approx(4)
    merge = costs["merge_relations"]
    assert merge.cpu_hours == pytest.approx(1.5 * 2) and merge.gpu_hours == 0 and merge.disk_mb == 39200


def test_local_rules_are_read_from_the_workflow_and_marked_in_the_plan():
    """A dry run prints a local rule as "rule" (Snakemake 9): the plan takes the workflow's localrules instead."""
    from conftest import REPO

    local = local_rules(REPO)
    assert {"fetch_dataset", "fetch_newscrawl_year", "gather_newscrawl", "fetch_model", "collect_clue_news",
            "collect_chinese_levyholt"} <= local
    assert not local & {"train_sns_trial", "build_corpus", "score_booqa", "localrules"}
    costs = cost_by_rule(planned_jobs(DRY_RUN.replace("localrule fetch_dataset:", "rule fetch_dataset:"), local))
    assert [cost.rule for cost in costs if cost.local] == ["fetch_dataset"]
    assert "Of these, 1 jobs of local rules (marked) run where Snakemake runs, on no cluster allocation: 4.0 of the CPU-hours" in format_plan(costs)


def test_a_request_not_known_before_the_input_exists_is_counted_and_said():
    costs = cost_by_rule(planned_jobs(DRY_RUN.replace("runtime=90,", "runtime=<TBD>,")))
    merge = {cost.rule: cost for cost in costs}["merge_relations"]
    assert merge.unknown == 1 and merge.cpu_hours == 0 and merge.disk_mb == 39200
    assert "1 jobs have a request Snakemake cannot compute" in format_plan(costs)


def test_the_plan_counts_every_job_of_the_dry_run(tmp_path):
    """bin/plan on the smoke scale: its jobs per rule are the dry run's own job stats, and a training trial's CPU-hours
    are its runtime request times its threads."""
    workdir = copy_workflow(tmp_path / "workflow")
    env = tool_environment()
    plan = subprocess.run([sys.executable, "-m", "directional_inference.workflow.plan", "--configfile", "config/smoke.yaml"], cwd=workdir,
                          capture_output=True, text=True, env=env, check=True).stdout
    stats = subprocess.run([str(Path(sys.executable).with_name("snakemake")), "-n", "--configfile", "config/smoke.yaml"], cwd=workdir,
                           capture_output=True, text=True, env=env, check=True).stdout
    expected = dict(re.findall(r"^(\w+)\s+(\d+)$", stats.split("Job stats:")[1].split("\n\n")[0], re.M))
    expected.pop("total", None)
    rows = {m[0]: m[1:] for m in re.findall(r"^(\w+)(?: \(local\))?\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", plan, re.M)}
    assert {rule: row[0] for rule, row in rows.items()} == expected
    assert re.search(r"^fetch_dataset \(local\)", plan, re.M) and not re.search(r"^train_sns_trial \(local\)", plan, re.M)
    jobs, threads, gpus, _, longest, cpu_hours = rows["train_sns_trial"]
    assert int(gpus) == 0 and float(cpu_hours) == pytest.approx(int(jobs) * int(threads) * float(longest), rel=0.01)


def test_a_plan_that_cannot_be_made_says_why(tmp_path):
    workdir = copy_workflow(tmp_path / "workflow")
    result = subprocess.run([sys.executable, "-m", "directional_inference.workflow.plan", "--configfile", "config/paper.yaml"], cwd=workdir,
                            capture_output=True, text=True, env=tool_environment())
    assert result.returncode != 0 and "resources.levyholt_zh" in result.stderr

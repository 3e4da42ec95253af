"""A workstation's GPU (profiles/gpu) at plan level, and what a local run says and checks before its first job: the
training and scoring jobs ask for the GPU, the others not; a run that asks for a GPU torch does not see stops before
any job, naming what to change; a run prints its forecast first."""

from __future__ import annotations

import pytest

from conftest import copy_workflow, run_snakemake, tool_environment
from directional_inference.tools.plan import planned_job_details
from directional_inference.workflow.phases import MODEL_RULES

pytestmark = pytest.mark.workflow
GRAPH_OR_FILE = ("graph_", "file_")  # BoOQA methods that run no model


@pytest.fixture(scope="module")
def workflow_copy(tmp_path_factory):
    return copy_workflow(tmp_path_factory.mktemp("gpu-profile"))


def _asks_for_a_gpu(job: dict) -> bool:
    return int(float(job["resources"].get("gpu", 0))) > 0


def test_the_gpu_profile_gives_the_gpu_to_every_training_and_scoring_job_and_to_no_other(workflow_copy):
    planned = run_snakemake(workflow_copy, "--dry-run", "results/table5.csv", "--workflow-profile", "profiles/gpu", "--cores", "2").stdout
    jobs = planned_job_details(planned)
    on_gpu = {job["rule"] for job in jobs if _asks_for_a_gpu(job)}
    assert {"train_sns_trial", "check_sns_model", "score_booqa"} <= on_gpu <= set(MODEL_RULES)
    for job in jobs:
        model_job = job["rule"] in MODEL_RULES and not job["wildcards"].get("method", "").startswith(GRAPH_OR_FILE)
        assert _asks_for_a_gpu(job) == model_job, job
    # without it (the README's command), nothing asks for one
    plain = planned_job_details(run_snakemake(workflow_copy, "--dry-run", "results/table5.csv", "--cores", "2").stdout)
    assert sorted(job["rule"] for job in plain) == sorted(job["rule"] for job in jobs) and not any(_asks_for_a_gpu(job) for job in plain)


def test_a_local_run_that_asks_for_a_gpu_torch_does_not_see_stops_before_any_job(workflow_copy):
    target = "results/models/hyperparameters.csv"
    hidden = tool_environment() | {"CUDA_VISIBLE_DEVICES": ""}
    stopped = run_snakemake(workflow_copy, target, "--workflow-profile", "profiles/gpu", check=False, env=hidden)
    assert stopped.returncode == 1, stopped.stderr[-3000:]
    assert "torch sees no CUDA device" in stopped.stderr and "training.gpus" in stopped.stderr and "Traceback" not in stopped.stderr
    assert not (workflow_copy / target).exists() and not list((workflow_copy / "logs").rglob("draw_hyperparameters/*.log"))
    # the same run on the CPU starts, says its forecast before its first job, and makes the file
    ran = run_snakemake(workflow_copy, target, "--cores", "1", env=hidden)
    assert (workflow_copy / target).is_file()
    forecast = [line for line in ran.stderr.splitlines() if line.startswith("forecast: ")]
    assert forecast and forecast[0].startswith("forecast: about ") and "1 jobs on 1 cores" in forecast[0], ran.stderr[-3000:]
    assert ran.stderr.index("forecast: about ") < ran.stderr.index("rule draw_hyperparameters")


def test_a_run_forecasts_its_jobs_as_bin_doctor_does_from_the_dry_run(workflow_copy):
    """The forecast a run prints before its first job is the one bin/doctor makes of the same run's dry run: the same
    jobs with the same resources (a corpus-wide rule's time is its runtime request over its margin in both)."""
    from directional_inference.config_tree import run_config
    from directional_inference.tools.run_forecast import forecast_report

    target, smoke = "results/en/corpus/articles.parquet", ("--configfile", "config/smoke.yaml")
    planned = planned_job_details(run_snakemake(workflow_copy, "--dry-run", target, *smoke, "--cores", "1").stdout)
    assert {job["rule"] for job in planned} == {"fetch_dataset", "build_corpus"}
    ran = run_snakemake(workflow_copy, target, *smoke, "--cores", "1")
    said = [line.removeprefix("forecast: ") for line in ran.stderr.splitlines() if line.startswith("forecast: ")]
    assert any("request / margin" in line for line in said), said  # build_corpus, from its runtime request
    assert said == forecast_report(planned, run_config([target, *smoke], workflow_copy), 1, workflow_copy, target)

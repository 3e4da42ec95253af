"""bin/doctor, the preflight: for the run its arguments describe, each thing the machine lacks is a FAIL line with its
fix, and the command exits 1; a machine with everything exits 0. Each test runs the command in a copy of the workflow."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import REPO, SMOKE, copy_workflow, tool_environment
from directional_inference.tools.doctor import FAIL, OK, disk_findings

NOWHERE = "http://127.0.0.1:9"  # a closed port: no URL can be reached through it


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    return copy_workflow(tmp_path_factory.mktemp("doctor") / "repo")


def doctor(workdir: Path, *args: str, **environment: str) -> tuple[int, str]:
    env = tool_environment() | environment
    for name, value in environment.items():
        if value is None:
            env.pop(name)
    result = subprocess.run(
        [str(workdir / "bin" / "doctor"), *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=env | {"PATH": f"{Path(os.sys.executable).parent}:{env['PATH']}"},
    )
    return result.returncode, result.stdout + result.stderr


def lines_of(report: str, status: str, topic: str) -> list[str]:
    """The report's lines of ``status`` about ``topic``, each with its fix line joined."""
    rows = report.splitlines()
    return [
        row + " " + (rows[k + 1].strip() if k + 1 < len(rows) and rows[k + 1].strip().startswith("fix:") else "")
        for k, row in enumerate(rows)
        if row.split()[:2] == [status, topic]
    ]


@pytest.fixture(scope="module")
def venv_link(checkout):
    """bin/doctor runs this checkout's .venv: the suite's environment."""
    import sys

    link = checkout / ".venv"
    if not link.exists():
        link.symlink_to(Path(sys.prefix))
    return link


def test_a_machine_with_what_the_smoke_run_needs_passes(checkout, venv_link, mirrors):
    code, report = doctor(checkout, *SMOKE)
    assert code == 0, report
    assert "Nothing found that would stop the run." in report and f"\n  {FAIL}" not in report
    assert lines_of(report, OK, "plan") and lines_of(report, OK, "disk") and lines_of(report, OK, "packages")


def test_the_readme_run_is_forecast_at_its_cores_before_it_starts(checkout, venv_link, mirrors):
    """bin/doctor with the README's main command's arguments says how long it takes here: the trials from their
    workload at this machine's measured rate, the chain that ends the run; on one core it takes longer than on two."""
    import re

    def forecast(*args: str) -> tuple[float, list[str]]:
        code, report = doctor(checkout, "results/table5.csv", *args)
        lines = [line.split("forecast", 1)[1].strip() for line in report.splitlines() if line.split()[:2] == ["note", "forecast"]]
        found = re.match(r"about (?:(\d+) h )?(\d+) min for ", lines[0] if lines else "")
        assert found, report
        return int(found.group(1) or 0) * 60 + int(found.group(2)), lines

    two_cores, lines = forecast("--cores", "2")
    assert "64 jobs on 2 cores" in lines[0] and "the chain that ends it: " in lines[0], lines
    assert any(line.startswith("measured here: a step of 32 x 32 tokens") and "1 thread;" in line for line in lines), lines
    assert "4 workload" in lines[-1], lines  # the four trials of Table 5 from their workload
    one_core, lines = forecast("--cores", "1")
    assert "64 jobs on 1 cores" in lines[0] and one_core > two_cores


def test_no_mirror_and_no_network_fails_naming_the_mirror_variable(checkout, venv_link):
    code, report = doctor(checkout, *SMOKE, BOOQA_MIRROR=str(checkout / "no-such-mirror"), https_proxy=NOWHERE, HTTPS_PROXY=NOWHERE)
    assert code == 1, report
    [failed] = lines_of(report, FAIL, "inputs")
    assert "levyholt" in failed and "raw.githubusercontent.com cannot be reached" in failed and "fix: set BOOQA_MIRROR" in failed


def test_a_remote_whose_plugin_is_missing_fails_naming_the_setup_option(checkout, venv_link):
    dvc = checkout / ".dvc"
    dvc.mkdir(exist_ok=True)
    (dvc / "config").write_text("[core]\n    remote = store\n['remote \"store\"']\n    url = s3://a-bucket/results\n", encoding="utf-8")
    try:
        code, report = doctor(checkout, *SMOKE)
    finally:
        shutil.rmtree(dvc)
    assert code == 1, report
    [failed] = lines_of(report, FAIL, "dvc")
    assert "s3://a-bucket/results needs the DVC plugin dvc-s3" in failed and "fix: bin/setup --remote s3" in failed
    extras = __import__("tomllib").loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extras["dvc-s3"][0].startswith("dvc-s3==")  # the option's extra exists


def test_an_unpinned_hub_model_at_paper_scale_fails_naming_the_key(checkout, venv_link, tmp_path):
    from directional_inference.tools.plan_page import stand_in_inputs

    inputs = tmp_path / "inputs.yaml"
    inputs.write_text(yaml.safe_dump(stand_in_inputs(tmp_path)), encoding="utf-8")  # the inputs set, no pin
    code, report = doctor(checkout, "results/table5.csv", "--configfile", "config/paper.yaml", str(inputs))
    assert code == 1, report
    unpinned = [line for line in lines_of(report, FAIL, "models") if "without a commit" in line]
    assert unpinned and all("fix: pin it as" in line for line in unpinned), report
    assert any("config key models." in line for line in unpinned) and any("config key llm.models." in line for line in unpinned)
    # and, the suite being offline, the hub models not downloaded yet cannot be
    [offline] = [line for line in lines_of(report, FAIL, "models") if "without a commit" not in line]
    assert "models.roberta-base" in offline and "the hub cannot be reached (HF_HUB_OFFLINE=1)" in offline and "hf download" in offline
    [plan] = lines_of(report, FAIL, "plan")  # Snakemake's own parse-time check refuses it too
    assert "pin" in plan


def test_paper_scale_needs_more_disk_than_its_storage_peak_and_says_so(checkout, venv_link, tmp_path):
    from directional_inference.tools.plan_page import planning_overlay

    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text())
    overlay = tmp_path / "inputs.yaml"
    overlay.write_text(yaml.safe_dump(planning_overlay(tmp_path, paper)), encoding="utf-8")
    code, report = doctor(checkout, "results/table5.csv", "--configfile", "config/paper.yaml", str(overlay), "--workflow-profile", "profiles/slurm")
    [disk] = [line for line in report.splitlines() if line.split()[1:2] == ["disk"]]
    needed = float(disk.split("needs about ")[1].split(" GB")[0].replace(",", ""))
    free = shutil.disk_usage(checkout).free / 1e9
    # Table 5's searches with the profile's 100 trials at once: the plan's storage peak (docs/paper-plan.json), and more
    peak = json.loads((REPO / "docs" / "paper-plan.json").read_text())["plans"]["table5"]["storage_peak"]["gb"]
    assert f"the searches' storage peak {peak:,.0f} GB (100 trials at once)" in disk and needed >= peak, disk
    # the three hub LLMs of paper.yaml, none downloaded: 1,711,376,384 + 7,615,616,512 + 32,763,876,352 parameters
    # (benchmarks/results/llm_scoring.json) at two bytes, 84.2 GB
    assert "hub LLMs 84.2 GB" in disk and needed >= peak + 84.2, disk
    assert disk.split()[0] == (OK if free >= needed else FAIL)
    assert free >= needed or code == 1, report


def test_too_little_disk_fails_with_the_figures(tmp_path):
    free = shutil.disk_usage(tmp_path).free
    unrecorded = {"scale": "paper", "resources": {"datasets": []}}  # no run record: the plan's figures
    jobs = [{"rule": "merge_relations", "resources": {"disk_mb": str(int(free / 1e6 * 2))}}]
    [finding] = disk_findings(tmp_path, jobs, unrecorded, concurrency=1)
    assert finding.status == FAIL and "the largest job scratch" in finding.found and "scratch_root" in finding.fix
    [enough] = disk_findings(tmp_path, [{"rule": "merge_relations", "resources": {"disk_mb": "1"}}], unrecorded, concurrency=1)
    assert enough.status == OK


def test_a_recorded_scale_needs_the_disk_its_run_took():
    """At the default scale the need is what the newest default run with every job's seconds left on disk (its
    record's folders), not the plan's bounds: the whole default target in under 3 GB, where the plan's figures said
    about 9 GB for Table 5 alone."""
    rows = json.loads((REPO / "benchmarks" / "results" / "run_footprint.json").read_text())["rows"]
    newest = max((r for r in rows if r["scale"] == "default" and r.get("job_seconds")), key=lambda r: r["date"])
    jobs = [{"rule": "merge_relations", "resources": {"disk_mb": "9000"}}]  # a bound the record makes moot
    [finding] = disk_findings(REPO, jobs, {"scale": "default", "resources": {"datasets": []}}, concurrency=2)
    assert f"needs about {newest['disk_total_mb'] / 1000:,.1f} GB: the whole default target took" in finding.found, finding.found
    assert newest["commit"] in finding.found and newest["disk_total_mb"] < 3000


def test_inputs_already_fetched_need_no_mirror_nor_network(tmp_path, monkeypatch):
    from directional_inference.tools.doctor import input_findings

    monkeypatch.setenv("BOOQA_MIRROR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("https_proxy", NOWHERE)
    config = {"resources": {"datasets": ["levyholt", "zh-news"]}}
    for dataset in config["resources"]["datasets"]:
        (tmp_path / "resources" / dataset).mkdir(parents=True)
    findings = input_findings(config, tmp_path)
    assert [(f.status, f.found) for f in findings if f.topic == "inputs"] == [(OK, "every configured dataset is in resources/ already")]
    (tmp_path / "resources" / "zh-news").rmdir()
    [failed] = [f for f in input_findings(config, tmp_path) if f.status == FAIL]
    assert failed.found.startswith("zh-news: in no mirror")


def test_malformed_user_files_stop_doctor_and_a_dry_run_naming_the_file_row_and_field(checkout, venv_link, mirrors, tmp_path):
    """The small files a user hands in are read before any job, by the jobs' own readers: a BoOQA scores file without a
    score column, with an id twice or with a score "high", and LevyHolt predictions with a score "high", each stop
    bin/doctor and Snakemake's dry run with the config key, file, row and field; good files pass both."""
    from conftest import run_snakemake
    from directional_inference.workflow.config_checks import user_file_problems

    files = {
        "good.tsv": "id\tscore\nq1\t0.5\nq2\t1\n",
        "no_score.tsv": "id\tvalue\nq1\t0.5\n",
        "twice.tsv": "id\tscore\nq1\t0.5\nq2\t1\nq1\t0.7\n",
        "high.tsv": "id\tscore\nq1\thigh\n",
        "pairs.tsv": "premise\thypothesis\tscore\nthe cat,chase,the mouse\tthe cat,follow,the mouse\t0.9\n",
        "pairs_high.tsv": "premise\thypothesis\tscore\nthe cat,chase,the mouse\tthe cat,follow,the mouse\t0.9\nthe dog,bite,the man\tthe dog,attack,the man\thigh\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")

    def config(booqa: str, pairs: str) -> dict:
        return {
            "evaluation": {"booqa_predictions": {"mine": {"file": str(tmp_path / booqa)}}},
            "llm": {"predictions": [{"file": str(tmp_path / pairs), "model": "m", "setting": "s"}]},
        }

    expected = {  # file -> (key, row, field)
        "no_score.tsv": ("evaluation.booqa_predictions.mine.file", "row 1, field 'score'"),
        "twice.tsv": ("evaluation.booqa_predictions.mine.file", "row 4, field 'id'"),
        "high.tsv": ("evaluation.booqa_predictions.mine.file", "row 2, field 'score'"),
        "pairs_high.tsv": ("llm.predictions[0].file", "row 3, field 'score'"),
    }
    assert user_file_problems(config("good.tsv", "pairs.tsv")) == []
    older = {"llm": {"predictions": [{"path": str(tmp_path / "pairs_high.tsv"), "model": "m", "setting": "s"}]}}  # the key's older name
    assert user_file_problems(older)[0].startswith(f"config key llm.predictions[0].path: {tmp_path / 'pairs_high.tsv'}, row 3")
    for name, (key, where) in expected.items():
        chosen = config("good.tsv", name) if name.startswith("pairs") else config(name, "pairs.tsv")
        [problem] = user_file_problems(chosen)
        assert problem.startswith(f"config key {key}: {tmp_path / name}, {where}: "), problem
    for name, passes in (("high.tsv", False), ("good.tsv", True)):
        overlay = tmp_path / f"{name}.yaml"
        overlay.write_text(yaml.safe_dump(config(name, "pairs.tsv")), encoding="utf-8")
        code, report = doctor(checkout, *SMOKE, str(overlay))
        dry = run_snakemake(checkout, "-n", *SMOKE, str(overlay), check=False)
        if passes:
            assert code == 0 and dry.returncode == 0, (report, dry.stderr[-2000:])
        else:
            assert code == 1 and any(f"{tmp_path / name}, row 2, field 'score'" in line for line in lines_of(report, FAIL, "inputs")), report
            assert dry.returncode != 0 and f"{tmp_path / name}, row 2, field 'score': not a number: 'high'" in dry.stderr, dry.stderr[-2000:]


def test_a_remote_directory_that_does_not_exist_is_ok_to_push_to_but_fails_a_colleague_who_must_pull(tmp_path):
    """A local remote not made yet: a lab's first push makes it (a note); a checkout whose dvc.lock records outputs it
    lacks (bin/setup's empty folders count as lacking) needs a pull, which has nowhere to come from (a failure)."""
    from directional_inference.tools.doctor import NOTE, dvc_findings

    (tmp_path / ".dvc").mkdir()
    (tmp_path / ".dvc" / "config").write_text("[core]\n    remote = store\n['remote \"store\"']\n    url = ../remote\n", encoding="utf-8")
    [finding] = dvc_findings(tmp_path)
    assert finding.status == NOTE and "does not exist yet (made at the first push" in finding.found, finding
    (tmp_path / "results" / "en" / "corpus").mkdir(parents=True)  # what bin/setup makes: empty
    lock = {"schema": "2.0", "stages": {"corpus": {"cmd": "bin/snakemake", "outs": [{"path": "results/en/corpus", "md5": "0" * 32 + ".dir"}]}}}
    (tmp_path / "dvc.lock").write_text(yaml.safe_dump(lock), encoding="utf-8")
    [finding] = dvc_findings(tmp_path)
    assert finding.status == FAIL and "results/en/corpus" in finding.found and "dvc remote modify store url" in finding.fix, finding
    (tmp_path / "remote").mkdir()
    [finding] = dvc_findings(tmp_path)
    assert finding.status == OK, finding


def test_news_crawl_to_download_without_its_credentials_fails_naming_the_variables(tmp_path, monkeypatch):
    """Where the plan downloads News Crawl (in no mirror), bin/doctor checks the user and password WMT publishes, as
    the job reads them (the environment, else the config): missing, it fails naming the variables; given, it does not."""
    from directional_inference.tools.doctor import input_findings

    for name in ("BOOQA_MIRROR", "NEWSCRAWL_USER", "NEWSCRAWL_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("https_proxy", NOWHERE)
    monkeypatch.setenv("http_proxy", NOWHERE)
    config = {"resources": {"datasets": ["newscrawl"], "newscrawl": {"user": None, "password": None}}}

    def credentials_lines() -> list:
        return [f for f in input_findings(config, tmp_path, timeout=2) if "basic-auth" in f.found]

    [missing] = credentials_lines()
    assert missing.status == FAIL and "NEWSCRAWL_USER" in missing.fix and "NEWSCRAWL_PASSWORD" in missing.fix
    monkeypatch.setenv("NEWSCRAWL_USER", "wmt")
    assert credentials_lines()  # a user without a password is not enough
    config["resources"]["newscrawl"]["password"] = "published"
    assert not credentials_lines()


def test_the_hub_llms_still_to_download_are_sized_from_their_scoring_benchmark_under_their_alias(tmp_path):
    """smollm2 is benchmarked as smollm2-135m (134,515,008 parameters, two bytes each); an alias never benchmarked is
    named as of no recorded size; one already in resources/llms/ is not counted."""
    from directional_inference.tools.doctor import hub_llm_gb

    models = {"smollm2": "HuggingFaceTB/SmolLM2-135M-Instruct", "other": "org/unmeasured-llm", "here": "Qwen/Qwen2.5-7B-Instruct"}
    (tmp_path / "resources" / "llms" / "here").mkdir(parents=True)
    gb, unsized = hub_llm_gb({"llm": {"scorers": list(models), "models": models}}, tmp_path)
    assert round(gb, 6) == round(2 * 134_515_008 / 1e9, 6) and unsized == ["other"]

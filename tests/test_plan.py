"""bin/plan: the cost of a run from Snakemake's dry run, before it starts (directional_inference.tools.plan)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import copy_workflow, tool_environment
from directional_inference.tools.plan import cost_by_rule, format_plan, local_rules, planned_jobs

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
    assert {"fetch_dataset", "fetch_newscrawl_year", "gather_newscrawl", "fetch_model", "collect_clue_news", "collect_chinese_levyholt"} <= local
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
    plan = subprocess.run(
        [sys.executable, "-m", "directional_inference.tools.plan", "--configfile", "config/smoke.yaml"],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    stats = subprocess.run(
        [str(Path(sys.executable).with_name("snakemake")), "-n", "--configfile", "config/smoke.yaml"],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    expected = dict(re.findall(r"^(\w+)\s+(\d+)$", stats.split("Job stats:")[1].split("\n\n")[0], re.M))
    expected.pop("total", None)
    rows = {m[0]: m[1:] for m in re.findall(r"^(\w+)(?: \(local\))?\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", plan, re.M)}
    assert {rule: row[0] for rule, row in rows.items()} == expected
    assert re.search(r"^fetch_dataset \(local\)", plan, re.M) and not re.search(r"^train_sns_trial \(local\)", plan, re.M)
    jobs, threads, gpus, _, longest, cpu_hours = rows["train_sns_trial"]
    assert int(gpus) == 0 and float(cpu_hours) == pytest.approx(int(jobs) * int(threads) * float(longest), rel=0.01)


def test_the_full_search_is_laid_over_the_last_configfile_list():
    """Snakemake keeps the last --configfile list, so the full search's overlay joins it rather than starting its own."""
    from directional_inference.tools.plan import with_configfile

    assert with_configfile(["t.csv"], "f.yaml") == ["t.csv", "--configfile", "f.yaml"]
    assert with_configfile(["t.csv", "--configfile", "a.yaml", "b.yaml", "-n"], "f.yaml") == [
        "t.csv",
        "--configfile",
        "a.yaml",
        "b.yaml",
        "f.yaml",
        "-n",
    ]
    assert with_configfile(["--configfile=a.yaml", "t.csv"], "f.yaml") == ["--configfile", "a.yaml", "f.yaml", "t.csv"]
    assert with_configfile(["--configfile", "a.yaml", "--cores", "2", "--configfiles", "b.yaml"], "f.yaml") == [
        "--configfile",
        "a.yaml",
        "--cores",
        "2",
        "--configfiles",
        "b.yaml",
        "f.yaml",
    ]


def test_the_published_choices_are_printed_beside_the_full_search():
    """Three trials of one search and one of another (4 h each, one GPU), beside a download (4 h, no GPU): 4 trials in
    2 searches, one of them cut to one trial, 16 GPU-hours; the full search's figures beside them."""
    from directional_inference.tools.plan import format_search_comparison, planned_job_details, search_totals

    trial, fetch = planned_job_details(DRY_RUN)[0], planned_job_details(DRY_RUN)[2]
    jobs = [
        {**trial, "wildcards": {"lm": "rb", "variant": v, "subset": "full", "trial": str(k)}}
        for v, k in (("sns_sym", 0), ("sns_sym", 1), ("sns_sym", 2), ("sns", 29))
    ] + [fetch]
    published = search_totals(jobs, {}, None)
    assert published == {"trials": 4, "searches": 2, "one_trial": 1, "trial_gpu_hours": 16.0, "gpu_hours": 16.0}
    full = {**published, "trials": 6, "one_trial": 0, "trial_gpu_hours": 24.0, "gpu_hours": 24.0}
    table = format_search_comparison(published, full, None).splitlines()
    assert table[0].startswith("The published choices (training.search: published) beside the full search")
    assert re.fullmatch(r"training trials\s+4\s+6", table[2]) and re.fullmatch(r"searches cut to the published trial\s+1\s+0", table[3])
    assert re.fullmatch(r"GPU-hours requested, every job\s+16\.0\s+24\.0", table[5])


def test_bin_plan_prints_the_published_choices_beside_the_full_search(tmp_path):
    """bin/plan at smoke scale with tiny models under the authors' aliases in the published mode: RoBERTa-base's three
    published S&S settings of Table 5 train one trial each, its 'S&S Full its search of 3; the full search trains 12."""
    workdir = copy_workflow(tmp_path / "workflow")
    tiny = "{tiny: {architecture: bert, hidden_size: 32, layers: 2, heads: 2, vocab_size: 2000}}"
    (workdir / "published.yaml").write_text(
        f"models: {{roberta-base: {tiny}}}\nevaluation: {{lm_encoder: roberta-base}}\n"
        "training: {language_models: [roberta-base], trial_source: authors, search: published, trials: 3}\n"
    )
    plan = subprocess.run(
        [sys.executable, "-m", "directional_inference.tools.plan", "results/table5.csv", "--configfile", "config/smoke.yaml", "published.yaml"],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=tool_environment(),
        check=True,
    ).stdout
    assert "The published choices (training.search: published) beside the full search" in plan
    assert re.search(r"^training trials\s+6\s+12$", plan, re.M) and re.search(r"^searches cut to the published trial\s+3\s+0$", plan, re.M)


def test_a_plan_that_cannot_be_made_says_why(tmp_path):
    workdir = copy_workflow(tmp_path / "workflow")
    result = subprocess.run(
        [sys.executable, "-m", "directional_inference.tools.plan", "--configfile", "config/paper.yaml"],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=tool_environment(),
    )
    assert result.returncode != 0 and "resources.levyholt_zh" in result.stderr


# --- docs/paper-scale.md: its figures rendered from a snapshot of the paper plan ----------------------------------------


def _hand_plan(sns_gpu: float) -> dict:
    rule = {"local": False, "gpus": 0, "gpu_hours": 0.0, "disk_gb": 0.0, "unknown": 0}
    forecast = {
        "gpu_hours_by_kind": {
            "S&S trials": {"gpu_hours": sns_gpu, "of_which_requests": 0.0},
            "BoOQA scoring": {"gpu_hours": 180.0, "of_which_requests": 16.0},
            "LevyHolt scoring and model checks": {"gpu_hours": 0.8, "of_which_requests": 0.8},
        },
        "wall_clock_h": 72.5,
    }
    return {
        "jobs": 7,
        "searches": [["rb", "sns", "full"], ["rb", "hyponly", "full"]],
        "trials_per_search": [2],
        "trials": 4,
        "single_trial_searches": [],
        "rules": {
            "train_sns_trial": {**rule, "jobs": 4, "threads": 4, "gpus": 1, "mem_gb": 6.0, "longest_h": 4.0, "cpu_hours": 64.0, "gpu_hours": 16.0},
            "fetch_dataset": {**rule, "jobs": 2, "local": True, "threads": 1, "mem_gb": 1.0, "longest_h": 4.0, "cpu_hours": 0.2},
            "build_corpus": {**rule, "jobs": 1, "threads": 1, "mem_gb": 4.0, "longest_h": 2.0, "cpu_hours": 0.3, "disk_gb": 71.2},
        },
        "forecasts": {device: forecast for device in ("rtx2080ti", "cuda-nvidia-h200", "cpu-intel-xeon-processor-family-6-model-167-2-threads")},
    }


def test_the_paper_scale_blocks_sum_a_hand_made_plan():
    """Sums and shares worked out by hand: 64 + 0.2 + 0.3 CPU-hours; the two small rules (under 1% of either total)
    share a row; the forecast of 400 + 180 + 0.8 GPU-hours is 581 / 485 - 1 = +20% against Appendix F."""
    from directional_inference.tools.plan_page import FORECAST_ROWS, forecast_block, table5_block

    rates = {"base": {"train_sentences_per_s": 131.86, "scoring_speedup": 4.58, "overhead_s": 705.34, "source": "derived; x"}}
    snapshot = {
        "gpus": 8,
        "concurrency": 100,
        "appendix_f_table5_gpu_hours": 485.0,
        "rates": {d: rates for d in ("rtx2080ti", "cuda-nvidia-h200", "cpu-intel-xeon-processor-family-6-model-167-2-threads")},
        "plans": {name: _hand_plan(400.0) for name in FORECAST_ROWS},
    }
    published = _hand_plan(250.0)
    published.update(jobs=6, trials=3, single_trial_searches=[["rb", "sns", "full"]])
    published["rules"]["train_sns_trial"].update(jobs=3, cpu_hours=48.0, gpu_hours=12.0)
    snapshot["plans"]["table5_published"] = published
    block = table5_block(snapshot).splitlines()
    assert block[0] == (
        "7 jobs. Requested: **64.5 CPU-hours, 16.0 GPU-hours**; no job asks for more than 6 GB of memory; "
        "the largest local disk request is 71 GB (`build_corpus`)."
    )
    assert block[4] == "| `train_sns_trial` (1 searches x 2 trials: rb S&S Full) | 4 | 4 | 1 | 6 GB | 4 h | 64.0 | 16.0 |"
    assert block[5] == "| the other 2 rules | 3 | 1 | 0 | 1-4 GB | 4 h | 0.5 | 0.0 |"
    assert "2 jobs of local rules" in block[7] and "0.2 of the CPU-hours" in block[7]
    # the published choices: one trial fewer (48 + 0.2 + 0.3 CPU-hours, 12 GPU-hours), rb S&S Full cut to its trial
    assert block[9] == (
        "With the authors' published choices (`training.search: published`, [method notes](method-notes.md)): **3 training trials "
        "instead of 4**, one each for rb S&S Full, and the full search for rb H-only Full (no published choice); 6 jobs requesting "
        "48.5 CPU-hours and 12.0 GPU-hours (the full search: 64.5 and 16.0)."
    )
    forecast = forecast_block(snapshot)
    assert (
        "| Table 5 | RTX 2080Ti (from Appendix F) | **580.8** | 400.0 |  | 180.0 (16.0 requests) |  | 0.8 (requests) | 72.5 h | 16.0 | about 485 |"
        in forecast
    )
    assert "Table 5 is +20% against Appendix F" in forecast
    assert "base models 132 a second, scoring x4.6, 705 s a trial; derived" in forecast


def test_the_paper_scale_page_is_rendered_from_the_plan_snapshot(tmp_path, monkeypatch):
    """Every block of docs/paper-scale.md is the rendering of docs/paper-plan.json; a figure retyped in a block is caught."""
    from directional_inference.tools import plan_page

    assert not plan_page.stale_page(), "run .venv/bin/python -m directional_inference.tools.plan_page"
    page = plan_page.PAGE.read_text(encoding="utf-8")
    start = page.index("<!-- plan:table5:start -->")
    jobs = f"{plan_page.read_snapshot()['plans']['table5']['jobs']:,} jobs"
    planted = page[:start] + page[start:].replace(jobs, "1,147 jobs", 1)
    assert planted != page
    (tmp_path / "paper-scale.md").write_text(planted, encoding="utf-8")
    assert plan_page.stale_page(tmp_path / "paper-scale.md")


def test_the_experiments_page_block_counts_the_searches_as_the_paper_scale_page_does(tmp_path):
    """Issue 46, pair 2: docs/experiments.md typed "39" searches (the English LevyHolt's) where docs/paper-scale.md
    generated "45" (every search: the English and Chinese LevyHolt's and BoOQA's H-only). Both pages now render one
    sentence from docs/paper-plan.json, saying what each count counts; a figure retyped in either is caught."""
    from directional_inference.tools import plan_page

    assert plan_page.stale_pages() == [], "run .venv/bin/python -m directional_inference.tools.plan_page"
    snapshot = plan_page.read_snapshot()
    sentence = plan_page.searches_sentence(snapshot["plans"]["all"])
    assert sentence.startswith(f"{len(snapshot['plans']['all']['searches'])} searches of ")
    for page in (plan_page.PAGE, plan_page.EXPERIMENTS):
        assert sentence in page.read_text(encoding="utf-8"), page
    english = [s for s in snapshot["plans"]["all"]["searches"] if plan_page.search_kind(s[2]) == "on the English LevyHolt"]
    assert f"{len(english)} on the English LevyHolt (" in sentence
    text = plan_page.EXPERIMENTS.read_text(encoding="utf-8")
    start = text.index("<!-- plan:searches:start -->")
    planted = text[:start] + text[start:].replace(f"{len(english)} on the English LevyHolt", "39 on the English LevyHolt, 18 of the main model", 1)
    assert planted != text
    (tmp_path / "experiments.md").write_text(planted, encoding="utf-8")
    assert plan_page.stale_page(tmp_path / "experiments.md", blocks=("searches",))
    # by hand: two English searches of one model, one of BoOQA and one Chinese of another
    hand = {
        "searches": [["rb", "sns", "full"], ["rb", "hyponly", "booqa"], ["rb", "sns", "directional"], ["x", "sns", "zh_full"]],
        "trials_per_search": [100],
    }
    assert plan_page.searches_sentence(hand) == (
        "4 searches of 100 trials: 2 on the English LevyHolt (rb 2), 1 of H-only models on BoOQA dev (rb 1), 1 on the Chinese LevyHolt (x 1)"
    )


def test_the_plan_snapshot_is_what_the_code_and_config_plan_now():
    """docs/paper-plan.json against a fresh plan of every target at paper scale (dry runs in a copy of the definition):
    a change of the code or config that moves a figure of docs/paper-scale.md fails here until it is recorded."""
    from directional_inference.tools.plan_page import SNAPSHOT, dumps, read_snapshot, record

    assert dumps(record()) == dumps(read_snapshot()), f"run .venv/bin/python -m directional_inference.tools.plan_page --record ({SNAPSHOT})"


def test_jobs_start_longest_first_the_inputs_and_the_longest_trial_then_the_other_trials_by_size_then_the_chain(tmp_path):
    """Table 5 at the default scale, planned: the inputs (downloads, models, the LevyHolt subsets, the drawn
    hyper-parameters) and the 'S&S Full trial (the longest job) have the highest priority; then the other trials, the
    one with more training pairs first (Full, then Symmetric, then Directional); then the corpus-to-BoOQA chain, whose
    short jobs fill the cores at the end, so that no long trial starts last and runs alone."""
    workdir = copy_workflow(tmp_path / "workflow")
    dry = subprocess.run(
        [str(Path(sys.executable).with_name("snakemake")), "-n", "results/table5.csv"],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=tool_environment(),
        check=True,
    ).stdout
    priorities = {}
    for block in re.split(r"\n(?=\[[^\]]+\]\n(?:local)?rule )", dry):
        rule = re.search(r"^(?:local)?rule (\w+):", block, re.M)
        if rule:
            wildcards = re.search(r"^\s+wildcards: (.*)$", block, re.M)
            priority = re.search(r"^\s+priority: (\d+)$", block, re.M)
            priorities[(rule[1], wildcards[1] if wildcards else "")] = int(priority[1]) if priority else 0
    trials = {w: p for (rule, w), p in priorities.items() if rule == "train_sns_trial"}
    longest = {w: p for w, p in trials.items() if "variant=sns_sym, subset=full" in w}
    others = {re.search(r"variant=(\w+), subset=(\w+)", w).group(1, 2): p for w, p in trials.items() if w not in longest}
    chain = {
        (r, w): p
        for (r, w), p in priorities.items()
        if r in ("build_corpus", "extract_relations", "merge_relations", "select_booqa_positives", "generate_booqa_negatives", "sample_booqa")
    }
    inputs = ("build_levyholt_subsets", "draw_hyperparameters", "fetch_dataset", "fetch_model")
    waited_for = {(r, w): p for (r, w), p in priorities.items() if r in inputs}
    assert (
        len(longest) == 1
        and {r for r, _ in chain} >= {"build_corpus", "merge_relations", "sample_booqa"}
        and {r for r, _ in waited_for} == set(inputs)
    )
    top = min(longest.values())
    assert set(waited_for.values()) == {top} and top > max(others.values()) and min(others.values()) > max(chain.values()), (longest, chain, others)
    assert others[("sns", "full")] > others[("sns", "symmetric")] > others[("sns", "directional")], others


@pytest.mark.parametrize(
    ("argv", "option"), [(["--device"], "--device"), (["results/table5.csv", "--device", "--gpus", "4"], "--device"), (["--gpus"], "--gpus")]
)
def test_an_option_without_its_value_is_named_not_a_traceback(argv, option, capsys):
    from directional_inference.tools.plan import main

    assert main(argv) == 2
    error = capsys.readouterr().err
    assert f"bin/plan: {option} needs a value" in error and "[--device KIND]" in error

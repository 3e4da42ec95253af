"""Forecasts from workloads and throughputs (directional_inference.tools.forecast), and bin/plan --device."""

from __future__ import annotations

import json

import pytest

from directional_inference.tools.forecast import (
    APPENDIX_F,
    DeviceRate,
    device_rates,
    job_forecast,
    measured_rates,
    rtx2080ti_rates,
    trial_workload,
)
from directional_inference.tools.plan import planned_job_details

PAPER_BUDGET = {"epochs": 5, "evaluations_per_epoch": 5, "max_train": None, "max_dev": None}


def test_a_trial_workload_is_its_sentences_trained_and_scored():
    # S&S Full: 4,388 training pairs x 8 prompt sentences x 5 epochs; 1,098 dev pairs x 8 x 25 evaluations
    assert trial_workload("sns", "full", PAPER_BUDGET) == (4388 * 8 * 5, 1098 * 8 * 25)
    # 'S&S reads each pair in both orders: 16 sentences; a budget caps the pairs
    assert trial_workload("sns_sym", "para_dirtrue", {**PAPER_BUDGET, "max_train": 600, "max_dev": 200, "epochs": 8}) == (
        600 * 16 * 8,
        200 * 16 * 8 * 5,
    )


def test_the_rtx2080ti_row_gives_back_appendix_f():
    """Derived from Appendix F, the row forecasts its two statements: a base model's trial on Full 40 minutes, on a
    small subset (Directional) 15; a large model's work 2.5 times as long (its BoOQA scoring: 100 GPU-hours against 40)."""
    base, large = rtx2080ti_rates(4.5)
    assert base.trial_seconds(*trial_workload("sns", "full", PAPER_BUDGET)) == pytest.approx(40 * 60)
    assert base.trial_seconds(*trial_workload("sns", "directional", PAPER_BUDGET)) == pytest.approx(15 * 60)
    assert base.overhead_s > 0 and large.train_sentences_per_s == pytest.approx(base.train_sentences_per_s * 0.4)
    # a Symmetric trial (3,870 / 986 pairs) lands near Full's 40 minutes, as Appendix F groups them
    assert 33 * 60 < base.trial_seconds(*trial_workload("sns", "symmetric", PAPER_BUDGET)) < 40 * 60


def test_a_measured_row_is_read_from_the_benchmark_file(tmp_path):
    path = tmp_path / "device_throughput.json"
    path.write_text(
        json.dumps(
            {
                "rows": [
                    {
                        "device": "cpu-test",
                        "device_name": "Test CPU, 2 threads",
                        "size": "base",
                        "architecture": "roberta-base",
                        "precision": "fp32",
                        "batch_sentences": 48,
                        "tokens": 24,
                        "date": "2026-11-26",
                        "train_sentences_per_s": 10.0,
                        "score_sentences_per_s": 50.0,
                    }
                ]
            }
        )
    )
    (row,) = measured_rates(path)
    assert (row.device, row.size, row.scoring_speedup, row.overhead_s) == ("cpu-test", "base", 5.0, 0.0)
    assert row.trial_seconds(1000, 500) == pytest.approx(1000 / 10 + 500 / 50)
    # the source names the versions the record holds, and says where it holds none
    assert (
        row.source
        == "measured: Test CPU, 2 threads, roberta-base, fp32, batch 48 x 24 tokens, torch not recorded, transformers not recorded (2026-11-26)"
    )


def test_a_job_forecast_follows_its_workload_and_scales_with_the_device():
    config = {
        "training": {"trials": 100, "epochs": 5, "evaluations_per_epoch": 5, "budgets": [], "language_models": ["rb"], "language_models_zh": []},
        "levyholt": {"max_train": None, "max_dev": None},
        "models": {"rb": "roberta-base@x", "rl": "roberta-large@y"},
        "booqa": {"positive_budget": 40_000, "overrides": None},
        "evaluation": {"lm_encoder": "rb", "scoring_jobs": 8},
    }
    fast = {
        size: DeviceRate("fast", size, rate.train_sentences_per_s * 2, rate.scoring_speedup, rate.overhead_s, "test")
        for size, rate in device_rates()["rtx2080ti"].items()
    }
    reference = device_rates()["rtx2080ti"]
    trial = job_forecast(
        "train_sns_trial", {"lm": "rb", "variant": "sns", "subset": "full", "trial": "0"}, 4, {"gpu": "1", "runtime": "240"}, config, reference
    )
    assert trial.how == "workload" and trial.hours == pytest.approx(40 / 60)
    part = job_forecast("score_booqa_part", {"lang": "en", "split": "test", "method": "sns_full", "part": "0"}, 4, {"gpu": "1"}, config, reference)
    assert part.how == "appendix F" and part.hours == pytest.approx(APPENDIX_F["booqa_sns_base_gpu_hours"] / 8)
    faster = job_forecast("score_booqa_part", {"lang": "en", "split": "test", "method": "sns_full", "part": "0"}, 4, {"gpu": "1"}, config, fast)
    assert faster.hours == pytest.approx(part.hours / 2)
    # a CPU job of the corpus-wide chain: its request over the margin of 3; another job: its request
    assert job_forecast("merge_relations", {"lang": "en"}, 2, {"runtime": "90"}, config, reference).hours == pytest.approx(90 / 60 / 3 * 2)
    assert job_forecast("select_sns_model", {}, 1, {"runtime": "30"}, config, reference).how == "request"


def test_an_llm_scoring_forecast_is_its_pairs_at_the_measured_rate(monkeypatch):
    """The whole Directional test (1,784 pairs, dirposi_dirnegi/test.txt) once per prompt, at the fastest format's pairs
    a second measured at the batch size nearest llm.batch_size; few-shot CoT at few-shot's rate; no row: the request."""
    from directional_inference.tools import forecast

    rows = [
        {"device": "fast", "model": "m7", "format": fmt, "prompt": f"original, {shots}", "batch_size": batch, "pairs_per_s": rate}
        for fmt, shots, batch, rate in (
            ("fp32", "zero-shot", 64, 100.0),
            ("bf16-weights", "zero-shot", 64, 400.0),
            ("bf16-weights", "few-shot", 64, 200.0),
            ("bf16-weights", "zero-shot", 16, 50.0),
            ("bf16-weights", "few-shot", 16, 25.0),
        )
    ]
    monkeypatch.setattr(forecast, "llm_rows", lambda: tuple(rows))
    rates = {"base": DeviceRate("fast", "base", 1.0, 1.0, 0.0, "test")}
    config = {"training": {}, "llm": {"prompts": ["zero-shot", "few-shot CoT"], "batch_size": 48}}
    job = job_forecast("score_llm_levyholt", {"llm": "m7"}, 4, {"gpu": "1", "runtime": "120"}, config, rates)
    assert job.how.startswith("workload") and job.hours == pytest.approx((1784 / 400 + 1784 / 200) / 3600)
    config["llm"]["batch_size"] = 20  # nearer 16
    assert job_forecast("score_llm_levyholt", {"llm": "m7"}, 4, {"gpu": "1"}, config, rates).hours == pytest.approx((1784 / 50 + 1784 / 25) / 3600)
    # this run's Full test: the authors' 12,921 pairs, capped by levyholt.max_test
    config["levyholt"] = {"max_test": 2000}
    assert job_forecast("score_llm_run_test", {"llm": "m7", "test": "full"}, 4, {"gpu": "1"}, config, rates).hours == pytest.approx(
        (2000 / 50 + 2000 / 25) / 3600
    )
    config["levyholt"] = {"max_test": None}
    assert job_forecast("score_llm_run_test", {"llm": "m7", "test": "full"}, 4, {"gpu": "1"}, config, rates).hours == pytest.approx(
        (12921 / 50 + 12921 / 25) / 3600
    )
    unmeasured = job_forecast("score_llm_levyholt", {"llm": "other"}, 4, {"gpu": "1", "runtime": "120"}, config, rates)
    assert (unmeasured.how, unmeasured.hours) == ("request", 2.0)


def test_the_dry_run_parser_keeps_each_jobs_wildcards_files_and_priority():
    jobs = planned_job_details(
        "rule train_sns_trial:\n    input: resources/models/rb, results/levyholt/full/train.tsv\n"
        "    output: results/models/rb/sns/full/trial-3/training.json, results/models/rb/sns/full/trial-3/model\n"
        "    log: logs/training/train_sns_trial/rb/sns/full/trial-3.log\n"
        "    benchmark: logs/training/train_sns_trial/rb/sns/full/trial-3.benchmark.tsv\n"
        "    wildcards: lm=rb, variant=sns, subset=full, trial=3\n    priority: 6\n    threads: 4\n"
        "    resources: runtime=240, gpu=1\nlocalrule all:\n    threads: 1\n"
    )
    assert jobs[0]["wildcards"] == {"lm": "rb", "variant": "sns", "subset": "full", "trial": "3"} and jobs[0]["threads"] == 4
    assert jobs[0]["input"] == ["resources/models/rb", "results/levyholt/full/train.tsv"] and jobs[0]["priority"] == 6
    assert jobs[0]["output"][1] == "results/models/rb/sns/full/trial-3/model"
    assert jobs[0]["benchmark"] == "logs/training/train_sns_trial/rb/sns/full/trial-3.benchmark.tsv"
    assert jobs[0]["log"] == ["logs/training/train_sns_trial/rb/sns/full/trial-3.log"]
    assert jobs[1] == {
        "rule": "all",
        "local": True,
        "threads": 1,
        "resources": {},
        "wildcards": {},
        "input": [],
        "output": [],
        "log": [],
        "benchmark": None,
        "priority": 0,
    }

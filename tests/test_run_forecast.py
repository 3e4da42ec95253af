"""The forecast of a run on this machine (tools.run_forecast): job times from the workload and the run records, and
Snakemake's local scheduling played out; expected values worked out by hand."""

from __future__ import annotations

import json

import pytest

from directional_inference.compute import AUTO_THREADS_ON_A_CLUSTER, model_job_gpus, model_job_threads
from directional_inference.tools import run_forecast
from directional_inference.tools.run_forecast import JobTime, StepRate, play_out, recorded_seconds, trial_seconds


def job(rule, outputs=(), inputs=(), threads=1, priority=0, gpu=0, **wildcards):
    return {
        "rule": rule,
        "wildcards": wildcards,
        "threads": threads,
        "priority": priority,
        "input": list(inputs),
        "output": list(outputs),
        "resources": {"gpu": str(gpu)},
        "benchmark": None,
    }


def test_a_job_waits_for_the_jobs_whose_outputs_it_reads():
    # A (10 s) -> C (3 s), B (5 s), on 2 cores: A and B start at 0, B ends at 5, A at 10, C runs 10-13
    jobs = [job("a", ["x"]), job("b", ["y"]), job("c", ["z"], ["x"])]
    schedule = play_out(jobs, [10.0, 5.0, 3.0], cores=2)
    assert schedule.seconds == 13.0
    assert [label for label, _ in schedule.critical_path] == ["a", "c"]
    assert schedule.busy_share == pytest.approx((10 + 5 + 3) / (2 * 13))


def test_ready_jobs_start_by_priority_then_the_longer_first():
    # one core: the priority-1 job (2 s) first, then the 7 s job before the 4 s one: they end at 2, 9, 13
    jobs = [job("short"), job("long"), job("urgent", priority=1)]
    schedule = play_out(jobs, [4.0, 7.0, 2.0], cores=1)
    assert schedule.seconds == 13.0 and [label for label, _ in schedule.critical_path] == ["short"]


def test_a_job_of_several_threads_waits_for_its_cores_and_its_gpu():
    # 4 cores: a 4-thread job (6 s, the longer, first) and two 1-thread jobs (5 s each) that wait for its cores: 11 s;
    # one GPU: two GPU jobs of 3 s run one after the other
    assert play_out([job("wide", threads=4), job("a"), job("b")], [6.0, 5.0, 5.0], cores=4).seconds == 11.0
    assert play_out([job("g1", gpu=1), job("g2", gpu=1)], [3.0, 3.0], cores=4, gpus=1).seconds == 6.0
    # threads above the cores are capped as Snakemake does: an 8-thread job runs on 2 cores
    assert play_out([job("capped", threads=8)], [4.0], cores=2).seconds == 4.0


def test_training_threads_auto_shares_the_cores_among_four_jobs():
    assert [model_job_threads("auto", cores) for cores in (1, 2, 4, 7, 8, 16)] == [1, 1, 1, 1, 2, 4]
    assert model_job_threads("auto", None) == AUTO_THREADS_ON_A_CLUSTER
    assert model_job_threads(3, 16) == 3 and model_job_threads(1, None) == 1


def test_the_gpus_a_model_job_asks_for_come_from_the_config_or_the_gpus_the_run_offers():
    assert model_job_gpus(0, None) == 0 and model_job_gpus(0, 0) == 0
    assert model_job_gpus(0, 2) == 1  # --resources gpu=2 (profiles/gpu): each job one of them
    assert model_job_gpus(2, None) == 2


def test_a_trials_time_is_its_tokens_and_passes_at_the_probes_rate():
    # the probe: 32 x 32 = 1,024 tokens, a pass costing 1,024 tokens: training 2.048 s a step, so 1 ms a token and 1.024 s
    # a pass; forward 0.512 s a step, so 0.25 ms a token and 0.256 s a pass
    rate = StepRate("cpu", "fp32", 1, 2.048, 0.512, "by hand")
    assert rate.seconds(1000, 2, training=True, pass_cost=1024) == pytest.approx(1.0 + 2 * 1.024)
    # Directional (502 train / 128 dev pairs), 1 epoch, 2 evaluations: 502 x 8 = 4,016 sentences trained, 128 x 8 x 2 =
    # 2,048 scored; 20 tokens and 1/40 passes a trained sentence, 10 tokens and 1/100 passes a scored one
    record = {
        "workload": {
            "sns": {
                "fp32": {
                    "train_tokens_per_sentence": 20,
                    "train_passes_per_sentence": 1 / 40,
                    "score_tokens_per_sentence": 10,
                    "score_passes_per_sentence": 0.01,
                }
            }
        },
        "runs": [{"precision": "fp32", "probe_share": {"train": 0.5, "score": 1.0}}],
    }
    budget = {"epochs": 1, "evaluations_per_epoch": 2, "max_train": None, "max_dev": None}
    train = (4016 * 20 * 0.001 + 4016 / 40 * 1.024) / 0.5  # at half the probe's rate
    dev = 2048 * 10 * 0.00025 + 2048 * 0.01 * 0.256
    expected = run_forecast.LOAD_S + train + dev
    assert trial_seconds({"variant": "sns", "subset": "directional"}, budget, 8, rate, record, 1024) == pytest.approx(expected)


def test_other_jobs_take_their_recorded_time_scaled_for_model_scorings():
    record = {
        "job_seconds": {
            "relations/merge_relations/en": 40.0,
            "booqa_evaluation/score_booqa/en/test/sns_full": 100.0,
            "booqa_evaluation/score_booqa/en/test/lm_rel": 30.0,
        }
    }
    merge = job("merge_relations") | {"benchmark": "logs/relations/merge_relations/en.benchmark.tsv"}
    assert recorded_seconds(merge, record, 2.0) == JobTime(40.0, "record")  # not a model's job: not scaled
    score = job("score_booqa") | {"benchmark": "logs/booqa_evaluation/score_booqa/en/test/sns_full.benchmark.tsv"}
    assert recorded_seconds(score, record, 2.0) == JobTime(200.0, "record, scaled")
    trial = job("train_sns_trial") | {"benchmark": "logs/training/train_sns_trial/minilm/sns/full/trial-0.benchmark.tsv"}
    record["job_seconds"]["training/train_sns_trial/minilm/sns/full/trial-0"] = 300.0  # a trial whose model has no rate here
    assert recorded_seconds(trial, record, 2.0) == JobTime(600.0, "record, scaled")
    other = job("score_booqa") | {"benchmark": "logs/booqa_evaluation/score_booqa/zh/test/sns_full.benchmark.tsv"}
    assert recorded_seconds(other, record, None) == JobTime(65.0, "rule median")  # the median of 100 and 30
    assert recorded_seconds(job("never_recorded"), record, None) == JobTime(run_forecast.UNRECORDED_JOB_S, "unrecorded")
    # a corpus-wide rule no record holds: its request (minutes) over the margin of 3
    extraction = job("extract_relations") | {"resources": {"runtime": "6"}}
    assert recorded_seconds(extraction, None, None) == JobTime(6 * 60 / 3, "request / margin")


def test_recorded_model_jobs_scale_by_the_probes_training_step_not_its_forward():
    """Between the records of three CPUs in both formats the scorings' times went as the probe's forward-and-backward
    step, not as its forward (a bf16 forward gains 4 times over fp32 where a scoring job gained 1.8): here 0.6 s against
    the record's 0.3 s is twice the record's time, though the forward steps differ fourfold."""
    from directional_inference.tools.run_forecast import step_ratio

    rate = StepRate("cpu", "fp32", 1, 0.6, 0.2, "by hand")
    assert step_ratio(rate, {"probe": {"train_s": 0.3, "forward_s": 0.05}}) == pytest.approx(2.0)
    assert step_ratio(rate, {"job_seconds": {}}) is None and step_ratio(None, {"probe": {"train_s": 0.3}}) is None


def test_a_booqa_hypothesis_only_trial_is_timed_by_its_record_where_one_holds_it():
    """Its training pairs are BoOQA's dev split, which the run builds from the corpus: the workload at the paper's split
    (3,200 pairs) forecast 26 min for a trial of 52 s at the default scale (c5a0d4d, Intel Xeon family 6 model 207). A
    record's time, scaled as a model's job, is taken where one holds the trial; the LevyHolt trials beside it keep
    their workload; without a record the BoOQA trial has its workload too."""
    from directional_inference.config_tree import run_config
    from directional_inference.tools.run_forecast import ROOT, job_times, throughput_record

    config = run_config([], ROOT)
    rate = StepRate("cpu", "fp32", 1, 0.6, 0.2, "by hand")
    booqa = job("train_booqa_hyponly_trial", lang="en", lm="minilm", trial="0") | {
        "benchmark": "logs/robustness/train_booqa_hyponly_trial/en/minilm/trial-0.benchmark.tsv"
    }
    levyholt = job("train_sns_trial", lm="minilm", variant="sns", subset="directional", trial="0") | {
        "benchmark": "logs/training/train_sns_trial/minilm/sns/directional/trial-0.benchmark.tsv"
    }
    record = {
        "job_seconds": {
            "robustness/train_booqa_hyponly_trial/en/minilm/trial-0": 40.0,
            "training/train_sns_trial/minilm/sns/directional/trial-0": 100.0,
        }
    }
    timed = job_times([booqa, levyholt], config, {("minilm", 1): rate}, record, throughput_record(), 2.0)
    assert timed[0] == JobTime(80.0, "record, scaled")
    assert timed[1].how == "workload"
    unrecorded = job_times([booqa], config, {("minilm", 1): rate}, {"job_seconds": {}}, throughput_record(), 2.0)
    assert unrecorded[0].how == "workload" and unrecorded[0].seconds > 10 * 80.0


def test_the_newest_record_of_the_scale_with_job_times_is_read(tmp_path):
    rows = [
        {"scale": "default", "date": "2026-11-01", "job_seconds": {"a/b/c": 1.0}},
        {"scale": "default", "date": "2026-12-01", "job_seconds": {"a/b/c": 2.0}},
        {"scale": "default", "date": "2026-12-02"},  # no job times: not a forecast's record
        {"scale": "smoke", "date": "2026-12-03", "job_seconds": {"a/b/c": 3.0}},
    ]
    (tmp_path / "records.json").write_text(json.dumps({"rows": rows}))
    assert run_forecast.newest_record("default", tmp_path / "records.json")["job_seconds"] == {"a/b/c": 2.0}
    # the same day, one table's run on another CPU (listed first or last): the whole target's record is read
    part = {"scale": "default", "date": "2026-12-01", "job_seconds": {"a/b/c": 5.0}}
    whole = rows[1] | {"job_seconds": {"a/b/c": 2.0, "a/b/d": 4.0}}
    for order in ([part, whole], [whole, part]):
        (tmp_path / "records.json").write_text(json.dumps({"rows": order}))
        assert run_forecast.newest_record("default", tmp_path / "records.json") == whole
    assert run_forecast.newest_record("paper", tmp_path / "records.json") is None


def test_a_machine_with_a_gpu_the_run_does_not_use_is_told_the_local_gpu_command_and_its_time(monkeypatch, tmp_path):
    import torch

    def forecast_on(jobs, config, cores, root, *, device_type="cpu", gpus=0, measure=True):
        seconds = {"cpu": "about 2 h 0 min", "cuda": "about 20 min"}[device_type]
        assert device_type == "cpu" or all(int(job["resources"]["gpu"]) == (job["rule"] == "train_sns_trial") for job in jobs)
        return run_forecast.RunForecast(None, [], None, [f"{seconds} for {len(jobs)} jobs on {cores} cores (gpus {gpus})"])

    monkeypatch.setattr(run_forecast, "forecast_run", forecast_on)
    monkeypatch.setattr(run_forecast, "torch_may_see_gpu", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index=0: "NVIDIA RTX 4090")
    jobs = [job("train_sns_trial", lm="minilm"), job("build_corpus")]
    config = {"training": {"gpus": 0}}
    lines = run_forecast.forecast_report(jobs, config, 8, tmp_path, "results/table5.csv")
    assert lines[0] == "about 2 h 0 min for 2 jobs on 8 cores (gpus 0)"
    assert lines[1] == (
        "this machine has a GPU (NVIDIA RTX 4090) that these jobs do not use: .venv/bin/snakemake results/table5.csv "
        "--workflow-profile profiles/gpu would take about 20 min for 2 jobs on 8 cores (gpus 1)"
    )
    # a run that already uses it is not told again
    assert len(run_forecast.forecast_report(jobs, {"training": {"gpus": 1}}, 8, tmp_path, "results/table5.csv")) == 1
    # nor is a run with no job that trains or scores with a model: no job would take the GPU
    assert len(run_forecast.forecast_report([job("build_corpus")], config, 8, tmp_path, "results/table5.csv")) == 1


def test_a_run_without_model_jobs_is_forecast_without_loading_torch(tmp_path):
    """The forecast of a run that neither trains nor scores with a model reads only the run records: torch, which takes
    seconds to load, is not loaded (every run prints a forecast)."""
    import subprocess
    import sys

    jobs = [job("fetch_dataset", ["a"]), job("build_corpus", ["b"], ["a"])]
    script = (
        "import json, sys; from pathlib import Path; from directional_inference.tools.run_forecast import forecast_report; "
        f"lines = forecast_report({jobs!r}, {{'scale': 'smoke', 'training': {{'precision': 'auto', 'threads': 1, 'gpus': 0}}}}, 2, Path('.'), ''); "
        "print(json.dumps({'torch': 'torch' in sys.modules, 'lines': lines}))"
    )
    done = json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path).stdout)
    assert done["torch"] is False
    assert done["lines"][0].startswith("about ") and "for 2 jobs on 2 cores" in done["lines"][0]


def test_a_rate_measured_once_is_kept_and_later_forecasts_read_it_without_loading_torch(tmp_path, monkeypatch):
    """Every run prints a forecast: the rate of its model, measured once on this machine, is kept, so that later
    forecasts (each run's first lines) read it without loading torch, and say the same; a rate not kept yet, or one at
    other threads, is not guessed (the run then measures it in a process of its own)."""
    import subprocess
    import sys

    from transformers import BertConfig

    BertConfig(vocab_size=100, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32).save_pretrained(
        tmp_path / "resources" / "models" / "tiny"
    )
    monkeypatch.setenv("DI_PRECISION_CACHE", str(tmp_path / "cache"))
    jobs = [job("score_levyholt", lm="tiny", variant="sns", subset="directional")]
    config = {"scale": "smoke", "training": {"precision": "fp32", "threads": 1, "gpus": 0, "language_models": ["tiny"]}}
    with pytest.raises(run_forecast.RateUnknown):
        run_forecast.forecast_report(jobs, config, 2, tmp_path, "", measure=False)
    measured = run_forecast.forecast_report(jobs, config, 2, tmp_path, "")
    assert any(line.startswith("measured here: a step of 32 x 32 tokens") for line in measured)
    script = (
        "import json, sys; from pathlib import Path; from directional_inference.tools import run_forecast; "
        "run_forecast.torch_may_see_gpu = lambda: False; "
        f"lines = run_forecast.forecast_report({jobs!r}, {config!r}, 2, Path('.'), '', measure=False); "
        "print(json.dumps({'torch': 'torch' in sys.modules, 'lines': lines}))"
    )
    done = json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path).stdout)
    assert done == {"torch": False, "lines": measured}
    with pytest.raises(run_forecast.RateUnknown):  # two threads a scoring job: another rate
        run_forecast.forecast_report(jobs, config | {"training": config["training"] | {"threads": 2}}, 2, tmp_path, "", measure=False)


def test_a_kept_rate_is_measured_again_after_a_day_and_never_taken_from_an_old_step_time(tmp_path, monkeypatch):
    """A machine's speed drifts from day to day (this project's ran 292 and 385 ms a step on two days): the forecast's
    rate is measured afresh, not read from the step times the jobs keep for their choice of format, and a rate kept
    longer than a day is measured again; one kept less long is read as it is."""
    import time

    from transformers import BertConfig

    model_dir = tmp_path / "tiny"
    BertConfig(vocab_size=100, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32).save_pretrained(model_dir)
    cache = tmp_path / "cache"
    monkeypatch.setenv("DI_PRECISION_CACHE", str(cache))
    # step times of an old day in the jobs' own cache (a day 99 s a step): not the forecast's rate
    from directional_inference.compute import PrecisionCache

    real_seconds = PrecisionCache.seconds
    monkeypatch.setattr(PrecisionCache, "seconds", lambda self, key, measure: ({"fp32": 99.0, "bf16": 99.0}, True))
    first = run_forecast.step_rate(model_dir, "fp32", 1)
    monkeypatch.setattr(PrecisionCache, "seconds", real_seconds)
    assert first.train_s < 1 and first.forward_s < 1 and time.time() - first.measured < 600
    kept = run_forecast.kept_rate_path(model_dir, "fp32", 1, "cpu")
    slow = first.__dict__ | {"train_s": 99.0, "forward_s": 99.0}
    kept.write_text(json.dumps(slow | {"measured": time.time() - 3600}))  # an hour ago: read as it is
    assert run_forecast.step_rate(model_dir, "fp32", 1, measure=False).train_s == 99.0
    kept.write_text(json.dumps(slow | {"measured": time.time() - 2 * 24 * 3600}))  # two days ago: measured again
    with pytest.raises(run_forecast.RateUnknown, match="in the last day"):
        run_forecast.step_rate(model_dir, "fp32", 1, measure=False)
    again = run_forecast.step_rate(model_dir, "fp32", 1)
    assert again.train_s < 1 and again.forward_s < 1 and time.time() - again.measured < 600
    assert json.loads(kept.read_text())["train_s"] == again.train_s  # kept for the next day's forecasts
    kept.write_text(json.dumps({k: v for k, v in slow.items() if k != "measured"}))  # kept before rates had a time
    assert run_forecast.step_rate(model_dir, "fp32", 1).train_s < 1

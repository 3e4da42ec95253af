"""Forecasts of a run's GPU jobs from their workload and a throughput per device kind: what ``bin/plan --device`` prints
beside the requests.

A training trial's workload is the prompt sentences it trains on (training pairs x sentences per pair x epochs: 8 for
S&S and H-only, 16 for 'S&S) and those its dev evaluations score (dev pairs x sentences per pair x evaluations), the
pairs capped by the model's budget (``levyholt.experiments.training_budget``), the subsets' sizes those of the
authors' files (``SUBSET_PAIRS``). Its time on a device is ``overhead + (trained + scored / k) / rate``: ``rate`` the
device's training throughput for the architecture (prompt sentences per second, forward, backward and optimiser step),
``k`` how many times faster scoring is than training (measured by ``benchmarks/sns_throughput.py``: fp32 scoring
against fp32 training), ``overhead`` a fixed cost per trial (loading, checkpoints).

``DEVICES`` holds the rows. The RTX 2080Ti row is derived from the paper's Appendix F (a trial on Full about 40 minutes,
on the small subsets about 15): two trials, two unknowns (rate and overhead), solved with Directional as the small
subset; large models are 2.5 times slower (Appendix F's S&S scoring, 100 GPU-hours against 40). Rows measured on other
devices come from ``benchmarks/device_throughput.py`` (``benchmarks/results/device_throughput.json``: the paper's
architectures built from their configs with random weights, forward and backward of S&S-sized batches). A BoOQA
scoring job's forecast is Appendix F's per split and language (an unsupervised LM 10 GPU-hours for its methods together,
an S&S base model 40, a large one 100) on the RTX 2080Ti, scaled by the positives the config asks for against the
paper's 40,000 and, on another device, by the ratio of its rate to the 2080Ti's. An LLM's scoring of a LevyHolt test set (``score_llm_levyholt``: the whole
Directional test; ``score_llm_run_test``: this run's, capped by ``levyholt.max_test``) is its pairs per prompt at the
pairs per second ``benchmarks/llm_scoring.py`` measured for that LLM's architecture on the device
(``benchmarks/results/llm_scoring.json``: the fastest format at the batch size nearest ``llm.batch_size``; on a device
without such a row, its request). Corpus-wide CPU jobs forecast their request over its margin
(``job_resources.TIME_MARGIN``). Every other job's forecast is its request (marked so).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from dataclasses import dataclass
from pathlib import Path

from ..workflow.phases import LLM_SCORING_RULES, TRIAL_RULES, corpus_wide_rules

ROOT = Path(__file__).resolve().parents[3]
MEASURED = ROOT / "benchmarks" / "results" / "device_throughput.json"
THROUGHPUT = ROOT / "benchmarks" / "results" / "sns_throughput.json"
LLM_MEASURED = ROOT / "benchmarks" / "results" / "llm_scoring.json"
# pairs of the authors' test files (dirposi_dirnegi, orig, symposi_symnegi, SherLIiC's orig): every LLM scores the
# whole Directional test, and this run's test sets of llm.test_sets (capped by levyholt.max_test)
TEST_PAIRS = {"directional": 1784, "full": 12921, "symmetric": 11137, "sherliic": 2989}
BENCHMARKED_AS = {"smollm2": "smollm2-135m"}  # an llm.models alias -> its architecture's name in llm_scoring.json

# (training pairs, dev pairs) of the authors' files (the paper's subsets); BoOQA H-only trains on the first 1,600
# positives of BoOQA dev with their negatives (about as many) and selects on the next 400; SherLIiC's split and the
# Chinese LevyHolt are taken at Full's size (the Chinese one is not published)
SUBSET_PAIRS = {
    "full": (4388, 1098),
    "directional": (502, 128),
    "symmetric": (3870, 986),
    "para_dirtrue": (815, 203),
    "para_dirfalse": (866, 219),
    "dirtrue_unrel": (3506, 895),
    "dirfalse_unrel": (3520, 881),
    "sherliic": (4388, 1098),
    "booqa": (3200, 800),
}
SENTENCES_PER_PAIR = {"sns": 8, "hyponly": 8, "sns_sym": 16}
LARGE = ("large",)  # an alias whose model name holds one of these is a large model
APPENDIX_F = {
    "trial_minutes_full": 40.0,
    "trial_minutes_small": 15.0,
    "booqa_lm_gpu_hours": 10.0,
    "booqa_sns_base_gpu_hours": 40.0,
    "booqa_sns_large_gpu_hours": 100.0,
    "table5_gpu_hours": 485.0,
    "paper_positives": 40_000,
}
# Table 5 as the paper ran it (Appendix F): searches on Full, 'S&S Full, Symmetric (about 60 GPU-hours each),
# Directional (25), the Chinese Full (60); BoOQA scoring of five S&S models (40 each) and the LM in two languages (10 each)


@dataclass(frozen=True)
class DeviceRate:
    """A device's throughput for one architecture size: prompt sentences trained per second, scoring's speed-up ``k``,
    the fixed seconds per trial, and where the row comes from."""

    device: str
    size: str  # base or large
    train_sentences_per_s: float
    scoring_speedup: float
    overhead_s: float
    source: str

    def trial_seconds(self, trained: float, scored: float) -> float:
        return self.overhead_s + (trained + scored / self.scoring_speedup) / self.train_sentences_per_s

    def score_seconds(self, sentences: float) -> float:
        return sentences / (self.train_sentences_per_s * self.scoring_speedup)


def scoring_speedup(path: Path = THROUGHPUT) -> float:
    """Scoring's prompt sentences per second over training's, fp32, from the committed S&S throughput benchmark."""
    runs = {run["precision"]: run for run in json.loads(path.read_text(encoding="utf-8"))["runs"]}
    return runs["fp32"]["score_sentences_per_s"] / runs["fp32"]["train_sentences_per_s"]


def trial_workload(variant: str, subset: str, budget: Mapping) -> tuple[float, float]:
    """(prompt sentences trained, prompt sentences scored by the dev evaluations) of one trial."""
    train, dev = SUBSET_PAIRS[subset.removeprefix("zh_")]
    train, dev = min(train, budget["max_train"] or train), min(dev, budget["max_dev"] or dev)
    per_pair = SENTENCES_PER_PAIR[variant]
    return train * per_pair * budget["epochs"], dev * per_pair * budget["epochs"] * budget["evaluations_per_epoch"]


def rtx2080ti_rates(speedup: float) -> list[DeviceRate]:
    """The RTX 2080Ti rows, derived from Appendix F: a base model's trial on Full (5 epochs, 5 evaluations an epoch, the
    paper's settings) takes 40 minutes, on Directional 15."""
    budget = {"epochs": 5, "evaluations_per_epoch": 5, "max_train": None, "max_dev": None}
    full, small = trial_workload("sns", "full", budget), trial_workload("sns", "directional", budget)
    work = [trained + scored / speedup for trained, scored in (full, small)]
    rate = (work[0] - work[1]) / ((APPENDIX_F["trial_minutes_full"] - APPENDIX_F["trial_minutes_small"]) * 60)
    overhead = APPENDIX_F["trial_minutes_small"] * 60 - work[1] / rate
    large = APPENDIX_F["booqa_sns_base_gpu_hours"] / APPENDIX_F["booqa_sns_large_gpu_hours"]
    source = "derived from the paper's Appendix F (RTX 2080Ti)"
    return [
        DeviceRate("rtx2080ti", "base", rate, speedup, overhead, source),
        DeviceRate("rtx2080ti", "large", rate * large, speedup, overhead, source + "; large = base x 0.4 (Appendix F's scoring)"),
    ]


def measured_rates(path: Path = MEASURED) -> list[DeviceRate]:
    """Rows measured by benchmarks/device_throughput.py (none where it has not run)."""
    if not path.is_file():
        return []
    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    return [
        DeviceRate(
            r["device"],
            r["size"],
            r["train_sentences_per_s"],
            r["score_sentences_per_s"] / r["train_sentences_per_s"],
            0.0,
            f"measured: {r['device_name']}, {r['architecture']}, {r['precision']}, batch {r['batch_sentences']} x "
            f"{r['tokens']} tokens, {measured_with(r)} ({r['date']})",
        )
        for r in rows
    ]


def measured_with(row: Mapping) -> str:
    """The torch and transformers versions a measured row names (``not recorded`` where its record has none)."""
    return ", ".join(f"{name} {row.get(name) or 'not recorded'}" for name in ("torch", "transformers"))


@lru_cache(maxsize=1)
def device_rates() -> dict[str, dict[str, DeviceRate]]:
    """device -> size -> its row (read once: every scoring job's forecast compares its device with the 2080Ti)."""
    rates: dict[str, dict[str, DeviceRate]] = {}
    for row in rtx2080ti_rates(scoring_speedup()) + measured_rates():
        rates.setdefault(row.device, {})[row.size] = row
    return rates


@lru_cache(maxsize=1)
def llm_rows(path: Path = LLM_MEASURED) -> tuple[dict, ...]:
    return tuple(json.loads(path.read_text(encoding="utf-8"))["rows"]) if path.is_file() else ()


def llm_parameters(llm: str) -> int | None:
    """The parameters of an LLM (an ``llm.models`` alias) as its scoring benchmark records them, or None."""
    model = BENCHMARKED_AS.get(llm, llm)
    return next((r["parameters"] for r in llm_rows() if r["model"] == model and r.get("parameters")), None)


def llm_pairs_per_s(device: str, llm: str, shots: str, batch_size: int) -> float | None:
    """Pairs scored a second by an LLM (an ``llm.models`` alias) on ``device`` with a prompt of ``shots`` (few-shot CoT
    at few-shot's rate: the examples are a prefix computed once): the fastest format measured at the batch size nearest
    ``batch_size``; None where it was not measured there."""
    model = BENCHMARKED_AS.get(llm, llm)
    prompt = "few-shot" if shots.startswith("few-shot") else "zero-shot"
    rows = [r for r in llm_rows() if r["device"] == device and r["model"] == model and r["prompt"].endswith(prompt)]
    if not rows:
        return None
    nearest = min({r["batch_size"] for r in rows}, key=lambda b: (abs(b - batch_size), b))
    return max(r["pairs_per_s"] for r in rows if r["batch_size"] == nearest)


def model_size(alias: str, models: Mapping) -> str:
    spec = models.get(alias, alias)
    return "large" if isinstance(spec, str) and any(word in spec.lower() for word in LARGE) else "base"


@dataclass
class Forecast:
    """A job's expected device hours (GPU-hours for a GPU job, CPU-hours otherwise) and how it was made."""

    hours: float
    how: str  # "workload", "appendix F", "request / margin" or "request"


def job_forecast(rule: str, wildcards: Mapping, threads: int, resources: Mapping, config: Mapping, rates: Mapping[str, DeviceRate]) -> Forecast:
    """The forecast of one planned job on a device (``rates``: its rows by size)."""
    from ..levyholt.experiments import training_budget
    from ..evaluation.methods import method_alias, method_spec
    from ..workflow.job_resources import TIME_MARGIN

    training, models = config["training"], config.get("models", {})
    runtime_h = float(resources.get("runtime", 0) or 0) / 60
    gpus = int(float(resources.get("gpu", 0) or 0))
    if rule in TRIAL_RULES:
        variant, subset = wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa")
        budget = training_budget(training, config["levyholt"], variant, subset)
        trained, scored = trial_workload(variant, subset, budget)
        rate = rates[model_size(wildcards["lm"], models)]
        return Forecast(rate.trial_seconds(trained, scored) / 3600 * max(gpus, 1), "workload")
    if rule in ("score_booqa", "score_booqa_part") and method_spec(wildcards["method"])[0] in ("lm", "sns"):  # Appendix F's; an LLM: its request
        family = method_spec(wildcards["method"])[0]
        lang = wildcards["lang"]
        if family == "lm":
            alias, hours = (
                (config["evaluation"].get("lm_encoder_zh") if lang == "zh" else None) or config["evaluation"]["lm_encoder"],
                APPENDIX_F["booqa_lm_gpu_hours"] / 3,
            )  # the LM figure covers its three retrieval variants
        else:
            alias = method_alias(wildcards["method"]) or (training["language_models_zh"] if lang == "zh" else training["language_models"])[0]
            hours = APPENDIX_F[f"booqa_sns_{model_size(alias, models)}_gpu_hours"]
        booqa = config["booqa"]
        positives = ((booqa.get("overrides") or {}).get(lang) or {}).get("positive_budget") or booqa["positive_budget"]
        parts = int(config["evaluation"].get("scoring_jobs", 1)) if rule == "score_booqa_part" else 1
        reference = device_rates()["rtx2080ti"][model_size(alias, models)]
        speed = reference.train_sentences_per_s / rates[model_size(alias, models)].train_sentences_per_s
        return Forecast(hours * positives / APPENDIX_F["paper_positives"] * speed / parts, "appendix F")
    if rule in LLM_SCORING_RULES:
        llm = config["llm"]
        pairs = TEST_PAIRS[wildcards.get("test", "directional")]
        if rule == "score_llm_run_test":
            pairs = min(pairs, config["levyholt"].get("max_test") or pairs)
        rates_of = [llm_pairs_per_s(next(iter(rates.values())).device, wildcards["llm"], shots, int(llm["batch_size"])) for shots in llm["prompts"]]
        if rates_of and None not in rates_of:
            return Forecast(sum(pairs / rate for rate in rates_of) / 3600 * max(gpus, 1), "workload (llm_scoring.json)")
    if gpus == 0 and rule in corpus_wide_rules():
        return Forecast(runtime_h / TIME_MARGIN * threads, "request / margin")
    return Forecast(runtime_h * (gpus if gpus else threads), "request")

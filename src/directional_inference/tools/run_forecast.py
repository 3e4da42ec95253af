"""How long a run takes on this machine at its cores, said before it starts (``bin/doctor``, and the run's first lines).

Every planned job (Snakemake's dry run, or the run's own DAG) gets a time:

* a training trial: its prompt sentences (``forecast.trial_workload``: every epoch and dev evaluation its budget allows,
  so an upper bound where early stopping ends it sooner) as padded tokens and forward passes (per variant and number
  format, measured on LevyHolt Full by ``benchmarks/sns_throughput.py``), at this machine's rate for the trial's model,
  number format and threads: the precision probe's step (``compute.measure_step`` in the format the jobs take, kept per
  machine, threads and model for a day and then measured again, since a machine's speed drifts from day to day) gives
  the seconds of a token and of a pass (``sns.model.PASS_COST_TOKENS``), and the S&S loop and its dev scoring run at
  the share of that rate the benchmark measured (``probe_share``). Not a trial of ``RUN_BUILT_TRIALS``, whose pairs
  the run itself makes from the corpus: it is timed as a scoring job is, where a record holds it;
* a scoring job with a model (BoOQA LM and S&S, LevyHolt, sanity checks, LLMs): its time in the newest run record of
  the same scale (``benchmarks/results/run_footprint.json``), scaled by this machine's probe step (forward and
  backward) against the record machine's (``step_ratio``: the forward step's ratio mispredicted the scorings' by up to
  2.2 times between the records' CPUs, the training step's within 21%; docs/operations.md, "Cores and a local GPU");
* any other job: its time in that record (the record's CPU named), else its rule's median there, else, for a
  corpus-wide rule, its request over its margin (``job_resources``), else a minute.

Then Snakemake's local scheduling is played out: ready jobs start by priority, the longer first, while their threads
fit in the cores (and their GPUs in the GPUs offered); the forecast is when the last one ends, with the chain of jobs
that ends it (the critical path), with the figures it was made from.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import json
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .. import layout
from ..atomic import write_text_atomic
from .forecast import trial_workload
from ..workflow.phases import MODEL_RULES, MODEL_SCORING_RULES, TRIAL_RULES, corpus_wide_rules

ROOT = Path(__file__).resolve().parents[3]
THROUGHPUT = ROOT / "benchmarks" / "results" / "sns_throughput_1thread.json"  # one thread: the jobs' own count
RUN_RECORDS = ROOT / "benchmarks" / "results" / "run_footprint.json"
UNRECORDED_JOB_S = 60.0  # a job of a rule no record holds
LOAD_S = 10.0  # a trial's fixed seconds: loading torch, the model and the data, writing the weights
# trials whose training pairs the run makes from the corpus (BoOQA's dev split): the plan cannot count them, so a
# record's time is read where one holds them (the workload at the paper's 3,200 pairs forecast 26 min for 52 s)
RUN_BUILT_TRIALS = ("train_booqa_hyponly_trial",)
RATE_MAX_AGE_S = 24 * 3600.0  # a kept rate is measured again after a day: the same machine ran 292 and 385 ms a step on two days


@dataclass
class StepRate:
    """Seconds of a forward-and-backward (``train_s``) and of a forward (``forward_s``) step of STEP_SHAPE on a device,
    in the format a job takes there, and how it was found."""

    device: str
    precision: str
    threads: int
    train_s: float
    forward_s: float
    how: str
    measured: float = 0.0  # when (seconds since the epoch): a kept rate older than RATE_MAX_AGE_S is measured again

    def seconds(self, tokens: float, passes: float, *, training: bool, pass_cost: float) -> float:
        """The probe's seconds for ``tokens`` padded tokens in ``passes`` passes (a + b x tokens, with a = b x
        ``pass_cost``, fitted through the probe's step)."""
        from ..compute import STEP_SHAPE

        sentences, length = STEP_SHAPE
        step = self.train_s if training else self.forward_s
        return step * (tokens + passes * pass_cost) / (sentences * length + pass_cost)


@dataclass
class JobTime:
    seconds: float
    how: str  # "workload", "record", "record, scaled", "rule median", "request / margin", "unrecorded"


def throughput_record(path: Path = THROUGHPUT) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def trial_seconds(rule_wildcards: Mapping, budget: Mapping, batch_size: int, rate: StepRate, record: Mapping, pass_cost: float) -> float:
    """A trial's forecast seconds: its training sentences and dev evaluations as tokens and passes (``record``'s
    ``workload``) at ``rate``, over the shares of the probe's rate the benchmark measured for the loop and for scoring."""
    variant = rule_wildcards.get("variant", "hyponly")
    subset = rule_wildcards.get("subset", "booqa")
    trained, scored = trial_workload(variant, subset, budget)
    tokens = record["workload"][variant if variant in record["workload"] else "sns"][rate.precision]
    share = {run["precision"]: run["probe_share"] for run in record["runs"]}[rate.precision]
    # the workload's passes are those of batches of 8 pairs; a batch of b pairs makes about 8 / b times as many a sentence
    train = rate.seconds(
        trained * tokens["train_tokens_per_sentence"],
        trained * tokens["train_passes_per_sentence"] * 8 / batch_size,
        training=True,
        pass_cost=pass_cost,
    )
    dev = rate.seconds(
        scored * tokens["score_tokens_per_sentence"], scored * tokens["score_passes_per_sentence"], training=False, pass_cost=pass_cost
    )
    return LOAD_S + train / share["train"] + dev / share["score"]


def newest_record(scale: str, path: Path = RUN_RECORDS) -> dict | None:
    """The newest run record of ``scale`` that holds every job's seconds (``job_seconds``); of one day's, the one of the
    most jobs (a run of the whole target over a run of one table on another CPU)."""
    if not path.is_file():
        return None
    rows = [r for r in json.loads(path.read_text(encoding="utf-8"))["rows"] if r["scale"] == scale and r.get("job_seconds")]
    return max(rows, key=lambda r: (r["date"], len(r["job_seconds"]))) if rows else None


def benchmark_key(benchmark: str | None) -> str | None:
    """A job's key in a run record: its benchmark file's path under logs/, without the suffix."""
    if not benchmark:
        return None
    return benchmark.removeprefix(f"{layout.LOGS}/").removesuffix(".benchmark.tsv")


def step_ratio(rate: StepRate | None, record: Mapping | None) -> float | None:
    """How many times the record machine's time a model's job takes here: this machine's probe step (forward and
    backward) over the one the record kept (None without either). Not the forward step's: see the module."""
    reference = (record or {}).get("probe", {}).get("train_s")
    return rate.train_s / reference if rate and reference else None


def recorded_seconds(job: Mapping, record: Mapping | None, ratio: float | None) -> JobTime:
    """A job's time from a run record: its own (a model's jobs, scorings and trials, scaled by ``ratio``, this
    machine's probe step over the record machine's), else its rule's median there, else ``UNRECORDED_JOB_S``."""
    import statistics

    if record is None:
        return unrecorded(job)
    scale = ratio if job["rule"] in MODEL_RULES and ratio else 1.0
    seconds = record["job_seconds"]
    key = benchmark_key(job.get("benchmark"))
    if key in seconds:
        return JobTime(seconds[key] * scale, "record" + (", scaled" if scale != 1.0 else ""))
    rule = [s for k, s in seconds.items() if k.split("/")[1:2] == [job["rule"]]]
    if rule:
        return JobTime(statistics.median(rule) * scale, "rule median")
    return unrecorded(job)


def unrecorded(job: Mapping) -> JobTime:
    """A job no record holds: a corpus-wide rule's request over its margin (its time per MB of input measured by the
    scale benchmark), else ``UNRECORDED_JOB_S``."""
    from ..workflow.job_resources import TIME_MARGIN

    runtime = job.get("resources", {}).get("runtime")
    if job["rule"] in corpus_wide_rules() and str(runtime or "").replace(".", "", 1).isdigit():
        return JobTime(float(runtime) * 60 / TIME_MARGIN, "request / margin")
    return JobTime(UNRECORDED_JOB_S, "unrecorded")


@dataclass
class Schedule:
    """A played-out run: when it ends, how busy it kept the cores, and the chain of jobs that ends it."""

    seconds: float
    cores: int
    busy_share: float
    critical_path: list[tuple[str, float]]  # (job, its seconds), first to last
    jobs: int
    by_how: dict[str, int] = field(default_factory=dict)


def job_label(job: Mapping) -> str:
    wildcards = "/".join(str(v) for v in job.get("wildcards", {}).values())
    return f"{job['rule']}{' ' + wildcards if wildcards else ''}"


def play_out(jobs: list[Mapping], seconds: list[float], cores: int, gpus: int = 0) -> Schedule:
    """Snakemake's local scheduling of ``jobs`` (dependencies: a job's input that another job outputs) played out on
    ``cores`` and ``gpus``: whenever cores free up, the ready jobs start by priority, the longer first, while their
    threads (capped at ``cores``) and GPUs fit. Deterministic."""
    producer = {path: k for k, job in enumerate(jobs) for path in job.get("output", [])}
    needs = [{producer[p] for p in job.get("input", []) if p in producer and producer[p] != k} for k, job in enumerate(jobs)]
    waiting_on = [len(n) for n in needs]
    followers: list[list[int]] = [[] for _ in jobs]
    for k, n in enumerate(needs):
        for j in n:
            followers[j].append(k)
    threads = [min(max(int(job.get("threads", 1)), 1), cores) for job in jobs]
    job_gpus = [int(float(job.get("resources", {}).get("gpu", 0) or 0)) for job in jobs]
    ready = [k for k in range(len(jobs)) if not waiting_on[k]]
    running: list[tuple[float, int]] = []
    now, free_cores, free_gpus = 0.0, cores, gpus
    ended = [0.0] * len(jobs)
    core_seconds = 0.0
    while ready or running:
        ready.sort(key=lambda k: (-int(jobs[k].get("priority", 0)), -seconds[k], k))
        for k in list(ready):
            if threads[k] <= free_cores and job_gpus[k] <= free_gpus:
                ready.remove(k)
                free_cores -= threads[k]
                free_gpus -= job_gpus[k]
                heapq.heappush(running, (now + seconds[k], k))
                core_seconds += threads[k] * seconds[k]
        if not running:  # a job that can never fit (more GPUs than offered): it runs alone
            k = ready.pop(0)
            heapq.heappush(running, (now + seconds[k], k))
            free_cores -= threads[k]
            free_gpus -= job_gpus[k]
        now, k = heapq.heappop(running)
        ended[k] = now
        free_cores += threads[k]
        free_gpus += job_gpus[k]
        for follower in followers[k]:
            waiting_on[follower] -= 1
            if not waiting_on[follower]:
                ready.append(follower)
    last = max(range(len(jobs)), key=lambda k: (ended[k], k)) if jobs else None
    chain = []
    while last is not None:
        chain.append((job_label(jobs[last]), seconds[last]))
        last = max(needs[last], key=lambda j: (ended[j], j)) if needs[last] else None
    total = max(ended, default=0.0)
    return Schedule(total, cores, core_seconds / (cores * total) if total else 0.0, chain[::-1], len(jobs))


def duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{max(minutes, 1)} min"


@dataclass
class RunForecast:
    schedule: Schedule
    rates: list[StepRate]
    record: dict | None
    lines: list[str]


def job_times(
    jobs: list[Mapping],
    config: Mapping,
    rates: Mapping[tuple[str, int], StepRate],
    record: Mapping | None,
    throughput: Mapping,
    ratio: float | None,
) -> list[JobTime]:
    """Every job's forecast time: a trial from its workload at its model's rate in ``rates`` (by model alias and
    threads), any other job, a trial whose model has no rate here and a recorded trial of ``RUN_BUILT_TRIALS``, from
    ``record`` (``recorded_seconds``, model jobs scaled by ``ratio``)."""
    from ..levyholt.experiments import training_budget
    from ..sns.model import PASS_COST_TOKENS
    from ..sns.training import model_batching

    training = config["training"]
    times = []
    for job in jobs:
        wildcards = job["wildcards"]
        rate = rates.get((wildcards.get("lm"), int(job.get("threads", 1)))) if job["rule"] in TRIAL_RULES else None
        recorded = benchmark_key(job.get("benchmark")) in (record or {}).get("job_seconds", {})
        if rate is None or (job["rule"] in RUN_BUILT_TRIALS and recorded):
            times.append(recorded_seconds(job, record, ratio))
            continue
        variant, subset = wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa")
        budget = training_budget(training, config["levyholt"], variant, subset)
        batch, _ = model_batching(training.get("model_batching") or {}, wildcards["lm"], variant == "sns_sym", training["batch_size"])
        pass_cost = PASS_COST_TOKENS.get(rate.device, PASS_COST_TOKENS["cpu"])[rate.precision]
        times.append(JobTime(trial_seconds(wildcards, budget, batch, rate, throughput, pass_cost), "workload"))
    return times


def model_config_dir(alias: str, config: Mapping, root: Path) -> Path | None:
    """A directory with the ``config.json`` of the model ``alias`` (its architecture is all the probe needs): the
    workflow's copy in resources/models/, else the configured directory or package; None where neither is here yet (a
    hub model before its download, a tiny model before it is built)."""
    from ..resources.models import locate_model

    fetched = root / layout.model_directory(alias)
    if (fetched / "config.json").is_file():
        return fetched
    spec = (config.get("models") or {}).get(alias, alias)
    if not isinstance(spec, str):
        return None
    try:
        found = locate_model(spec)[0]
    except Exception:  # a hub name not downloaded: no architecture here
        return None
    return found if (found / "config.json").is_file() else None


def measure_rate(model_dir: Path, precision: str, threads: int, device_type: str = "cpu") -> StepRate:
    """The probe's step times of the model in ``model_dir`` (random weights of its architecture) at ``threads`` on the
    device, now: the format ``precision`` resolves to there (``auto`` through the jobs' own cache, so that the forecast
    times the format the jobs will take), its forward-and-backward and forward seconds measured afresh (a cached step
    time says how fast the machine was the day it was measured)."""
    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification

    from ..compute import measure_step, resolve_precision

    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        device = torch.device("cuda", 0) if device_type == "cuda" else torch.device("cpu")
        architecture = AutoConfig.from_pretrained(model_dir, num_labels=2)
        model = AutoModelForSequenceClassification.from_config(architecture).to(device)
        chosen, why = resolve_precision(precision, device.type, model=model, device=device)
        train = measure_step(model, device, precisions=(chosen,))[chosen]
        forward = measure_step(model, device, forward_only=True, precisions=(chosen,))[chosen]
    finally:
        torch.set_num_threads(previous)
    return StepRate(device.type, chosen, threads, train, forward, why, time.time())


class RateUnknown(Exception):
    """A rate the forecast needs is not kept for this machine yet: finding it loads torch and measures the model."""


def kept_rate_path(model_dir: Path, precision: str, threads: int, device_type: str) -> Path | None:
    """Where ``step_rate`` keeps a CPU rate: beside the jobs' own step times (``compute.PrecisionCache``'s folder), keyed
    by what the rate depends on, each read without torch: the CPU, the threads, the installed torch, the model's
    ``config.json`` and the configured format. None for a GPU (its name needs torch)."""
    from importlib.metadata import version

    from ..compute import PrecisionCache, cpu_name

    if device_type != "cpu":
        return None
    architecture = hashlib.sha256((model_dir / "config.json").read_bytes()).hexdigest()
    key = {"machine": cpu_name(), "threads": threads, "torch": version("torch"), "model_config": architecture, "precision": precision}
    return PrecisionCache().folder / f"rate-{hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:20]}.json"


def step_rate(model_dir: Path, precision: str, threads: int, device_type: str = "cpu", *, measure: bool = True) -> StepRate:
    """``measure_rate``'s rate, kept once found, so that every later forecast on this machine (each run prints one) reads
    it in milliseconds instead of seconds of loading torch; a kept rate older than ``RATE_MAX_AGE_S`` is measured
    again. With ``measure`` False a rate not kept, or kept too long, raises ``RateUnknown``."""
    path = kept_rate_path(model_dir, precision, threads, device_type)
    with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
        kept = StepRate(**json.loads(path.read_text(encoding="utf-8")))
        if time.time() - kept.measured < RATE_MAX_AGE_S:
            return kept
    if not measure:
        raise RateUnknown(f"no rate of {model_dir} at {threads} threads ({precision}) kept on this machine in the last day")
    rate = measure_rate(model_dir, precision, threads, device_type)
    if path is not None:
        write_text_atomic(path, json.dumps(asdict(rate)))
    return rate


def torch_may_see_gpu() -> bool:
    """False where the installed torch is a CPU-only build (its version ends ``+cpu``), read without loading it."""
    from importlib.metadata import version

    return not version("torch").endswith("+cpu")


def forecast_run(
    jobs: list[dict], config: Mapping, cores: int, root: Path, *, device_type: str = "cpu", gpus: int = 0, measure: bool = True
) -> RunForecast:
    """The forecast of ``jobs`` (``plan.planned_job_details``) on this machine's ``cores`` (and ``gpus``), with the lines
    that say it: trials from this machine's measured rate on ``device_type`` (``step_rate``: with ``measure`` False,
    only a rate already kept), the rest from the run records."""
    from ..compute import model_job_threads

    throughput = throughput_record()
    record = newest_record(str(config.get("scale", "default")))
    precision = config["training"]["precision"]
    wanted = sorted({(job["wildcards"]["lm"], int(job.get("threads", 1))) for job in jobs if job["rule"] in TRIAL_RULES})
    main = (config["training"].get("language_models") or [None])[0]
    scoring_threads = model_job_threads(config["training"]["threads"], cores)
    # the main model's scoring rate scales the recorded model scorings: measured only where the run has some
    scores = any(job["rule"] in MODEL_SCORING_RULES for job in jobs)
    if main and scores and (main, scoring_threads) not in wanted:
        wanted.append((main, scoring_threads))
    rates, missing = {}, []
    for alias, threads in wanted:
        model_dir = model_config_dir(alias, config, root)
        if model_dir is None:
            missing.append(alias)
            continue
        rates[(alias, threads)] = step_rate(model_dir, precision, threads, device_type, measure=measure)
    ratio = step_ratio(rates.get((main, scoring_threads)), record)
    merged = job_times(jobs, config, rates, record, throughput, ratio)
    schedule = play_out(jobs, [t.seconds for t in merged], cores, gpus)
    for t in merged:
        schedule.by_how[t.how] = schedule.by_how.get(t.how, 0) + 1
    lines = forecast_lines(schedule, list(rates.values()), record, missing, ratio)
    return RunForecast(schedule, list(rates.values()), record, lines)


def forecast_lines(schedule: Schedule, rates: list[StepRate], record: Mapping | None, missing: list[str], ratio: float | None) -> list[str]:
    """What the forecast says: the wall-clock, the busy share, the chain that ends it, and what its figures come from."""
    lines = [
        f"about {duration(schedule.seconds)} for {schedule.jobs} jobs on {schedule.cores} cores "
        f"({schedule.busy_share:.0%} of them busy); the chain that ends it: "
        + " -> ".join(f"{label} ({duration(seconds)})" for label, seconds in schedule.critical_path if seconds >= 60)
    ]
    for rate in rates:
        lines.append(
            f"measured here: a step of 32 x 32 tokens {rate.train_s * 1000:.0f} ms forward and backward, {rate.forward_s * 1000:.0f} ms forward "
            f"({rate.device}, {rate.precision}, {rate.threads} thread{'s' if rate.threads > 1 else ''}; {rate.how}; "
            f"this step measured {time.strftime('%Y-%m-%d %H:%M', time.localtime(rate.measured))}, again after {RATE_MAX_AGE_S / 3600:.0f} h)"
        )
    how = ", ".join(f"{count} {name}" for name, count in sorted(schedule.by_how.items()))
    source = f"the run record of {record['commit']} on {record['cpu']} ({record['date']})" if record else "no run record of this scale"
    if ratio:
        source += f", a model's jobs there times {ratio:.2f} (this machine's step over the record's {record['probe']['train_s'] * 1000:.0f} ms)"
    lines.append(f"jobs timed by: {how}; trials from their workload at the rate above, the other jobs from {source}")
    if missing:
        lines.append(f"no rate for {', '.join(sorted(set(missing)))} (its model is not here yet): its trials from the record")
    return lines


def gpu_forecast(jobs: list[dict], config: Mapping, cores: int, root: Path) -> RunForecast:
    """The same run with its training and scoring jobs on this machine's first GPU, one at a time (profiles/gpu)."""
    on_gpu = [job | {"resources": {**job.get("resources", {}), "gpu": "1"}} if job["rule"] in MODEL_RULES else job for job in jobs]
    return forecast_run(on_gpu, config, cores, root, device_type="cuda", gpus=1)


def forecast_report(jobs: list[dict], config: Mapping, cores: int, root: Path, targets: str, *, measure: bool = True) -> list[str]:
    """The lines a run or ``bin/doctor`` prints: the forecast at ``cores``, and where torch sees a GPU the run's jobs do
    not use, the local-GPU command with its forecast. With ``measure`` False torch is never loaded: a rate not kept, or
    a torch that could see a GPU, raises ``RateUnknown``."""
    if not jobs:
        return ["nothing to run"]
    lines = forecast_run(jobs, config, cores, root, measure=measure).lines
    if not uses_models(jobs) or not torch_may_see_gpu():  # no job a GPU would take, or no GPU torch could use
        return lines
    if not measure:
        raise RateUnknown("whether torch sees a GPU")
    import torch

    from ..compute import model_job_gpus

    if torch.cuda.is_available() and not model_job_gpus(config["training"]["gpus"], None):
        on_gpu = gpu_forecast(jobs, config, cores, root)
        lines.append(
            f"this machine has a GPU ({torch.cuda.get_device_name(0)}) that these jobs do not use: "
            f".venv/bin/snakemake {targets} --workflow-profile profiles/gpu would take {on_gpu.lines[0]}"
        )
    return lines


def uses_models(jobs: list[dict]) -> bool:
    """Whether any of ``jobs`` trains or scores with a model: only then does the forecast measure a rate (torch)."""
    return any(job["rule"] in MODEL_RULES for job in jobs)


def forecast_at_run_start(workflow, config: Mapping, cores: int, basedir: str) -> str:
    """The lines a local run prints before its first job: the forecast of the jobs its DAG plans (Snakemake's
    ``workflow``, handed over by the rules and read through ``snakemake_state``), made here from the run records and
    the rates kept on this machine (``step_rate``), else in a process of its own that loads torch and measures the
    model (torch and the probe stay out of Snakemake's); a forecast that cannot be made says why, and the run goes on."""
    import subprocess
    import sys
    import tempfile

    from ..workflow.snakemake_state import planned_jobs, target_files

    try:
        jobs = planned_jobs(workflow)
        with contextlib.suppress(RateUnknown):  # here, from the rates kept, where no model need be loaded
            return "\n".join(f"forecast: {line}" for line in forecast_report(jobs, config, cores, Path.cwd(), "", measure=False))
        with tempfile.TemporaryDirectory(prefix="di-forecast-") as folder:
            (Path(folder) / "jobs.json").write_text(json.dumps(jobs), encoding="utf-8")
            (Path(folder) / "config.json").write_text(json.dumps(config, default=str), encoding="utf-8")
            command = [sys.executable, "-m", __name__, "--jobs", f"{folder}/jobs.json", "--config", f"{folder}/config.json", "--cores", str(cores)]
            command += ["--targets", " ".join(target_files(workflow))]
            environment = dict(os.environ, PYTHONPATH=os.path.join(basedir, "src"))
            done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)
        return done.stdout.rstrip() or f"forecast: none ({' '.join(done.stderr.strip().splitlines()[-1:])})"
    except Exception as error:  # the forecast informs; it never stops a run
        return f"forecast: none ({type(error).__name__}: {error})"


def main(argv: list[str] | None = None) -> int:
    """``.venv/bin/python -m directional_inference.tools.run_forecast --jobs JOBS.json --config CONFIG.json --cores N [--targets T]``:
    the forecast of a planned run (its jobs as ``plan.planned_job_details`` gives them), one line each."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=Path, required=True)
    parser.add_argument("--config", type=Path, required=True)
    parser.add_argument("--cores", type=int, required=True)
    parser.add_argument("--targets", default="")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    jobs = json.loads(args.jobs.read_text(encoding="utf-8"))
    config = json.loads(args.config.read_text(encoding="utf-8"))
    for line in forecast_report(jobs, config, args.cores, Path.cwd(), args.targets):
        print(f"forecast: {line}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

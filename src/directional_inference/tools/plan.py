"""What a run will cost before it starts: the jobs of Snakemake's own dry run, per rule, with the resources each job
requests, summed into CPU-hours, GPU-hours, the largest memory request and the disk asked for; with ``--device``, the
forecast beside them (``forecast``: hours from each job's workload and a measured or derived throughput), the
wall-clock on ``--gpus`` GPUs, the searches' storage peak at ``--concurrency`` trials at once (the SLURM profile's
``jobs``), the download volume and, for Table 5, the paper's Appendix F figure.

    bin/plan results/table5.csv --configfile config/paper.yaml [--device rtx2080ti --gpus 8] [any Snakemake argument]

Under ``training.search: published`` it plans the full search of the same targets too and prints the two side by side:
training trials, GPU-hours requested and, with ``--device``, forecast.

The figures are requests, so upper bounds: ``runtime`` is what a job asks the scheduler for (the corpus-wide rules:
the scale benchmark's time per MB of input with a margin of 3, ``job_resources.py``; the others: a fixed limit per
rule), not a forecast of its time; CPU-hours are runtime x threads of every job, GPU-hours runtime x GPUs of the jobs
that request one; disk is the largest ``disk_mb`` a job asks for (the local scratch of a corpus-wide rule: its spill and
output), not the space the run's outputs take. A job whose input does not exist yet is sized from the config (``job_resources.expected_input_mb``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..config_tree import run_config
from ..workflow.phases import TRIAL_RULES

JOB_HEADER = re.compile(r"^(local)?rule (\w+):$")
FIELD = re.compile(r"^\s+(threads|resources|wildcards|input|output|log|benchmark|priority): (.*)$")
# What Snakemake needs of the workflow to plan it (the package is read from src/, as the Snakefile does)
DEFINITION = ("Snakefile", "rules", "scripts", "src", "config", "envs", "profiles", "report")
# threads as Snakemake prints them are capped by --cores; a plan asks for enough cores that none is capped
PLAN_CORES = "4096"


@dataclass
class RuleCost:
    """The requests of one rule's planned jobs, summed (hours) or at their largest (memory, disk, threads, GPUs)."""

    rule: str
    local: bool = False
    jobs: int = 0
    threads: int = 0
    gpus: int = 0
    mem_mb: int = 0
    cpu_hours: float = 0.0
    gpu_hours: float = 0.0
    disk_mb: int = 0
    runtimes: list[float] = field(default_factory=list)

    unknown: int = 0  # jobs with a request Snakemake could not compute before their input exists (<TBD>)

    def add(self, threads: int, resources: dict[str, str]) -> None:
        values = {key: _number(resources.get(key, "0")) for key in ("runtime", "gpu", "mem_mb", "disk_mb")}
        self.unknown += any(value is None for value in values.values())
        values = {key: value or 0.0 for key, value in values.items()}
        hours, gpus = values["runtime"] / 60, int(values["gpu"])
        self.jobs += 1
        self.threads, self.gpus = max(self.threads, threads), max(self.gpus, gpus)
        self.mem_mb = max(self.mem_mb, int(values["mem_mb"]))
        self.disk_mb = max(self.disk_mb, int(values["disk_mb"]))
        self.cpu_hours += hours * threads
        self.gpu_hours += hours * gpus
        self.runtimes.append(hours)


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def local_rules(workdir: str | os.PathLike) -> set[str]:
    """The rules the workflow in ``workdir`` declares local (``localrules:`` in its Snakefile and rules/): a dry run
    prints them as any other rule, yet they run where Snakemake runs, on no cluster allocation."""
    names: set[str] = set()
    root = Path(workdir)
    for path in [root / "Snakefile", *sorted((root / "rules").rglob("*.smk"))]:
        lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
        for index, line in enumerate(lines):
            if line.startswith("localrules:"):
                block = [line.removeprefix("localrules:")]
                for following in lines[index + 1 :]:
                    if following.strip() and not following[0].isspace():
                        break
                    block.append(following)
                names.update(re.findall(r"\w+", "\n".join(part.split("#")[0] for part in block)))
    return names


def copy_definition(workflow_dir: str | os.PathLike, destination: str | os.PathLike) -> Path:
    """A copy of the workflow definition of ``workflow_dir`` in ``destination`` (a new folder): planned there, a dry run
    sees no output and no metadata of a run in ``workflow_dir``."""
    copy = Path(destination)
    copy.mkdir(parents=True)
    for name in DEFINITION:
        source = Path(workflow_dir) / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        elif source.exists():
            shutil.copy2(source, copy / name)
    return copy


def planned_job_details(dry_run: str, local: set[str] = frozenset()) -> list[dict]:
    """``rule, local, threads, resources, wildcards, input, output, log, benchmark, priority`` of every job a Snakemake
    dry run prints (threads 1 and priority 0 where it prints none, as Snakemake does)."""
    jobs: list[dict] = []
    for line in dry_run.splitlines():
        if header := JOB_HEADER.match(line):
            jobs.append(
                {
                    "rule": header.group(2),
                    "local": bool(header.group(1)) or header.group(2) in local,
                    "threads": 1,
                    "resources": {},
                    "wildcards": {},
                    "input": [],
                    "output": [],
                    "log": [],
                    "benchmark": None,
                    "priority": 0,
                }
            )
        elif jobs and (found := FIELD.match(line)):
            name, value = found.groups()
            if name in ("threads", "priority"):
                jobs[-1][name] = int(value)
            elif name in ("input", "output", "log"):
                jobs[-1][name] = [path.strip() for path in value.split(", ") if path.strip()]
            elif name == "benchmark":
                jobs[-1][name] = value.strip()
            else:
                jobs[-1][name] = dict(part.strip().split("=", 1) for part in value.split(",") if "=" in part)
    return jobs


def planned_jobs(dry_run: str, local: set[str] = frozenset()) -> list[tuple[str, bool, int, dict[str, str]]]:
    """(rule, local, threads, resources) of every job a Snakemake dry run prints; a rule in ``local`` is local."""
    return [(job["rule"], job["local"], job["threads"], job["resources"]) for job in planned_job_details(dry_run, local)]


def cost_by_rule(jobs: Iterable[tuple[str, bool, int, dict[str, str]]]) -> list[RuleCost]:
    """One RuleCost per rule, in the order the rules first appear."""
    costs: dict[str, RuleCost] = {}
    for rule, local, threads, resources in jobs:
        cost = costs.setdefault(rule, RuleCost(rule, local))
        cost.add(threads, resources)
    return list(costs.values())


def format_plan(costs: list[RuleCost]) -> str:
    """The plan as a table: per rule, then in all."""
    header = f"{'rule':<34} {'jobs':>6} {'threads':>7} {'GPUs':>4} {'mem GB':>7} {'longest h':>9} {'CPU-h':>9} {'GPU-h':>9} {'disk GB':>8}"
    lines = [header, "-" * len(header)]
    for cost in sorted(costs, key=lambda c: -(c.cpu_hours + c.gpu_hours)):
        name = cost.rule + (" (local)" if cost.local else "")
        lines.append(
            f"{name:<34} {cost.jobs:>6} {cost.threads:>7} {cost.gpus:>4} {cost.mem_mb / 1000:>7.1f} "
            f"{max(cost.runtimes, default=0):>9.1f} {cost.cpu_hours:>9.1f} {cost.gpu_hours:>9.1f} {cost.disk_mb / 1000:>8.1f}"
        )
    lines.append("-" * len(header))
    lines.append(
        f"{'in all':<34} {sum(c.jobs for c in costs):>6} {max((c.threads for c in costs), default=0):>7} "
        f"{max((c.gpus for c in costs), default=0):>4} {max((c.mem_mb for c in costs), default=0) / 1000:>7.1f} "
        f"{max((max(c.runtimes, default=0) for c in costs), default=0):>9.1f} {sum(c.cpu_hours for c in costs):>9.1f} "
        f"{sum(c.gpu_hours for c in costs):>9.1f} {max((c.disk_mb for c in costs), default=0) / 1000:>8.1f}"
    )
    lines.append(
        "Requests, not forecasts: hours are each job's time limit; mem and disk are a job's largest request "
        "(src/directional_inference/tools/plan.py)."
    )
    if local := [c for c in costs if c.local]:
        lines.append(
            f"Of these, {sum(c.jobs for c in local)} jobs of local rules (marked) run where Snakemake runs, on no cluster "
            f"allocation: {sum(c.cpu_hours for c in local):.1f} of the CPU-hours are their time limits."
        )
    if unknown := sum(c.unknown for c in costs):
        lines.append(f"{unknown} jobs have a request Snakemake cannot compute before their input exists (<TBD>), counted as 0.")
    return "\n".join(lines)


def job_forecasts(jobs: list[dict], config: dict, device: str) -> list[tuple[str, str, bool, float]]:
    """(rule, how the forecast was made, whether the job asks for a GPU, forecast hours) of every planned job on
    ``device``: GPU-hours for a GPU job, CPU-hours otherwise."""
    from .forecast import device_rates, job_forecast

    rates = device_rates()
    if device not in rates:
        raise SystemExit(
            f"bin/plan: no throughput for device {device!r}; known: {', '.join(sorted(rates))} "
            "(benchmarks/device_throughput.py measures the machine it runs on)"
        )
    forecasts = []
    for job in jobs:
        forecast = job_forecast(job["rule"], job["wildcards"], job["threads"], job["resources"], config, rates[device])
        forecasts.append((job["rule"], forecast.how, int(float(job["resources"].get("gpu", 0) or 0)) > 0, forecast.hours))
    return forecasts


def wall_clock_hours(forecasts: list[tuple[str, str, bool, float]], gpus: int) -> float | None:
    """The least wall-clock of the GPU jobs on ``gpus`` GPUs: their GPU-hours spread evenly, or the longest of them,
    whichever is longer (None when no job asks for a GPU)."""
    gpu_hours = [hours for _, _, gpu, hours in forecasts if gpu]
    return max(sum(gpu_hours) / gpus, max(gpu_hours)) if gpu_hours else None


def format_forecast(jobs: list[dict], config: dict, device: str, gpus: int, concurrency: int, targets: list[str]) -> str:
    """Per rule the forecast hours on ``device`` beside the requests, the wall-clock on ``gpus`` GPUs, the storage peak
    with ``concurrency`` trials at once, the download volume and, for Table 5, the paper's Appendix F figure."""
    from .forecast import APPENDIX_F, device_rates

    forecasts = job_forecasts(jobs, config, device)
    per_rule: dict[str, list] = {}
    for rule, how, gpu, hours in forecasts:
        entry = per_rule.setdefault(rule, [0, 0.0, 0.0, how])
        entry[0] += 1
        entry[1 if gpu else 2] += hours
    lines = [
        f"Forecast on {device}:",
        *(
            f"  {size} models: {rate.train_sentences_per_s:.0f} prompt sentences trained a second, scoring "
            f"{rate.scoring_speedup:.1f} times as fast, {rate.overhead_s:.0f} s a trial; {rate.source}"
            for size, rate in sorted(device_rates()[device].items())
        ),
        *llm_rate_lines(config, device),
        f"{'rule':<34} {'jobs':>6} {'GPU-h':>9} {'CPU-h':>9}  from",
    ]
    for rule, (count, gpu_h, cpu_h, how) in sorted(per_rule.items(), key=lambda kv: -(kv[1][1] + kv[1][2])):
        lines.append(f"{rule:<34} {count:>6} {gpu_h:>9.1f} {cpu_h:>9.1f}  {how}")
    total_gpu, total_cpu = sum(v[1] for v in per_rule.values()), sum(v[2] for v in per_rule.values())
    lines.append(f"{'in all':<34} {len(jobs):>6} {total_gpu:>9.1f} {total_cpu:>9.1f}")
    if (wall_clock := wall_clock_hours(forecasts, gpus)) is not None:
        lines.append(
            f"Wall-clock on {gpus} GPUs: at least {wall_clock:.1f} h (the GPU-hours spread over "
            f"{gpus} GPUs, or the longest GPU job, whichever is longer; the corpus-wide CPU jobs run before the BoOQA scoring)."
        )
    lines.append(storage_peak(jobs, config, concurrency))
    lines.append(download_volume(config))
    if any(Path(t).name == "table5.csv" for t in targets):
        lines.append(f"The paper's Appendix F for Table 5 as it ran (RTX 2080Ti): about {APPENDIX_F['table5_gpu_hours']:.0f} GPU-hours.")
    return "\n".join(lines)


def llm_rate_lines(config: dict, device: str) -> list[str]:
    """A line per scoring LLM: the pairs a second its forecast takes on ``device`` (benchmarks/llm_scoring.py), or why
    it takes its request."""
    from .forecast import llm_pairs_per_s

    llm = config["llm"]
    lines = []
    for alias in llm["scorers"]:
        rates = {shots: llm_pairs_per_s(device, alias, shots, int(llm["batch_size"])) for shots in llm["prompts"]}
        lines.append(
            f"  LLM {alias}: "
            + (
                ", ".join(f"{rate:,.0f} pairs a second {shots}" for shots, rate in rates.items())
                + f" (benchmarks/results/llm_scoring.json, batch nearest {llm['batch_size']})"
                if rates and None not in rates.values()
                else "not measured on this device: its request"
            )
        )
    return lines


# fp32 weights of a fine-tuned model in GB, by size (RoBERTa-base 125M parameters, -large 355M; XLM-R-base 278M)
WEIGHTS_GB = {"base": 0.5, "large": 1.4, "xlm": 1.1}


def search_of(job: dict) -> tuple[str, str, str]:
    """(language model, variant, subset) of a training trial's search (BoOQA's H-only searches as ``hyponly``/``booqa``)."""
    return job["wildcards"].get("lm"), job["wildcards"].get("variant", "hyponly"), job["wildcards"].get("subset", "booqa")


def training_searches(jobs: list[dict]) -> list[tuple[str, str, str]]:
    """``search_of`` every search whose trials the plan holds, sorted."""
    return sorted({search_of(j) for j in jobs if j["rule"] in TRIAL_RULES})


def storage_peak_gb(jobs: list[dict], config: dict, concurrency: int) -> dict | None:
    """The searches' weights at their peak: each search's best set, and per trial in flight (at most ``concurrency``,
    the profile's ``jobs``) its finishing weights and its checkpoint (weights, two AdamW moments, best weights):
    5 times its weights (an estimate from fp32 parameter counts). ``{gb, searches, in_flight, largest_gb}``, or None
    when no trial is planned."""
    from .forecast import model_size

    models = config.get("models", {})
    trials = [job for job in jobs if job["rule"] in TRIAL_RULES]
    if not trials:
        return None

    def weights(alias: str) -> float:
        spec = str(models.get(alias, alias)).lower()
        return WEIGHTS_GB["xlm"] if "xlm" in spec else WEIGHTS_GB[model_size(alias, models)]

    searches = training_searches(jobs)
    largest = max(weights(lm) for lm, _, _ in searches)
    in_flight = min(concurrency, len(trials))
    return {
        "gb": sum(weights(lm) for lm, _, _ in searches) + in_flight * 5 * largest,
        "searches": len(searches),
        "in_flight": in_flight,
        "largest_gb": largest,
    }


def storage_peak(jobs: list[dict], config: dict, concurrency: int) -> str:
    """``storage_peak_gb`` as a line of the plan."""
    peak = storage_peak_gb(jobs, config, concurrency)
    if peak is None:
        return "Storage peak of the searches: no training trial planned."
    return (
        f"Storage peak of the searches: about {peak['gb']:,.0f} GB ({peak['searches']} searches' best weights, and {peak['in_flight']} "
        f"trials in flight at 5 x {peak['largest_gb']} GB: the profile's jobs = {concurrency}; fewer at once, less)."
    )


def download_volume(config: dict) -> str:
    """The bytes of the configured datasets' files (inputs.tsv; a file whose size its source does not publish is
    counted apart)."""
    from ..resources.inputs import input_table

    wanted = set(config.get("resources", {}).get("datasets", []))
    files = [item for item in input_table() if item.dataset in wanted]
    known = sum(item.size for item in files if item.size is not None)
    unknown = sum(item.size is None for item in files)
    return (
        f"Downloads: {known / 1e6:,.0f} MB in {len(files)} files of {', '.join(sorted(wanted))}"
        + (f", and {unknown} files whose size their source does not publish" if unknown else "")
        + ", plus the hub models."
    )


class PlanError(Exception):
    """Snakemake could not plan the run: its own message (a config key to set, a missing input)."""

    def __init__(self, message: str, returncode: int) -> None:
        super().__init__(message)
        self.message, self.returncode = message, returncode


def dry_run_jobs(args: list[str], workdir: str | os.PathLike) -> list[dict]:
    """The jobs (``planned_job_details``) of Snakemake's dry run with ``args`` in ``workdir``, with enough cores that no
    job's threads are capped unless ``args`` set them; PlanError with Snakemake's own message when it cannot plan."""
    snakemake = str(Path(sys.executable).with_name("snakemake"))
    given = any(arg.split("=")[0] in ("--cores", "--jobs") or arg[:2] in ("-c", "-j") for arg in args)
    cores = [] if given else ["--cores", PLAN_CORES]
    result = subprocess.run([snakemake, "--dry-run", *cores, *args], cwd=workdir, capture_output=True, text=True)
    if result.returncode != 0:
        raise PlanError(result.stdout[-3000:] + result.stderr[-6000:], result.returncode)
    return planned_job_details(result.stdout, local_rules(workdir))


def with_configfile(args: list[str], path: str | os.PathLike) -> list[str]:
    """Snakemake arguments ``args`` with the config file ``path`` laid over theirs: added to their last ``--configfile``
    list (Snakemake keeps the last one given), or as one of its own."""
    flags = [i for i, arg in enumerate(args) if arg.split("=", 1)[0] in ("--configfile", "--configfiles")]
    if not flags:
        return [*args, "--configfile", str(path)]
    at = flags[-1]
    flag, _, value = args[at].partition("=")
    head = args[:at] + [flag] + ([value] if value else [])
    end = at + 1  # --configfile=a takes that one file; --configfile a b ... every word up to the next option
    while not value and end < len(args) and not args[end].startswith("-"):
        end += 1
    return head + args[at + 1 : end] + [str(path)] + args[end:]


def search_totals(jobs: list[dict], config: dict, device: str | None) -> dict:
    """What a plan's training costs, for the comparison of the published choices with the full search: its training
    trials and searches, the GPU-hours every job requests and, on ``device``, the forecast GPU-hours."""
    trials = [job for job in jobs if job["rule"] in TRIAL_RULES]
    per_search: dict[tuple[str, str, str], int] = {}
    for job in trials:
        per_search[search_of(job)] = per_search.get(search_of(job), 0) + 1
    totals = {
        "trials": len(trials),
        "searches": len(per_search),
        "one_trial": sum(n == 1 for n in per_search.values()),
        "trial_gpu_hours": sum(c.gpu_hours for c in cost_by_rule((j["rule"], j["local"], j["threads"], j["resources"]) for j in trials)),
        "gpu_hours": sum(c.gpu_hours for c in cost_by_rule((j["rule"], j["local"], j["threads"], j["resources"]) for j in jobs)),
    }
    if device:
        forecasts = job_forecasts(jobs, config, device)
        totals["forecast_gpu_hours"] = sum(hours for _, _, gpu, hours in forecasts if gpu)
        totals["forecast_trial_gpu_hours"] = sum(hours for job, (_, _, gpu, hours) in zip(jobs, forecasts) if gpu and job["rule"] in TRIAL_RULES)
    return totals


def format_search_comparison(published: dict, full: dict, device: str | None) -> str:
    """The published choices' plan beside the full search's (``search_totals`` of each), for the same targets."""
    rows = [
        ("training trials", "trials", "{:,}"),
        ("searches cut to the published trial", "one_trial", "{:,}"),
        ("GPU-hours requested, training trials", "trial_gpu_hours", "{:,.1f}"),
        ("GPU-hours requested, every job", "gpu_hours", "{:,.1f}"),
    ]
    if device:
        rows += [
            (f"forecast GPU-hours on {device}, training trials", "forecast_trial_gpu_hours", "{:,.1f}"),
            (f"forecast GPU-hours on {device}, every job", "forecast_gpu_hours", "{:,.1f}"),
        ]
    width = max(len(label) for label, _, _ in rows)
    lines = [
        "The published choices (training.search: published) beside the full search (training.search: full), the same targets:",
        f"{'':<{width}} {'published':>10} {'full':>10}",
    ]
    lines += [f"{label:<{width}} {form.format(published[key]):>10} {form.format(full[key]):>10}" for label, key, form in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``bin/plan [--device KIND] [--gpus N] [--concurrency N] <Snakemake arguments>``."""
    args = list(sys.argv[1:] if argv is None else argv)
    options = {"--device": None, "--gpus": "8", "--concurrency": "100"}
    for name in options:
        while name in args:
            at = args.index(name)
            if at + 1 == len(args) or args[at + 1].startswith("-"):
                sys.stderr.write(f"bin/plan: {name} needs a value ({main.__doc__.split('``')[1]})\n")
                return 2
            options[name] = args[at + 1]
            del args[at : at + 2]
    try:
        jobs = dry_run_jobs(args, Path.cwd())
    except PlanError as error:
        sys.stderr.write(error.message)
        return error.returncode
    costs = cost_by_rule((j["rule"], j["local"], j["threads"], j["resources"]) for j in jobs)
    if not costs:
        print("Nothing to be done: every requested output is up to date.")
        return 0
    print(format_plan(costs))
    config = run_config(args, Path.cwd())
    if options["--device"]:
        targets = [arg for arg in args if not arg.startswith("-") and arg.endswith((".csv", ".png", ".md", ".json", ".parquet"))]
        print()
        print(format_forecast(jobs, config, options["--device"], int(options["--gpus"]), int(options["--concurrency"]), targets))
    if config["training"]["search"] == "published":
        import tempfile

        with tempfile.TemporaryDirectory(prefix="plan-full-") as scratch:
            full_search = Path(scratch) / "full-search.yaml"
            full_search.write_text("training: {search: full}\n", encoding="utf-8")
            full_args = with_configfile(args, full_search)
            try:
                full_jobs = dry_run_jobs(full_args, Path.cwd())
            except PlanError as error:
                sys.stderr.write(error.message)
                return error.returncode
            full_config = run_config(full_args, Path.cwd())
        print()
        print(
            format_search_comparison(
                search_totals(jobs, config, options["--device"]), search_totals(full_jobs, full_config, options["--device"]), options["--device"]
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

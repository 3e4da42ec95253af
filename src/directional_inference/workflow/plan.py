"""What a run will cost before it starts: the jobs of Snakemake's own dry run, per rule, with the resources each job
requests, summed into CPU-hours, GPU-hours, the largest memory request and the disk asked for.

    bin/plan results/table5.csv --configfile config/paper.yaml [any other Snakemake argument]

The figures are requests, so upper bounds: ``runtime`` is what a job asks the scheduler for (the corpus-wide rules:
the scale benchmark's time per MB of input with a margin of 3, ``job_resources.py``; the others: a fixed limit per
rule), not a forecast of its time; CPU-hours are runtime x threads of every job, GPU-hours runtime x GPUs of the jobs
that request one; disk is the largest ``disk_mb`` a job asks for (the local scratch of a corpus-wide rule: its spill and
output), not the space the run's outputs take. A job whose input does not exist yet is sized from the config (``job_resources.expected_input_mb``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

JOB_HEADER = re.compile(r"^(local)?rule (\w+):$")
FIELD = re.compile(r"^\s+(threads|resources): (.*)$")
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
                for following in lines[index + 1:]:
                    if following.strip() and not following[0].isspace():
                        break
                    block.append(following)
                names.update(re.findall(r"\w+", "\n".join(part.split("#")[0] for part in block)))
    return names


def planned_jobs(dry_run: str, local: set[str] = frozenset()) -> list[tuple[str, bool, int, dict[str, str]]]:
    """(rule, local, threads, resources) of every job a Snakemake dry run prints; a rule in ``local`` is local."""
    jobs, current = [], None
    for line in dry_run.splitlines():
        if header := JOB_HEADER.match(line):
            current = [header.group(2), bool(header.group(1)) or header.group(2) in local, 1, {}]
            jobs.append(current)
        elif current is not None and (found := FIELD.match(line)):
            if found.group(1) == "threads":
                current[2] = int(found.group(2))
            else:
                current[3] = dict(part.strip().split("=", 1) for part in found.group(2).split(",") if "=" in part)
    return [tuple(job) for job in jobs]


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
        lines.append(f"{name:<34} {cost.jobs:>6} {cost.threads:>7} {cost.gpus:>4} {cost.mem_mb / 1000:>7.1f} "
                     f"{max(cost.runtimes, default=0):>9.1f} {cost.cpu_hours:>9.1f} {cost.gpu_hours:>9.1f} {cost.disk_mb / 1000:>8.1f}")
    lines.append("-" * len(header))
    lines.append(f"{'in all':<34} {sum(c.jobs for c in costs):>6} {max((c.threads for c in costs), default=0):>7} "
                 f"{max((c.gpus for c in costs), default=0):>4} {max((c.mem_mb for c in costs), default=0) / 1000:>7.1f} "
                 f"{max((max(c.runtimes, default=0) for c in costs), default=0):>9.1f} {sum(c.cpu_hours for c in costs):>9.1f} "
                 f"{sum(c.gpu_hours for c in costs):>9.1f} {max((c.disk_mb for c in costs), default=0) / 1000:>8.1f}")
    lines.append("Requests, not forecasts: hours are each job's time limit; mem and disk are a job's largest request "
                 "(src/directional_inference/workflow/plan.py).")
    if local := [c for c in costs if c.local]:
        lines.append(f"Of these, {sum(c.jobs for c in local)} jobs of local rules (marked) run where Snakemake runs, on no cluster "
                     f"allocation: {sum(c.cpu_hours for c in local):.1f} of the CPU-hours are their time limits.")
    if unknown := sum(c.unknown for c in costs):
        lines.append(f"{unknown} jobs have a request Snakemake cannot compute before their input exists (<TBD>), counted as 0.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    snakemake = str(Path(sys.executable).with_name("snakemake"))
    given = any(arg.split("=")[0] in ("--cores", "--jobs") or arg[:2] in ("-c", "-j") for arg in args)
    cores = [] if given else ["--cores", PLAN_CORES]
    result = subprocess.run([snakemake, "--dry-run", *cores, *args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-3000:] + result.stderr[-6000:])
        return result.returncode
    costs = cost_by_rule(planned_jobs(result.stdout, local_rules(Path.cwd())))
    if not costs:
        print("Nothing to be done: every requested output is up to date.")
        return 0
    print(format_plan(costs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

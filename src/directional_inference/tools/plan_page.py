"""The figures of docs/paper-scale.md (and docs/experiments.md's count of the paper run's searches), generated from one
snapshot of ``bin/plan`` at paper scale, never typed.

The snapshot (``docs/paper-plan.json``) holds, for each target of ``PLANS``, what ``bin/plan`` computes from
Snakemake's dry run with ``config/paper.yaml``: the requests per rule, the training searches, the storage peak of the
searches and the forecast on each device of ``DEVICES`` by kind of work. The dry runs are made in a copy of the
workflow definition (no run's outputs or metadata count), with stand-ins for the two inputs no URL serves and a
made-up commit for every hub model (``planning_overlay``: the keys paper.yaml needs set before it plans). Every block
of the page is rendered from the snapshot; the tests fail when a block differs from its rendering, and when a fresh
plan differs from the snapshot (a change of the code or config that moves the plan):

    .venv/bin/python -m directional_inference.tools.plan_page --record   # plan again, write the snapshot, render the page
    .venv/bin/python -m directional_inference.tools.plan_page            # render the page from the snapshot
    .venv/bin/python -m directional_inference.tools.plan_page --check    # exit 1 where a block is stale
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

from ..workflow.phases import BOOQA_SCORING_RULES, LEVYHOLT_SCORING_RULES, LLM_SCORING_RULES, TRIAL_RULES

from .. import layout
from ..generated import splice_block, write_or_check
from .results_page import SUBSET_NAMES

REPO = Path(__file__).resolve().parents[3]
SNAPSHOT, PAGE = REPO / "docs" / "paper-plan.json", REPO / "docs" / "paper-scale.md"
EXPERIMENTS = REPO / "docs" / "experiments.md"  # its count of the paper run's searches is rendered from the snapshot too
# name -> (targets, the overlay on paper.yaml and the planning keys); no target: the default target
PLANS: dict[str, tuple[tuple[str, ...], dict]] = {
    "table5": ((layout.result("table5.csv"),), {}),
    "table1": ((layout.result("table1.csv"),), {}),
    "table2": ((layout.result("table2.csv"),), {}),
    "table3": ((layout.result("table3.csv"),), {}),
    "table6": ((layout.result("table6.csv"),), {}),
    "table_llm": ((layout.result("table_llm.csv"),), {}),
    "all": ((), {}),
    "all_every_setting": ((), {"training": {"every_setting_for_every_model": True}}),
    # the authors' published choices (training.search: published): a published setting trains its trial alone
    "table5_published": ((layout.result("table5.csv"),), {"training": {"search": "published"}}),
    "all_published": ((), {"training": {"search": "published"}}),
}
FORECAST_ROWS = {
    "table5": "Table 5",
    "table5_published": "Table 5, the authors' published choices",
    "table1": "Table 1",
    "table2": "Table 2",
    "table3": "Table 3",
    "table6": "Table 6",
    "table_llm": "`table_llm.csv` (the LLMs on the test sets, S&S beside them)",
    "all": "the whole default target",
    "all_published": "the whole default target, the authors' published choices",
}
DEVICES = ("rtx2080ti", "cuda-nvidia-h200", "cpu-intel-xeon-processor-family-6-model-167-2-threads")
GPUS, CONCURRENCY = 8, 100  # the wall-clock's GPUs; trials in flight (profiles/slurm's jobs)
VARIANTS = {"sns": "S&S", "sns_sym": "'S&S", "hyponly": "H-only"}
SUBSETS = {**SUBSET_NAMES, "zh_full": "Chinese Full", "booqa": "BoOQA"}
BLOCKS = ("table5", "all", "forecast", "storage")
PAGES = {PAGE: BLOCKS, EXPERIMENTS: ("searches",)}  # each page rendered from the snapshot, and its blocks


def markers(name: str) -> tuple[str, str]:
    return f"<!-- plan:{name}:start -->", f"<!-- plan:{name}:end -->"


def stand_in_inputs(directory: Path) -> dict:
    """Stand-ins under ``directory`` for the two inputs no URL serves, each a folder with the files the workflow reads
    (empty), as the ``resources`` keys that name them."""
    from ..resources.fetch import CHINESE_LEVYHOLT_FILES, CLUE_FILES

    for name, files in (("levyholt-zh", CHINESE_LEVYHOLT_FILES), ("clue", CLUE_FILES)):
        for file in files:
            (directory / name / file).parent.mkdir(parents=True, exist_ok=True)
            (directory / name / file).write_text("")
    return {"resources": {"levyholt_zh": str(directory / "levyholt-zh"), "clue_news2016zh": str(directory / "clue")}}


def made_up_pins(config: Mapping) -> dict:
    """A (made-up) commit for every hub model of ``config`` without one, as the pins command prints them."""
    from ..resources.pins import unpinned_llms, unpinned_models

    pin = "0" * 40
    return {
        "models": {alias: f"{name}@{pin}" for alias, name in unpinned_models(config).items()},
        "llm": {"models": {alias: f"{name}@{pin}" for alias, name in unpinned_llms(config).items()}},
    }


def planning_overlay(directory: Path, config: Mapping) -> dict:
    """The keys ``config`` (paper.yaml's) needs set before it plans: the stand-in inputs and the made-up pins."""
    return {**stand_in_inputs(directory), **made_up_pins(config)}


def work_kind(job: Mapping) -> str:
    """What a job's hours are spent on, as the page sums them."""
    rule, variant = job["rule"], job["wildcards"].get("variant")
    if rule == "train_booqa_hyponly_trial" or (rule == "train_sns_trial" and variant == "hyponly"):
        return "H-only trials"
    if rule == "train_sns_trial":
        return "S&S trials"
    if rule in BOOQA_SCORING_RULES:
        return "BoOQA scoring"
    if rule in LEVYHOLT_SCORING_RULES:
        return "LevyHolt scoring and model checks"
    if rule in LLM_SCORING_RULES:
        return "LLM jobs"
    return "other"


def _round(value: float) -> float:
    """A figure as the snapshot keeps it: to 6 decimals, so that the page's sums of them, shown to one decimal, are
    rounded once and read as bin/plan prints them (at 2 decimals a sum of 20 parts could be off by a tenth)."""
    return round(float(value), 6)


def plan_record(jobs: list[dict], config: dict) -> dict:
    """The snapshot of one plan: its requests per rule, searches, storage peak and forecasts per device and kind."""
    from .plan import cost_by_rule, job_forecasts, search_of, storage_peak_gb, training_searches, wall_clock_hours

    rules = {
        c.rule: {
            "jobs": c.jobs,
            "local": c.local,
            "threads": c.threads,
            "gpus": c.gpus,
            "mem_gb": c.mem_mb / 1000,
            "longest_h": _round(max(c.runtimes, default=0)),
            "cpu_hours": _round(c.cpu_hours),
            "gpu_hours": _round(c.gpu_hours),
            "disk_gb": _round(c.disk_mb / 1000),
            "unknown": c.unknown,
        }
        for c in cost_by_rule((j["rule"], j["local"], j["threads"], j["resources"]) for j in jobs)
    }
    kinds = {
        c.rule: {"jobs": c.jobs, "cpu_hours": _round(c.cpu_hours), "gpu_hours": _round(c.gpu_hours)}
        for c in cost_by_rule((work_kind(j), False, j["threads"], j["resources"]) for j in jobs)
    }
    trials = Counter(search_of(j) for j in jobs if j["rule"] in TRIAL_RULES)
    forecasts = {}
    for device in DEVICES:
        made = job_forecasts(jobs, config, device)
        by_kind: dict[str, dict[str, float]] = {}
        for job, (_, how, gpu, hours) in zip(jobs, made):
            if gpu:
                entry = by_kind.setdefault(work_kind(job), {"gpu_hours": 0.0, "of_which_requests": 0.0})
                entry["gpu_hours"] += hours
                entry["of_which_requests"] += hours if how == "request" else 0.0
        forecasts[device] = {
            "gpu_hours_by_kind": {k: {n: _round(v) for n, v in e.items()} for k, e in sorted(by_kind.items())},
            "wall_clock_h": _round(wall_clock_hours(made, GPUS) or 0.0),
        }
    peak = storage_peak_gb(jobs, config, CONCURRENCY)
    return {
        "jobs": len(jobs),
        "rules": rules,
        "requested_by_kind": dict(sorted(kinds.items())),
        "searches": [list(search) for search in training_searches(jobs)],
        "trials_per_search": sorted(set(trials.values())),
        "trials": sum(trials.values()),
        "single_trial_searches": sorted(list(search) for search, n in trials.items() if n == 1),
        "storage_peak": peak and {k: v if isinstance(v, int) else _round(v) for k, v in peak.items()},
        "forecasts": forecasts,
    }


def record(workdir: Path = REPO) -> dict:
    """Plan every target of ``PLANS`` afresh (dry runs in a copy of ``workdir``'s definition) into a snapshot."""
    from .forecast import APPENDIX_F, device_rates
    from ..config_tree import run_config
    from .plan import copy_definition, dry_run_jobs

    with tempfile.TemporaryDirectory(prefix="paper-plan-") as scratch:
        root = Path(scratch)
        definition = copy_definition(workdir, root / "definition")
        paper = run_config(["--configfile", "config/paper.yaml"], definition)
        (root / "planning.yaml").write_text(yaml.safe_dump(planning_overlay(root / "inputs", paper)), encoding="utf-8")

        def plan(name: str) -> dict:
            """One target's plan, in a copy of the definition of its own (the dry runs run side by side)."""
            targets, overlay = PLANS[name]
            (root / f"{name}.yaml").write_text(yaml.safe_dump(overlay), encoding="utf-8")
            args = [*targets, "--configfile", "config/paper.yaml", str(root / "planning.yaml"), str(root / f"{name}.yaml")]
            own = copy_definition(definition, root / f"definition-{name}")
            return plan_record(dry_run_jobs(args, own), run_config(args, own))

        with ThreadPoolExecutor(max_workers=min(len(PLANS), os.cpu_count() or 1)) as pool:
            plans = dict(zip(PLANS, pool.map(plan, PLANS)))
    rates = {
        device: {
            size: {
                "train_sentences_per_s": _round(rate.train_sentences_per_s),
                "scoring_speedup": _round(rate.scoring_speedup),
                "overhead_s": _round(rate.overhead_s),
                "source": rate.source,
            }
            for size, rate in sorted(device_rates()[device].items())
        }
        for device in DEVICES
    }
    return {
        "config": "config/paper.yaml",
        "gpus": GPUS,
        "concurrency": CONCURRENCY,
        "appendix_f_table5_gpu_hours": APPENDIX_F["table5_gpu_hours"],
        "rates": rates,
        "plans": plans,
    }


def dumps(snapshot: Mapping) -> str:
    return json.dumps(snapshot, indent=1, sort_keys=True) + "\n"


# --- rendering ----------------------------------------------------------------------------------------------------------


def _hours(value: float) -> str:
    return f"{value:,.1f}"


def _totals(plan: Mapping) -> tuple[float, float]:
    return sum(r["cpu_hours"] for r in plan["rules"].values()), sum(r["gpu_hours"] for r in plan["rules"].values())


def _search_label(lm: str, variant: str, subset: str) -> str:
    return f"{lm} {VARIANTS.get(variant, variant)} {SUBSETS.get(subset, subset)}"


def table5_block(snapshot: Mapping) -> str:
    """Table 5's requests: the sums, then the rules that carry them (the others in a row together)."""
    plan = snapshot["plans"]["table5"]
    cpu, gpu = _totals(plan)
    rules = plan["rules"]
    disk_rule = max(rules, key=lambda r: rules[r]["disk_gb"])
    lines = [
        f"{plan['jobs']:,} jobs. Requested: **{_hours(cpu)} CPU-hours, {_hours(gpu)} GPU-hours**; no job asks for more than "
        f"{max(r['mem_gb'] for r in rules.values()):g} GB of memory; the largest local disk request is "
        f"{rules[disk_rule]['disk_gb']:,.0f} GB (`{disk_rule}`).",
        "",
        "| rule | jobs | threads | GPUs | memory | longest limit | CPU-h | GPU-h |",
        "|---|---|---|---|---|---|---|---|",
    ]
    major = [
        r
        for r in sorted(rules, key=lambda r: -(rules[r]["cpu_hours"] + rules[r]["gpu_hours"]))
        if rules[r]["cpu_hours"] >= 0.01 * cpu or rules[r]["gpu_hours"] >= 0.01 * gpu
    ]
    searches = [s for s in plan["searches"] if s[1] != "hyponly"]
    for rule in major:
        r = rules[rule]
        what = (
            (
                f" ({len(searches)} searches x {'/'.join(map(str, plan['trials_per_search']))} trials: "
                + ", ".join(_search_label(*s) for s in searches)
                + ")"
            )
            if rule == "train_sns_trial"
            else ""
        )
        lines.append(
            f"| `{rule}`{what} | {r['jobs']:,} | {r['threads']} | {r['gpus']} | {r['mem_gb']:g} GB | {round(r['longest_h'], 2):g} h | "
            f"{_hours(r['cpu_hours'])} | {_hours(r['gpu_hours'])} |"
        )
    rest = [rules[r] for r in rules if r not in major]

    def spread(key: str, unit: str = "") -> str:
        low, high = min(r[key] for r in rest), max(r[key] for r in rest)
        return f"{low:g}{unit}" if low == high else f"{low:g}-{high:g}{unit}"

    lines.append(
        f"| the other {len(rest)} rules | {sum(r['jobs'] for r in rest):,} | {spread('threads')} | {spread('gpus')} | "
        f"{spread('mem_gb', ' GB')} | {round(max(r['longest_h'] for r in rest), 2):g} h | {_hours(sum(r['cpu_hours'] for r in rest))} | "
        f"{_hours(sum(r['gpu_hours'] for r in rest))} |"
    )
    local = [r for r in rules.values() if r["local"]]
    lines += [
        "",
        f"Of these, {sum(r['jobs'] for r in local)} jobs of local rules (downloads and copies) run where Snakemake runs, on "
        f"no cluster allocation: {_hours(sum(r['cpu_hours'] for r in local))} of the CPU-hours are their time limits.",
    ]
    if "table5_published" in snapshot["plans"]:
        lines += ["", published_sentence(plan, snapshot["plans"]["table5_published"])]
    return "\n".join(lines) + "\n"


def published_sentence(full: Mapping, published: Mapping) -> str:
    """The published choices' plan beside the full search's: trials, jobs and requested hours, and which searches it
    cuts to the authors' trial."""
    cpu, gpu = _totals(published)
    full_cpu, full_gpu = _totals(full)
    single = published["single_trial_searches"]
    searched = [s for s in published["searches"] if s not in single]
    if not searched:
        others = ""
    elif len(searched) > 3:
        others = f", and the full search for the {len(searched)} other settings"
    else:
        others = ", and the full search for " + " and ".join(_search_label(*s) for s in searched) + " (no published choice)"
    return (
        f"With the authors' published choices (`training.search: published`, [method notes](method-notes.md)): "
        f"**{published['trials']:,} training trials instead of {full['trials']:,}**, one each for "
        + ", ".join(_search_label(*s) for s in single)
        + others
        + f"; {published['jobs']:,} jobs requesting {_hours(cpu)} CPU-hours and {_hours(gpu)} GPU-hours (the full search: "
        f"{_hours(full_cpu)} and {_hours(full_gpu)})."
    )


def search_kind(subset: str) -> str:
    """What a search trains on, as the pages count them: the English LevyHolt, the Chinese one, or BoOQA dev (H-only)."""
    return (
        "of H-only models on BoOQA dev" if subset == "booqa" else "on the Chinese LevyHolt" if subset.startswith("zh_") else "on the English LevyHolt"
    )


def searches_sentence(plan: Mapping) -> str:
    """The searches of a plan, counted once for every page that shows them: in all, and by what they train on and model
    (a search is one setting's hyper-parameter search: a model, a variant and a training subset)."""
    by_kind: dict[str, Counter] = {}
    for lm, _, subset in plan["searches"]:
        by_kind.setdefault(search_kind(subset), Counter())[lm] += 1
    kinds = [kind for kind in ("on the English LevyHolt", "of H-only models on BoOQA dev", "on the Chinese LevyHolt") if kind in by_kind]
    return f"{len(plan['searches'])} searches of {'/'.join(map(str, plan['trials_per_search']))} trials: " + ", ".join(
        f"{sum(by_kind[kind].values())} {kind} ("
        + ", ".join(f"{lm} {n}" for lm, n in sorted(by_kind[kind].items(), key=lambda kv: (-kv[1], kv[0])))
        + ")"
        for kind in kinds
    )


def searches_block(snapshot: Mapping) -> str:
    """docs/experiments.md's count of the paper run's searches: the plan of the whole default target under paper.yaml."""
    return (
        f"Under `config/paper.yaml` the whole default target plans {searches_sentence(snapshot['plans']['all'])} (generated "
        "from `docs/paper-plan.json`, as [paper scale](paper-scale.md#the-whole-default-target-at-paper-scale) counts them); "
        "the paper's Appendix F counts one search per setting it reports.\n"
    )


def all_block(snapshot: Mapping) -> str:
    """The whole default target's requests, what its trials take of them, and the plan with every setting for every model."""
    plan, every = snapshot["plans"]["all"], snapshot["plans"]["all_every_setting"]
    cpu, gpu = _totals(plan)
    kinds = plan["requested_by_kind"]
    per_model: dict[str, int] = {}
    for lm, variant, _ in plan["searches"]:
        per_model[lm] = per_model.get(lm, 0) + 1
    sns, hyponly = kinds.get("S&S trials", {}), kinds.get("H-only trials", {})
    every_cpu, every_gpu = _totals(every)
    return (
        f"{plan['jobs']:,} jobs. Requested: **{_hours(cpu)} CPU-hours, {_hours(gpu)} GPU-hours**, of which the {sns.get('jobs', 0):,} "
        f"S&S training trials are {_hours(sns.get('cpu_hours', 0))} and {_hours(sns.get('gpu_hours', 0))}, and the {hyponly.get('jobs', 0):,} "
        f"H-only trials {_hours(hyponly.get('cpu_hours', 0))} and {_hours(hyponly.get('gpu_hours', 0))}; {searches_sentence(plan)}; "
        "per model, " + ", ".join(f"{lm} {n}" for lm, n in sorted(per_model.items(), key=lambda kv: (-kv[1], kv[0]))) + ". "
        f"With `training.every_setting_for_every_model: true` (every English model trains every setting): {len(every['searches'])} "
        f"searches, {every['jobs']:,} jobs, {_hours(every_cpu)} CPU-hours and {_hours(every_gpu)} GPU-hours requested."
        + (f"\n\n{published_sentence(plan, snapshot['plans']['all_published'])}" if "all_published" in snapshot["plans"] else "")
        + "\n"
    )


KINDS = ("S&S trials", "H-only trials", "BoOQA scoring", "LLM jobs", "LevyHolt scoring and model checks")
DEVICE_NAMES = {
    "rtx2080ti": "RTX 2080Ti (from Appendix F)",
    "cuda-nvidia-h200": "H200 (measured)",
    "cpu-intel-xeon-processor-family-6-model-167-2-threads": "this project's Xeon, 2 threads (measured)",
}


def _kind_cell(entry: Mapping | None) -> str:
    """A kind's forecast GPU-hours, with the part that is its jobs' requests (no rate for them on the device)."""
    if not entry or entry["gpu_hours"] < 0.05:
        return ""
    requests = entry["of_which_requests"]
    note = "" if requests < 0.05 else (" (requests)" if requests >= entry["gpu_hours"] - 0.05 else f" ({_hours(requests)} requests)")
    return _hours(entry["gpu_hours"]) + note


def forecast_block(snapshot: Mapping) -> str:
    """The forecast table: each target on each device by kind of work, beside the requests and Appendix F; then the
    rates it rests on."""
    gpus = snapshot["gpus"]
    lines = [
        "| target | device | forecast GPU-hours | "
        + " | ".join(KINDS)
        + f" | wall-clock on {gpus} GPUs, at least | requested GPU-hours | Appendix F |",
        "|---|---|---|" + "---|" * len(KINDS) + "---|---|---|",
    ]
    appendix = {
        "table5": f"about {snapshot['appendix_f_table5_gpu_hours']:g}",
        "table_llm": "none (2023 paper)",
        "table5_published": "none (Appendix F: the full searches)",
    }
    for name, label in FORECAST_ROWS.items():
        plan = snapshot["plans"][name]
        for device in DEVICES:
            forecast = plan["forecasts"][device]
            total = sum(k["gpu_hours"] for k in forecast["gpu_hours_by_kind"].values())
            first = device == DEVICES[0]
            lines.append(
                f"| {label if first else ''} | {DEVICE_NAMES[device]} | **{_hours(total)}** | "
                + " | ".join(_kind_cell(forecast["gpu_hours_by_kind"].get(kind)) for kind in KINDS)
                + f" | {_hours(forecast['wall_clock_h'])} h | {_hours(_totals(plan)[1]) if first else ''} | "
                + f"{appendix.get(name, 'not stated') if first else ''} |"
            )
    table5 = snapshot["plans"]["table5"]["forecasts"][DEVICES[0]]["gpu_hours_by_kind"]
    over = sum(k["gpu_hours"] for k in table5.values()) / snapshot["appendix_f_table5_gpu_hours"] - 1
    lines += [
        "",
        f'The RTX 2080Ti forecast of Table 5 is {over:+.0%} against Appendix F\'s figure. "Requests": jobs with no rate on '
        "that device, counted at their time limit. The rates behind the forecasts (prompt sentences trained a second; "
        "scoring's speed over training's; the fixed time of a trial):",
        "",
    ]
    for device in DEVICES:
        rates = snapshot["rates"][device]
        lines.append(
            f"- {DEVICE_NAMES[device]}: "
            + "; ".join(
                f"{size} models {r['train_sentences_per_s']:,.0f} a second, scoring x{r['scoring_speedup']:.1f}, {r['overhead_s']:,.0f} s a trial"
                for size, r in rates.items()
            )
            + f"; {next(iter(rates.values()))['source'].split(';')[0]}"
        )
    return "\n".join(lines) + "\n"


def storage_block(snapshot: Mapping) -> str:
    """The searches' storage peak per plan, and the bound per search at a few trials in flight."""
    from .plan import WEIGHTS_GB

    peaks = {name: snapshot["plans"][name]["storage_peak"] for name in ("table5", "all")}
    bound = lambda weights, c: (1 + 5 * c) * weights  # noqa: E731  a search's best set plus c trials' weights and checkpoints
    return (
        f"The searches' storage peak with {snapshot['concurrency']} trials in flight (the SLURM profile's `jobs`): about "
        f"{peaks['table5']['gb']:,.0f} GB for Table 5 ({peaks['table5']['searches']} searches; {peaks['table5']['largest_gb']:g} GB the "
        f"largest model's weights), {peaks['all']['gb']:,.0f} GB for the whole target ({peaks['all']['searches']} searches; "
        f"{peaks['all']['largest_gb']:g} GB); fewer at once, less. One search with `c` trials in flight holds at most about "
        f"`(1 + 5c)` times its weights: {bound(WEIGHTS_GB['base'], 2):g} GB for a RoBERTa-base search at `c = 2`, "
        f"{bound(WEIGHTS_GB['base'], 10):g} GB at `c = 10`, {bound(WEIGHTS_GB['xlm'], 10):g} GB for XLM-R-base at `c = 10` "
        f"(fp32 weights: base {WEIGHTS_GB['base']:g} GB, large {WEIGHTS_GB['large']:g}, XLM-R-base {WEIGHTS_GB['xlm']:g}).\n"
    )


RENDER = {"table5": table5_block, "all": all_block, "forecast": forecast_block, "storage": storage_block, "searches": searches_block}


def rendered_page(snapshot: Mapping, page: str, blocks: tuple[str, ...] = BLOCKS) -> str:
    for name in blocks:
        page = splice_block(page, *markers(name), RENDER[name](snapshot))
    return page


def read_snapshot(path: Path = SNAPSHOT) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def stale_page(page: Path = PAGE, snapshot: Path = SNAPSHOT, blocks: tuple[str, ...] = BLOCKS) -> bool:
    text = page.read_text(encoding="utf-8")
    return rendered_page(read_snapshot(snapshot), text, blocks) != text


def stale_pages(snapshot: Path = SNAPSHOT) -> list[Path]:
    """Every page with a block rendered from the snapshot that differs from its rendering."""
    return [page for page, blocks in PAGES.items() if stale_page(page, snapshot, blocks)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="plan again (a few minutes) and write docs/paper-plan.json")
    parser.add_argument("--check", action="store_true", help="only compare: exit 1 when a block differs from its rendering")
    args = parser.parse_args(argv)
    if args.record and not args.check:
        SNAPSHOT.write_text(dumps(record()), encoding="utf-8")
    snapshot = read_snapshot()
    return max(
        write_or_check(page, rendered_page(snapshot, page.read_text(encoding="utf-8"), blocks), "directional_inference.tools.plan_page", args.check)
        for page, blocks in PAGES.items()
    )


if __name__ == "__main__":
    raise SystemExit(main())

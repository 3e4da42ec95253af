"""The phase list, the dvc.yaml generator and the benchmark summary (no workflow run)."""

from __future__ import annotations

import modulefinder
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from conftest import REPO
from directional_inference.workflow.benchmarks import summarise_benchmarks
from directional_inference.workflow.dvc_pipeline import _stage, main, module_dependencies, render
from directional_inference.workflow.phases import PHASES, Phase, phase

PACKAGE_DIR = "src/directional_inference"


def test_stages_follow_the_phase_list():
    stages = yaml.safe_load(render(REPO))["stages"]
    assert list(stages) == [p.name for p in PHASES]
    training = stages["training"]
    assert training["cmd"].endswith(
        "--allowed-rules draw_hyperparameters read_authors_trials train_sns_trial select_sns_model check_sns_model training_phase -- training_phase"
    )
    assert training["deps"][:2] == ["resources", "results/levyholt"]
    assert "scripts/train_sns_trial.py" in training["deps"] and "src/directional_inference/sns/training.py" in training["deps"]
    assert training["params"] == [{"config/config.yaml": ["seed", "training"]}]
    assert "config/config.yaml" not in training["deps"]  # keys of other phases must not re-run this one
    assert stages["tables"]["metrics"] == ["results/metrics.json"]
    assert stages["tables"]["plots"] == [
        {"results/pr_curves.csv": {"x": "recall", "y": "precision"}},
        {"results/booqa_pr_curves.csv": {"x": "recall", "y": "precision"}},
    ]


def test_overlay_config_is_passed_and_tracked():
    stages = yaml.safe_load(render(REPO, ["config/smoke.yaml"]))["stages"]
    assert "--configfile config/smoke.yaml" in stages["levyholt"]["cmd"]
    assert {"config/smoke.yaml": ["levyholt"]} in stages["levyholt"]["params"]


def test_outputs_never_overlap():
    outs = [o for p in PHASES for o in p.outs + p.metrics + p.plots]
    for a in outs:
        for b in outs:
            assert a == b or not (a + "/").startswith(b + "/"), (a, b)
    assert phase("tables").target_rule == "tables_phase"


def test_check_mode_detects_a_stale_file(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    assert main(["--check"]) == 0
    stale = tmp_path / "dvc.yaml"
    stale.write_text(render(REPO).replace("seed", "sead"))
    assert main(["--check", "--output", str(stale)]) == 1


def test_benchmark_summary_per_rule(tmp_path):
    header = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
    for name, seconds, rss in (("a", 2.0, 100.0), ("b", 3.0, 250.0)):
        path = tmp_path / "logs" / "training" / "train_sns_trial" / "m" / f"{name}.benchmark.tsv"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(header + f"{seconds}\t0:00:0{int(seconds)}\t{rss}\t0\t0\t0\t0\t0\t50\t{seconds / 2}\n")
    (tmp_path / "logs" / "report").mkdir()
    (tmp_path / "logs" / "report" / "summarise_benchmarks.benchmark.tsv").write_text(header + "0.5\t0:00:00\tNA\t-\t-\t-\t-\t-\t-\t0.1\n")
    summarise_benchmarks(tmp_path / "logs", tmp_path / "summary.csv")
    table = pd.read_csv(tmp_path / "summary.csv")
    row = table[table["rule"] == "train_sns_trial"].iloc[0]
    assert (row["jobs"], row["total_s"], row["longest_s"], row["cpu_s"], row["peak_rss_mb"]) == (2, 5.0, 3.0, 2.5, 250.0)
    assert "summarise_benchmarks" in set(table["rule"])


def test_metrics_summary_holds_every_table_number(tmp_path):
    from directional_inference.tables.summary import metrics_summary

    (tmp_path / "table5.csv").write_text(
        "method,label,en_auc_norm,en_auc_norm_low,en_auc_norm_high,en_auc_norm_paper,en_entries,note\n"
        "lm_rel,LM,17.8,12.1,23.0,15.9,795,\ngraph_cnce,CNCE,,,,34.5,,not run\n"
    )
    (tmp_path / "table4.csv").write_text("language,split,positives,negatives,positive_rate,positives_paper\nen,dev,302,459,0.3968,21809\n")
    summary = metrics_summary({"table5": tmp_path / "table5.csv", "table4": tmp_path / "table4.csv"})
    assert summary["table5"] == {"lm_rel": {"en_auc_norm": 17.8, "en_auc_norm_low": 12.1, "en_auc_norm_high": 23.0, "en_entries": 795}}
    assert summary["table4"] == {"en/dev": {"positives": 302, "negatives": 459, "positive_rate": 0.3968}}  # the paper's columns left out


def test_metrics_json_holds_every_table_the_tables_phase_writes():
    """Every table CSV of the tables phase is an input of collect_metrics with a row key, and on the default run's tables
    every numeric column that is not the paper's is a metric, each row under its own key."""
    from directional_inference.tables.summary import ROW_KEYS, metric_columns, metrics_summary

    rules = (REPO / "rules" / "tables.smk").read_text()
    written = set(re.findall(r'layout\.result\("((?:table|figure)\w*)\.csv"\)', rules))
    block = rules.split("rule collect_metrics:")[1].split("output:")[0]
    collected = set(re.findall(r'"((?:table|figure)\w*)"', block))
    assert written and written - {"findings"} <= collected, written - collected
    assert collected <= set(ROW_KEYS), collected - set(ROW_KEYS)
    for path in sorted((REPO / "docs" / "default-run").glob("*.csv")):
        if path.stem == "findings":
            continue
        frame = pd.read_csv(path)
        numeric = {
            c
            for c in frame.columns
            if pd.api.types.is_numeric_dtype(frame[c]) and frame[c].notna().any() and not c.endswith("_paper") and c != "paper_table"
        }
        assert numeric <= set(metric_columns(frame)), (path.name, numeric - set(metric_columns(frame)))
        rows = metrics_summary({path.stem: path})[path.stem]
        with_numbers = frame[[*numeric]].notna().any(axis=1).sum()
        assert len(rows) == with_numbers, path.name  # one key per row that has a number: none overwritten
        if "model" in frame.columns and "method" not in ROW_KEYS[path.stem]:  # a method names its model (sns_full@rb)
            # with a second language model (training.language_models) its rows differ from the first's by the model only
            assert "model" in ROW_KEYS[path.stem], f"{path.stem}: a second model's rows would overwrite the first's in metrics.json"


def test_no_stage_lists_a_path_twice():
    for name, stage in yaml.safe_load(render(REPO))["stages"].items():
        paths = list(stage["outs"]) + list(stage.get("metrics", [])) + [next(iter(p)) if isinstance(p, dict) else p for p in stage.get("plots", [])]
        assert len(paths) == len(set(paths)), name  # DVC refuses a file listed twice


def _bytecode_imports(scripts: list[Path], modules: tuple[str, ...] = ()) -> set[str]:
    """The package files the scripts (and the package ``modules``, e.g. "experiments.py") import, found another way than
    dvc_pipeline's (the standard library's modulefinder walks the compiled code, nested functions included): paths from
    the repository root."""
    src = REPO / "src"
    finder = modulefinder.ModuleFinder(path=[str(src)])  # third-party and standard modules are left unfound
    for script in scripts:
        finder.run_script(str(script))
    for module in modules:
        finder.import_hook("directional_inference." + module.removesuffix(".py").replace("/", "."))
    files = {Path(m.__file__).resolve() for m in finder.modules.values() if m.__file__}
    return {f.relative_to(REPO).as_posix() for f in files if f.is_relative_to(src / "directional_inference")}


def _module_deps(stage: dict) -> set[str]:
    return {dep for dep in stage["deps"] if dep.startswith(PACKAGE_DIR + "/")}


@pytest.mark.parametrize("name", [p.name for p in PHASES])
def test_stage_depends_on_every_module_its_scripts_import(name):
    stage = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"][name]  # the committed file, as DVC reads it
    item = phase(name)
    scripts = [REPO / "scripts" / f"{rule}.py" for rule in item.rules + item.shared_scripts if (REPO / "scripts" / f"{rule}.py").is_file()]
    assert scripts, name
    # the rules' helpers read planning_modules, and rules/common.smk builds the run's design for every phase
    imported = _bytecode_imports(scripts, (*item.planning_modules, "workflow/run_design.py"))
    assert imported <= _module_deps(stage), sorted(imported - _module_deps(stage))
    # nothing else: the phase list (the stage itself comes from it) and the tables inputs.py and published.py read
    tables = {"resources/inputs.py": "resources/data/inputs.tsv", "sns/published.py": "sns/data/published_choices.tsv"}
    extra = {f"{PACKAGE_DIR}/workflow/phases.py"} | {
        f"{PACKAGE_DIR}/{data}" for module, data in tables.items() if f"{PACKAGE_DIR}/{module}" in imported
    }
    assert _module_deps(stage) == imported | extra


def test_stage_module_facts_read_from_the_scripts():
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    deps = {name: {d.removeprefix(PACKAGE_DIR + "/") for d in _module_deps(stage)} for name, stage in stages.items()}
    # make_table17 -> tables.table17 -(in a function)-> evaluation.scoring -> evaluation.evidence -> booqa.negatives;
    # evaluation.scoring -(in functions)-> encoders, resources.wordnet; tables.table17 -(in a function)-> levyholt.scores
    assert {
        "tables/table17.py",
        "evaluation/scoring.py",
        "evaluation/evidence.py",
        "booqa/__init__.py",
        "booqa/negatives.py",
        "encoders.py",
        "resources/wordnet.py",
        "levyholt/scores.py",
    } <= deps["tables"]
    assert "sns/sanity.py" in deps["tables"]  # tables/common.py imports ..sns.sanity inside a function
    # score_booqa: `from directional_inference.evaluation import scoring` (a submodule) and sns.model inside a function
    assert {"evaluation/scoring.py", "sns/__init__.py", "sns/model.py", "sns/prompts.py", "compute.py"} <= deps["booqa_evaluation"]
    assert "metrics.py" in deps["training"]  # sns/training.py: `from ..metrics import evaluate_scores` in a function
    assert "sns/training.py" in deps["corpus"]  # every stage's jobs come from the run's design, which reads model_batching
    assert {"resources/inputs.py", "resources/data/inputs.tsv", "errors.py"} <= deps["resources"]
    for name, modules in deps.items():
        assert {"__init__.py", "workflow/__init__.py", "workflow/phases.py"} <= modules, name
        assert all(m.rsplit("/", 1)[0] + "/__init__.py" in modules for m in modules if "/" in m and m.endswith(".py")), name


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_imports_are_followed_through_functions_and_relative_chains(tmp_path):
    pkg = tmp_path / "src" / "fakepkg"
    _write(pkg / "__init__.py", "")
    _write(pkg / "sub" / "__init__.py", "from . import helper\n")
    _write(pkg / "sub" / "helper.py", "import os\n")
    _write(pkg / "sub" / "a.py", "def run():\n    from ..b import thing\n    return thing\n")
    _write(pkg / "b.py", "from .deep.c import x as thing\n")
    _write(pkg / "deep" / "__init__.py", "")
    _write(
        pkg / "deep" / "c.py",
        "class C:\n    def f(self):\n        from ... import outside  # beyond the package: ignored\n        from .. import d\nx = 1\n",
    )
    _write(pkg / "d.py", "import numpy\nfrom fakepkg.sub.helper import name_not_a_module\n")
    _write(pkg / "e.py", "")
    _write(pkg / "unused.py", "")
    script = tmp_path / "scripts" / "run_it.py"
    _write(script, "import json\n\n\ndef main():\n    from fakepkg.sub import a\n    import fakepkg.e as e\n    a.run()\n")
    found = module_dependencies([script], pkg, "fakepkg")
    assert found == ["__init__.py", "b.py", "d.py", "deep/__init__.py", "deep/c.py", "e.py", "sub/__init__.py", "sub/a.py", "sub/helper.py"]


def test_stage_deps_follow_the_scripts_imports(tmp_path):
    pkg = tmp_path / "src" / "directional_inference"
    _write(pkg / "__init__.py", "")
    _write(pkg / "lib" / "__init__.py", "")
    _write(pkg / "lib" / "front.py", "def go():\n    from .back import value\n    return value\n")
    _write(pkg / "lib" / "back.py", "from ..leaf import value\n")
    _write(pkg / "leaf.py", "value = 1\n")
    _write(pkg / "resources" / "__init__.py", "")
    _write(pkg / "resources" / "inputs.py", "")
    _write(pkg / "other.py", "")
    _write(pkg / "workflow" / "phases.py", "")
    _write(pkg / "workflow" / "run_design.py", "from ..leaf import value\n")  # every stage's: followed as a script's import
    _write(tmp_path / "scripts" / "fake_rule.py", "def main():\n    from directional_inference.lib import front\n    front.go()\n")
    _write(tmp_path / "scripts" / "fake_shared.py", "from directional_inference.resources import inputs\n")
    _write(tmp_path / "config" / "config.yaml", "seed: 1\n")
    _write(
        tmp_path / "rules" / "fake.smk", "rule fake_rule:\n    script: '../scripts/fake_rule.py'\n\n\nrule rule_without_script:\n    shell: 'true'\n"
    )
    fake = Phase("fake", outs=("results/fake",), upstream=(), params=("seed",), shared_scripts=("fake_shared",))
    assert fake.rules_in(tmp_path) == ("fake_rule", "rule_without_script")
    deps = _stage(fake, tmp_path, ["config/config.yaml"])["deps"]
    assert deps[deps.index("rules/fake.smk") + 1 :] == [
        "scripts/fake_rule.py",
        "scripts/fake_shared.py",
        *(
            f"{PACKAGE_DIR}/{m}"
            for m in (
                "__init__.py",
                "leaf.py",
                "lib/__init__.py",
                "lib/back.py",
                "lib/front.py",
                "resources/__init__.py",
                "resources/data/inputs.tsv",
                "resources/inputs.py",
                "workflow/phases.py",
                "workflow/run_design.py",
            )
        ),
    ]


def test_the_rule_graph_is_read_from_snakemakes_dot_and_laid_out_in_layers_of_longest_paths():
    from directional_inference.tools.rulegraph import layer_order, parse_rulegraph

    dot = """digraph snakemake_dag {
    node[shape=box];
	0[label = "all", color = "0.00 0.6 0.85", style="rounded"];
	1[label = "fetch", color = "0.19 0.6 0.85", style="rounded"];
	2[label = "build", color = "0.20 0.6 0.85", style="rounded"];
	3[label = "table", color = "0.09 0.6 0.85", style="rounded"];
	4[label = "draw", color = "0.05 0.6 0.85", style="rounded"];
	3 -> 0
	1 -> 2
	2 -> 3
	1 -> 3
	4 -> 3
	1 -> 2
}"""
    names, edges = parse_rulegraph(dot)
    assert names == ["all", "build", "draw", "fetch", "table"]
    assert edges == [("build", "table"), ("draw", "table"), ("fetch", "build"), ("fetch", "table"), ("table", "all")]
    # fetch and draw have no input (layer 0); build follows fetch (1); table follows build, its longest path (2); all 3
    assert layer_order(names, edges) == [["draw", "fetch"], ["build"], ["table"], ["all"]]
    # within a layer, by the mean place of the inputs: y (input a, place 0) before x (input b, place 1)
    assert layer_order(["a", "b", "x", "y"], [("a", "y"), ("b", "x")]) == [["a", "b"], ["y", "x"]]


def run_footprint_module():
    """benchmarks/run_footprint.py loaded as a module (benchmarks/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_footprint", REPO / "benchmarks" / "run_footprint.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_runs_footprint_sums_its_jobs_and_counts_a_file_linked_twice_once(tmp_path):
    """benchmarks/run_footprint.py: 3 jobs of 2 + 3 + 0.5 s, the largest peak RSS (250 MB) named by its rule; a result
    hard-linked from resources/ takes its disk once, in the first folder that holds it."""
    import os

    module = run_footprint_module()
    test_benchmark_summary_per_rule(tmp_path)
    (tmp_path / "resources").mkdir()
    (tmp_path / "results").mkdir()
    (tmp_path / "resources" / "big").write_bytes(os.urandom(3_000_000))
    os.link(tmp_path / "resources" / "big", tmp_path / "results" / "big")
    row = module.record(tmp_path, "smoke", 2, 60.0, "")
    assert (row["jobs"], row["job_s"], row["cpu_s"], row["peak_rss_mb"], row["peak_rule"]) == (3, 5.5, 2.6, 250.0, "train_sns_trial")
    assert 3.0 <= row["disk_mb"]["resources"] < 3.1 and row["disk_mb"]["results"] == 0.0
    # every job's seconds by its benchmark file, for the run forecast (tools.run_forecast)
    assert row["job_seconds"] == {"report/summarise_benchmarks": 0.5, "training/train_sns_trial/m/a": 2.0, "training/train_sns_trial/m/b": 3.0}
    assert "| smoke |" in module.footprint_markdown([row]) and "1 min 0 s" in module.footprint_markdown([row])
    # the forecasts said before the run: bin/doctor's note line and the run's first line, 1 h 43 min and 66 min
    (tmp_path / "doctor.log").write_text("  ok    plan      64 jobs to run\n  note  forecast  about 1 h 43 min for 64 jobs on 2 cores\n")
    (tmp_path / "run.log").write_text(
        "Building DAG of jobs...\nforecast: about 66 min for 64 jobs on 2 cores (99% busy)\nforecast: about 5 min for 1 jobs\n"
    )
    row = module.record(tmp_path, "smoke", 2, 60.0, "a note", forecast_logs={"bin/doctor": tmp_path / "doctor.log", "run": tmp_path / "run.log"})
    assert {name: f["seconds"] for name, f in row["forecasts"].items()} == {"bin/doctor": 6180, "run": 3960}
    assert "forecast before it (bin/doctor): 1 h 43 min; forecast before it (run): 1 h 6 min" in module.footprint_markdown([row])


def test_an_invocations_busy_share_weighs_each_job_by_its_threads():
    """benchmarks/run_footprint.py's busy_share on a Snakemake log: a two-thread job of 10 s, then two one-thread jobs
    of 20 s and 10 s side by side, and a job that never finished: 2 x 10 + 20 + 10 = 50 core-seconds over 2 cores x 30 s."""
    module = run_footprint_module()
    log = """Select jobs to execute...
[Sat Nov 28 10:00:00 2026]
localrule merge_relations:
    output: results/en/relations/merged.parquet
    jobid: 7
    threads: 2
    resources: tmpdir=/tmp
[Sat Nov 28 10:00:10 2026]
Finished jobid: 7 (Rule: merge_relations)
[Sat Nov 28 10:00:10 2026]
localrule train_sns_trial:
    jobid: 3
    wildcards: lm=minilm
[Sat Nov 28 10:00:10 2026]
rule sample_booqa:
    jobid: 4
[Sat Nov 28 10:00:20 2026]
Finished jobid: 4 (Rule: sample_booqa)
[Sat Nov 28 10:00:25 2026]
localrule score_booqa:
    jobid: 9
[Sat Nov 28 10:00:30 2026]
Finished jobid: 3 (Rule: train_sns_trial)
"""
    assert module.busy_share(log, 2) == {"jobs": 3, "wall_s": 30.0, "core_s": 50.0, "busy_share": 0.8333}
    # on one core a two-thread job holds one: 10 + 20 + 10 = 40 core-seconds over 30
    assert module.busy_share(log, 1)["core_s"] == 40.0


def test_a_targets_job_time_sums_the_benchmark_files_of_the_jobs_its_dry_run_plans(tmp_path):
    """benchmarks/run_footprint.py's target_job_time on a --forceall dry run: three jobs, two with benchmark files of
    this run (12.5 s and 30 s: the last line of each counts, as in a resumed job's file) and a local rule without one;
    the block shows the jobs, their time, the least wall-clock on 2 cores (21 s) and the measured run of the target alone."""
    module = run_footprint_module()
    bench = tmp_path / "logs" / "tables"
    bench.mkdir(parents=True)
    header = "s\th:m:s\tmax_rss\n"
    (bench / "a.benchmark.tsv").write_text(header + "99.0\t0:01:39\t10\n12.5\t0:00:12\t10\n")
    (bench / "b.benchmark.tsv").write_text(header + "30.0\t0:00:30\t10\n")
    dry_run = """Building DAG of jobs...
rule make_table:
    output: results/table1.csv
    benchmark: logs/tables/a.benchmark.tsv
    jobid: 1
rule train:
    benchmark: logs/tables/b.benchmark.tsv
    jobid: 2
localrule fetch:
    jobid: 3
rule elsewhere:
    benchmark: logs/tables/never-made.benchmark.tsv
    jobid: 4
"""
    assert module.target_job_time(tmp_path, "results/table1.csv", dry_run) == {
        "target": "results/table1.csv",
        "jobs": 4,
        "job_s": 42.5,
        "unmeasured": 2,
    }
    row = {
        "scale": "default",
        "cpu": "a CPU",
        "cores": 2,
        "commit": "abc",
        "targets": [module.target_job_time(tmp_path, "results/table1.csv", dry_run)],
    }
    row["invocations"] = {"results/table1.csv": {"wall_s": 60.0, "busy_share": 0.75, "jobs": 2, "core_s": 90.0}}
    block = module.targets_markdown(row)
    assert "| `results/table1.csv` | 4 (2 without a benchmark file) | 0 min 42 s | 0 min 21 s | 1 min 0 s (75% busy) |" in block


def test_the_density_block_reads_both_snapshots_side_by_side(tmp_path):
    """results_page.density_markdown: Table 4's test split, Table 5's tie-aware cells of both runs side by side (no
    signal marked), the English chance ranges, and the BoOQA findings' verdicts of both."""
    import json

    from directional_inference.tools.results_page import density_markdown

    header = "method,label,en_auc_norm_tie_aware,en_auc_norm_tie_aware_low,en_auc_norm_tie_aware_high,en_signal,en_chance_auc_norm_low,en_chance_auc_norm_high\n"
    table4 = "language,split,positives,negatives,evidence_median,evidence_mean\n"
    for name, row, split, verdict, run in (
        ("sparse", "sns_full,S&S Full,2.8,0.9,7.0,NO SIGNAL: reaches,0.0,6.8\n", "en,test,30,50,1,1.5\n", "inconclusive", "a1"),
        ("dense", "sns_full,S&S Full,9.9,4.3,18.1,above chance,0.0,11.3\n", "en,test,116,186,3,4.25\n", "supported", "b2"),
    ):
        (tmp_path / name).mkdir()
        (tmp_path / name / "table5.csv").write_text(header + row, encoding="utf-8")
        (tmp_path / name / "table4.csv").write_text(table4 + split, encoding="utf-8")
        (tmp_path / name / "findings.csv").write_text(
            f"claim,source,verdict\nS&S beats LM,Table 5,{verdict}\nOther,Table 1,supported\n", encoding="utf-8"
        )
        (tmp_path / name / "RUN.json").write_text(json.dumps({"commit": run, "cpu": "x", "date": "d"}), encoding="utf-8")
    block = density_markdown(tmp_path / "sparse", tmp_path / "dense")
    assert "commit a1" in block and "commit b2" in block
    assert "| en | 80 (30) | 1 / 1.50 | 302 (116) | 3 / 4.25 |" in block
    assert "| S&S Full | 2.8 [0.9, 7.0]: no signal | 9.9 [4.3, 18.1] |  |  |" in block
    assert "sparse 0.0-6.8, default 0.0-11.3" in block
    assert "| S&S beats LM (Table 5) | inconclusive | supported |" in block and "Other" not in block


def test_thread_seconds_weigh_each_job_by_the_threads_its_log_block_names():
    """benchmarks/thread_seconds.py: a two-thread job of 10 s (its block names threads: 2 after its benchmark line) and
    a one-thread job of 30 s of another rule: 2 x 10 + 30 = 50 thread-seconds; and a later run of 40 is 20% fewer."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("thread_seconds", REPO / "benchmarks" / "thread_seconds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    log = """[Sat Nov 28 10:00:00 2026]
localrule merge_relations:
    jobid: 7
    benchmark: logs/relations/merge_relations/en.benchmark.tsv
    threads: 2
    resources: tmpdir=/tmp
[Sat Nov 28 10:00:00 2026]
rule train_sns_trial:
    jobid: 3
    benchmark: logs/training/train_sns_trial/minilm/sns/full/trial-0.benchmark.tsv
    wildcards: lm=minilm
Select jobs to execute...
"""
    threads = module.job_threads(log)
    assert threads == {"relations/merge_relations/en": 2, "training/train_sns_trial/minilm/sns/full/trial-0": 1}
    seconds = {"relations/merge_relations/en": 10.0, "training/train_sns_trial/minilm/sns/full/trial-0": 30.0}
    assert module.by_rule(seconds, threads) == {"train_sns_trial": 30.0, "merge_relations": 20.0}
    old = {"commit": "a", "cpu": "c", "thread_s": 50.0, "best_dev_auc_norm": {"m": 74.3}, "table5_en": {"sns_full": [9.9, 4.3, 18.1]}}
    new = {"commit": "b", "cpu": "c", "thread_s": 40.0, "best_dev_auc_norm": {"m": 73.0}, "table5_en": {"sns_full": [19.0, 10.0, 30.0]}}
    assert module.compare(old, new) == {
        "old": "a",
        "new": "b",
        "cpu": "c",
        "thread_s_change": -0.2,
        "dev_auc_norm_points": {"m": -1.3},
        "table5_within_old_interval": {"sns_full": False},
    }
    runs = [old | {"date": "2026-12-05"}, old | {"date": "2026-12-06"}, new | {"date": "2026-12-06"}]
    assert module.runs_of(runs, "a@2026-12-05") == [runs[0]] and module.runs_of(runs, "a") == runs[:2] and module.runs_of(runs, "b@2026-12-05") == []


def test_the_rules_named_as_model_jobs_are_those_that_ask_for_a_gpu():
    """The plan, the forecasts and their pages tell trials and model scorings by the rule lists of workflow/phases.py;
    the rule files say the same thing by the gpu resource of exactly those rules (a renamed or new model rule fails)."""
    from directional_inference.workflow.phases import MODEL_RULES, TRIAL_RULES

    from directional_inference.workflow.phases import rule_blocks

    asking = {rule for smk in (REPO / "rules").glob("*.smk") for rule, block in rule_blocks(smk).items() if re.search(r"^\s+gpu=", block, flags=re.M)}
    assert "train_sns_trial" in asking and set(TRIAL_RULES) <= set(MODEL_RULES)
    assert asking == set(MODEL_RULES)
    assert set(MODEL_RULES) <= {rule for phase in PHASES for rule in phase.rules}

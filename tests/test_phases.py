"""The phase list, the dvc.yaml generator and the benchmark summary (no workflow run)."""

from __future__ import annotations

import pandas as pd
import yaml

from conftest import REPO
from directional_inference.benchmarks import summarise_benchmarks
from directional_inference.dvc_pipeline import main, render
from directional_inference.phases import PHASES, phase


def test_stages_follow_the_phase_list():
    stages = yaml.safe_load(render(REPO))["stages"]
    assert list(stages) == [p.name for p in PHASES]
    training = stages["training"]
    assert training["cmd"].endswith("--allowed-rules draw_hyperparameters train_sns_trial select_sns_model check_sns_model training_phase -- training_phase")
    assert training["deps"][:2] == ["resources", "results/levyholt"]
    assert "scripts/train_sns_trial.py" in training["deps"] and "src/directional_inference/sns/training.py" in training["deps"]
    assert training["params"] == [{"config/config.yaml": ["seed", "training"]}]
    assert "config/config.yaml" not in training["deps"]  # keys of other phases must not re-run this one
    assert stages["tables"]["metrics"] == ["results/metrics.json"]
    assert stages["tables"]["plots"] == [{"results/pr_curves.csv": {"x": "recall", "y": "precision"}},
                                         {"results/booqa_pr_curves.csv": {"x": "recall", "y": "precision"}}]


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
        "lm_rel,LM,17.8,12.1,23.0,15.9,795,\ngraph_cnce,CNCE,,,,34.5,,not run\n")
    (tmp_path / "table4.csv").write_text("language,split,positives,negatives,positive_rate,positives_paper\nen,dev,302,459,0.3968,21809\n")
    summary = metrics_summary({"table5": tmp_path / "table5.csv", "table4": tmp_path / "table4.csv"})
    assert summary["table5"] == {"lm_rel": {"en_auc_norm": 17.8, "en_auc_norm_low": 12.1, "en_auc_norm_high": 23.0, "en_entries": 795}}
    assert summary["table4"] == {"en/dev": {"positives": 302, "negatives": 459, "positive_rate": 0.3968}}  # the paper's columns left out


def test_no_stage_lists_a_path_twice():
    for name, stage in yaml.safe_load(render(REPO))["stages"].items():
        paths = list(stage["outs"]) + list(stage.get("metrics", [])) + [next(iter(p)) if isinstance(p, dict) else p for p in stage.get("plots", [])]
        assert len(paths) == len(set(paths)), name  # DVC refuses a file listed twice

"""DVC versions every phase: dvc.yaml is generated from the phase list; push -> clone -> pull -> nothing to do;
a config change re-runs exactly the phase that reads the key and its dependants."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml

from conftest import REPO, SMOKE, run, run_snakemake
from directional_inference.workflow.dvc_pipeline import render
from directional_inference.workflow.phases import PHASES

pytestmark = pytest.mark.workflow


def test_committed_dvc_yaml_is_current():
    assert (REPO / "dvc.yaml").read_text() == render(REPO), "dvc.yaml is stale: python -m directional_inference.workflow.dvc_pipeline"


def test_every_rule_belongs_to_exactly_one_phase():
    rules = [rule for phase in PHASES for rule in phase.rules]
    assert len(rules) == len(set(rules))
    declared = {smk.stem: {line.split()[1].rstrip(":") for line in smk.read_text().splitlines() if line.startswith("rule ")}
                for smk in (REPO / "rules").glob("*.smk")}
    report_only = declared.pop("report")  # the benchmark summary and the rule graph: facts about a run, not artefacts
    assert report_only == {"summarise_benchmarks", "draw_rulegraph"}
    assert set(rules) == set().union(*declared.values()) - {f"{p.name}_phase" for p in PHASES}
    for phase in PHASES:
        assert (REPO / "rules" / f"{phase.name}.smk").is_file()


def _digests(root: Path) -> dict[str, str]:
    stages = yaml.safe_load((root / "dvc.yaml").read_text())["stages"]
    paths = [p for s in stages.values() for p in s["outs"] + s.get("metrics", []) + [next(iter(x)) for x in s.get("plots", [])]]
    digests = {}
    for path in paths:
        files = [root / path] if (root / path).is_file() else sorted(f for f in (root / path).rglob("*") if f.is_file())
        for file in files:
            digests[str(file.relative_to(root))] = hashlib.sha256(file.read_bytes()).hexdigest()
    return digests


@pytest.fixture(scope="module")
def clone(smoke_repo, tmp_path_factory) -> Path:
    run(smoke_repo, "dvc", "push", "-q")
    target = tmp_path_factory.mktemp("clone") / "repo"
    run(smoke_repo.parent, "git", "clone", "-q", str(smoke_repo), str(target))
    run(target, "dvc", "pull", "-q")
    return target


def test_pulled_artefacts_are_byte_identical(smoke_repo, clone):
    pushed, pulled = _digests(smoke_repo), _digests(clone)
    assert len(pushed) > 100 and pulled == pushed
    assert any(p.startswith("results/models/") and p.endswith("model.safetensors") for p in pulled)


def test_after_pull_one_command_leaves_nothing_to_do(clone):
    run(clone, "bin/sync-after-pull", *SMOKE)
    result = run_snakemake(clone, "-n", *SMOKE)
    assert "Nothing to be done" in result.stdout + result.stderr, result.stdout[-3000:]


def _set_key(root: Path, section: str, key: str, value) -> None:
    path = root / "config" / "smoke.yaml"
    config = yaml.safe_load(path.read_text())
    config.setdefault(section, {})[key] = value
    path.write_text(yaml.safe_dump(config, sort_keys=False))


def _lock(root: Path) -> dict:
    return yaml.safe_load((root / "dvc.lock").read_text())["stages"]


def _changed_stages(root: Path) -> set[str]:
    status = json.loads(run(root, "dvc", "status", "--json").stdout or "{}")
    return set(status)


def test_tables_key_change_reruns_only_the_tables_phase(clone):
    run(clone, "bin/sync-after-pull", *SMOKE)
    before = _lock(clone)
    table6_before = (clone / "results" / "table6.csv").read_text()
    _set_key(clone, "evaluation", "auc_precision_floor", 0.9)
    assert _changed_stages(clone) == {"tables"}
    refused = run(clone, "bin/sync-after-pull", *SMOKE, check=False)
    assert refused.returncode != 0 and "dvc repro" in refused.stderr  # a stale artefact is never touched into date
    run(clone, "dvc", "repro", "-q")
    after = _lock(clone)
    for stage in after:
        if stage != "tables":
            assert after[stage] == before[stage], stage
    assert after["tables"] != before["tables"]
    assert (clone / "results" / "table6.csv").read_text() != table6_before  # AUC50 became AUC over precision >= 0.9
    assert _changed_stages(clone) == set()


def test_booqa_key_change_reruns_booqa_and_its_dependants_only(clone):
    run(clone, "bin/sync-after-pull", *SMOKE)
    before = _lock(clone)
    corpus_mtime = (clone / "results" / "en" / "corpus" / "articles.parquet").stat().st_mtime_ns
    _set_key(clone, "booqa", "felicity_min_pairs", 3)
    assert _changed_stages(clone) == {"booqa"}
    run(clone, "dvc", "repro", "-q")
    after = _lock(clone)
    for stage in ("resources", "corpus", "relations", "levyholt", "training", "levyholt_evaluation"):
        assert after[stage] == before[stage], stage  # upstream and unrelated phases untouched
    assert (clone / "results" / "en" / "corpus" / "articles.parquet").stat().st_mtime_ns == corpus_mtime
    assert after["booqa"]["outs"] != before["booqa"]["outs"]
    for stage in ("graphs", "robustness", "booqa_evaluation", "tables"):
        assert after[stage]["deps"] != before[stage]["deps"], stage  # every dependant re-ran on the new BoOQA
    run(clone, "bin/sync-after-pull", *SMOKE)
    result = run_snakemake(clone, "-n", *SMOKE)
    assert "Nothing to be done" in result.stdout + result.stderr


def _holds(node, key: str, value) -> bool:
    """Whether a JSON tree has ``key`` set to ``value`` anywhere (nested or as the last part of a dotted key)."""
    if isinstance(node, dict):
        return any((k == key or k.endswith("." + key)) and v == value or _holds(v, key, value) for k, v in node.items())
    return isinstance(node, list) and any(_holds(item, key, value) for item in node)


def test_dvc_experiment_with_a_changed_key(smoke_repo, tmp_path):
    """The README's experiment commands: `dvc exp run -S` re-runs the phases that read the key, `dvc exp show` lists
    the experiment with its params, `dvc metrics diff` shows the numbers that moved."""
    run(smoke_repo, "dvc", "push", "-q")
    target = tmp_path / "repo"
    run(tmp_path, "git", "clone", "-q", str(smoke_repo), str(target))
    run(target, "dvc", "pull", "-q")
    run(target, "bin/sync-after-pull", *SMOKE)
    before = _lock(target)
    run(target, "dvc", "exp", "run", "-q", "-n", "floor-09", "-S", "config/smoke.yaml:evaluation.auc_precision_floor=0.9")
    after = _lock(target)
    assert {stage for stage in after if after[stage] != before[stage]} == {"tables"}
    shown = run(target, "dvc", "exp", "show", "--json").stdout
    assert "floor-09" in shown and _holds(json.loads(shown), "auc_precision_floor", 0.9), shown[:3000]
    diff = json.loads(run(target, "dvc", "metrics", "diff", "--json").stdout)["results/metrics.json"]
    moved = {key for key, change in diff.items() if "auc50" in key and change.get("diff")}
    assert moved, "AUC50 over precision >= 0.9 differs from AUC50 over 0.5 for some row"
    assert not any(change.get("diff") for key, change in diff.items() if "auc_norm" in key and "auc50" not in key)

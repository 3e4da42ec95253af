"""DVC versions every phase: dvc.yaml is generated from the phase list; push -> clone -> pull -> nothing to do;
a config change re-runs exactly the phase that reads the key and its dependants; the README's DVC lines work as typed."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO, SMOKE, run, run_snakemake
from directional_inference.workflow.dvc_pipeline import render
from directional_inference.workflow.phases import PHASES

pytestmark = pytest.mark.workflow


def test_committed_dvc_yaml_is_current():
    assert (REPO / "dvc.yaml").read_text() == render(REPO), "dvc.yaml is stale: .venv/bin/python -m directional_inference.workflow.dvc_pipeline"


def test_every_rule_belongs_to_exactly_one_phase():
    rules = [rule for phase in PHASES for rule in phase.rules]
    assert len(rules) == len(set(rules))
    declared = {
        smk.stem: {line.split()[1].rstrip(":") for line in smk.read_text().splitlines() if line.startswith("rule ")}
        for smk in (REPO / "rules").glob("*.smk")
    }
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


def test_a_booqa_key_change_reruns_booqa_and_leaves_exactly_its_dependants_to_rerun(clone):
    """A key of the booqa phase: `dvc repro booqa` re-runs that phase alone (upstream phases untouched, their files not
    re-made), and then DVC holds exactly the phases that read BoOQA as changed, none of the others. (The dependants are
    not run: DVC re-makes a stage's outputs whole, so they were most of the smoke run again, 4 min of CI; the README's
    experiment and the SLURM test re-run a stage through DVC.)"""
    run(clone, "bin/sync-after-pull", *SMOKE)
    before = _lock(clone)
    corpus_mtime = (clone / "results" / "en" / "corpus" / "articles.parquet").stat().st_mtime_ns
    _set_key(clone, "booqa", "felicity_min_pairs", 3)
    assert _changed_stages(clone) == {"booqa"}
    run(clone, "dvc", "repro", "-q", "booqa")
    after = _lock(clone)
    for stage in ("resources", "corpus", "relations", "levyholt", "training"):
        assert after[stage] == before[stage], stage  # upstream and unrelated phases untouched
    assert (clone / "results" / "en" / "corpus" / "articles.parquet").stat().st_mtime_ns == corpus_mtime
    assert after["booqa"]["outs"] != before["booqa"]["outs"]
    assert after["booqa"]["params"] != before["booqa"]["params"]
    assert _changed_stages(clone) == {"graphs", "robustness", "booqa_evaluation", "tables"}  # the phases that read BoOQA


def test_dvcs_own_preview_runs_in_a_plain_shell_on_a_fresh_clone_after_setup(tmp_path):
    """`dvc repro --dry` on a fresh clone, after bin/setup, in a plain shell: exits 0 and lists every stage as one to
    run. (DVC 3 looks each stage up in its run cache by the hashes of its deps, also in a dry run, and stops at the first
    that is missing, "No such file or directory: .../resources": bin/setup makes those folders. `dvc exp run --dry`
    previews in a fresh git checkout of its own, without them: treeverse/dvc#10135, docs/operations.md.)"""
    from conftest import copy_workflow

    run(REPO, "bin/setup")  # the clone shares this suite's environment, which bin/setup must find current
    clone = copy_workflow(tmp_path / "clone")
    shutil.copy2(REPO / "dvc.yaml", clone / "dvc.yaml")
    shutil.copytree(REPO / ".dvc", clone / ".dvc", ignore=shutil.ignore_patterns("cache", "tmp", "config.local"))
    shell = plain_shell(tmp_path / "home")
    for command in ("git init -q", "git add -A", "git commit -q -m workflow"):
        run(clone, "bash", "-c", command, env=shell)
    (clone / ".venv").symlink_to(Path(sys.prefix))
    stopped = run(clone, "bash", "-c", ".venv/bin/dvc repro --dry", env=shell, check=False)
    assert stopped.returncode != 0 and "No such file or directory" in stopped.stderr, stopped.stderr  # before bin/setup
    run(clone, "bash", "-c", "bin/setup", env=shell)
    result = run(clone, "bash", "-c", ".venv/bin/dvc repro --dry", env=shell)
    stages = yaml.safe_load((clone / "dvc.yaml").read_text(encoding="utf-8"))["stages"]
    assert all(f"Running stage '{stage}'" in result.stdout for stage in stages), result.stdout[-3000:]


def _holds(node, key: str, value) -> bool:
    """Whether a JSON tree has ``key`` set to ``value`` anywhere (nested or as the last part of a dotted key)."""
    if isinstance(node, dict):
        return any((k == key or k.endswith("." + key)) and v == value or _holds(v, key, value) for k, v in node.items())
    return isinstance(node, list) and any(_holds(item, key, value) for item in node)


def readme_dvc_commands() -> list[str]:
    """The DVC lines of the README's "DVC, SLURM, reruns and tests" block, as printed (comments and the SLURM lines left
    out), for another config as the README says: ``--configfile`` to bin/doctor, bin/sync-after-pull and snakemake, the file
    in -S."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## DVC, SLURM, reruns and tests", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    block = block.split("# the paper's scale on SLURM", 1)[0]
    lines = [line.split("   # ")[0].strip() for line in block.splitlines() if line.strip() and not line.startswith("#")]
    return [
        re.sub(r"(bin/doctor|bin/sync-after-pull|\.venv/bin/snakemake -n)", rf"\1 {' '.join(SMOKE)}", line).replace(
            "config/config.yaml:", "config/smoke.yaml:"
        )
        for line in lines
    ]


def plain_shell(home: Path) -> dict[str, str]:
    """The environment of a user's plain shell (env -i, a minimal PATH, a HOME with a git identity): no activated
    environment, no PATH to .venv; the tests' own offline and analytics variables only."""
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text("[user]\n\tname = A User\n\temail = user@example.org\n", encoding="utf-8")
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "DVC_NO_ANALYTICS": "1",
    }


def test_the_readmes_dvc_commands_as_typed(smoke_repo, tmp_path):
    """A lab publishes its run and a colleague pulls it and runs an experiment, each with the README's commands in a
    plain shell (bash -c, nothing on PATH but /usr/bin:/bin), against a real local DVC remote: after the pull Snakemake has
    nothing to do; `dvc exp run -S` re-runs only the phase that reads the key, and `dvc metrics diff` shows what moved."""
    from conftest import copy_run

    publish, pull, experiment = readme_dvc_commands()
    # the clones share this suite's environment: bin/setup must find it current, or it would re-install it from a clone
    run(REPO, "bin/setup")
    assert publish.startswith(".venv/bin/dvc commit") and "dvc pull" in pull and "dvc exp run -S" in experiment
    shell = plain_shell(tmp_path / "home")
    # the lab: its finished run, its code committed, a remote of its own, the environment bin/setup made (.venv)
    lab = copy_run(smoke_repo, tmp_path / "lab")
    (lab / ".venv").symlink_to(Path(sys.prefix))
    remote = tmp_path / "remote"
    for command in (
        ["git", "init", "-q"],
        ["dvc", "init", "-q"],
        ["dvc", "config", "core.analytics", "false"],
        ["dvc", "remote", "add", "-d", "store", str(remote)],
        [sys.executable, "-m", "directional_inference.workflow.dvc_pipeline", *SMOKE],
    ):
        run(lab, *command)
    run(lab, "git", "add", "-A")
    run(lab, "git", "commit", "-q", "-m", "the lab's workflow and config")
    run(lab, "bash", "-c", publish, env=shell)
    assert any(remote.rglob("*")) and "dvc.lock" in run(lab, "git", "show", "--stat", "HEAD").stdout
    # the colleague: a fresh clone, the same environment (bin/setup finds it current and installs nothing)
    colleague = tmp_path / "colleague"
    run(tmp_path, "git", "clone", "-q", str(lab), str(colleague))
    (colleague / ".venv").symlink_to(Path(sys.prefix))
    result = run(colleague, "bash", "-c", pull, env=shell)
    assert "Nothing to be done" in result.stdout + result.stderr, result.stdout[-3000:]
    assert "Nothing found that would stop the run." in result.stdout and "dvc.lock records them" in result.stdout  # the preflight
    installed = run(colleague, ".venv/bin/python", "-c", "import directional_inference; print(directional_inference.__file__)").stdout
    assert installed.startswith(str(REPO / "src")), installed  # bin/setup installed nothing
    before = _lock(colleague)
    table6_before = (colleague / "results" / "table6.csv").read_text()
    result = run(colleague, "bash", "-c", experiment, env=shell)
    after = _lock(colleague)
    assert {stage for stage in after if after[stage] != before[stage]} == {"tables"}  # only the phase that reads the key
    assert (colleague / "results" / "table6.csv").read_text() != table6_before  # AUC50 became AUC over precision >= 0.9
    assert _changed_stages(colleague) == set()
    key, value = experiment.split("-S config/smoke.yaml:", 1)[1].split()[0].split("=")
    shown = json.loads(run(colleague, "bash", "-c", ".venv/bin/dvc exp show --json", env=shell).stdout)
    assert _holds(shown, key.rsplit(".", 1)[1], float(value)), json.dumps(shown)[:3000]
    diff = json.loads(run(colleague, "bash", "-c", ".venv/bin/dvc metrics diff --json", env=shell).stdout)["results/metrics.json"]
    assert any("auc50" in name and change.get("diff") for name, change in diff.items()), result.stdout[-3000:]
    assert not any(change.get("diff") for name, change in diff.items() if "auc_norm" in name and "auc50" not in name)
    # a key changed and not reproduced: the sync refuses to touch stale artefacts into date and says to run dvc repro
    _set_key(colleague, "evaluation", "auc_precision_floor", 0.8)
    assert _changed_stages(colleague) == {"tables"}
    refused = run(colleague, "bash", "-c", f"bin/sync-after-pull {' '.join(SMOKE)}", env=shell, check=False)
    assert refused.returncode != 0 and "dvc repro" in refused.stderr

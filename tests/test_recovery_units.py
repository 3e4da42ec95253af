"""Recovery at the start of a run, unit by unit: the stale outputs found from Snakemake's records, the incomplete marks
Snakemake reads back, the job scratch folders and their sweep. The whole of it, with Snakemake killing and rerunning
jobs, is tests/test_recovery.py."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from directional_inference.recovery.outputs import code_changes, stale_outputs
from directional_inference.workflow.snakemake_state import Record, mark_incomplete, record_key, record_path, recorded_outputs
from directional_inference.scratch import job_folder, job_scratch, scratch_root, sweep_scratch, workflow_scratch

# a -> b -> c -> d, a -> e; f made from a source file; t a temp() output consumed by u
RECORDS = {
    output: Record(f"make_{output}", tuple(inputs))
    for output, inputs in {"b": ["a"], "c": ["b", "src"], "d": ["c"], "e": ["a"], "f": ["src"], "u": ["t"]}.items()
}
PRODUCTS = {"a", "b", "c", "d", "e", "f", "t", "u"}
TEMP = {"t"}


def _judge(present: set[str]) -> dict[str, str]:
    return stale_outputs(RECORDS, present.__contains__, lambda p: p in PRODUCTS and p not in TEMP)


def test_nothing_is_stale_when_every_product_is_there_or_a_temp_output_is_gone():
    assert _judge({"a", "b", "c", "d", "e", "f", "src", "u"}) == {}


def test_what_was_made_from_a_lost_product_is_stale_and_so_is_everything_made_from_it():
    # a was lost (its job died): b and e were made from it, c from b, d from c; f and u do not depend on it
    stale = _judge({"b", "c", "d", "e", "f", "src", "u"})
    assert list(stale) == ["b", "e", "c", "d"]  # breadth first from the lost product
    assert stale["b"] == "its input a is missing" and stale["c"] == "made from b, which is stale"


def test_a_missing_output_is_not_stale_itself_and_a_lost_source_is_not_a_lost_product():
    # c is lost: d is stale; b (upstream) is not; src gone is the user's business (Snakemake stops on a missing input)
    assert list(_judge({"a", "b", "d", "e", "f", "u"})) == ["d"]


def test_an_output_older_than_its_code_is_stale_and_so_is_what_was_made_from_it():
    present = {"a", "b", "c", "d", "e", "f", "src", "u"}
    stale = stale_outputs(
        RECORDS, present.__contains__, lambda p: p in PRODUCTS and p not in TEMP, lambda output, rule: "new code" if rule == "make_c" else None
    )
    assert stale == {"c": "new code", "d": "made from c, which is stale"}


def test_code_changes_follow_the_modules_a_rules_script_imports(tmp_path):
    package = tmp_path / "src" / "directional_inference"
    (package / "booqa").mkdir(parents=True)
    for name in ("__init__.py", "booqa/__init__.py", "booqa/sampling.py", "metrics.py", "engine.py"):
        (package / name).write_text("")
    (package / "booqa" / "sampling.py").write_text("from ..engine import Engine\n")
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "sample_booqa.py").write_text("from directional_inference.booqa.sampling import sample\n")
    (scripts / "make_table.py").write_text("from directional_inference.metrics import auc\n")
    for module in package.rglob("*.py"):
        os.utime(module, (1000, 1000))
    os.utime(package / "engine.py", (3000, 3000))  # changed after the outputs (time 2000) were made
    outdated = code_changes(
        {"sample_booqa": str(scripts / "sample_booqa.py"), "make_table": str(scripts / "make_table.py")}, package, time_of=lambda output: 2000
    )
    assert outdated("results/en/booqa/test.parquet", "sample_booqa") == f"its code changed since it was made ({package / 'engine.py'})"
    assert outdated("results/table5.csv", "make_table") is None  # its script does not reach engine.py
    assert outdated("resources/x", "fetch_dataset") is None  # a rule without a script (or unknown)


def _write_record(state: Path, output: str, inputs: list[str]) -> Path:
    path = record_path(state / "metadata", output)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"rule": "r", "input": inputs, "record_format_version": 6}))
    return path


def test_records_are_read_by_the_output_they_stand_for_long_paths_included(tmp_path):
    state = tmp_path / ".snakemake"
    (state / "metadata").mkdir(parents=True)
    long = "results/" + "x" * 300 + "/scores.parquet"  # its record name is cut into folders, as Snakemake cuts it
    short_record = _write_record(state, "results/a.parquet", ["resources/in"])
    long_record = _write_record(state, long, ["results/a.parquet"])
    assert short_record.name == base64.urlsafe_b64encode(b"results/a.parquet").decode()
    assert long_record.parent != state / "metadata" and long_record.parent.name.startswith("@")
    (state / "metadata" / "garbage").write_text("{not json")
    assert recorded_outputs(state) == {"results/a.parquet": Record("r", ("resources/in",)), long: Record("r", ("results/a.parquet",))}
    assert record_key(long_record.relative_to(state / "metadata")) == long


def test_marks_are_written_where_snakemake_looks_for_them(tmp_path):
    from snakemake.persistence.file import FilePersistence

    state = tmp_path / ".snakemake"
    long = "results/" + "y" * 400 + ".parquet"
    assert mark_incomplete(state, ["results/a.parquet", long]) == ["results/a.parquet", long]
    assert mark_incomplete(state, ["results/a.parquet"]) == []  # marked once
    # Snakemake's own file store finds exactly these marks
    store = FilePersistence.__new__(FilePersistence)
    store._max_len, store._incomplete_path, store._incomplete_cache = None, str(state / "incomplete"), None
    assert store._filter_incomplete_keys(["results/a.parquet", long, "results/b.parquet"]) == {"results/a.parquet", long}


def test_a_job_scratch_folder_is_named_after_rule_and_wildcards_emptied_first_and_removed_after(tmp_path):
    root = tmp_path / "scratch"
    job = SimpleNamespace(
        rule="merge_relations",
        wildcards=SimpleNamespace(items=lambda: [("lang", "en"), ("part", "3")]),
        config={"scratch_root": str(root)},
        resources=SimpleNamespace(tmpdir=str(tmp_path / "unused")),
    )
    folder = job_folder(root, "merge_relations", {"lang": "en", "part": "3"})
    assert folder == workflow_scratch(root) / "merge_relations" / "lang=en,part=3"
    folder.mkdir(parents=True)
    (folder / "duckdb.tmp").write_text("left by a killed run")
    sibling = job_folder(root, "merge_relations", {"lang": "zh", "part": "3"})
    sibling.mkdir(parents=True)
    with job_scratch(job) as scratch:
        assert scratch == folder and list(folder.iterdir()) == []  # emptied
        (scratch / "staging.parquet").write_text("x")
    assert not folder.exists() and sibling.exists()  # removed; a folder of another job stays
    with pytest.raises(RuntimeError), job_scratch(job) as scratch:
        raise RuntimeError("the job failed")
    assert not folder.exists()


def test_the_root_follows_config_then_tmpdir_and_expands_variables(tmp_path, monkeypatch):
    monkeypatch.setenv("NODE_LOCAL", str(tmp_path / "node"))
    assert scratch_root("$NODE_LOCAL/di", "/ignored") == tmp_path / "node" / "di"
    assert scratch_root(None, str(tmp_path / "tmpdir")) == tmp_path / "tmpdir"


def test_the_sweep_removes_this_workdirs_folders_only(tmp_path):
    root = tmp_path / "scratch"
    mine = job_folder(root, "select_booqa_positives", {"lang": "en"}, workdir=tmp_path / "a")
    theirs = job_folder(root, "select_booqa_positives", {"lang": "en"}, workdir=tmp_path / "b")
    for folder in (mine, theirs):
        folder.mkdir(parents=True)
        (folder / "spill.tmp").write_text("x")
    assert sweep_scratch(root, workdir=tmp_path / "a") == [mine]
    assert not workflow_scratch(root, tmp_path / "a").exists() and (theirs / "spill.tmp").exists()
    assert sweep_scratch(root, workdir=tmp_path / "a") == []
    assert os.path.isdir(root)

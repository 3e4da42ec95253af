"""workflow.snakemake_state, the one door to Snakemake's internals, driven by a real run of the pinned Snakemake: a
workflow of three rules reads through it what this workflow's rules read (cores, offered GPUs, the persistence backend,
its lock files, the planned jobs), and its state directory is read and marked as recovery reads and marks it. Each
assertion says which of Snakemake's internals moved, so that a new Snakemake that keeps them elsewhere fails here with
a message rather than in recovery's silence."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import run, tool_environment
from directional_inference.workflow import snakemake_state
from directional_inference.workflow.snakemake_state import DIRECTORY_TIMESTAMP, Record, SnakemakeChanged

SRC = Path(__file__).resolve().parents[1] / "src"

SNAKEFILE = """
import json, os
from directional_inference.workflow import snakemake_state as state

onstart:
    locks = state.lock_files(workflow)
    seen = {
        "cores": state.run_cores(workflow),
        "gpus": state.offered_gpus(workflow),
        "metadata_in_files": state.metadata_in_files(workflow),
        "locks": [[os.path.relpath(path), os.path.isfile(path)] for path in locks],
        "jobs": sorted([job["rule"], job["output"], job["threads"], job["resources"]["gpu"]] for job in state.planned_jobs(workflow)),
        "targets": state.target_files(workflow),
    }
    with open("seen.json", "w") as file:
        json.dump(seen, file)

rule all:
    input: "b.txt", "d"

rule a:
    output: "a.txt"
    shell: "echo a > {output}"

rule b:
    input: "a.txt"
    output: "b.txt"
    threads: 2
    resources: gpu=1
    shell: "cat {input} > {output}"

rule make_d:
    output: directory("d")
    shell: "mkdir -p {output} && echo x > {output}/f"
"""


def _snakemake(workdir: Path, *args: str):
    env = tool_environment() | {"PYTHONPATH": str(SRC)}
    return run(workdir, str(Path(sys.executable).with_name("snakemake")), *args, env=env)


def test_a_real_run_reads_and_marks_its_state_through_the_door(tmp_path):
    (tmp_path / "Snakefile").write_text(SNAKEFILE, encoding="utf-8")
    _snakemake(tmp_path, "b.txt", "d", "--cores", "3", "--resources", "gpu=1")
    seen = json.loads((tmp_path / "seen.json").read_text(encoding="utf-8"))
    assert (seen["cores"], seen["gpus"]) == (3, 1), f"the run's --cores and --resources moved in Snakemake's global_resources: {seen}"
    assert seen["metadata_in_files"] is True, "the default persistence backend is no longer named FILE"
    assert seen["locks"] and all(path.startswith(".snakemake/locks/") and there for path, there in seen["locks"]), (
        f"the file store's _lockfile no longer lists the lock files it holds: {seen['locks']}"
    )
    assert seen["jobs"] == [
        ["a", ["a.txt"], 1, "0"],
        ["b", ["b.txt"], 2, "1"],
        ["make_d", ["d"], 1, "0"],
    ], f"the DAG's jobs read otherwise: {seen['jobs']}"
    assert seen["targets"] == ["b.txt", "d"], f"the DAG's target files read otherwise: {seen['targets']}"

    state = tmp_path / ".snakemake"
    records = snakemake_state.recorded_outputs(state)
    assert {path: records.get(path) for path in ("a.txt", "b.txt", "d")} == {
        "a.txt": Record("a", ()),
        "b.txt": Record("b", ("a.txt",)),
        "d": Record("make_d", ()),
    }, f"Snakemake's metadata records are no longer read as the file store keeps them: {records}"
    stamp = tmp_path / "d" / DIRECTORY_TIMESTAMP
    assert stamp.is_file(), "a directory output no longer has the timestamp file whose time Snakemake reads as its own"
    os.utime(stamp, (1000, 1000))
    assert snakemake_state.output_time(str(tmp_path / "d")) == 1000

    assert "Nothing to be done" in _snakemake(tmp_path, "--cores", "1", "-n", "all").stdout
    assert snakemake_state.mark_incomplete(state, ["b.txt"]) == ["b.txt"]
    dry = _snakemake(tmp_path, "--cores", "1", "-n", "--rerun-incomplete", "all").stdout
    assert "rule b:" in dry and "rule a:" not in dry, f"Snakemake did not read the incomplete marker as an unfinished job:\n{dry}"


def test_a_run_with_its_metadata_in_a_database_holds_no_lock_files_here(tmp_path):
    (tmp_path / "Snakefile").write_text(SNAKEFILE, encoding="utf-8")
    _snakemake(tmp_path, "a", "--cores", "1", "--persistence-backend", "db")
    seen = json.loads((tmp_path / "seen.json").read_text(encoding="utf-8"))
    assert seen["metadata_in_files"] is False and seen["locks"] == [], seen


@pytest.mark.parametrize(
    ("read", "workflow", "moved"),
    [
        (snakemake_state.run_cores, SimpleNamespace(), "workflow.global_resources"),
        (snakemake_state.metadata_in_files, SimpleNamespace(workflow_settings=SimpleNamespace()), "workflow.workflow_settings.persistence_backend"),
        (
            snakemake_state.lock_files,
            SimpleNamespace(workflow_settings=SimpleNamespace(persistence_backend=SimpleNamespace(name="FILE")), persistence=SimpleNamespace()),
            "workflow.persistence._lockfile",
        ),
        (snakemake_state.planned_jobs, SimpleNamespace(), "workflow.dag"),
    ],
)
def test_a_snakemake_that_moved_what_the_door_reads_is_named_not_silently_read_as_nothing(read, workflow, moved):
    with pytest.raises(SnakemakeChanged, match=rf"has no {moved} .*snakemake_state\.py reads it"):
        read(workflow)

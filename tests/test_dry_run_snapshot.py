"""What the run plans does not move under a change that should not move it: the dry runs of the default, smoke and paper
configs (a second S&S model and both predictions files laid over) against tests/snapshots (tests/dry_run_snapshot.py)."""

from __future__ import annotations

import pytest
from dry_run_snapshot import CONFIGS, REPO, differences, planned, read_snapshot

from directional_inference.tools.plan import copy_definition


@pytest.mark.parametrize("scale", list(CONFIGS))
def test_the_dry_run_plans_the_jobs_of_the_committed_snapshot(scale):
    jobs = planned(scale)
    assert any("tiny" in job["wildcards"].values() for job in jobs), "the second S&S model is planned"
    assert any("mine/booqa.tsv" in job["input"] for job in jobs), "the BoOQA scores file is read"
    assert any("mine/levyholt.tsv" in job["input"] for job in jobs), "the LevyHolt predictions file is read"
    moved = differences(read_snapshot(scale), jobs)
    assert not moved, (
        f"the {scale} config's dry run plans other jobs than tests/snapshots holds (where the change is meant to move "
        "them, .venv/bin/python tests/dry_run_snapshot.py --update):\n" + "\n".join(moved)
    )


def test_a_rule_whose_log_moved_shows_as_the_job_planned_in_one_and_not_the_other(tmp_path):
    copy = copy_definition(REPO, tmp_path / "moved")
    rules = copy / "rules" / "booqa.smk"
    text = rules.read_text(encoding="utf-8")
    old = 'layout.job_log("booqa", "build_booqa_hyponly", "{lang}")'
    assert text.count(old) == 1
    rules.write_text(text.replace(old, 'layout.job_log("booqa", "build_booqa_hyponly_moved", "{lang}")'), encoding="utf-8")
    moved = differences(read_snapshot("smoke"), planned("smoke", copy))
    assert len(moved) == 4  # en and zh, each planned before and not after, and after and not before
    assert sum(line.startswith("- ") and "build_booqa_hyponly/en.log" in line for line in moved) == 1
    assert sum(line.startswith("+ ") and "build_booqa_hyponly_moved/en.log" in line for line in moved) == 1


def test_a_rule_whose_request_moved_shows_as_moved_too(tmp_path):
    """The snapshot holds each job's threads and resources, so a corpus-wide rule's demand that changes (here the
    merge's memory) moves its jobs."""
    copy = copy_definition(REPO, tmp_path / "moved")
    rules = copy / "rules" / "relations.smk"
    text = rules.read_text(encoding="utf-8")
    old = "**corpus_job(Demand(mem_mb=6000, disk_per_input_mb=3.0, seconds_per_mb=0.15))"
    assert text.count(old) == 1
    rules.write_text(text.replace(old, old.replace("mem_mb=6000", "mem_mb=7000")), encoding="utf-8")
    moved = differences(read_snapshot("smoke"), planned("smoke", copy))
    assert len(moved) == 4 and all("merge_relations" in line for line in moved)  # en and zh, before and after
    assert sum(line.startswith("+ ") and '"mem_mb": "7000"' in line for line in moved) == 2

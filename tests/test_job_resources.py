"""What a corpus-wide job asks of a cluster (job_resources): memory flat, disk and time following its input, more on
a retry; sized from the config, or from imported relation files, before the input exists. Each corpus-wide rule states
its demand in its own resources, where the forecasts find it."""

from __future__ import annotations

import pytest

from directional_inference.workflow.job_resources import (
    RETRY_GROWTH,
    Demand,
    corpus_job_resources,
    expected_input_mb,
    imported_input_mb,
    resource_function,
)
from directional_inference.workflow.phases import corpus_wide_rules, rule_blocks

MERGE = Demand(mem_mb=6000, disk_per_input_mb=3.0, seconds_per_mb=0.15)


def test_a_request_follows_the_input_and_the_attempt():
    # 1,000 MB of input: disk 1,000 base + 3 x 1,000; time 5 minutes + 3 (margin) x 0.15 s x 1,000 / 60 = 12.5 minutes
    assert [MERGE.request(key, 1000.0) for key in ("mem_mb", "disk_mb", "runtime")] == [6000, 4000, 13]
    # a retry asks for half as much memory and disk again, and for the time once more
    assert RETRY_GROWTH == 1.5
    assert [MERGE.request(key, 1000.0, attempt=2) for key in ("mem_mb", "disk_mb", "runtime")] == [9000, 6000, 25]


def test_a_job_is_sized_by_its_input_once_it_exists_else_by_the_estimate(tmp_path):
    merged = tmp_path / "merged.parquet"
    merged.write_bytes(b"x" * 2_000_000)  # 2 MB
    disk = resource_function(MERGE, "disk_mb", lambda wildcards: 500.0)
    assert disk({}, [str(merged)], 1) == 1000 + 3 * 2  # its 2 MB
    assert disk({}, [str(tmp_path / "missing.parquet")], 1) == 1000 + 3 * 500  # the estimate
    extraction = Demand(mem_mb=3000, disk_per_input_mb=0.5, seconds_per_mb=50.0, reads="corpus table")
    halves = resource_function(extraction, "runtime", lambda wildcards: 0.0, lambda wildcards: 0.5)
    assert halves({}, [str(merged)], 1) == 8  # its block, half the table (1 MB): 5 + 3 x 50 / 60 = 7.5 minutes, rounded up


def test_a_corpus_job_asks_for_its_disk_as_node_scratch_only_where_the_config_says_so(tmp_path):
    merged = tmp_path / "merged.parquet"
    merged.write_bytes(b"x" * 2_000_000)
    asked = corpus_job_resources(MERGE, lambda wildcards: 500.0, None, node_scratch=True)
    assert list(asked) == ["mem_mb", "disk_mb", "slurm_extra", "runtime"]
    assert asked["slurm_extra"]({}, [str(merged)], 2) == f"--tmp={asked['disk_mb']({}, [str(merged)], 2)}M" == "--tmp=1509M"
    assert corpus_job_resources(MERGE, lambda wildcards: 500.0, None, node_scratch=False)["slurm_extra"]({}, [str(merged)], 1) == ""
    with pytest.raises(ValueError, match="reads"):
        Demand(mem_mb=1, disk_per_input_mb=1.0, seconds_per_mb=1.0, reads="corpus")


def test_a_job_before_its_input_is_sized_by_what_it_reads():
    # 1,000 Reuters articles of 347 bytes: a table of 0.347 MB, raw files twice that; a shard of 4 its quarter;
    # relations: 4.56 a article of 56 bytes
    config = {"corpus": {"en": {"source": "reuters21578", "max_articles": 1000}}}
    sizes = {reads: expected_input_mb(reads, "en", config, shards=4) for reads in ("raw corpus", "corpus table", "relation file", "relations")}
    assert sizes == pytest.approx({"raw corpus": 0.694, "corpus table": 0.347, "relation file": 0.347 / 4, "relations": 1000 * 4.56 * 56 / 1e6})


def test_imported_relations_size_their_jobs_from_the_files(tmp_path):
    files = [tmp_path / "a.parquet", tmp_path / "b.tsv"]
    files[0].write_bytes(b"x" * 1_000_000)
    files[1].write_bytes(b"x" * 3_000_000)
    assert imported_input_mb("relation file", files) == 2.0  # one file a job: the mean
    assert imported_input_mb("relations", files) == 4.0  # every relation


def test_the_corpus_wide_rules_are_those_whose_resources_state_a_demand(tmp_path):
    """The forecasts tell a corpus-wide job (its time the request over the margin) by its rule's resources; a rule file
    with such a rule adds it, one without drops it."""
    rules = corpus_wide_rules()
    assert {"build_corpus", "extract_relations", "merge_relations", "select_booqa_positives", "build_entailment_graph"} <= rules
    assert not rules & {"train_sns_trial", "score_booqa", "fetch_dataset", "make_booqa_table"}
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "a.smk").write_text(
        "rule big:\n    resources:\n        **corpus_job(Demand(mem_mb=1, disk_per_input_mb=1.0, seconds_per_mb=1.0)),\n\n"
        "rule small:\n    resources:\n        mem_mb=100,\n",
        encoding="utf-8",
    )
    assert list(rule_blocks(tmp_path / "rules" / "a.smk")) == ["big", "small"]
    assert corpus_wide_rules(tmp_path) == {"big"}

"""What a corpus-wide job asks of a cluster (job_resources): memory flat, disk and time following its input, more on
a retry; sized from the config, or from imported relation files, before the input exists."""

from __future__ import annotations

from directional_inference.workflow.job_resources import DEMANDS, RETRY_GROWTH, Demand, imported_input_mb, resource_function


def test_a_request_follows_the_input_and_the_attempt():
    demand = Demand(mem_mb=6000, disk_per_input_mb=3.0, seconds_per_mb=0.15)
    # 1,000 MB of input: disk 1,000 base + 3 x 1,000; time 5 minutes + 3 (margin) x 0.15 s x 1,000 / 60 = 12.5 minutes
    assert [demand.request(key, 1000.0) for key in ("mem_mb", "disk_mb", "runtime")] == [6000, 4000, 13]
    # a retry asks for half as much memory and disk again, and for the time once more
    assert RETRY_GROWTH == 1.5
    assert [demand.request(key, 1000.0, attempt=2) for key in ("mem_mb", "disk_mb", "runtime")] == [9000, 6000, 25]


def test_a_job_is_sized_by_its_input_once_it_exists_else_by_the_estimate(tmp_path):
    merged = tmp_path / "merged.parquet"
    merged.write_bytes(b"x" * 2_000_000)  # 2 MB
    memory = resource_function("merge_relations", "disk_mb", lambda wildcards: 500.0)
    assert memory({}, [str(merged)], 1) == DEMANDS["merge_relations"].request("disk_mb", 2.0)
    assert memory({}, [str(tmp_path / "missing.parquet")], 1) == DEMANDS["merge_relations"].request("disk_mb", 500.0)
    halves = resource_function("extract_relations", "runtime", lambda wildcards: 0.0, lambda wildcards: 0.5)
    assert halves({}, [str(merged)], 1) == DEMANDS["extract_relations"].request("runtime", 1.0)  # its block: half the table


def test_imported_relations_size_their_jobs_from_the_files(tmp_path):
    files = [tmp_path / "a.parquet", tmp_path / "b.tsv"]
    files[0].write_bytes(b"x" * 1_000_000)
    files[1].write_bytes(b"x" * 3_000_000)
    assert imported_input_mb("import_relations", files) == 2.0  # one file a job: the mean
    assert imported_input_mb("merge_relations", files) == 4.0  # every relation

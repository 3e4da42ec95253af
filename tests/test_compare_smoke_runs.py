"""tests/compare_smoke_runs.py tells two runs' results/ apart file by file (the smoke runs themselves are on demand)."""

from __future__ import annotations

from compare_smoke_runs import compare, digests


def test_two_runs_differ_by_the_files_only_in_one_and_those_of_other_bytes(tmp_path):
    for run, files in (("first", {"a.csv": "1", "sub/b.csv": "2", "c.csv": "3"}), ("second", {"a.csv": "1", "sub/b.csv": "two", "d.csv": "4"})):
        for name, text in files.items():
            (tmp_path / run / "results" / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / run / "results" / name).write_text(text, encoding="utf-8")
    (tmp_path / "second" / "logs").mkdir()
    (tmp_path / "second" / "logs" / "x.log").write_text("not an output", encoding="utf-8")
    first, second = digests(tmp_path / "first"), digests(tmp_path / "second")
    assert sorted(first) == ["results/a.csv", "results/c.csv", "results/sub/b.csv"]
    assert compare(first, second) == [
        "results/c.csv: only in the first",
        "results/d.csv: only in the second",
        "results/sub/b.csv: other bytes",
    ]
    assert compare(first, first) == []

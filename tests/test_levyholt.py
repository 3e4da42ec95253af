"""LevyHolt split, sub-groups, subsets and their labels, from the real Levy/Holt files of the mirror."""

from __future__ import annotations

from collections import Counter

import pytest

from directional_inference.errors import InputFormatError
from directional_inference.fetch import fetch_dataset
from directional_inference.levyholt import (
    SUBSETS,
    Entry,
    build_from_raw,
    read_authors_subset,
    read_entries,
    read_subset_tsv,
    stratified_sample,
    subset_label,
    write_entries,
    write_levyholt_datasets,
)

SEED = 47110815


@pytest.fixture(scope="module")
def inputs(tmp_path_factory, mirrors):
    root = tmp_path_factory.mktemp("levyholt-inputs")
    fetch_dataset("levyholt", root / "levyholt", mirrors)
    fetch_dataset("levyholt-authors", root / "authors", mirrors)
    return root


@pytest.fixture(scope="module")
def splits(inputs):
    return build_from_raw(inputs / "levyholt", SEED)


def test_sns_split_reproduces_the_authors_files_exactly(splits, inputs):
    assert [len(splits.full[s]) for s in ("train", "dev", "test")] == [4388, 1098, 12921]
    assert [sum(e.label for e in splits.full[s]) for s in ("train", "dev", "test")] == [868, 217, 2831]
    for split in ("train", "dev", "test"):
        released = read_authors_subset(inputs / "authors", "full", split)
        assert [e.key for e in splits.full[split]] == [e.key for e in released], split


def test_subgroup_counts_equal_the_papers(splits):
    test = {name: len(entries) for name, entries in splits.groups["test"].items()}
    assert test == {"dirtrue": 892, "dirfalse": 892, "paraphrases": 1939, "unrelated": 9198}
    for name, total in {"dirtrue": 315, "dirfalse": 315, "paraphrases": 770, "unrelated": 4086}.items():
        assert len(splits.groups["train"][name]) + len(splits.groups["dev"][name]) == total, name
    # the re-split keeps roughly 80/20 and never separates the two directions of a pair
    assert 60 <= len(splits.groups["dev"]["dirtrue"]) <= 66


def test_directional_pairs_stay_in_one_split(splits):
    for split in ("train", "dev"):
        true_side = {(e.premise, e.hypothesis) for e in splits.groups[split]["dirtrue"]}
        false_side = {(e.hypothesis, e.premise) for e in splits.groups[split]["dirfalse"]}
        assert true_side == false_side, split


def test_subset_labels_follow_the_papers_rule():
    assert subset_label("dirtrue", "directional") and not subset_label("dirfalse", "directional")
    assert subset_label("paraphrases", "para_dirtrue") and not subset_label("dirtrue", "para_dirtrue")  # both entailed
    assert subset_label("dirfalse", "dirfalse_unrel") and not subset_label("unrelated", "dirfalse_unrel")  # neither
    assert subset_label("paraphrases", "para_dirfalse") and subset_label("dirtrue", "dirtrue_unrel")
    with pytest.raises(ValueError):
        subset_label("unrelated", "directional")


def test_subsets_match_the_papers_sizes_and_positive_rates(splits):
    expected = {"directional": (1784, 0.5), "symmetric": (11137, 0.1741), "para_dirtrue": (2831, 0.6849),
                "para_dirfalse": (2831, 0.6849), "dirtrue_unrel": (10090, 0.0884), "dirfalse_unrel": (10090, 0.0884)}
    for name, (size, xi) in expected.items():
        test = splits.subset(name, "test")
        assert len(test) == size and sum(e.label for e in test) / size == pytest.approx(xi, abs=1e-4), name
        first, _ = SUBSETS[name]
        assert all(e.label == (e.subgroup == first) for e in test)


def test_matches_the_authors_directional_and_symmetric_test_files(splits, inputs):
    for name in ("directional", "symmetric", "dirtrue_unrel", "para_dirfalse"):
        ours = Counter((e.premise, e.hypothesis, e.label) for e in splits.subset(name, "test"))
        theirs = Counter((e.premise, e.hypothesis, e.label) for e in read_authors_subset(inputs / "authors", name, "test"))
        assert ours == theirs, name


def test_written_datasets_round_trip_and_hypothesis_only_masks_premise(inputs, tmp_path):
    out = tmp_path / "levyholt"
    limits = {"train": 100, "dev": 50, "test": 200}
    write_levyholt_datasets(out, levyholt_dir=inputs / "levyholt", authors_dir=inputs / "authors", source="raw", seed=SEED, limits=limits)
    train = read_subset_tsv(out / "directional" / "train.tsv")
    assert len(train) == 100 and sum(e.label for e in train) == 50
    masked = read_subset_tsv(out / "directional_hyponly" / "train.tsv")
    assert [e.hypothesis for e in masked] == [e.hypothesis for e in train]
    assert {e.premise for e in masked} == {("true", "", "")}
    counts = (out / "subgroups.csv").read_text().splitlines()
    assert counts[0] == "subgroup,train,dev,test,train_paper,dev_paper,test_paper"
    assert "dirtrue,252,63,892,251,64,892" in counts
    sherliic = read_subset_tsv(out / "sherliic" / "test.tsv")
    assert len(sherliic) == 200 and sherliic[0].hypothesis[1:] == ("", "")
    # same inputs and seed: byte-identical files
    again = tmp_path / "again"
    write_levyholt_datasets(again, levyholt_dir=inputs / "levyholt", authors_dir=inputs / "authors", source="raw", seed=SEED, limits=limits)
    for path in out.rglob("*.tsv"):
        assert path.read_bytes() == (again / path.relative_to(out)).read_bytes(), path


def test_authors_source_uses_the_released_files(inputs, tmp_path):
    out = tmp_path / "authors"
    write_levyholt_datasets(out, levyholt_dir=inputs / "levyholt", authors_dir=inputs / "authors", source="authors",
                            seed=SEED, limits={"train": None, "dev": None, "test": None})
    assert len(read_subset_tsv(out / "para_dirtrue" / "test.tsv")) == 2640  # the released file, not 2831
    assert "para_dirtrue,test,2640,924" in (out / "subsets.csv").read_text()


def test_stratified_sample_keeps_shares_and_order():
    entries = [Entry(("a", str(i), "b"), ("a", "x", "b"), i % 4 == 0, "g", i) for i in range(100)]
    sample = stratified_sample(entries, 20, seed=1)
    assert len(sample) == 20 and sum(e.label for e in sample) == 5
    assert [e.order for e in sample] == sorted(e.order for e in sample)
    assert stratified_sample(entries, None, seed=1) == entries


def test_bad_lines_name_file_line_and_field(tmp_path):
    bad = tmp_path / "dev_s.txt"
    bad.write_text("a,b,c\td,e,f\tTrue\na,b\td,e,f\tFalse\n")
    with pytest.raises(InputFormatError, match=r"line 2, field 'hypothesis'"):
        read_entries(bad)
    bad.write_text("a,b,c\td,e,f\tyes\n")
    with pytest.raises(InputFormatError, match=r"line 1, field 'label'"):
        read_entries(bad)
    tsv = tmp_path / "x.tsv"
    write_entries(tsv, [Entry(("a", "b", "c"), ("d", "e", "f"), True, "g")])
    tsv.write_text(tsv.read_text().replace("\t1\t", "\tmaybe\t"))
    with pytest.raises(InputFormatError, match=r"line 2, field 'label'"):
        read_subset_tsv(tsv)

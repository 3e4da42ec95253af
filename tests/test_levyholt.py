"""LevyHolt split, sub-groups, subsets and their labels, from the real Levy/Holt files of the mirror."""

from __future__ import annotations

from collections import Counter

import pytest

from directional_inference.errors import InputFormatError
from directional_inference.resources.fetch import fetch_dataset
from directional_inference.levyholt.english import build_from_raw, read_authors_subset, write_levyholt_datasets
from directional_inference.levyholt.entries import SUBSETS, Entry, read_entries, read_subset_tsv, stratified_sample, subset_label, write_entries
from directional_inference.levyholt.english import PAPER_SUBGROUP_SIZES

SEED = 47110815


@pytest.fixture(scope="module")
def inputs(tmp_path_factory, mirrors):
    root = tmp_path_factory.mktemp("levyholt-inputs")
    fetch_dataset("levyholt", root / "levyholt", mirrors)
    fetch_dataset("levyholt-authors", root / "authors", mirrors)
    return root


@pytest.fixture(scope="module")
def splits(inputs):
    return build_from_raw(inputs / "levyholt", SEED, authors_dir=inputs / "authors")


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
    # footnote 3: the paper's 251 / 64 directional pairs in train / dev, and the other groups of the S&S split
    for name, (train, dev, _) in PAPER_SUBGROUP_SIZES.items():
        assert (len(splits.groups["train"][name]), len(splits.groups["dev"][name])) == (train, dev), name


def test_directional_resplit_reproduces_the_authors_lines_or_is_seeded(splits, inputs):
    for split in ("train", "dev"):
        released = Counter(e.key for e in read_authors_subset(inputs / "authors", "directional", split))
        ours = Counter(e.key for e in splits.subset("directional", split))
        assert ours == released, split  # every line of the authors' re-split
    seeded = build_from_raw(inputs / "levyholt", SEED)  # cut pairs shuffled with the seed, dev filled to 64 pairs
    assert (len(seeded.groups["train"]["dirtrue"]), len(seeded.groups["dev"]["dirtrue"])) == (251, 64)
    assert seeded.groups["dev"]["dirtrue"] != splits.groups["dev"]["dirtrue"]
    assert len(build_from_raw(inputs / "levyholt", SEED, dev_pairs=70).groups["dev"]["dirfalse"]) == 70


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
    expected = {
        "directional": (1784, 0.5),
        "symmetric": (11137, 0.1741),
        "para_dirtrue": (2831, 0.6849),
        "para_dirfalse": (2831, 0.6849),
        "dirtrue_unrel": (10090, 0.0884),
        "dirfalse_unrel": (10090, 0.0884),
    }
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


def test_the_authors_para_dirtrue_test_file_against_our_subgroups_as_the_method_notes_say(splits, inputs):
    """docs/method-notes.md: the released Para-DirTrue test file (2,640 lines) labels 889 of the 892 DirTrue and 35
    Paraphrases true; 1,710 Paraphrases, the other 3 DirTrue and 3 lines that are both a Paraphrase and a DirFalse
    false; and leaves 191 Paraphrases out (counted line by line against our test sub-groups)."""
    groups: dict = {}
    for name, entries in splits.groups["test"].items():
        for e in entries:
            groups.setdefault((e.premise, e.hypothesis), set()).add(name)
    theirs = read_authors_subset(inputs / "authors", "para_dirtrue", "test")
    counts = Counter((e.label, "/".join(sorted(groups[(e.premise, e.hypothesis)]))) for e in theirs)
    assert len(theirs) == 2640 and len(splits.groups["test"]["dirtrue"]) == 892
    assert counts == {
        (True, "dirtrue"): 889,
        (True, "paraphrases"): 35,
        (False, "paraphrases"): 1710,
        (False, "dirtrue"): 3,
        (False, "dirfalse/paraphrases"): 3,
    }
    listed = {(e.premise, e.hypothesis) for e in theirs}
    assert sum((e.premise, e.hypothesis) not in listed for e in splits.groups["test"]["paraphrases"]) == 191


def test_written_datasets_round_trip_and_hypothesis_only_masks_premise(inputs, tmp_path):
    out = tmp_path / "levyholt"
    limits = {"train": 100, "dev": 50, "test": 200}
    write_levyholt_datasets(
        out,
        levyholt_dir=inputs / "levyholt",
        authors_dir=inputs / "authors",
        source="raw",
        seed=SEED,
        limits=limits,
        authors_subsets=["para_dirtrue"],
    )
    train = read_subset_tsv(out / "directional" / "train.tsv")
    assert len(train) == 100 and sum(e.label for e in train) == 50
    pairs = {(e.premise, e.hypothesis) for e in train}
    assert all((e.hypothesis, e.premise) in pairs for e in train)  # a directional pair is sampled whole
    masked = read_subset_tsv(out / "directional_hyponly" / "train.tsv")
    assert [e.hypothesis for e in masked] == [e.hypothesis for e in train]
    assert {e.premise for e in masked} == {("true", "", "")}
    counts = (out / "subgroups.csv").read_text().splitlines()
    assert counts[0] == "subgroup,train,dev,test,train_paper,dev_paper,test_paper"
    assert "dirtrue,251,64,892,251,64,892" in counts
    table = (out / "subsets.csv").read_text().splitlines()
    assert table[0] == "subset,split,entries,positives,positive_rate,convention,authors_overlap"
    rows = {tuple(line.split(",")[:2]): line.split(",") for line in table[1:]}
    assert rows[("directional", "train")][5:] == ["paper's rule", "1.0000"]  # the authors' re-split, line for line
    # a subsampled test is drawn once from Full; every subset of the paper's rule is its part of that sample
    full = {(e.premise, e.hypothesis) for e in read_subset_tsv(out / "full" / "test.tsv")}
    directional = read_subset_tsv(out / "directional" / "test.tsv")
    assert len(full) == 200 and {(e.premise, e.hypothesis) for e in directional} <= full
    assert len(directional) == 28  # its share, 200 x 1784 / 12921 = 27.6 entries, as 14 whole pairs
    # the authors' Para-DirTrue file gets a sample of the same share of its 2,640 lines: 200 x 2640 / 12921 = 41
    assert rows[("para_dirtrue", "test")][5] == "authors' file" and rows[("para_dirtrue", "test")][2] == "41"
    assert abs(int(rows[("para_dirtrue", "test")][3]) - 0.35 * 41) <= 1  # DirTrue = 1 as released
    sherliic = read_subset_tsv(out / "sherliic" / "test.tsv")
    assert len(sherliic) == 200 and sherliic[0].hypothesis[1:] == ("", "")
    # same inputs and seed: byte-identical files
    again = tmp_path / "again"
    write_levyholt_datasets(
        again,
        levyholt_dir=inputs / "levyholt",
        authors_dir=inputs / "authors",
        source="raw",
        seed=SEED,
        limits=limits,
        authors_subsets=["para_dirtrue"],
    )
    for path in out.rglob("*.tsv"):
        assert path.read_bytes() == (again / path.relative_to(out)).read_bytes(), path


def test_authors_source_uses_the_released_files(inputs, tmp_path):
    out = tmp_path / "authors"
    write_levyholt_datasets(
        out,
        levyholt_dir=inputs / "levyholt",
        authors_dir=inputs / "authors",
        source="authors",
        seed=SEED,
        limits={"train": None, "dev": None, "test": None},
    )
    assert len(read_subset_tsv(out / "para_dirtrue" / "test.tsv")) == 2640  # the released file, not 2831
    assert "para_dirtrue,test,2640,924,0.35000,authors' file,1.0000" in (out / "subsets.csv").read_text()
    paper_rule = tmp_path / "rule"
    write_levyholt_datasets(
        paper_rule,
        levyholt_dir=inputs / "levyholt",
        authors_dir=inputs / "authors",
        source="raw",
        seed=SEED,
        limits={"train": None, "dev": None, "test": None},
        authors_subsets=[],
    )
    row = next(line for line in (paper_rule / "subsets.csv").read_text().splitlines() if line.startswith("para_dirtrue,test,"))
    assert row.startswith("para_dirtrue,test,2831,1939,0.68492,paper's rule,")  # Paraphrases = 1, as the text says
    assert float(row.split(",")[-1]) < 0.05  # hardly a line of the released file: its labels are the other way round


def test_stratified_sample_keeps_shares_and_order():
    entries = [Entry(("a", str(i), "b"), ("a", "x", "b"), i % 4 == 0, "g", i) for i in range(100)]
    sample = stratified_sample(entries, 20, seed=1)
    assert len(sample) == 20 and sum(e.label for e in sample) == 5
    assert [e.order for e in sample] == sorted(e.order for e in sample)
    assert stratified_sample(entries, None, seed=1) == entries


def test_stratified_sample_keeps_converse_pairs_together():
    """10 directional pairs (a DirTrue entry and its converse, found whatever the case) and 20 unrelated entries."""
    pairs = [
        (
            Entry(("A", f"p{i}", "B"), ("a", f"q{i}", "b"), True, "dirtrue", 2 * i),
            Entry(("a", f"q{i}", "b"), ("A", f"p{i}", "B"), False, "dirfalse", 2 * i + 1),
        )
        for i in range(10)
    ]
    unrelated = [Entry(("c", f"r{i}", "d"), ("c", f"s{i}", "d"), False, "unrelated", 100 + i) for i in range(20)]
    entries = [e for pair in pairs for e in pair] + unrelated
    sample = stratified_sample(entries, 15, seed=2)
    # shares: pairs are 20 of 40 entries -> 7.5 of 15 -> 3 whole pairs (6 entries) + 1 more pair fits; unrelated 7 or 8
    chosen = {e.order for e in sample}
    assert all((2 * i in chosen) == (2 * i + 1 in chosen) for i in range(10))
    assert len(sample) <= 15 and sum(e.subgroup == "dirtrue" for e in sample) in (3, 4)
    assert sum(e.subgroup == "unrelated" for e in sample) == len(sample) - 2 * sum(e.subgroup == "dirtrue" for e in sample)


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


def test_chinese_levyholt_sets_with_their_hypothesis_only_files(tmp_path):
    from conftest import write_chinese_levyholt

    from directional_inference.levyholt.chinese import write_chinese_levyholt as build

    source = write_chinese_levyholt(tmp_path / "zh")
    out = tmp_path / "out"
    build(out, source, seed=SEED, limits={"train": None, "dev": None, "test": None}, dev_pairs=2)
    test = read_subset_tsv(out / "zh_directional" / "test.tsv")
    assert len(test) == 16 and sum(e.label for e in test) == 8  # 8 directional pairs in the synthetic test
    symmetric = read_subset_tsv(out / "zh_symmetric" / "test.tsv")
    assert len(symmetric) == 24 and sum(e.label for e in symmetric) == 16  # 16 paraphrase entries, 8 unrelated
    train, dev = (read_subset_tsv(out / "zh_directional" / f"{s}.tsv") for s in ("train", "dev"))
    assert len(dev) == 4 and len(train) == 20  # 2 of the 12 dev pairs in dev, whole
    masked = read_subset_tsv(out / "zh_full_hyponly" / "test.tsv")
    assert {e.premise for e in masked} == {("正确", "", "")}
    assert (out / "zh_subsets.csv").read_text().splitlines()[0] == "subset,split,entries,positives,positive_rate"

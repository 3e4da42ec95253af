"""The English LevyHolt of the paper: the S&S split, the four sub-groups, the six pair subsets, Full, and hypothesis-only variants.

Raw input: Hosseini's ``LevyHoltDS`` files in the ``_s`` format, one entry per line:
``hyp_subj,hyp_pred,hyp_obj <TAB> prem_subj,prem_pred,prem_obj <TAB> True|False`` (hypothesis first; the
label says whether the premise entails the hypothesis). ``*_dir_s.txt`` lists the directional entries as
adjacent converse pairs, one direction True and the other False.

* S&S split: ``dev_s`` is split 80/20, stratified by label, with scikit-learn's ``train_test_split`` and
  the authors' seed 47110815 (reproduces their 4,388 / 1,098 lines exactly); test = ``test_s``.
* Sub-groups (paper, §3): DirTrue / DirFalse = the True / False directional entries; Paraphrases / Unrelated
  = the remaining True / False entries (multiset difference).
* Directional re-split (paper, footnote 3): both directions of a pair go to the same split; the pairs the S&S split
  cut across train and dev go where the authors put them (their released files; 251 / 64 converse pairs, as in the paper,
  so 502 / 128 premise-hypothesis pairs), or, as an option, are assigned as units with a seed until dev holds 64 converse pairs.
* Subsets: a pair of sub-groups labelled by the paper's rule (entailed vs non-entailed keep their labels;
  otherwise the more paraphrastic sub-group is 1). Full = the S&S split with original labels.
* Hypothesis-only: the premise replaced by ``true`` (paper, §3.2; the authors' ``true,,``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..atomic import atomic_file
from ..errors import InputFormatError
from .entries import (
    ALL_SUBSETS,
    Entry,
    HYPOTHESIS_ONLY_SUFFIX,
    SPLITS,
    SUBGROUPS,
    SUBSETS,
    TRUE_PREMISE,
    Triple,
    hypothesis_only,
    read_entries,
    stratified_sample,
    subset_label,
    write_entries,
)


# The authors' released directories for each subset (levyholt.source: authors).
AUTHORS_DIRECTORIES = {
    "full": "orig",
    "directional": "dirposi_dirnegi",
    "symmetric": "symposi_symnegi",
    "para_dirtrue": "symposi_dirposi",
    "para_dirfalse": "symposi_dirnegi",
    "dirtrue_unrel": "dirposi_symnegi",
    "dirfalse_unrel": "dirnegi_symnegi",
}
# Sub-group sizes of the paper (§3, train / dev / test).
PAPER_SUBGROUP_SIZES = {
    "dirtrue": (251, 64, 892),
    "dirfalse": (251, 64, 892),
    "paraphrases": (615, 155, 1939),
    "unrelated": (3255, 831, 9198),
}


def sns_split(entries: Sequence[Entry], seed: int, dev_share: float = 0.2) -> tuple[list[Entry], list[Entry]]:
    """The S&S train/dev split: stratified by label, scikit-learn's train_test_split with ``seed``."""
    from sklearn.model_selection import train_test_split

    train, dev = train_test_split(list(entries), stratify=[e.label for e in entries], random_state=seed, test_size=dev_share)
    return list(train), list(dev)


def directional_pairs(entries: Sequence[Entry], path: str = "<directional file>") -> list[tuple[Entry, Entry]]:
    """Adjacent converse pairs of a ``*_dir_s`` file, each (True direction, False direction)."""
    if len(entries) % 2:
        raise InputFormatError(path, None, None, f"directional file has an odd number of entries ({len(entries)})")
    pairs = []
    for first, second in zip(entries[0::2], entries[1::2]):
        if first.label == second.label or first.premise != second.hypothesis or first.hypothesis != second.premise:
            raise InputFormatError(path, second.order, None, "lines are not a converse pair with one True and one False direction")
        pairs.append((first, second) if first.label else (second, first))
    return pairs


def _take(pool: Counter, entry: Entry) -> bool:
    if pool[entry.key] > 0:
        pool[entry.key] -= 1
        return True
    return False


def subgroups_of_split(split: Sequence[Entry], directional: Iterable[Entry]) -> dict[str, list[Entry]]:
    """Sub-groups of one split: its directional entries, then the rest by label (multiset difference)."""
    remaining = Counter(e.key for e in directional)
    groups: dict[str, list[Entry]] = {name: [] for name in SUBGROUPS}
    for entry in split:
        if _take(remaining, entry):
            name = "dirtrue" if entry.label else "dirfalse"
        else:
            name = "paraphrases" if entry.label else "unrelated"
        groups[name].append(replace(entry, subgroup=name))
    return groups


def resplit_directional(
    train: Sequence[Entry],
    dev: Sequence[Entry],
    pairs: Sequence[tuple[Entry, Entry]],
    seed: int,
    dev_pairs: int = 64,
    authors_dev: Iterable[Entry] | None = None,
) -> tuple[list[Entry], list[Entry]]:
    """Directional entries of train and dev with both directions of every pair in one split (paper, footnote 3).

    Pairs already whole in a split stay there. Pairs the S&S split cut in two go where the authors put them when
    ``authors_dev`` (their released directional dev entries) is given: that reproduces their assignment, and the
    paper's 251 / 64 converse pairs. Otherwise the cut pairs are shuffled with ``seed`` and go to dev until dev holds
    ``dev_pairs`` pairs (the paper's 64), the rest to train.
    """
    in_train, in_dev = Counter(e.key for e in train), Counter(e.key for e in dev)
    train_pairs, dev_pairs_found, cut = [], [], []
    for pair in pairs:
        homes = {("train" if _take(in_train, e) else "dev" if _take(in_dev, e) else "none") for e in pair}
        if "none" in homes:
            raise ValueError(f"directional entry {pair[0].hypothesis} / {pair[0].premise} is in neither train nor dev")
        (train_pairs if homes == {"train"} else dev_pairs_found if homes == {"dev"} else cut).append(pair)
    if authors_dev is not None:
        authors = Counter(e.key for e in authors_dev)
        for pair in cut:
            (dev_pairs_found if all(_take(authors, e) for e in pair) else train_pairs).append(pair)
    else:
        random.Random(seed).shuffle(cut)
        wanted_dev = max(dev_pairs - len(dev_pairs_found), 0)
        dev_pairs_found += cut[:wanted_dev]
        train_pairs += cut[wanted_dev:]

    def flatten(selected):
        return sorted((e for pair in selected for e in pair), key=lambda e: e.order)

    return flatten(train_pairs), flatten(dev_pairs_found)


@dataclass
class LevyHoltSplits:
    """Sub-groups per split (train, dev, test) and the Full split."""

    groups: dict[str, dict[str, list[Entry]]]  # split -> subgroup -> entries
    full: dict[str, list[Entry]]  # split -> entries

    def subset(self, name: str, split: str) -> list[Entry]:
        if name == "full":
            return list(self.full[split])
        first, second = SUBSETS[name]
        chosen = self.groups[split][first] + self.groups[split][second]
        return [replace(e, label=subset_label(e.subgroup, name)) for e in sorted(chosen, key=lambda e: e.order)]


def build_from_raw(
    levyholt_dir: str | Path, seed: int, *, authors_dir: str | Path | None = None, dev_pairs: int = 64, layout: str = "LevyHoltDS"
) -> LevyHoltSplits:
    """Split, sub-groups and directional re-split from the raw ``LevyHoltDS`` files (``dev/dev_s.txt``,
    ``test/test_s.txt``, ``dev_dir/dev_dir_s.txt``, ``test_dir/test_dir_s.txt`` under ``levyholt_dir/layout``); the
    cut directional pairs go where the authors put them when ``authors_dir`` (their released files) is given, else
    seeded (``dev_pairs``)."""
    root = Path(levyholt_dir) / layout
    dev_all = read_entries(root / "dev" / "dev_s.txt")
    test = read_entries(root / "test" / "test_s.txt", order_offset=10**6)
    dev_dir_path, test_dir_path = root / "dev_dir" / "dev_dir_s.txt", root / "test_dir" / "test_dir_s.txt"
    dev_pairs_found = directional_pairs(read_entries(dev_dir_path), str(dev_dir_path))
    test_pairs = directional_pairs(read_entries(test_dir_path), str(test_dir_path))
    train, dev = sns_split(dev_all, seed)
    authors_dev = read_authors_subset(authors_dir, "directional", "dev") if authors_dir is not None else None
    dir_train, dir_dev = resplit_directional(train, dev, dev_pairs_found, seed, dev_pairs, authors_dev)
    groups = {}
    for split, entries, directional in (("train", train, dir_train), ("dev", dev, dir_dev)):
        by_group = subgroups_of_split(entries, [e for pair in dev_pairs_found for e in pair])
        # DirTrue / DirFalse follow the re-split; Paraphrases / Unrelated keep the S&S split.
        by_group["dirtrue"] = [replace(e, subgroup="dirtrue") for e in directional if e.label]
        by_group["dirfalse"] = [replace(e, subgroup="dirfalse") for e in directional if not e.label]
        groups[split] = by_group
    groups["test"] = subgroups_of_split(test, [e for pair in test_pairs for e in pair])
    full = {"train": train, "dev": dev, "test": test}
    return LevyHoltSplits(groups=groups, full=full)


def read_authors_subset(authors_dir: str | Path, subset: str, split: str, *, hypothesis_only_files: bool = False) -> list[Entry]:
    """A subset file as released by the authors (``datasets/data_en_levy_holt/<dir>/<split>.txt``)."""
    directory = AUTHORS_DIRECTORIES[subset] + ("_hypo_only" if hypothesis_only_files else "")
    return read_entries(Path(authors_dir) / "datasets" / "data_en_levy_holt" / directory / f"{split}.txt")


def read_sherliic(authors_dir: str | Path, split: str) -> list[Entry]:
    """The SherLIiC S&S split released by the authors (whole sentences in the subject slot)."""
    return read_entries(Path(authors_dir) / "datasets" / "data_en_sherliic" / "orig" / f"{split}.txt")


PAPER_RULE = "paper's rule"
AUTHORS_FILE = "authors' file"


def subset_conventions(source: str, authors_subsets: Iterable[str]) -> dict[str, str]:
    """How each subset is built: from the Levy/Holt files by the paper's rule, or as the authors released it."""
    from_authors = set(ALL_SUBSETS) if source == "authors" else set(authors_subsets)
    return {subset: AUTHORS_FILE if subset in from_authors else PAPER_RULE for subset in ALL_SUBSETS}


def authors_overlap(ours: Sequence[Entry], theirs: Sequence[Entry]) -> float:
    """Share of our lines (pair and label, as a multiset) that are lines of the authors' file."""
    if not ours:
        return 1.0
    mine, released = Counter(e.key for e in ours), Counter(e.key for e in theirs)
    return sum((mine & released).values()) / len(ours)


def whole_subset(splits: LevyHoltSplits, convention: str, subset: str, split: str, released: Sequence[Entry]) -> list[Entry]:
    """Every entry of a subset's split, before any subsample: the authors' file (``released``) or the paper's rule."""
    if convention == AUTHORS_FILE:
        return [replace(e, subgroup=subset) for e in released]
    if (subset, split) == ("full", "test"):
        return sorted((e for group in splits.groups["test"].values() for e in group), key=lambda e: e.order)
    return splits.subset(subset, split)


def write_whole_tests(
    out_root: str | Path,
    subsets: Iterable[str],
    *,
    levyholt_dir: str | Path,
    authors_dir: str | Path,
    source: str,
    seed: int,
    authors_subsets: Iterable[str] = (),
    resplit: str = "authors",
    dev_pairs: int = 64,
) -> None:
    """The whole test set of each of ``subsets`` (``out_root/<subset>/test.tsv``), built as ``write_levyholt_datasets``
    builds it but never subsampled: the test sets that predictions made elsewhere cover whole (the directional test of
    McKenna, Li et al. 2023)."""
    splits = build_from_raw(levyholt_dir, seed, authors_dir=authors_dir if resplit == "authors" else None, dev_pairs=dev_pairs)
    conventions = subset_conventions(source, authors_subsets)
    for subset in subsets:
        released = read_authors_subset(authors_dir, subset, "test")
        write_entries(Path(out_root) / subset / "test.tsv", whole_subset(splits, conventions[subset], subset, "test", released))


def write_levyholt_datasets(
    out_root: str | Path,
    *,
    levyholt_dir: str | Path,
    authors_dir: str | Path,
    source: str,
    seed: int,
    limits: dict[str, int | None],
    authors_subsets: Iterable[str] = (),
    resplit: str = "authors",
    dev_pairs: int = 64,
    hypothesis_only_premise: Triple = TRUE_PREMISE,
) -> None:
    """Every subset (and its hypothesis-only variant) per split, SherLIiC, and the count tables.

    ``source`` is ``raw`` (built here from the Levy/Holt files) or ``authors`` (the released subset files);
    ``authors_subsets`` are taken from the released files even with ``raw`` (the files the paper's numbers were
    computed on, where they differ from the paper's rule). ``resplit`` places the directional pairs cut by the S&S
    split as the authors did (``authors``) or seeded (``seeded``, ``dev_pairs`` in dev). ``limits`` maps a split to
    the size of its stratified subsample (None = all). A subsampled test is drawn once, from Full (stratified by
    sub-group, converse pairs together), and every subset built by the paper's rule takes its sub-groups' part of it,
    so one scoring of the Full sample serves every subset; a subset from the authors' files gets a sample of the
    same share of its file. ``subsets.csv`` gives every file's size, positive rate, convention and the share of its
    lines that are lines of the authors' file (before subsampling).
    """
    out_root = Path(out_root)
    if resplit not in ("authors", "seeded"):
        raise ValueError(f"resplit must be 'authors' or 'seeded', not {resplit!r}")
    splits = build_from_raw(levyholt_dir, seed, authors_dir=authors_dir if resplit == "authors" else None, dev_pairs=dev_pairs)
    write_subgroup_counts(out_root / "subgroups.csv", splits)
    conventions = subset_conventions(source, authors_subsets)
    full_test = whole_subset(splits, PAPER_RULE, "full", "test", ())
    test_limit = limits.get("test")
    test_sample = Counter((e.premise, e.hypothesis, e.subgroup) for e in stratified_sample(full_test, test_limit, seed))
    lines = ["subset,split,entries,positives,positive_rate,convention,authors_overlap"]
    for subset in ALL_SUBSETS:
        for split in SPLITS:
            released = read_authors_subset(authors_dir, subset, split)
            entries = whole_subset(splits, conventions[subset], subset, split, released)
            overlap = authors_overlap(entries, released)
            if split != "test" or test_limit is None:
                entries = stratified_sample(entries, limits.get(split), seed)
            elif conventions[subset] == AUTHORS_FILE:
                entries = stratified_sample(entries, round(test_limit * len(entries) / len(full_test)), seed)
            else:
                taken = Counter(test_sample)  # a subset's entries keep their sub-group (and may change label)
                entries = [
                    e
                    for e in entries
                    if taken[(e.premise, e.hypothesis, e.subgroup)] > 0 and not taken.subtract([(e.premise, e.hypothesis, e.subgroup)])
                ]
            write_entries(out_root / subset / f"{split}.tsv", entries)
            write_entries(out_root / f"{subset}{HYPOTHESIS_ONLY_SUFFIX}" / f"{split}.tsv", hypothesis_only(entries, hypothesis_only_premise))
            positives = sum(e.label for e in entries)
            lines.append(f"{subset},{split},{len(entries)},{positives},{positives / len(entries):.5f},{conventions[subset]},{overlap:.4f}")
    for split in SPLITS:
        entries = stratified_sample(read_sherliic(authors_dir, split), limits.get(split), seed)
        write_entries(out_root / "sherliic" / f"{split}.tsv", entries)
        positives = sum(e.label for e in entries)
        lines.append(f"sherliic,{split},{len(entries)},{positives},{positives / len(entries):.5f},{AUTHORS_FILE},1.0000")
    with atomic_file(out_root / "subsets.csv") as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_subgroup_counts(path: str | Path, splits: LevyHoltSplits) -> None:
    """Per sub-group and split: our counts beside the paper's (train / dev / test)."""
    lines = ["subgroup,train,dev,test,train_paper,dev_paper,test_paper"]
    for name in SUBGROUPS:
        ours = [len(splits.groups[split][name]) for split in SPLITS]
        lines.append(",".join([name, *map(str, ours), *map(str, PAPER_SUBGROUP_SIZES[name])]))
    with atomic_file(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")

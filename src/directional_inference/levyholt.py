"""LevyHolt: the S&S split, the four sub-groups, the six pair subsets, Full, and hypothesis-only variants.

Raw input: Hosseini's ``LevyHoltDS`` files in the ``_s`` format, one entry per line:
``hyp_subj,hyp_pred,hyp_obj <TAB> prem_subj,prem_pred,prem_obj <TAB> True|False`` (hypothesis first; the
label says whether the premise entails the hypothesis). ``*_dir_s.txt`` lists the directional entries as
adjacent converse pairs, one direction True and the other False.

* S&S split: ``dev_s`` is split 80/20, stratified by label, with scikit-learn's ``train_test_split`` and
  the authors' seed 47110815 (reproduces their 4,388 / 1,098 lines exactly); test = ``test_s``.
* Sub-groups (paper, §3): DirTrue / DirFalse = the True / False directional entries; Paraphrases / Unrelated
  = the remaining True / False entries (multiset difference).
* Directional re-split (paper, footnote 3): both directions of a pair go to the same split; pairs split
  across train and dev by the S&S split are assigned as units, seeded, so that dev holds ``dev_share`` of the pairs.
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

from .atomic import atomic_file
from .errors import InputFormatError

SUBGROUPS = ("dirtrue", "dirfalse", "paraphrases", "unrelated")
# (entailed, paraphrastic): the paper's labelling rule compares these lexicographically.
_RANK = {"paraphrases": (1, 1), "dirtrue": (1, 0), "dirfalse": (0, 1), "unrelated": (0, 0)}
SUBSETS = {
    "directional": ("dirtrue", "dirfalse"),
    "symmetric": ("paraphrases", "unrelated"),
    "para_dirtrue": ("paraphrases", "dirtrue"),
    "para_dirfalse": ("paraphrases", "dirfalse"),
    "dirtrue_unrel": ("dirtrue", "unrelated"),
    "dirfalse_unrel": ("dirfalse", "unrelated"),
}
ALL_SUBSETS = ("full", *SUBSETS)
SPLITS = ("train", "dev", "test")
HYPOTHESIS_ONLY_SUFFIX = "_hyponly"
TRUE_PREMISE = ("true", "", "")
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
TSV_COLUMNS = ("prem_subj", "prem_pred", "prem_obj", "hyp_subj", "hyp_pred", "hyp_obj", "label", "subgroup")

Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Entry:
    """One premise/hypothesis pair; ``order`` keeps the position in the source file for stable output order."""

    premise: Triple
    hypothesis: Triple
    label: bool
    subgroup: str = ""
    order: int = 0

    @property
    def key(self) -> tuple[Triple, Triple, bool]:
        return (self.premise, self.hypothesis, self.label)


def _triple(text: str, path: str, line: int, field: str) -> Triple:
    # from the right: SherLIiC puts whole sentences (which may hold commas) in the subject slot
    parts = [part.strip() for part in text.rsplit(",", 2)]
    if len(parts) != 3:
        raise InputFormatError(path, line, field, f"expected 'subject,predicate,object', got {text!r}")
    return (parts[0], parts[1], parts[2])


def read_entries(path: str | Path, *, order_offset: int = 0) -> list[Entry]:
    """Read a Levy/Holt ``_s`` file (3 columns) or an authors' file (4 columns, language last)."""
    entries = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            line = line.rstrip("\n").rstrip("\r")
            if not line:
                continue
            columns = line.split("\t")
            if len(columns) not in (3, 4):
                raise InputFormatError(str(path), number, None, f"expected 3 or 4 tab-separated columns, found {len(columns)}")
            if columns[2] not in ("True", "False"):
                raise InputFormatError(str(path), number, "label", f"expected True or False, got {columns[2]!r}")
            hypothesis = _triple(columns[0], str(path), number, "hypothesis")
            premise = _triple(columns[1], str(path), number, "premise")
            entries.append(Entry(premise, hypothesis, columns[2] == "True", order=order_offset + number))
    return entries


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
    train: Sequence[Entry], dev: Sequence[Entry], pairs: Sequence[tuple[Entry, Entry]], seed: int, dev_share: float = 0.2
) -> tuple[list[Entry], list[Entry]]:
    """Directional entries of train and dev with both directions of every pair in one split.

    Pairs already whole in a split stay there; pairs the S&S split cut in two are shuffled with ``seed`` and
    go to dev until dev holds ``round(dev_share * pairs)`` pairs, the rest to train.
    """
    in_train, in_dev = Counter(e.key for e in train), Counter(e.key for e in dev)
    train_pairs, dev_pairs, cut = [], [], []
    for pair in pairs:
        homes = {("train" if _take(in_train, e) else "dev" if _take(in_dev, e) else "none") for e in pair}
        if "none" in homes:
            raise ValueError(f"directional entry {pair[0].hypothesis} / {pair[0].premise} is in neither train nor dev")
        (train_pairs if homes == {"train"} else dev_pairs if homes == {"dev"} else cut).append(pair)
    random.Random(seed).shuffle(cut)
    wanted_dev = max(round(dev_share * len(pairs)) - len(dev_pairs), 0)
    dev_pairs += cut[:wanted_dev]
    train_pairs += cut[wanted_dev:]

    def flatten(selected):
        return sorted((e for pair in selected for e in pair), key=lambda e: e.order)

    return flatten(train_pairs), flatten(dev_pairs)


def subset_label(subgroup: str, subset: str) -> bool:
    """The paper's rule: within a pair of sub-groups, the one that is entailed, else more paraphrastic, is 1."""
    first, second = SUBSETS[subset]
    if subgroup not in (first, second):
        raise ValueError(f"sub-group {subgroup!r} is not part of subset {subset!r}")
    other = second if subgroup == first else first
    return _RANK[subgroup] > _RANK[other]


def stratified_sample(entries: Sequence[Entry], limit: int | None, seed: int) -> list[Entry]:
    """At most ``limit`` entries, keeping the share of every (sub-group, label); order kept. None = all."""
    if limit is None or limit >= len(entries):
        return list(entries)
    strata: dict[tuple[str, bool], list[int]] = {}
    for index, entry in enumerate(entries):
        strata.setdefault((entry.subgroup, entry.label), []).append(index)
    rng = random.Random(seed)
    chosen: list[int] = []
    keys = sorted(strata)
    quotas = {k: len(strata[k]) * limit / len(entries) for k in keys}
    counts = {k: int(quotas[k]) for k in keys}
    # largest remainders get the leftover places (ties by stratum name): the sample has exactly `limit` entries
    for k in sorted(keys, key=lambda k: (-(quotas[k] - counts[k]), k))[: limit - sum(counts.values())]:
        counts[k] += 1
    for k in keys:
        chosen += rng.sample(strata[k], counts[k])
    return [entries[i] for i in sorted(chosen)]


def hypothesis_only(entries: Iterable[Entry]) -> list[Entry]:
    """The same entries with every premise replaced by ``true`` (hypothesis-only baseline)."""
    return [replace(e, premise=TRUE_PREMISE) for e in entries]


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


def build_from_raw(levyholt_dir: str | Path, seed: int) -> LevyHoltSplits:
    """Split, sub-groups and directional re-split from the raw ``LevyHoltDS`` files."""
    root = Path(levyholt_dir) / "LevyHoltDS"
    dev_all = read_entries(root / "dev" / "dev_s.txt")
    test = read_entries(root / "test" / "test_s.txt", order_offset=10**6)
    dev_dir_path, test_dir_path = root / "dev_dir" / "dev_dir_s.txt", root / "test_dir" / "test_dir_s.txt"
    dev_pairs = directional_pairs(read_entries(dev_dir_path), str(dev_dir_path))
    test_pairs = directional_pairs(read_entries(test_dir_path), str(test_dir_path))
    train, dev = sns_split(dev_all, seed)
    dir_train, dir_dev = resplit_directional(train, dev, dev_pairs, seed)
    groups = {}
    for split, entries, directional in (("train", train, dir_train), ("dev", dev, dir_dev)):
        by_group = subgroups_of_split(entries, [e for pair in dev_pairs for e in pair])
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


def write_entries(path: str | Path, entries: Iterable[Entry]) -> None:
    """Write entries as a TSV with header ``TSV_COLUMNS`` (label 0/1), atomically."""
    lines = ["\t".join(TSV_COLUMNS)]
    for entry in entries:
        fields = [*entry.premise, *entry.hypothesis, "1" if entry.label else "0", entry.subgroup]
        if any("\t" in f or "\n" in f for f in fields):
            raise ValueError(f"a field of {entry} contains a tab or newline")
        lines.append("\t".join(fields))
    with atomic_file(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_subset_tsv(path: str | Path) -> list[Entry]:
    """Read a TSV written by :func:`write_entries`, with errors naming file, line and field."""
    entries = []
    with open(path, encoding="utf-8") as handle:
        header = handle.readline().rstrip("\n").split("\t")
        if tuple(header) != TSV_COLUMNS:
            raise InputFormatError(str(path), 1, None, f"expected header {TSV_COLUMNS}, got {tuple(header)}")
        for number, line in enumerate(handle, start=2):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != len(TSV_COLUMNS):
                raise InputFormatError(str(path), number, None, f"expected {len(TSV_COLUMNS)} fields, found {len(fields)}")
            if fields[6] not in ("0", "1"):
                raise InputFormatError(str(path), number, "label", f"expected 0 or 1, got {fields[6]!r}")
            entries.append(Entry(tuple(fields[0:3]), tuple(fields[3:6]), fields[6] == "1", fields[7], number))  # type: ignore[arg-type]
    return entries


def write_levyholt_datasets(
    out_root: str | Path,
    *,
    levyholt_dir: str | Path,
    authors_dir: str | Path,
    source: str,
    seed: int,
    limits: dict[str, int | None],
) -> None:
    """Every subset (and its hypothesis-only variant) per split, SherLIiC, and the count tables.

    ``source`` is ``raw`` (built here from the Levy/Holt files) or ``authors`` (the released subset files).
    ``limits`` maps a split to the size of its stratified subsample (None = all).
    """
    out_root = Path(out_root)
    splits = build_from_raw(levyholt_dir, seed)
    write_subgroup_counts(out_root / "subgroups.csv", splits)
    subset_rows = []
    for subset in ALL_SUBSETS:
        for split in SPLITS:
            if source == "authors":
                entries = [replace(e, subgroup=subset) for e in read_authors_subset(authors_dir, subset, split)]
            else:
                entries = splits.subset(subset, split)
            entries = stratified_sample(entries, limits.get(split), seed)
            write_entries(out_root / subset / f"{split}.tsv", entries)
            write_entries(out_root / f"{subset}{HYPOTHESIS_ONLY_SUFFIX}" / f"{split}.tsv", hypothesis_only(entries))
            positives = sum(e.label for e in entries)
            subset_rows.append((subset, split, len(entries), positives))
    for split in SPLITS:
        entries = stratified_sample(read_sherliic(authors_dir, split), limits.get(split), seed)
        write_entries(out_root / "sherliic" / f"{split}.tsv", entries)
        subset_rows.append(("sherliic", split, len(entries), sum(e.label for e in entries)))
    lines = ["subset,split,entries,positives,positive_rate,source"]
    for name, split, n, positives in subset_rows:
        origin = "authors" if source == "authors" or name == "sherliic" else "raw"
        lines.append(f"{name},{split},{n},{positives},{positives / n:.5f},{origin}")
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

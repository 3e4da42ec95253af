"""A LevyHolt entry (premise, hypothesis, label, sub-group), the sub-groups and subsets, and the files that hold
them: the raw ``_s`` lines, the workflow's subset TSVs, converse groups, stratified samples and hypothesis-only
variants.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..atomic import atomic_file
from ..errors import InputFormatError


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


def subset_label(subgroup: str, subset: str) -> bool:
    """The paper's rule: within a pair of sub-groups, the one that is entailed, else more paraphrastic, is 1."""
    first, second = SUBSETS[subset]
    if subgroup not in (first, second):
        raise ValueError(f"sub-group {subgroup!r} is not part of subset {subset!r}")
    other = second if subgroup == first else first
    return _RANK[subgroup] > _RANK[other]


def _normal(triple: Triple) -> Triple:
    return tuple(" ".join(part.lower().split()) for part in triple)  # type: ignore[return-value]


def converse_groups(entries: Sequence[Entry]) -> list[list[int]]:
    """Indices of ``entries`` grouped with their converses (premise and hypothesis swapped, compared lower-cased):
    a directional pair and its converse, a two-way paraphrase; most entries are alone. Groups in input order."""
    seen: dict[tuple[Triple, Triple], int] = {}
    groups: list[list[int]] = []
    for index, entry in enumerate(entries):
        premise, hypothesis = _normal(entry.premise), _normal(entry.hypothesis)
        group = seen.get((hypothesis, premise))
        if group is None or len(groups[group]) > 1:
            seen[(premise, hypothesis)] = len(groups)
            groups.append([index])
        else:
            groups[group].append(index)
    return groups


def stratified_sample(entries: Sequence[Entry], limit: int | None, seed: int) -> list[Entry]:
    """About ``limit`` entries (never more), keeping the share of every (sub-group, label) and every entry with its
    converse (a directional pair is sampled whole: no converse on the other side of a split); order kept. None = all.

    Converse groups are sampled within strata of the same composition, each stratum in proportion to its entries
    (largest remainders, then groups that still fit)."""
    if limit is None or limit >= len(entries):
        return list(entries)
    strata: dict[tuple, list[list[int]]] = {}
    for group in converse_groups(entries):
        strata.setdefault(tuple(sorted((entries[i].subgroup, entries[i].label) for i in group)), []).append(group)
    keys = sorted(strata)
    sizes = {k: len(k) for k in keys}  # entries per group of a stratum
    quotas = {k: len(strata[k]) * limit / len(entries) for k in keys}  # groups
    counts = {k: int(quotas[k]) for k in keys}
    room = limit - sum(counts[k] * sizes[k] for k in keys)
    for k in sorted(keys, key=lambda k: (-(quotas[k] - counts[k]), k)):
        if counts[k] < len(strata[k]) and sizes[k] <= room:
            counts[k] += 1
            room -= sizes[k]
    rng = random.Random(seed)
    chosen = [i for k in keys for group in rng.sample(strata[k], counts[k]) for i in group]
    return [entries[i] for i in sorted(chosen)]


def hypothesis_only(entries: Iterable[Entry], premise: Triple = TRUE_PREMISE) -> list[Entry]:
    """The same entries with every premise replaced by ``true`` (hypothesis-only baseline; the authors' ``true,,``)."""
    return [replace(e, premise=premise) for e in entries]


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

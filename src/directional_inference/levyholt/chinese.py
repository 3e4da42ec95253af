"""The Chinese LevyHolt (Li et al., Findings of ACL 2022; not published, supplied by the user): its Full,
Directional and Symmetric sets in the workflow's layout, with the ``zh_`` prefix.
"""

from __future__ import annotations

from pathlib import Path

from ..atomic import atomic_file
from .english import build_from_raw
from .entries import HYPOTHESIS_ONLY_SUFFIX, SPLITS, Triple, hypothesis_only, stratified_sample, write_entries


CHINESE_PREFIX = "zh_"
CHINESE_SUBSETS = ("full", "directional", "symmetric")  # the Chinese LevyHolt sets of the paper (Tables 3 and 5)


def write_chinese_levyholt(
    out_root: str | Path,
    chinese_dir: str | Path,
    *,
    seed: int,
    limits: dict[str, int | None],
    dev_pairs: int = 64,
    hypothesis_only_premise: Triple = ("正确", "", ""),
) -> None:
    """Full, Directional and Symmetric of the Chinese LevyHolt (Li et al. 2022; user-supplied in the layout of the
    English ``_s`` files) as ``zh_<subset>`` sets, with their hypothesis-only variants ("正确" as the premise), built by
    the English rules (S&S split with ``seed``, sub-groups, a seeded directional re-split with ``dev_pairs``)."""
    out_root = Path(out_root)
    splits = build_from_raw(chinese_dir, seed, dev_pairs=dev_pairs, layout="")
    lines = ["subset,split,entries,positives,positive_rate"]
    for subset in CHINESE_SUBSETS:
        for split in SPLITS:
            entries = stratified_sample(splits.subset(subset, split), limits.get(split), seed)
            name = CHINESE_PREFIX + subset
            write_entries(out_root / name / f"{split}.tsv", entries)
            write_entries(out_root / f"{name}{HYPOTHESIS_ONLY_SUFFIX}" / f"{split}.tsv", hypothesis_only(entries, hypothesis_only_premise))
            positives = sum(e.label for e in entries)
            lines.append(f"{name},{split},{len(entries)},{positives},{positives / max(len(entries), 1):.5f}")
    with atomic_file(out_root / "zh_subsets.csv") as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")

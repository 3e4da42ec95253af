"""Hypothesis-only BoOQA for the robustness test (paper, Table 3 and Appendix E.1)."""

from __future__ import annotations

import logging
import random
from collections import defaultdict

import pandas as pd

log = logging.getLogger(__name__)


def hypothesis_only_splits(
    dev: pd.DataFrame, test: pd.DataFrame, *, train_positives: int, dev_positives: int, seed: int, premise: tuple[str, str, str] | None = None
) -> dict[str, list]:
    """Type-masked hypothesis-only datasets: the arguments replaced by their types, the premise by "true" (``premise``).

    Train and dev2 are carved from BoOQA dev in its order, as the authors did: the first ``train_positives``
    bundles (a positive and its negatives) train, the next ``dev_positives`` bundles are dev2 (paper, Appendix E.1:
    sizes similar to LevyHolt's; the authors' 1,600 and 400), the rest is not used; test is BoOQA test. A
    hypothesis text in more than one split is kept in one of them (seeded) and removed from the others, whatever
    its label (paper, Appendix E.1; the authors' script kept the overlaps).
    """
    from ..levyholt.entries import TRUE_PREMISE, Entry

    premise = premise or TRUE_PREMISE

    def entries(frame: pd.DataFrame, by_bundle: bool = False) -> list:
        """H-only entries; test entries keep their bundle as their group (bootstrap intervals resample bundles)."""
        return [
            Entry(premise, (row.subj_type, row.pred, row.obj_type), bool(row.label), row.bundle_id if by_bundle else "booqa", k)
            for k, row in enumerate(frame.itertuples())
        ]

    bundles = list(dict.fromkeys(dev["bundle_id"]))
    if len(bundles) < train_positives + dev_positives:
        log.warning(
            "BoOQA dev has %d positives, fewer than the %d + %d asked for the hypothesis-only train and dev2 sets",
            len(bundles),
            train_positives,
            dev_positives,
        )
    splits = {
        "train": entries(dev[dev["bundle_id"].isin(bundles[:train_positives])]),
        "dev": entries(dev[dev["bundle_id"].isin(bundles[train_positives : train_positives + dev_positives])]),
        "test": entries(test, by_bundle=True),
    }
    homes: dict[tuple, list[str]] = defaultdict(list)
    for name, items in splits.items():
        for item in items:
            if name not in homes[item.hypothesis]:
                homes[item.hypothesis].append(name)
    rng = random.Random(seed)
    keep = {hyp: rng.choice(names) for hyp, names in sorted(homes.items()) if len(names) > 1}
    return {name: [e for e in items if keep.get(e.hypothesis, name) == name] for name, items in splits.items()}

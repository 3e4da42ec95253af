"""Hypothesis-only BoOQA for the robustness test (paper, Table 3 and Appendix E.1)."""

from __future__ import annotations

import random
from collections import defaultdict

import pandas as pd

def hypothesis_only_splits(dev: pd.DataFrame, test: pd.DataFrame, *, train_share: float, seed: int) -> dict[str, list]:
    """Type-masked hypothesis-only datasets: the arguments replaced by their types, the premise by "true".

    Train and dev2 are carved from BoOQA dev (the first ``train_share`` of its bundles train, the rest dev2, as
    the authors took the first 1,600 and next 400 positives); test is BoOQA test. A hypothesis text in more than
    one split is kept in one of them (seeded) and removed from the others, whatever its label.
    """
    from ..levyholt import TRUE_PREMISE, Entry

    def entries(frame: pd.DataFrame) -> list:
        return [Entry(TRUE_PREMISE, (row.subj_type, row.pred, row.obj_type), bool(row.label), "booqa", k)
                for k, row in enumerate(frame.itertuples())]

    bundles = list(dict.fromkeys(dev["bundle_id"]))
    cut = round(train_share * len(bundles))
    splits = {"train": entries(dev[dev["bundle_id"].isin(bundles[:cut])]),
              "dev": entries(dev[dev["bundle_id"].isin(bundles[cut:])]),
              "test": entries(test)}
    homes: dict[tuple, list[str]] = defaultdict(list)
    for name, items in splits.items():
        for item in items:
            if name not in homes[item.hypothesis]:
                homes[item.hypothesis].append(name)
    rng = random.Random(seed)
    keep = {hyp: rng.choice(names) for hyp, names in sorted(homes.items()) if len(names) > 1}
    return {name: [e for e in items if keep.get(e.hypothesis, name) == name] for name, items in splits.items()}

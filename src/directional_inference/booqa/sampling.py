"""BoOQA sampling (paper, Appendix D): bundles of a positive and its negatives, per-window quotas, negatives
matched to the positives' frequency buckets, dev and test split by windows."""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

import numpy as np
import pandas as pd

log = logging.getLogger(__name__)


def frequency_bucket(frequency: int, boundaries: Sequence[int]) -> int:
    """Index of the first boundary above ``frequency`` (len(boundaries) if none)."""
    for index, boundary in enumerate(boundaries):
        if frequency < boundary:
            return index
    return len(boundaries)


def _round_randomly(value: float, rng: random.Random) -> int:
    whole = int(value)
    return whole + (rng.random() < value - whole)


def sample_bundles(
    positives: pd.DataFrame,
    negatives: pd.DataFrame,
    window_articles: dict[str, int],
    *,
    positive_budget: int,
    max_negatives_per_positive: int,
    frequency_buckets: Sequence[int],
    dev_share: float,
    graph_window_share: float,
    seed: int,
) -> dict[str, pd.DataFrame]:
    """Bundles (a positive and at most ``max_negatives_per_positive`` of its negatives, kept or dropped together) sampled per
    window in proportion to the window's articles, with negatives matched to the positives' frequency buckets (``frequency_buckets``);
    windows split into dev and test (and, with ``graph_window_share``, a set reserved for graph induction). A proposition is
    asked at most once per window: negatives already in an accepted bundle of the window are not sampled again."""
    rng = random.Random(seed)
    negatives_of = _groups(negatives, "positive_id")
    bundles = positives[positives["id"].isin(negatives_of.keys)].reset_index(drop=True)
    pools = bundles.groupby("window", sort=False).indices  # window -> rows of its bundles, in the positives' order
    windows = sorted(pools)
    rng.shuffle(windows)
    reserved = set(windows[: round(graph_window_share * len(windows))])
    eligible = [w for w in windows if w not in reserved]
    total_articles = sum(window_articles[w] for w in eligible) or 1
    quota = {w: max(1, round(positive_budget * window_articles[w] / total_articles)) for w in eligible}
    dev_windows, running = set(), 0
    for window in eligible:  # already shuffled
        if running < dev_share * sum(quota.values()):
            dev_windows.add(window)
            running += quota[window]
    chosen_rows = []
    for window in sorted(eligible):
        pool = bundles.iloc[pools[window]]
        triples = dict(zip(pool["id"], zip(pool["subj"], pool["obj"])))
        asked = set(zip(pool["subj"], pool["pred"], pool["obj"]))
        distribution = pool["frequency"].map(lambda f: frequency_bucket(f, frequency_buckets)).value_counts(normalize=True).to_dict()
        negative_budget = {b: _round_randomly(share * quota[window] * (max_negatives_per_positive - 0.1), rng) for b, share in distribution.items()}
        order = list(pool["id"])
        rng.shuffle(order)
        accepted = 0
        for pid in order:
            if accepted >= quota[window]:
                break
            subj, obj = triples[pid]
            group = negatives_of(pid)
            group = group[[(subj, pred, obj) not in asked for pred in group["pred"]]]
            if group.empty:
                continue
            group = group.sample(n=min(max_negatives_per_positive, len(group)), random_state=rng.randrange(2**31)).sort_values("pred")
            needs = group["frequency"].map(lambda f: frequency_bucket(f, frequency_buckets)).value_counts().to_dict()
            if any(negative_budget.get(b, 0) < n for b, n in needs.items()):
                continue
            for b, n in needs.items():
                negative_budget[b] -= n
            accepted += 1
            asked |= {(subj, pred, obj) for pred in group["pred"]}
            chosen_rows.append((window, pid, group))
    splits: dict[str, list] = {"dev": [], "test": []}
    positive_rows = positives.set_index("id")
    for window, pid, group in chosen_rows:
        split = "dev" if window in dev_windows else "test"
        positive = positive_rows.loc[pid]
        splits[split].append(_entry(positive, pid, pid, positive["pred"], True, int(positive["frequency"])))
        for k, negative in enumerate(group.itertuples()):
            splits[split].append(_entry(positive, f"{pid}-n{k}", pid, negative.pred, False, int(negative.frequency)))
    log.info("sampled %d dev and %d test entries; %d windows reserved for graphs", len(splits["dev"]), len(splits["test"]), len(reserved))
    return {name: pd.DataFrame(rows, columns=ENTRY_COLUMNS) for name, rows in splits.items()} | {
        "reserved_windows": pd.DataFrame({"window": sorted(reserved)})
    }


class _groups:
    """The rows of ``frame`` with each value of ``column``, in the frame's order (as ``groupby`` gives them), sliced from
    one sorted copy on demand: a million small groups would not fit in memory as frames."""

    def __init__(self, frame: pd.DataFrame, column: str):
        order = np.argsort(frame[column].to_numpy(dtype=object), kind="stable")
        self.sorted = frame.iloc[order]
        self.keys, starts = np.unique(self.sorted[column].to_numpy(dtype=object), return_index=True)
        self.spans = dict(zip(self.keys, zip(starts, [*starts[1:], len(self.sorted)])))

    def __call__(self, key) -> pd.DataFrame:
        start, end = self.spans[key]
        return self.sorted.iloc[start:end]


# what sampling reads of a positive (not its sentence: the positives of the paper's corpus are millions)
POSITIVE_COLUMNS = ["id", "window", "subj", "pred", "obj", "subj_type", "obj_type", "article_id", "sentence_id", "frequency", "lang"]
ENTRY_COLUMNS = [
    "id",
    "bundle_id",
    "window",
    "label",
    "subj",
    "pred",
    "obj",
    "subj_type",
    "obj_type",
    "proposition",
    "positive_pred",
    "article_id",
    "sentence_id",
    "frequency",
]


def _entry(positive, entry_id: str, bundle_id: str, pred: str, label: bool, frequency: int) -> list:
    joiner = " " if positive["lang"] == "en" else ""
    return [
        entry_id,
        bundle_id,
        positive["window"],
        label,
        positive["subj"],
        pred,
        positive["obj"],
        positive["subj_type"],
        positive["obj_type"],
        joiner.join([positive["subj"], pred, positive["obj"]]),
        positive["pred"],
        positive["article_id"],
        int(positive["sentence_id"]),
        frequency,
    ]

"""Evidence retrieval for BoOQA (paper, §4.2 and footnote 8): for each entry, the relations of its window whose
argument pair matches the entry's (either order), except those from the entry's own source sentence and those
with the entry's predicate; at most ``cap`` per entry, sampled with the seed. Methods score each piece of
evidence -> hypothesis and take the maximum; an entry without evidence gets the lowest score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .booqa import with_pair_keys

EVIDENCE_COLUMNS = ["entry", "pred", "subj", "obj", "aligned", "sentence"]


def cap_per_entry(frame: pd.DataFrame, column: str, cap: int, seed: int) -> pd.DataFrame:
    """At most ``cap`` rows per value of ``column``, a seeded random choice; row order kept."""
    keys = np.random.default_rng(seed).random(len(frame))
    shuffled = frame.assign(_key=keys).sort_values([column, "_key"], kind="mergesort")
    kept = shuffled[shuffled.groupby(column).cumcount() < cap].drop(columns="_key")
    return frame[frame.index.isin(kept.index)]


def retrieve_evidence(entries: pd.DataFrame, relations: pd.DataFrame, *, cap: int, seed: int) -> pd.DataFrame:
    """One row per (entry, evidence relation): ``entry`` (the entry's id), the evidence's pred/subj/obj, whether
    its arguments are in the entry's order (``aligned``), and its sentence."""
    queries = with_pair_keys(entries[["id", "window", "subj", "obj", "pred", "article_id", "sentence_id"]])
    context = with_pair_keys(relations[["window", "subj", "obj", "pred", "article_id", "sentence_id", "sentence"]])
    matched = queries.merge(context, on=["window", "arg_a", "arg_b"], suffixes=("_q", ""))
    own_sentence = (matched["article_id"] == matched["article_id_q"]) & (matched["sentence_id"] == matched["sentence_id_q"])
    matched = matched[~own_sentence & (matched["pred"] != matched["pred_q"])]
    matched = matched.drop_duplicates(["id", "pred", "subj", "obj", "article_id", "sentence_id"])
    matched = matched.assign(aligned=matched["subj"] == matched["subj_q"])
    matched = matched.sort_values(["id", "article_id", "sentence_id", "pred", "subj"], kind="mergesort")
    matched = cap_per_entry(matched, "id", cap, seed)
    return matched.rename(columns={"id": "entry"})[EVIDENCE_COLUMNS].reset_index(drop=True)


def max_over_evidence(entries: pd.DataFrame, evidence: pd.DataFrame, scores: np.ndarray, floor: float) -> np.ndarray:
    """Per entry (in ``entries`` order), the maximum of ``scores`` over its evidence rows; ``floor`` if it has none."""
    best = pd.Series(scores, index=evidence["entry"].to_numpy()).groupby(level=0).max()
    return entries["id"].map(best).fillna(floor).to_numpy(dtype=np.float64)

"""Evidence retrieval for BoOQA (paper, §4.2 and footnote 8): for each entry, the relations of its window whose
argument pair matches the entry's (either order), except those from the entry's own source sentence and those
with the entry's predicate; at most ``cap`` per entry, sampled with the seed. Methods score each piece of
evidence -> hypothesis and take the maximum; an entry without evidence gets the lowest score.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

EVIDENCE_COLUMNS = ["entry", "pred", "subj", "obj", "aligned", "sentence"]


def _pair_keys(frame: pd.DataFrame) -> pd.DataFrame:
    swap = frame["subj"] > frame["obj"]
    return frame.assign(arg_a=frame["subj"].where(~swap, frame["obj"]), arg_b=frame["obj"].where(~swap, frame["subj"]))


def retrieve_evidence(entries: pd.DataFrame, relations: pd.DataFrame, *, cap: int, seed: int) -> pd.DataFrame:
    """One row per (entry, evidence relation): ``entry`` (the entry's id), the evidence's pred/subj/obj, whether
    its arguments are in the entry's order (``aligned``), and its sentence."""
    queries = _pair_keys(entries[["id", "window", "subj", "obj", "pred", "article_id", "sentence_id"]])
    context = _pair_keys(relations[["window", "subj", "obj", "pred", "article_id", "sentence_id", "sentence"]])
    matched = queries.merge(context, on=["window", "arg_a", "arg_b"], suffixes=("_q", ""))
    own_sentence = (matched["article_id"] == matched["article_id_q"]) & (matched["sentence_id"] == matched["sentence_id_q"])
    matched = matched[~own_sentence & (matched["pred"] != matched["pred_q"])]
    matched = matched.drop_duplicates(["id", "pred", "subj", "obj", "article_id", "sentence_id"])
    matched = matched.assign(aligned=matched["subj"] == matched["subj_q"])
    matched = matched.sort_values(["id", "article_id", "sentence_id", "pred", "subj"], kind="mergesort")
    rng = np.random.default_rng(seed)
    keys = rng.random(len(matched))
    matched = matched.assign(_key=keys).sort_values(["id", "_key"], kind="mergesort")
    matched = matched[matched.groupby("id").cumcount() < cap]
    matched = matched.sort_values(["id", "article_id", "sentence_id", "pred", "subj"], kind="mergesort")
    return matched.rename(columns={"id": "entry"})[EVIDENCE_COLUMNS].reset_index(drop=True)


def max_over_evidence(entries: pd.DataFrame, evidence: pd.DataFrame, scores: np.ndarray, floor: float) -> np.ndarray:
    """Per entry (in ``entries`` order), the maximum of ``scores`` over its evidence rows; ``floor`` if it has none."""
    best = pd.Series(scores, index=evidence["entry"].to_numpy()).groupby(level=0).max()
    return entries["id"].map(best).fillna(floor).to_numpy(dtype=np.float64)

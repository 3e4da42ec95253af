"""Scorers of BoOQA entries over their retrieved evidence (paper, §4.2): each scores evidence -> hypothesis pairs,
the entry's score is the maximum over its evidence, and an entry without evidence gets the lowest score.

Every scorer works on deduplicated (premise, hypothesis) pairs and reports the deduplication ratio.

* ``lm_cosine``: unsupervised LM, cosine between encodings of the evidence (a rendered relation, ``rel``, its
  host sentence, ``sent``, or a sentence of the top TF-IDF articles, ``tfidf``) and of the hypothesis proposition;
* ``prompt_model``: an S&S model (premise = evidence relation, hypothesis = the entry), score (s + 1) / 2;
* ``graph``: the edge weight evidence predicate -> hypothesis predicate in an entailment graph of the same type
  pair, as a vectorised join, with the authors' fuzzy back-off to same-surface predicates of any type pair.
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from .evidence import entry_positions, max_by_position, max_over_evidence

log = logging.getLogger(__name__)


def render(subj: pd.Series, pred: pd.Series, obj: pd.Series, lang: str) -> pd.Series:
    joiner = " " if lang == "en" else ""
    return subj + joiner + pred + joiner + obj


def _dedup_report(name: str, pairs: int, unique: int) -> float:
    ratio = pairs / unique if unique else 1.0
    log.info("%s: %d evidence pairs, %d unique (deduplication ratio %.2f)", name, pairs, unique, ratio)
    return ratio


def lm_cosine(entries: pd.DataFrame, evidence: pd.DataFrame, encode, lang: str, retrieval: str = "rel") -> tuple[np.ndarray, float]:
    """Max cosine of each entry's evidence with its proposition; -1 without evidence. Returns (scores, dedup ratio)."""
    if retrieval not in ("rel", "sent", "tfidf"):
        raise ValueError(f"retrieval must be 'rel', 'sent' or 'tfidf', not {retrieval!r}")
    premises = render(evidence["subj"], evidence["pred"], evidence["obj"], lang) if retrieval == "rel" else evidence["sentence"]
    hypotheses = evidence["entry"].map(dict(zip(entries["id"], entries["proposition"])))
    texts = pd.unique(pd.concat([premises, hypotheses, entries["proposition"]], ignore_index=True))
    index = {text: k for k, text in enumerate(texts)}
    vectors = encode(list(texts)) if len(texts) else np.zeros((0, 1))
    pairs = pd.DataFrame({"p": premises.map(index).to_numpy(), "h": hypotheses.map(index).to_numpy()})
    unique = pairs.drop_duplicates()
    ratio = _dedup_report(f"lm_cosine[{retrieval}]", len(pairs), len(unique))
    cosines = np.einsum("ij,ij->i", vectors[unique["p"].to_numpy()], vectors[unique["h"].to_numpy()]) if len(unique) else np.zeros(0)
    lookup = dict(zip(zip(unique["p"], unique["h"]), cosines))
    scores = np.array([lookup[key] for key in zip(pairs["p"], pairs["h"])], dtype=np.float64)
    return max_over_evidence(entries, evidence, scores, floor=-1.0), ratio


def prompt_model(entries: pd.DataFrame, evidence: pd.DataFrame, scorer, lang: str, batch_size: int = 32) -> tuple[np.ndarray, float]:
    """S&S over (evidence relation, entry) pairs: (s + 1) / 2, max over evidence; 0 without evidence."""
    from .levyholt import Entry

    by_id = entries.set_index("id")
    hyp = evidence["entry"].map(lambda e: (by_id.at[e, "subj"], by_id.at[e, "pred"], by_id.at[e, "obj"]))
    prem = list(zip(evidence["subj"], evidence["pred"], evidence["obj"]))
    pairs = pd.DataFrame({"premise": prem, "hypothesis": list(hyp)})
    unique = pairs.drop_duplicates().reset_index(drop=True)
    ratio = _dedup_report("prompt_model", len(pairs), len(unique))
    items = [Entry(tuple(p), tuple(h), False) for p, h in zip(unique["premise"], unique["hypothesis"])]
    raw = scorer.scores(items, batch_size) if items else np.zeros(0)
    lookup = dict(zip(zip(unique["premise"], unique["hypothesis"]), (raw + 1.0) / 2.0))
    scores = np.array([lookup[key] for key in zip(pairs["premise"], pairs["hypothesis"])], dtype=np.float64)
    return max_over_evidence(entries, evidence, scores, floor=0.0), ratio


def graph_scores(entries: pd.DataFrame, evidence: pd.DataFrame, graph: pd.DataFrame, measure: str, *, fuzzy: bool = True) -> tuple[np.ndarray, float]:
    """Edge weight (evidence predicate -> entry predicate) in the graph of the entry's type pair, max over evidence.

    The evidence predicate takes the entry's types (in the entry's argument order when aligned, reversed
    otherwise). Without a typed edge (score 0 or missing) and with ``fuzzy``, the best edge between the same two
    predicate strings in any type pair is used (the authors' back-off to same-surface predicates).

    Predicates and types become integer codes and each (premise, hypothesis, types) query one int64 key, so the
    join is a sort and a binary search over arrays (tens of millions of evidence rows fit in a few GB).
    """
    predicates = pd.Index(pd.unique(np.concatenate([
        graph["premise"].to_numpy(object), graph["hypothesis"].to_numpy(object), entries["pred"].to_numpy(object)])))
    types = pd.Index(pd.unique(np.concatenate([
        graph["subj_type"].to_numpy(object), graph["obj_type"].to_numpy(object),
        entries["subj_type"].to_numpy(object), entries["obj_type"].to_numpy(object)])))
    n_pred, n_type = len(predicates) + 1, len(types)  # code len(predicates): an evidence predicate the graph lacks
    if n_pred * n_pred * max(n_type, 1) ** 2 >= 2**62:
        raise ValueError(f"too many predicates ({n_pred}) and types ({n_type}) for an int64 key")

    def pred_codes(values) -> np.ndarray:
        codes = predicates.get_indexer(values)
        return np.where(codes < 0, n_pred - 1, codes).astype(np.int64)

    def keys(premise, hypothesis, subj_type, obj_type) -> np.ndarray:
        return ((premise * n_pred + hypothesis) * n_type + subj_type) * n_type + obj_type

    position = entry_positions(entries, evidence)
    aligned = evidence["aligned"].to_numpy(bool)
    entry_subj, entry_obj = types.get_indexer(entries["subj_type"])[position], types.get_indexer(entries["obj_type"])[position]
    query = keys(pred_codes(evidence["pred"]), pred_codes(entries["pred"])[position],
                 np.where(aligned, entry_subj, entry_obj), np.where(aligned, entry_obj, entry_subj))
    unique, inverse = np.unique(query, return_inverse=True)
    ratio = _dedup_report(f"graph[{measure}]", len(query), len(unique))

    edge_premise, edge_hypothesis = pred_codes(graph["premise"]), pred_codes(graph["hypothesis"])
    weights = graph[measure].to_numpy(np.float64)
    edge_keys = keys(edge_premise, edge_hypothesis, types.get_indexer(graph["subj_type"]), types.get_indexer(graph["obj_type"]))
    score = _lookup_max(edge_keys, weights, unique)
    if fuzzy:
        surface = _lookup_max(edge_premise * n_pred + edge_hypothesis, weights, unique // (n_type * n_type))
        score = np.where(score > 0, score, surface)
    return max_by_position(len(entries), position, score[inverse.ravel()], floor=0.0), ratio


def _lookup_max(keys: np.ndarray, values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """For each query key, the largest value under that key (0 where the key is absent)."""
    if not len(keys):
        return np.zeros(len(queries))
    table = pd.Series(values).groupby(keys).max()
    found = table.index.get_indexer(queries)
    return np.where(found >= 0, table.to_numpy()[np.maximum(found, 0)], 0.0)

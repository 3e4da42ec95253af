"""Scorers of BoOQA entries over their retrieved evidence (paper, §4.2): each scores evidence -> hypothesis pairs,
the entry's score is the maximum over its evidence, and an entry without evidence gets the lowest score.

Every scorer works on deduplicated (premise, hypothesis) pairs and reports the deduplication ratio.

* ``lm_cosine``: unsupervised LM, cosine between encodings of the evidence (a rendered relation, ``rel``, its
  host sentence, ``sent``, or a sentence of the top TF-IDF articles, ``tfidf``) and of the hypothesis proposition;
* ``prompt_model``: an S&S model (premise = evidence relation, hypothesis = the entry), score (s + 1) / 2;
* ``graph``: the edge weight evidence predicate -> hypothesis predicate in an entailment graph, typed with the
  entry's types in the evidence's argument order, as a vectorised join, with the authors' fuzzy back-off to
  same-surface predicates under the same typing (or, as an option, under any type pair).
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


FUZZY_MODES = ("same_type_pair", "any_type_pair", "none")


def graph_scores(entries: pd.DataFrame, evidence: pd.DataFrame, graph: pd.DataFrame, measure: str, *,
                 fuzzy: str = "same_type_pair", fuzzy_top: int = 20, fuzzy_min_count: int = 3) -> tuple[np.ndarray, float]:
    """Edge weight evidence predicate -> entry predicate, typed with the entry's types, max over the entry's evidence.

    The evidence predicate takes the entry's types in its own argument order: an aligned piece of evidence p(A, B)
    asks for the edge p -> q over (subj_type, obj_type), a reversed one p(B, A) for the reversed edge (``reversed``
    in the graph, see ``graphs``), as the authors type it ``p#tobj#tsubj -> q#tsubj#tobj``. Where that edge is
    missing or 0, ``fuzzy`` backs off (paper, Appendix G; the authors' ``backoff_to_predstr``):

    * ``same_type_pair`` (the authors'): the best edge between graph nodes with the same surface strings under the same
      typing, each node among the ``fuzzy_top`` most frequent of its surface string and seen ``fuzzy_min_count``
      times. Nodes carry their surface in ``premise_surface`` / ``hypothesis_surface`` and their corpus counts in
      ``premise_count`` / ``hypothesis_count`` when the graph has those columns (published graphs, whose nodes are
      CCG predicates with role labels); a local graph's nodes are surface strings, so there it adds nothing;
    * ``any_type_pair``: the best edge between the same two surface strings under any type pair and argument order;
    * ``none``: no back-off.

    Predicates, types and the argument order become one int64 key per query, so the join is a sort and a binary
    search over arrays (tens of millions of evidence rows fit in a few GB).
    """
    if fuzzy not in FUZZY_MODES:
        raise ValueError(f"fuzzy must be one of {FUZZY_MODES}, not {fuzzy!r}")
    surfaces = {side: graph[f"{side}_surface"] if f"{side}_surface" in graph else graph[side] for side in ("premise", "hypothesis")}
    predicates = pd.Index(pd.unique(np.concatenate([
        graph["premise"].to_numpy(object), graph["hypothesis"].to_numpy(object), surfaces["premise"].to_numpy(object),
        surfaces["hypothesis"].to_numpy(object), entries["pred"].to_numpy(object)])))
    types = pd.Index(pd.unique(np.concatenate([
        graph["subj_type"].to_numpy(object), graph["obj_type"].to_numpy(object),
        entries["subj_type"].to_numpy(object), entries["obj_type"].to_numpy(object)])))
    n_pred, n_type = len(predicates) + 1, max(len(types), 1)  # code len(predicates): an evidence predicate the graph lacks
    if n_pred * n_pred * n_type * n_type * 2 >= 2**62:
        raise ValueError(f"too many predicates ({n_pred}) and types ({n_type}) for an int64 key")

    def pred_codes(values) -> np.ndarray:
        codes = predicates.get_indexer(values)
        return np.where(codes < 0, n_pred - 1, codes).astype(np.int64)

    def keys(premise, hypothesis, subj_type, obj_type, reversed_) -> np.ndarray:
        return (((premise * n_pred + hypothesis) * n_type + subj_type) * n_type + obj_type) * 2 + np.asarray(reversed_, dtype=np.int64)

    position = entry_positions(entries, evidence)
    query = keys(pred_codes(evidence["pred"]), pred_codes(entries["pred"])[position], types.get_indexer(entries["subj_type"])[position],
                 types.get_indexer(entries["obj_type"])[position], ~evidence["aligned"].to_numpy(bool))
    unique, inverse = np.unique(query, return_inverse=True)
    ratio = _dedup_report(f"graph[{measure}]", len(query), len(unique))

    weights = graph[measure].to_numpy(np.float64)
    edge_types = types.get_indexer(graph["subj_type"]), types.get_indexer(graph["obj_type"])
    edge_reversed = graph["reversed"].to_numpy(bool)
    score = _lookup_max(keys(pred_codes(graph["premise"]), pred_codes(graph["hypothesis"]), *edge_types, edge_reversed), weights, unique)
    has_surfaces = "premise_surface" in graph or "hypothesis_surface" in graph
    if fuzzy == "same_type_pair" and has_surfaces:
        kept = _frequent_nodes(graph, fuzzy_top, fuzzy_min_count)
        surface_keys = keys(pred_codes(surfaces["premise"]), pred_codes(surfaces["hypothesis"]), *edge_types, edge_reversed)
        score = np.where(score > 0, score, _lookup_max(surface_keys[kept], weights[kept], unique))
    elif fuzzy == "any_type_pair":
        pairs = pred_codes(surfaces["premise"]) * n_pred + pred_codes(surfaces["hypothesis"])
        score = np.where(score > 0, score, _lookup_max(pairs, weights, unique // (n_type * n_type * 2)))
    return max_by_position(len(entries), position, score[inverse.ravel()], floor=0.0), ratio


def _frequent_nodes(graph: pd.DataFrame, top: int, min_count: int) -> np.ndarray:
    """Edges whose two nodes are each among the ``top`` most frequent nodes of their surface string and own typing
    and seen at least ``min_count`` times (every node, where the graph has no counts)."""
    if "premise_count" not in graph or "hypothesis_count" not in graph:
        return np.ones(len(graph), dtype=bool)
    reversed_ = graph["reversed"].to_numpy(bool)
    premise_types = [np.where(reversed_, graph["obj_type"], graph["subj_type"]), np.where(reversed_, graph["subj_type"], graph["obj_type"])]
    nodes = pd.concat([
        pd.DataFrame({"label": graph["premise"], "surface": graph.get("premise_surface", graph["premise"]),
                      "t1": premise_types[0], "t2": premise_types[1], "count": graph["premise_count"]}),
        pd.DataFrame({"label": graph["hypothesis"], "surface": graph.get("hypothesis_surface", graph["hypothesis"]),
                      "t1": graph["subj_type"], "t2": graph["obj_type"], "count": graph["hypothesis_count"]}),
    ], ignore_index=True).drop_duplicates(["label", "t1", "t2"])
    nodes = nodes.sort_values(["surface", "t1", "t2", "count", "label"], ascending=[True, True, True, False, True], kind="mergesort")
    rank = nodes.groupby(["surface", "t1", "t2"]).cumcount()
    frequent = nodes[(rank < top) & (nodes["count"] >= min_count)]
    index = pd.MultiIndex.from_frame(frequent[["label", "t1", "t2"]])
    premise_ok = pd.MultiIndex.from_arrays([graph["premise"], *premise_types]).isin(index)
    hypothesis_ok = pd.MultiIndex.from_arrays([graph["hypothesis"], graph["subj_type"], graph["obj_type"]]).isin(index)
    return premise_ok & hypothesis_ok


def _lookup_max(keys: np.ndarray, values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """For each query key, the largest value under that key (0 where the key is absent)."""
    if not len(keys):
        return np.zeros(len(queries))
    table = pd.Series(values).groupby(keys).max()
    found = table.index.get_indexer(queries)
    return np.where(found >= 0, table.to_numpy()[np.maximum(found, 0)], 0.0)

"""Scorers of BoOQA entries over their retrieved evidence (paper, §4.2): each scores evidence -> hypothesis pairs,
the entry's score is the maximum over its evidence, and an entry without evidence gets the lowest score.

Every scorer works on deduplicated (premise, hypothesis) pairs and reports the deduplication ratio.

* ``lm_cosine``: unsupervised LM, cosine between encodings of the evidence (a rendered relation, ``rel``, or its
  host sentence, ``sent``) and of the hypothesis proposition;
* ``prompt_model``: an S&S model (premise = evidence relation, hypothesis = the entry), score (s + 1) / 2;
* ``graph``: the edge weight evidence predicate -> hypothesis predicate in an entailment graph of the same type
  pair, as a vectorised join, with the authors' fuzzy back-off to same-surface predicates of any type pair.
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from .evidence import max_over_evidence

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
    if retrieval not in ("rel", "sent"):
        raise ValueError(f"retrieval must be 'rel' or 'sent' here, not {retrieval!r}")
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
    """
    types = entries[["id", "pred", "subj_type", "obj_type"]].rename(columns={"id": "entry", "pred": "hypothesis"})
    query = evidence[["entry", "pred", "aligned"]].rename(columns={"pred": "premise"}).merge(types, on="entry", how="left")
    swap = ~query["aligned"]
    query = query.assign(subj_type=query["subj_type"].where(~swap, query["obj_type"]), obj_type=query["obj_type"].where(~swap, query["subj_type"]))
    pairs = query[["premise", "hypothesis", "subj_type", "obj_type"]].drop_duplicates()
    ratio = _dedup_report(f"graph[{measure}]", len(query), len(pairs))
    edges = graph[["premise", "hypothesis", "subj_type", "obj_type", measure]]
    typed = pairs.merge(edges, on=["premise", "hypothesis", "subj_type", "obj_type"], how="left")[measure].fillna(0.0).to_numpy()
    if fuzzy:
        surface = edges.groupby(["premise", "hypothesis"])[measure].max().rename("fuzzy").reset_index()
        backoff = pairs.merge(surface, on=["premise", "hypothesis"], how="left")["fuzzy"].fillna(0.0).to_numpy()
        typed = np.where(typed > 0, typed, backoff)
    pairs = pairs.assign(score=typed)
    scored = query.merge(pairs, on=["premise", "hypothesis", "subj_type", "obj_type"], how="left")
    return max_over_evidence(entries, evidence, scored["score"].to_numpy(), floor=0.0), ratio

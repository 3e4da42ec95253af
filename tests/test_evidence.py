"""Evidence retrieval: same window and argument pair, own sentence and same predicate excluded, seeded cap."""

from __future__ import annotations

import numpy as np
import pandas as pd

from directional_inference.evidence import max_over_evidence, retrieve_evidence


def _relations():
    rows = [
        ("w1", "apple", "acquire", "beats", "a1", 0),  # the entry's own sentence
        ("w1", "apple", "buy", "beats", "a2", 0),
        ("w1", "beats", "join", "apple", "a3", 1),  # other argument order: still evidence, not aligned
        ("w1", "apple", "acquire", "beats", "a4", 0),  # same predicate as the query: excluded
        ("w2", "apple", "own", "beats", "a5", 0),  # other window
        ("w1", "apple", "sue", "samsung", "a6", 0),  # other pair
    ]
    return pd.DataFrame([{"window": w, "subj": s, "pred": p, "obj": o, "article_id": a, "sentence_id": k, "sentence": f"{a}/{k}"}
                         for w, s, p, o, a, k in rows])


def _entries():
    return pd.DataFrame([
        {"id": "e1", "window": "w1", "subj": "apple", "pred": "acquire", "obj": "beats", "article_id": "a1", "sentence_id": 0},
        {"id": "e1-n0", "window": "w1", "subj": "apple", "pred": "purchase", "obj": "beats", "article_id": "a1", "sentence_id": 0},
        {"id": "e2", "window": "w1", "subj": "nobody", "pred": "visit", "obj": "nowhere", "article_id": "a9", "sentence_id": 0},
    ])


def test_exclusions_and_argument_order():
    evidence = retrieve_evidence(_entries(), _relations(), cap=10, seed=1)
    e1 = evidence[evidence["entry"] == "e1"]
    assert sorted(e1["pred"]) == ["buy", "join"]
    assert dict(zip(e1["pred"], e1["aligned"])) == {"buy": True, "join": False}
    negative = evidence[evidence["entry"] == "e1-n0"]
    # the negative shares the positive's source sentence (excluded); "acquire" in another sentence is evidence for it
    assert sorted(negative["pred"]) == ["acquire", "buy", "join"] and "a1/0" not in set(negative["sentence"])
    assert "e2" not in set(evidence["entry"])


def test_cap_is_seeded_and_deterministic():
    many = pd.concat([_relations()] + [pd.DataFrame([{"window": "w1", "subj": "apple", "pred": f"p{k}", "obj": "beats", "article_id": f"b{k}",
                                                      "sentence_id": 0, "sentence": f"b{k}"}]) for k in range(30)], ignore_index=True)
    first = retrieve_evidence(_entries(), many, cap=5, seed=7)
    assert first.groupby("entry").size().max() == 5
    assert first.equals(retrieve_evidence(_entries(), many, cap=5, seed=7))
    assert not first.equals(retrieve_evidence(_entries(), many, cap=5, seed=8))


def test_max_over_evidence_with_floor_for_no_evidence():
    evidence = retrieve_evidence(_entries(), _relations(), cap=10, seed=1)
    scores = np.arange(len(evidence), dtype=float)
    best = max_over_evidence(_entries(), evidence, scores, floor=-1.0)
    expected_e1 = scores[(evidence["entry"] == "e1").to_numpy()].max()
    assert best[0] == expected_e1 and best[2] == -1.0

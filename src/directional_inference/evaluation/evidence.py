"""Evidence retrieval for BoOQA (paper, §4.2 and footnote 8): for each entry, the relations of its window whose
argument pair matches the entry's (either order), except those from the entry's own source sentence and those
with the entry's predicate; at most ``cap`` per entry, sampled with the seed. Methods score each piece of
evidence -> hypothesis and take the maximum; an entry without evidence gets the lowest score.

"The entry's predicate" is compared up to voice, with the normalisation that BoOQA's negatives are checked absent
with (``booqa.negatives.RelationKeys.active``), in either argument order like the predicate string itself: for the
entry "google acquire youtube", neither "youtube be acquired by google" (the entry's relation) nor "google be
acquired by youtube" (the passive of "youtube acquire google", always excluded) is evidence; "not be acquired by"
is the entry's predicate for "not acquire" only. English active predicates are lemmas; "be <participle> by" maps
to the participle's verb through WordNet, other passives ("be sold to", no agent argument) stay as they are.
Chinese predicates compare as strings but for a "被" passive, which is its verb ("被收购" is "收购").
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from ..booqa.negatives import RelationKeys
from ..progress import logged
from ..relations.shards import with_pair_keys

log = logging.getLogger(__name__)

EVIDENCE_COLUMNS = ["entry", "pred", "subj", "obj", "aligned", "sentence"]


def cap_per_entry(frame: pd.DataFrame, column: str, cap: int, seed: int) -> pd.DataFrame:
    """At most ``cap`` rows per value of ``column``, a seeded random choice; row order kept."""
    keys = np.random.default_rng(seed).random(len(frame))
    shuffled = frame.assign(_key=keys).sort_values([column, "_key"], kind="mergesort")
    kept = shuffled[shuffled.groupby(column).cumcount() < cap].drop(columns="_key")
    return frame[frame.index.isin(kept.index)]


def retrieve_evidence(entries: pd.DataFrame, relations: pd.DataFrame, *, cap: int, seed: int,
                      relation_keys: RelationKeys) -> pd.DataFrame:
    """One row per (entry, evidence relation): ``entry`` (the entry's id), the evidence's pred/subj/obj, whether
    its arguments are in the entry's order (``aligned``), and its sentence. A relation whose predicate is the
    entry's up to voice (``relation_keys.active``, in either argument order) is not evidence."""
    queries = with_pair_keys(entries[["id", "window", "subj", "obj", "pred", "article_id", "sentence_id"]])
    context = with_pair_keys(relations[["window", "subj", "obj", "pred", "article_id", "sentence_id", "sentence"]])
    matched = queries.merge(context, on=["window", "arg_a", "arg_b"], suffixes=("_q", ""))
    log.info("%d relations of %d entries' windows share an entry's argument pair", len(matched), len(entries))
    own_sentence = (matched["article_id"] == matched["article_id_q"]) & (matched["sentence_id"] == matched["sentence_id_q"])
    active = {pred: relation_keys.active(pred) for pred in pd.unique(pd.concat([matched["pred"], matched["pred_q"]]))}
    own_predicate = matched["pred"].map(active) == matched["pred_q"].map(active)
    matched = matched[~own_sentence & ~own_predicate]
    matched = matched.drop_duplicates(["id", "pred", "subj", "obj", "article_id", "sentence_id"])
    matched = matched.assign(aligned=matched["subj"] == matched["subj_q"])
    matched = matched.sort_values(["id", "article_id", "sentence_id", "pred", "subj"], kind="mergesort")
    log.info("%d after removing own sentences, own predicates (up to voice) and repeats; capping at %d per entry", len(matched), cap)
    matched = cap_per_entry(matched, "id", cap, seed)
    return matched.rename(columns={"id": "entry"})[EVIDENCE_COLUMNS].reset_index(drop=True)


def retrieve_language_evidence(entries: pd.DataFrame, relations: pd.DataFrame, lang: str, nltk_data, *, cap: int, seed: int) -> pd.DataFrame:
    """``retrieve_evidence`` with the language's relation keys (English passives through the WordNet under ``nltk_data``):
    the evidence the scorers read (rule retrieve_booqa_evidence) and the dataset card counts (rule write_booqa_card)."""
    from ..resources.wordnet import open_wordnet

    return retrieve_evidence(entries, relations, cap=cap, seed=seed, relation_keys=RelationKeys(lang, open_wordnet(nltk_data)))


def entry_positions(entries: pd.DataFrame, evidence: pd.DataFrame) -> np.ndarray:
    """Row of each evidence row's entry in ``entries``; an error if an entry is not there."""
    position = pd.Index(entries["id"]).get_indexer(evidence["entry"])
    if (position < 0).any():
        raise ValueError(f"evidence refers to entries that are not in the split: {evidence['entry'][position < 0].iloc[0]!r}")
    return position


def max_over_evidence(entries: pd.DataFrame, evidence: pd.DataFrame, scores: np.ndarray, floor: float) -> np.ndarray:
    """Per entry (in ``entries`` order), the maximum of ``scores`` over its evidence rows; ``floor`` if it has none."""
    return max_by_position(len(entries), entry_positions(entries, evidence), scores, floor)


def max_by_position(n_entries: int, position: np.ndarray, scores: np.ndarray, floor: float) -> np.ndarray:
    """``max_over_evidence`` given each evidence row's entry row; grouped by integer, cheap for tens of millions."""
    best = np.full(n_entries, floor, dtype=np.float64)
    if len(position):
        per_entry = pd.Series(np.asarray(scores, dtype=np.float64)).groupby(position).max()
        best[per_entry.index.to_numpy()] = per_entry.to_numpy()
    return best


# --- TF-IDF article retrieval (the BERT_tfidf baseline, paper Appendix E; DrQA's ranker, Chen et al. 2017) -------

TFIDF_COLUMNS = ["entry", "article_id", "sentence"]


def split_sentences(text: str, lang: str, nlp=None) -> list[str]:
    """Sentences of an article, whitespace-normalised: spaCy's rule-based sentencizer for English, sentence-final
    punctuation for Chinese."""
    if lang == "zh":
        from ..chinese_text import chinese_sentences

        found = chinese_sentences(text)
    else:
        found = [sentence.text for sentence in nlp(text).sents]
    return [" ".join(sentence.split()) for sentence in found if sentence.strip()]


def english_sentencizer():
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def tfidf_evidence(entries: pd.DataFrame, articles: pd.DataFrame, own_sentences: pd.Series, lang: str, *,
                   top_articles: int, sentences_per_article: int) -> pd.DataFrame:
    """For each entry, the sentences of the ``top_articles`` articles of its window ranked by TF-IDF cosine with
    its proposition (word uni+bigrams for English, character uni+bigrams for Chinese, sublinear tf), at most
    ``sentences_per_article`` per article, without the entry's own source sentence (``own_sentences``: entry id
    -> sentence text). Ties go to the earlier article; articles sharing no n-gram are not retrieved."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    nlp = english_sentencizer() if lang == "en" else None
    analyzer = "word" if lang == "en" else "char"
    ranked = []
    windows = entries.groupby("window", sort=True)
    for window, queries in logged(windows, "TF-IDF ranking", total=windows.ngroups, unit="windows"):
        pool = articles[articles["window"] == window].reset_index(drop=True)
        if pool.empty:
            continue
        vectorizer = TfidfVectorizer(analyzer=analyzer, ngram_range=(1, 2), sublinear_tf=True)
        documents = vectorizer.fit_transform((pool["title"].fillna("") + "\n" + pool["text"].fillna("")).tolist())
        similarity = (vectorizer.transform(queries["proposition"].tolist()) @ documents.T).toarray()
        order = np.argsort(-similarity, axis=1, kind="stable")[:, :top_articles]
        for row, entry in enumerate(queries["id"]):
            for column in order[row]:
                if similarity[row, column] > 0:
                    ranked.append((entry, pool.at[column, "article_id"]))
    if not ranked:
        return pd.DataFrame(columns=TFIDF_COLUMNS)
    chosen = pd.DataFrame(ranked, columns=["entry", "article_id"])
    texts = articles.set_index("article_id")["text"]
    retrieved = pd.unique(chosen["article_id"])
    sentences = {a: split_sentences(texts[a], lang, nlp)[:sentences_per_article]
                 for a in logged(retrieved, "sentence splitting", total=len(retrieved), unit="articles")}
    sentences = pd.DataFrame([(a, s) for a, found in sentences.items() for s in found], columns=["article_id", "sentence"])
    evidence = chosen.merge(sentences, on="article_id", how="inner", sort=False)
    own = {entry: " ".join(text.split()) for entry, text in own_sentences.items() if isinstance(text, str)}
    evidence = evidence[evidence["sentence"] != evidence["entry"].map(own)]
    return evidence.drop_duplicates(["entry", "sentence"]).reset_index(drop=True)[TFIDF_COLUMNS]


def source_sentences(entries: pd.DataFrame, relations: pd.DataFrame) -> pd.Series:
    """Entry id -> the text of the sentence its proposition was extracted from (for the own-sentence exclusion)."""
    homes = relations.drop_duplicates(["article_id", "sentence_id"])[["article_id", "sentence_id", "sentence"]]
    found = entries[["id", "article_id", "sentence_id"]].merge(homes, on=["article_id", "sentence_id"], how="left")
    return found.set_index("id")["sentence"]

"""Binary relations (subject, predicate, object) with argument types, from news sentences.

English uses spaCy dependency parses; Chinese uses jieba's segmentation and part-of-speech tags. One row per
relation: ``article_id, sentence_id, window, sentence, subj, pred, obj, subj_type, obj_type``.

English predicates are lemmatised and keep particles, prepositions and negation:
"Apple acquired Beats" -> acquire; "John did not go to the office" -> not go to; "Beats was acquired by
Apple" -> be acquired by; "Tim Cook is president of Apple" -> be president of. A conjoined verb without its
own subject takes its head's subject ("shopped in IKEA and bought shares" -> buy). Arguments are named
entities when the argument's head word is inside one, else the noun phrase reduced to its head word (lemmatised for common nouns: "the federal home loan bank board" -> board);
pronouns, numbers and dates are not arguments. Types map spaCy's entity labels to FIGER
first-level types (person, organization, location, ...); other arguments are "thing".

Chinese predicates are a verb (or two serial verbs) with its negation and an optional following preposition,
between two noun phrases (maximal runs of noun-tagged words): "阿里巴巴 收购 网易" -> 收购. Types come from the last word's tag
(nr -> person, ns -> location, nt -> organization, else thing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from dataclasses import astuple, dataclass

import pandas as pd

from .progress import logged

COLUMNS = ("article_id", "sentence_id", "window", "sentence", "subj", "pred", "obj", "subj_type", "obj_type")

FIGER_TYPES = {
    "PERSON": "person", "ORG": "organization", "NORP": "organization", "GPE": "location", "LOC": "location",
    "FAC": "building", "PRODUCT": "product", "EVENT": "event", "WORK_OF_ART": "art", "LAW": "written_work",
    "LANGUAGE": "language",
}
NON_ARGUMENT_ENTITIES = {"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"}
SUBJECT_DEPS = {"nsubj", "nsubjpass"}
PREPOSITION_DEPS = {"prep", "agent", "dative"}


@dataclass(frozen=True)
class Relation:
    article_id: str
    sentence_id: int
    window: str
    sentence: str
    subj: str
    pred: str
    obj: str
    subj_type: str
    obj_type: str


# --- English -------------------------------------------------------------------------------------------


def _argument(token) -> tuple[str, str] | None:
    """(normalised text, type) of the argument headed by ``token``, or None if it cannot be an argument."""
    if token.pos_ in ("PRON", "NUM", "DET") or token.like_num:
        return None
    if token.ent_type_:
        if token.ent_type_ in NON_ARGUMENT_ENTITIES:
            return None
        span = next((ent for ent in token.doc.ents if ent.start <= token.i < ent.end), None)
        if span is not None:
            text = " ".join(t.text for t in span if t.dep_ not in ("det", "poss", "case"))
            return _normalise(text), FIGER_TYPES.get(span.label_, "thing")
    if token.pos_ not in ("NOUN", "PROPN"):
        return None
    return _normalise(token.lemma_ if token.pos_ == "NOUN" else token.text), "thing"


def _normalise(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").split())


def _subject(verb):
    for child in verb.children:
        if child.dep_ in SUBJECT_DEPS:
            return child
    if verb.dep_ == "conj" and verb.head.pos_ in ("VERB", "AUX"):
        return _subject(verb.head)
    return None


def _predicates(verb, subject) -> Iterator[tuple[str, object]]:
    """(predicate, object token) pairs of one verb."""
    negated = any(child.dep_ == "neg" for child in verb.children)
    passive = subject.dep_ == "nsubjpass" or any(child.dep_ == "auxpass" for child in verb.children)
    base = f"be {verb.text.lower()}" if passive else verb.lemma_.lower()
    particles = [child.text.lower() for child in verb.children if child.dep_ == "prt"]
    if particles:
        base += " " + " ".join(particles)
    prefix = "not " if negated else ""
    for child in verb.children:
        if child.dep_ == "dobj" and not passive:
            yield prefix + base, child
        elif child.dep_ in PREPOSITION_DEPS:
            for obj in child.children:
                if obj.dep_ == "pobj":
                    yield f"{prefix}{base} {child.text.lower()}", obj
        elif child.dep_ == "attr" and verb.lemma_ == "be":
            for prep in child.children:
                if prep.dep_ == "prep":
                    for obj in prep.children:
                        if obj.dep_ == "pobj":
                            yield f"{prefix}be {child.lemma_.lower()} {prep.text.lower()}", obj


def english_relations(doc) -> Iterator[tuple[int, str, str, str, str, str, str]]:
    """(sentence index, sentence, subj, pred, obj, subj type, obj type) of a parsed spaCy document."""
    for index, sentence in enumerate(doc.sents):
        seen = set()
        for verb in sentence:
            if verb.pos_ not in ("VERB", "AUX"):
                continue
            subject = _subject(verb)
            if subject is None or (subj := _argument(subject)) is None:
                continue
            for pred, obj_token in _predicates(verb, subject):
                obj = _argument(obj_token)
                if obj is None or obj[0] == subj[0] or (subj[0], pred, obj[0]) in seen:
                    continue
                seen.add((subj[0], pred, obj[0]))
                yield index, sentence.text.strip(), subj[0], pred, obj[0], subj[1], obj[1]


def extract_english(articles: Iterable[tuple[str, str, str]], nlp, *, batch_size: int = 64, processes: int = 1) -> Iterator[Relation]:
    """Relations of ``(article_id, window, text)`` triples, in input order."""
    articles = list(articles)
    docs = nlp.pipe((text for _, _, text in articles), batch_size=batch_size, n_process=processes)
    for (article_id, window, _), doc in logged(zip(articles, docs), "relation extraction", len(articles), "articles"):
        for index, sentence, subj, pred, obj, t1, t2 in english_relations(doc):
            yield Relation(article_id, index, window, sentence, subj, pred, obj, t1, t2)


# --- Chinese -------------------------------------------------------------------------------------------

NOUN_TAGS = {"n", "nr", "nrt", "nrfg", "ns", "nt", "nz", "nl", "ng"}
ASPECT_TAGS = {"ul", "uz", "ug"}
NEGATIONS = {"不", "没", "没有", "未", "不再"}
_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|\n")


def chinese_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _chinese_type(tag: str) -> str:
    if tag.startswith("nr"):
        return "person"
    return {"ns": "location", "nt": "organization"}.get(tag, "thing")


def chinese_relations(tagged: list[tuple[str, str]]) -> Iterator[tuple[str, str, str, str, str]]:
    """(subj, pred, obj, subj type, obj type) of one sentence tagged by jieba.posseg: NP (d)* v (u)? (p)? NP."""
    phrases = []  # (start, end, text, last tag) of maximal noun runs (at most 4 words)
    i = 0
    while i < len(tagged):
        if tagged[i][1] in NOUN_TAGS:
            j = i
            while j < len(tagged) and tagged[j][1] in NOUN_TAGS and j - i < 4:
                j += 1
            phrases.append((i, j, "".join(w for w, _ in tagged[i:j]), tagged[j - 1][1]))
            i = j
        else:
            i += 1
    starts = {phrase[0]: phrase for phrase in phrases}
    for _, end, subj, subj_tag in phrases:
        k, negated = end, False
        while k < len(tagged) and tagged[k][1] == "d":
            negated = negated or tagged[k][0] in NEGATIONS
            k += 1
        if k >= len(tagged) or tagged[k][1] != "v":
            continue
        pred = ("不" if negated else "") + tagged[k][0]
        k += 1
        if k < len(tagged) and tagged[k][1] == "v":  # serial verbs: 主持 召开 -> 主持召开
            pred += tagged[k][0]
            k += 1
        if k < len(tagged) and tagged[k][1] in ASPECT_TAGS:
            k += 1
        if k < len(tagged) and tagged[k][1] == "p":
            pred += tagged[k][0]
            k += 1
        if k in starts and starts[k][2] != subj:
            _, _, obj, obj_tag = starts[k]
            yield subj, pred, obj, _chinese_type(subj_tag), _chinese_type(obj_tag)


def extract_chinese(articles: Iterable[tuple[str, str, str]]) -> Iterator[Relation]:
    """Relations of ``(article_id, window, text)`` triples with jieba.posseg, in input order."""
    import jieba.posseg

    articles = list(articles)
    for article_id, window, text in logged(articles, "relation extraction", len(articles), "articles"):
        for index, sentence in enumerate(chinese_sentences(text)):
            tagged = [(pair.word, pair.flag) for pair in jieba.posseg.cut(sentence)]
            seen = set()
            for subj, pred, obj, t1, t2 in chinese_relations(tagged):
                if (subj, pred, obj) not in seen:
                    seen.add((subj, pred, obj))
                    yield Relation(article_id, index, window, sentence, subj, pred, obj, t1, t2)


def relations_frame(relations: Iterable[Relation]) -> pd.DataFrame:
    return pd.DataFrame([astuple(r) for r in relations], columns=list(COLUMNS)).astype({"sentence_id": "int32"})


def shard_of(index: int, shards: int) -> int:
    """Articles (in corpus order) go round-robin to shards, so every shard covers every period."""
    return index % shards


# --- reading the extracted relations -------------------------------------------------------------------


def load_relations(shards: Sequence[str | Path], articles: pd.DataFrame) -> pd.DataFrame:
    """All shards in corpus order, without repeated sentences (a sentence text is kept in its first article)."""
    order = {article_id: index for index, article_id in enumerate(articles["article_id"])}
    relations = pd.concat([pd.read_parquet(path) for path in shards], ignore_index=True)
    relations["article_order"] = relations["article_id"].map(order)
    relations = relations.sort_values(["article_order", "sentence_id", "subj", "pred", "obj"], kind="mergesort")
    first_home = relations.drop_duplicates("sentence")[["sentence", "article_id", "sentence_id"]]
    relations = relations.merge(first_home, on=["sentence", "article_id", "sentence_id"], how="inner")
    return relations.reset_index(drop=True)


def with_pair_keys(relations: pd.DataFrame) -> pd.DataFrame:
    """The frame with the unordered argument pair as columns ``arg_a <= arg_b``."""
    frame = relations.copy()
    swap = frame["subj"] > frame["obj"]
    frame["arg_a"] = frame["subj"].where(~swap, frame["obj"])
    frame["arg_b"] = frame["obj"].where(~swap, frame["subj"])
    return frame

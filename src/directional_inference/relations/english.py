"""English relations from spaCy dependency parses.

Predicates are lemmatised and keep particles, prepositions and negation:
"Apple acquired Beats" -> acquire; "John did not go to the office" -> not go to; "Beats was acquired by
Apple" -> be acquired by; "Tim Cook is president of Apple" -> be president of. A conjoined verb without its
own subject takes its head's subject ("shopped in IKEA and bought shares" -> buy). Arguments are named
entities when the argument's head word is inside one, else the noun phrase reduced to its head word (lemmatised for
common nouns: "the federal home loan bank board" -> board); pronouns, numbers and dates are not arguments. Types map
spaCy's entity labels to FIGER first-level types (person, organization, location, ...); other arguments are "thing".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator


from ..progress import logged
from .shards import Relation


FIGER_TYPES = {
    "PERSON": "person",
    "ORG": "organization",
    "NORP": "organization",
    "GPE": "location",
    "LOC": "location",
    "FAC": "building",
    "PRODUCT": "product",
    "EVENT": "event",
    "WORK_OF_ART": "art",
    "LAW": "written_work",
    "LANGUAGE": "language",
}
NON_ARGUMENT_ENTITIES = {"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"}
SUBJECT_DEPS = {"nsubj", "nsubjpass"}
PREPOSITION_DEPS = {"prep", "agent", "dative"}


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


# spaCy refuses a text longer than ``nlp.max_length`` (1,000,000 characters) and needs about 1 GB per 100,000; a longer
# article is parsed in pieces of at most this many characters, cut at line breaks (or sentence ends, or spaces).
MAX_PIECE_CHARACTERS = 100_000


def text_pieces(text: str, limit: int = MAX_PIECE_CHARACTERS) -> list[str]:
    """``text`` in consecutive pieces of at most ``limit`` characters, each cut after the last line break in its
    limit, else after the last sentence end (". "), else after the last space, else at the limit."""
    pieces = []
    while len(text) > limit:
        head = text[:limit]
        cut = next((k + len(mark) for mark in ("\n", ". ", " ") if (k := head.rfind(mark)) > 0), limit)
        pieces.append(text[:cut])
        text = text[cut:]
    return pieces + [text] if text or not pieces else pieces


def extract_english(
    articles: Iterable[tuple[str, str, str]], nlp, *, batch_size: int = 64, processes: int = 1, max_characters: int = MAX_PIECE_CHARACTERS
) -> Iterator[Relation]:
    """Relations of ``(article_id, window, text)`` triples, in input order. An article longer than ``max_characters`` is
    parsed in pieces (``text_pieces``), its sentences numbered on across them."""
    articles = list(articles)
    pieces = [(k, piece) for k, (_, _, text) in enumerate(articles) for piece in text_pieces(text, max_characters)]
    docs = nlp.pipe((piece for _, piece in pieces), batch_size=batch_size, n_process=processes)
    offset, previous = 0, None
    for (k, _), doc in logged(zip(pieces, docs), "relation extraction", len(pieces), "article pieces"):
        offset = offset if k == previous else 0
        previous = k
        article_id, window, _ = articles[k]
        for index, sentence, subj, pred, obj, t1, t2 in english_relations(doc):
            yield Relation(article_id, offset + index, window, sentence, subj, pred, obj, t1, t2)
        offset += sum(1 for _ in doc.sents)

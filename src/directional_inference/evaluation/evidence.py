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
from ..engine import seeded_hash
from ..progress import logged
from ..relations.shards import pair_keys

log = logging.getLogger(__name__)

EVIDENCE_COLUMNS = ["entry", "pred", "subj", "obj", "aligned", "sentence"]


def retrieve_evidence(
    engine, entries: pd.DataFrame, relations, *, cap: int, seed: int, relation_keys: RelationKeys, output=None, counts: bool = False
):
    """One row per (entry, evidence relation): ``entry`` (the entry's id), the evidence's pred/subj/obj, whether
    its arguments are in the entry's order (``aligned``), and its sentence, ordered by entry, then the evidence's
    article id, sentence and relation (a complete order, not the corpus's date order). A relation whose predicate is the entry's up to voice (``relation_keys.active``, in either argument
    order) is not evidence; at most ``cap`` per entry, chosen by a seeded hash of the entry and the relation.
    ``relations``: the merged relations (Parquet files or a frame). SQL over the relations of the entries' windows;
    with ``output`` the rows are written there (their number returned), with ``counts`` only the pieces of evidence of
    each entry that has some are returned (a Series by entry id), else the rows as a frame."""
    engine.table("relations", relations)
    engine.frame("queries", entries[["id", "window", "subj", "obj", "pred", "article_id", "sentence_id"]])
    # the sentences' texts join the rows last: the choices run on keys only
    engine.materialise(
        "matched",
        f"""
        SELECT q.id, q.pred AS pred_q, r.pred, r.subj, r.obj, r.article_id, r.sentence_id, r.subj = q.subj AS aligned
        FROM (SELECT *, {pair_keys()} FROM queries) q
        JOIN (SELECT "window", subj, pred, obj, article_id, sentence_id, {pair_keys()} FROM relations) r USING ("window", arg_a, arg_b)
        WHERE NOT (r.article_id = q.article_id AND r.sentence_id = q.sentence_id)""",
    )
    log.info(
        "%d relations of %d entries' windows share an entry's argument pair and are not its own sentence",
        engine.count("SELECT * FROM matched"),
        len(entries),
    )
    preds = [row[0] for row in engine.execute("SELECT DISTINCT pred FROM matched UNION SELECT DISTINCT pred_q FROM matched").fetchall()]
    relation_keys.active_table(engine, "actives", preds)
    choice = seeded_hash(seed, "id", "article_id", "sentence_id", "pred", "subj", "obj")
    sizes = engine.df("SELECT id, count(*) AS n FROM matched GROUP BY id ORDER BY id")
    chosen, pieces = [0], []

    def chunk_queries():
        """For each chunk of entries (in id order, about ``chunk_rows`` matched rows each): its chosen evidence, then the
        query of its rows with their sentences."""
        for ids in _entry_chunks(sizes, chunk_rows(engine)):
            engine.frame("chunk_ids", pd.DataFrame({"id": ids}, dtype=object))
            engine.materialise(
                "chosen",
                f"""
                WITH other_predicates AS (
                    SELECT DISTINCT m.id, m.pred, m.subj, m.obj, m.article_id, m.sentence_id, m.aligned FROM matched m
                    SEMI JOIN chunk_ids USING (id)
                    JOIN actives a ON a.pred = m.pred JOIN actives aq ON aq.pred = m.pred_q WHERE a.active <> aq.active
                )
                SELECT * FROM other_predicates QUALIFY row_number() OVER (PARTITION BY id ORDER BY {choice}) <= {int(cap)}""",
            )
            chosen[0] += engine.count("SELECT * FROM chosen")
            if counts:
                pieces.append(engine.df("SELECT id, count(*) AS pieces FROM chosen GROUP BY id"))
                continue
            yield """
                SELECT c.id AS entry, c.pred, c.subj, c.obj, c.aligned, s.sentence FROM chosen c
                JOIN (SELECT DISTINCT article_id, sentence_id, sentence FROM relations SEMI JOIN chosen USING (article_id, sentence_id)) s
                    USING (article_id, sentence_id)
                ORDER BY c.id, c.article_id, c.sentence_id, c.pred, c.subj"""

    if counts:
        for _ in chunk_queries():
            pass
        found = pd.concat(pieces, ignore_index=True) if pieces else pd.DataFrame({"id": [], "pieces": []})
        result = found.sort_values("id").set_index("id")["pieces"].astype("int64").rename_axis("entry")
    elif output is not None:
        result = engine.write_all(chunk_queries(), output, empty=_EMPTY_EVIDENCE)
    else:
        result = pd.concat([engine.df(sql) for sql in chunk_queries()] or [engine.df(_EMPTY_EVIDENCE)], ignore_index=True)[EVIDENCE_COLUMNS]
    log.info("%d after removing own predicates (up to voice) and repeats, capped at %d per entry", chosen[0], cap)
    return result


# matched relations per chunk of entries whose evidence is chosen together: bounds the rows the choice's window
# function holds. A chunk that outgrows the engine's pool stops that query with "out of memory" instead of spilling,
# so a chunk follows the pool and the threads; CHUNK_ROWS_PER_POOL_MB keeps a margin below the largest chunks that
# held in the scale benchmark (docs/operations.md, benchmarks/results/paper_scale_evidence_chunks.json). In the
# default job's pool (3,600 MB) a chunk is CHUNK_ROWS.
CHUNK_ROWS = 2_000_000
CHUNK_ROWS_PER_POOL_MB = 1_500


def chunk_rows(engine) -> int:
    """Matched rows per chunk of entries in ``engine``'s pool: ``CHUNK_ROWS_PER_POOL_MB`` per MB of it at one or two
    threads, shared by every two threads above that, at most ``CHUNK_ROWS``. The chunks do not change the evidence: an
    entry's rows are chosen within one chunk, and the chunks are written in entry order."""
    return max(1, min(CHUNK_ROWS, engine.pool_mb * CHUNK_ROWS_PER_POOL_MB * 2 // max(engine.threads, 2)))


_EMPTY_EVIDENCE = (
    "SELECT CAST(NULL AS VARCHAR) AS entry, CAST(NULL AS VARCHAR) AS pred, CAST(NULL AS VARCHAR) AS subj, "
    "CAST(NULL AS VARCHAR) AS obj, CAST(NULL AS BOOLEAN) AS aligned, CAST(NULL AS VARCHAR) AS sentence LIMIT 0"
)


def _entry_chunks(sizes: pd.DataFrame, budget: int):
    """Lists of consecutive entry ids (``sizes``: id, n, in id order) of at most ``budget`` rows each (an entry with more
    is a chunk of its own)."""
    chunk, rows = [], 0
    for entry, n in zip(sizes["id"], sizes["n"]):
        if chunk and rows + n > budget:
            yield chunk
            chunk, rows = [], 0
        chunk.append(entry)
        rows += int(n)
    if chunk:
        yield chunk


def retrieve_language_evidence(
    engine, entries: pd.DataFrame, relations, lang: str, nltk_data, *, cap: int, seed: int, output=None, counts: bool = False
):
    """``retrieve_evidence`` with the language's relation keys (English passives through the WordNet under ``nltk_data``):
    the evidence the scorers read (rule retrieve_booqa_evidence) and the dataset card counts (rule write_booqa_card)."""
    from ..resources.wordnet import open_wordnet

    return retrieve_evidence(
        engine, entries, relations, cap=cap, seed=seed, relation_keys=RelationKeys(lang, open_wordnet(nltk_data)), output=output, counts=counts
    )


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


def window_articles_reader(engine, articles):
    """``window -> frame of its articles (article_id, title, text) in corpus order`` over the corpus table ``articles``,
    for ``tfidf_evidence``: one window's text in memory at a time."""
    engine.table("articles", articles)
    return lambda window: engine.execute('SELECT article_id, title, text FROM articles WHERE "window" = ? ORDER BY date, article_id', [window]).df()


def tfidf_evidence(
    entries: pd.DataFrame, window_articles, own_sentences: pd.Series, lang: str, *, top_articles: int, sentences_per_article: int
) -> pd.DataFrame:
    """For each entry, the sentences of the ``top_articles`` articles of its window ranked by TF-IDF cosine with
    its proposition (word uni+bigrams for English, character uni+bigrams for Chinese, sublinear tf), at most
    ``sentences_per_article`` per article, without the entry's own source sentence (``own_sentences``: entry id
    -> sentence text). Ties go to the earlier article; articles sharing no n-gram are not retrieved.
    ``window_articles(window)``: the articles of one window (``article_id, title, text``) in corpus order; one window
    is in memory at a time."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    nlp = english_sentencizer() if lang == "en" else None
    analyzer = "word" if lang == "en" else "char"
    own = {entry: " ".join(text.split()) for entry, text in own_sentences.items() if isinstance(text, str)}
    rows = []
    windows = entries.groupby("window", sort=True)
    for window, queries in logged(windows, "TF-IDF ranking", total=windows.ngroups, unit="windows"):
        pool = window_articles(window).reset_index(drop=True)
        if pool.empty:
            continue
        vectorizer = TfidfVectorizer(analyzer=analyzer, ngram_range=(1, 2), sublinear_tf=True)
        documents = vectorizer.fit_transform((pool["title"].fillna("") + "\n" + pool["text"].fillna("")).tolist())
        similarity = (vectorizer.transform(queries["proposition"].tolist()) @ documents.T).toarray()
        order = np.argsort(-similarity, axis=1, kind="stable")[:, :top_articles]
        sentences: dict[int, list[str]] = {}
        for row, entry in enumerate(queries["id"]):
            seen = set()
            for column in order[row]:
                if similarity[row, column] <= 0:
                    continue
                if column not in sentences:
                    sentences[column] = split_sentences(pool.at[column, "text"], lang, nlp)[:sentences_per_article]
                for sentence in sentences[column]:
                    if sentence != own.get(entry) and sentence not in seen:
                        seen.add(sentence)
                        rows.append((entry, pool.at[column, "article_id"], sentence))
    return pd.DataFrame(rows, columns=TFIDF_COLUMNS)


def source_sentences(engine, entries: pd.DataFrame, relations) -> pd.Series:
    """Entry id -> the text of the sentence its proposition was extracted from (for the own-sentence exclusion), read
    from the merged relations (Parquet files or a frame)."""
    engine.table("relations", relations)
    engine.frame("entry_homes", entries[["id", "article_id", "sentence_id"]])
    found = engine.df("""
        SELECT e.id, any_value(r.sentence) AS sentence FROM entry_homes e
        LEFT JOIN relations r ON r.article_id = e.article_id AND r.sentence_id = e.sentence_id GROUP BY e.id""")
    return found.set_index("id")["sentence"].reindex(entries["id"])

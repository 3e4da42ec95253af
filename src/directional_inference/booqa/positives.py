"""BoOQA positives (paper, §4.1 and Appendix D): relations of *starring* argument pairs with *felicitous* predicates.

* Felicitous typed predicate: occurs with at least ``felicity_min_pairs`` distinct argument pairs anywhere in
  the corpus (``felicity_count = mentions`` counts mentions, as the authors' code did).
* Starring argument pair of a window: the unordered pair is mentioned in at least ``starring_min_articles``
  distinct articles with at least ``starring_min_predicates`` distinct predicates.
* Positive: a relation of a window with a starring pair and a felicitous predicate; vague predicates and
  pronoun arguments are excluded; at most one positive per sentence, and one per proposition and window, each chosen
  by a seeded hash of the relation (``engine.seeded_hash``: the same choice in one process or out of core).
* Beyond ``max_positives`` (the authors' trim: 1,000,000 potential positives), each window keeps the same share of its
  positives, the first by the same hash.

Everything is SQL over the merged relations (``relations.shards``), run by the out-of-core engine.
"""

from __future__ import annotations

import logging

from ..engine import Engine, seeded_hash, sql_list
from ..relations.shards import pair_keys

log = logging.getLogger(__name__)

VAGUE_WORDS = {
    "en": {"x", "'s", "'", "has", "have", "had", "is", "are", "was", "were", "of", "in", "on", "at", "be", "for", "with", "not"},
    "zh": {"是", "还是", "也是", "都是", "有", "的", "不"},
}
PRONOUNS = {
    "en": {
        "i",
        "you",
        "he",
        "she",
        "it",
        "we",
        "they",
        "them",
        "someone",
        "somebody",
        "one",
        "myself",
        "yourself",
        "himself",
        "herself",
        "itself",
        "ourselves",
        "themselves",
        "people",
        "man",
        "woman",
        "her",
        "him",
        "his",
        "our",
        "their",
        "its",
        "anyone",
        "everyone",
        "anybody",
        "everybody",
        "this",
        "that",
        "these",
        "those",
        "who",
        "which",
        "what",
        # Reuters-21578 boilerplate heads: the news agency and units of numbers ("2.5 mln dlrs" -> dlrs)
        "reuter",
        "reuters",
        "dlrs",
        "dlr",
        "pct",
        "mln",
        "cts",
        "billion",
        "share",
        "year",
    },
    "zh": {"我", "你", "他", "她", "它", "我们", "你们", "他们", "她们", "它们", "自己", "大家", "人们"},
}


def vague_sql(lang: str) -> str:
    """SQL condition: the predicate is vague: every word of it (Chinese: the whole predicate) is in ``VAGUE_WORDS``."""
    words = "string_split(pred, ' ')" if lang == "en" else "[pred]"
    return f"list_has_all({sql_list(sorted(VAGUE_WORDS[lang]))}, {words})"


def without_pronouns_sql(source: str, lang: str) -> str:
    """The relations of ``source`` without a pronoun argument."""
    pronouns = sql_list(sorted(PRONOUNS[lang]))
    return f"SELECT * FROM {source} WHERE NOT list_contains({pronouns}, subj) AND NOT list_contains({pronouns}, obj)"


def typed_predicate_counts_sql(source: str, unit: str) -> str:
    """Count per (pred, subj_type, obj_type) of ``source``: distinct (subj, obj) pairs, or mentions. The distinct pairs
    are found over narrow rows, the typed predicate and the pair as 128-bit hashes; the names are joined back."""
    if unit not in ("pairs", "mentions"):
        raise ValueError(f"felicity_count must be 'pairs' or 'mentions', not {unit!r}")
    if unit == "mentions":
        return f"SELECT pred, subj_type, obj_type, count(*) AS count FROM {source} GROUP BY pred, subj_type, obj_type"
    typed = "md5_number(pred || chr(31) || subj_type || chr(31) || obj_type)"
    return f"""
        WITH pairs AS (SELECT typed, count(*) AS count
                       FROM (SELECT DISTINCT {typed} AS typed, md5_number(subj || chr(31) || obj) AS pair FROM {source})
                       GROUP BY typed),
        names AS (SELECT DISTINCT pred, subj_type, obj_type, {typed} AS typed FROM {source})
        SELECT pred, subj_type, obj_type, count FROM names JOIN pairs USING (typed)"""


def starring_pairs_sql(source: str, min_articles: int, min_predicates: int) -> str:
    """(window, arg_a, arg_b) with arg_a <= arg_b of ``source`` whose pair is mentioned in enough distinct articles
    with enough distinct predicates. A pair with fewer relations than either threshold cannot reach it (a distinct count
    is at most the count), so the distinct counts run only over the rows of the pairs that have enough relations, found
    by a group-by of one 64-bit hash per row (a collision only lets another pair through to the exact counts). Each
    distinct count is a GROUP BY of its own over narrow rows: the pair, the article and the predicate as 128-bit hashes;
    the names of the few starring pairs are joined back."""
    pair = """md5_number("window" || chr(31) || least(subj, obj) || chr(31) || greatest(subj, obj))"""
    rough = """hash("window", least(subj, obj), greatest(subj, obj))"""
    least_rows = max(int(min_articles), int(min_predicates))
    return f"""
        WITH frequent AS (SELECT rough FROM (SELECT {rough} AS rough, count(*) AS relations FROM {source} GROUP BY rough)
                          WHERE relations >= {least_rows}),
        keys AS (SELECT {pair} AS pair, md5_number(article_id) AS article, md5_number(pred) AS predicate FROM {source}
                 WHERE {rough} IN (SELECT rough FROM frequent)),
        articles AS (SELECT pair, count(*) AS articles FROM (SELECT DISTINCT pair, article FROM keys) GROUP BY pair),
        predicates AS (SELECT pair, count(*) AS predicates FROM (SELECT DISTINCT pair, predicate FROM keys) GROUP BY pair),
        starring AS (SELECT pair, articles, predicates FROM articles JOIN predicates USING (pair)
                     WHERE articles >= {int(min_articles)} AND predicates >= {int(min_predicates)}),
        names AS (SELECT DISTINCT "window", {pair_keys()}, {pair} AS pair FROM {source} SEMI JOIN starring ON starring.pair = {pair})
        SELECT "window", arg_a, arg_b, articles, predicates FROM names JOIN starring USING (pair)"""


def _first_positives(engine: Engine, lang: str, choice: str, felicity_min_pairs: int) -> None:
    """``all_positives``: of the usable relations of starring pairs with felicitous predicates, at most one a sentence
    and one a proposition and window (the least ``choice``, a seeded hash), as their hashes and windows."""
    sentence = "md5_number(article_id || chr(31) || CAST(sentence_id AS VARCHAR))"
    proposition = """md5_number("window" || chr(31) || subj || chr(31) || pred || chr(31) || obj)"""
    # the candidates as 128-bit keys (the sentence, the proposition and the relation: the seeded hash of its content);
    # at most one positive per sentence, then one per proposition and window: the least seeded hash (equal hashes are
    # equal relations), found by group-bys of the keys. The sentence's least hash is joined back for its proposition:
    # DuckDB's arg_min of a 128-bit value keeps no fixed-size state, so that group-by could not spill (out of memory in
    # a small pool, tests/test_engine_steps.py)
    engine.materialise(
        "candidates",
        f"""
        SELECT {sentence} AS sentence, {proposition} AS proposition, "window", {choice} AS choice
        FROM (SELECT *, {pair_keys()} FROM usable) r
        SEMI JOIN stars USING ("window", arg_a, arg_b)
        JOIN counts USING (pred, subj_type, obj_type)
        WHERE counts.count >= {int(felicity_min_pairs)} AND NOT {vague_sql(lang)}""",
    )
    engine.materialise(
        "all_positives",
        """
        WITH firsts AS (SELECT sentence, min(choice) AS choice FROM candidates GROUP BY sentence),
        per_sentence AS (SELECT proposition, "window", choice FROM candidates JOIN firsts USING (sentence, choice))
        SELECT min(choice) AS choice, arg_min("window", choice) AS "window" FROM per_sentence GROUP BY proposition""",
    )
    engine.drop("candidates")


def _keep_share(engine: Engine, max_positives: int | None) -> None:
    """``kept_choices``: the hashes of ``all_positives`` kept; beyond ``max_positives``, each window's share of them."""
    found = engine.count("SELECT * FROM all_positives")
    kept = "SELECT choice FROM all_positives"
    if max_positives is not None and found > max_positives:
        kept += f""" QUALIFY row_number() OVER (PARTITION BY "window" ORDER BY choice)
                         <= floor(count(*) OVER (PARTITION BY "window") * {int(max_positives)} / {found})"""
        log.info("%d positives, more than %d: each window keeps the share %.4f of its own", found, max_positives, max_positives / found)
    engine.materialise("kept_choices", kept)
    engine.drop("all_positives")


def select_positives(
    engine: Engine,
    relations,
    lang: str,
    *,
    starring_min_articles: int,
    starring_min_predicates: int,
    felicity_min_pairs: int,
    felicity_count: str,
    seed: int,
    max_positives: int | None = None,
    positives_path=None,
    counts_path=None,
):
    """Positives (one per sentence at most, unique per window and triple) and the typed predicate counts of the merged
    ``relations`` (Parquet files or a frame). The thresholds are the booqa config keys of the same names; beyond
    ``max_positives`` (the authors' trim of potential positives), each window keeps the share ``max_positives / total``
    of its positives (rounded down), the first by the seeded hash. With ``positives_path`` and ``counts_path`` both are
    written there (out of core) and their row counts returned; without, they are returned as frames (small inputs, tests)."""
    engine.table("relations", relations)
    # narrow rows: every step below sorts, joins or groups relations without their sentence text, which is joined back
    # for the positives kept alone
    engine.view("narrow", "SELECT * EXCLUDE (sentence) FROM relations")
    engine.view("usable", without_pronouns_sql("narrow", lang))  # a view: as a table it would take the pool's memory
    engine.materialise("counts", typed_predicate_counts_sql("usable", felicity_count))
    engine.materialise("stars", starring_pairs_sql("usable", starring_min_articles, starring_min_predicates))
    choice = seeded_hash(seed, "article_id", "sentence_id", "subj", "pred", "obj", "subj_type", "obj_type")
    _first_positives(engine, lang, choice, felicity_min_pairs)
    _keep_share(engine, max_positives)
    # the relations of the kept hashes, found again among the usable ones (the same relation twice is one positive)
    engine.materialise(
        "kept",
        f"""SELECT DISTINCT * FROM (SELECT *, {choice} AS choice FROM usable)
                                   SEMI JOIN kept_choices USING (choice)""",
    )
    engine.materialise(
        "kept_sentences",
        """SELECT DISTINCT article_id, sentence_id, sentence FROM relations
                                            SEMI JOIN kept USING (article_id, sentence_id)""",
    )
    positives = f"""
        SELECT printf('{lang}-%06d', row_number() OVER (ORDER BY date, article_id, sentence_id, pred, choice) - 1) AS id,
               article_id, date, "window", sentence_id, sentence, subj, pred, obj, subj_type, obj_type,
               counts.count AS frequency, '{lang}' AS lang
        FROM kept JOIN counts USING (pred, subj_type, obj_type) JOIN kept_sentences USING (article_id, sentence_id)
        ORDER BY id"""
    counts = "SELECT pred, subj_type, obj_type, count FROM counts ORDER BY pred, subj_type, obj_type"
    felicitous = engine.count(f"SELECT * FROM counts WHERE count >= {int(felicity_min_pairs)}")
    stars = engine.count("SELECT * FROM stars")
    if positives_path is not None:
        found = engine.write(positives, positives_path), engine.write(counts, counts_path)
        log.info("%d felicitous typed predicates, %d starring pairs, %d positives", felicitous, stars, found[0])
        return found
    frames = engine.df(positives), engine.df(counts)
    log.info("%d felicitous typed predicates, %d starring pairs, %d positives", felicitous, stars, len(frames[0]))
    return frames

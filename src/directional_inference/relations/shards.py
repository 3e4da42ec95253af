"""The relation record, its shards and their merge.

A relation is one row ``article_id, date, window, sentence_id, sentence, subj, pred, obj, subj_type, obj_type``.
Each extraction shard writes the relations of a contiguous block of the corpus (``shard_rows``) to
``results/<lang>/relations/<k>.parquet``; ``merge_relations`` reads every shard out of core and writes
``merged.parquet``: the relations in corpus order (date, article, sentence, then the triple), each sentence text kept
in its first article only (a repeated sentence, such as an agency's boilerplate, counts once). Every corpus-wide
step reads the merged file.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass

import pandas as pd

from ..engine import sql_string

COLUMNS = ("article_id", "date", "window", "sentence_id", "sentence", "subj", "pred", "obj", "subj_type", "obj_type")
# the complete order of merged relations: corpus order (date, then article id, as the corpus table is sorted), then
# the sentence and the relation
ORDER = ("date", "article_id", "sentence_id", "subj", "pred", "obj", "subj_type", "obj_type")


@dataclass(frozen=True)
class Relation:
    """A relation as the extractors yield it (the shard adds the article's date)."""

    article_id: str
    sentence_id: int
    window: str
    sentence: str
    subj: str
    pred: str
    obj: str
    subj_type: str
    obj_type: str


EXTRACTED = ("article_id", "sentence_id", "window", "sentence", "subj", "pred", "obj", "subj_type", "obj_type")


def relations_frame(relations: Iterable[Relation], dates: dict[str, str] | None = None) -> pd.DataFrame:
    """Relations as a frame of ``COLUMNS``; ``dates``: article id -> ISO date (None: no date column values)."""
    frame = pd.DataFrame([astuple(r) for r in relations], columns=list(EXTRACTED)).astype({"sentence_id": "int32"})
    frame.insert(1, "date", (frame["article_id"].map(dates) if dates is not None else pd.Series(None, index=frame.index)).astype("str"))
    return frame[list(COLUMNS)]


def shard_rows(articles: int, shards: int, shard: int) -> tuple[int, int]:
    """Rows [start, end) of the corpus table that extraction shard ``shard`` of ``shards`` reads: contiguous blocks of
    near-equal size, so a shard reads only its own part of the corpus file."""
    if not 0 <= shard < shards:
        raise ValueError(f"shard {shard} is not one of 0..{shards - 1}")
    return shard * articles // shards, (shard + 1) * articles // shards


# --- the merge -----------------------------------------------------------------------------------------


# a bucket of the merge holds at most this many relations of consecutive dates (or one date's, however many): its sort
# runs within the job's memory
BUCKET_RELATIONS = 4_000_000


def sentence_key(alias: str = "") -> str:
    """SQL of a relation's sentence key (of table ``alias``): the 128-bit hash of its text, or of its article and
    sentence where it has no text."""
    p = f"{alias}." if alias else ""
    return f"coalesce(md5_number({p}sentence), md5_number({p}article_id || chr(31) || CAST({p}sentence_id AS VARCHAR) || chr(30)))"


def date_buckets(counts: pd.DataFrame, most: int = BUCKET_RELATIONS) -> pd.DataFrame:
    """``date, bucket`` for ``counts`` (``date, relations``, sorted by date): consecutive dates share a bucket while it
    holds at most ``most`` relations; a date with more fills a bucket alone."""
    buckets, bucket, filled = [], 0, 0
    for relations in counts["relations"]:
        if filled and filled + relations > most:
            bucket, filled = bucket + 1, 0
        buckets.append(bucket)
        filled += relations
    return pd.DataFrame({"date": counts["date"].to_numpy(), "bucket": pd.array(buckets, dtype="int32")})


def merge_relations(
    engine, shards: Sequence[str | os.PathLike] | pd.DataFrame, output: str | os.PathLike, *, bucket_relations: int = BUCKET_RELATIONS
) -> int:
    """Write the merged relations of ``shards`` to ``output``: repeated sentences dropped (a sentence text is kept in its
    first article and sentence, in corpus order), the rest in ``ORDER``; returns their number.

    Sentences are compared by a 128-bit hash of their text (a relation without a sentence text, imported without one,
    is its own sentence). Nothing wide is joined, grouped or sorted across the corpus, and no large table is joined
    to every relation (a hash join whose build side outgrows the pool spills its probe side, the wide rows, whole):

    1. the texts found in more than one place (article and sentence), from a group-by of fixed-width rows (the text's
       hash, the least and the greatest 64-bit hash of its places);
    2. each such text's first place in corpus order, from the rows that hold one of them only: their articles ranked
       by (date, article id), a place as one integer (the rank, then the sentence index);
    3. the relations, each joined only to those texts and to the date buckets (``date_buckets``): a relation is kept
       unless its text is repeated and this is not its first place. The kept relations are written, unsorted, into
       buckets of consecutive dates in the engine's scratch folder, and each bucket is sorted alone and appended in
       date order.

    Relations equal in every ``ORDER`` column are equal in every column (one article, one sentence), so the bytes are
    those of one global sort."""
    engine.table("shards", shards)
    key = sentence_key("s")
    place_hash = "hash(s.article_id, s.sentence_id)"  # 64 bits: two places of one text that collide count as one
    engine.materialise(
        "repeated_keys",
        f"""SELECT sentence_key FROM (
                                               SELECT {key} AS sentence_key, min({place_hash}) AS low, max({place_hash}) AS high
                                               FROM shards s GROUP BY ALL)
                                           WHERE low < high""",
    )
    engine.materialise(
        "repeated_rows",
        f"""SELECT s.date, s.article_id, s.sentence_id, {key} AS sentence_key FROM shards s
                                            WHERE {key} IN (SELECT sentence_key FROM repeated_keys)""",
    )
    engine.materialise(
        "repeated",
        """SELECT sentence_key, arg_min(article_id, place) AS first_article, arg_min(sentence_id, place) AS first_sentence
                                      FROM (SELECT r.sentence_key, r.article_id, r.sentence_id, (a.article_rank << 31) + r.sentence_id AS place
                                            FROM repeated_rows r JOIN (
                                                SELECT date, article_id, row_number() OVER (ORDER BY date, article_id) AS article_rank
                                                FROM (SELECT DISTINCT date, article_id FROM repeated_rows)) a USING (date, article_id))
                                      GROUP BY sentence_key""",
    )  # sentence ids are below 2^31 (the import checks it)
    counts = engine.df("SELECT date, count(*) AS relations FROM shards GROUP BY date ORDER BY date")
    engine.frame("date_buckets", date_buckets(counts, bucket_relations))
    columns = ", ".join(f'"{c}"' for c in COLUMNS)
    folder = engine.spill / "merge-buckets"
    shutil.rmtree(folder, ignore_errors=True)
    kept = f"""SELECT {", ".join(f's."{c}"' for c in COLUMNS)}, b.bucket
               FROM shards s JOIN date_buckets b ON b.date = s.date
               LEFT JOIN repeated r ON r.sentence_key = {key}
               WHERE r.sentence_key IS NULL OR (r.first_article = s.article_id AND r.first_sentence = s.sentence_id)"""
    buckets = engine.write_partitions(kept, "bucket", folder)
    queries = (f"SELECT {columns} FROM read_parquet({sql_string(path)}) ORDER BY {', '.join(ORDER)}" for path in buckets.values())
    rows = engine.write_all(queries, output, empty=f"SELECT {columns} FROM shards LIMIT 0")
    shutil.rmtree(folder, ignore_errors=True)
    return rows


def pair_keys(alias: str = "") -> str:
    """SQL columns ``arg_a <= arg_b``: the unordered argument pair of a relation (of table ``alias``)."""
    prefix = f"{alias}." if alias else ""
    return f"least({prefix}subj, {prefix}obj) AS arg_a, greatest({prefix}subj, {prefix}obj) AS arg_b"


def extraction_shards(relations: dict, corpus: dict) -> int:
    """Extraction jobs of a language: ``relations.shards``, or one per ``relations.articles_per_shard`` articles of the
    corpus's expected size (``corpus.sources.expected_articles``; config sections ``relations`` and ``corpus.<lang>``)."""
    if relations.get("shards"):
        return int(relations["shards"])
    from ..corpus.sources import expected_articles

    articles = expected_articles(corpus["source"], corpus.get("years"), corpus.get("max_articles"))
    return max(1, -(-articles // int(relations["articles_per_shard"])))

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
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass

import pandas as pd

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


def merged_relations_sql(source: str) -> str:
    """SQL of the merged relations of the view ``source`` (every shard): repeated sentences dropped (a sentence text
    is kept in its first article and sentence, in corpus order), the rest in ``ORDER``. Sentences are compared by a
    128-bit hash of their text; a relation without a sentence text (relations imported without one) is its own
    sentence."""
    columns = ", ".join(f'"{c}"' for c in COLUMNS)
    sentence_key = "coalesce(md5_number(sentence), md5_number(article_id || chr(31) || CAST(sentence_id AS VARCHAR) || chr(30)))"
    return f"""
        WITH homes AS (
            SELECT min({{'date': date, 'article_id': article_id, 'sentence_id': sentence_id}}) AS home
            FROM {source} GROUP BY {sentence_key}
        ), first_homes AS (
            SELECT DISTINCT home.article_id AS article_id, home.sentence_id AS sentence_id FROM homes
        )
        SELECT {columns} FROM {source} SEMI JOIN first_homes USING (article_id, sentence_id)
        ORDER BY {", ".join(ORDER)}
    """


def merge_relations(engine, shards: Sequence[str | os.PathLike] | pd.DataFrame, output: str | os.PathLike) -> int:
    """Write the merged relations of ``shards`` (``merged_relations_sql``) to ``output``; returns their number."""
    engine.table("shards", shards)
    return engine.write(merged_relations_sql("shards"), output)


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

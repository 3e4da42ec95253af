"""The relation record and its shards: one row per relation, ``article_id, sentence_id, window, sentence, subj,
pred, obj, subj_type, obj_type``, written in ``relations.shards`` parquet files per language and read back
deduplicated, with the argument-pair keys the BoOQA phase groups by.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from dataclasses import astuple, dataclass

import pandas as pd



COLUMNS = ("article_id", "sentence_id", "window", "sentence", "subj", "pred", "obj", "subj_type", "obj_type")


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

"""One extraction shard, streamed: the shard's block of the corpus table is read in bounded batches of articles, their
relations are extracted and written as each batch is done, so a shard's memory does not grow with the corpus (nor
with its own size).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator

from ..progress import ProgressLog
from .shards import COLUMNS, Relation, relations_frame, shard_rows

log = logging.getLogger(__name__)

ARTICLE_BATCH = 500  # articles per extraction batch: a few MB of text at News Crawl's article sizes


def shard_articles(
    articles_path: str | os.PathLike, shards: int, shard: int, *, batch: int = ARTICLE_BATCH
) -> Iterator[list[tuple[str, str, str, str]]]:
    """Batches of ``(article_id, date, window, text)`` of the rows of the corpus table that belong to ``shard``
    (``shard_rows``); only the row groups holding them are read."""
    import pyarrow.parquet as pq

    corpus = pq.ParquetFile(articles_path)
    start, end = shard_rows(corpus.metadata.num_rows, shards, shard)
    first_row, pending = 0, []
    for group in range(corpus.metadata.num_row_groups):
        rows = corpus.metadata.row_group(group).num_rows
        group_start, first_row = first_row, first_row + rows
        if first_row <= start or group_start >= end:
            continue
        table = corpus.read_row_group(group, columns=["article_id", "date", "window", "text"])
        table = table.slice(max(start - group_start, 0), min(end, first_row) - max(start, group_start))
        columns = [table.column(name).to_pylist() for name in ("article_id", "date", "window", "text")]
        pending.extend(zip(*columns))
        while len(pending) >= batch:
            yield pending[:batch]
            pending = pending[batch:]
    if pending:
        yield pending


def extract_shard(
    articles_path: str | os.PathLike,
    shards: int,
    shard: int,
    output: str | os.PathLike,
    extract: Callable[[Iterable[tuple[str, str, str]]], Iterator[Relation]],
    *,
    batch: int = ARTICLE_BATCH,
) -> int:
    """Relations of shard ``shard`` of the corpus table, written to ``output`` batch by batch (atomically: the file
    appears when the shard is complete). ``extract`` maps ``(article_id, window, text)`` triples to relations in
    input order. Returns the number of relations."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ..atomic import atomic_file

    start, end = shard_rows(pq.ParquetFile(articles_path).metadata.num_rows, shards, shard)
    progress = ProgressLog(f"shard {shard}", end - start, "articles", logger=log)
    schema = relation_schema()
    total = 0
    with atomic_file(output) as tmp, pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
        for articles in shard_articles(articles_path, shards, shard, batch=batch):
            dates = {article_id: date for article_id, date, _, _ in articles}
            frame = relations_frame(extract((article_id, window, text) for article_id, _, window, text in articles), dates)
            writer.write_table(pa.Table.from_pandas(frame, schema=schema, preserve_index=False))
            total += len(frame)
            progress.advance(len(articles))
    progress.finish()
    log.info("shard %d of %d: articles %d-%d, %d relations", shard, shards, start, end, total)
    return total


def relation_schema():
    """The Arrow schema of a relation shard (``shards.COLUMNS``)."""
    import pyarrow as pa

    types = {"sentence_id": pa.int32()}
    return pa.schema([(name, types.get(name, pa.string())) for name in COLUMNS])

"""From the readers' articles to the corpus table: context windows, duplicate texts dropped, the ``years`` and
``max_articles`` limits, each counted.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections.abc import Iterable, Sequence

from .reading import COLUMNS, Article, ReadingReport


log = logging.getLogger(__name__)


def window_of(date: dt.date, days: int) -> str:
    """Name of the disjoint window holding ``date``: ``YYYY_MM-DD_MM-DD`` (start and end, within the year)."""
    if days < 1:
        raise ValueError("window length must be at least one day")
    index = (date.timetuple().tm_yday - 1) // days
    start = dt.date(date.year, 1, 1) + dt.timedelta(days=index * days)
    end = min(start + dt.timedelta(days=days - 1), dt.date(date.year, 12, 31))
    return f"{date.year}_{start:%m-%d}_{end:%m-%d}"


# --- the table ----------------------------------------------------------------------------------------

STAGING_BATCH = 1_000  # articles per staged batch
ARTICLE_ROW_GROUP = 1_000  # articles per row group of the corpus table: an extraction shard reads only its groups


def text_key(text: str) -> str:
    """What makes two articles the same: their text, whitespace aside (a SHA-1 of it)."""
    return hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()


def write_articles(
    articles: Iterable[Article],
    output,
    engine,
    window_days: int,
    max_articles: int | None = None,
    years: Sequence[int] | None = None,
    report: ReadingReport | None = None,
) -> int:
    """Write the corpus table ``output`` (``COLUMNS``) of the articles dated within ``years`` (first and last year,
    inclusive; None = all): one row per text (same text, whitespace aside, = same article; the earliest by date and
    id kept), sorted by date and id, at most ``max_articles``. The articles stream through a staging file in the
    engine's spill directory in bounded batches and are deduplicated and sorted out of core, so no step holds the
    corpus. ``report`` counts what is dropped. Returns the articles kept."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    report = report if report is not None else ReadingReport()
    schema = pa.schema([(name, pa.string()) for name in (*COLUMNS, "text_key")])
    staging = engine.spill / "articles.staging.parquet"
    outside = staged = 0
    with pq.ParquetWriter(staging, schema, compression="zstd") as writer:
        batch: list[Article] = []

        def flush() -> None:
            rows = {
                "article_id": [a.article_id for a in batch],
                "date": [a.date.isoformat() for a in batch],
                "window": [window_of(a.date, window_days) for a in batch],
                "title": [a.title for a in batch],
                "text": [a.text for a in batch],
                "text_key": [text_key(a.text) for a in batch],
            }
            writer.write_table(pa.table(rows, schema=schema))
            batch.clear()

        for article in articles:
            if years is not None and not years[0] <= article.date.year <= years[1]:
                outside += 1
                continue
            batch.append(article)
            staged += 1
            if len(batch) >= STAGING_BATCH:
                flush()
        flush()
    engine.table("staged", staging)
    # the earliest article of each text (date, id, then title and text: ties are identical rows)
    row = ", ".join(f"'{c}': \"{c}\"" for c in COLUMNS)
    engine.materialise(
        "first_of_text",
        f"SELECT arg_min({{{row}}}, {{'date': date, 'article_id': article_id, 'title': title, 'text': text}}) AS first FROM staged GROUP BY text_key",
    )
    distinct = engine.count("SELECT * FROM first_of_text")
    limit = f"LIMIT {int(max_articles)}" if max_articles else ""
    kept = engine.write(
        f"SELECT unnest(first) FROM first_of_text ORDER BY first.date, first.article_id, first.title, first.text {limit}",
        output,
        row_group_rows=ARTICLE_ROW_GROUP,
    )
    staging.unlink()
    report.dropped["duplicate text"] += staged - distinct
    if years is not None:
        report.dropped[f"outside the years {years[0]}-{years[1]}"] += outside
    if max_articles is not None:
        report.dropped[f"beyond max_articles ({max_articles})"] += distinct - kept
    report.kept = kept
    log.info("%d articles kept; dropped: %s", kept, ", ".join(f"{why}: {n}" for why, n in sorted(report.dropped.items())) or "none")
    return kept

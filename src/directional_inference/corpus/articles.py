"""From the readers' articles to the corpus table: context windows, duplicate texts dropped, the ``years`` and
``max_articles`` limits, each counted.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections.abc import Iterable, Sequence
from .reading import Article, COLUMNS, ReadingReport


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


def build_articles(articles: Iterable[Article], window_days: int, max_articles: int | None = None,
                   years: Sequence[int] | None = None, report: ReadingReport | None = None):
    """Deduplicated (same text = same article; the earliest kept), dated, windowed and sorted DataFrame of the
    articles dated within ``years`` (first and last year, inclusive; None = all). ``report`` counts what is dropped."""
    import pandas as pd

    report = report if report is not None else ReadingReport()
    seen: dict[str, Article] = {}
    outside = 0
    report.dropped["duplicate text"] += 0
    for article in sorted(articles, key=lambda a: (a.date, a.article_id)):
        if years is not None and not years[0] <= article.date.year <= years[1]:
            outside += 1
            continue
        key = hashlib.sha1(" ".join(article.text.split()).encode("utf-8")).hexdigest()
        if key in seen:
            report.dropped["duplicate text"] += 1
            continue
        seen[key] = article
    if years is not None:
        report.dropped[f"outside the years {years[0]}-{years[1]}"] += outside
    kept = list(seen.values())[: max_articles or None]
    if max_articles is not None:
        report.dropped[f"beyond max_articles ({max_articles})"] += len(seen) - len(kept)
    report.kept = len(kept)
    log.info("%d articles kept; dropped: %s", len(kept), ", ".join(f"{why}: {n}" for why, n in sorted(report.dropped.items())) or "none")
    return pd.DataFrame(
        {
            "article_id": [a.article_id for a in kept],
            "date": [a.date.isoformat() for a in kept],
            "window": [window_of(a.date, window_days) for a in kept],
            "title": [a.title for a in kept],
            "text": [a.text for a in kept],
        },
        columns=list(COLUMNS),
    )

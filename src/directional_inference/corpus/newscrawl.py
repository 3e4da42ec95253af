"""WMT document-level News Crawl (the paper-scale English corpus): gzipped lines of date, URL and base64 sentences."""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputFormatError
from .reading import Article, ReadingReport, clean_text, not_utf8_error, read_files


# --- WMT News Crawl (document level) ---------------------------------------------------------------


def _newscrawl_file(path: Path, report: ReadingReport) -> Iterator[Article]:
    number = 0
    try:
        with gzip.open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise not_utf8_error(path, raw, error, number) from None
                fields = line.rstrip("\n").split("\t")
                if len(fields) != 3:
                    raise InputFormatError(str(path), number, None, f"expected 3 tab-separated fields, found {len(fields)}")
                try:
                    date = dt.datetime.strptime(fields[0], "%Y%m%d").date()
                except ValueError:
                    raise InputFormatError(str(path), number, "date", f"not YYYYMMDD: {fields[0]!r}") from None
                try:
                    sentences = base64.b64decode(fields[1]).decode("utf-8")
                except (ValueError, UnicodeDecodeError):
                    raise InputFormatError(str(path), number, "sentence-split text", "not base64 of UTF-8 text") from None
                lines = [s for s in sentences.split("\n") if s.strip()]
                if not lines:
                    report.skip(path, "document without sentences")
                    continue
                report.read(path)
                yield Article(f"newscrawl-{path.name.split('.')[1]}-{number:08d}", date, clean_text(lines[0]), clean_text("\n".join(lines)))
    except (EOFError, gzip.BadGzipFile, zlib.error) as error:
        raise InputFormatError(str(path), number + 1, None, f"the gzip stream is damaged or cut short ({error})") from None


def read_newscrawl(paths: Iterable[str | Path], report: ReadingReport | None = None) -> Iterator[Article]:
    """Documents of ``news-docs.<year>.en.filtered.gz``: one per line, ``YYYYMMDD <TAB> base64 sentences <TAB> base64 raw text``.

    Skipped (counted): documents without sentences. Errors: a damaged or cut gzip stream, a line that is not UTF-8,
    a line without three fields, a bad date, sentences that are not base64 of UTF-8.
    """
    return read_files(paths, _newscrawl_file, report, "News Crawl")

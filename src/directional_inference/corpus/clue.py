"""CLUE news2016zh (the paper-scale Chinese corpus): JSON lines whose time has no year, so 2016 is taken, as the
authors did.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputFormatError
from .reading import Article, ReadingReport, clean_text, not_utf8_error, read_files


# --- CLUE news2016zh ---------------------------------------------------------------------------------


def _clue_file(path: Path, report: ReadingReport, year: int = 2016) -> Iterator[Article]:
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise not_utf8_error(path, raw, error, number) from None
            if not line.strip():
                report.skip(path, "blank line")
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise InputFormatError(str(path), number, None, f"not JSON (a line cut short?): {error.msg}") from None
            if not isinstance(record, dict):
                raise InputFormatError(str(path), number, None, f"a JSON {type(record).__name__}, not an object")
            time = str(record.get("time", ""))
            match = re.match(r"(?:\d{4}-)?(\d{2})-(\d{2})", time)
            if not match:
                raise InputFormatError(str(path), number, "time", f"not MM-DD[ HH:MM]: {time!r}")
            try:
                date = dt.date(year, int(match.group(1)), int(match.group(2)))
            except ValueError:
                raise InputFormatError(str(path), number, "time", f"not a date in {year}: {time!r}") from None
            text = clean_text(str(record.get("content", "")))
            if not text:
                report.skip(path, "empty content")
                continue
            report.read(path)
            yield Article(f"clue-{record.get('news_id', number)}", date, clean_text(str(record.get("title", ""))), text)


def read_clue(paths: Iterable[str | Path], report: ReadingReport | None = None) -> Iterator[Article]:
    """Articles of CLUE news2016zh JSON lines (``news_id``, ``time``, ``title``, ``content``); the time has no year.

    Skipped (counted): blank lines, records with empty content. Errors: a line that is not UTF-8 or not a JSON
    object (a file cut in the middle of a line included), a time that is not MM-DD of 2016.
    """
    return read_files(paths, _clue_file, report, "CLUE news2016zh")

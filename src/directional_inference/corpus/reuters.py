"""Reuters-21578 SGML (the default English corpus): one article per ``<REUTERS>`` element with a ``<BODY>``."""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..errors import InputFormatError
from .reading import Article, ReadingReport, clean_text, read_files

log = logging.getLogger(__name__)


# --- Reuters-21578 -----------------------------------------------------------------------------------

_REUTERS_OPEN = re.compile(r"<REUTERS\b([^>]*)>")


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        log.warning("%s: byte 0x%02x at offset %d (line %d) is not UTF-8; the file is read as Latin-1", path, data[error.start], error.start, line)
        return data.decode("latin-1")


def _element(block: str, name: str, path: Path, line_at: Callable[[int], int]) -> str | None:
    """Text of the element ``name`` in ``block``; None when absent; an error when it is opened but never closed."""
    start = block.find(f"<{name}>")
    if start < 0:
        return None
    end = block.find(f"</{name}>", start)
    if end < 0:
        raise InputFormatError(str(path), line_at(start), name, f"<{name}> is not closed by </{name}> within its <REUTERS> element")
    return block[start + len(name) + 2 : end]


def _reuters_body(body: str) -> str:
    body = re.sub(r"\s*reuter\s*(&#3;)?\s*$", "", body.strip(), flags=re.I)
    paragraphs = re.split(r"\n\s{3,}", body)  # paragraphs start with an indented line
    return clean_text("\n".join(" ".join(p.split()) for p in paragraphs))


def _reuters_file(path: Path, report: ReadingReport) -> Iterator[Article]:
    text = _decode(path.read_bytes(), path)
    starts = list(_REUTERS_OPEN.finditer(text))
    for index, start in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)

        def line_at(offset: int, base: int = start.end()) -> int:  # only computed for an error message
            return text.count("\n", 0, base + offset) + 1

        close = text.find("</REUTERS>", start.end(), end)
        if close < 0:
            until = "the next <REUTERS>" if index + 1 < len(starts) else "the end of the file (is the file cut short?)"
            raise InputFormatError(str(path), line_at(-len(start.group(0))), "REUTERS", f"<REUTERS> is not closed by </REUTERS> before {until}")
        block = text[start.end() : close]
        new_id = re.search(r'NEWID="(\d+)"', start.group(1))
        if not new_id:
            raise InputFormatError(str(path), line_at(-len(start.group(0))), "NEWID", "a <REUTERS> element without NEWID")
        body = _element(block, "BODY", path, line_at)
        if body is None:
            report.skip(path, "no <BODY> (brief or unprocessed story)")
            continue
        if not body.strip():
            report.skip(path, "empty <BODY>")
            continue
        raw_date = (_element(block, "DATE", path, line_at) or "").strip()
        try:
            date = dt.datetime.strptime(raw_date.split()[0], "%d-%b-%Y").date()
        except (ValueError, IndexError):
            raise InputFormatError(str(path), line_at(-len(start.group(0))), "DATE", f"not a DD-MON-YYYY date: {raw_date!r}") from None
        title = _element(block, "TITLE", path, line_at) or ""
        report.read(path)
        yield Article(f"reuters-{int(new_id.group(1)):05d}", date, clean_text(title), _reuters_body(body))
    tail = text.rfind("</REUTERS>") + 1  # 0 when there is none
    if (unfinished := text.find("<REUTERS", tail)) >= 0 and not _REUTERS_OPEN.match(text, unfinished):
        raise InputFormatError(str(path), text.count("\n", 0, unfinished) + 1, "REUTERS", "a <REUTERS> tag cut off at the end of the file")


def read_reuters(paths: Iterable[str | Path], report: ReadingReport | None = None) -> Iterator[Article]:
    """Articles with a non-empty <BODY> from Reuters-21578 ``reut2-*.sgm`` files (``<DATE>``, ``<TITLE>``, ``<BODY>``).

    Skipped (counted): elements without <BODY> (briefs and unprocessed stories), empty bodies. Errors: an element
    not closed before the next one or the end of the file (a file cut short), an unclosed <BODY>/<TITLE>/<DATE>,
    no NEWID, a date that is not DD-MON-YYYY. A byte that is not UTF-8 (reut2-017.sgm has one) makes the file
    read as Latin-1, with a warning.
    """
    return read_files(paths, _reuters_file, report, "Reuters-21578")

"""News corpora to one table of dated articles: ``article_id, date, window, title, text``.

Readers: Reuters-21578 SGML (default English), WMT document-level News Crawl (paper-scale English), CCTV
Xinwen Lianbo JSON (default Chinese), CLUE news2016zh JSON lines (paper-scale Chinese; its time has no year,
so 2016 is taken, as the authors did). Windows are disjoint spans of ``window_days`` days counted per calendar
year from 1 January (the last window of a year ends on 31 December); the paper uses 3 days.
"""

from __future__ import annotations

import ast
import base64
import datetime as dt
import gzip
import hashlib
import html
import json
import logging
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import InputFormatError

log = logging.getLogger(__name__)

COLUMNS = ("article_id", "date", "window", "title", "text")


@dataclass(frozen=True)
class Article:
    article_id: str
    date: dt.date
    title: str
    text: str


def window_of(date: dt.date, days: int) -> str:
    """Name of the disjoint window holding ``date``: ``YYYY_MM-DD_MM-DD`` (start and end, within the year)."""
    if days < 1:
        raise ValueError("window length must be at least one day")
    index = (date.timetuple().tm_yday - 1) // days
    start = dt.date(date.year, 1, 1) + dt.timedelta(days=index * days)
    end = min(start + dt.timedelta(days=days - 1), dt.date(date.year, 12, 31))
    return f"{date.year}_{start:%m-%d}_{end:%m-%d}"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SPACES = re.compile(r"[ \t\u3000\xa0]+")


def clean_text(text: str) -> str:
    """Unescape entities, drop control characters, collapse runs of spaces; keep paragraph breaks."""
    text = _CONTROL.sub(" ", html.unescape(text))
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    return "\n".join(line for line in lines if line)


# --- Reuters-21578 -----------------------------------------------------------------------------------

_REUTERS = re.compile(r"<REUTERS\b([^>]*)>(.*?)</REUTERS>", re.S)


def _tag(block: str, name: str) -> str | None:
    match = re.search(rf"<{name}>(.*?)</{name}>", block, re.S)
    return match.group(1) if match else None


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        log.warning("%s: byte 0x%02x at offset %d is not UTF-8; the file is read as Latin-1", path, data[error.start], error.start)
        return data.decode("latin-1")


def _reuters_body(body: str) -> str:
    body = re.sub(r"\s*reuter\s*(&#3;)?\s*$", "", body.strip(), flags=re.I)
    paragraphs = re.split(r"\n\s{3,}", body)  # paragraphs start with an indented line
    return clean_text("\n".join(" ".join(p.split()) for p in paragraphs))


def read_reuters(paths: Iterable[str | Path]) -> Iterator[Article]:
    """Articles with a non-empty <BODY> from Reuters-21578 ``reut2-*.sgm`` files (``<DATE>``, ``<TITLE>``, ``<BODY>``)."""
    for path in sorted(Path(p) for p in paths):
        text = _decode(path.read_bytes(), path)
        for match in _REUTERS.finditer(text):
            attributes, block = match.groups()

            def line() -> int:  # only computed for an error message
                return text.count("\n", 0, match.start()) + 1

            new_id = re.search(r'NEWID="(\d+)"', attributes)
            if not new_id:
                raise InputFormatError(str(path), line(), "NEWID", "a <REUTERS> element without NEWID")
            body = _tag(block, "BODY")
            if not body or not body.strip():
                continue
            raw_date = (_tag(block, "DATE") or "").strip()
            try:
                date = dt.datetime.strptime(raw_date.split()[0], "%d-%b-%Y").date()
            except (ValueError, IndexError):
                raise InputFormatError(str(path), line(), "DATE", f"not a DD-MON-YYYY date: {raw_date!r}") from None
            yield Article(f"reuters-{int(new_id.group(1)):05d}", date, clean_text(_tag(block, "TITLE") or ""), _reuters_body(body))


# --- WMT News Crawl (document level) ---------------------------------------------------------------


def read_newscrawl(paths: Iterable[str | Path]) -> Iterator[Article]:
    """Documents of ``news-docs.<year>.en.filtered.gz``: one per line, ``YYYYMMDD <TAB> base64 sentences <TAB> base64 raw text``."""
    for path in sorted(Path(p) for p in paths):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
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
                    continue
                yield Article(f"newscrawl-{path.name.split('.')[1]}-{number:08d}", date, clean_text(lines[0]), clean_text("\n".join(lines)))


# --- CCTV Xinwen Lianbo ------------------------------------------------------------------------------

_HTML_TAG = re.compile(r"<[^>]+>")


def html_to_text(content: str) -> str:
    """Paragraphs of an HTML fragment as lines of plain text."""
    content = re.sub(r"(?i)</p>|<br\s*/?>", "\n", content)
    return clean_text(_HTML_TAG.sub("", content))


def read_cctv(paths: Iterable[str | Path]) -> Iterator[Article]:
    """Stories of the CCTV Xinwen Lianbo daily files ``YYYY/YYYYMMDD.json`` (``videoList[].video_detail``).

    ``video_detail`` is a dict or a Python-literal string of one; its ``content`` is HTML. Entries without
    content are skipped.
    """
    for path in sorted(Path(p) for p in paths):
        try:
            day = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise InputFormatError(str(path), error.lineno, None, f"not JSON: {error.msg}") from None
        file_date = dt.datetime.strptime(path.stem, "%Y%m%d").date()
        for index, video in enumerate(day.get("videoList") or []):
            detail = video.get("video_detail")
            if isinstance(detail, str):
                try:
                    detail = ast.literal_eval(detail)
                except (ValueError, SyntaxError):
                    raise InputFormatError(str(path), None, f"videoList[{index}].video_detail", "not a Python literal") from None
            if not isinstance(detail, dict) or not detail.get("content"):
                continue
            text = html_to_text(detail["content"])
            text = re.sub(r"^央视网消息[（(]新闻联播[）)][：:]", "", text)
            if not text:
                continue
            title = re.sub(r"^\[视频\]", "", video.get("video_title") or detail.get("title") or "").strip()
            yield Article(f"cctv-{video.get('video_id') or detail.get('id')}", file_date, title, text)


# --- CLUE news2016zh ---------------------------------------------------------------------------------


def read_clue(paths: Iterable[str | Path], year: int = 2016) -> Iterator[Article]:
    """Articles of CLUE news2016zh JSON lines (``news_id``, ``time``, ``title``, ``content``); the time has no year."""
    for path in sorted(Path(p) for p in paths):
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise InputFormatError(str(path), number, None, f"not JSON: {error.msg}") from None
                time = str(record.get("time", ""))
                match = re.match(r"(?:\d{4}-)?(\d{2})-(\d{2})", time)
                if not match:
                    raise InputFormatError(str(path), number, "time", f"not MM-DD[ HH:MM]: {time!r}")
                try:
                    date = dt.date(year, int(match.group(1)), int(match.group(2)))
                except ValueError:
                    raise InputFormatError(str(path), number, "time", f"not a date in {year}: {time!r}") from None
                text = clean_text(str(record.get("content", "")))
                if text:
                    yield Article(f"clue-{record.get('news_id', number)}", date, clean_text(str(record.get("title", ""))), text)


# --- the table ----------------------------------------------------------------------------------------


def build_articles(articles: Iterable[Article], window_days: int, max_articles: int | None = None,
                   years: Sequence[int] | None = None):
    """Deduplicated (same text = same article; the earliest kept), dated, windowed and sorted DataFrame of the
    articles dated within ``years`` (first and last year, inclusive; None = all)."""
    import pandas as pd

    seen: dict[str, Article] = {}
    duplicates = 0
    if years is not None:
        articles = (a for a in articles if years[0] <= a.date.year <= years[1])
    for article in sorted(articles, key=lambda a: (a.date, a.article_id)):
        key = hashlib.sha1(" ".join(article.text.split()).encode("utf-8")).hexdigest()
        if key in seen:
            duplicates += 1
            continue
        seen[key] = article
    kept = list(seen.values())[: max_articles or None]
    log.info("%d articles kept, %d duplicates dropped", len(kept), duplicates)
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


READERS = {"reuters21578": read_reuters, "newscrawl": read_newscrawl, "cctv": read_cctv, "clue": read_clue}
FILE_PATTERNS = {"reuters21578": "reut2-*.sgm", "newscrawl": "news-docs.*.en.filtered.gz", "cctv": "cctv_xwlb/*/*.json", "clue": "news2016zh_*.json"}


# The year of a raw file, for sources whose file names say it (the reader still checks every article's date).
_FILE_YEARS = {"cctv": re.compile(r"^(\d{4})\d{4}\.json$"), "newscrawl": re.compile(r"^news-docs\.(\d{4})\.")}


def corpus_files(source: str, directory: str | Path, years: Sequence[int] | None = None) -> list[Path]:
    """The raw files of a corpus source in its resources directory; with ``years`` (first, last), only the files
    whose name dates them within those years (files without a dated name are all kept)."""
    files = sorted(Path(directory).glob(FILE_PATTERNS[source]))
    if years is not None and source in _FILE_YEARS:
        dated = [(path, _FILE_YEARS[source].match(path.name)) for path in files]
        files = [path for path, match in dated if match is None or years[0] <= int(match.group(1)) <= years[1]]
    if not files:
        raise InputFormatError(str(directory), None, None, f"no {FILE_PATTERNS[source]} files for corpus source {source!r}"
                               + (f" in the years {years[0]}-{years[1]}" if years is not None else ""))
    return files


def read_corpus(source: str, files: Iterable[Path]) -> Iterator[Article]:
    """Articles of a corpus source (reuters21578, newscrawl, cctv, clue)."""
    return READERS[source](files)

"""News corpora to one table of dated articles: ``article_id, date, window, title, text``.

Readers: Reuters-21578 SGML (default English), WMT document-level News Crawl (paper-scale English), CCTV
Xinwen Lianbo JSON (default Chinese), CLUE news2016zh JSON lines (paper-scale Chinese; its time has no year,
so 2016 is taken, as the authors did). Windows are disjoint spans of ``window_days`` days counted per calendar
year from 1 January (the last window of a year ends on 31 December); the paper uses 3 days.

Every reader counts, per file, the records it read and the ones it skipped with the reason (a
:class:`ReadingReport`, logged per file and written beside the articles for the dataset card); a record that
cannot be parsed in a way that would change the corpus (an unclosed element, a file cut short, bytes that are
not UTF-8, an entry of an unknown shape) raises :class:`InputFormatError` naming the file, line and field.
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
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import InputFormatError
from .progress import ProgressLog

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


class ReadingReport:
    """Records read and skipped (with the reason) per raw file, and articles dropped when the table is built.

    File names are relative to ``root`` (or bare names), so the report of the same input is the same everywhere.
    """

    def __init__(self, source: str = "", root: str | Path | None = None) -> None:
        self.source, self.root = source, Path(root) if root is not None else None
        self.read_counts: Counter[str] = Counter()
        self.skipped: dict[str, Counter[str]] = {}
        self.files: list[str] = []
        self.dropped: Counter[str] = Counter()
        self.kept = 0

    def name(self, path: Path) -> str:
        if self.root is not None:
            try:
                return path.relative_to(self.root).as_posix()
            except ValueError:
                pass
        return path.name

    def read(self, path: Path) -> None:
        self.read_counts[self.name(path)] += 1

    def skip(self, path: Path, reason: str) -> None:
        self.skipped.setdefault(self.name(path), Counter())[reason] += 1

    def file_done(self, path: Path) -> None:
        name = self.name(path)
        self.files.append(name)
        skipped = self.skipped.get(name, Counter())
        why = f" ({', '.join(f'{reason}: {n}' for reason, n in sorted(skipped.items()))})" if skipped else ""
        log.info("%s: %d articles read, %d records skipped%s", name, self.read_counts[name], sum(skipped.values()), why)

    def summary(self) -> dict:
        """The report as JSON-ready data: totals, skipped records by reason, per-file counts of files with skips."""
        totals: Counter[str] = Counter()
        for counts in self.skipped.values():
            totals.update(counts)
        return {
            "source": self.source,
            "files": len(self.files),
            "records_read": sum(self.read_counts.values()),
            "records_skipped": dict(sorted(totals.items())),
            "files_with_skipped_records": {
                name: {"read": self.read_counts[name], "skipped": dict(sorted(self.skipped[name].items()))} for name in sorted(self.skipped)
            },
            "articles_dropped": dict(sorted(self.dropped.items())),
            "articles_kept": self.kept,
        }


def _read_files(paths: Iterable[str | Path], read_file: Callable[[Path, ReadingReport], Iterator[Article]],
                report: ReadingReport | None, what: str) -> Iterator[Article]:
    """Articles of every file in sorted order, each file's counts logged when it is done, progress every 30 s."""
    report = report if report is not None else ReadingReport()
    files = sorted(Path(p) for p in paths)
    progress = ProgressLog(f"reading {what}", len(files), "files", logger=log)
    for path in files:
        yield from read_file(path, report)
        report.file_done(path)
        progress.advance()
    progress.finish()


def _not_utf8(path: Path, data: bytes, error: UnicodeDecodeError, line: int | None = None) -> InputFormatError:
    """The error for bytes that are not UTF-8: file, line (counted when not given) and byte offset."""
    if line is None:
        line = data.count(b"\n", 0, error.start) + 1
        offset = f"offset {error.start} of the file"
    else:
        offset = f"column {error.start + 1}"
    return InputFormatError(str(path), line, None, f"byte 0x{data[error.start]:02x} at {offset} is not UTF-8")


# --- Reuters-21578 -----------------------------------------------------------------------------------

_REUTERS_OPEN = re.compile(r"<REUTERS\b([^>]*)>")


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        log.warning("%s: byte 0x%02x at offset %d (line %d) is not UTF-8; the file is read as Latin-1", path, data[error.start],
                    error.start, line)
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
    return _read_files(paths, _reuters_file, report, "Reuters-21578")


# --- WMT News Crawl (document level) ---------------------------------------------------------------


def _newscrawl_file(path: Path, report: ReadingReport) -> Iterator[Article]:
    number = 0
    try:
        with gzip.open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise _not_utf8(path, raw, error, number) from None
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
    return _read_files(paths, _newscrawl_file, report, "News Crawl")


# --- CCTV Xinwen Lianbo ------------------------------------------------------------------------------

_HTML_TAG = re.compile(r"<[^>]+>")


def html_to_text(content: str) -> str:
    """Paragraphs of an HTML fragment as lines of plain text."""
    content = re.sub(r"(?i)</p>|<br\s*/?>", "\n", content)
    return clean_text(_HTML_TAG.sub("", content))


def _cctv_file(path: Path, report: ReadingReport) -> Iterator[Article]:
    data = path.read_bytes()
    try:
        day = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise _not_utf8(path, data, error) from None
    except json.JSONDecodeError as error:
        raise InputFormatError(str(path), error.lineno, None, f"not JSON: {error.msg}") from None
    if not isinstance(day, dict):
        raise InputFormatError(str(path), None, None, f"a JSON {type(day).__name__}, not an object with a videoList")
    try:
        file_date = dt.datetime.strptime(path.stem, "%Y%m%d").date()
    except ValueError:
        raise InputFormatError(str(path), None, "file name", "not YYYYMMDD.json (the date of the stories)") from None
    videos = day.get("videoList")
    if videos is None:
        report.skip(path, "file without videoList")
        return
    if not isinstance(videos, list):
        raise InputFormatError(str(path), None, "videoList", f"a {type(videos).__name__}, not a list")
    for index, video in enumerate(videos):
        where = f"videoList[{index}]"
        if isinstance(video, str):
            if video.lstrip().startswith(("{", "[")):
                raise InputFormatError(str(path), None, where, "a string holding an encoded object: cannot tell whether it is a story")
            report.skip(path, "videoList entry that is a string, not an object")
            continue
        if not isinstance(video, dict):
            raise InputFormatError(str(path), None, where, f"a {type(video).__name__}, not an object")
        detail = video.get("video_detail")
        if isinstance(detail, str):
            try:
                detail = ast.literal_eval(detail)
            except (ValueError, SyntaxError):
                raise InputFormatError(str(path), None, f"{where}.video_detail", "not a Python literal") from None
        if detail is None:
            report.skip(path, "no video_detail")
            continue
        if not isinstance(detail, dict):
            raise InputFormatError(str(path), None, f"{where}.video_detail", f"a {type(detail).__name__}, not an object")
        if not detail.get("content"):
            report.skip(path, "video_detail without content")
            continue
        text = html_to_text(str(detail["content"]))
        text = re.sub(r"^央视网消息[（(]新闻联播[）)][：:]", "", text)
        if not text:
            report.skip(path, "content without text")
            continue
        title = re.sub(r"^\[视频\]", "", video.get("video_title") or detail.get("title") or "").strip()
        report.read(path)
        yield Article(f"cctv-{video.get('video_id') or detail.get('id')}", file_date, title, text)


def read_cctv(paths: Iterable[str | Path], report: ReadingReport | None = None) -> Iterator[Article]:
    """Stories of the CCTV Xinwen Lianbo daily files ``YYYY/YYYYMMDD.json`` (``videoList[].video_detail``).

    ``video_detail`` is a dict or a Python-literal string of one; its ``content`` is HTML. Skipped (counted): files
    without videoList, entries that are plain strings (no story can be in one), entries without video_detail or
    content, content without text. Errors: bytes that are not UTF-8, a file that is not a JSON object, a file name
    that is not a date, a videoList that is not a list, an entry or video_detail of another shape (a string holding
    an encoded object included).
    """
    return _read_files(paths, _cctv_file, report, "CCTV Xinwen Lianbo")


# --- CLUE news2016zh ---------------------------------------------------------------------------------


def _clue_file(path: Path, report: ReadingReport, year: int = 2016) -> Iterator[Article]:
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise _not_utf8(path, raw, error, number) from None
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
    return _read_files(paths, _clue_file, report, "CLUE news2016zh")


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


def read_corpus(source: str, files: Iterable[Path], report: ReadingReport | None = None) -> Iterator[Article]:
    """Articles of a corpus source (reuters21578, newscrawl, cctv, clue); ``report`` counts what is read and skipped."""
    return READERS[source](files, report)

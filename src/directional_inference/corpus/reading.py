"""What every corpus reader shares: the article record, text cleaning, the per-file reading report (records read,
skipped with the reason), and the error for bytes that are not UTF-8.
"""

from __future__ import annotations

import datetime as dt
import html
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputFormatError
from ..progress import ProgressLog

log = logging.getLogger(__name__)


COLUMNS = ("article_id", "date", "window", "title", "text")


@dataclass(frozen=True)
class Article:
    article_id: str
    date: dt.date
    title: str
    text: str


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


def read_files(
    paths: Iterable[str | Path], read_file: Callable[[Path, ReadingReport], Iterator[Article]], report: ReadingReport | None, what: str
) -> Iterator[Article]:
    """Articles of every file in sorted order, each file's counts logged when it is done, progress every 30 s."""
    report = report if report is not None else ReadingReport()
    files = sorted(Path(p) for p in paths)
    progress = ProgressLog(f"reading {what}", len(files), "files", logger=log)
    for path in files:
        yield from read_file(path, report)
        report.file_done(path)
        progress.advance()
    progress.finish()


def not_utf8_error(path: Path, data: bytes, error: UnicodeDecodeError, line: int | None = None) -> InputFormatError:
    """The error for bytes that are not UTF-8: file, line (counted when not given) and byte offset."""
    if line is None:
        line = data.count(b"\n", 0, error.start) + 1
        offset = f"offset {error.start} of the file"
    else:
        offset = f"column {error.start + 1}"
    return InputFormatError(str(path), line, None, f"byte 0x{data[error.start]:02x} at {offset} is not UTF-8")

"""The corpus sources by name (``corpus.<lang>.source``): each one's reader and raw files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from ..errors import InputFormatError
from .cctv import read_cctv
from .clue import read_clue
from .newscrawl import read_newscrawl
from .reading import Article, ReadingReport
from .reuters import read_reuters


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

"""The corpus sources by name (``corpus.<lang>.source``): each one's reader and raw files."""

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

# Articles each source holds per year, after deduplication: what sizes the extraction (relations.shards: null) before
# the corpus is read. Reuters-21578 and CCTV: counted in this workflow's corpus tables (2026-11); News Crawl 2007-2017:
# the paper's 7.8M documents spread evenly over the eleven years (no per-year count is published with the files);
# CLUE news2016zh: the paper's 2.4M. An estimate only changes how many shards there are, never a result.
SOURCE_ARTICLES = {
    "reuters21578": {1987: 18_701},
    "cctv": {
        2012: 2_691,
        2013: 5_604,
        2014: 4_991,
        2015: 4_787,
        2016: 4_832,
        2017: 5_112,
        2018: 5_420,
        2019: 5_807,
        2020: 6_246,
        2021: 5_760,
        2022: 5_510,
        2023: 5_181,
        2024: 5_291,
        2025: 5_098,
    },
    "newscrawl": {year: 7_800_000 // 11 for year in range(2007, 2018)},
    "clue": {2016: 2_400_000},
}


def expected_articles(source: str, years: Sequence[int] | None = None, max_articles: int | None = None) -> int:
    """The articles a corpus source is expected to hold in ``years`` (first, last; None = all), at most ``max_articles``."""
    counts = SOURCE_ARTICLES[source]
    total = sum(n for year, n in counts.items() if years is None or years[0] <= year <= years[1])
    return min(total, max_articles) if max_articles else total


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
        raise InputFormatError(
            str(directory),
            None,
            None,
            f"no {FILE_PATTERNS[source]} files for corpus source {source!r}" + (f" in the years {years[0]}-{years[1]}" if years is not None else ""),
        )
    return files


def read_corpus(source: str, files: Iterable[Path], report: ReadingReport | None = None) -> Iterator[Article]:
    """Articles of a corpus source (reuters21578, newscrawl, cctv, clue); ``report`` counts what is read and skipped."""
    return READERS[source](files, report)

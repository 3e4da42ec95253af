"""Relations from elsewhere: relation files produced outside the workflow (another parser, the CCG-based extractor the
paper used, the scale benchmark's generator) become the language's relation shards, checked row by row.

A relation file is Parquet, or TSV with a header line (UTF-8, tab-separated, no quoting), one row per relation:

| column | type | |
|---|---|---|
| ``article_id`` | string | the article (document) the sentence is in |
| ``date`` | ``YYYY-MM-DD`` | the article's date; or give ``window`` instead (or both) |
| ``window`` | ``YYYY_MM-DD_MM-DD`` | the article's context window (``corpus.articles.window_of``); computed from ``date`` when absent |
| ``sentence_id`` | integer >= 0 | the sentence's index in its article |
| ``sentence`` | string, optional | the sentence's text (evidence for the LM ``sent`` baseline; repeated sentences are dropped by it) |
| ``subj``, ``pred``, ``obj`` | non-empty strings | the relation; English predicates as this workflow writes them ("be acquired by") |
| ``subj_type``, ``obj_type`` | non-empty strings | the arguments' types |

Without ``date`` an article's date is its window's first day (the corpus order within a window is then by article);
with both, each row's window must be its date's.
A missing column, a value of the wrong type or an unparseable date stops the import with the file, the row (the line
for TSV) and the field; so does text that is not UTF-8, that holds a control character (NUL, a line break, any of
U+0000-U+001F and U+007F-U+009F), or that is longer than ``relations.imported_max_chars``; and so does a file that is
empty (0 bytes) or holds no rows (unless ``relations.imported_empty_files``). Nothing is written then.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import re
from pathlib import Path

from ..engine import sql_string
from ..errors import InputFormatError
from .shards import COLUMNS

log = logging.getLogger(__name__)

SUFFIXES = (".parquet", ".tsv")
REQUIRED = ("article_id", "sentence_id", "subj", "pred", "obj", "subj_type", "obj_type")
BATCH_ROWS = 100_000
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_WINDOW = re.compile(r"^(\d{4})_(\d{2})-(\d{2})_(\d{2})-(\d{2})$")
CONTROL = r"[\x{00}-\x{1f}\x{7f}-\x{9f}]"  # RE2 (Arrow): the C0 and C1 control characters and DEL
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
MAX_CHARS = 10_000


def relation_files(directory: str | os.PathLike) -> list[Path]:
    """The relation files (``*.parquet``, ``*.tsv``) of a directory, sorted; an error when there are none."""
    root = Path(directory)
    files = sorted(p for p in root.glob("*") if p.suffix in SUFFIXES and p.is_file()) if root.is_dir() else []
    if not files:
        raise InputFormatError(str(root), None, None, "no relation files (*.parquet, *.tsv) here (relations.imported)")
    return files


def _batches(path: Path):
    """(first row number, Arrow batch of strings or typed columns) of a relation file; rows count from 1 (TSV: lines, the
    header is line 1)."""
    import pyarrow as pa
    import pyarrow.csv as csv
    import pyarrow.parquet as pq

    if path.suffix == ".parquet":
        first = 1
        try:
            parquet = pq.ParquetFile(path)
        except (pa.ArrowInvalid, OSError) as error:
            raise InputFormatError(str(path), None, None, f"not a readable Parquet file: {error}") from None
        for batch in parquet.iter_batches(batch_size=BATCH_ROWS):
            yield first, batch
            first += batch.num_rows
        return
    with open(path, "rb") as handle:
        header = handle.readline().decode("utf-8", errors="replace").rstrip("\r\n").split("\t")
    options = csv.ReadOptions(block_size=16 << 20, use_threads=False)
    # an empty line is an error, not skipped, so that rows and lines stay one to one and every error names its line
    parse = csv.ParseOptions(delimiter="\t", quote_char=False, newlines_in_values=False, ignore_empty_lines=False)
    # UTF-8 is checked per field afterwards (normalised_batches), so that an error names the line and field
    convert = csv.ConvertOptions(column_types={name: pa.string() for name in header}, strings_can_be_null=False, check_utf8=False)
    first = 2
    try:
        for batch in csv.open_csv(path, read_options=options, parse_options=parse, convert_options=convert):
            yield first, batch
            first += batch.num_rows
    except pa.ArrowInvalid as error:
        line = re.search(r"[Rr]ow #?(\d+)", str(error))
        raise InputFormatError(str(path), int(line.group(1)) if line else None, None, f"not a TSV row: {error}") from None


def normalised_batches(path: str | os.PathLike, window_days: int, max_chars: int = MAX_CHARS):
    """Arrow tables of ``shards.COLUMNS`` from one relation file, checked (see module docstring)."""
    import pyarrow as pa

    path = Path(path)
    if path.stat().st_size == 0:
        raise InputFormatError(str(path), None, None, "an empty file (0 bytes): a relation file has a header line (TSV) or a schema (Parquet)")
    windows: dict[str, str] = {}  # date -> its window, for every date seen so far
    for first, batch in _batches(path):
        names = set(batch.schema.names)
        missing = [c for c in REQUIRED if c not in names] + ([] if names & {"date", "window"} else ["date (or window)"])
        if missing:
            raise InputFormatError(str(path), None, missing[0], "missing column" + (f"s {', '.join(missing)}" if len(missing) > 1 else ""))
        check = _BatchCheck(path, first, batch, max_chars)
        columns = {name: check.text(name) for name in ("article_id", "subj", "pred", "obj", "subj_type", "obj_type")}
        columns["sentence_id"] = check.sentence_ids()
        columns["sentence"] = check.text("sentence", required=False) if "sentence" in names else pa.nulls(batch.num_rows, pa.string())
        columns |= check.dates_and_windows(windows, window_days)
        yield pa.table({name: columns[name] for name in COLUMNS})


class _BatchCheck:
    """The checks of one batch of a relation file, each naming the file, the row (or line) and the field it fails on."""

    def __init__(self, path: Path, first: int, batch, max_chars: int):
        self.path, self.first, self.batch, self.max_chars = path, first, batch, max_chars
        self.unit = "row" if path.suffix == ".parquet" else "line"
        self.names = set(batch.schema.names)

    def error(self, index: int, field: str, problem: str) -> InputFormatError:
        """The error of the batch's row ``index``, named by its row (or line) in the file."""
        return InputFormatError(str(self.path), self.first + index, field, problem, unit=self.unit)

    def bad(self, mask, field: str, problem: str) -> None:
        """Fail on the first row where ``mask`` holds."""
        import pyarrow.compute as pc

        if pc.any(mask).as_py():
            raise self.error(pc.index(mask, True).as_py(), field, problem)

    def text(self, name: str, *, required: bool = True):
        """Column ``name`` as checked text (``required``: no row empty)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        column = self.batch.column(name)
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):  # the file's column type: every row
            raise InputFormatError(str(self.path), None, name, f"expected text, found {column.type} (the column's type in this file)")
        self.check_text(column, name)
        if required:
            self.bad(pc.or_kleene(pc.is_null(column), pc.equal(pc.utf8_trim_whitespace(column), "")).fill_null(True), name, "empty")
        return column.cast(pa.string())

    def check_text(self, column, name: str) -> None:
        """UTF-8, no control character, at most max_chars characters."""
        import pyarrow as pa
        import pyarrow.compute as pc

        try:
            column.validate(full=True)
        except pa.ArrowInvalid:
            binary = column.cast(pa.large_binary() if pa.types.is_large_string(column.type) else pa.binary())
            for index, value in enumerate(binary.to_pylist()):
                try:
                    (value or b"").decode("utf-8")
                except UnicodeDecodeError as error:
                    byte = value[error.start : error.start + 1]
                    raise self.error(index, name, f"not UTF-8 text (byte {error.start + 1} of the field: {byte!r})") from None
        control = pc.match_substring_regex(column, CONTROL).fill_null(False)
        if pc.any(control).as_py():
            index = pc.index(control, True).as_py()
            character = _CONTROL.search(column[index].as_py()).group()
            raise self.error(index, name, f"a control character (U+{ord(character):04X}) in the text")
        length = pc.utf8_length(column)
        self.bad(
            pc.greater(length, self.max_chars).fill_null(False), name, f"longer than {self.max_chars:,} characters (relations.imported_max_chars)"
        )

    def sentence_ids(self):
        """The sentence_id column: whole numbers from 0 to 2^31 - 1 (text of digits, or integers), as int32."""
        import pyarrow as pa
        import pyarrow.compute as pc

        sentence_id = self.batch.column("sentence_id")
        if pa.types.is_string(sentence_id.type) or pa.types.is_large_string(sentence_id.type):
            self.bad(pc.invert(pc.match_substring_regex(sentence_id, r"^\d+$")).fill_null(True), "sentence_id", "not a whole number >= 0")
            sentence_id = sentence_id.cast(pa.int64())
        elif not pa.types.is_integer(sentence_id.type):
            raise InputFormatError(
                str(self.path), None, "sentence_id", f"expected a whole number, found {sentence_id.type} (the column's type in this file)"
            )
        self.bad(pc.or_kleene(pc.is_null(sentence_id), pc.less(sentence_id, 0)).fill_null(True), "sentence_id", "not a whole number >= 0")
        self.bad(pc.greater(sentence_id, 2**31 - 1), "sentence_id", "larger than 2^31 - 1")
        return sentence_id.cast(pa.int32())

    def dates_and_windows(self, windows: dict[str, str], window_days: int) -> dict:
        """The date and window columns: a date's window where only dates are given (``windows`` keeps those seen), a
        window's first day where only windows are, and where both are, each row's window its date's."""
        import pyarrow as pa
        import pyarrow.compute as pc

        from ..corpus.articles import window_of

        columns = {}
        if "date" in self.names:
            dates = self.text("date")
            unique = pc.unique(dates).to_pylist()
            for value in unique:
                if value not in windows:
                    day = _parse_date(value)
                    if day is None:
                        self.bad(pc.equal(dates, value), "date", f"not a date YYYY-MM-DD: {value!r}")
                    windows[value] = window_of(day, window_days)
            columns["date"] = dates
            date_windows = pc.take(pa.array([windows[v] for v in unique], pa.string()), pc.index_in(dates, pa.array(unique)))
            if "window" not in self.names:
                columns["window"] = date_windows
        if "window" in self.names:
            window = self.text("window")
            for value in pc.unique(window).to_pylist():
                if _window_start(value) is None:
                    self.bad(pc.equal(window, value), "window", f"not a window YYYY_MM-DD_MM-DD: {value!r}")
            columns["window"] = window
            if "date" in self.names:  # both given: each row's window must be its date's
                self.bad(
                    pc.not_equal(window, date_windows), "window", f"not the {window_days}-day window of the row's date (corpus.articles.window_of)"
                )
            else:
                unique = pc.unique(window).to_pylist()
                starts = pa.array([_window_start(v) for v in unique], pa.string())
                columns["date"] = pc.take(starts, pc.index_in(window, pa.array(unique)))
        return columns


def _parse_date(value: str) -> dt.date | None:
    if not _DATE.match(value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def _window_start(window: str) -> str | None:
    """The first day of a window ``YYYY_MM-DD_MM-DD`` as ``YYYY-MM-DD`` (None if it is not one)."""
    match = _WINDOW.match(window)
    if not match:
        return None
    year, month, day = match.group(1), match.group(2), match.group(3)
    return f"{year}-{month}-{day}" if _parse_date(f"{year}-{month}-{day}") else None


def import_relations(
    path: str | os.PathLike, output: str | os.PathLike, window_days: int, *, max_chars: int = MAX_CHARS, empty_files: bool = False
) -> int:
    """One relation file as a relation shard (``shards.COLUMNS``), checked; atomically. A file of no rows is an error
    unless ``empty_files``. Returns the rows."""
    import pyarrow.parquet as pq

    from ..atomic import atomic_file
    from .extraction import relation_schema

    schema, rows = relation_schema(), 0
    with atomic_file(output) as tmp, pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
        for table in normalised_batches(path, window_days, max_chars):
            writer.write_table(table.cast(schema))
            rows += table.num_rows
        if not rows and not empty_files:
            raise InputFormatError(
                str(path),
                None,
                None,
                "no relations in the file (a header or schema and no rows); set relations.imported_empty_files: true to import it as an empty shard",
            )
    log.info("%s: %d relations", path, rows)
    return rows


def write_imported_corpus(engine, shards, relations, files: list[str], articles_output: str | os.PathLike) -> dict:
    """The corpus table of imported relations: one row per article (``article_id, date, window``; no title or text:
    the TF-IDF baseline cannot run on it) from the merged ``relations``, and the reading report the dataset card shows
    (files, relations read, articles). An article with two dates or windows is an error naming it."""
    from ..errors import WorkflowError

    engine.table("relations", relations)
    engine.table("shards", shards)
    # one group-by of fixed aggregates (an article's least and greatest date and window), not distinct lists per article
    engine.materialise(
        "article_dates",
        """SELECT article_id, min(date) AS date, max(date) AS last_date, min("window") AS "window",
                                                  max("window") AS last_window FROM relations GROUP BY article_id""",
    )
    clash = engine.df("""SELECT article_id FROM article_dates WHERE date <> last_date OR "window" <> last_window
                         ORDER BY article_id LIMIT 1""")
    if len(clash):
        article = clash.iloc[0]["article_id"]
        row = engine.df(f"""SELECT list(DISTINCT date ORDER BY date) AS dates, list(DISTINCT "window" ORDER BY "window") AS windows
                            FROM relations WHERE article_id = {sql_string(article)}""").iloc[0]
        raise WorkflowError(
            f"imported relations: article {article!r} has more than one date or window ({list(row['dates'])}, {list(row['windows'])})"
        )
    articles = engine.write(
        """SELECT article_id, date, "window", CAST(NULL AS VARCHAR) AS title, CAST(NULL AS VARCHAR) AS text
                               FROM article_dates ORDER BY date, article_id""",
        articles_output,
    )
    read = engine.count("SELECT * FROM shards")
    return {
        "source": "imported relations",
        "files": len(files),
        "records_read": read,
        "records_skipped": {},
        "files_with_skipped_records": {},
        "articles_dropped": {},
        "articles_kept": articles,
    }

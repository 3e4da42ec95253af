"""Tab-separated files that users hand in (LevyHolt predictions of another system, per-entry BoOQA scores): read row by
row, with errors naming the file, the row (1-based, the header is row 1) and the field."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator, Sequence

from .errors import InputFormatError


def tsv_rows(path: str, required: Sequence[str], optional: Sequence[str] = ()) -> Iterator[tuple[int, dict[str, str]]]:
    """(row number, {column: field}) of every non-empty row of a tab-separated file whose header names ``required``
    (and perhaps ``optional``); a file that cannot be read, is empty, is not UTF-8, lacks a column or has a row of
    another width is an error."""
    try:
        handle = open(path, encoding="utf-8", newline="")
    except OSError as error:
        raise InputFormatError(path, None, None, f"cannot be read: {error.strerror or error}") from error
    with handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        try:
            header = next(reader)
        except StopIteration:
            raise InputFormatError(path, 1, None, f"empty file: expected a header with the columns {', '.join(required)}", unit="row") from None
        except UnicodeDecodeError as error:
            raise InputFormatError(path, 1, None, f"not UTF-8 ({error.reason})", unit="row") from None
        missing = [c for c in required if c not in header]
        if missing:
            raise InputFormatError(
                path,
                1,
                missing[0],
                f"missing column; the header must name {', '.join(required)}"
                + (f" (optional: {', '.join(optional)})" if optional else "")
                + f", got {header}",
                unit="row",
            )
        try:
            for number, fields in enumerate(reader, start=2):
                if not fields or fields == [""]:
                    continue
                if len(fields) != len(header):
                    raise InputFormatError(path, number, None, f"expected {len(header)} tab-separated fields, found {len(fields)}", unit="row")
                yield number, dict(zip(header, fields))
        except UnicodeDecodeError as error:
            raise InputFormatError(path, None, None, f"not UTF-8 ({error.reason})") from None


def finite_score(text: str, path: str, row: int, field: str = "score") -> float:
    """A field that must hold a finite number."""
    text = text.strip()
    try:
        score = float(text)
    except ValueError:
        raise InputFormatError(path, row, field, f"not a number: {text!r}", unit="row") from None
    if not math.isfinite(score):
        raise InputFormatError(path, row, field, f"not a finite number: {text!r}", unit="row")
    return score

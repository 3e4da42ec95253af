"""Per-entry BoOQA scores of a system this workflow does not run (``evaluation.booqa_predictions``), as a Table 5 row.

The input: a tab-separated file with a header line and the columns ``id`` (a BoOQA entry's id, as in the split files
``results/<lang>/booqa/{dev,test}.parquet`` and the released JSON lines) and ``score`` (a finite number, higher for
"the proposition is true in its window"; only the ranking counts, ties are scored as ties). A file may cover dev, test
or both. Each split it scores must be covered whole: an entry of the split without a row, an id of no entry of either
split, a second row for an id and a score that is not a finite number are errors naming the file, row and field.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import pandas as pd

from ..errors import InputFormatError
from ..user_files import finite_score, tsv_rows


def read_entry_scores(path: str, known_ids: Collection[str] | None) -> dict[str, float]:
    """id -> score of every row, each id given once and one of ``known_ids`` (the entries of every split; None, before
    BoOQA is built: any id)."""
    path = str(path)
    scores: dict[str, float] = {}
    for number, fields in tsv_rows(path, ("id", "score")):
        entry = fields["id"].strip()
        if known_ids is not None and entry not in known_ids:
            raise InputFormatError(path, number, "id", f"{entry!r} is the id of no BoOQA entry of this language (dev or test)", unit="row")
        if entry in scores:
            raise InputFormatError(path, number, "id", f"a second row for the entry {entry!r}", unit="row")
        scores[entry] = finite_score(fields["score"], path, number)
    if not scores:
        raise InputFormatError(path, None, None, "no score rows after the header")
    return scores


def entry_scores(path: str, entries: pd.DataFrame, known_ids: Collection[str]) -> np.ndarray:
    """The file's score of each of ``entries`` (a split), in their order; an entry without a row is an error."""
    scores = read_entry_scores(path, known_ids)
    missing = [entry for entry in entries["id"] if entry not in scores]
    if missing:
        raise InputFormatError(
            str(path),
            None,
            "id",
            f"no row for {len(missing)} of the split's {len(entries)} entries "
            f"(first: {', '.join(map(repr, missing[:3]))}): a file must score every entry of a split it covers",
        )
    return np.array([scores[entry] for entry in entries["id"]], dtype=np.float64)

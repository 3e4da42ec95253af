"""Per-pair predictions made outside the workflow (an API model, a published graph, another group's system), scored
like the workflow's own rows.

The input: a tab-separated file with a header line and the columns

* ``premise``, ``hypothesis``: LevyHolt triples ``subject,predicate,object`` (as in the LevyHolt ``_s`` files, whose
  lines give the hypothesis first and the premise second; the pair is what joins a row to a test entry, compared after
  trimming the spaces around each part);
* ``score``: a finite number, higher for "the premise entails the hypothesis" (a probability, a logit, or 0/1: only
  the ranking counts, and ties are scored as ties);
* optional ``model`` and ``setting``: names of the row's system and prompt setting (default: the names given with the
  file in config). A file may hold several (model, setting) score sets, each with at most one row per pair.

Rows are joined by the (premise, hypothesis) pair to every test set the workflow builds (the whole Directional and
Full tests, this run's Directional, Full, Symmetric, sub-group and SherLIiC tests): a score set is scored on each it
covers (on the Directional tests, the LLM table's own, on any entry it has a row for; the table gives the entries
scored). A row that matches no pair of any of them is counted, and a score set with more than ``max_unmatched_share``
of such rows is refused (a file for another benchmark, or pairs written differently).
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputFormatError, WorkflowError
from ..user_files import finite_score, tsv_rows
from ..levyholt.entries import Entry, Triple
from ..levyholt.scores import converse_group_ids

REQUIRED = ("premise", "hypothesis", "score")
OPTIONAL = ("model", "setting")
COLUMNS = (*REQUIRED, *OPTIONAL)
SCORE_COLUMNS = ("model", "setting", "entry", "label", "score", "group")
SCORE_TYPES = {"model": "object", "setting": "object", "entry": "int64", "label": "int8", "score": "float64", "group": "int64"}


def parse_triple(text: str, path: str, row: int, field: str) -> Triple:
    """``subject,predicate,object`` (split from the right, as LevyHolt's readers do) with each part trimmed; a whole
    sentence in the subject slot with an empty predicate and object (``sentence,,``) is SherLIiC's S&S split."""
    parts = [part.strip() for part in str(text).rsplit(",", 2)]
    sentence = len(parts) == 3 and parts[0] and not parts[1] and not parts[2]
    if len(parts) != 3 or not (parts[1] or sentence):
        raise InputFormatError(path, row, field, f"expected 'subject,predicate,object', got {text!r}", unit="row")
    return (parts[0], parts[1], parts[2])


def write_triple(triple: Triple) -> str:
    return ",".join(triple)


def configured_file(item: Mapping) -> str:
    """The file of an ``llm.predictions`` entry: ``file``, or ``path``, the key's older name."""
    return item.get("file") or item.get("path") or ""


def configured_key(index: int, item: Mapping) -> str:
    """The config key that names the file of the entry ``index`` of ``llm.predictions``, for messages."""
    return f"llm.predictions[{index}].{'file' if 'file' in item else 'path'}"


def read_predictions(path: str | Path, *, model: str = "", setting: str = "") -> pd.DataFrame:
    """The rows of a predictions file as a frame of ``COLUMNS`` (premise and hypothesis as triples), with errors naming
    the file, the row (1-based, the header is row 1) and the field."""
    path = str(path)
    rows = [
        (
            parse_triple(fields["premise"], path, number, "premise"),
            parse_triple(fields["hypothesis"], path, number, "hypothesis"),
            finite_score(fields["score"], path, number),
            fields["model"].strip() if "model" in fields else model,
            fields["setting"].strip() if "setting" in fields else setting,
            number,
        )
        for number, fields in tsv_rows(path, REQUIRED, OPTIONAL)
    ]
    if not rows:
        raise InputFormatError(path, None, None, "no prediction rows after the header")
    frame = pd.DataFrame(rows, columns=[*COLUMNS, "row"])
    for field in ("model", "setting"):
        empty = frame[frame[field] == ""]
        if len(empty):
            raise InputFormatError(
                path, int(empty["row"].iloc[0]), field, f"no {field} name: give the column or the file's {field} in config", unit="row"
            )
    twice = frame[frame.duplicated(["model", "setting", "premise", "hypothesis"], keep="first")]
    if len(twice):
        row = twice.iloc[0]
        raise InputFormatError(
            path,
            int(row["row"]),
            "hypothesis",
            f"a second row for the pair {write_triple(row['premise'])} -> {write_triple(row['hypothesis'])} of {row['model']} / {row['setting']}",
            unit="row",
        )
    return frame


def write_predictions(path: str | Path, frame: pd.DataFrame) -> None:
    """A frame of ``COLUMNS`` (triples as tuples) in the documented format."""
    from ..atomic import atomic_file

    out = frame.assign(premise=frame["premise"].map(write_triple), hypothesis=frame["hypothesis"].map(write_triple))
    with atomic_file(path) as tmp:
        out[list(COLUMNS)].to_csv(tmp, sep="\t", index=False, quoting=csv.QUOTE_NONE, lineterminator="\n", float_format="%.17g")


@dataclass(frozen=True)
class Joined:
    """One score set joined to a test set: its score frame (``SCORE_COLUMNS``), the rows that matched no entry and the
    entries left without a row."""

    model: str
    setting: str
    scores: pd.DataFrame
    rows: int
    unmatched_rows: int
    entries: int
    missing_entries: int


def join_to_test(predictions: pd.DataFrame, entries: Sequence[Entry]) -> list[Joined]:
    """Each (model, setting) score set of ``predictions`` (``read_predictions``) on the test ``entries``: one score per
    entry that has a row (its pair's), grouped with its converse as every LevyHolt score file is; the rows that match
    no entry are counted (``refuse_unmatched`` judges them over every test set a file is joined to)."""
    groups = converse_group_ids(entries)
    by_pair: dict[tuple[Triple, Triple], list[int]] = {}
    for index, entry in enumerate(entries):
        by_pair.setdefault((entry.premise, entry.hypothesis), []).append(index)
    labels = np.array([int(e.label) for e in entries], dtype=np.int8)
    joined = []
    for (model, setting), rows in predictions.groupby(["model", "setting"], sort=True):
        index, scores, unmatched = [], [], 0
        for premise, hypothesis, score in zip(rows["premise"], rows["hypothesis"], rows["score"]):
            found = by_pair.get((premise, hypothesis))
            if found is None:
                unmatched += 1
                continue
            index += found
            scores += [score] * len(found)
        order = np.argsort(np.asarray(index, dtype=np.int64), kind="stable")
        index = np.asarray(index, dtype=np.int64)[order]
        frame = pd.DataFrame(
            {
                "model": model,
                "setting": setting,
                "entry": index,
                "label": labels[index],
                "score": np.asarray(scores, dtype=np.float64)[order],
                "group": groups[index],
            }
        )
        joined.append(Joined(model, setting, frame, len(rows), unmatched, len(entries), len(entries) - len(index)))
    return joined


def join_files(
    paths: Sequence[str | Path],
    names: Sequence[Sequence[str]],
    tests: dict[str, str | Path],
    outputs: dict[str, str | Path],
    joins_path: str | Path,
    *,
    max_unmatched_share: float,
    references: Sequence[str | Path] = (),
    partial: Sequence[str] | None = None,
) -> None:
    """Every score set of the predictions files ``paths`` (``names``: each file's default model and setting names and
    its source) joined to each test set of ``tests`` (name -> subset TSV): one Parquet of ``SCORE_COLUMNS`` per test set
    (``outputs``), and ``joins_path``, a JSON of test set -> "model / setting" -> the join's counts, its source and
    whether it was scored there.

    A file may cover several test sets (the whole LevyHolt test covers Directional, Full, Symmetric and every
    sub-group), so a row outside one test set is expected. A score set is refused only when more than
    ``max_unmatched_share`` of its rows match no pair of any test set, those of ``tests`` and the further subset TSVs
    of ``references`` (a file for another benchmark, or pairs written differently). A score set is scored on a test
    set it covers: a row for all but at most ``max_unmatched_share`` of its entries; on the test sets of ``partial``
    (None: every one) on any entry it has a row for, the table saying how many it lacks."""
    import json

    from ..atomic import atomic_file
    from ..levyholt.entries import read_subset_tsv

    frames, sources = [], {}
    for path, (model, setting, source) in zip(paths, names):
        frame = read_predictions(path, model=model, setting=setting)
        for key in frame[["model", "setting"]].drop_duplicates().itertuples(index=False):
            if tuple(key) in sources:
                raise WorkflowError(
                    f"{path}: the score set {key[0]} / {key[1]} is also in {sources[tuple(key)][1]}: give each its own model or setting name"
                )
            sources[tuple(key)] = (source, str(path))
        frames.append(frame.assign(path=str(path)))
    predictions = pd.concat(frames, ignore_index=True)
    test_entries = {test: read_subset_tsv(test_path) for test, test_path in tests.items()}
    known = {(e.premise, e.hypothesis) for entries in test_entries.values() for e in entries}
    known |= {(e.premise, e.hypothesis) for path in references for e in read_subset_tsv(path)}
    refuse_unmatched(predictions, known, max_unmatched_share=max_unmatched_share, tests=len(tests) + len(references))
    report = {}
    for test, entries in test_entries.items():
        joined = []
        for _, rows in predictions.groupby("path", sort=False):
            joined += join_to_test(rows, entries)
        scored = [
            j
            for j in joined
            if j.missing_entries < j.entries and ((partial is None or test in partial) or j.missing_entries <= max_unmatched_share * j.entries)
        ]
        report[test] = {
            f"{j.model} / {j.setting}": {
                "rows": j.rows,
                "unmatched_rows": j.unmatched_rows,
                "entries": j.entries,
                "missing_entries": j.missing_entries,
                "source": sources[(j.model, j.setting)][0],
                "scored": j in scored,
            }
            for j in joined
        }
        frames = [j.scores for j in scored] or [pd.DataFrame({column: pd.Series(dtype=kind) for column, kind in SCORE_TYPES.items()})]
        scores = pd.concat(frames, ignore_index=True).sort_values(["model", "setting", "entry"], kind="stable")
        with atomic_file(outputs[test]) as tmp:
            scores[list(SCORE_COLUMNS)].to_parquet(tmp, index=False)
    with atomic_file(joins_path) as tmp:
        tmp.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def refuse_unmatched(predictions: pd.DataFrame, known: set[tuple[Triple, Triple]], *, max_unmatched_share: float, tests: int) -> None:
    """Stop on the first score set (``read_predictions``' frame with its ``path``) with more than
    ``max_unmatched_share`` of its rows outside ``known``, the pairs of the ``tests`` test sets it was joined to."""
    for (path, model, setting), rows in predictions.groupby(["path", "model", "setting"], sort=False):
        unmatched = sum((premise, hypothesis) not in known for premise, hypothesis in zip(rows["premise"], rows["hypothesis"]))
        if unmatched > max_unmatched_share * len(rows):
            raise WorkflowError(
                f"{path}: {unmatched} of the {len(rows)} rows of {model} / {setting} match no pair of the {tests} test "
                f"set(s) it was joined to ({len(known)} pairs), more than the share {max_unmatched_share:g} allowed "
                "(llm.max_unmatched_share): is the file for LevyHolt or SherLIiC, with the pairs written as in LevyHolt?"
            )

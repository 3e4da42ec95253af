"""The released predictions of McKenna, Li et al. 2023 ("Sources of Hallucination by Large Language Models on
Inference Tasks"; input ``llm-nli-analysis``) in the documented predictions format (``llm.predictions``).

The released test files score the paper's directional LevyHolt test (1,784 pairs), row by row in the order of one of
two order files (hypothesis first, then premise and label): the 2022 authors' Directional test (``dirposi_dirnegi/
test.txt`` of input ``levyholt-authors``) or the 2023 ``test_ordered.txt``, the same pairs with one moved (row 1,784 of
the first is row 974 of the second). A GPT file follows the one whose gold labels and hypothesis predicates equal its
rows' (the two zero-shot ``original`` files the first, every other the second); the LLaMA files carry no pairs and
follow the second. Each row is written with the *original* pair of its position, since the test entry it scores is that
pair whatever the setting put into the prompt:

* ``gpt_results/*.json``: JSON lines ``{"premise", "hypothesis", "preds": [score], "gold"}``; text-davinci-003's score
  is 0.5 +- 0.5 p(first answer token), gpt-4-0314's 1 for answer A, else 0. In the ``original`` setting the pair
  strings must equal the order file's too.
* ``llama_results/*.json`` (LLaMA-65B): ``{"predictions", "scores", "tokens"}`` or, for chain-of-thought, a bare array
  of unbounded floats, without the pairs: rows follow the order file.

Settings (from the file name): ``original``, ``type`` (entities replaced by their types), ``lowfreq`` / ``highfreq``
(entities swapped for rarer / more frequent ones), ``randprem-original`` / ``randprem-type`` (a random premise: a test
of attestation), and each with the prompt ``zero-shot`` (an instruction line, no examples), ``few-shot`` (four labelled
examples) or ``few-shot CoT`` (the four with an explanation each); ``hypothesis-only`` asks about the hypothesis alone.
The dev files (GPT-4, 630 pairs of the authors' train and dev) score no test set and are not converted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from ..errors import InputFormatError
from ..levyholt.entries import Entry, read_entries
from .predictions import COLUMNS, parse_triple

ORDER_FILES = {
    "gpt_results": "datasets/data_en_levy_holt/dirposi_dirnegi/test.txt",  # of levyholt-authors
    "llama_results": "levyholt_files/dir_files/with_original/test_ordered.txt",
}  # of llm-nli-analysis
RESULTS = "results/levyholt_results"
MODELS = {"text-davinci-003": "text-davinci-003", "gpt-4-0314": "gpt-4-0314", "llama-65b-hf": "LLaMA-65B"}
PROMPTS = {"none": "zero-shot", "lbl": "few-shot", "cot": "few-shot CoT"}
NAME = re.compile(
    r"(?:gpt3|llama)_(?P<model>text-davinci-003|gpt-4-0314|llama-65b-hf)_res_dir_text_(?P<split>test|dev)_"
    r"(?P<setting>original|type|lowfreq|highfreq|randprem[-_]original|randprem[-_]type)_icl=(?P<icl>none|lbl|cot)"
    r"(?P<rest>.*)\.json"
)


def describe(name: str) -> tuple[str, str, str] | None:
    """(model, split, setting) of a released file name, the setting with its prompt (e.g. ``type, few-shot CoT``);
    None for a name that is not one of the released prediction files."""
    match = NAME.fullmatch(name)
    if match is None:
        return None
    setting = match["setting"].replace("_", "-")
    prompt = "hypothesis-only, few-shot" if "hyponly" in match["rest"].lower() else PROMPTS[match["icl"]]
    return MODELS[match["model"]], match["split"], f"{setting}, {prompt}"


def released_files(root: str | Path) -> list[Path]:
    """The released test prediction files under the input's folder, in name order."""
    files = sorted((Path(root) / RESULTS).glob("*/*.json"))
    return [f for f in files if (d := describe(f.name)) is not None and d[1] == "test"]


def _rows_of(path: Path) -> tuple[list[float], list[dict] | None]:
    """Scores of a released file and, for the GPT files, each row's JSON (premise, hypothesis, gold)."""
    text = path.read_text(encoding="utf-8")
    if path.parent.name == "gpt_results":
        rows = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                score = float(row["preds"][0])
            except (json.JSONDecodeError, KeyError, IndexError, TypeError, ValueError) as error:
                raise InputFormatError(str(path), number, "preds", f"expected a JSON object with a score list 'preds': {error}") from None
            rows.append(row | {"score": score, "line": number})
        return [r["score"] for r in rows], rows
    data = json.loads(text)
    scores = data["scores"] if isinstance(data, dict) else data
    if not (isinstance(scores, list) and len(scores) == 1 and isinstance(scores[0], list)):
        raise InputFormatError(str(path), None, "scores", "expected one list of scores (one template)")
    return [float(s) for s in scores[0]], None


def _predicate(text) -> str | None:
    return text.rsplit(",", 2)[1].strip().lower() if isinstance(text, str) and text.count(",") >= 2 else None


def _order_of(path: Path, rows: list[dict], candidates: dict) -> Path:
    """The order file (of ``candidates``: path -> its entries) whose gold labels and hypothesis predicates equal those
    of every row of a GPT file."""
    mismatch = {}
    for candidate, order in candidates.items():
        for index, row in enumerate(rows):
            entry = order[index] if index < len(order) else None
            if entry is None or bool(row.get("gold")) != entry.label or _predicate(row.get("hypothesis")) != entry.hypothesis[1].lower():
                mismatch[candidate] = (row["line"], index)
                break
        else:
            return candidate
    line, index = min(mismatch.values())
    raise InputFormatError(
        str(path),
        line,
        "gold",
        "the gold labels and hypothesis predicates follow neither order file "
        f"({', '.join(p.name for p in mismatch)}); the first row that differs from both is {index + 1}",
    )


def convert(root: str | Path, authors_root: str | Path) -> pd.DataFrame:
    """Every released test file under ``root`` (input ``llm-nli-analysis``) as prediction rows (``predictions.COLUMNS``)
    of the original pairs; ``authors_root``: input ``levyholt-authors`` (the GPT files' order)."""
    root = Path(root)
    orders = {"gpt_results": Path(authors_root) / ORDER_FILES["gpt_results"], "llama_results": root / ORDER_FILES["llama_results"]}
    entries_of = {path: read_entries(path) for path in orders.values()}  # each order file read once
    frames = []
    for path in released_files(root):
        model, _, setting = describe(path.name)
        scores, rows = _rows_of(path)
        order_file = orders["llama_results"] if rows is None else _order_of(path, rows, entries_of)
        order: list[Entry] = entries_of[order_file]
        if len(scores) > len(order):
            raise InputFormatError(str(path), None, None, f"{len(scores)} rows, more than the {len(order)} pairs of {order_file.name}")
        for index, row in enumerate(rows or ()):
            if not setting.startswith("original,") or "hypothesis-only" in setting:
                continue
            entry = order[index]
            pair = (
                parse_triple(row["premise"], str(path), row["line"], "premise"),
                parse_triple(row["hypothesis"], str(path), row["line"], "hypothesis"),
            )
            if pair != (entry.premise, entry.hypothesis):
                raise InputFormatError(str(path), row["line"], "premise", f"the pair {pair} is not row {index + 1} of {order_file.name}")
        entries = order[: len(scores)]
        frames.append(
            pd.DataFrame(
                {
                    "premise": [e.premise for e in entries],
                    "hypothesis": [e.hypothesis for e in entries],
                    "score": scores,
                    "model": model,
                    "setting": setting,
                }
            )
        )
    if not frames:
        raise InputFormatError(str(root / RESULTS), None, None, "no released test prediction files")
    return pd.concat(frames, ignore_index=True)[list(COLUMNS)]

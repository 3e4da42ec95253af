"""DVC metrics and plots: every number of every table in ``results/metrics.json`` (``dvc metrics show`` / ``diff``),
and precision-recall points of Table 1 (``results/pr_curves.csv``) and Figure 3 (``results/booqa_pr_curves.csv``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

# table -> the columns that name a row (joined with "/")
ROW_KEYS = {
    "table1": ("model", "train", "test"),
    "table2": ("model", "subset"),
    "table6": ("model", "train", "test"),
    "figure1": ("model", "subset"),
    "figure2": ("model", "subset"),
    "table3": ("model", "trained_on", "tested_on"),
    "table4": ("language", "split"),
    "table5": ("method",),
    "table15": ("method",),
    "table16": ("method",),
    "table17": ("graph",),
    "table3_generality": ("model", "trained_on", "tested_on"),
    "table_llm": ("test", "model", "setting", "source"),
}
# the columns of numbers a table reports (its own, not the paper's)
METRIC_WORDS = (
    "auc",
    "difference",
    "positives",
    "negatives",
    "positive_rate",
    "coverage",
    "tied",
    "within_bundle",
    "entries",
    "n_test",
    "evidence",
    "rows",
    "spearman",
    "pairs",
    "above",
    "deeper",
)


def metric_columns(frame: pd.DataFrame) -> list[str]:
    return [c for c in frame.columns if any(word in c for word in METRIC_WORDS) and not c.endswith("_paper")]


def metrics_summary(tables: Mapping[str, str | Path]) -> dict:
    """table -> row key -> metric -> value, for every number of every table (empty cells left out)."""
    summary: dict = {}
    for name, path in sorted(tables.items()):
        frame = pd.read_csv(path)
        columns = metric_columns(frame)
        for row in frame.to_dict("records"):
            key = "/".join(str(row[k]) for k in ROW_KEYS[name])
            values = {c: (int(row[c]) if float(row[c]).is_integer() and "auc" not in c else float(row[c])) for c in columns if pd.notna(row[c])}
            if values:
                summary.setdefault(name, {})[key] = values
    return summary


def booqa_pr_points(curves: Mapping[str, Mapping[str, pd.DataFrame]]) -> list[list]:
    """DVC plots of Figure 3: the PR points of the representative methods per language (language -> method -> scores)."""
    from ..metrics import precision_recall_curve

    rows = []
    for lang, methods in sorted(curves.items()):
        for method, frame in methods.items():
            if frame.empty or not frame["label"].any():
                continue
            curve = precision_recall_curve(frame["score"].to_numpy(), frame["label"].to_numpy())
            for precision, recall in zip(curve.precision[::-1], curve.recall[::-1]):
                rows.append([f"{lang}:{method}", f"{recall:.6f}", f"{precision:.6f}"])
    return rows

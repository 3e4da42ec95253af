"""Tables 1, 2, 6 (and their appendix versions per language model) and the numbers of Figures 1-2, from the scores of
the selected LevyHolt models, each number with its 95% bootstrap interval (converse pairs resampled together) and
beside the paper's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from . import paper_values as paper
from ..levyholt.experiments import MESH_SUBSETS, TABLE1_SUBSETS, TABLE2_SUBSETS, TABLE6_SETS
from ..levyholt.english import PAPER_RULE
from .common import (
    SIGNAL_COLUMNS,
    Evaluation,
    ModelRecord,
    difference_interval,
    measure,
    paper_cell,
    pct,
    read_scores,
    signal_cells,
    with_interval,
)

RECORD_COLUMNS = ["precision", "training", "sanity"]


def record_cells(record, alias: str, variant: str, subset: str) -> list[str]:
    """[number format, training, sanity check] of a selected model; empty cells without ``record``."""
    if record is None:
        return ["", "", ""]
    r: ModelRecord = record(alias, variant, subset)
    return [r.precision, r.training, r.sanity]


@dataclass(frozen=True)
class ModelInfo:
    """A language model of the config: its alias, its name or path, and the paper model it is compared with."""

    alias: str
    name: str

    @property
    def paper_model(self) -> str:
        return paper.paper_model(self.name)


def table1_rows(
    models: list[ModelInfo], score_path, scale: str, evaluation: Evaluation, conventions: Mapping[str, str] | None = None, record=None
) -> tuple[list[str], list[list]]:
    """Train on Directional / Symmetric / Full, test on each (AUCnorm), beside Tables 1, 8, 10, 12. ``record(alias,
    variant, subset)`` gives each model's training record (``ModelRecord``) for the precision, training and sanity
    columns."""
    conventions = conventions or {}
    header = [
        "model",
        "model_name",
        "train",
        "test",
        "auc_norm",
        "auc_norm_low",
        "auc_norm_high",
        "auc_norm_paper",
        "paper_model",
        "paper_table",
        "n_test",
        "positive_rate",
        "test_convention",
        "scale",
        *SIGNAL_COLUMNS,
        "note",
        *RECORD_COLUMNS,
    ]
    rows = []
    for model in models:
        reference = paper.TABLE1[model.paper_model]
        for train in TABLE1_SUBSETS:
            for test in TABLE1_SUBSETS:
                m = measure(read_scores(score_path(model.alias, "sns", train, test)), evaluation)
                rows.append(
                    [
                        model.alias,
                        model.name,
                        train,
                        test,
                        *with_interval(m, "auc_norm"),
                        paper_cell(reference[train][test]),
                        model.paper_model,
                        paper.TABLE1_NUMBERS[model.paper_model],
                        m["n"],
                        f"{m['positive_rate']:.4f}",
                        conventions.get(test, PAPER_RULE),
                        scale,
                        *signal_cells(m),
                        m["no_number"],
                        *record_cells(record, model.alias, "sns", train),
                    ]
                )
    return header, rows


# Table 2's columns: S&S and 'S&S on one subset with intervals, their difference, the paper's three numbers, then
# what the numbers rest on
TABLE2_HEADER = (
    "model",
    "model_name",
    "subset",
    "sns_auc_norm",
    "sns_auc_norm_low",
    "sns_auc_norm_high",
    "sym_sns_auc_norm",
    "sym_sns_auc_norm_low",
    "sym_sns_auc_norm_high",
    "difference",
    "difference_low",
    "difference_high",
    "sns_auc_norm_paper",
    "sym_sns_auc_norm_paper",
    "difference_paper",
    "paper_model",
    "paper_table",
    "n_test",
    "positive_rate",
    "convention",
    "scale",
    *(f"sns_{c}" for c in SIGNAL_COLUMNS),
    *(f"sym_sns_{c}" for c in SIGNAL_COLUMNS),
    "difference_tie_aware",
    "difference_tie_aware_low",
    "difference_tie_aware_high",
    "note",
    "precision",
    "sns_training",
    "sym_sns_training",
    "sns_sanity",
    "sym_sns_sanity",
)


def table2_rows(
    models: list[ModelInfo], score_path, scale: str, evaluation: Evaluation, conventions: Mapping[str, str] | None = None, record=None
) -> tuple[list[str], list[list]]:
    """S&S vs 'S&S (symmetric prompts) on Paraphrases-DirTrue and Paraphrases-DirFalse, beside Tables 2, 9, 11, 13.
    The difference ('S&S - S&S) has a paired interval. ``convention`` says how each subset was built: the paper's
    numbers come from the authors' files (their Para-DirTrue has DirTrue as the positive class and 2,640 test lines)."""
    conventions = conventions or {}
    header = list(TABLE2_HEADER)
    rows = []
    for model in models:
        for subset in TABLE2_SUBSETS:
            directional_scores = read_scores(score_path(model.alias, "sns", subset, subset))
            symmetric_scores = read_scores(score_path(model.alias, "sns_sym", subset, subset))
            directional, symmetric = measure(directional_scores, evaluation), measure(symmetric_scores, evaluation)
            low, high = difference_interval(directional_scores, symmetric_scores, evaluation)
            tie_low, tie_high = difference_interval(directional_scores, symmetric_scores, evaluation, tie_aware=True)
            tie_difference = symmetric["auc_norm_tie_aware"] - directional["auc_norm_tie_aware"]
            note = "; ".join(f"{name}: {m['no_number']}" for name, m in (("S&S", directional), ("'S&S", symmetric)) if m["no_number"])
            if note:
                low = high = tie_low = tie_high = float("nan")
            ref = paper.TABLE2[model.paper_model][subset]
            rows.append(
                [
                    model.alias,
                    model.name,
                    subset,
                    *with_interval(directional, "auc_norm"),
                    *with_interval(symmetric, "auc_norm"),
                    pct(symmetric["auc_norm"] - directional["auc_norm"]),
                    pct(low),
                    pct(high),
                    paper_cell(ref[0]),
                    paper_cell(ref[1]),
                    paper_cell(ref[1] - ref[0]),
                    model.paper_model,
                    paper.TABLE2_NUMBERS[model.paper_model],
                    directional["n"],
                    f"{directional['positive_rate']:.4f}",
                    conventions.get(subset, PAPER_RULE),
                    scale,
                    *signal_cells(directional),
                    *signal_cells(symmetric),
                    pct(tie_difference),
                    pct(tie_low),
                    pct(tie_high),
                    note,
                    *_pair_cells(record, model.alias, subset),
                ]
            )
    return header, rows


def _pair_cells(record, alias: str, subset: str) -> list[str]:
    """Table 2's record cells: one format (both models', joined if they differ), then training and sanity of S&S and 'S&S."""
    (p1, t1, s1), (p2, t2, s2) = record_cells(record, alias, "sns", subset), record_cells(record, alias, "sns_sym", subset)
    return [p1 if p1 == p2 else f"{p1} / {p2}", t1, t2, s1, s2]


def table6_rows(models: list[ModelInfo], score_path, scale: str, evaluation: Evaluation, record=None) -> tuple[list[str], list[list]]:
    """LevyHolt <-> SherLIiC generalisation of S&S: AUC50 and AUCnorm beside Table 6 (RoBERTa-base)."""
    header = [
        "model",
        "model_name",
        "train",
        "test",
        "auc50",
        "auc50_low",
        "auc50_high",
        "auc_norm",
        "auc_norm_low",
        "auc_norm_high",
        "auc50_paper",
        "auc_norm_paper",
        "paper_model",
        "n_test",
        "scale",
        *SIGNAL_COLUMNS,
        "note",
        *RECORD_COLUMNS,
    ]
    rows = []
    for model in models:
        for train in TABLE6_SETS:
            for test in TABLE6_SETS:
                m = measure(read_scores(score_path(model.alias, "sns", train, test)), evaluation)
                ref = paper.TABLE6[train][test] if model.paper_model == paper.MAIN_MODEL else (None, None)
                rows.append(
                    [
                        model.alias,
                        model.name,
                        train,
                        test,
                        *with_interval(m, "auc50"),
                        *with_interval(m, "auc_norm"),
                        paper_cell(ref[0]),
                        paper_cell(ref[1]),
                        paper.MAIN_MODEL,
                        m["n"],
                        scale,
                        *signal_cells(m),
                        m["no_number"],
                        *record_cells(record, model.alias, "sns", train),
                    ]
                )
    return header, rows


def mesh_rows(
    model: ModelInfo, variant: str, score_path, scale: str, evaluation: Evaluation, conventions: Mapping[str, str] | None = None, record=None
) -> tuple[list[str], list[list]]:
    """The numbers of Figure 1 (variant sns) or Figure 2 (variant hyponly) for one model."""
    conventions = conventions or {}
    header = [
        "model",
        "model_name",
        "variant",
        "subset",
        "auc_norm",
        "auc_norm_low",
        "auc_norm_high",
        "auc_norm_paper",
        "sns_over_hyponly",
        "sns_over_hyponly_paper",
        "n_test",
        "positive_rate",
        "convention",
        "scale",
        *SIGNAL_COLUMNS,
        "note",
        *RECORD_COLUMNS,
    ]
    rows = []
    for subset in MESH_SUBSETS + ("full",):
        m = measure(read_scores(score_path(model.alias, variant, subset, subset)), evaluation)
        ratio, ratio_paper, reference = "", "", paper.FIGURE1.get(subset)
        if variant == "hyponly":
            reference = paper.FIGURE2.get(subset)
            full = measure(read_scores(score_path(model.alias, "sns", subset, subset)), evaluation, point_only=True)["auc_norm"]
            ratio = f"{full / m['auc_norm']:.2f}" if m["auc_norm"] > 0 else ""
            ratio_paper = paper.FIGURE2_RATIOS.get(subset, "")
        rows.append(
            [
                model.alias,
                model.name,
                variant,
                subset,
                *with_interval(m, "auc_norm"),
                paper_cell(reference),
                ratio,
                ratio_paper,
                m["n"],
                f"{m['positive_rate']:.4f}",
                conventions.get(subset, PAPER_RULE),
                scale,
                *signal_cells(m),
                m["no_number"],
                *record_cells(record, model.alias, variant, subset),
            ]
        )
    return header, rows


def pr_points(models: list[ModelInfo], score_path) -> list[list]:
    """DVC plots: the PR curves of Table 1 (train x test over Directional / Symmetric / Full), per model."""
    from ..metrics import precision_recall_curve

    rows = []
    for model in models:
        for train in TABLE1_SUBSETS:
            for test in TABLE1_SUBSETS:
                frame = pd.read_parquet(score_path(model.alias, "sns", train, test))
                curve = precision_recall_curve(frame["score"].to_numpy(), frame["label"].to_numpy())
                for precision, recall in zip(curve.precision[::-1], curve.recall[::-1]):
                    rows.append([f"{model.alias}:{train}->{test}", f"{recall:.6f}", f"{precision:.6f}"])
    return rows

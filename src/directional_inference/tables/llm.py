"""The LLM table (``results/table_llm.csv``): large language models on directional LevyHolt beside the S&S models, with
the same numbers as every other row (tie-aware AUCnorm and its interval, the chance range, the ties share, the signal
verdict), and the precision-recall curves of its main rows.

Two test sets: the whole Directional test (the paper's 1,784 pairs, which the released predictions of McKenna, Li et
al. 2023 cover) and this run's Directional test (a sample of it at the default scale), on which the S&S models trained
on Directional and on Full were scored: there every row is measured on the same entries, so rows can be compared
pairwise (``findings``); the S&S rows are those of the main language model and of
``training.booqa_language_models``. And the workflow's LLMs on this run's other test sets of ``llm.test_sets`` (Full,
Symmetric, SherLIiC), where they were asked; the files of ``llm.predictions`` on every test set they cover (the whole
Full test, this run's Full, Symmetric, sub-group and SherLIiC tests).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .common import SIGNAL_COLUMNS, Evaluation, measure, pct, signal_cells

TEST_SETS = {"directional_whole": "Directional test, whole", "directional_run": "Directional test of this run"}
# the whole Full test, joined to the predictions files of llm.predictions (those covering it get rows)
WHOLE_TEST_SETS = {"full_whole": "Full test, whole"}
# this run's other test sets: those the workflow's LLMs score (llm.test_sets), and every one a file of llm.predictions
# covers; LLM rows alone
RUN_TEST_SETS = {
    "full_run": "Full test of this run",
    "symmetric_run": "Symmetric test of this run",
    "para_dirtrue_run": "Para-DirTrue test of this run",
    "para_dirfalse_run": "Para-DirFalse test of this run",
    "dirtrue_unrel_run": "DirTrue-Unrel test of this run",
    "dirfalse_unrel_run": "DirFalse-Unrel test of this run",
    "sherliic_run": "SherLIiC test of this run",
}
HEADER = ["test", "model", "setting", "source", "entries", "test_entries", "rows", "unmatched_rows", "auc_norm", "scale", *SIGNAL_COLUMNS, "note"]
# the main rows of the figure: (model, setting) of the released predictions, then the S&S models
FIGURE_ROWS = (
    ("gpt-4-0314", "original, zero-shot"),
    ("text-davinci-003", "original, zero-shot"),
    ("text-davinci-003", "original, few-shot CoT"),
    ("LLaMA-65B", "original, zero-shot"),
)
SNS_ROWS = {"directional": "S&S trained on Directional", "full": "S&S trained on Full"}


def score_sets(frame: pd.DataFrame) -> dict[tuple[str, str], pd.DataFrame]:
    """(model, setting) -> score frame (``entry, label, score, group``) of a joined scores file, in name order."""
    return {key: rows.drop(columns=["model", "setting"]).reset_index(drop=True) for key, rows in frame.groupby(["model", "setting"], sort=True)}


def table_rows(
    joined: Mapping[str, pd.DataFrame],
    joins: Mapping[str, Mapping],
    sns: Mapping[str, Mapping[str, pd.DataFrame]],
    *,
    test_entries: Mapping[str, int],
    scale: str,
    evaluation: Evaluation,
) -> tuple[list[str], list[list]]:
    """Rows of the LLM table. ``joined``: test set name (``TEST_SETS``, and those of ``WHOLE_TEST_SETS`` and
    ``RUN_TEST_SETS`` joined) -> joined scores (``llm.predictions.SCORE_COLUMNS``); ``joins``: test set -> "model /
    setting" -> the join's counts (rows, unmatched_rows) and the predictions' source; ``sns``: language model (the main
    one first) -> training subset -> its S&S scores on this run's Directional test."""
    rows = []
    for test, label in (TEST_SETS | WHOLE_TEST_SETS | RUN_TEST_SETS).items():
        if test not in joined:
            continue
        for (model, setting), frame in score_sets(joined[test]).items():
            m = measure(frame, evaluation)
            counts = joins[test][f"{model} / {setting}"]
            note = m["no_number"] or (f"{test_entries[test] - m['n']} test entries have no prediction" if m["n"] < test_entries[test] else "")
            rows.append(
                [
                    label,
                    model,
                    setting,
                    counts["source"],
                    m["n"],
                    test_entries[test],
                    counts["rows"],
                    counts["unmatched_rows"],
                    pct(m["auc_norm"]),
                    scale,
                    *signal_cells(m),
                    note,
                ]
            )
        if test == "directional_run":
            for lm, models in sns.items():
                for subset, name in SNS_ROWS.items():
                    if subset in models:
                        m = measure(models[subset], evaluation)
                        rows.append(
                            [
                                label,
                                f"{name} ({lm})",
                                "fine-tuned with the S&S prompts",
                                "this workflow",
                                m["n"],
                                test_entries[test],
                                "",
                                "",
                                pct(m["auc_norm"]),
                                scale,
                                *signal_cells(m),
                                m["no_number"],
                            ]
                        )
    return HEADER, rows


def figure_curves(joined: pd.DataFrame, sns: Mapping[str, pd.DataFrame], lm: str) -> dict[str, pd.DataFrame]:
    """Curve label -> score frame of the figure's rows on this run's Directional test: the released predictions' main
    rows and the S&S models of the main language model ``lm`` (``sns``: training subset -> its scores)."""
    sets = score_sets(joined)
    curves = {f"{model}, {setting}": sets[(model, setting)] for model, setting in FIGURE_ROWS if (model, setting) in sets}
    curves.update({f"{name} ({lm})": sns[subset] for subset, name in SNS_ROWS.items() if subset in sns})
    return curves

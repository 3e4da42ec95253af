"""Tables 1, 2, 6 and the mesh rows from score files: numbers beside the paper's, the signal columns, and no number
for a scorer without ranking signal."""

from __future__ import annotations

import numpy as np
import pandas as pd

from directional_inference.tables.common import Evaluation, ModelRecord
from directional_inference.tables.levyholt import ModelInfo, mesh_rows, table1_rows, table2_rows

EVALUATION = Evaluation(0.5, 200, 1)


def write_scores(directory, *, constant=()):
    """Score files for every (variant, train, test) a table reads: informative scores, constant for ``constant``."""
    rng = np.random.default_rng(4)
    labels = np.r_[np.ones(60), np.zeros(140)].astype("int8")
    paths = {}

    def path(alias, variant, train, test):
        key = (variant, train, test)
        if key not in paths:
            scores = np.zeros(200) if key in constant else 0.5 * labels + rng.random(200)
            paths[key] = directory / f"{variant}-{train}-{test}.parquet"
            pd.DataFrame({"entry": np.arange(200), "label": labels, "score": scores, "group": np.arange(200) // 2}).to_parquet(paths[key])
        return paths[key]

    return path


def test_table1_has_signal_columns_and_no_number_for_a_constant_scorer(tmp_path):
    path = write_scores(tmp_path, constant={("sns", "symmetric", "directional")})
    record = lambda alias, variant, subset: ModelRecord("bf16", f"{subset} data", "identity 100%: passed")  # noqa: E731
    header, rows = table1_rows([ModelInfo("minilm", "sentence-transformers/all-MiniLM-L6-v2")], path, "default", EVALUATION, record=record)
    table = pd.DataFrame(rows, columns=header)
    assert len(table) == 9 and (table["precision"] == "bf16").all() and (table["sanity"] == "identity 100%: passed").all()
    constant = table[(table["train"] == "symmetric") & (table["test"] == "directional")].iloc[0]
    assert constant["auc_norm"] == "" and constant["auc_norm_tie_aware"] == "" and constant["note"].startswith("no number: every entry")
    assert constant["tied"] == "1.0000" and constant["coverage"] == "1.0000"
    ranked = table[table["note"] == ""]
    assert len(ranked) == 8 and (ranked["signal"] == "above chance").all()
    assert (ranked["auc_norm"] == ranked["auc_norm_tie_aware"]).all()  # no ties: both semantics agree
    assert (ranked["training"] == ranked["train"] + " data").all()


def test_table2_gives_no_difference_when_a_side_has_no_number(tmp_path):
    path = write_scores(tmp_path, constant={("sns_sym", "para_dirtrue", "para_dirtrue")})
    header, rows = table2_rows([ModelInfo("minilm", "x")], path, "default", EVALUATION)
    table = pd.DataFrame(rows, columns=header).set_index("subset")
    assert table.loc["para_dirtrue", "difference_low"] == "" and table.loc["para_dirtrue", "difference_tie_aware"] == ""
    assert table.loc["para_dirtrue", "note"] == "'S&S: no number: every entry has the same score, so nothing is ranked"
    assert table.loc["para_dirfalse", "note"] == "" and float(table.loc["para_dirfalse", "difference_tie_aware_low"]) < 0 < float(
        table.loc["para_dirfalse", "difference_tie_aware_high"]
    )  # two informative scorers of one kind: no difference


def test_mesh_rows_of_hypothesis_only_models_say_sanity_does_not_apply(tmp_path):
    path = write_scores(tmp_path)
    record = lambda alias, variant, subset: ModelRecord("fp32", "600 train / 200 dev pairs", "not applicable (hypothesis-only)")  # noqa: E731
    header, rows = mesh_rows(ModelInfo("minilm", "x"), "hyponly", path, "default", EVALUATION, record=record)
    table = pd.DataFrame(rows, columns=header)
    assert len(table) == 7 and (table["sanity"] == "not applicable (hypothesis-only)").all() and (table["sns_over_hyponly"] != "").all()

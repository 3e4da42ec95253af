"""BoOQA result tables: which methods each table computes, AUCnorm on the split's own xi, notes instead of numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from directional_inference.booqa_methods import BOOQA_TABLES, METHODS
from directional_inference.tables.booqa import booqa_table_rows
from directional_inference.tables.common import Evaluation
from directional_inference.metrics import auc_norm, precision_recall_curve


def test_tables_compute_known_methods_and_table5_matches_the_paper_rows():
    for table in BOOQA_TABLES.values():
        assert set(table.methods) <= set(METHODS) and set(table.paper) <= set(table.methods)
    assert "lm_sent" not in BOOQA_TABLES["table5"].methods and BOOQA_TABLES["table16"].methods[0] == "lm_tfidf"
    assert BOOQA_TABLES["table15"].split == "dev" and BOOQA_TABLES["table16"].split == "test"


def test_auc_norm_uses_the_positive_rate_of_the_scored_split(tmp_path):
    labels = np.array([1, 0, 1, 0, 0, 0, 0, 0], dtype="int8")  # xi = 0.25, not the paper's 0.37
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    path = tmp_path / "lm_rel.parquet"
    pd.DataFrame({"entry": [f"e{k}" for k in range(8)], "label": labels, "score": scores, "group": [f"b{k // 2}" for k in range(8)]}).to_parquet(path)
    header, rows = booqa_table_rows(BOOQA_TABLES["table16"], ["en"], {"en": ["lm_rel"], "zh": []},
                                    lambda lang, split, method: path, models={"lm": {"en": "m"}}, scale="smoke", evaluation=Evaluation(0.5, 200, 1),
                                    why_not=lambda method, lang: f"why {method} {lang}")
    table = {row[0]: dict(zip(header, row)) for row in rows}
    expected = auc_norm(precision_recall_curve(scores, labels.astype(bool)), 0.25)
    assert table["lm_rel"]["en_auc_norm"] == f"{100 * expected:.1f}" and table["lm_rel"]["en_positive_rate"] == "0.2500"
    low, high = float(table["lm_rel"]["en_auc_norm_low"]), float(table["lm_rel"]["en_auc_norm_high"])
    assert low <= float(table["lm_rel"]["en_auc_norm"]) <= high and high - low > 10  # 8 entries: a wide interval
    assert expected != auc_norm(precision_recall_curve(scores, labels.astype(bool)), 0.37)
    assert table["lm_tfidf"]["en_auc_norm"] == "" and "en: not run (why lm_tfidf en)" in table["lm_tfidf"]["note"]
    assert "zh: language not built" in table["lm_rel"]["note"] and table["lm_rel"]["model"] == "m"
    assert table["lm_rel_roberta"]["en_auc_norm_paper"] == 4.8 and table["lm_rel_roberta"]["note"].startswith("not run")

"""BoOQA result tables: which methods each table computes, AUCnorm on the split's own xi, notes instead of numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from directional_inference.evaluation.methods import BOOQA_TABLES, METHODS
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
    header, rows = booqa_table_rows(
        BOOQA_TABLES["table16"],
        ["en"],
        {"en": ["lm_rel"], "zh": []},
        lambda lang, split, method: path,
        models={"lm": {"en": "m"}},
        scale="smoke",
        evaluation=Evaluation(0.5, 200, 1),
        why_not=lambda method, lang: f"why {method} {lang}",
    )
    table = {row[0]: dict(zip(header, row)) for row in rows}
    expected = auc_norm(precision_recall_curve(scores, labels.astype(bool)), 0.25)
    assert table["lm_rel"]["en_auc_norm"] == f"{100 * expected:.1f}" and table["lm_rel"]["en_positive_rate"] == "0.2500"
    low, high = float(table["lm_rel"]["en_auc_norm_low"]), float(table["lm_rel"]["en_auc_norm_high"])
    assert low <= float(table["lm_rel"]["en_auc_norm"]) <= high and high - low > 10  # 8 entries: a wide interval
    assert expected != auc_norm(precision_recall_curve(scores, labels.astype(bool)), 0.37)
    assert table["lm_tfidf"]["en_auc_norm"] == "" and "en: not run (why lm_tfidf en)" in table["lm_tfidf"]["note"]
    assert "zh: language not built" in table["lm_rel"]["note"] and table["lm_rel"]["model"] == "m"
    assert table["lm_rel_roberta"]["en_auc_norm_paper"] == 4.8 and table["lm_rel_roberta"]["note"].startswith("not run")


def write_selection(directory, *, best_is_last, stop_reason="patience: no better dev AUC in 3 evaluations"):
    """A selection.csv of two trials as select_best_trial writes it, trial 1 selected."""
    from directional_inference.sns.search import SELECTION_COLUMNS

    directory.mkdir(parents=True, exist_ok=True)
    rows = []
    for trial, selected in ((0, 0), (1, 1)):
        values = dict(
            trial=trial,
            learning_rate=5.2e-5,
            weight_decay=0.01,
            grad_accumulation=1,
            best_epoch=1,
            best_batch=274,
            best_step=823,
            evaluations=8,
            dev_auc_selection=0.6,
            dev_auc50=0.7,
            dev_auc_norm=0.65,
            dev_best_f1=0.7,
            train_pairs=4388,
            dev_pairs=1098,
            precision="bf16",
            threads=2,
            stopped_epoch=2,
            stopped_batch=137,
            stopped_step=960,
            stop_reason=stop_reason,
            best_is_last=int(best_is_last),
            still_improving=int(best_is_last),
            selected=selected,
        )
        rows.append(values)
    pd.DataFrame(rows, columns=list(SELECTION_COLUMNS)).to_csv(directory / "selection.csv", index=False)


def test_a_model_record_says_how_the_selected_model_was_trained_and_whether_it_is_sane(tmp_path):
    from directional_inference.sns.sanity import format_rows, judge, sanity_cases
    from directional_inference.tables.common import read_model_record

    write_selection(tmp_path / "m", best_is_last=False)
    record = read_model_record(tmp_path / "m")  # no sanity.csv: an H-only model
    assert record.precision == "bf16" and record.sanity == "not applicable (hypothesis-only)" and not record.undertrained
    assert record.training == (
        "4388 train / 1098 dev pairs, 2 CPU threads; best dev point epoch 2 batch 274, stopped epoch 3 batch 137 (patience: no better dev AUC in 3 evaluations)"
    )
    cases = sanity_cases("en")
    (tmp_path / "m" / "sanity.csv").write_text(format_rows(judge(cases, [0.5] * len(cases))))
    write_selection(tmp_path / "m", best_is_last=True, stop_reason="maximum of 3 epochs")
    record = read_model_record(tmp_path / "m")
    assert record.undertrained and record.training.endswith("(maximum of 3 epochs); POSSIBLY UNDERTRAINED (still improving at its last evaluation)")
    assert not record.sane and record.sanity.endswith("FAILED (non_entailment below threshold)")


def test_lm_rows_say_what_their_encoder_is_and_sns_rows_carry_their_records(tmp_path):
    from directional_inference.resources.models import MINILM, model_kind
    from directional_inference.tables.common import ModelRecord

    labels = np.array([1, 0, 1, 0], dtype="int8")
    path = tmp_path / "s.parquet"
    pd.DataFrame({"entry": ["a", "b", "c", "d"], "label": labels, "score": [0.9, 0.8, 0.7, 0.6], "group": ["x", "x", "y", "y"]}).to_parquet(path)
    record = ModelRecord("fp32", "4388 train / 1098 dev pairs", "identity 100%: passed")
    header, rows = booqa_table_rows(
        BOOQA_TABLES["table16"],
        ["en"],
        {"en": ["lm_rel", "sns_full"], "zh": []},
        lambda lang, split, method: path,
        models={"lm": {"en": "minilm"}, "sns": {"en": "minilm"}},
        scale="default",
        evaluation=Evaluation(0.5, 50, 1),
        why_not=lambda method, lang: "no",
        model_kinds={"minilm": model_kind(MINILM)},
        record=lambda method, lang: record,
    )
    table = {row[0]: dict(zip(header, row)) for row in rows}
    assert "sentence encoder trained on" in table["lm_rel"]["model"] and "SNLI, MultiNLI" in table["lm_rel"]["model"]
    assert "not the paper's unsupervised" in table["lm_rel"]["model"] and table["lm_rel"]["training"] == ""
    assert (table["sns_full"]["model"], table["sns_full"]["precision"], table["sns_full"]["training"], table["sns_full"]["sanity"]) == (
        "minilm",
        "fp32",
        "4388 train / 1098 dev pairs",
        "identity 100%: passed",
    )


def test_the_chinese_sns_rows_are_the_methods_trained_on_the_chinese_levyholt():
    """The paper's Chinese column of Table 5 has S&S Full only: training.sns_methods_zh decides which Chinese S&S models
    are fine-tuned, and the other Chinese S&S rows say why they have no number; English keeps all four."""
    from directional_inference.evaluation.methods import BooqaMethods, sns_models
    from directional_inference.levyholt.experiments import chinese_trained_models

    args = {"model_languages": ["en", "zh"], "measures": ["binc"], "retrievals": ["rel"], "sns_languages": ["en", "zh"]}
    full_only = BooqaMethods(**args, sns_methods_zh=["sns_full"])
    sns = {"sns_full", "sym_sns_full", "sns_symmetric", "sns_directional"}
    assert sns & set(full_only.runnable("zh")) == {"sns_full"}
    assert sns & set(full_only.runnable("en")) == sns
    assert sns & set(BooqaMethods(**args).runnable("zh")) == sns  # no list: every one
    assert "training.sns_methods_zh" in full_only.why_not("sns_directional", "zh")
    assert sns_models(["sns_full", "sym_sns_full", "lm_rel"]) == [("sns", "full"), ("sns_sym", "full")]
    assert chinese_trained_models(sns_models(["sns_full"])) == [
        ("hyponly", "zh_directional"),
        ("hyponly", "zh_full"),
        ("hyponly", "zh_symmetric"),
        ("sns", "zh_full"),
    ]


def test_a_further_language_models_sns_methods_are_rows_of_every_booqa_table_on_english_booqa():
    """training.booqa_language_models: each further alias's S&S methods (sns_full@rb ...) follow a BoOQA table's own
    methods (Table 5's four, Table 15's four, Table 16's one), carry the alias in the label and the model cell, and
    answer English BoOQA only."""
    from directional_inference.evaluation.methods import (
        BooqaMethods,
        further_model_methods,
        method_alias,
        method_label,
        method_spec,
        table_methods,
    )

    assert further_model_methods(["lm_rel", "sns_full", "graph_binc", "sns_directional"], ["rb", "xl"]) == [
        "sns_full@rb",
        "sns_directional@rb",
        "sns_full@xl",
        "sns_directional@xl",
    ]
    assert table_methods("table5", ["rb"]) == [
        *BOOQA_TABLES["table5"].methods,
        "sns_full@rb",
        "sym_sns_full@rb",
        "sns_symmetric@rb",
        "sns_directional@rb",
    ]
    assert table_methods("table15", ["rb"]) == [
        *BOOQA_TABLES["table15"].methods,
        "sns_full@rb",
        "sym_sns_full@rb",
        "sns_symmetric@rb",
        "sns_directional@rb",
    ]
    assert table_methods("table16", ["rb"]) == [*BOOQA_TABLES["table16"].methods, "sns_full@rb"]
    assert (method_spec("sym_sns_full@rb"), method_alias("sym_sns_full@rb"), method_alias("sym_sns_full")) == (("sns", ("sns_sym", "full")), "rb", "")
    assert method_label("sns_symmetric@rb") == "S&S Symmetric, rb" and method_label("sns_symmetric") == "S&S Symmetric"
    methods = BooqaMethods(["en", "zh"], ["binc"], ["rel"], ["en", "zh"], llm_languages=["en"], further_models=["rb"])
    assert "sns_full@rb" in methods.runnable("en") and not any("@" in m for m in methods.runnable("zh"))
    assert "English BoOQA only" in methods.why_not("sns_full@rb", "zh")
    path = "unused"
    header, rows = booqa_table_rows(
        BOOQA_TABLES["table5"],
        [],
        {"en": [], "zh": []},
        lambda lang, split, method: path,
        models={"sns": {"en": "minilm"}},
        scale="smoke",
        evaluation=Evaluation(0.5, 50, 1),
        why_not=lambda method, lang: "no",
        methods=table_methods("table5", ["rb"]),
    )
    assert [row[1] for row in rows if "@" in row[0]] == ["S&S Full, rb", "'S&S Full, rb", "S&S Symmetric, rb", "S&S Directional, rb"]
    assert [row[0] for row in rows][-2:] == ["graph_cnce", "graph_egt2"]


def test_imported_relations_run_no_method_that_needs_article_text():
    """Relations imported from files carry no article text: TF-IDF retrieval and the LM sent variant say so instead of
    crashing on NULL text; the relation-level LM variant, S&S and the graphs run."""
    from directional_inference.evaluation.methods import BooqaMethods

    args = (["en", "zh"], ["binc"], ["rel", "sent", "tfidf"], ["en"])
    imported = BooqaMethods(*args, imported_languages=["en"])
    assert {"lm_rel", "sns_full", "graph_binc"} <= set(imported.runnable("en")) and not {"lm_tfidf", "lm_sent"} & set(imported.runnable("en"))
    assert {"lm_tfidf", "lm_sent"} <= set(BooqaMethods(*args).runnable("en"))
    assert "relations.imported" in imported.why_not("lm_tfidf", "en")


def test_a_score_file_is_a_table_5_row_of_its_language_only():
    """evaluation.booqa_predictions: each named file is the Table 5 method scores@<name>, labelled with its name,
    runnable in its language only (the other gets a note), and not a row of Tables 15 and 16."""
    from directional_inference.evaluation.methods import BooqaMethods, method_label, method_spec, table_methods

    assert table_methods("table5", [], ["cnce"], ["mine"])[-2:] == ["graph_files@cnce", "scores@mine"]
    assert table_methods("table16", [], [], ["mine"]) == list(BOOQA_TABLES["table16"].methods)
    assert (
        method_spec("scores@mine") == ("file", "scores") and method_label("scores@mine") == "mine (scores from a file, evaluation.booqa_predictions)"
    )
    methods = BooqaMethods(["en", "zh"], ["binc"], ["rel"], ["en"], llm_languages=["en"], score_files={"mine": "zh"})
    assert "scores@mine" in methods.runnable("zh") and "scores@mine" not in methods.runnable("en")
    assert methods.why_not("scores@mine", "en") == "scores of zh BoOQA entries (evaluation.booqa_predictions)"


def entries_frame(ids, labels):
    return pd.DataFrame({"id": ids, "label": labels, "bundle_id": [i.split("-n")[0] for i in ids]})


def test_a_score_file_scores_each_entry_of_the_split_in_its_order_and_names_file_row_and_field_when_wrong(tmp_path):
    """The file's scores in the split's order (rows in any order, dev ids beside them ignored); an unknown id, a second
    row for an id, a score that is no finite number and a test entry without a row are errors naming file, row, field."""
    import pytest

    from directional_inference.errors import InputFormatError
    from directional_inference.evaluation.scoring import score_split

    test = entries_frame(["en-1", "en-1-n0", "en-2", "en-2-n0"], [True, False, True, False])
    known = [*test["id"], "en-9", "en-9-n0"]  # en-9: a dev bundle
    good = tmp_path / "scores.tsv"
    good.write_text("id\tscore\nen-2-n0\t0.1\nen-9\t5\nen-1\t0.9\nen-2\t0.7\nen-1-n0\t0.3\n", encoding="utf-8")
    frame = score_split(None, "scores@mine", "en", test, None, {}, predictions=str(good), known_ids=known)
    assert list(frame["entry"]) == list(test["id"]) and list(frame["score"]) == [0.9, 0.3, 0.7, 0.1]
    assert frame["covered"].all() and list(frame["label"]) == [1, 0, 1, 0] and list(frame["group"]) == ["en-1", "en-1", "en-2", "en-2"]
    bad = {
        "id\tscore\nen-1\t0.9\nen-7\t0.1\n": ("row 3", "'id'", "id of no BoOQA entry"),
        "id\tscore\nen-1\t0.9\nen-1\t0.2\n": ("row 3", "'id'", "second row for the entry 'en-1'"),
        "id\tscore\nen-1\t0.9\nen-1-n0\thigh\n": ("row 3", "'score'", "not a number"),
        "id\tscore\nen-1\tnan\n": ("row 2", "'score'", "not a finite number"),
        "entry\tscore\nen-1\t0.9\n": ("row 1", "'id'", "missing column"),
        "id\tscore\nen-1\t0.9\nen-1-n0\t0.3\nen-2\t0.7\n": ("scores.tsv", "'id'", "no row for 1 of the split's 4 entries (first: 'en-2-n0')"),
    }
    for text, expected in bad.items():
        good.write_text(text, encoding="utf-8")
        with pytest.raises(InputFormatError) as caught:
            score_split(None, "scores@mine", "en", test, None, {}, predictions=str(good), known_ids=known)
        assert str(good) in str(caught.value) and all(part in str(caught.value) for part in expected), (text, str(caught.value))


def test_a_score_file_that_is_not_there_stops_the_run_before_any_job_naming_the_key(tmp_path):
    from directional_inference.workflow.config_checks import user_input_problems

    (tmp_path / "theirs.tsv").write_text("id\tscore\nq1\t0.5\n", encoding="utf-8")  # a file whose rows read (ids are the job's to check)
    config = {"evaluation": {"booqa_predictions": {"theirs": {"file": str(tmp_path / "theirs.tsv")}, "gone": {"file": str(tmp_path / "gone.tsv")}}}}
    assert user_input_problems(config) == [
        f"config key evaluation.booqa_predictions.gone.file is '{tmp_path / 'gone.tsv'}', which is not a file: give the tab-separated "
        "file of per-entry scores (columns id, score; docs/inputs.md)"
    ]


def test_figure3_draws_the_representative_methods_then_sns_full_of_every_further_language_model():
    """Figure 3's curves: LM rel, S&S Full, EG BInc (the paper's order) where they run, then sns_full@<alias> of each
    further model (not its other S&S methods, nor a graph or scores from files), labelled with the alias."""
    from directional_inference.evaluation.methods import figure3_methods, method_label

    runnable = [
        "graph_binc",
        "sns_full",
        "sym_sns_full",
        "lm_rel",
        "sns_full@rb",
        "sns_directional@rb",
        "graph_files@cnce",
        "scores@mine",
        "sns_full@xl",
    ]
    assert figure3_methods(runnable) == ["lm_rel", "sns_full", "graph_binc", "sns_full@rb", "sns_full@xl"]
    assert figure3_methods(["lm_rel", "graph_binc"]) == ["lm_rel", "graph_binc"]  # Chinese without S&S
    assert method_label("sns_full@rb") == "S&S Full, rb"

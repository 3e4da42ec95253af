"""Predictions made elsewhere (llm.predictions): the documented file, its errors, the join to a test set, and the
released predictions of McKenna, Li et al. 2023 scored like the workflow's rows."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from directional_inference.errors import InputFormatError, WorkflowError
from directional_inference.levyholt.entries import Entry, read_entries, write_entries
from directional_inference.llm.predictions import join_files, join_to_test, read_predictions, write_predictions
from directional_inference.llm.released import convert, describe
from directional_inference.resources.inputs import mirror_roots

# the first mirror of BOOQA_MIRROR (the shared one, or the one bin/test builds) holding both datasets; /dev/null holds none
MIRROR = next(
    (root for root in mirror_roots(None) if (root / "llm-nli-analysis").is_dir() and (root / "levyholt-authors").is_dir()), Path(os.devnull)
)
RELEASED = MIRROR / "llm-nli-analysis"
AUTHORS = MIRROR / "levyholt-authors"
AUTHORS_TEST = AUTHORS / "datasets" / "data_en_levy_holt" / "dirposi_dirnegi" / "test.txt"
needs_mirror = pytest.mark.skipif(
    not RELEASED.is_dir() or not AUTHORS.is_dir(), reason="needs a mirror of llm-nli-analysis and levyholt-authors in BOOQA_MIRROR"
)

A, B, C = ("x", "bought", "y"), ("x", "owns", "y"), ("x", "sold", "y")
ENTRIES = [Entry(A, B, True), Entry(B, A, False), Entry(A, C, False), Entry(C, A, False)]


def _file(tmp_path, text: str, name="p.tsv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_predictions_file_is_joined_by_the_pair_with_converses_grouped(tmp_path):
    path = _file(tmp_path, "premise\thypothesis\tscore\n x , bought ,y\tx,owns,y\t0.9\nx,owns,y\tx,bought,y\t0.2\nx,sold,y\tx,bought,y\t0.4\n")
    frame = read_predictions(path, model="m", setting="s")
    [joined] = join_to_test(frame, ENTRIES)
    # entries 0, 1 and 3 have rows (spaces around the parts do not count); entry 2 has none
    assert joined.scores["entry"].tolist() == [0, 1, 3]
    assert joined.scores["score"].tolist() == [0.9, 0.2, 0.4]
    assert joined.scores["label"].tolist() == [1, 0, 0]
    groups = joined.scores["group"].tolist()
    assert groups[0] == groups[1] and groups[2] != groups[0]  # a pair and its converse are one bootstrap group
    assert (joined.rows, joined.unmatched_rows, joined.missing_entries) == (3, 0, 1)


def test_rows_that_match_no_pair_of_any_test_set_are_refused_beyond_the_share(tmp_path):
    """One row of two is outside the test set: refused when the share allowed is below a half, unless a further test
    set the file may cover (a reference) holds its pair."""
    write_entries(tmp_path / "test.tsv", ENTRIES)
    write_entries(tmp_path / "other.tsv", [Entry(("q", "r", "s"), ("t", "u", "v"), True)])
    path = _file(tmp_path, "premise\thypothesis\tscore\tmodel\tsetting\nx,bought,y\tx,owns,y\t1\tm\ts\nq,r,s\tt,u,v\t0\tm\ts\n")

    def join(share, references=()):
        join_files(
            [path],
            [["", "", "mine"]],
            {"t": tmp_path / "test.tsv"},
            {"t": tmp_path / "t.parquet"},
            tmp_path / "joins.json",
            max_unmatched_share=share,
            references=references,
            partial=["t"],
        )
        return json.loads((tmp_path / "joins.json").read_text())["t"]["m / s"]

    assert join(0.5)["unmatched_rows"] == 1
    with pytest.raises(WorkflowError, match=r"p.tsv: 1 of the 2 rows of m / s match no pair of the 1 test set"):
        join(0.25)
    assert join(0.0, [tmp_path / "other.tsv"])["unmatched_rows"] == 1  # outside this test set, inside one it may cover
    nothing = _file(tmp_path, "premise\thypothesis\tscore\nq,r,s\tt,u,w\t0\n", "none.tsv")
    with pytest.raises(WorkflowError, match=r"none.tsv: 1 of the 1 rows"):
        join_files(
            [nothing],
            [["m", "s", "x"]],
            {"t": tmp_path / "test.tsv"},
            {"t": tmp_path / "t.parquet"},
            tmp_path / "joins.json",
            max_unmatched_share=0.5,
            references=[tmp_path / "other.tsv"],
        )


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("premise\tscore\nx,bought,y\t1\n", "row 1, field 'hypothesis': missing column"),
        ("premise\thypothesis\tscore\nx,bought,y\tx,owns,y\thigh\n", "row 2, field 'score': not a number: 'high'"),
        ("premise\thypothesis\tscore\nx,bought,y\tx,owns,y\t1\nx,bought,y\tx,owns,y\tnan\n", "row 3, field 'score': not a finite number"),
        ("premise\thypothesis\tscore\nx bought y\tx,owns,y\t1\n", "row 2, field 'premise': expected 'subject,predicate,object'"),
        ("premise\thypothesis\tscore\nx,,y\tx,owns,y\t1\n", "row 2, field 'premise': expected 'subject,predicate,object'"),
        ("premise\thypothesis\tscore\nx,bought,y\tx,owns,y\n", "row 2: expected 3 tab-separated fields, found 2"),
        ("premise\thypothesis\tscore\nx,bought,y\tx,owns,y\t1\nx,bought,y\tx,owns,y\t0\n", "row 3, field 'hypothesis': a second row for the pair"),
        ("", "row 1: empty file"),
    ],
)
def test_a_bad_predictions_file_is_named_with_its_row_and_field(tmp_path, text, where):
    path = _file(tmp_path, text)
    with pytest.raises(InputFormatError) as error:
        read_predictions(path, model="m", setting="s")
    assert str(error.value).startswith(f"{path}, {where}")


def test_a_whole_sentence_with_empty_predicate_and_object_is_a_triple(tmp_path):
    """SherLIiC's S&S split puts whole sentences in the subject slot: 'sentence,,' reads back as (sentence, '', ''),
    commas inside the sentence included (the triple is split from the right)."""
    from directional_inference.llm.predictions import parse_triple, write_triple

    triple = ("Japan, said China, is at war", "", "")
    assert parse_triple(write_triple(triple), "f", 2, "premise") == triple
    path = _file(tmp_path, "premise\thypothesis\tscore\nA beat B,,\tA played B,,\t0.5\n")
    frame = read_predictions(path, model="m", setting="s")
    assert frame.loc[0, "premise"] == ("A beat B", "", "") and frame.loc[0, "hypothesis"] == ("A played B", "", "")


def test_rows_without_a_model_name_are_refused(tmp_path):
    path = _file(tmp_path, "premise\thypothesis\tscore\nx,bought,y\tx,owns,y\t1\n")
    with pytest.raises(InputFormatError, match=r"row 2, field 'model': no model name"):
        read_predictions(path, setting="s")


def test_the_same_score_set_in_two_files_is_refused(tmp_path):
    write_entries(tmp_path / "test.tsv", ENTRIES)
    text = "premise\thypothesis\tscore\nx,bought,y\tx,owns,y\t1\n"
    first, second = _file(tmp_path, text, "a.tsv"), _file(tmp_path, text, "b.tsv")
    with pytest.raises(WorkflowError, match=r"b.tsv: the score set m / s is also in .*a.tsv"):
        join_files(
            [first, second],
            [["m", "s", "x"], ["m", "s", "y"]],
            {"t": tmp_path / "test.tsv"},
            {"t": tmp_path / "t.parquet"},
            tmp_path / "joins.json",
            max_unmatched_share=0.0,
        )


def test_a_file_covering_several_test_sets_is_scored_on_each_it_covers(tmp_path):
    """A file with rows for four entries and a converse outside every test: scored on the whole test and on its sample
    (the rows outside the sample counted, never refused); on a test set it covers one of two entries of, only where a
    partial cover is asked for; on a test set it has no row of, never (an empty score file of the documented columns)."""
    D = ("x", "leased", "y")
    write_entries(tmp_path / "whole.tsv", ENTRIES)
    write_entries(tmp_path / "sample.tsv", ENTRIES[:2])
    write_entries(tmp_path / "half.tsv", [ENTRIES[0], Entry(A, D, False)])
    write_entries(tmp_path / "none.tsv", [Entry(D, A, True)])
    path = _file(
        tmp_path,
        "premise\thypothesis\tscore\nx,bought,y\tx,owns,y\t0.9\nx,owns,y\tx,bought,y\t0.2\nx,bought,y\tx,sold,y\t0.3\nx,sold,y\tx,bought,y\t0.4\n",
    )
    tests = {name: tmp_path / f"{name}.tsv" for name in ("whole", "sample", "half", "none")}
    outputs = {name: tmp_path / f"{name}.parquet" for name in tests}
    join_files([path], [["m", "s", "mine"]], tests, outputs, tmp_path / "joins.json", max_unmatched_share=0.25, partial=["whole", "sample"])
    joins = json.loads((tmp_path / "joins.json").read_text())
    assert joins["whole"]["m / s"] == {"rows": 4, "unmatched_rows": 0, "entries": 4, "missing_entries": 0, "source": "mine", "scored": True}
    assert joins["sample"]["m / s"] == {"rows": 4, "unmatched_rows": 2, "entries": 2, "missing_entries": 0, "source": "mine", "scored": True}
    assert joins["half"]["m / s"]["missing_entries"] == 1 and not joins["half"]["m / s"]["scored"]  # 1 of 2 missing: above 0.25
    assert joins["none"]["m / s"]["missing_entries"] == 1 and not joins["none"]["m / s"]["scored"]
    sample = pd.read_parquet(outputs["sample"])
    assert sample["entry"].tolist() == [0, 1] and sample["score"].tolist() == [0.9, 0.2]
    assert pd.read_parquet(outputs["whole"])["score"].tolist() == [0.9, 0.2, 0.3, 0.4]
    for name in ("half", "none"):
        empty = pd.read_parquet(outputs[name])
        assert empty.empty and list(empty.columns) == ["model", "setting", "entry", "label", "score", "group"]
    join_files([path], [["m", "s", "mine"]], tests, outputs, tmp_path / "joins.json", max_unmatched_share=0.25, partial=["half"])
    assert pd.read_parquet(outputs["half"])["entry"].tolist() == [0]  # a partial cover where one is asked for


def test_released_file_names_give_model_and_setting():
    assert describe("gpt3_gpt-4-0314_res_dir_text_test_original_icl=none_trinary_instruct_1.json") == ("gpt-4-0314", "test", "original, zero-shot")
    assert describe("llama_llama-65b-hf_res_dir_text_test_randprem_type_icl=cot_1.json") == ("LLaMA-65B", "test", "randprem-type, few-shot CoT")
    assert describe("gpt3_text-davinci-003_res_dir_text_test_type_icl=lbl_trinary_1_hyponly.json") == (
        "text-davinci-003",
        "test",
        "type, hypothesis-only, few-shot",
    )
    assert describe("README.json") is None


def _independent_auc_norm(scores, labels) -> float:
    """The paper's AUCnorm from scikit-learn's precision-recall curve (a point per distinct score, then the (0, 1)
    anchor): the trapezoid of max(precision - positive rate, 0) over recall, over 1 - positive rate."""
    from sklearn.metrics import precision_recall_curve

    precision, recall, _ = precision_recall_curve(labels, scores)
    rate = float(np.mean(labels))
    lifted = np.maximum(precision - rate, 0.0)
    return float(np.sum((recall[:-1] - recall[1:]) * (lifted[:-1] + lifted[1:]) / 2) / (1 - rate))


@needs_mirror
def test_every_released_file_scores_the_directional_test_as_the_file_itself_says(tmp_path):
    """Each released test file, converted and joined to the authors' Directional test, gets the AUCnorm computed
    independently from the file's own rows (the GPT files' gold labels, the LLaMA files' order file)."""
    from directional_inference.metrics import evaluate_scores

    test = read_entries(AUTHORS_TEST)
    write_entries(tmp_path / "test.tsv", test)
    write_predictions(tmp_path / "released.tsv", convert(RELEASED, AUTHORS))
    join_files(
        [tmp_path / "released.tsv"],
        [["", "", "released"]],
        {"whole": tmp_path / "test.tsv"},
        {"whole": tmp_path / "whole.parquet"},
        tmp_path / "joins.json",
        max_unmatched_share=0.0,
    )
    scores = pd.read_parquet(tmp_path / "whole.parquet")
    joins = json.loads((tmp_path / "joins.json").read_text())["whole"]
    ordered = read_entries(RELEASED / "levyholt_files" / "dir_files" / "with_original" / "test_ordered.txt")
    checked = 0
    for path in sorted((RELEASED / "results" / "levyholt_results").glob("*/*_test_*.json")):
        model, _, setting = describe(path.name)
        if path.parent.name == "gpt_results":
            rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            file_scores, file_labels = [r["preds"][0] for r in rows], [int(r["gold"]) for r in rows]
        else:
            data = json.loads(path.read_text())
            file_scores = (data["scores"] if isinstance(data, dict) else data)[0]
            file_labels = [int(e.label) for e in ordered]
        ours = scores[(scores["model"] == model) & (scores["setting"] == setting)]
        assert len(ours) == len(file_scores) == joins[f"{model} / {setting}"]["entries"] - joins[f"{model} / {setting}"]["missing_entries"]
        expected = _independent_auc_norm(np.asarray(file_scores), np.asarray(file_labels))
        assert evaluate_scores(ours["score"].to_numpy(), ours["label"].to_numpy())["auc_norm"] == pytest.approx(expected, abs=1e-12), path.name
        checked += 1
    assert checked == 23
    assert all(j["unmatched_rows"] == 0 for j in joins.values())
    # the method notes state GPT-4's two values on the whole test: they are this file's
    from directional_inference.metrics import tie_aware_auc_norm

    gpt4 = scores[(scores["model"] == "gpt-4-0314") & (scores["setting"] == "original, zero-shot")]
    reference = evaluate_scores(gpt4["score"].to_numpy(), gpt4["label"].to_numpy())["auc_norm"]
    tie_aware = tie_aware_auc_norm(gpt4["score"].to_numpy(), gpt4["label"].to_numpy())
    notes = (Path(__file__).resolve().parents[1] / "docs" / "method-notes.md").read_text(encoding="utf-8")
    assert f"{100 * reference:.1f} against a tie-aware {100 * tie_aware:.1f}" in notes

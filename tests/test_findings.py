"""The findings report: verdicts that follow from paired intervals, reasons that say what limits a verdict."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from directional_inference.tables.common import Evaluation, ModelRecord
from directional_inference.tables.findings import CLAIMS, HEADER, Claim, Scores, claim_row, findings_markdown, runnable_claims, verdict

EVALUATION = Evaluation(0.5, 300, 1)


def frame(scores, labels, groups=None, covered=None):
    n = len(scores)
    data = {
        "entry": np.arange(n),
        "label": np.asarray(labels, dtype="int8"),
        "score": np.asarray(scores, dtype=float),
        "group": np.arange(n) if groups is None else groups,
    }
    if covered is not None:
        data["covered"] = covered
    return pd.DataFrame(data)


A, B = Scores("booqa", ("en", "sns_full"), "A"), Scores("booqa", ("en", "lm_rel"), "B")


@pytest.mark.parametrize(
    ("kind", "interval", "expected"),
    [
        ("greater", (0.01, 0.2), "supported"),
        ("greater", (-0.2, -0.01), "contradicted"),
        ("greater", (-0.1, 0.1), "inconclusive"),
        ("similar", (-0.04, 0.03), "supported"),
        ("similar", (0.06, 0.2), "contradicted"),
        ("similar", (-0.1, 0.02), "inconclusive"),
        ("similar", (0.01, 0.04), "supported"),  # different from 0 but within the margin: the claim is about the margin
        ("near_chance", (-0.3, -0.01), "supported"),
        ("near_chance", (0.02, 0.3), "contradicted"),
        ("above_chance", (0.01, 0.5), "supported"),
        ("above_chance", (-0.05, -0.01), "contradicted"),
    ],
)
def test_verdicts_follow_the_interval(kind, interval, expected):
    claim = Claim("c", "Table 5", kind, A, 1.0, B if kind in ("greater", "similar") else None, 2.0, margin=5.0)
    assert verdict(claim, sum(interval) / 2, *interval) == expected


def test_a_better_scorer_is_supported_and_the_row_carries_both_sides():
    rng = np.random.default_rng(0)
    labels = rng.random(600) < 0.4
    good, bad = labels + rng.normal(0, 0.5, 600), rng.random(600)
    claim = Claim("A beats B", "Table 5", "greater", A, 25.6, B, 15.9)
    row = dict(zip(HEADER, claim_row(claim, {A: frame(good, labels), B: frame(bad, labels)}, EVALUATION, record=lambda s: None, evidence_median=6.0)))
    assert row["verdict"] == "supported" and float(row["difference_low"]) > 0 and row["reason"] == ""
    assert (row["paper_a"], row["paper_b"]) == ("25.6", "15.9") and float(row["ours_a"]) > float(row["ours_b"])
    assert float(row["difference"]) == pytest.approx(float(row["ours_a"]) - float(row["ours_b"]), abs=0.11)


def test_a_score_set_without_a_number_makes_the_claim_inconclusive_with_the_reason():
    labels = np.r_[np.ones(20), np.zeros(30)].astype(bool)
    claim = Claim("A beats B", "Table 5", "greater", A, 25.6, B, 15.9)
    constant = frame(np.zeros(50), labels)
    row = dict(zip(HEADER, claim_row(claim, {A: frame(labels + 0.1, labels), B: constant}, EVALUATION, record=lambda s: None, evidence_median=None)))
    assert row["verdict"] == "inconclusive" and row["ours_b"] == "" and "B: no number: every entry has the same score" in row["reason"]


def test_thin_evidence_failed_sanity_and_undertraining_are_reasons():
    rng = np.random.default_rng(1)
    labels = rng.random(300) < 0.4
    claim = Claim("A beats B", "Table 5", "greater", A, 25.6, B, 15.9)
    failed = ModelRecord("fp32", "t", "identity 40%: FAILED (identity below threshold)", undertrained=True, sane=False)
    row = dict(
        zip(
            HEADER,
            claim_row(
                claim,
                {A: frame(labels + rng.random(300), labels), B: frame(rng.random(300), labels)},
                EVALUATION,
                record=lambda s: failed if s is A else None,
                evidence_median=1.0,
            ),
        )
    )
    assert "A: its model fails the sanity cases (identity 40%" in row["reason"] and "A: its model may be undertrained" in row["reason"]
    assert "BoOQA evidence is thin: median 1 piece per entry (the paper's starring rule gives about 14)" in row["reason"]
    assert "**" + row["verdict"] + "**" in findings_markdown(HEADER, [list(row.values())], "default")


def test_near_chance_compares_with_random_scorers_of_the_same_entries():
    rng = np.random.default_rng(2)
    labels = rng.random(800) < 0.4
    claim = Claim("H-only is near chance", "Table 3", "near_chance", Scores("robustness", ("en", "full"), "H"), 2.8, margin=10.0)
    row = dict(zip(HEADER, claim_row(claim, {claim.a: frame(rng.random(800), labels)}, EVALUATION, record=lambda s: None, evidence_median=None)))
    assert row["verdict"] == "supported" and float(row["difference_high"]) < 0
    informed = frame(labels + rng.random(800) * 0.5, labels)
    row = dict(zip(HEADER, claim_row(claim, {claim.a: informed}, EVALUATION, record=lambda s: None, evidence_median=None)))
    assert row["verdict"] == "contradicted"


def test_at_least_ten_claims_and_booqa_claims_need_their_methods():
    assert len(CLAIMS) >= 10 and {c.kind for c in CLAIMS} <= {"greater", "similar", "near_chance", "above_chance"}
    everything = runnable_claims(["lm_rel", "sns_full", "sym_sns_full", "sns_symmetric", "sns_directional", "graph_binc"], ["en"], True)
    assert everything == list(range(len(CLAIMS)))
    without_llms = runnable_claims(["lm_rel", "sns_full", "sym_sns_full", "sns_symmetric", "sns_directional", "graph_binc"], ["en"])
    assert [k for k in everything if k not in without_llms] == [k for k, c in enumerate(CLAIMS) if "llm" in (c.a.kind, c.b and c.b.kind)]
    assert sum(c.source == "McKenna et al. 2023" for c in CLAIMS) >= 3
    levyholt_only = runnable_claims([], [])
    assert levyholt_only and all(CLAIMS[k].a.kind == "levyholt" for k in levyholt_only)
    assert len(levyholt_only) == sum(c.a.kind == "levyholt" and (c.b is None or c.b.kind == "levyholt") for c in CLAIMS)


def test_the_reading_is_spliced_between_the_markers_and_nowhere_else():
    from directional_inference.tables.findings import READING_END, READING_START, splice_reading

    document = f"# Title\n\n## Reading\n{READING_START}\nold text\n{READING_END}\n\nMore.\n"
    assert splice_reading(document, "- **supported** (Table 1): X.\n") == (
        f"# Title\n\n## Reading\n{READING_START}\n- **supported** (Table 1): X.\n{READING_END}\n\nMore.\n"
    )
    with pytest.raises(ValueError, match="findings:start"):
        splice_reading("no block", "x")


def test_the_readme_summary_is_read_off_the_findings_table(tmp_path):
    """--summary renders results/findings.csv as written by the rule (strings, empty cells for missing numbers): the
    metrics named, one line per claim with its verdict and both sides, and the verdict counts."""
    from directional_inference.tables.common import write_csv
    from directional_inference.tables.findings import READING_END, READING_START, main

    rows = [
        [
            "A beats B",
            "Table 1",
            "tiny",
            "greater",
            "A",
            "B",
            "77.7",
            "46.4",
            "60.0",
            "54.4",
            "65.2",
            "1.2",
            "0.6",
            "5.0",
            "2.0",
            "58.8",
            "52.0",
            "64.1",
            "supported",
            "",
        ],
        [
            "C is near chance",
            "Table 3",
            "tiny",
            "near_chance",
            "C",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "1.9",
            "",
            "",
            "",
            "inconclusive",
            "C: every entry has the same score",
        ],
    ]
    table = tmp_path / "findings.csv"
    write_csv(table, HEADER, rows)
    readme = tmp_path / "README.md"
    readme.write_text(f"# R\n{READING_START}\nold\n{READING_END}\n")
    assert main([str(readme), str(table), "--summary"]) == 0
    assert readme.read_text() == (
        f"# R\n{READING_START}\n"
        "Ours: tie-aware AUCnorm %; the paper's: its published AUCnorm % (the authors' rule, the tables' \"authors'\" columns); "
        "the S&S and hypothesis-only models are tiny's (the first of `training.language_models`).\n\n"
        "- *supported*: A beats B (Table 1: ours 60.0 vs 1.2, paper 77.7 vs 46.4).\n"
        "- *inconclusive*: C is near chance (Table 3: ours no number, paper -).\n"
        "\nIn all: 1 supported, 0 contradicted, 1 inconclusive.\n"
        f"{READING_END}\n"
    )


def test_the_reading_names_the_metric_and_what_each_difference_subtracts():
    """A difference is read in the order it names (A minus B; a claim against chance: A minus the chance mean), and the
    reading says that ours are tie-aware and the paper's its published AUCnorm."""
    row = dict.fromkeys(HEADER, "1.0") | {
        "claim": "S&S beats 'S&S",
        "source": "Table 2",
        "kind": "greater",
        "a": "S&S",
        "b": "'S&S",
        "difference": "-5.8",
        "verdict": "inconclusive",
        "reason": "",
    }
    near = row | {"kind": "near_chance", "a": "H", "b": ""}
    reading = findings_markdown(HEADER, [list(row.values()), list(near.values())], "default")
    assert "ours: tie-aware AUCnorm %; the paper's: its published AUCnorm %" in reading
    assert "difference (S&S minus 'S&S) -5.8 [1.0, 1.0]" in reading
    assert "difference (H minus the chance mean and the claim's margin)" in reading


def test_a_claim_on_fine_tuned_models_names_its_language_model_and_the_reading_says_which():
    """A claim reading an S&S or hypothesis-only model (Table 3's BoOQA one included) names the language model given;
    a claim on graphs or LLM predictions alone names none; the reading says whose models the claims read."""
    rng = np.random.default_rng(3)
    labels = rng.random(200) < 0.4
    scores = frame(labels + rng.random(200), labels)
    llm_claim = Claim(
        "GPT-4 beats davinci",
        "McKenna et al. 2023",
        "greater",
        Scores("llm", ("directional_whole", "g", "s"), "g"),
        None,
        Scores("llm", ("directional_whole", "d", "s"), "d"),
        None,
    )
    fine_tuned = [
        Claim("S&S is above chance", "Table 1", "above_chance", Scores("levyholt", ("sns", "full", "full"), "S&S"), None),
        Claim("H-only on BoOQA is near chance", "Table 3", "near_chance", Scores("robustness", ("en", "booqa"), "H"), None),
        Claim(
            "S&S Full beats BInc",
            "Table 5",
            "greater",
            Scores("booqa", ("en", "graph_binc"), "BInc"),
            None,
            Scores("booqa", ("en", "sns_full"), "S&S Full"),
            None,
        ),
    ]
    rows = [
        claim_row(claim, {s: scores for s in (claim.a, claim.b) if s}, EVALUATION, record=lambda s: None, evidence_median=None, lm="mine")
        for claim in [llm_claim, *fine_tuned]
    ]
    assert [dict(zip(HEADER, row))["model"] for row in rows] == ["", "mine", "mine", "mine"]
    assert "the S&S and hypothesis-only models are mine's (the first of `training.language_models`)" in findings_markdown(HEADER, rows, "smoke")

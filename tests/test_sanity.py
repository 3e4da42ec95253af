"""Cases any entailment model must get right, and how a selected model's check is judged and summarised."""

from __future__ import annotations

import pytest

from directional_inference.sns.sanity import COLUMNS, THRESHOLDS, check_model, describe, format_rows, judge, read_summary, sanity_cases, summarise


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_kind_has_cases_and_identity_pairs_are_identities(lang):
    cases = sanity_cases(lang)
    kinds = [c.kind for c in cases]
    assert set(kinds) == set(THRESHOLDS) and kinds.count("identity") >= 10
    for case in cases:
        assert (case.entry.premise == case.entry.hypothesis) == (case.kind == "identity")
        assert case.entry.label == (case.kind != "non_entailment")
    assert len({(c.entry.premise, c.entry.hypothesis) for c in cases}) == len(cases)  # no case twice


def test_a_model_that_says_yes_to_everything_fails_only_non_entailment():
    cases = sanity_cases("en")
    summary = summarise(judge(cases, [0.5] * len(cases)))
    assert {kind: k["share"] for kind, k in summary["kinds"].items()} == {"identity": 1.0, "paraphrase": 1.0, "non_entailment": 0.0}
    assert not summary["passed"] and describe(summary) == "identity 100% paraphrase 100% non_entailment 0%: FAILED (non_entailment below threshold)"


def test_the_identity_threshold_is_80_percent_with_score_zero_not_entailed():
    cases = sanity_cases("en")
    identities = [k for k, c in enumerate(cases) if c.kind == "identity"]
    n = len(identities)
    right = -(-4 * n // 5)  # the fewest right that reach 80%
    scores = [0.5 if c.entry.label else -0.5 for c in cases]
    for k in identities[right:]:
        scores[k] = 0.0  # a score of 0 is not "entailed"
    assert summarise(judge(cases, scores))["kinds"]["identity"]["passed"]
    scores[identities[0]] = -0.1
    summary = summarise(judge(cases, scores))
    assert summary["kinds"]["identity"]["share"] == (right - 1) / n and not summary["kinds"]["identity"]["passed"]


def test_check_model_scores_every_case_and_the_written_file_reads_back(tmp_path):
    from directional_inference.resources.models import build_tiny_model
    from directional_inference.sns.prompts import prompt_sentences

    texts = [s for c in sanity_cases("en") for part in prompt_sentences(c.entry.premise, c.entry.hypothesis, symmetric=False) for s in part]
    model = build_tiny_model({"hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 300}, texts, tmp_path / "tiny", seed=3)
    rows, summary = check_model(model, max_length=48, symmetric=False, lang="en", precision="fp32")
    assert len(rows) == len(sanity_cases("en")) and all(-1 < float(row[4]) < 1 for row in rows)
    (tmp_path / "sanity.csv").write_text(format_rows(rows))
    assert (tmp_path / "sanity.csv").read_text().splitlines()[0] == ",".join(COLUMNS)
    assert read_summary(tmp_path / "sanity.csv") == summary

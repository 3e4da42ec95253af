"""A changed config value re-runs exactly the jobs that read it, and the jobs downstream of them: dry runs on the
finished smoke run (Snakemake tracks each job's params and its set of input files)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import SMOKE, run_snakemake

pytestmark = pytest.mark.workflow

DIRECT = ("Params have changed since last execution", "Set of input files has changed since last execution")


def planned_jobs(workdir: Path, change: dict, overlay: Path) -> list[tuple[str, str, str]]:
    """(rule, first output, reason) of every job a dry run with ``change`` laid over the smoke config plans."""
    overlay.write_text(yaml.safe_dump(change))
    result = run_snakemake(workdir, "-n", *SMOKE, str(overlay))
    jobs = []
    for block in re.split(r"\n(?=(?:local)?rule \w+:\n)", result.stdout + result.stderr):
        rule = re.match(r"(?:local)?rule (\w+):\n", block)
        if rule and rule.group(1) != "all":
            output = re.search(r"^    output: ([^,\n]*)", block, re.M)
            reason = re.search(r"^    reason: (.*)$", block, re.M)
            jobs.append((rule.group(1), output.group(1) if output else "", reason.group(1) if reason else ""))
    return jobs


EN_LM = [f"results/booqa_scores/en/{split}/lm_{r}.parquet" for split in ("dev", "test") for r in ("rel", "sent", "tfidf")]
# table5 (test) and table15 (dev) hold LM rel; table16 (test) LM tfidf/sent/rel; figure3 draws LM rel; metrics.json
# holds every table; the findings compare LM rel with S&S Full on test
LM_DOWNSTREAM = {"make_booqa_table": 3, "plot_figure3": 1, "collect_metrics": 1, "make_findings": 1}

# (change, planned jobs per rule, first output of each job that reads the changed value and whose inputs stay)
CHANGES = {
    # smoke sets booqa.wsd: first_sense, so no job reads the encoder of the gloss-similarity sense choice (the whole
    # booqa section used to be a param of every BoOQA rule: positives, negatives, sampling and validation re-ran)
    "booqa.wsd_encoder": ({"booqa": {"wsd_encoder": "tiny"}}, {}, []),
    # the four graphs (en, zh x dev, test), each one part (graphs.jobs) and its gathering; their 16 graph scorings
    # (4 measures x 2 splits x 2 languages); Table 17
    # (English test graph), Tables 5 and 15 (graph rows; Table 16 has none), Figure 3 (graph BInc), metrics.json and the
    # findings (EG BInc against S&S Full)
    "graphs.min_arg_pairs_per_predicate": (
        {"graphs": {"min_arg_pairs_per_predicate": 3}},
        {
            "build_entailment_graph": 4,
            "gather_entailment_graph": 4,
            "score_booqa": 16,
            "make_table17": 1,
            "make_booqa_table": 2,
            "plot_figure3": 1,
            "collect_metrics": 1,
            "make_findings": 1,
        },
        [f"results/{lang}/graphs/for_{split}.part-0.parquet" for lang in ("en", "zh") for split in ("dev", "test")],
    ),
    # LM methods run for English only (evaluation.model_languages: [en]): 3 retrievals x 2 splits
    "evaluation.lm_encoder": ({"evaluation": {"lm_encoder": "minilm"}}, {"score_booqa": 6, **LM_DOWNSTREAM}, EN_LM),
    # read by score_booqa through snakemake.config before: a changed pooling re-ran nothing; now the rel variant's
    # pooling re-runs the rel scorings of both splits, and not sent or tfidf
    "evaluation.lm_pooling": (
        {"evaluation": {"lm_pooling": {"rel": "mean"}}},
        {"score_booqa": 2, **LM_DOWNSTREAM},
        [f"results/booqa_scores/en/{split}/lm_rel.parquet" for split in ("dev", "test")],
    ),
    # every LevyHolt file: 18 searches of one trial each (S&S on 7 subsets + SherLIiC, 'S&S on 3, H-only on 7), the
    # 17 of them compared on LevyHolt test sets (each scores all its test sets in one job; 'S&S Full serves BoOQA
    # only), the LevyHolt tables; the 4 S&S BoOQA methods x 2 splits (English);
    # Table 3's three LevyHolt H-only scorings (its BoOQA-trained one does not read LevyHolt), Table 3 and its generality file;
    # Tables 5, 15, 16 (S&S rows) and Figure 3 (S&S Full); the sanity check of the 11 S&S and 'S&S models (H-only: none);
    # the 18 model cards; the findings; the whole Directional test, the tiny LLM's scores of it and of this run's Full and
    # SherLIiC tests (llm.test_sets), their joins and the LLM table
    "levyholt.split_seed": (
        {"levyholt": {"split_seed": 1}},
        {
            "build_levyholt_whole_tests": 1,
            "score_llm_levyholt": 1,
            "join_llm_predictions": 1,
            "make_llm_table": 1,
            "score_llm_run_test": 2,
            "join_llm_run_test": 2,
            "build_levyholt_subsets": 1,
            "train_sns_trial": 18,
            "select_sns_model": 18,
            "check_sns_model": 11,
            "score_levyholt": 17,
            "write_model_card": 18,
            "make_levyholt_table": 5,
            "plot_mesh_figure": 2,
            "collect_metrics": 1,
            "write_pr_points": 1,
            "score_booqa": 8,
            "score_booqa_hyponly": 3,
            "make_table3": 1,
            "make_table3_generality": 1,
            "make_booqa_table": 3,
            "plot_figure3": 1,
            "make_findings": 1,
        },
        ["results/levyholt/subgroups.csv", "results/levyholt/whole/directional/test.tsv"],
    ),
    # the Chinese corpus and everything Chinese after it: 2 relation shards and their merge, the BoOQA chain, 2 graphs, evidence of
    # both splits and their 8 graph scorings (no Chinese LM or S&S); Table 4, Tables 5/15 (scores) and 16 (it reads
    # every language's validation.json), Figure 3, metrics.json
    "corpus.zh.window_days": (
        {"corpus": {"zh": {"window_days": 15}}},
        {
            "build_corpus": 1,
            "extract_relations": 2,
            "merge_relations": 1,
            "select_booqa_positives": 1,
            "generate_booqa_negatives": 1,
            "sample_booqa": 1,
            "write_booqa_card": 1,
            "validate_booqa": 1,
            "build_booqa_hyponly": 1,
            "build_entailment_graph": 2,
            "gather_entailment_graph": 2,
            "retrieve_booqa_evidence": 2,
            "score_booqa": 8,
            "make_table4": 1,
            "make_booqa_table": 3,
            "plot_figure3": 1,
            "collect_metrics": 1,
        },
        ["results/zh/corpus/articles.parquet"],
    ),
    # spaCy's batch size is read by the two English shards only; then everything English after relations (their merge,
    # the BoOQA chain, 2 graphs, both evidence retrievals of 2 splits, 11 methods x 2 splits and the LLM on test), the
    # BoOQA H-only model
    # (1 trial, selection, card) and its 4 scorings, Tables 3 (and its generality file), 4, 5, 15, 16, 17, Figure 3 and
    # the findings
    "relations.batch_size": (
        {"relations": {"batch_size": 32}},
        {
            "extract_relations": 2,
            "merge_relations": 1,
            "select_booqa_positives": 1,
            "generate_booqa_negatives": 1,
            "sample_booqa": 1,
            "write_booqa_card": 1,
            "validate_booqa": 1,
            "build_booqa_hyponly": 1,
            "build_entailment_graph": 2,
            "gather_entailment_graph": 2,
            "retrieve_booqa_evidence": 2,
            "retrieve_tfidf_evidence": 2,
            "score_booqa": 23,
            "train_booqa_hyponly_trial": 1,
            "select_booqa_hyponly_model": 1,
            "write_booqa_hyponly_card": 1,
            "score_booqa_hyponly": 4,
            "make_table3": 1,
            "make_table3_generality": 1,
            "make_table4": 1,
            "make_booqa_table": 3,
            "make_table17": 1,
            "plot_figure3": 1,
            "collect_metrics": 1,
            "make_findings": 1,
        },
        ["results/en/relations/0.parquet", "results/en/relations/1.parquet"],
    ),
    # English sampling only (Chinese sets its own dev share in booqa.overrides.zh; positives and negatives stay); the
    # card, which lists the value; everything English after the splits: 2 graphs, evidence, 23 scorings (the LLM on test), Table 3's
    # chain (its generality file too), Tables 3, 4, 5, 15, 16, 17, Figure 3, metrics.json, the findings
    "booqa.dev_share": (
        {"booqa": {"dev_share": 0.4}},
        {
            "sample_booqa": 1,
            "write_booqa_card": 1,
            "validate_booqa": 1,
            "build_booqa_hyponly": 1,
            "build_entailment_graph": 2,
            "gather_entailment_graph": 2,
            "retrieve_booqa_evidence": 2,
            "retrieve_tfidf_evidence": 2,
            "score_booqa": 23,
            "train_booqa_hyponly_trial": 1,
            "select_booqa_hyponly_model": 1,
            "write_booqa_hyponly_card": 1,
            "score_booqa_hyponly": 4,
            "make_table3": 1,
            "make_table3_generality": 1,
            "make_table4": 1,
            "make_booqa_table": 3,
            "make_table17": 1,
            "plot_figure3": 1,
            "collect_metrics": 1,
            "make_findings": 1,
        },
        ["results/en/booqa/dev.parquet"],
    ),
}


@pytest.mark.parametrize("key", list(CHANGES))
def test_a_changed_value_reruns_exactly_the_jobs_that_read_it(smoke_repo, tmp_path, key):
    change, expected, direct = CHANGES[key]
    jobs = planned_jobs(smoke_repo, change, tmp_path / "change.yaml")
    assert dict(Counter(rule for rule, _, _ in jobs)) == expected
    # a job whose inputs are re-made is reported for that reason alone: "direct" jobs are those whose inputs stay
    assert sorted(output for _, output, reason in jobs if reason.startswith(DIRECT)) == sorted(direct)

"""The phases of the workflow: one list that the Snakefile and the DVC pipeline (dvc.yaml) are both built from.

A phase owns a set of rules (one ``rules/<phase>.smk``), the outputs DVC versions, the phases it reads from,
the config keys it depends on and the package modules its code lives in.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Phase:
    name: str
    rules: tuple[str, ...]
    outs: tuple[str, ...]
    upstream: tuple[str, ...]
    params: tuple[str, ...]  # dotted config keys (a section name stands for the whole section)
    modules: tuple[str, ...]  # files under src/directional_inference/
    metrics: tuple[str, ...] = ()
    plots: tuple[str, ...] = ()
    shared_scripts: tuple[str, ...] = ()  # scripts/<name>.py run by rules of another name

    @property
    def target_rule(self) -> str:
        """The Snakemake rule whose inputs are every output of the phase."""
        return f"{self.name}_phase"


COMMON_MODULES = ("__init__.py", "atomic.py", "errors.py", "rulelog.py", "phases.py", "progress.py")

PHASES = (
    Phase(
        "resources",
        rules=("fetch_dataset", "build_wordnet", "collect_clue_news", "collect_chinese_levyholt", "fetch_model", "build_tiny_model"),
        outs=("resources",),
        upstream=(),
        params=("resources", "models", "seed"),
        modules=("inputs.py", "fetch.py", "wordnet.py", "models.py", "sns/prompts.py", "data/inputs.tsv"),
    ),
    Phase(
        "corpus",
        rules=("build_corpus",),
        outs=("results/en/corpus", "results/zh/corpus"),
        upstream=("resources",),
        params=("corpus",),
        modules=("corpus.py",),
    ),
    Phase(
        "relations",
        rules=("extract_relations",),
        outs=("results/en/relations", "results/zh/relations"),
        upstream=("corpus",),
        params=("relations",),
        modules=("relations.py", "chinese.py"),
    ),
    Phase(
        "booqa",
        rules=("select_booqa_positives", "generate_booqa_negatives", "sample_booqa", "write_booqa_card", "validate_booqa", "build_booqa_hyponly"),
        outs=("results/en/booqa", "results/zh/booqa", "results/en/booqa_hyponly", "results/zh/booqa_hyponly"),
        upstream=("resources", "corpus", "relations"),
        # scale: the dataset card names it; evidence_cap: the card's evidence per entry
        params=("seed", "booqa", "hypothesis_only", "scale", "evaluation.evidence_cap"),
        modules=("booqa/__init__.py", "booqa/positives.py", "booqa/senses.py", "booqa/negatives.py", "booqa/sampling.py",
                 "booqa/validation.py", "booqa/release.py", "booqa/hyponly.py", "booqa_config.py", "relations.py", "chinese.py", "encoders.py",
                 "wordnet.py", "levyholt.py", "evidence.py"),
    ),
    Phase(
        "levyholt",
        rules=("build_levyholt_subsets", "build_chinese_levyholt_subsets"),
        outs=("results/levyholt",),
        upstream=("resources",),
        params=("levyholt", "hypothesis_only.premise"),
        modules=("levyholt.py",),
    ),
    Phase(
        "training",
        rules=("draw_hyperparameters", "train_sns_trial", "select_sns_model", "check_sns_model"),
        outs=("results/models",),
        upstream=("resources", "levyholt"),
        params=("seed", "training"),
        modules=("sns/__init__.py", "sns/prompts.py", "sns/model.py", "sns/training.py", "sns/search.py", "sns/sanity.py", "compute.py", "metrics.py",
                 "levyholt.py", "experiments.py", "scores.py"),
    ),
    Phase(
        "graphs",
        rules=("build_entailment_graph",),
        outs=("results/en/graphs", "results/zh/graphs"),
        upstream=("corpus", "relations", "booqa"),
        params=("graphs.min_arg_pairs_per_predicate", "graphs.min_predicates_per_arg_pair"),
        modules=("graphs.py", "relations.py", "chinese.py"),
    ),
    Phase(
        "evaluation",
        rules=("score_levyholt",),
        outs=("results/scores",),
        upstream=("levyholt", "training"),
        params=("training.max_length", "training.precision", "training.threads"),
        modules=("sns/__init__.py", "sns/prompts.py", "sns/model.py", "sns/training.py", "sns/search.py", "compute.py", "levyholt.py", "experiments.py",
                 "scores.py"),
    ),
    Phase(
        "robustness",
        rules=("train_booqa_hyponly_trial", "select_booqa_hyponly_model", "score_booqa_hyponly"),
        outs=("results/robustness",),
        upstream=("resources", "booqa", "training"),
        params=("seed", "training"),
        modules=("sns/__init__.py", "sns/prompts.py", "sns/model.py", "sns/training.py", "sns/search.py", "compute.py", "metrics.py", "levyholt.py",
                 "experiments.py", "scores.py"),
        shared_scripts=("train_sns_trial", "select_sns_model", "score_levyholt"),
    ),
    Phase(
        "booqa_evaluation",
        rules=("retrieve_booqa_evidence", "retrieve_tfidf_evidence", "score_booqa"),
        outs=("results/booqa_scores", "results/en/evidence", "results/zh/evidence"),
        upstream=("resources", "corpus", "relations", "booqa", "training", "graphs"),
        params=("seed", "training.max_length", "training.precision", "training.threads", "evaluation.sym_sns_prompts", "evaluation.evidence_cap", "evaluation.evidence_cap_ss_zh", "evaluation.model_languages",
                "evaluation.lm_encoder_zh", "training.language_models_zh",
                "evaluation.lm_encoder", "evaluation.lm_retrieval", "evaluation.lm_pooling", "evaluation.lm_window", "evaluation.tfidf_top_articles",
                "evaluation.tfidf_sentences_per_article", "graphs.fuzzy_backoff", "graphs.fuzzy_top", "graphs.fuzzy_min_count", "graphs.measures"),
        modules=("sns/__init__.py", "sns/prompts.py", "sns/model.py", "sns/training.py", "sns/search.py", "compute.py", "levyholt.py", "evidence.py",
                 "booqa_scoring.py", "booqa_methods.py", "encoders.py", "relations.py", "chinese.py", "booqa/__init__.py", "booqa/negatives.py",
                 "booqa/senses.py", "wordnet.py", "metrics.py"),
    ),
    Phase(
        "tables",
        rules=("make_levyholt_table", "plot_mesh_figure", "collect_metrics", "write_pr_points", "make_table4", "make_booqa_table",
               "make_table3", "plot_figure3", "make_table17", "make_findings"),
        outs=tuple(f"results/{name}" for name in (
            "table1.csv", "table2.csv", "table3.csv", "table4.csv", "table5.csv", "table6.csv", "table15.csv", "table16.csv", "table17.csv",
            "figure1.csv", "figure2.csv", "findings.csv", "findings.md",
            "figure1.png", "figure1.svg", "figure2.png", "figure2.svg", "figure3.png", "figure3.svg",
        )),
        upstream=("resources", "training", "evaluation", "booqa", "graphs", "booqa_evaluation", "robustness"),
        params=("scale", "seed", "evaluation.auc_precision_floor", "evaluation.bootstrap_resamples", "evaluation.model_languages", "evaluation.lm_retrieval", "training.language_models", "training.language_models_zh",
                "evaluation.lm_encoder", "evaluation.lm_encoder_zh",
                "levyholt.source", "levyholt.authors_files_for",
                "graphs.measures", "graphs.fuzzy_backoff", "graphs.fuzzy_top", "graphs.fuzzy_min_count", "relations.spacy_model"),
        modules=("tables/__init__.py", "tables/common.py", "tables/levyholt.py", "tables/booqa.py", "tables/figures.py", "tables/summary.py",
                 "metrics.py", "paper_values.py", "experiments.py", "booqa/release.py", "booqa_methods.py",
                 "levyholt_graphs.py", "booqa_scoring.py", "relations.py", "chinese.py", "levyholt.py", "models.py", "sns/sanity.py", "tables/findings.py"),
        metrics=("results/metrics.json",),
        plots=("results/pr_curves.csv", "results/booqa_pr_curves.csv"),
    ),
)


def phase(name: str) -> Phase:
    for item in PHASES:
        if item.name == name:
            return item
    raise KeyError(f"unknown phase {name!r}; phases: {', '.join(p.name for p in PHASES)}")

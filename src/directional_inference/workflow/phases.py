"""The phases of the workflow: one list that the Snakefile and the DVC pipeline (dvc.yaml) are both built from.

A phase owns a set of rules (one ``rules/<phase>.smk``), the outputs DVC versions, the phases it reads from
and the config keys it depends on. The package modules its stage depends on are not listed here: dvc_pipeline
computes them from what the phase's scripts import.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import layout


@dataclass(frozen=True)
class Phase:
    name: str
    rules: tuple[str, ...]
    outs: tuple[str, ...]
    upstream: tuple[str, ...]
    params: tuple[str, ...]  # dotted config keys (a section name stands for the whole section)
    metrics: tuple[str, ...] = ()
    plots: tuple[str, ...] = ()
    shared_scripts: tuple[str, ...] = ()  # scripts/<name>.py run by rules of another name
    # package modules that the rules' helpers read while Snakemake plans the phase's jobs (its scripts'
    # imports are found by dvc_pipeline itself)
    planning_modules: tuple[str, ...] = ()

    @property
    def target_rule(self) -> str:
        """The Snakemake rule whose inputs are every output of the phase."""
        return f"{self.name}_phase"


MODEL_CARDS = layout.result("model_cards")  # one README.md per selected model, mirroring results/models/<lm>/<variant>/<subset>

PHASES = (
    Phase(
        "resources",
        rules=(
            "fetch_dataset",
            "fetch_newscrawl_year",
            "gather_newscrawl",
            "build_wordnet",
            "collect_clue_news",
            "collect_chinese_levyholt",
            "fetch_model",
            "fetch_llm",
            "build_tiny_model",
        ),
        outs=("resources",),
        upstream=(),
        # llm.models, llm.scorers: which hub LLMs fetch_llm downloads
        params=("resources", "models", "seed", "llm.models", "llm.scorers"),
        planning_modules=("resources/models.py",),  # which LLMs are hub ids (fetch_llm)
    ),
    Phase(
        "corpus",
        rules=("build_corpus", "describe_imported_corpus"),
        outs=(layout.language_results("en", "corpus"), layout.language_results("zh", "corpus")),
        upstream=("resources",),
        params=("corpus",),
    ),
    Phase(
        "relations",
        rules=("extract_relations", "import_relations", "merge_relations"),
        outs=(layout.language_results("en", "relations"), layout.language_results("zh", "relations")),
        upstream=("corpus",),
        params=("relations",),
    ),
    Phase(
        "booqa",
        rules=("select_booqa_positives", "generate_booqa_negatives", "sample_booqa", "write_booqa_card", "validate_booqa", "build_booqa_hyponly"),
        outs=(
            layout.language_results("en", "booqa"),
            layout.language_results("zh", "booqa"),
            layout.language_results("en", "booqa_hyponly"),
            layout.language_results("zh", "booqa_hyponly"),
        ),
        upstream=("resources", "corpus", "relations"),
        # scale: the dataset card names it; evidence_cap: the card's evidence per entry
        params=("seed", "booqa", "hypothesis_only", "scale", "evaluation.evidence_cap"),
        planning_modules=("booqa/settings.py",),
    ),
    Phase(
        "levyholt",
        rules=("build_levyholt_subsets", "build_levyholt_whole_tests", "build_chinese_levyholt_subsets"),
        outs=(layout.result("levyholt"),),
        upstream=("resources",),
        params=("levyholt", "hypothesis_only.premise"),
    ),
    Phase(
        "training",
        rules=("draw_hyperparameters", "read_authors_trials", "train_sns_trial", "select_sns_model", "check_sns_model"),
        outs=(layout.result("models"),),
        upstream=("resources", "levyholt"),
        params=("seed", "training"),
        planning_modules=("levyholt/experiments.py", "sns/published.py"),
    ),
    Phase(
        "graphs",
        rules=("build_entailment_graph", "gather_entailment_graph", "import_graph_files"),
        outs=(layout.language_results("en", "graphs"), layout.language_results("zh", "graphs")),
        upstream=("corpus", "relations", "booqa"),
        params=("graphs.min_arg_pairs_per_predicate", "graphs.min_predicates_per_arg_pair", "graphs.from_files"),
    ),
    Phase(
        "levyholt_evaluation",
        rules=("score_levyholt",),
        outs=(layout.result("scores"),),
        upstream=("levyholt", "training"),
        params=("training.max_length", "training.precision", "training.threads", "training.every_setting_for_every_model"),
        planning_modules=("levyholt/experiments.py",),
    ),
    Phase(
        "robustness",
        rules=("train_booqa_hyponly_trial", "select_booqa_hyponly_model", "score_booqa_hyponly"),
        outs=(layout.result("robustness"),),
        upstream=("resources", "booqa", "training"),
        params=("seed", "training"),
        shared_scripts=("train_sns_trial", "select_sns_model", "score_levyholt"),
        planning_modules=("levyholt/experiments.py", "sns/published.py"),
    ),
    Phase(
        "booqa_evaluation",
        rules=("retrieve_booqa_evidence", "retrieve_tfidf_evidence", "score_booqa", "score_booqa_part", "gather_booqa_scores"),
        outs=(layout.result("booqa_scores"), layout.language_results("en", "evidence"), layout.language_results("zh", "evidence")),
        upstream=("resources", "corpus", "relations", "booqa", "training", "graphs", "llm_evaluation"),
        params=(
            "seed",
            "training.max_length",
            "training.precision",
            "training.threads",
            "evaluation.sym_sns_prompts",
            "evaluation.evidence_cap",
            "evaluation.evidence_cap_ss_zh",
            "evaluation.model_languages",
            "evaluation.lm_encoder_zh",
            "training.language_models_zh",
            "training.sns_methods_zh",
            "training.booqa_language_models",
            "evaluation.lm_encoder",
            "evaluation.lm_retrieval",
            "evaluation.lm_pooling",
            "evaluation.lm_window",
            "evaluation.tfidf_top_articles",
            "evaluation.tfidf_sentences_per_article",
            "graphs.fuzzy_backoff",
            "graphs.fuzzy_top",
            "graphs.fuzzy_min_count",
            "graphs.measures",
            "graphs.from_files",
            "evaluation.booqa_predictions",
            "llm.scorers",
            "llm.batch_size",
            "llm.precision",
            "llm.answer_rule",
        ),
        planning_modules=("resources/models.py",),  # where the BoOQA LLM is read from (a hub id's download)
    ),
    Phase(
        "llm_evaluation",
        rules=(
            "convert_released_predictions",
            "prepare_llm",
            "score_llm_levyholt",
            "join_llm_predictions",
            "score_llm_run_test",
            "join_llm_run_test",
        ),
        outs=(layout.result("llm"),),
        upstream=("resources", "levyholt"),
        params=("seed", "llm", "training.threads"),
        planning_modules=("resources/models.py",),  # which LLMs prepare_llm makes and which are read from their download
    ),
    Phase(
        "tables",
        rules=(
            "make_levyholt_table",
            "plot_mesh_figure",
            "collect_metrics",
            "write_pr_points",
            "make_table4",
            "make_booqa_table",
            "make_table3",
            "make_table3_generality",
            "plot_figure3",
            "make_table17",
            "make_llm_table",
            "make_findings",
            "write_model_card",
            "write_booqa_hyponly_card",
        ),
        outs=tuple(
            layout.result(name)
            for name in (
                "table1.csv",
                "table2.csv",
                "table3.csv",
                "table3_generality.csv",
                "table4.csv",
                "table5.csv",
                "table6.csv",
                "table15.csv",
                "table16.csv",
                "table17.csv",
                "figure1.csv",
                "figure2.csv",
                "findings.csv",
                "findings.md",
                "table_llm.csv",
                "figure1.png",
                "figure1.svg",
                "figure2.png",
                "figure2.svg",
                "figure3.png",
                "figure3.svg",
                "figure_llm.png",
                "figure_llm.svg",
            )
        )
        + (MODEL_CARDS,),
        upstream=("resources", "training", "levyholt_evaluation", "booqa", "graphs", "booqa_evaluation", "robustness", "llm_evaluation"),
        params=(
            "scale",
            "seed",
            "evaluation.auc_precision_floor",
            "evaluation.bootstrap_resamples",
            "evaluation.model_languages",
            "evaluation.lm_retrieval",
            "training.language_models",
            "training.language_models_zh",
            "training.sns_methods_zh",
            "training.booqa_language_models",
            "training.every_setting_for_every_model",
            "evaluation.lm_encoder",
            "evaluation.lm_encoder_zh",
            "levyholt.source",
            "levyholt.authors_files_for",
            "graphs.measures",
            "graphs.fuzzy_backoff",
            "graphs.fuzzy_top",
            "graphs.fuzzy_min_count",
            "graphs.from_files",
            "evaluation.booqa_predictions",
            "relations.spacy_model",
            "llm",
        ),
        metrics=(layout.result("metrics.json"),),
        plots=(layout.result("pr_curves.csv"), layout.result("booqa_pr_curves.csv")),
        planning_modules=("levyholt/experiments.py", "resources/models.py", "evaluation/methods.py", "sns/published.py"),
    ),
)


def phase(name: str) -> Phase:
    for item in PHASES:
        if item.name == name:
            return item
    raise KeyError(f"unknown phase {name!r}; phases: {', '.join(p.name for p in PHASES)}")


# The tables of results/ (the paper's, ours and the findings), as the tables phase lists its outputs
TABLE_FILES = tuple(
    name for out in phase("tables").outs if (name := out.removeprefix(layout.result(""))).endswith(".csv") and not name.startswith("figure")
)

"""The phases of the workflow: one list that the Snakefile and the DVC pipeline (dvc.yaml) are both built from.

A phase owns the rules of its file (``rules/<phase>.smk``, read from there: a rule is named once), the outputs DVC
versions, the phases it reads from and the config keys it depends on. The package modules its stage depends on are not listed here: dvc_pipeline
computes them from what the phase's scripts import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import layout

# The checkout the package runs from (bin/setup installs it in place): its rules/ holds a file of rules per phase
CHECKOUT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class Phase:
    name: str
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
    def rules(self) -> tuple[str, ...]:
        """The rules the phase's file defines, in the order it defines them."""
        return self.rules_in(CHECKOUT)

    def rules_in(self, root: str | Path) -> tuple[str, ...]:
        """The rules of the phase's file in the checkout ``root`` (``rule <name>:`` lines of rules/<phase>.smk)."""
        return tuple(rule_blocks(Path(root) / "rules" / f"{self.name}.smk"))

    @property
    def target_rule(self) -> str:
        """The Snakemake rule whose inputs are every output of the phase."""
        return f"{self.name}_phase"


def rule_blocks(smk: Path) -> dict[str, str]:
    """Each rule of a rule file (``rule <name>:``) and its text up to the next rule, in the file's order."""
    blocks = re.split(r"^(?=rule \w+:)", smk.read_text(encoding="utf-8"), flags=re.M)
    return {match.group(1): block for block in blocks if (match := re.match(r"rule (\w+):", block))}


@lru_cache
def corpus_wide_rules(root: str | Path = CHECKOUT) -> frozenset[str]:
    """The rules whose resources are a corpus-wide demand (``**corpus_job(Demand(...))`` in their block of rules/*.smk:
    memory, disk and time from their input's size, time with job_resources.TIME_MARGIN's margin)."""
    return frozenset(
        rule for smk in sorted((Path(root) / "rules").glob("*.smk")) for rule, block in rule_blocks(smk).items() if "**corpus_job(" in block
    )


# What the jobs of some rules do, for the plan, the forecasts and their pages (tools/): train one trial of a search,
# or score with a model (BoOQA, LevyHolt and the model checks, LLMs). These are the rules that ask for a GPU when the run
# offers one (their gpu resource in rules/*.smk), which tests/test_phases.py holds them to.
TRIAL_RULES = ("train_sns_trial", "train_booqa_hyponly_trial")
BOOQA_SCORING_RULES = ("score_booqa", "score_booqa_part", "score_booqa_hyponly")
LEVYHOLT_SCORING_RULES = ("score_levyholt", "check_sns_model")
LLM_SCORING_RULES = ("score_llm_levyholt", "score_llm_run_test")
MODEL_SCORING_RULES = BOOQA_SCORING_RULES + LEVYHOLT_SCORING_RULES + LLM_SCORING_RULES
MODEL_RULES = TRIAL_RULES + MODEL_SCORING_RULES

MODEL_CARDS = layout.result("model_cards")  # one README.md per selected model, mirroring results/models/<lm>/<variant>/<subset>

PHASES = (
    Phase(
        "resources",
        outs=("resources",),
        upstream=(),
        # llm.models, llm.scorers: which hub LLMs fetch_llm downloads
        params=("resources", "models", "seed", "llm.models", "llm.scorers"),
        planning_modules=("resources/models.py",),  # which LLMs are hub ids (fetch_llm)
    ),
    Phase(
        "corpus",
        outs=(layout.language_results("en", "corpus"), layout.language_results("zh", "corpus")),
        upstream=("resources",),
        params=("corpus",),
    ),
    Phase(
        "relations",
        outs=(layout.language_results("en", "relations"), layout.language_results("zh", "relations")),
        upstream=("corpus",),
        params=("relations",),
    ),
    Phase(
        "booqa",
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
        outs=(layout.result("levyholt"),),
        upstream=("resources",),
        params=("levyholt", "hypothesis_only.premise"),
    ),
    Phase(
        "training",
        outs=(layout.result("models"),),
        upstream=("resources", "levyholt"),
        params=("seed", "training"),
        planning_modules=("levyholt/experiments.py", "sns/published.py"),
    ),
    Phase(
        "graphs",
        outs=(layout.language_results("en", "graphs"), layout.language_results("zh", "graphs")),
        upstream=("corpus", "relations", "booqa"),
        params=("graphs.min_arg_pairs_per_predicate", "graphs.min_predicates_per_arg_pair", "graphs.from_files"),
    ),
    Phase(
        "levyholt_evaluation",
        outs=(layout.result("scores"),),
        upstream=("levyholt", "training"),
        params=("training.max_length", "training.precision", "training.threads", "training.every_setting_for_every_model"),
        planning_modules=("levyholt/experiments.py",),
    ),
    Phase(
        "robustness",
        outs=(layout.result("robustness"),),
        upstream=("resources", "booqa", "training"),
        params=("seed", "training"),
        shared_scripts=("train_sns_trial", "select_sns_model", "score_levyholt"),
        planning_modules=("levyholt/experiments.py", "sns/published.py"),
    ),
    Phase(
        "booqa_evaluation",
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
        outs=(layout.result("llm"),),
        upstream=("resources", "levyholt"),
        params=("seed", "llm", "training.threads"),
        planning_modules=("resources/models.py",),  # which LLMs prepare_llm makes and which are read from their download
    ),
    Phase(
        "tables",
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

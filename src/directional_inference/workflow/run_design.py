"""What a config asks the run to compute, built once from the merged config: which language models are fine-tuned and
on what (each search and its trials, budgets and settings), which BoOQA methods and LLMs run for which language, which
score files each table reads. ``rules/common.smk`` builds one ``RunDesign`` and the rules read it; it holds no paths of
jobs that are not decided by the config, reads no Snakemake state and so is unit-tested without Snakemake. (Not to be
confused with ``bin/plan``, which prices the jobs Snakemake plans from it.)

Wildcards are read as mappings (``wildcards.get(name, default)``), so that a rule can hand its own over.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cached_property

from ..config_tree import booqa_language_models
from .. import layout
from ..evaluation.methods import BOOQA_TABLES, BooqaMethods, method_names, sns_models, table_methods
from ..levyholt.chinese import CHINESE_PREFIX, CHINESE_SUBSETS
from ..levyholt.entries import ALL_SUBSETS
from ..levyholt.experiments import (
    BOOQA_HYPONLY_MODELS,
    BOOQA_MODELS,
    TABLE3_TRAINED_ON,
    chinese_trained_models,
    levyholt_table_models,
    table_language_models,
    trained_models,
    training_budget,
)
from ..relations.imported import relation_files
from ..relations.shards import extraction_shards
from ..resources.models import is_hub_llm
from ..sns.published import planned_trials, selection_origin
from ..sns.training import model_batching

# The dataset folder under resources/ of each corpus source (corpus.<lang>.source)
CORPUS_DATASETS = {"reuters21578": "reuters21578", "newscrawl": "newscrawl", "cctv": "zh-news", "clue": "clue-news2016zh"}


def alias_pattern(aliases) -> str:
    """A wildcard constraint matching exactly these names (none: a pattern no name matches)."""
    return "|".join(re.escape(alias) for alias in aliases) or "NO_ALIAS"


class RunDesign:
    """The run a merged ``config`` describes (see the module docstring)."""

    def __init__(self, config: Mapping) -> None:
        self.config = config
        training, models = config["training"], config["models"]
        self.pretrained_models = sorted(a for a, spec in models.items() if isinstance(spec, str))
        self.tiny_models = sorted(a for a, spec in models.items() if isinstance(spec, dict))
        self.levyholt_sets = [*ALL_SUBSETS, "sherliic"]
        self.chinese_levyholt_sets = [CHINESE_PREFIX + subset for subset in CHINESE_SUBSETS]
        # S&S models per language: English ones fine-tuned on LevyHolt, Chinese ones on the (user-supplied) Chinese LevyHolt
        self.language_models = {"en": training["language_models"], "zh": training["language_models_zh"]}
        self.main_lms = {lang: lms[0] for lang, lms in self.language_models.items() if lms}
        self.main_lm = self.main_lms["en"]
        # the English language models BoOQA's tables compare: the main one and those of training.booqa_language_models;
        # the further ones answer BoOQA as rows of Table 5 (sns_full@<alias> ...)
        self.english_booqa_lms = booqa_language_models(config)
        self.booqa_further_lms = self.english_booqa_lms[1:]
        # entailment graphs made elsewhere (graphs.from_files), each a Table 5 row (graph_files@<name>): name -> language
        self.file_graphs = {name: spec.get("lang", "en") for name, spec in sorted(config["graphs"]["from_files"].items())}
        # per-entry BoOQA scores of systems run elsewhere (evaluation.booqa_predictions), each a Table 5 row (scores@<name>)
        self.score_files = {name: spec.get("lang", "en") for name, spec in sorted(config["evaluation"]["booqa_predictions"].items())}
        self.booqa_method_names = method_names(self.booqa_further_lms, list(self.file_graphs), list(self.score_files))
        self.sns_languages = sorted(self.main_lms)
        self.sns_methods_zh = training["sns_methods_zh"]  # the Chinese S&S models: Table 5 methods (the paper: S&S Full)
        self.table3_languages = [lang for lang in config["booqa"]["languages"] if lang in self.sns_languages]
        # the language models of Table 3 (and its generality table) per language, each with its own H-only models
        self.table3_models = {lang: self.english_booqa_lms if lang == "en" else [self.main_lms[lang]] for lang in self.table3_languages}
        # Where trial k's hyper-parameters come from (training.trial_source): this workflow's seeded draw, or the k-th
        # set of the authors' training scripts (sns/authors.py); a file each, so that a change of source re-runs every trial
        self.trial_source = training["trial_source"]
        self.trials_file = layout.authors_trials_file() if self.trial_source == "authors" else layout.drawn_trials_file()
        self.llm_languages = ["en"] if config["llm"]["scorers"] else []  # the 2023 prompts are English
        self.booqa_llm = config["llm"]["scorers"][0] if config["llm"]["scorers"] else None  # the LLM of Table 5's LLM row
        # The LLMs of llm.scorers from the hub: downloaded where Snakemake runs (fetch_llm, a local rule) and read in
        # place; every other LLM of llm.models is made from local files by prepare_llm (a GGUF file, a directory, a tiny model)
        self.hub_llms = [alias for alias in config["llm"]["scorers"] if is_hub_llm(config["llm"]["models"][alias])]
        self.local_llms = sorted(alias for alias, spec in config["llm"]["models"].items() if not is_hub_llm(spec))
        # Languages whose relations come from files made elsewhere (relations.imported) -> their files, read here (at
        # parse time) so that a missing directory stops the run before any job
        imported = config["relations"]["imported"]
        self.imported_files = {lang: relation_files(directory) for lang, directory in sorted(imported.items()) if directory}

    @property
    def imported_language(self) -> str:
        """A wildcard constraint matching the languages of imported relations."""
        return "|".join(self.imported_files) or "NO_LANGUAGE"

    @property
    def extracted_language(self) -> str:
        """A wildcard constraint matching the languages whose relations are extracted from their corpus."""
        return "|".join(lang for lang in ("en", "zh") if lang not in self.imported_files) or "NO_LANGUAGE"

    @cached_property
    def booqa_methods(self) -> BooqaMethods:
        """What this config lets each BoOQA method run with."""
        evaluation = self.config["evaluation"]
        return BooqaMethods(
            model_languages=evaluation["model_languages"],
            measures=self.config["graphs"]["measures"],
            retrievals=evaluation["lm_retrieval"],
            sns_languages=self.sns_languages,
            sns_methods_zh=self.sns_methods_zh,
            imported_languages=sorted(self.imported_files),
            llm_languages=self.llm_languages,
            further_models=self.booqa_further_lms,
            file_graphs=self.file_graphs,
            score_files=self.score_files,
        )

    @cached_property
    def _runnable(self) -> dict[str, list[str]]:
        return {lang: self.booqa_methods.runnable(lang) for lang in ("en", "zh")}

    def runnable_methods(self, lang: str) -> list[str]:
        """BoOQA methods that can run for a language under this config (worked out once per language)."""
        return self._runnable[lang]

    def corpus_directory(self, lang: str) -> str:
        """resources/<dataset> holding the raw corpus of a language."""
        return layout.resource(CORPUS_DATASETS[self.config["corpus"][lang]["source"]])

    def extraction_shard_count(self, lang: str) -> int:
        """Extraction jobs of a language (relations.shards, or one per relations.articles_per_shard expected articles)."""
        return extraction_shards(self.config["relations"], self.config["corpus"][lang])

    def relation_shard_count(self, lang: str) -> int:
        """The relation shards of a language: one per extraction job, or one per imported relation file."""
        return len(self.imported_files[lang]) if lang in self.imported_files else self.extraction_shard_count(lang)

    def lm_encoder(self, lang: str) -> str:
        """Alias of the unsupervised LM encoder of a language."""
        evaluation = self.config["evaluation"]
        return (evaluation["lm_encoder_zh"] if lang == "zh" else None) or evaluation["lm_encoder"]

    def llm_directory(self, alias: str) -> str:
        """The directory the scoring jobs read an LLM of llm.scorers from: its download (a hub id) or what prepare_llm made."""
        return layout.hub_llm_directory(alias) if alias in self.hub_llms else layout.llm_file(f"models/{alias}")

    def graph_lookup(self) -> dict:
        """How graph scores are looked up: the fuzzy back-off and its limits (evaluation.scoring.graph_scores)."""
        graphs = self.config["graphs"]
        return {"fuzzy": graphs["fuzzy_backoff"], "fuzzy_top": graphs["fuzzy_top"], "fuzzy_min_count": graphs["fuzzy_min_count"]}

    def booqa_table_methods(self, table: str) -> list[str]:
        """The methods one BoOQA table computes under this config (``evaluation.methods.table_methods``)."""
        return table_methods(table, self.booqa_further_lms, list(self.file_graphs), list(self.score_files))

    def booqa_score_files(self, table: str | None = None) -> list[str]:
        """Score files of one BoOQA table (``BOOQA_TABLES``), or of every runnable method on both splits."""
        return sorted(
            {
                layout.booqa_scores(lang, BOOQA_TABLES[name].split, method)
                for name in ([table] if table else BOOQA_TABLES)
                for lang in self.config["booqa"]["languages"]
                for method in self.booqa_table_methods(name)
                if method in self.runnable_methods(lang)
            }
        )

    def table_models(self, table: str) -> list[str]:
        """The English language models one LevyHolt table or figure shows (levyholt.experiments.table_language_models)."""
        training = self.config["training"]
        return table_language_models(table, training["language_models"], training["every_setting_for_every_model"])

    def levyholt_scores_for(self, table: str) -> list[str]:
        """Score directories of the models one LevyHolt table or figure reads, for each language model it shows: a
        table's target trains only its own models."""
        return [layout.levyholt_score_directory(lm, v, s) for lm in self.table_models(table) for v, s in levyholt_table_models(table)]

    def trained_searches(self) -> list[tuple[str, str, str]]:
        """(language model, variant, training subset) of every search, English and Chinese."""
        every = self.config["training"]["every_setting_for_every_model"]
        searches = [(lm, v, s) for k, lm in enumerate(self.language_models["en"]) for v, s in trained_models(main=k == 0 or every)]
        further = BOOQA_MODELS + (BOOQA_HYPONLY_MODELS if "en" in self.table3_languages else ())  # their Table 5 and 3 models
        searches += [(lm, v, s) for lm in self.booqa_further_lms for v, s in further if (lm, v, s) not in searches]
        if "zh" in self.sns_languages:
            searches += [(lm, v, s) for lm in self.language_models["zh"] for v, s in chinese_trained_models(sns_models(self.sns_methods_zh))]
        return searches

    def robustness_score_files(self, lang: str | None = None) -> list[str]:
        """Table 3's score files (of one language, or of every one): per language model of ``table3_models``, per
        training data."""
        return [
            layout.robustness_score_path(language, lm, t)
            for language in self.table3_languages
            if lang in (None, language)
            for lm in self.table3_models[language]
            for t in TABLE3_TRAINED_ON
        ]

    # One search: a language model, a variant and a training subset, read from a job's wildcards (Table 3's H-only
    # model trained on BoOQA dev: hyponly/booqa)

    def model_budget(self, variant: str, subset: str) -> dict:
        """Trials, epochs, training / dev sample sizes and dev evaluations of one model (training.budgets)."""
        return training_budget(self.config["training"], self.config["levyholt"], variant, subset)

    @staticmethod
    def search_of(wildcards: Mapping) -> tuple[str, str, str]:
        """(language model, variant, training subset) of a trial's or a selection's search."""
        return wildcards["lm"], wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa")

    def trial_ids(self, lm: str, variant: str, subset: str) -> list[int]:
        """The trials of one search: 0..trials-1 of its budget or, under training.search: published, the authors'
        published trial where the setting has one (sns/published.py)."""
        training = self.config["training"]
        return planned_trials(training["search"], lm, self.config["models"][lm], variant, subset, self.model_budget(variant, subset)["trials"])

    def search_trial_ids(self, wildcards: Mapping) -> list[int]:
        return self.trial_ids(*self.search_of(wildcards))

    def search_origin(self, wildcards: Mapping) -> dict | None:
        """What a search's selection records of where its trials came from (sns.published.selection_origin)."""
        lm, variant, subset = self.search_of(wildcards)
        epochs = self.model_budget(variant, subset)["epochs"]
        return selection_origin(self.trial_source, self.config["training"]["search"], lm, self.config["models"][lm], variant, subset, epochs)

    @staticmethod
    def is_symmetric(wildcards: Mapping) -> bool:
        """'S&S adds every prompt with premise and hypothesis swapped."""
        return wildcards.get("variant") == "sns_sym"

    @staticmethod
    def subset_language(wildcards: Mapping) -> str:
        """Language of a model's prompts: Chinese LevyHolt subsets carry the zh_ prefix (Table 3's BoOQA model: its lang)."""
        return "zh" if wildcards.get("subset", "").startswith(CHINESE_PREFIX) else wildcards.get("lang", "en")

    def prompt_scorer_settings(self, wildcards: Mapping) -> dict:
        """How a selected prompt model scores LevyHolt pairs (the keyword arguments of sns.model.PromptScorer): token
        limit, number format, 'S&S's swapped prompts, language."""
        return {
            "max_length": self.config["training"]["max_length"],
            "precision": self.config["training"]["precision"],
            "symmetric": self.is_symmetric(wildcards),
            "lang": self.subset_language(wildcards),
        }

    def trial_settings(self, wildcards: Mapping, trial_threads: int) -> dict:
        """TrainingSettings of one trial at ``trial_threads`` threads: training.* with the model's budget and its batch size
        and accumulation factor for its variant (the authors' scripts: large models take smaller batches and scaled
        accumulation)."""
        training = self.config["training"]
        batch_size, factor = model_batching(training["model_batching"], wildcards["lm"], self.is_symmetric(wildcards), training["batch_size"])
        budget = self.model_budget(wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa"))
        return {
            "epochs": budget["epochs"],
            "batch_size": batch_size,
            "accumulation_factor": factor,
            "max_length": training["max_length"],
            "seed": self.config["seed"],
            "symmetric": self.is_symmetric(wildcards),
            "lang": self.subset_language(wildcards),
            "evaluations_per_epoch": budget["evaluations_per_epoch"],
            "patience": budget["patience"],
            "min_delta": training["min_delta"],
            "precision": training["precision"],
            "threads": trial_threads,
            "dropout_masks": training["dropout_masks"],
        }

    def trial_samples(self, wildcards: Mapping) -> dict:
        """Sizes of the training and dev samples one model's trials read (None = the whole file)."""
        budget = self.model_budget(wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa"))
        return {"train": budget["max_train"], "dev": budget["max_dev"]}

# The globals, wildcard constraints and helpers that several phase files use (no rules here; a helper that one phase
# file uses lives in that file). rules/setup.smk has checked the config and put the package on the path.
import dataclasses
import re

from directional_inference.booqa.settings import booqa_settings
from directional_inference.compute import local_gpu_problems, model_job_gpus, model_job_threads
from directional_inference.evaluation.methods import (
    BOOQA_TABLES,
    booqa_score_path,
    method_alias,
    method_names,
    method_spec,
    BooqaMethods,
    sns_models,
    table_methods,
)
from directional_inference.levyholt.experiments import (
    BOOQA_HYPONLY_MODELS,
    BOOQA_MODELS,
    LEVYHOLT_TABLES,
    TABLE3_TRAINED_ON,
    model_record_files,
    robustness_score_path,
    levyholt_score_directory,
    levyholt_table_models,
    table_language_models,
    scored_models,
    training_budget,
    chinese_trained_models,
    data_directory,
    language_subset,
    trained_models,
    training_size_rank,
)
from directional_inference.resources.inputs import datasets as downloadable_datasets
from directional_inference.tables.findings import CLAIMS, runnable_claims
from directional_inference.tables.findings import score_path as claim_score_path
from directional_inference.resources.models import is_hub_llm, model_kind
from directional_inference.config_tree import booqa_language_models
from directional_inference.workflow import snakemake_state
from directional_inference.tools.run_forecast import forecast_at_run_start
from directional_inference.levyholt.chinese import CHINESE_PREFIX, CHINESE_SUBSETS
from directional_inference.levyholt.english import subset_conventions
from directional_inference.llm.predictions import configured_file
from directional_inference.levyholt.entries import ALL_SUBSETS, SPLITS
from directional_inference.workflow.phases import MODEL_CARDS, PHASES, phase
from directional_inference.sns import VARIANTS
from directional_inference.sns.published import planned_trials, selection_origin
from directional_inference.sns.training import model_batching
from directional_inference.workflow.job_resources import expected_input_mb, imported_input_mb, resource_function
from directional_inference.relations.imported import relation_files
from directional_inference.relations.shards import extraction_shards

PRETRAINED_MODELS = sorted(a for a, spec in config["models"].items() if isinstance(spec, str))
TINY_MODELS = sorted(a for a, spec in config["models"].items() if isinstance(spec, dict))


LEVYHOLT_SETS = list(ALL_SUBSETS) + ["sherliic"]
CHINESE_LEVYHOLT_SETS = [CHINESE_PREFIX + subset for subset in CHINESE_SUBSETS]
# S&S models per language: English ones fine-tuned on LevyHolt, Chinese ones on the (user-supplied) Chinese LevyHolt
LANGUAGE_MODELS = {"en": config["training"]["language_models"], "zh": config["training"]["language_models_zh"]}
MAIN_LMS = {lang: models[0] for lang, models in LANGUAGE_MODELS.items() if models}
# the English language models BoOQA's tables compare: the main one and those of training.booqa_language_models
ENGLISH_BOOQA_LMS = booqa_language_models(config)
# further English language models whose S&S models answer BoOQA as rows of Table 5 (sns_full@<alias> ...)
BOOQA_FURTHER_LMS = ENGLISH_BOOQA_LMS[1:]
# entailment graphs made elsewhere (graphs.from_files), each a Table 5 row (graph_files@<name>): name -> language
FILE_GRAPHS = {name: spec.get("lang", "en") for name, spec in sorted(config["graphs"]["from_files"].items())}
# per-entry BoOQA scores of systems run elsewhere (evaluation.booqa_predictions), each a Table 5 row (scores@<name>)
SCORE_FILES = {name: spec.get("lang", "en") for name, spec in sorted(config["evaluation"]["booqa_predictions"].items())}
BOOQA_METHOD_NAMES = method_names(BOOQA_FURTHER_LMS, list(FILE_GRAPHS), list(SCORE_FILES))
SNS_LANGUAGES = sorted(MAIN_LMS)
SNS_METHODS_ZH = config["training"]["sns_methods_zh"]  # the Chinese S&S models: Table 5 methods (the paper: S&S Full)
TABLE3_LANGUAGES = [lang for lang in config["booqa"]["languages"] if lang in SNS_LANGUAGES]
# the language models of Table 3 (and its generality table) per language, each with its own hypothesis-only models
TABLE3_MODELS = {lang: ENGLISH_BOOQA_LMS if lang == "en" else [MAIN_LMS[lang]] for lang in TABLE3_LANGUAGES}


wildcard_constraints:
    dataset="|".join(downloadable_datasets()),
    model="|".join(PRETRAINED_MODELS + TINY_MODELS) or "NO_MODEL",
    lm="|".join(sorted(config["models"])),
    lang="en|zh",
    shard=r"\d+",
    part=r"\d+",
    split="dev|test",
    method="|".join(BOOQA_METHOD_NAMES),
    graph_name="|".join(FILE_GRAPHS) or "NO_GRAPH",
    variant="|".join(VARIANTS),
    subset="|".join(LEVYHOLT_SETS + CHINESE_LEVYHOLT_SETS),
    test="|".join(LEVYHOLT_SETS),
    trial=r"\d+",
    trained_on="|".join(TABLE3_TRAINED_ON),


def phase_log(phase, rule, pattern):
    """Log path of one job: logs/<phase>/<rule>/<wildcards>.log"""
    return f"logs/{phase}/{rule}/{pattern}.log"


def phase_benchmark(phase, rule, pattern):
    """Benchmark TSV of one job (time, memory), beside its log."""
    return f"logs/{phase}/{rule}/{pattern}.benchmark.tsv"


def model_directory(alias):
    """Directory of the weights and tokenizer of a model alias from config['models']."""
    return f"resources/models/{alias}"


def levyholt_file(variant, subset, split):
    """The data file a variant reads for a subset and split."""
    return f"results/levyholt/{data_directory(variant, subset)}/{split}.tsv"


def model_budget(variant, subset):
    """Trials, epochs, training / dev sample sizes and dev evaluations of one model (training.budgets)."""
    return training_budget(config["training"], config["levyholt"], variant, subset)


# Where trial k's hyper-parameters come from (training.trial_source): this workflow's seeded draw, or the k-th set of the
# authors' training scripts (sns/authors.py); a file each, so that a change of source re-runs every trial.
TRIAL_SOURCE = config["training"]["trial_source"]
TRIALS_FILE = "results/models/authors_trials.csv" if TRIAL_SOURCE == "authors" else "results/models/hyperparameters.csv"


def trial_ids(lm, variant, subset):
    """The trials of one search: 0..trials-1 of its budget or, under training.search: published, the authors' published
    trial where the setting has one (sns/published.py)."""
    return planned_trials(config["training"]["search"], lm, config["models"][lm], variant, subset, model_budget(variant, subset)["trials"])


def search_of(wildcards):
    """(language model, variant, training subset) of a trial's or a selection's search (Table 3's H-only model trained on
    BoOQA dev: hyponly/booqa)."""
    return wildcards.lm, wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa")


def search_trial_ids(wildcards):
    return trial_ids(*search_of(wildcards))


def search_origin(wildcards):
    """What a search's selection records of where its trials came from (sns.published.selection_origin)."""
    lm, variant, subset = search_of(wildcards)
    return selection_origin(
        TRIAL_SOURCE, config["training"]["search"], lm, config["models"][lm], variant, subset, model_budget(variant, subset)["epochs"]
    )


def model_run(wildcards):
    """Directory of one (language model, variant, training subset) search."""
    return f"results/models/{wildcards.lm}/{wildcards.variant}/{wildcards.subset}"


def trial_files(run, trials):
    """Dev scores, dev evaluations, training records and weights of every trial of the search in directory ``run`` (the
    weights of the best trial only, once every trial has finished)."""
    return {
        "dev_scores": [f"{run}/trial-{k}/dev_scores.parquet" for k in trials],
        "evaluations": [f"{run}/trial-{k}/evaluations.csv" for k in trials],
        "records": [f"{run}/trial-{k}/training.json" for k in trials],
        "weights": [f"{run}/trial-{k}/model" for k in trials],
    }


CORPUS_DATASETS = {"reuters21578": "reuters21578", "newscrawl": "newscrawl", "cctv": "zh-news", "clue": "clue-news2016zh"}


def corpus_directory(lang):
    """resources/<dataset> holding the raw corpus of a language."""
    return f"resources/{CORPUS_DATASETS[config['corpus'][lang]['source']]}"


# Languages whose relations come from files made elsewhere (relations.imported): their files, read at parse time so that
# a missing directory stops the run before any job; the other languages extract relations from their corpus.
IMPORTED_FILES = {lang: relation_files(directory) for lang, directory in sorted(config["relations"]["imported"].items()) if directory}
IMPORTED_LANGUAGE = "|".join(IMPORTED_FILES) or "NO_LANGUAGE"
EXTRACTED_LANGUAGE = "|".join(lang for lang in ("en", "zh") if lang not in IMPORTED_FILES) or "NO_LANGUAGE"


def _lang(wildcards_or_lang):
    return wildcards_or_lang if isinstance(wildcards_or_lang, str) else wildcards_or_lang.lang


def extraction_shard_count(lang):
    """Extraction jobs of a language (relations.shards, or one per relations.articles_per_shard expected articles)."""
    return extraction_shards(config["relations"], config["corpus"][lang])


def relation_shards(wildcards_or_lang):
    """The relation shards of a language: one per extraction job, or one per imported relation file."""
    lang = _lang(wildcards_or_lang)
    count = len(IMPORTED_FILES[lang]) if lang in IMPORTED_FILES else extraction_shard_count(lang)
    return [f"results/{lang}/relations/{k}.parquet" for k in range(count)]


def merged_relations(wildcards_or_lang):
    """Every relation of a language, in corpus order, each sentence once (written by merge_relations), which every corpus-wide
    step reads."""
    return f"results/{_lang(wildcards_or_lang)}/relations/merged.parquet"


def demand(rule_name, key):
    """Resource ``key`` (mem_mb, disk_mb, runtime) of a corpus-wide rule: a function of its input size and attempt
    (job_resources), estimated from the config before its input exists."""

    def share(wildcards):  # an extraction shard reads its block of the corpus table; a graph part its type pairs
        if rule_name == "extract_relations":
            return 1 / extraction_shard_count(wildcards.lang)
        return 1 / config["graphs"]["jobs"] if rule_name == "build_entailment_graph" else 1.0

    def expected(wildcards):  # the job's part of its input, before the input exists
        lang = wildcards.get("lang", "en")
        part = share(wildcards) if rule_name == "build_entailment_graph" else 1.0
        if lang in IMPORTED_FILES:  # the relation files exist at parse time: their size, not the corpus's
            return imported_input_mb(rule_name, IMPORTED_FILES[lang]) * part
        return expected_input_mb(rule_name, lang, config, shards=len(relation_shards(lang))) * part

    return resource_function(rule_name, key, expected, share)


# Jobs start longest first (training_priority), the short ones fill the cores at the end: the inputs (downloads,
# models, the LevyHolt subsets, the drawn hyper-parameters) and the 'S&S trials first, then the other trials, more
# training pairs first (priorities len(ALL_SUBSETS) ... 1; SherLIiC, of no known size, 0), then the chain from the
# corpus to BoOQA, its graphs and scores (priority 0: many jobs of a few minutes each, which the two cores share).
TOP_PRIORITY = len(ALL_SUBSETS) + 1


def run_cores():
    """The run's --cores (None on a cluster, where each job gets its own node's cores)."""
    return snakemake_state.run_cores(workflow)


def engine_threads(wildcards):
    """Threads of a corpus-wide engine job (DuckDB: merging relations, BoOQA's positives and negatives, a graph part):
    two, except in a run of fewer than 4 cores. On 2 cores a two-thread job cannot start beside a one-thread trial, so
    the BoOQA chain waited for the trials with the other core idle (issue 45, item 4); at one thread it runs beside them."""
    cores = run_cores()
    return 2 if cores is None or cores >= 4 else 1


def model_threads(wildcards=None):
    """Threads of a training or scoring job (training.threads: its number, or auto's share of --cores)."""
    return model_job_threads(config["training"]["threads"], run_cores())


def model_gpus(wildcards=None):
    """GPUs of a training or scoring job: training.gpus, or one where it is 0 and the run offers GPUs to its jobs
    (--resources gpu=N, as profiles/gpu does): then at most N such jobs run at once, and the others on the CPU."""
    return model_job_gpus(config["training"]["gpus"], snakemake_state.offered_gpus(workflow))


def at_run_start():
    """What a run does before its first job (the onstart handler; never in a dry run): a local run whose jobs ask for a
    GPU stops where torch sees none; a local run says how long it will take here (workflow.run_forecast)."""
    if not workflow.local_exec:
        return
    if model_gpus() > 0:
        stop_for_config(local_gpu_problems(model_gpus()), "Error: this run cannot start on this machine:")
    print(forecast_at_run_start(workflow, config, run_cores(), workflow.basedir), file=sys.stderr)


def node_scratch(rule_name):
    """sbatch options of a corpus-wide rule's job (resource slurm_extra, which the SLURM executor passes on): its
    disk_mb as node-local scratch, --tmp (config request_node_scratch); nothing where it is false."""
    disk = demand(rule_name, "disk_mb")

    def options(wildcards, input, attempt):
        return f"--tmp={disk(wildcards, input, attempt)}M" if config["request_node_scratch"] else ""

    return options


MAIN_LM = MAIN_LMS["en"]


def lm_encoder(lang):
    """Alias of the unsupervised LM encoder of a language."""
    return (config["evaluation"]["lm_encoder_zh"] if lang == "zh" else None) or config["evaluation"]["lm_encoder"]


LLM_LANGUAGES = ["en"] if config["llm"]["scorers"] else []  # the 2023 prompts are English
BOOQA_LLM = config["llm"]["scorers"][0] if config["llm"]["scorers"] else None  # the LLM of Table 5's LLM row
# The LLMs of llm.scorers from the hub: downloaded where Snakemake runs (fetch_llm, a local rule) and read in place; every
# other LLM of llm.models is made from local files by prepare_llm (a GGUF file, a directory, a tiny model)
HUB_LLMS = [alias for alias in config["llm"]["scorers"] if is_hub_llm(config["llm"]["models"][alias])]
LOCAL_LLMS = sorted(alias for alias, spec in config["llm"]["models"].items() if not is_hub_llm(spec))


def llm_directory(alias):
    """The directory the scoring jobs read an LLM of llm.scorers from: its download (a hub id) or what prepare_llm made."""
    return f"resources/llms/{alias}" if alias in HUB_LLMS else f"results/llm/models/{alias}"


def alias_pattern(aliases):
    """A wildcard constraint matching exactly these aliases (none: a pattern no alias matches)."""
    return "|".join(re.escape(alias) for alias in aliases) or "NO_ALIAS"


BOOQA_METHODS = BooqaMethods(
    model_languages=config["evaluation"]["model_languages"],
    measures=config["graphs"]["measures"],
    retrievals=config["evaluation"]["lm_retrieval"],
    sns_languages=SNS_LANGUAGES,
    sns_methods_zh=SNS_METHODS_ZH,
    imported_languages=sorted(IMPORTED_FILES),
    llm_languages=LLM_LANGUAGES,
    further_models=BOOQA_FURTHER_LMS,
    file_graphs=FILE_GRAPHS,
    score_files=SCORE_FILES,
)


def runnable_methods(lang):
    """BoOQA methods that can run for a language under this config."""
    return BOOQA_METHODS.runnable(lang)


def graph_lookup():
    """How graph scores are looked up: the fuzzy back-off and its limits (evaluation.scoring.graph_scores)."""
    graphs = config["graphs"]
    return {"fuzzy": graphs["fuzzy_backoff"], "fuzzy_top": graphs["fuzzy_top"], "fuzzy_min_count": graphs["fuzzy_min_count"]}


def booqa_score_files(table=None):
    """Score files of one BoOQA table (``BOOQA_TABLES``), or of every runnable method on both splits."""
    return sorted(
        {
            booqa_score_path(lang, BOOQA_TABLES[name].split, method)
            for name in ([table] if table else BOOQA_TABLES)
            for lang in config["booqa"]["languages"]
            for method in table_methods(name, BOOQA_FURTHER_LMS, list(FILE_GRAPHS), list(SCORE_FILES))
            if method in runnable_methods(lang)
        }
    )


def table_models(table):
    """The English language models one LevyHolt table or figure shows (levyholt.experiments.table_language_models)."""
    training = config["training"]
    return table_language_models(table, training["language_models"], training["every_setting_for_every_model"])


def levyholt_scores_for(table):
    """Score directories of the models one LevyHolt table or figure reads, for each language model it shows: a table's
    target trains only its own models."""
    return [levyholt_score_directory(lm, v, s) for lm in table_models(table) for v, s in levyholt_table_models(table)]


def trained_searches():
    """(language model, variant, training subset) of every search, English and Chinese."""
    every = config["training"]["every_setting_for_every_model"]
    searches = [(lm, v, s) for k, lm in enumerate(LANGUAGE_MODELS["en"]) for v, s in trained_models(main=k == 0 or every)]
    further = BOOQA_MODELS + (BOOQA_HYPONLY_MODELS if "en" in TABLE3_LANGUAGES else ())  # their Table 5 and Table 3 models
    searches += [(lm, v, s) for lm in BOOQA_FURTHER_LMS for v, s in further if (lm, v, s) not in searches]
    if "zh" in SNS_LANGUAGES:
        searches += [(lm, v, s) for lm in LANGUAGE_MODELS["zh"] for v, s in chinese_trained_models(sns_models(SNS_METHODS_ZH))]
    return searches


def is_symmetric(wildcards):
    """'S&S adds every prompt with premise and hypothesis swapped."""
    return wildcards.get("variant") == "sns_sym"


def subset_language(wildcards):
    """Language of a model's prompts: Chinese LevyHolt subsets carry the zh_ prefix (Table 3's BoOQA model: its lang)."""
    return "zh" if wildcards.get("subset", "").startswith(CHINESE_PREFIX) else wildcards.get("lang", "en")


def prompt_scorer_settings(wildcards):
    """How a selected prompt model scores LevyHolt pairs (the keyword arguments of sns.model.PromptScorer): token limit,
    number format, 'S&S's swapped prompts, language."""
    return {
        "max_length": config["training"]["max_length"],
        "precision": config["training"]["precision"],
        "symmetric": is_symmetric(wildcards),
        "lang": subset_language(wildcards),
    }


def trial_settings(wildcards):
    """TrainingSettings of one trial: training.* with the model's budget and its batch size and accumulation factor
    for its variant (the authors' scripts: large models take smaller batches and scaled accumulation)."""
    training = config["training"]
    batch_size, factor = model_batching(training["model_batching"], wildcards.lm, is_symmetric(wildcards), training["batch_size"])
    budget = model_budget(wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa"))
    return {
        "epochs": budget["epochs"],
        "batch_size": batch_size,
        "accumulation_factor": factor,
        "max_length": training["max_length"],
        "seed": config["seed"],
        "symmetric": is_symmetric(wildcards),
        "lang": subset_language(wildcards),
        "evaluations_per_epoch": budget["evaluations_per_epoch"],
        "patience": budget["patience"],
        "min_delta": training["min_delta"],
        "precision": training["precision"],
        "threads": model_threads(),
    }


def trial_samples(wildcards):
    """Sizes of the training and dev samples one model's trials read (None = the whole file)."""
    budget = model_budget(wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa"))
    return {"train": budget["max_train"], "dev": budget["max_dev"]}


def robustness_score_files(lang=None):
    """Table 3's score files (of one language, or of every one): per language model of TABLE3_MODELS, per training data."""
    return [
        robustness_score_path(language, lm, t)
        for language in TABLE3_LANGUAGES
        if lang in (None, language)
        for lm in TABLE3_MODELS[language]
        for t in TABLE3_TRAINED_ON
    ]


# Every output of each phase (the inputs of its target in rules/phases.smk, which its DVC stage runs); each phase's
# helper file registers its <phase>_phase_targets here.
PHASE_TARGETS = {}


def phase_targets(name):
    return PHASE_TARGETS[name]()

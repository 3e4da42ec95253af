# Config validation and the helpers every phase uses (no rules here).
import os
import sys

import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

sys.path.insert(0, os.path.join(workflow.basedir, "src"))

from directional_inference.config_checks import config_problems, schema_problems  # noqa: E402
from directional_inference.booqa_config import booqa_settings as language_settings  # noqa: E402
from directional_inference.booqa_methods import BOOQA_TABLES, METHODS, booqa_score_path, methods_for  # noqa: E402
from directional_inference.experiments import (  # noqa: E402
    BOOQA_MODELS,
    TABLE3_TRAINED_ON,
    model_record_files,
    levyholt_score_directory,
    levyholt_table_models,
    scored_models,
    training_budget,
    chinese_trained_models,
    data_directory,
    language_subset,
    trained_models,
)
from directional_inference.inputs import datasets as downloadable_datasets  # noqa: E402
from directional_inference.tables.findings import CLAIMS, runnable_claims  # noqa: E402
from directional_inference.tables.findings import score_path as claim_score_path  # noqa: E402
from directional_inference.models import model_kind  # noqa: E402
from directional_inference.levyholt import ALL_SUBSETS, CHINESE_PREFIX, CHINESE_SUBSETS, SPLITS, subset_conventions  # noqa: E402
from directional_inference.phases import MODEL_CARDS, PHASES, phase  # noqa: E402
from directional_inference.sns import VARIANTS  # noqa: E402
from directional_inference.stale_locks import LockOwner, release_stale_locks  # noqa: E402


def stop_for_config(problems):
    """End the run before any job is planned, with one line per config problem (no traceback, no schema dump)."""
    if problems:
        print("Error in the config (config/config.yaml overlaid by --configfile and --config):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        sys.exit(1)


try:
    validate(config, schema="../config/schema.yaml")
except WorkflowError:
    with open(os.path.join(workflow.basedir, "config", "schema.yaml"), encoding="utf-8") as schema:
        stop_for_config(schema_problems(config, yaml.safe_load(schema)) or ["the config does not match config/schema.yaml"])
stop_for_config(config_problems(config))

# After kill -9 or a power loss the next run recovers by itself: the lock of a run that is gone is removed here
# (src/directional_inference/stale_locks.py) and its unfinished jobs re-run (profiles/default: rerun-incomplete).
# Only in the main Snakemake process: cluster and subprocess jobs re-parse this file and never touch locks.
LOCK_OWNER = None
if workflow.is_main_process:
    release_stale_locks(".snakemake", report=lambda message: print(message, file=sys.stderr))
    LOCK_OWNER = LockOwner(".snakemake")


onstart:
    if LOCK_OWNER is not None:  # the lock files this run holds, for a later run to recognise if this one dies
        LOCK_OWNER.record_locks(getattr(workflow.persistence, "_lockfile", {}).values())


PRETRAINED_MODELS = sorted(a for a, spec in config["models"].items() if isinstance(spec, str))
TINY_MODELS = sorted(a for a, spec in config["models"].items() if isinstance(spec, dict))


LEVYHOLT_SETS = list(ALL_SUBSETS) + ["sherliic"]
CHINESE_LEVYHOLT_SETS = [CHINESE_PREFIX + subset for subset in CHINESE_SUBSETS]
# S&S models per language: English ones fine-tuned on LevyHolt, Chinese ones on the (user-supplied) Chinese LevyHolt
LANGUAGE_MODELS = {"en": config["training"]["language_models"], "zh": config["training"]["language_models_zh"]}
MAIN_LMS = {lang: models[0] for lang, models in LANGUAGE_MODELS.items() if models}
SNS_LANGUAGES = sorted(MAIN_LMS)
TABLE3_LANGUAGES = [lang for lang in config["booqa"]["languages"] if lang in SNS_LANGUAGES]


wildcard_constraints:
    dataset="|".join(downloadable_datasets()),
    model="|".join(PRETRAINED_MODELS + TINY_MODELS) or "NO_MODEL",
    lm="|".join(sorted(config["models"])),
    lang="en|zh",
    shard=r"\d+",
    split="dev|test",
    method="|".join(METHODS),
    variant="|".join(VARIANTS),
    subset="|".join(LEVYHOLT_SETS + CHINESE_LEVYHOLT_SETS),
    test="|".join(LEVYHOLT_SETS),
    trial=r"\d+",
    trained_on="|".join(TABLE3_TRAINED_ON),


def language_booqa_settings(wildcards):
    """BoOQA thresholds of wildcards.lang: the shared booqa settings with booqa.overrides.<lang> laid over them."""
    return language_settings(config["booqa"], wildcards.lang)


def phase_log(phase, rule, pattern):
    """Log path of one job: logs/<phase>/<rule>/<wildcards>.log"""
    return f"logs/{phase}/{rule}/{pattern}.log"


def phase_benchmark(phase, rule, pattern):
    """Benchmark TSV of one job (time, memory), beside its log."""
    return f"logs/{phase}/{rule}/{pattern}.benchmark.tsv"


def model_directory(alias):
    """Directory of the weights and tokenizer of a model alias from config['models']."""
    return f"resources/models/{alias}"


def model_spec(wildcards):
    """config['models'] entry of the model alias in wildcards.model (a name/path, or the tiny-model spec)."""
    spec = config["models"][wildcards.model]
    return spec["tiny"] if isinstance(spec, dict) else spec


def tiny_model_texts(wildcards):
    """The LevyHolt whose phrases a tiny model's tokenizer learns: English, or the Chinese one."""
    return "resources/levyholt-zh" if model_spec(wildcards).get("language") == "zh" else "resources/levyholt"


def used_models():
    """Every model alias some phase of this config uses."""
    used = set(config["training"]["language_models"]) | set(config["training"]["language_models_zh"]) | set(PRETRAINED_MODELS)
    used |= {alias for alias in (config["evaluation"]["lm_encoder"], config["evaluation"]["lm_encoder_zh"]) if alias}
    if config["booqa"]["wsd"] == "gloss_similarity":
        used.add(config["booqa"]["wsd_encoder"])
    return sorted(used)


def all_resources():
    """Every input this config needs: datasets, the NLTK WordNet root, model directories."""
    targets = [f"resources/{name}" for name in config["resources"]["datasets"]]
    targets += [corpus_directory(lang) for lang in config["booqa"]["languages"]]
    if "wordnet-3.0" in config["resources"]["datasets"]:
        targets.append("resources/nltk_data")
    if "zh" in SNS_LANGUAGES:
        targets.append("resources/levyholt-zh")
    targets += [model_directory(alias) for alias in used_models()]
    return sorted(set(targets))


def levyholt_data_files():
    """Every TSV the LevyHolt phase writes: subsets, their hypothesis-only variants, SherLIiC."""
    names = [n for s in ALL_SUBSETS for n in (s, f"{s}_hyponly")] + ["sherliic"]
    return [f"results/levyholt/{name}/{split}.tsv" for name in names for split in SPLITS]


def chinese_levyholt_files():
    """Every TSV of the Chinese LevyHolt sets (when Chinese S&S models are configured)."""
    if "zh" not in SNS_LANGUAGES:
        return []
    names = [n for s in CHINESE_LEVYHOLT_SETS for n in (s, f"{s}_hyponly")]
    return ["results/levyholt/zh_subsets.csv"] + [f"results/levyholt/{name}/{split}.tsv" for name in names for split in SPLITS]


def levyholt_file(variant, subset, split):
    """The data file a variant reads for a subset and split."""
    return f"results/levyholt/{data_directory(variant, subset)}/{split}.tsv"


def levyholt_train_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "train")


def levyholt_dev_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "dev")


def levyholt_test_files(wildcards):
    """The test files one model scores, by test set."""
    return {test: levyholt_file(wildcards.variant, test, "test") for test in scored_models()[(wildcards.variant, wildcards.subset)]}


def model_budget(variant, subset):
    """Trials, epochs, training / dev sample sizes and dev evaluations of one model (training.budgets)."""
    return training_budget(config["training"], config["levyholt"], variant, subset)


def trial_ids(variant, subset):
    return list(range(model_budget(variant, subset)["trials"]))


def drawn_trials():
    """Trials drawn for the search: enough for the largest budget."""
    return max([config["training"]["trials"]] + [b.get("trials", 0) for b in config["training"]["budgets"]])


def model_run(wildcards):
    """Directory of one (language model, variant, training subset) search."""
    return f"results/models/{wildcards.lm}/{wildcards.variant}/{wildcards.subset}"


def trial_files(run, trials):
    """Dev scores, dev evaluations and weights of every trial of the search in directory ``run``."""
    return {
        "dev_scores": [f"{run}/trial-{k}/dev_scores.parquet" for k in trials],
        "evaluations": [f"{run}/trial-{k}/evaluations.csv" for k in trials],
        "weights": [f"{run}/trial-{k}/model" for k in trials],
    }


def trial_outputs(wildcards):
    return trial_files(model_run(wildcards), trial_ids(wildcards.variant, wildcards.subset))


def all_levyholt_scores(wildcards=None):
    """Score directories of every (variant, training subset) the LevyHolt tables need, for every language model."""
    return [levyholt_score_directory(lm, v, s) for lm in config["training"]["language_models"] for v, s in scored_models()]


def levyholt_scores_for(table):
    """Score directories of the models one LevyHolt table or figure reads, for every language model: a table's target
    trains only its own models."""
    return [levyholt_score_directory(lm, v, s) for lm in config["training"]["language_models"] for v, s in levyholt_table_models(table)]


def levyholt_table_scores(wildcards):
    return levyholt_scores_for(wildcards.table)


def levyholt_table_records(wildcards):
    """Selection and sanity files of the models one LevyHolt table or figure shows (its precision, training and sanity
    columns)."""
    return [f for lm in config["training"]["language_models"] for v, s in levyholt_table_models(wildcards.table)
            for f in model_record_files(lm, v, s)]


def booqa_model_records(wildcards=None):
    """Selection and sanity files of the S&S models of the BoOQA tables, per language that has them."""
    return sorted({f for lang in SNS_LANGUAGES if lang in config["booqa"]["languages"] for v, s in BOOQA_MODELS
                   for f in model_record_files(MAIN_LMS[lang], v, language_subset(s, lang))})


def levyholt_model_infos(wildcards=None):
    """(alias, name) of every fine-tuned language model, in config order (the first is the main model)."""
    names = {a: (s if isinstance(s, str) else f"tiny-{s['tiny'].get('architecture', 'bert')}") for a, s in config["models"].items()}
    return [[alias, names[alias]] for alias in config["training"]["language_models"]]


CORPUS_DATASETS = {"reuters21578": "reuters21578", "newscrawl": "newscrawl", "cctv": "zh-news", "clue": "clue-news2016zh"}


def corpus_settings(wildcards):
    """config['corpus'][lang]: source, window_days, max_articles, years."""
    return config["corpus"][wildcards.lang]


def corpus_directory(lang):
    """resources/<dataset> holding the raw corpus of a language."""
    return f"resources/{CORPUS_DATASETS[config['corpus'][lang]['source']]}"


def corpus_source_directory(wildcards):
    return corpus_directory(wildcards.lang)


def english_only(value):
    """A param of English jobs only (None for Chinese ones), so that changing it re-runs no Chinese job."""
    return lambda wildcards: value if wildcards.lang == "en" else None


def booqa_settings(*keys):
    """The named booqa config keys a job reads, for its language (booqa.overrides.<lang> over the shared values), as
    one param. Naming matters because Snakemake compares a job's params as a set of value reprs: two unnamed params
    that swap values would go unnoticed."""

    def settings(wildcards):
        language = language_booqa_settings(wildcards)
        return {key: language[key] for key in keys}

    return settings


def negative_settings(wildcards):
    """What generate_booqa_negatives reads: the sense choice applies to English only (Chinese takes the first sense)."""
    wsd = config["booqa"]["wsd"] if wildcards.lang == "en" else "first_sense"
    return booqa_settings("felicity_min_pairs", "negatives_of_negated_predicates")(wildcards) | {"wsd": wsd}


def card_parameters(wildcards):
    """Construction parameters listed in a BoOQA dataset card: the booqa keys that apply to the language, and the
    window length."""
    skip = {"languages"}
    if wildcards.lang != "en":
        skip |= {"wsd", "wsd_encoder"}
    elif config["booqa"]["wsd"] != "gloss_similarity":
        skip.add("wsd_encoder")
    parameters = {key: value for key, value in sorted(language_booqa_settings(wildcards).items()) if key not in skip}
    return parameters | {"window_days": config["corpus"][wildcards.lang]["window_days"]}


def booqa_scoring_settings(wildcards):
    """The config values one BoOQA method reads (LM: its variant's pooling and the language's sentence window; S&S:
    token limit, number format, 'S&S's prompts, and the seeded Chinese evidence cap; graphs: the lookup and its
    back-off), so that changing one re-runs only the methods that read it."""
    family, detail = METHODS[wildcards.method]
    if family == "lm":
        return {"lm_pooling": config["evaluation"]["lm_pooling"][detail], "lm_window": config["evaluation"]["lm_window"][wildcards.lang]}
    if family == "sns":
        settings = {"max_length": config["training"]["max_length"], "precision": config["training"]["precision"]}
        if detail[0] == "sns_sym":
            settings["sym_sns_prompts"] = config["evaluation"]["sym_sns_prompts"]
        if wildcards.lang == "zh":
            settings |= {"evidence_cap_ss_zh": config["evaluation"]["evidence_cap_ss_zh"], "seed": config["seed"]}
        return settings
    return {"lookup": graph_lookup()}


def relation_shards(wildcards):
    return [f"results/{wildcards.lang}/relations/{k}.parquet" for k in range(config["relations"]["shards"])]


def wsd_encoder_directory(wildcards):
    """The encoder of the English gloss-similarity sense choice (nothing when another method or Chinese)."""
    if wildcards.lang == "en" and config["booqa"]["wsd"] == "gloss_similarity":
        return [model_directory(config["booqa"]["wsd_encoder"])]
    return []


MAIN_LM = MAIN_LMS["en"]


def lm_encoder(lang):
    """Alias of the unsupervised LM encoder of a language."""
    return (config["evaluation"]["lm_encoder_zh"] if lang == "zh" else None) or config["evaluation"]["lm_encoder"]


def booqa_methods(lang):
    """BoOQA methods that can run for a language under this config."""
    ev, graphs = config["evaluation"], config["graphs"]
    return methods_for(lang, ev["model_languages"], graphs["measures"], ev["lm_retrieval"], SNS_LANGUAGES)


def booqa_models():
    """Model of each method family per language, as the BoOQA tables print them."""
    return {"lm": {lang: lm_encoder(lang) for lang in ("en", "zh")}, "sns": MAIN_LMS}


def lm_encoder_kinds():
    """What each LM encoder alias is (a sentence encoder trained on NLI pairs is not the paper's unsupervised LM)."""
    return {alias: model_kind(config["models"][alias]) for alias in sorted({lm_encoder(lang) for lang in ("en", "zh")})}


def table_evaluation():
    """How table numbers are computed: the AUC50 precision floor and the bootstrap of their intervals."""
    return {"auc_floor": config["evaluation"]["auc_precision_floor"], "resamples": config["evaluation"]["bootstrap_resamples"],
            "seed": config["seed"]}


def graph_lookup():
    """How graph scores are looked up: the fuzzy back-off and its limits (booqa_scoring.graph_scores)."""
    graphs = config["graphs"]
    return {"fuzzy": graphs["fuzzy_backoff"], "fuzzy_top": graphs["fuzzy_top"], "fuzzy_min_count": graphs["fuzzy_min_count"]}


def booqa_method_inputs(wildcards):
    """What one BoOQA method needs besides the split: its evidence, and an encoder, an S&S model or a graph."""
    family, detail = METHODS[wildcards.method]
    evidence = f"results/{wildcards.lang}/evidence/{wildcards.split}{'.tfidf' if detail == 'tfidf' else ''}.parquet"
    if family == "lm":
        inputs = {"evidence": evidence, "model": model_directory(lm_encoder(wildcards.lang))}
        if detail == "sent" and wildcards.lang == "en":
            inputs["wordnet"] = "resources/nltk_data"  # the authors match argument mentions through WordNet lemmas
        return inputs
    if family == "sns":
        variant, subset = detail
        lang_subset = language_subset(subset, wildcards.lang)
        return {"evidence": evidence, "model": f"results/models/{MAIN_LMS[wildcards.lang]}/{variant}/{lang_subset}/best"}
    return {"evidence": evidence, "graph": f"results/{wildcards.lang}/graphs/for_{wildcards.split}.parquet"}


def booqa_score_files(table=None):
    """Score files of one BoOQA table (``BOOQA_TABLES``), or of every runnable method on both splits."""
    tables = [BOOQA_TABLES[table]] if table else list(BOOQA_TABLES.values())
    return sorted({booqa_score_path(lang, t.split, method) for t in tables for lang in config["booqa"]["languages"]
                   for method in t.methods if method in booqa_methods(lang)})


def booqa_table_scores(wildcards):
    return booqa_score_files(wildcards.booqa_table)


def trained_searches():
    """(language model, variant, training subset) of every search, English and Chinese."""
    searches = [(lm, v, s) for lm in LANGUAGE_MODELS["en"] for v, s in trained_models()]
    if "zh" in SNS_LANGUAGES:
        searches += [(lm, v, s) for lm in LANGUAGE_MODELS["zh"] for v, s in chinese_trained_models()]
    return searches


def trained_model_files():
    """selection.csv and best/ of every search, and the sanity check of every selected model that reads premises (S&S
    and 'S&S)."""
    return [f"results/models/{lm}/{v}/{s}/{name}" for lm, v, s in trained_searches()
            for name in ("selection.csv", "best") + (("sanity.csv",) if v != "hyponly" else ())]


def model_card_files():
    """The card of every selected model."""
    return [f"results/model_cards/{lm}/{v}/{s}/README.md" for lm, v, s in trained_searches()]


def model_card_inputs(wildcards):
    """What a model card reads: the search's selection, the selected model and its trials' dev scores, its sanity
    check, the base model's SOURCE.json and, for a model scored on LevyHolt test sets, its scores."""
    run = model_run(wildcards)
    inputs = {"selection": f"{run}/selection.csv", "best": f"{run}/best", "base": f"resources/models/{wildcards.lm}",
              "dev_scores": trial_files(run, trial_ids(wildcards.variant, wildcards.subset))["dev_scores"]}
    if wildcards.variant != "hyponly":
        inputs["sanity"] = f"{run}/sanity.csv"
    if (wildcards.variant, wildcards.subset) in scored_models():
        inputs["scores"] = levyholt_score_directory(wildcards.lm, wildcards.variant, wildcards.subset)
    return inputs


def phase_targets(name):
    """Every output of a phase: the inputs of its <phase>_phase rule, which its DVC stage runs."""
    if name == "resources":
        return all_resources()
    if name == "corpus":
        return [f"results/{lang}/corpus/{file}" for lang in config["booqa"]["languages"] for file in ("articles.parquet", "reading.json")]
    if name == "relations":
        shards = range(config["relations"]["shards"])
        return [f"results/{lang}/relations/{k}.parquet" for lang in config["booqa"]["languages"] for k in shards]
    if name == "booqa":
        names = ["positives.parquet", "predicate_counts.parquet", "negatives.parquet", "dev.parquet", "test.parquet",
                 "dev.jsonl", "test.jsonl", "graph_windows.csv", "README.md", "evidence_density.csv", "validation.json"]
        files = [f"results/{lang}/booqa/{n}" for lang in config["booqa"]["languages"] for n in names]
        return files + [f"results/{lang}/booqa_hyponly/{s}.tsv" for lang in config["booqa"]["languages"] for s in SPLITS]
    if name == "levyholt":
        return ["results/levyholt/subgroups.csv", "results/levyholt/subsets.csv"] + levyholt_data_files() + chinese_levyholt_files()
    if name == "training":
        return ["results/models/hyperparameters.csv"] + trained_model_files()
    if name == "evaluation":
        return all_levyholt_scores()
    if name == "booqa_evaluation":
        return booqa_score_files()
    if name == "robustness":
        selections = [f"results/robustness/{lang}/{MAIN_LMS[lang]}/{n}" for lang in TABLE3_LANGUAGES for n in ("selection.csv", "best")]
        return selections + robustness_score_files()
    if name == "tables":
        return [f for f in phase(name).outs if f != MODEL_CARDS] + model_card_files() + list(phase(name).metrics + phase(name).plots)
    if name == "graphs":
        return [f"results/{lang}/graphs/for_{split}.parquet" for lang in config["booqa"]["languages"] for split in ("dev", "test")]
    return list(phase(name).outs + phase(name).metrics + phase(name).plots)


def is_symmetric(wildcards):
    """'S&S adds every prompt with premise and hypothesis swapped."""
    return wildcards.get("variant") == "sns_sym"


def subset_language(wildcards):
    """Language of a model's prompts: Chinese LevyHolt subsets carry the zh_ prefix (Table 3's BoOQA model: its lang)."""
    return "zh" if wildcards.get("subset", "").startswith(CHINESE_PREFIX) else wildcards.get("lang", "en")


def trial_settings(wildcards):
    """TrainingSettings of one trial: training.* with the model's budget and its batch size and accumulation factor
    for its variant (the authors' scripts: large models take smaller batches and scaled accumulation)."""
    training = config["training"]
    batching = training["model_batching"].get(wildcards.lm, {})
    prefix = "symmetric_" if is_symmetric(wildcards) else ""
    budget = model_budget(wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa"))
    return {
        "epochs": budget["epochs"],
        "batch_size": batching.get(f"{prefix}batch_size", training["batch_size"]),
        "accumulation_factor": batching.get(f"{prefix}accumulation_factor", 1.0),
        "max_length": training["max_length"],
        "seed": config["seed"],
        "symmetric": is_symmetric(wildcards),
        "lang": subset_language(wildcards),
        "evaluations_per_epoch": budget["evaluations_per_epoch"],
        "patience": budget["patience"],
        "min_delta": training["min_delta"],
        "precision": training["precision"],
    }


def trial_samples(wildcards):
    """Sizes of the training and dev samples one model's trials read (None = the whole file)."""
    budget = model_budget(wildcards.get("variant", "hyponly"), wildcards.get("subset", "booqa"))
    return {"train": budget["max_train"], "dev": budget["max_dev"]}


def robustness_trial_outputs(wildcards):
    return trial_files(f"results/robustness/{wildcards.lang}/{wildcards.lm}", trial_ids("hyponly", "booqa"))


def wildcard_lang(wildcards):
    return wildcards.lang


def robustness_model(wildcards):
    """Table 3: the H-only model trained on BoOQA dev, or a LevyHolt H-only model."""
    if wildcards.trained_on == "booqa":
        return f"results/robustness/{wildcards.lang}/{wildcards.lm}/best"
    return f"results/models/{wildcards.lm}/hyponly/{language_subset(wildcards.trained_on, wildcards.lang)}/best"


def findings_claims():
    """Numbers of the paper's claims this config can test (tables.findings.CLAIMS)."""
    english = booqa_methods("en") if "en" in config["booqa"]["languages"] else []
    return runnable_claims(english, TABLE3_LANGUAGES)


def findings_inputs(wildcards=None):
    """Score sets and model records of the testable claims, and the English evidence density (thin-evidence reasons)."""
    used = [s for k in findings_claims() for s in (CLAIMS[k].a, CLAIMS[k].b) if s is not None]
    scores = {levyholt_score_directory(MAIN_LM, *s.key[:2]) if s.kind == "levyholt" else claim_score_path(s, MAIN_LM) for s in used}
    records = {f for s in used if s.model for f in model_record_files(MAIN_LM, *s.model)}
    inputs = {"scores": sorted(scores), "records": sorted(records)}
    if "en" in config["booqa"]["languages"]:
        inputs["density"] = "results/en/booqa/evidence_density.csv"
    return inputs


def robustness_score_files():
    return [f"results/robustness/{lang}/scores/{MAIN_LMS[lang]}/{t}.parquet" for lang in TABLE3_LANGUAGES for t in TABLE3_TRAINED_ON]


def newscrawl_years(wildcards):
    """Years of News Crawl to fetch; they matter only for the newscrawl dataset (no re-run of the others)."""
    return config["resources"]["newscrawl"]["years"] if wildcards.dataset == "newscrawl" else []


# Config validation and the helpers every phase uses (no rules here).
import os
import sys

from snakemake.utils import validate

sys.path.insert(0, os.path.join(workflow.basedir, "src"))

from directional_inference.booqa_config import booqa_settings  # noqa: E402
from directional_inference.booqa_methods import BOOQA_TABLES, METHODS, booqa_score_path, methods_for  # noqa: E402
from directional_inference.experiments import (  # noqa: E402
    TABLE3_TRAINED_ON,
    data_directory,
    levyholt_score_path,
    levyholt_scorings,
    trained_models,
)
from directional_inference.inputs import datasets as downloadable_datasets  # noqa: E402
from directional_inference.levyholt import ALL_SUBSETS, SPLITS  # noqa: E402
from directional_inference.phases import PHASES, phase  # noqa: E402
from directional_inference.sns import VARIANTS  # noqa: E402

validate(config, schema="../config/schema.yaml")

PRETRAINED_MODELS = sorted(a for a, spec in config["models"].items() if isinstance(spec, str))
TINY_MODELS = sorted(a for a, spec in config["models"].items() if isinstance(spec, dict))


LEVYHOLT_SETS = list(ALL_SUBSETS) + ["sherliic"]
TABLE3_LANGUAGES = [lang for lang in config["booqa"]["languages"] if lang in config["evaluation"]["model_languages"]]


wildcard_constraints:
    dataset="|".join(downloadable_datasets()),
    model="|".join(PRETRAINED_MODELS + TINY_MODELS) or "NO_MODEL",
    lm="|".join(sorted(config["models"])),
    lang="en|zh",
    shard=r"\d+",
    split="dev|test",
    method="|".join(METHODS),
    variant="|".join(VARIANTS),
    subset="|".join(LEVYHOLT_SETS),
    test="|".join(LEVYHOLT_SETS),
    trial=r"\d+",
    trained_on="|".join(TABLE3_TRAINED_ON),


def language_booqa_settings(wildcards):
    """BoOQA thresholds of wildcards.lang: the shared booqa settings with booqa.overrides.<lang> laid over them."""
    return booqa_settings(config["booqa"], wildcards.lang)


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


def used_models():
    """Every model alias some phase of this config uses."""
    used = set(config["training"]["language_models"]) | set(PRETRAINED_MODELS) | {config["evaluation"]["lm_encoder"]}
    if config["booqa"]["wsd"] == "gloss_similarity":
        used.add(config["booqa"]["wsd_encoder"])
    return sorted(used)


def all_resources():
    """Every input this config needs: datasets, the NLTK WordNet root, model directories."""
    targets = [f"resources/{name}" for name in config["resources"]["datasets"]]
    targets += [corpus_directory(lang) for lang in config["booqa"]["languages"]]
    if "wordnet-3.0" in config["resources"]["datasets"]:
        targets.append("resources/nltk_data")
    targets += [model_directory(alias) for alias in used_models()]
    return sorted(set(targets))


def levyholt_data_files():
    """Every TSV the LevyHolt phase writes: subsets, their hypothesis-only variants, SherLIiC."""
    names = [n for s in ALL_SUBSETS for n in (s, f"{s}_hyponly")] + ["sherliic"]
    return [f"results/levyholt/{name}/{split}.tsv" for name in names for split in SPLITS]


def levyholt_file(variant, subset, split):
    """The data file a variant reads for a subset and split."""
    return f"results/levyholt/{data_directory(variant, subset)}/{split}.tsv"


def levyholt_train_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "train")


def levyholt_dev_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "dev")


def levyholt_test_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.test, "test")


def trial_ids():
    return list(range(config["training"]["trials"]))


def model_run(wildcards):
    """Directory of one (language model, variant, training subset) search."""
    return f"results/models/{wildcards.lm}/{wildcards.variant}/{wildcards.subset}"


def trial_outputs(wildcards):
    """Dev scores and weights of every trial of one search."""
    run = model_run(wildcards)
    return {
        "dev_scores": [f"{run}/trial-{k}/dev_scores.parquet" for k in trial_ids()],
        "weights": [f"{run}/trial-{k}/model" for k in trial_ids()],
    }


def levyholt_scores_of(lm):
    """Score files of every (variant, training subset, test set) the LevyHolt tables need, for one model."""
    return [levyholt_score_path(lm, v, s, t) for v, s, t in levyholt_scorings()]


def all_levyholt_scores(wildcards=None):
    return [f for lm in config["training"]["language_models"] for f in levyholt_scores_of(lm)]


def levyholt_model_infos(wildcards=None):
    """(alias, name) of every fine-tuned language model, in config order (the first is the main model)."""
    names = {a: (s if isinstance(s, str) else f"tiny-{s['tiny'].get('architecture', 'bert')}") for a, s in config["models"].items()}
    return [[alias, names[alias]] for alias in config["training"]["language_models"]]


CORPUS_DATASETS = {"reuters21578": "reuters21578", "newscrawl": "newscrawl", "cctv": "zh-news", "clue": "clue-news2016zh"}


def corpus_settings(wildcards):
    """config['corpus'][lang]: source, window_days, max_articles."""
    return config["corpus"][wildcards.lang]


def corpus_directory(lang):
    """resources/<dataset> holding the raw corpus of a language."""
    return f"resources/{CORPUS_DATASETS[config['corpus'][lang]['source']]}"


def corpus_source_directory(wildcards):
    return corpus_directory(wildcards.lang)


def relation_shards(wildcards):
    return [f"results/{wildcards.lang}/relations/{k}.parquet" for k in range(config["relations"]["shards"])]


def wsd_encoder_directory(wildcards):
    """The encoder of the English gloss-similarity sense choice (nothing when another method or Chinese)."""
    if wildcards.lang == "en" and config["booqa"]["wsd"] == "gloss_similarity":
        return [model_directory(config["booqa"]["wsd_encoder"])]
    return []


MAIN_LM = config["training"]["language_models"][0]


def booqa_methods(lang):
    """BoOQA methods that can run for a language under this config."""
    ev, graphs = config["evaluation"], config["graphs"]
    return methods_for(lang, ev["model_languages"], graphs["measures"], ev["lm_retrieval"])


def booqa_method_inputs(wildcards):
    """What one BoOQA method needs besides the split: its evidence, and an encoder, an S&S model or a graph."""
    family, detail = METHODS[wildcards.method]
    evidence = f"results/{wildcards.lang}/evidence/{wildcards.split}{'.tfidf' if detail == 'tfidf' else ''}.parquet"
    if family == "lm":
        return {"evidence": evidence, "model": model_directory(config["evaluation"]["lm_encoder"])}
    if family == "sns":
        variant, subset = detail
        return {"evidence": evidence, "model": f"results/models/{MAIN_LM}/{variant}/{subset}/best"}
    return {"evidence": evidence, "graph": f"results/{wildcards.lang}/graphs/for_{wildcards.split}.parquet"}


def booqa_score_files(table=None):
    """Score files of one BoOQA table (``BOOQA_TABLES``), or of every runnable method on both splits."""
    tables = [BOOQA_TABLES[table]] if table else list(BOOQA_TABLES.values())
    return sorted({booqa_score_path(lang, t.split, method) for t in tables for lang in config["booqa"]["languages"]
                   for method in t.methods if method in booqa_methods(lang)})


def booqa_table_scores(wildcards):
    return booqa_score_files(wildcards.booqa_table)


def trained_model_files():
    """selection.csv and best/ of every search (language model x variant x training subset)."""
    files = []
    for lm in config["training"]["language_models"]:
        for variant, subset in trained_models():
            run = f"results/models/{lm}/{variant}/{subset}"
            files += [f"{run}/selection.csv", f"{run}/best"]
    return files


def phase_targets(name):
    """Every output of a phase: the inputs of its <phase>_phase rule, which its DVC stage runs."""
    if name == "resources":
        return all_resources()
    if name == "corpus":
        return [f"results/{lang}/corpus/articles.parquet" for lang in config["booqa"]["languages"]]
    if name == "relations":
        shards = range(config["relations"]["shards"])
        return [f"results/{lang}/relations/{k}.parquet" for lang in config["booqa"]["languages"] for k in shards]
    if name == "booqa":
        names = ["positives.parquet", "predicate_counts.parquet", "negatives.parquet", "dev.parquet", "test.parquet",
                 "dev.jsonl", "test.jsonl", "graph_windows.csv", "README.md", "validation.json"]
        files = [f"results/{lang}/booqa/{n}" for lang in config["booqa"]["languages"] for n in names]
        return files + [f"results/{lang}/booqa_hyponly/{s}.tsv" for lang in config["booqa"]["languages"] for s in SPLITS]
    if name == "levyholt":
        return ["results/levyholt/subgroups.csv", "results/levyholt/subsets.csv"] + levyholt_data_files()
    if name == "training":
        return ["results/models/hyperparameters.csv"] + trained_model_files()
    if name == "evaluation":
        return all_levyholt_scores()
    if name == "booqa_evaluation":
        return booqa_score_files()
    if name == "robustness":
        selections = [f"results/robustness/{lang}/{MAIN_LM}/{n}" for lang in TABLE3_LANGUAGES for n in ("selection.csv", "best")]
        return selections + robustness_score_files()
    if name == "graphs":
        return [f"results/{lang}/graphs/for_{split}.parquet" for lang in config["booqa"]["languages"] for split in ("dev", "test")]
    return list(phase(name).outs + phase(name).metrics + phase(name).plots)


def is_symmetric(wildcards):
    """'S&S adds every prompt with premise and hypothesis swapped."""
    return wildcards.variant == "sns_sym"


def robustness_trial_outputs(wildcards):
    run = f"results/robustness/{wildcards.lang}/{wildcards.lm}"
    return {
        "dev_scores": [f"{run}/trial-{k}/dev_scores.parquet" for k in trial_ids()],
        "weights": [f"{run}/trial-{k}/model" for k in trial_ids()],
    }


def robustness_model(wildcards):
    """Table 3: the H-only model trained on BoOQA dev, or a LevyHolt H-only model."""
    if wildcards.trained_on == "booqa":
        return f"results/robustness/{wildcards.lang}/{wildcards.lm}/best"
    return f"results/models/{wildcards.lm}/hyponly/{wildcards.trained_on}/best"


def robustness_score_files():
    return [f"results/robustness/{lang}/scores/{MAIN_LM}/{t}.parquet" for lang in TABLE3_LANGUAGES for t in TABLE3_TRAINED_ON]


def check_model_aliases():
    """Every alias listed in training.language_models must be defined under models."""
    unknown = sorted(set(config["training"]["language_models"]) - set(config["models"]))
    if unknown:
        raise ValueError(
            f"config key training.language_models names {unknown}, which are not defined under 'models' "
            f"(defined: {sorted(config['models'])})"
        )



def newscrawl_years(wildcards):
    """Years of News Crawl to fetch; they matter only for the newscrawl dataset (no re-run of the others)."""
    return config["resources"]["newscrawl"]["years"] if wildcards.dataset == "newscrawl" else []


check_model_aliases()

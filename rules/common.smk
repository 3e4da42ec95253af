# Config validation and the helpers every phase uses (no rules here).
import os
import sys

from snakemake.utils import validate

sys.path.insert(0, os.path.join(workflow.basedir, "src"))

from directional_inference.inputs import datasets as downloadable_datasets  # noqa: E402

validate(config, schema="../config/schema.yaml")

PRETRAINED_MODELS = sorted(a for a, spec in config["models"].items() if isinstance(spec, str))
TINY_MODELS = sorted(a for a, spec in config["models"].items() if isinstance(spec, dict))


wildcard_constraints:
    dataset="|".join(downloadable_datasets()),
    model="|".join(PRETRAINED_MODELS + TINY_MODELS) or "NO_MODEL",


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
    return sorted(set(config["training"]["language_models"]) | set(PRETRAINED_MODELS))


def all_resources():
    """Every input this config needs: datasets, the NLTK WordNet root, model directories."""
    targets = [f"resources/{name}" for name in config["resources"]["datasets"]]
    if "wordnet-3.0" in config["resources"]["datasets"]:
        targets.append("resources/nltk_data")
    if config["corpus"]["zh"]["source"] == "clue":
        targets.append("resources/clue-news2016zh")
    targets += [model_directory(alias) for alias in used_models()]
    return targets


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

# Helpers of the resources phase's rules (rules/resources.smk), and the phase's outputs (its DVC stage's targets).


def model_spec(wildcards):
    """config['models'] entry of the model alias in wildcards.model (a name/path, or the tiny-model spec)."""
    spec = config["models"][wildcards.model]
    return spec["tiny"] if isinstance(spec, dict) else spec


def tiny_model_texts(wildcards):
    """The LevyHolt whose phrases a tiny model's tokenizer learns: English, or the Chinese one."""
    return layout.resource("levyholt-zh") if model_spec(wildcards).get("language") == "zh" else layout.resource("levyholt")


def used_models():
    """Every model alias some phase of this config uses."""
    used = set(config["training"]["language_models"]) | set(config["training"]["language_models_zh"]) | set(DESIGN.pretrained_models)
    used |= {alias for alias in (config["evaluation"]["lm_encoder"], config["evaluation"]["lm_encoder_zh"]) if alias}
    if config["booqa"]["wsd"] == "gloss_similarity":
        used.add(config["booqa"]["wsd_encoder"])
    return sorted(used)


def all_resources():
    """Every input this config needs: datasets, the NLTK WordNet root, model directories, the hub LLMs' downloads."""
    targets = [layout.resource(name) for name in config["resources"]["datasets"]]
    targets += [DESIGN.corpus_directory(lang) for lang in config["booqa"]["languages"]]
    if "wordnet-3.0" in config["resources"]["datasets"]:
        targets.append(layout.resource("nltk_data"))
    if "zh" in DESIGN.sns_languages:
        targets.append(layout.resource("levyholt-zh"))
    targets += [layout.model_directory(alias) for alias in used_models()]
    targets += [DESIGN.llm_directory(alias) for alias in DESIGN.hub_llms]
    return sorted(set(targets))


DATASETS_IN_ONE_JOB = "|".join(name for name in downloadable_datasets() if name != "newscrawl")  # News Crawl: a job per year


def resources_phase_targets():
    """Every input this config needs (``all_resources``): every download of the run."""
    return all_resources()


PHASE_TARGETS["resources"] = resources_phase_targets

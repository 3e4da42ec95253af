# Helpers of the booqa phase's rules (rules/booqa.smk), and the phase's outputs (its DVC stage's targets).


def booqa_params(*keys):
    """The named booqa config keys a job reads, for its language (booqa.overrides.<lang> over the shared values), as
    one param. Naming matters because Snakemake compares a job's params as a set of value reprs: two unnamed params
    that swap values would go unnoticed."""

    def settings(wildcards):
        language = booqa_settings(config["booqa"], wildcards.lang)
        return {key: language[key] for key in keys}

    return settings


def negative_settings(wildcards):
    """What generate_booqa_negatives reads: the sense choice applies to English only (Chinese takes the first sense)."""
    wsd = config["booqa"]["wsd"] if wildcards.lang == "en" else "first_sense"
    return booqa_params("felicity_min_pairs", "negatives_of_negated_predicates")(wildcards) | {"wsd": wsd}


def card_parameters(wildcards):
    """Construction parameters listed in a BoOQA dataset card: the booqa keys that apply to the language, and the
    window length."""
    skip = {"languages"}
    if wildcards.lang != "en":
        skip |= {"wsd", "wsd_encoder"}
    elif config["booqa"]["wsd"] != "gloss_similarity":
        skip.add("wsd_encoder")
    parameters = {key: value for key, value in sorted(booqa_settings(config["booqa"], wildcards.lang).items()) if key not in skip}
    return parameters | {"window_days": config["corpus"][wildcards.lang]["window_days"]}


def wsd_encoder_directory(wildcards):
    """The encoder of the English gloss-similarity sense choice (nothing when another method or Chinese)."""
    if wildcards.lang == "en" and config["booqa"]["wsd"] == "gloss_similarity":
        return [layout.model_directory(config["booqa"]["wsd_encoder"])]
    return []


def booqa_phase_targets():
    names = [
        "positives.parquet",
        "predicate_counts.parquet",
        "negatives.parquet",
        "dev.parquet",
        "test.parquet",
        "dev.jsonl",
        "test.jsonl",
        "graph_windows.csv",
        "README.md",
        "evidence_density.csv",
        "validation.json",
    ]
    files = [layout.booqa_file(lang, n) for lang in config["booqa"]["languages"] for n in names]
    return files + [layout.booqa_hyponly_split(lang, s) for lang in config["booqa"]["languages"] for s in SPLITS]


PHASE_TARGETS["booqa"] = booqa_phase_targets

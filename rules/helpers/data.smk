# Helpers of the rules of the phases resources, corpus, relations, booqa, levyholt, graphs (rules/<phase>.smk): the inputs and the data built from them. Each phase's
# section ends with its outputs (its DVC stage's targets), registered in PHASE_TARGETS. Snakemake's lint keeps
# functions out of files with rules; the phase files are included after these.
from directional_inference.booqa.settings import booqa_settings
from directional_inference.graphs.published import graph_file_paths

# ---- resources (rules/resources.smk)


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


# ---- corpus (rules/corpus.smk)


def corpus_settings(wildcards):
    """config['corpus'][lang]: source, window_days, max_articles, years."""
    return config["corpus"][wildcards.lang]


def corpus_source_directory(wildcards):
    return DESIGN.corpus_directory(wildcards.lang)


def corpus_phase_targets():
    return [layout.corpus_file(lang, file) for lang in config["booqa"]["languages"] for file in ("articles.parquet", "reading.json")]


PHASE_TARGETS["corpus"] = corpus_phase_targets


# ---- relations (rules/relations.smk)


def english_only(value):
    """A param of English jobs only (None for Chinese ones), so that changing it re-runs no Chinese job."""
    return lambda wildcards: value if wildcards.lang == "en" else None


def imported_relation_file(wildcards):
    """The relation file made elsewhere that becomes shard ``shard`` of an imported language."""
    return str(DESIGN.imported_files[wildcards.lang][int(wildcards.shard)])


def relations_phase_targets():
    return [f for lang in config["booqa"]["languages"] for f in relation_shards(lang) + [merged_relations(lang)]]


PHASE_TARGETS["relations"] = relations_phase_targets


# ---- booqa (rules/booqa.smk)


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


# ---- levyholt (rules/levyholt.smk)


# the whole test sets of the LLM table: Directional, and Full where llm.predictions has files (which may cover it)
LEVYHOLT_WHOLE_TESTS = ("directional", "full") if config["llm"]["predictions"] else ("directional",)


def levyholt_data_files():
    """Every TSV the LevyHolt phase writes: subsets, their hypothesis-only variants, SherLIiC."""
    names = [n for s in ALL_SUBSETS for n in (s, f"{s}_hyponly")] + ["sherliic"]
    return [layout.levyholt_file(f"{name}/{split}.tsv") for name in names for split in SPLITS]


def chinese_levyholt_files():
    """Every TSV of the Chinese LevyHolt sets (when Chinese S&S models are configured)."""
    if "zh" not in DESIGN.sns_languages:
        return []
    names = [n for s in DESIGN.chinese_levyholt_sets for n in (s, f"{s}_hyponly")]
    return [layout.levyholt_file("zh_subsets.csv")] + [layout.levyholt_file(f"{name}/{split}.tsv") for name in names for split in SPLITS]


def levyholt_phase_targets():
    whole = expand(layout.levyholt_file("whole/{subset}/test.tsv"), subset=LEVYHOLT_WHOLE_TESTS) if llm_predictions() else []
    return [layout.levyholt_file("subgroups.csv"), layout.levyholt_file("subsets.csv")] + levyholt_data_files() + chinese_levyholt_files() + whole


PHASE_TARGETS["levyholt"] = levyholt_phase_targets


# ---- graphs (rules/graphs.smk)


def graph_parts(wildcards):
    """The part files of one graph, one per graph job (graphs.jobs)."""
    return [layout.graph(wildcards.lang, wildcards.split, part=k) for k in range(config["graphs"]["jobs"])]


def graph_files(wildcards):
    """The files of a graph made elsewhere (graphs.from_files.<name>.directory): one per type pair, local or global."""
    return [str(path) for path in graph_file_paths(config["graphs"]["from_files"][wildcards.graph_name]["directory"])]


def graphs_phase_targets():
    return [layout.graph(lang, split) for lang in config["booqa"]["languages"] for split in ("dev", "test")] + [
        layout.graph_file(lang, name) for name, lang in DESIGN.file_graphs.items()
    ]


PHASE_TARGETS["graphs"] = graphs_phase_targets

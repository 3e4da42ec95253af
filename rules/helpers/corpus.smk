# Helpers of the corpus phase's rules (rules/corpus.smk), and the phase's outputs (its DVC stage's targets).


def corpus_settings(wildcards):
    """config['corpus'][lang]: source, window_days, max_articles, years."""
    return config["corpus"][wildcards.lang]


def corpus_source_directory(wildcards):
    return DESIGN.corpus_directory(wildcards.lang)


def corpus_phase_targets():
    return [layout.corpus_file(lang, file) for lang in config["booqa"]["languages"] for file in ("articles.parquet", "reading.json")]


PHASE_TARGETS["corpus"] = corpus_phase_targets

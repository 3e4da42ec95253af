# Phase "corpus": each language's news corpus as one table of dated, windowed, deduplicated articles.


include: "helpers/corpus.smk"


rule build_corpus:
    input:
        corpus_source_directory,
    output:
        articles="results/{lang}/corpus/articles.parquet",
        reading="results/{lang}/corpus/reading.json",  # records read and skipped per file (for the dataset card)
    params:
        settings=corpus_settings,  # source, window_days, max_articles, years
    log:
        phase_log("corpus", "build_corpus", "{lang}"),
    benchmark:
        phase_benchmark("corpus", "build_corpus", "{lang}")
    threads: 1
    resources:
        mem_mb=8000,
        runtime=240,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/build_corpus.py"

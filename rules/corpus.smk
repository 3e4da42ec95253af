# Phase "corpus": each language's news corpus as one table of dated, windowed, deduplicated articles, written as it is
# read; for a language whose relations are imported (relations.imported), the table of the articles they name.
# Its helpers and its outputs: rules/helpers/data.smk.


rule build_corpus:
    input:
        corpus_source_directory,
    output:
        articles=layout.corpus_file("{lang}", "articles.parquet"),
        reading=layout.corpus_file("{lang}", "reading.json"),  # records read and skipped per file (for the dataset card)
    log:
        layout.job_log("corpus", "build_corpus", "{lang}"),
    benchmark:
        layout.job_benchmark("corpus", "build_corpus", "{lang}")
    wildcard_constraints:
        lang=DESIGN.extracted_language,
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(Demand(mem_mb=4000, disk_per_input_mb=3.0, seconds_per_mb=0.1, reads="raw corpus")),
    params:
        settings=corpus_settings,  # source, window_days, max_articles, years
    script:
        "../scripts/build_corpus.py"


rule describe_imported_corpus:
    input:
        shards=relation_shards,
        relations=merged_relations,
    output:
        articles=layout.corpus_file("{lang}", "articles.parquet"),
        reading=layout.corpus_file("{lang}", "reading.json"),
    log:
        layout.job_log("corpus", "describe_imported_corpus", "{lang}"),
    benchmark:
        layout.job_benchmark("corpus", "describe_imported_corpus", "{lang}")
    wildcard_constraints:
        lang=DESIGN.imported_language,
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(Demand(mem_mb=4000, disk_per_input_mb=2.0, seconds_per_mb=0.03)),
    params:
        files=lambda wildcards: [str(path) for path in DESIGN.imported_files[wildcards.lang]],
    script:
        "../scripts/describe_imported_corpus.py"

# Phase "relations": binary relations with argument types, extracted in parallel shards per language (or imported from
# relation files made elsewhere, relations.imported), then merged out of core into one file in corpus order.
# Its helpers and its outputs: rules/helpers/data.smk.


rule extract_relations:
    input:
        layout.corpus_file("{lang}", "articles.parquet"),
    output:
        layout.relation_shard("{lang}", "{shard}"),
    log:
        layout.job_log("relations", "extract_relations", "{lang}/{shard}"),
    benchmark:
        layout.job_benchmark("relations", "extract_relations", "{lang}/{shard}")
    wildcard_constraints:
        lang=DESIGN.extracted_language,
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(
            Demand(mem_mb=3000, disk_per_input_mb=0.5, seconds_per_mb=50.0, reads="corpus table"),
            share=lambda wildcards: 1 / DESIGN.extraction_shard_count(wildcards.lang),
        ),
    params:
        shards=lambda wildcards: DESIGN.extraction_shard_count(wildcards.lang),
        # spaCy settings apply to English only: changing them re-runs no Chinese shard
        spacy_model=english_only(config["relations"]["spacy_model"]),
        batch_size=english_only(config["relations"]["batch_size"]),
    script:
        "../scripts/extract_relations.py"


rule import_relations:
    input:
        imported_relation_file,
    output:
        layout.relation_shard("{lang}", "{shard}"),
    log:
        layout.job_log("relations", "import_relations", "{lang}/{shard}"),
    benchmark:
        layout.job_benchmark("relations", "import_relations", "{lang}/{shard}")
    wildcard_constraints:
        lang=DESIGN.imported_language,
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(Demand(mem_mb=1000, disk_per_input_mb=1.5, seconds_per_mb=0.08, reads="relation file")),
    params:
        window_days=lambda wildcards: config["corpus"][wildcards.lang]["window_days"],
        max_chars=config["relations"]["imported_max_chars"],
        empty_files=config["relations"]["imported_empty_files"],
    script:
        "../scripts/import_relations.py"


rule merge_relations:
    input:
        shards=relation_shards,
    output:
        layout.merged_relations("{lang}"),
    log:
        layout.job_log("relations", "merge_relations", "{lang}"),
    benchmark:
        layout.job_benchmark("relations", "merge_relations", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: engine_threads
    resources:
        **corpus_job(Demand(mem_mb=6000, disk_per_input_mb=3.0, seconds_per_mb=0.15)),
    script:
        "../scripts/merge_relations.py"

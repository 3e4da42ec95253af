# Phase "relations": binary relations with argument types, extracted in parallel shards per language.


include: "helpers/relations.smk"


rule extract_relations:
    input:
        "results/{lang}/corpus/articles.parquet",
    output:
        "results/{lang}/relations/{shard}.parquet",
    params:
        shards=config["relations"]["shards"],
        # spaCy settings apply to English only: changing them re-runs no Chinese shard
        spacy_model=english_only(config["relations"]["spacy_model"]),
        batch_size=english_only(config["relations"]["batch_size"]),
    log:
        phase_log("relations", "extract_relations", "{lang}/{shard}"),
    benchmark:
        phase_benchmark("relations", "extract_relations", "{lang}/{shard}")
    threads: 1
    resources:
        mem_mb=3000,
        runtime=240,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/extract_relations.py"

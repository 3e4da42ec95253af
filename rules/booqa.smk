# Phase "booqa": positives, WordNet negatives and frequency-matched bundle sampling per language.


include: "helpers/booqa.smk"


rule select_booqa_positives:
    input:
        relations=merged_relations,
    output:
        positives="results/{lang}/booqa/positives.parquet",
        counts="results/{lang}/booqa/predicate_counts.parquet",
    log:
        phase_log("booqa", "select_booqa_positives", "{lang}"),
    benchmark:
        phase_benchmark("booqa", "select_booqa_positives", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: engine_threads
    resources:
        mem_mb=demand("select_booqa_positives", "mem_mb"),
        disk_mb=demand("select_booqa_positives", "disk_mb"),
        slurm_extra=node_scratch("select_booqa_positives"),
        runtime=demand("select_booqa_positives", "runtime"),
    params:
        settings=booqa_params("starring_min_articles", "starring_min_predicates", "felicity_min_pairs", "felicity_count", "max_positives"),
        seed=config["seed"],
    script:
        "../scripts/select_booqa_positives.py"


rule generate_booqa_negatives:
    input:
        positives="results/{lang}/booqa/positives.parquet",
        counts="results/{lang}/booqa/predicate_counts.parquet",
        relations=merged_relations,
        wordnet="resources/nltk_data",
        encoder=wsd_encoder_directory,
    output:
        "results/{lang}/booqa/negatives.parquet",
    log:
        phase_log("booqa", "generate_booqa_negatives", "{lang}"),
    benchmark:
        phase_benchmark("booqa", "generate_booqa_negatives", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: engine_threads
    resources:
        mem_mb=demand("generate_booqa_negatives", "mem_mb"),
        disk_mb=demand("generate_booqa_negatives", "disk_mb"),
        slurm_extra=node_scratch("generate_booqa_negatives"),
        runtime=demand("generate_booqa_negatives", "runtime"),
    params:
        settings=negative_settings,  # the encoder is an input: its alias is in the path
    script:
        "../scripts/generate_booqa_negatives.py"


rule sample_booqa:
    input:
        positives="results/{lang}/booqa/positives.parquet",
        negatives="results/{lang}/booqa/negatives.parquet",
        articles="results/{lang}/corpus/articles.parquet",
    output:
        dev="results/{lang}/booqa/dev.parquet",
        test="results/{lang}/booqa/test.parquet",
        dev_jsonl="results/{lang}/booqa/dev.jsonl",
        test_jsonl="results/{lang}/booqa/test.jsonl",
        reserved="results/{lang}/booqa/graph_windows.csv",
    log:
        phase_log("booqa", "sample_booqa", "{lang}"),
    benchmark:
        phase_benchmark("booqa", "sample_booqa", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        settings=booqa_params("positive_budget", "max_negatives_per_positive", "frequency_buckets", "dev_share", "graph_window_share"),
        seed=config["seed"],
    script:
        "../scripts/sample_booqa.py"


rule write_booqa_card:
    input:
        dev="results/{lang}/booqa/dev.parquet",
        test="results/{lang}/booqa/test.parquet",
        reading="results/{lang}/corpus/reading.json",
        # evidence per entry, retrieved as retrieve_booqa_evidence does (its files are of a later phase)
        relations=merged_relations,
        wordnet="resources/nltk_data",
    output:
        card="results/{lang}/booqa/README.md",
        density="results/{lang}/booqa/evidence_density.csv",
    log:
        phase_log("booqa", "write_booqa_card", "{lang}"),
    benchmark:
        phase_benchmark("booqa", "write_booqa_card", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=demand("write_booqa_card", "mem_mb"),
        disk_mb=demand("write_booqa_card", "disk_mb"),
        slurm_extra=node_scratch("write_booqa_card"),
        runtime=demand("write_booqa_card", "runtime"),
    params:
        parameters=card_parameters,
        source=lambda wildcards: config["corpus"][wildcards.lang]["source"],
        scale=config["scale"],
        cap=config["evaluation"]["evidence_cap"],
        seed=config["seed"],
    script:
        "../scripts/write_booqa_card.py"


rule build_booqa_hyponly:
    input:
        dev="results/{lang}/booqa/dev.parquet",
        test="results/{lang}/booqa/test.parquet",
    output:
        train="results/{lang}/booqa_hyponly/train.tsv",
        dev="results/{lang}/booqa_hyponly/dev.tsv",
        test="results/{lang}/booqa_hyponly/test.tsv",
    log:
        phase_log("booqa", "build_booqa_hyponly", "{lang}"),
    benchmark:
        phase_benchmark("booqa", "build_booqa_hyponly", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=config["hypothesis_only"],
        seed=config["seed"],
    script:
        "../scripts/build_booqa_hyponly.py"


rule validate_booqa:
    input:
        dev="results/{lang}/booqa/dev.parquet",
        test="results/{lang}/booqa/test.parquet",
        negatives="results/{lang}/booqa/negatives.parquet",
        counts="results/{lang}/booqa/predicate_counts.parquet",
        reserved="results/{lang}/booqa/graph_windows.csv",
        relations=merged_relations,
        wordnet="resources/nltk_data",
    output:
        "results/{lang}/booqa/validation.json",
    log:
        phase_log("booqa", "validate_booqa", "{lang}"),
    benchmark:
        phase_benchmark("booqa", "validate_booqa", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=demand("validate_booqa", "mem_mb"),
        disk_mb=demand("validate_booqa", "disk_mb"),
        slurm_extra=node_scratch("validate_booqa"),
        runtime=demand("validate_booqa", "runtime"),
    params:
        settings=booqa_params("felicity_min_pairs", "max_negatives_per_positive"),
    script:
        "../scripts/validate_booqa.py"
